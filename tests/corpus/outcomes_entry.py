#!/usr/bin/env python3
"""Loop entry states of `ptxcheck outcomes` (docs/outcomes.md, "Spin loops";
semantics/outcomes/hook_loop.cpp) on the kernels of DIR/entry.cu: each
-O0 build (entry_K_O0.json) gives the states argued in entry.cu, without
races; where an -O3 build exists (entry_K_O3.json), the -O0 build's states
and races are also those of the search without entry states
(PTXCHECK_OUTCOMES_NO_ENTRY=1) and its executions are the -O3 build's (its
failed first iterations are dropped as the -O3 build's pure loop is). The
search without entry states does not end on entry_addr and entry_ctrl
(their failed iterations write a .local byte with a dependency on the read,
so no two arrivals at the head compare equal; it runs into the limit of
quiet iterations); on entry_seqlock it takes 91,172 launches (30 s), and
is not run.

    outcomes_entry.py PTXCHECK DIR
"""
import glob
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []


def run(spec, on):
    return outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_ENTRY", on, fails, (), 120)


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), res["races"]


# The states argued in entry.cu (out = [out[0], out[1]]).
EXPECT = {
    "entry_spin": [[5, 2]],
    "entry_two": [[0, 0], [2, 2]],
    "entry_seqlock": [[0, 0], [1, 10]],
    "entry_addr": [[0, 1], [1, 1]],
    "entry_ctrl": [[0, 0], [1, 0]],
}

specs = sorted(glob.glob(os.path.join(d, "entry_*_O0.json")))
if not specs:
    fails.append(f"no entry_*_O0.json in {d}")
for o0 in specs:
    name = os.path.basename(o0)[: -len("_O0.json")]
    a = run(o0, True)
    if a is None:
        continue
    got = sorted(o["buffers"]["out"] for o in a["outcomes"])
    if got != sorted(EXPECT.get(name, [])) or a["races"]:
        fails.append(f"{name} -O0: states {got}, races {len(a['races'])}; expected {sorted(EXPECT.get(name, []))}, none")
    line = f"{name}: -O0 {a['stats']['executions']} executions ({a['stats']['launches']} launches)"
    o3 = o0[: -len("_O0.json")] + "_O3.json"
    if os.path.exists(o3):
        b = run(o0, False) if name != "entry_seqlock" else None
        c = run(o3, True)
        if c is None:
            continue
        if b is not None:
            if states(a) != states(b):
                fails.append(f"{name} -O0: states or races differ with and without entry states")
            line += f", {b['stats']['executions']} without entry states"
        line += f"; -O3 {c['stats']['executions']} ({c['stats']['launches']} launches)"
        if states(a) != states(c):
            fails.append(f"{name}: -O0 and -O3 states or races differ")
        if a["stats"]["executions"] != c["stats"]["executions"]:
            fails.append(f"{name}: -O0 keeps {a['stats']['executions']} executions, -O3 {c['stats']['executions']}")
    print(line)

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
