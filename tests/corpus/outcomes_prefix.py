#!/usr/bin/env python3
"""Prefix checks of `ptxcheck outcomes` (docs/outcomes.md, "How the search
scales", item 2: a prefix of units checked with shapes for the other units)
against the search without them (PTXCHECK_OUTCOMES_NO_PREFIX=1): the same
states and races on every SPEC, and on the first SPEC (a lock over a struct,
3 CTAs) at least 95% of the compositions skipped by a prefix check
(`stats.prefix_pruned_compositions`).

    outcomes_prefix.py PTXCHECK SPEC.json...
"""
import sys

import outcomes_switch


def check(i, spec, name, a, b):
    fails = []
    comps, skipped = a["stats"]["finished_launches"], a["stats"]["prefix_pruned_compositions"]
    print(f"{name}: {skipped} of {comps} compositions skipped by prefix checks; runs decided {a['stats']['skeletons']}"
          f" with, {b['stats']['skeletons']} without")
    if b["stats"]["prefix_pruned_compositions"] != 0:
        fails.append(f"{name}: PTXCHECK_OUTCOMES_NO_PREFIX still skipped compositions by prefix")
    if i == 0 and not skipped * 100 >= comps * 95:
        fails.append(f"{name}: prefix checks should skip at least 95% of the compositions ({skipped} of {comps})")
    return fails


sys.exit(outcomes_switch.compare(sys.argv[1], sys.argv[2:], "PTXCHECK_OUTCOMES_NO_PREFIX", "prefix checks", check,
                                 timeout=300))
