#!/usr/bin/env python3
"""Polls through atomics that write back the value they read
(DIR/rmwpoll.cu: `atomicAdd(flag, 0)`, `atomicCAS(flag, 0, 0)`), built at
-O3, -G and -Xcicc -O0, in CTA 0 of a launch that is not cooperative, waiting
for CTA 1: every build gives the argued state out = 65 without races, in no
more launches than its -O3 build (plus a few for restarts). The machine runs
CTA 0 first, so the poll first spins on a deterministic flag; such an RMW is
no side effect of the iteration (semantics/outcomes/hook.cpp, Hook::write),
so the spin makes the flag communicating as a plain poll does. Without that,
the -G and -O0 builds (where the atomic is a call, so the loop is no pure
loop) ran to the step limit (exit 3; checked).

    outcomes_rmwpoll.py PTXCHECK DIR
"""
import json
import os
import subprocess
import sys

exe, d = sys.argv[1], sys.argv[2]
fails = []
for k in ("rp_add", "rp_cas"):
    launches = {}
    for o in ("O3", "G", "O0"):
        spec = os.path.join(d, f"{k}_{o}.json")
        r = subprocess.run([exe, "outcomes", "--json", "--timeout", "60", "--memory", "1000", spec],
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            fails.append(f"{k} -{o}: exit {r.returncode}: {r.stderr.strip()[:200]}")
            continue
        res = json.loads(r.stdout)
        got = sorted(json.dumps(x["buffers"], sort_keys=True) for x in res["outcomes"])
        if got != [json.dumps({"out": [65]})] or res["races"]:
            fails.append(f"{k} -{o}: states {got}, races {len(res['races'])}; expected out = 65, none")
        launches[o] = res["stats"]["launches"]
    print(f"{k}: launches {launches}")
    if "O3" in launches and any(n > launches["O3"] + 10 for n in launches.values()):
        fails.append(f"{k}: launches {launches}, more than the -O3 build's")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
