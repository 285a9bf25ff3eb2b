#!/usr/bin/env python3
"""Location-pair checks of `ptxcheck outcomes` (docs/outcomes.md, "How the
search scales", item 2) against the search without them
(PTXCHECK_OUTCOMES_NO_PAIRS=1): the same states and races on every SPEC, and
on the first SPEC (a lock whose acquire/release orders two fields) at least
4 times fewer runs decided (`stats.skeletons`: 36 of 169 since loop entry
states drop the lock's failed first CAS; 96 of 1,183 before), and so on every
SPEC after `--fewer` (g9_lastblock_count: the last block's threads read the
partials after a barrier that orders them after the ticket: 24 of 336 runs
with the barriers in the pairs' events, 192 without them). Tickets are off
(PTXCHECK_OUTCOMES_NO_TICKET=1): a fenced last block's ticket joins its CTAs,
and the partials then stay deterministic (docs/outcomes.md item 8), which
leaves the pair checks nothing to prune there (g9_lastblock_count: 120 runs
both ways).

    outcomes_pairs.py PTXCHECK SPEC.json... [--fewer SPEC.json...]
"""
import os
import sys

import outcomes_switch

os.environ["PTXCHECK_OUTCOMES_NO_TICKET"] = "1"

exe, specs = sys.argv[1], sys.argv[2:]
fewer = set(specs[specs.index("--fewer") + 1:]) if "--fewer" in specs else set()
specs = [s for s in specs if s != "--fewer"]


def check(i, spec, name, a, b):
    sa, sb = a["stats"]["skeletons"], b["stats"]["skeletons"]
    print(f"{name}: {sa} runs decided with pair checks, {sb} without")
    if (i == 0 or spec in fewer) and not sa * 4 <= sb:
        return [f"{name}: pair checks should leave at most a quarter of the runs ({sa} of {sb})"]
    return []


sys.exit(outcomes_switch.compare(exe, specs, "PTXCHECK_OUTCOMES_NO_PAIRS", "pair checks", check))
