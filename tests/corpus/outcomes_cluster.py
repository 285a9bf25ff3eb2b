#!/usr/bin/env python3
"""Clusters in `ptxcheck outcomes` (docs/outcomes.md, "How the search
scales", items 1 and 8): every SPEC before `--counter` against the search
that explores a launch with clusters whole
(PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS=1): the same states and races, each of
these launches of two clusters explored as two units (one without), in fewer
launches (or, below 10 launches, one more); every SPEC after `--counter`
(a counter in a cluster's shared memory, semantics/outcomes/hook_grid.cpp
(g5), (f6)) against the search
without such counters (PTXCHECK_OUTCOMES_NO_CLUSTER_COUNTER=1): the same
states and races in at most a tenth of the launches.

    outcomes_cluster.py PTXCHECK SPEC.json... [--counter SPEC.json...]
"""
import sys

import outcomes_switch

exe, args = sys.argv[1], sys.argv[2:]
cut = args.index("--counter") if "--counter" in args else len(args)
apart, counter = args[:cut], args[cut + 1:]


def check_apart(i, spec, name, a, b):
    ua, ub = a["stats"]["units"], b["stats"]["units"]
    la, lb = a["stats"]["launches"], b["stats"]["launches"]
    print(f"{name}: {ua} units, {la} launches with clusters apart; {ub} unit, {lb} launches without")
    fails = []
    if ua != 2 or ub != 1:
        fails.append(f"{name}: {ua} units with clusters apart, {ub} without; expected 2 and 1")
    # Fewer launches, or (explorations of a few launches, where a unit's
    # path is replayed while the next unit is explored) at most one more
    # per extra unit.
    if not (la < lb or la <= lb + ua - 1 <= 10):
        fails.append(f"{name}: {la} launches with clusters apart, not fewer than {lb}")
    return fails


def check_counter(i, spec, name, a, b):
    la, lb = a["stats"]["launches"], b["stats"]["launches"]
    print(f"{name}: {la} launches with cluster counters, {lb} without")
    if not la * 10 <= lb:
        return [f"{name}: {la} launches with cluster counters, more than a tenth of {lb}"]
    return []


rc = outcomes_switch.compare(exe, apart, "PTXCHECK_OUTCOMES_NO_CLUSTER_UNITS", "clusters apart", check_apart)
rc |= outcomes_switch.compare(exe, counter, "PTXCHECK_OUTCOMES_NO_CLUSTER_COUNTER", "cluster counters", check_counter)
sys.exit(rc)
