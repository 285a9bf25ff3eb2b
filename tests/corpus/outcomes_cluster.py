#!/usr/bin/env python3
"""Clusters explored apart in `ptxcheck outcomes` (docs/outcomes.md, "How the
search scales", item 1; semantics/outcomes/explore.cpp) against the search
that explores a launch with clusters whole (PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS=1):
the same states and races on every SPEC, each of the launches of two clusters
explored as two units (one without), in fewer launches.

    outcomes_cluster.py PTXCHECK SPEC.json...
"""
import sys

import outcomes_switch

exe, specs = sys.argv[1], sys.argv[2:]


def check(i, spec, name, a, b):
    ua, ub = a["stats"]["units"], b["stats"]["units"]
    la, lb = a["stats"]["launches"], b["stats"]["launches"]
    print(f"{name}: {ua} units, {la} launches with clusters apart; {ub} unit, {lb} launches without")
    fails = []
    if ua != 2 or ub != 1:
        fails.append(f"{name}: {ua} units with clusters apart, {ub} without; expected 2 and 1")
    if not la < lb:
        fails.append(f"{name}: {la} launches with clusters apart, not fewer than {lb}")
    return fails


sys.exit(outcomes_switch.compare(exe, specs, "PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS", "clusters apart", check))
