#!/usr/bin/env python3
"""Spin locks built at -O3, -G and -Xcicc -O0 (DIR/debuglock.cu): every build
of `ptxcheck outcomes` gives the states argued there, without races, and the
debug builds take no more launches than the -O3 build (plus a few for
restarts). At -G and -O0 atomicCAS and atomicExch are calls, their results
passed up through the wrappers' .param return values: a lock release whose
result is unused reads a write of any value through them too
(Hook::exch_any, Hook::result_unused; dl_cas_G took 4x the launches
without), and the -O0/-G initialisation `lock = cnt = 0` reads cnt back
before `__syncthreads()`, a read of the machine's value
(semantics/outcomes/hook_latest.cpp; dl_exch_G and _O0 ran out of time and
memory without). The -O3 builds give the same states and races with latest
reads off (PTXCHECK_OUTCOMES_NO_LATEST=1).

    outcomes_debuglock.py PTXCHECK DIR
"""
import itertools
import json
import os
import sys

import outcomes_switch

exe, d = sys.argv[1], sys.argv[2]
fails = []
ARGS = ("--timeout", "90", "--memory", "2000")


def perms(xs):
    return sorted({json.dumps({"out": [len(xs)], "seen": list(p)}, sort_keys=True) for p in itertools.permutations(xs)})


EXPECT = {"dl_cas": perms([0, 0, 1, 1]), "dl_exch": perms([0, 1, 2])}


def states(res):
    return sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"]), res["races"]


for k, want in EXPECT.items():
    res = {}
    for o in ("O3", "G", "O0"):
        res[o] = outcomes_switch.run(exe, os.path.join(d, f"{k}_{o}.json"), "PTXCHECK_OUTCOMES_NO_LATEST", True, fails,
                                     ARGS, 180)
    off = outcomes_switch.run(exe, os.path.join(d, f"{k}_O3.json"), "PTXCHECK_OUTCOMES_NO_LATEST", False, fails, ARGS,
                              180)
    if any(r is None for r in res.values()) or off is None:
        continue
    n3 = res["O3"]["stats"]["launches"]
    print(f"{k}: launches " + ", ".join(f"-{o} {r['stats']['launches']}" for o, r in res.items()) +
          f"; -O3 without latest reads {off['stats']['launches']}")
    for o, r in res.items():
        if states(r) != (want, []):
            fails.append(f"{k} -{o}: states {states(r)[0]}, races {len(r['races'])}; expected {want}, none")
        if r["stats"]["launches"] > n3 + 10:
            fails.append(f"{k} -{o}: {r['stats']['launches']} launches, the -O3 build {n3}")
    if states(off) != states(res["O3"]):
        fails.append(f"{k} -O3: states or races differ with and without latest reads")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
