#!/usr/bin/env python3
"""Grid counters of `ptxcheck outcomes` (docs/outcomes.md, "How the search
scales" item 8; semantics/outcomes/hook_grid.cpp) on the kernels of
DIR/grid.cu: with the grid counters on, each spec is explored as one unit
(the counter joins its CTAs) and gives the states argued in grid.cu; the
search without them (PTXCHECK_OUTCOMES_NO_GRID=1) gives the same states and
races, except on grid_twice_*, which it takes 25 s (2 CTAs) or more than
60 s (3 CTAs) to explore. grid_count_3's polls succeed before the last
update (states where a CTA saw 2 and ones where it saw 3); the grid_relaxed_*
twins have no fences, so their stale states stay.

The rounds of hook_round.cpp (PTXCHECK_OUTCOMES_NO_GRID_ROUND=1 turns them
off) run a grid counter's updates in one order when only their top bits are
used: cooperative_groups' grid.sync (grid_cg_*, grid_twice_*, grid_rounds_*:
1 to 3 syncs over 2 to 4 CTAs of 32 threads, data handed on between them)
and its barrier written out with .release (grid_arrrelease_3) or .relaxed
adds (grid_arrrelaxed_*: no release pattern, 2^n stale states and races,
kept); the *_G specs run the -G build of the same kernels. grid_arrpeek_3
reads the counter outside the poll: the orders stay (its 4 states need
them; with the rounds it lost the state where CTA 1 adds first), and so
does grid_arracq_2 (an .acq_rel add: the state (1, 0) needs CTA 1 first).
The other cooperative-groups shapes take at most ROUND_LAUNCHES launches
(grid_rounds_4s3 runs out of time without the rounds), and every spec gives the same states
and races with the rounds off, and with the poll filter of hook_poll.cpp off
(PTXCHECK_OUTCOMES_NO_POLL_FILTER=1: a poll is also offered the writes whose
value fails its loop's test), which must take more launches on grid_count_3.

    outcomes_grid.py PTXCHECK DIR
"""
import glob
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []


def run(spec, on, switch="PTXCHECK_OUTCOMES_NO_GRID"):
    return outcomes_switch.run(exe, spec, switch, on, fails, ("--timeout", "60"), 120)


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), len(res["races"]) > 0


# The states argued in grid.cu (out), or how many there are.
EXPECT = {
    "grid_cg_1x1": [[300, 200]],
    "grid_cg_2x1": [[603, 201]],
    "grid_twice_2": [[2010]],
    "grid_twice_3": [[203010]],
    "grid_fenced_2x1": [[111]],
    "grid_fenced_3x1": [[11121]],
    "grid_fenced_3x2": [[1621187530]],  # 1, 2, 11, 12, 21, 22 in base 100, modulo 2^32
    "grid_relaxed_2x1": 2,
    "grid_relaxed_3x1": 4,
    "grid_relaxed_3x2": 16,
    "grid_count_3": 13,
    "grid_acqonly_3x1": 4,
    "grid_rounds_2s3": [[609]],  # v0 = 1 2, v1 = 4 3, v2 = 6 9 (grid.cu)
    "grid_rounds_3s2": [[40704]],
    "grid_rounds_4s1": [[1020304]],
    "grid_rounds_4s3": [[14211211]],  # v2 = 14 21 12 11
    "grid_arrrelease_3": [[2, 3, 1]],
    "grid_arrrelaxed_2": 4,
    "grid_arrrelaxed_3": 8,
    # The peek sees 0, 1 (CTA 1 adds first), 0x7ffffffe (CTA 0 first) or both.
    "grid_arrpeek_3": [[2, 3, 0], [2, 3, 1], [2, 3, 2147483646], [2, 3, 2147483647]],
    # The second add in the chain acquires the first one's release: not (0, 0).
    "grid_arracq_2": [[0, 1], [1, 0], [1, 1]],
}
RACES = {"grid_acqonly_3x1", "grid_relaxed_2x1", "grid_relaxed_3x1", "grid_relaxed_3x2", "grid_count_3",
         "grid_arrrelaxed_2", "grid_arrrelaxed_3", "grid_arracq_2"}
# Too slow without grid counters; without the rounds (and the poll filter).
SLOW_OFF = {"grid_twice_2", "grid_twice_3", "grid_rounds_2s3", "grid_rounds_3s2", "grid_rounds_4s1", "grid_rounds_4s3",
            "grid_arrrelaxed_2"}
SLOW_ROUND_OFF = {"grid_rounds_4s3"}
ROUND = ("grid_cg_", "grid_twice_", "grid_rounds_", "grid_arr")
ROUND_LAUNCHES = 20

specs = sorted(glob.glob(os.path.join(d, "grid_*.json")))
if not specs:
    fails.append(f"no grid_*.json in {d}")
for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    # NAME_G: the same kernel's -G build (corpus/ptx/debug/G), the same states.
    base = name[:-2] if name.endswith("_G") else name
    a = run(spec, True)
    if a is None:
        continue
    got = sorted(o["buffers"].get("out", o["buffers"].get("c")) for o in a["outcomes"])
    want = EXPECT.get(base)
    if (len(got) != want) if isinstance(want, int) else (got != sorted(want or [])):
        fails.append(f"{name}: states {got[:6]} ({len(got)}); expected {want}")
    if bool(a["races"]) != (base in RACES):
        fails.append(f"{name}: {len(a['races'])} races; expected {'some' if base in RACES else 'none'}")
    if a["stats"]["units"] != 1:
        fails.append(f"{name}: {a['stats']['units']} units: the grid counter did not join the CTAs")
    line = f"{name}: {len(got)} states, {a['stats']['launches']} launches ({a['stats']['seconds']:.2f} s)"
    if base not in SLOW_OFF:
        b = run(spec, False)
        if b is None:
            continue
        if states(a) != states(b):
            fails.append(f"{name}: states or races differ with and without grid counters")
        line += f"; without grid counters {b['stats']['launches']} launches ({b['stats']['seconds']:.2f} s)"
    ordered = base in ("grid_arrpeek_3", "grid_arracq_2")  # the rounds must turn off
    if name.startswith(ROUND) and not ordered and a["stats"]["launches"] > ROUND_LAUNCHES:
        fails.append(f"{name}: {a['stats']['launches']} launches; at most {ROUND_LAUNCHES} with the rounds")
    if base not in SLOW_ROUND_OFF:
        for switch, what in (("PTXCHECK_OUTCOMES_NO_GRID_ROUND", "rounds"), ("PTXCHECK_OUTCOMES_NO_POLL_FILTER", "filter")):
            b = run(spec, False, switch)
            if b is None:
                continue
            if states(a) != states(b):
                fails.append(f"{name}: states or races differ with and without the {what}")
            if what == "filter" and name == "grid_count_3" and b["stats"]["launches"] <= a["stats"]["launches"]:
                fails.append(f"{name}: {b['stats']['launches']} launches without the poll filter, not more")
            line += f"; without the {what} {b['stats']['launches']}"
    print(line)

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
