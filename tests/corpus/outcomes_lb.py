#!/usr/bin/env python3
"""Load buffering through a barrier onto a word that polls wait on
(semantics/outcomes/hook_grid.cpp (f6), hook_latest.cpp (f)): each kernel of DIR/lb.cu has exactly the one state
argued there, with a race, though every schedule of it deadlocks. Without
(f6)'s check of the writes after the wait points lb_cl_reset gives no
state, without hook_latest.cpp (f) lb_cl_reset5 (checked). lb_cl_reset also
gives it with grid counters off (PTXCHECK_OUTCOMES_NO_GRID=1); lb_cl_reset5
(12 s) only runs in an unsanitized build (--quick leaves it out). lb_reset
(global memory) still loses its state (hook_chain.cpp, "Not covered"): not
run.

    outcomes_lb.py PTXCHECK DIR [--quick]
"""
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
quick = "--quick" in sys.argv[3:]
fails = []
EXPECT = {
    "lb_cl_reset": [{"out": [2, 0]}],
    "lb_cl_reset5": [{"out": [6, 0]}],
}
CROSS = {"lb_cl_reset"}
for name, want in EXPECT.items():
    if quick and name not in CROSS:
        continue
    spec = os.path.join(d, name + ".json")
    for on in (True, False) if name in CROSS else (True,):
        r = outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_GRID", on, fails, ("--memory", "2000"), 240)
        if r is None:
            continue
        got = sorted((o["buffers"] for o in r["outcomes"]), key=lambda b: json.dumps(b, sort_keys=True))
        what = "" if on else " without grid counters"
        if got != want:
            fails.append(f"{name}{what}: states {got}; expected {want}")
        if not r["races"]:
            fails.append(f"{name}{what}: no race; expected one (the reset and A's poll)")
        print(f"{name}{what}: {len(got)} states, {r['stats']['launches']} launches ({r['stats']['seconds']:.2f} s)")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
