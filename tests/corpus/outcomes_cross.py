#!/usr/bin/env python3
"""Pipelines of mbarriers in `ptxcheck outcomes` (hook_canon.cpp (k),
docs/outcomes.md item 4) against the search without them
(PTXCHECK_OUTCOMES_NO_CROSS_WAIT=1): each spec gives the states argued for
it, with the races argued, with the rule on and (where the search without
it ends) off, and where the rule applies fewer launches with it on (so
the check fails if (k) does nothing). k9_cbar_pipe3 (3 items) runs out of
memory without (k), and is run with it only.

    outcomes_cross.py PTXCHECK SPEC...
"""
import json
import os
import sys

import outcomes_switch

exe, specs = sys.argv[1], sys.argv[2:]
fails = []

# The states argued for each spec (in its PTX, source or golden), races.
EXPECT = {
    "f9_cbar_pipe": ([{"out": [10, 20]}], 0),
    "k9_cbar_pipe3": ([{"out": [10, 20, 30]}], 0),
}
ON_ONLY = {"k9_cbar_pipe3"}
FEWER = {"f9_cbar_pipe"}

for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    want = sorted(json.dumps(b, sort_keys=True) for b in EXPECT[name][0])
    res = {}
    for on in (True, False) if name not in ON_ONLY else (True,):
        r = outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_CROSS_WAIT", on, fails, ("--memory", "2000"), 120)
        if r is None:
            continue
        res[on] = r
        got = sorted(json.dumps(o["buffers"], sort_keys=True) for o in r["outcomes"])
        if got != want or len(r["races"]) != EXPECT[name][1]:
            fails.append(f"{name} ({'on' if on else 'off'}): states {got}, {len(r['races'])} races; "
                         f"expected {want}, {EXPECT[name][1]}")
    line = f"{name}: {res[True]['stats']['launches']} launches" if True in res else name
    if False in res:
        line += f", {res[False]['stats']['launches']} without (k)"
        if name in FEWER and not res[True]["stats"]["launches"] < res[False]["stats"]["launches"]:
            fails.append(f"{name}: not fewer launches with (k)")
    print(line)

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
