#!/usr/bin/env python3
"""Interchangeable CTAs in the checks of `ptxcheck outcomes` (docs/outcomes.md,
"How the search scales", item 2: a check asks the engine whether some
execution exists, and the engine skips the choices that swapping two CTAs
with the same events maps onto others, memmodel/enum_engine.cpp) against the
checks without it (PTXCHECK_OUTCOMES_NO_SYMMETRY=1): the same states and
races on every SPEC, no choice skipped without it, and on the first SPEC (a
lock over a struct, 3 CTAs) some choice skipped with it
(`stats.symmetric_choices_skipped`).

    outcomes_symmetry.py PTXCHECK SPEC.json...
"""
import sys

import outcomes_switch


def check(i, spec, name, a, b):
    fails = []
    skipped = a["stats"]["symmetric_choices_skipped"]
    print(f"{name}: {skipped} engine choices skipped; {a['stats']['seconds']:.3f} s with, "
          f"{b['stats']['seconds']:.3f} s without")
    if b["stats"]["symmetric_choices_skipped"] != 0:
        fails.append(f"{name}: PTXCHECK_OUTCOMES_NO_SYMMETRY still skipped choices")
    if i == 0 and skipped == 0:
        fails.append(f"{name}: no engine choice was skipped as the image of another")
    return fails


sys.exit(outcomes_switch.compare(sys.argv[1], sys.argv[2:], "PTXCHECK_OUTCOMES_NO_SYMMETRY", "interchangeable CTAs",
                                 check, timeout=300))
