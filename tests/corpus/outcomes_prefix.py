#!/usr/bin/env python3
"""Prefix checks of `ptxcheck outcomes` (docs/outcomes.md, "How the search
scales", item 2: a prefix of units checked with shapes for the other units)
against the search without them (PTXCHECK_OUTCOMES_NO_PREFIX=1): the same
states and races on every SPEC, and on the first SPEC (a lock over a struct,
3 CTAs) at least 95% of the compositions skipped by a prefix check
(`stats.prefix_pruned_compositions`).

    outcomes_prefix.py PTXCHECK SPEC.json...
"""
import os
import sys

import outcomes_switch

exe, specs = sys.argv[1], sys.argv[2:]
fails = []


def run(spec, on):
    return outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_PREFIX", on, fails, ("--unroll", "1"), 300)


for i, spec in enumerate(specs):
    name = os.path.basename(spec)
    a, b = run(spec, True), run(spec, False)
    if a is None or b is None:
        continue
    if (a["outcomes"], a["races"]) != (b["outcomes"], b["races"]):
        fails.append(f"{name}: states or races differ with and without prefix checks")
    comps, skipped = a["stats"]["finished_launches"], a["stats"]["prefix_pruned_compositions"]
    print(f"{name}: {skipped} of {comps} compositions skipped by prefix checks; runs decided {a['stats']['skeletons']}"
          f" with, {b['stats']['skeletons']} without")
    if b["stats"]["prefix_pruned_compositions"] != 0:
        fails.append(f"{name}: PTXCHECK_OUTCOMES_NO_PREFIX still skipped compositions by prefix")
    if i == 0 and not skipped * 100 >= comps * 95:
        fails.append(f"{name}: prefix checks should skip at least 95% of the compositions ({skipped} of {comps})")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
