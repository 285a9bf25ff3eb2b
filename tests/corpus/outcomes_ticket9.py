#!/usr/bin/env python3
"""Tickets of `ptxcheck outcomes` (docs/outcomes.md, "How the search scales"
item 8; semantics/outcomes/hook_grid_sync.cpp (t)) against the search
without them (PTXCHECK_OUTCOMES_NO_TICKET=1), on last blocks of DIR
(corpus/outcomes): the same states and races both ways, and
  - t9_ticket_bins_2x2 (2 CTAs add into 2 global bins, fenced ticket) at
    most a tenth of the launches (4 against 1,464: the bins' reads no longer
    choose among the partial sums);
  - c9_lastblock_reset (the sample's last block resets the counter with a
    plain store) no more launches than without (18 against 34; 747 when the
    reset broke the joined chain, hook_chain.cpp (b));
  - the broken twins t9_ticket_bins_noacq/_norel the same launches as
    without (a ticket that cannot synchronize joins nothing: joined, they
    took 63,966 launches and 4 GB).
t9_hist_ticket, t9_ticket_bins_3x3 and t9_ticket_ref run out of memory
without tickets (t9_ticket_ref: 1.5 GB);
their states are checked by corpus-outcomes-outcomes.

    outcomes_ticket9.py PTXCHECK DIR
"""
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []
SW = "PTXCHECK_OUTCOMES_NO_TICKET"


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), len(res["races"]) > 0


# spec: (on launches) * factor <= (off launches)
CASES = {"t9_ticket_bins_2x2": 10, "c9_lastblock_reset": 1, "t9_ticket_bins_noacq": None,
         "t9_ticket_bins_norel": None, "lastblock_fence": 1}
for name, factor in CASES.items():
    spec = os.path.join(d, name + ".json")
    a = outcomes_switch.run(exe, spec, SW, True, fails, ("--memory", "1500"))
    b = outcomes_switch.run(exe, spec, SW, False, fails, ("--memory", "1500"))
    if a is None or b is None:
        continue
    la, lb = a["stats"]["launches"], b["stats"]["launches"]
    print(f"{name}: {la} launches with tickets, {lb} without")
    if states(a) != states(b):
        fails.append(f"{name}: states or races differ with and without tickets")
    if factor is not None and not la * factor <= lb:
        fails.append(f"{name}: {la} launches with tickets, expected at most {lb} / {factor}")
    if factor is None and la != lb:
        fails.append(f"{name}: {la} launches with tickets, {lb} without (a ticket that cannot synchronize joins)")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
