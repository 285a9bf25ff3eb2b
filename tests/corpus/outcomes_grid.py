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

    outcomes_grid.py PTXCHECK DIR
"""
import glob
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []


def run(spec, on):
    return outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_GRID", on, fails, (), 120)


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
}
RACES = {"grid_acqonly_3x1", "grid_relaxed_2x1", "grid_relaxed_3x1", "grid_relaxed_3x2", "grid_count_3"}
SLOW_OFF = {"grid_twice_2", "grid_twice_3"}

specs = sorted(glob.glob(os.path.join(d, "grid_*.json")))
if not specs:
    fails.append(f"no grid_*.json in {d}")
for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    a = run(spec, True)
    if a is None:
        continue
    got = sorted(o["buffers"]["out"] for o in a["outcomes"])
    want = EXPECT.get(name)
    if (len(got) != want) if isinstance(want, int) else (got != sorted(want or [])):
        fails.append(f"{name}: states {got[:6]} ({len(got)}); expected {want}")
    if bool(a["races"]) != (name in RACES):
        fails.append(f"{name}: {len(a['races'])} races; expected {'some' if name in RACES else 'none'}")
    if a["stats"]["units"] != 1:
        fails.append(f"{name}: {a['stats']['units']} units: the grid counter did not join the CTAs")
    line = f"{name}: {len(got)} states, {a['stats']['launches']} launches ({a['stats']['seconds']:.2f} s)"
    if name not in SLOW_OFF:
        b = run(spec, False)
        if b is None:
            continue
        if states(a) != states(b):
            fails.append(f"{name}: states or races differ with and without grid counters")
        line += f"; without grid counters {b['stats']['launches']} launches ({b['stats']['seconds']:.2f} s)"
    print(line)

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
