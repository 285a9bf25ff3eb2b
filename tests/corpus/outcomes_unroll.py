#!/usr/bin/env python3
"""Unrolled polls of `ptxcheck outcomes` (docs/outcomes.md, "Unrolled polls";
Shared::poll_unrolled in semantics/outcomes/wait_analysis.cpp) against the
search without them (PTXCHECK_OUTCOMES_NO_POLL_UNROLL=1): each kernel of
tests/corpus/unroll/unroll.cu gives the states argued in its source, with
a race exactly where argued, with the rule on and off, and where the rule
applies (unroll_mp, unroll_relaxed: straight-line polls before a spin loop)
fewer launches with it on. unroll_count loses the states 1..3 if the polls'
exits are taken as one without comparing the registers live there, and
unroll_giveup loses out = 0 and its race if a way out after a failed last
poll is not checked (both checked by disabling those checks).

    outcomes_unroll.py PTXCHECK SPEC...
"""
import json
import os
import sys

import outcomes_switch

exe, specs = sys.argv[1], sys.argv[2:]
fails = []

# The states argued for each kernel (unroll.cu) and whether it races.
EXPECT = {
    "unroll_mp": ([[42]], False),
    "unroll_relaxed": ([[0], [42]], True),
    "unroll_giveup": ([[0], [42]], True),
    "unroll_count": ([[0], [1], [2], [3]], False),
}
FEWER = {"unroll_mp", "unroll_relaxed"}

for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    want, race = EXPECT[name]
    want = sorted(want)
    res = {}
    for on in (True, False):
        r = outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_POLL_UNROLL", on, fails, (), 120)
        if r is None:
            continue
        res[on] = r
        got = sorted(o["buffers"]["out"] for o in r["outcomes"])
        if got != want or bool(r["races"]) != race or r["bound_hit"]:
            fails.append(f"{name} ({'on' if on else 'off'}): states {got}, races {bool(r['races'])}, "
                         f"bound_hit {r['bound_hit']}; expected {want}, races {race}")
    if len(res) < 2:
        continue
    n_on, n_off = res[True]["stats"]["launches"], res[False]["stats"]["launches"]
    print(f"{name}: {n_on} launches, {n_off} without unrolled polls")
    if name in FEWER and not n_on < n_off:
        fails.append(f"{name}: {n_on} launches with unrolled polls, not fewer than {n_off} without")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
