#!/usr/bin/env python3
"""Flags of `ptxcheck outcomes` (docs/outcomes.md, "How the search scales"
item 8; semantics/outcomes/hook_grid.cpp (f)) on the kernels of
DIR/flag.cu: each spec gives the states argued in flag.cu, and the same
states and races as the search without flags (PTXCHECK_OUTCOMES_NO_FLAG=1),
except flag_pingpong_6, which that search cannot finish (every path cut at
--unroll 3 after about 30 s); flag_pingpong_2 takes at most a quarter of
its launches. flag_mp_noacq loses its stale state if a poll without an
acquire pattern synchronizes, flag_co_order_1 or _2 its only state if the
machine's order of unordered writes is taken for their coherence order,
flag_lb_barrier one state if a launch whose polls wait while a thread waits
at a barrier is dropped. flag_bitmask (a mask written by updates only) takes
no more launches than without flags (as a flag, every order of its updates
was searched: 80 times as many).

    outcomes_flag.py PTXCHECK DIR
"""
import glob
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []


def run(spec, on):
    return outcomes_switch.run(exe, spec, "PTXCHECK_OUTCOMES_NO_FLAG", on, fails, (), 120)


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), res["races"]


# The states argued in flag.cu (out), or how many there are (the nofence
# twins: a slot read returns 0, 10 or 20, the two reads in coherence order,
# 8.10.5: the 6 pairs a <= b).
EXPECT = {
    "flag_pingpong_2": [[10, 20]],
    "flag_pingpong_6": [[10, 20, 30, 40, 50, 60]],
    "flag_pingpong_nofence_2": 6,
    "flag_toggle_2": [[10, 20]],
    "flag_toggle_nofence_2": 6,
    "flag_two_writers": [[1, 1, 0], [1, 1, 2], [2, 0, 2], [2, 1, 2]],
    "flag_co_order_1": [[1]],
    "flag_co_order_2": [[1]],
    "flag_mp_noacq": [[0], [10]],
    "flag_lb_barrier": [[1], [2]],
    "flag_bitmask": [[63]],
}
SLOW_OFF = {"flag_pingpong_6"}

specs = sorted(glob.glob(os.path.join(d, "flag_*.json")))
if len(specs) != len(EXPECT):
    fails.append(f"{len(specs)} flag_*.json in {d}, expected {len(EXPECT)}")
launches = {}
for spec in specs:
    name = os.path.basename(spec)[: -len(".json")]
    a = run(spec, True)
    if a is None:
        continue
    got = sorted(o["buffers"]["out"] for o in a["outcomes"])
    want = EXPECT.get(name)
    if (len(got) != want) if isinstance(want, int) else (got != sorted(want or [])):
        fails.append(f"{name}: states {got[:6]} ({len(got)}); expected {want}")
    if a["races"]:
        fails.append(f"{name}: {len(a['races'])} races; expected none")
    line = f"{name}: {len(got)} states, {a['stats']['launches']} launches ({a['stats']['seconds']:.2f} s)"
    if name not in SLOW_OFF:
        b = run(spec, False)
        if b is None:
            continue
        if states(a) != states(b):
            fails.append(f"{name}: states or races differ with and without flags")
        launches[name] = (a["stats"]["launches"], b["stats"]["launches"])
        line += f"; without flags {b['stats']['launches']} launches ({b['stats']['seconds']:.2f} s)"
    print(line)

on, off = launches.get("flag_pingpong_2", (0, 0))
if not on or 4 * on > off:
    fails.append(f"flag_pingpong_2: {on} launches with flags, {off} without: not at most a quarter")

on, off = launches.get("flag_bitmask", (0, 0))
if not on or on > off:
    fails.append(f"flag_bitmask: {on} launches with flags, {off} without: a mask of updates became a flag")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
