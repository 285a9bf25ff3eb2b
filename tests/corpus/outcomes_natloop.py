#!/usr/bin/env python3
"""Natural loops of `ptxcheck outcomes` (docs/outcomes.md, "Spin loops";
Shared::pure_loop and Shared::natural_loop in
semantics/outcomes/loop_analysis.cpp) against the search without them
(PTXCHECK_OUTCOMES_NO_NATURAL_LOOP=1): each spec gives the states argued
for it, without races, with the rule on and off, and where the rule applies
(nvcc -O3's cuda::barrier waits, whose backoff blocks lie after other code)
fewer launches with it on. natloop_giveup's natural loop holds a way out
that its counter decides: it is no pure loop, and it loses the state {9}
if a natural loop is taken as pure without pure_loop's checks (checked by
disabling them).

    outcomes_natloop.py PTXCHECK SPEC...
"""
import json
import os
import sys

import outcomes_switch

exe, specs = sys.argv[1], sys.argv[2:]
fails = []

# The states argued for each spec (in its PTX or in its golden's argument).
EXPECT = {
    "natloop_giveup": [{"out": [1]}, {"out": [9]}],
    "f9_cbar_pipe": [{"out": [10, 20]}],
}
# Specs whose loops are pure only as natural loops.
FEWER = {"f9_cbar_pipe"}


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), res["races"]


for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    want = sorted(json.dumps(b, sort_keys=True) for b in EXPECT[name])
    res = {}
    for on in (True, False):
        r = outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_NATURAL_LOOP", on, fails, ("--memory", "2000"), 120)
        if r is None:
            continue
        res[on] = r
        got, races = states(r)
        if got != want or races:
            fails.append(f"{name} ({'on' if on else 'off'}): states {got}, {len(races)} races; expected {want}, none")
    if len(res) < 2:
        continue
    n_on, n_off = res[True]["stats"]["launches"], res[False]["stats"]["launches"]
    print(f"{name}: {n_on} launches, {n_off} without natural loops")
    if name in FEWER and not n_on < n_off:
        fails.append(f"{name}: {n_on} launches with natural loops, not fewer than {n_off} without")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
