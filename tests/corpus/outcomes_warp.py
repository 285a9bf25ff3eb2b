#!/usr/bin/env python3
"""Spin iterations of lanes that work together (semantics/outcomes/
hook_warp.cpp (W)) and registers written first in a failed iteration
(hook_loop.cpp (R)) on the kernels of DIR/warp.cu: each gives the states
argued there, without races, and the seqlocks drop their failed tries
(at most MAX launches each; 16,166 and 16,230 without (R) and (W)).
warp_count loses out = 2 if a lane's failed try is dropped on its own
while it takes part in a __shfl_sync with a lane whose state changed.

    outcomes_warp.py PTXCHECK DIR
"""
import json
import os
import subprocess
import sys

exe, d = sys.argv[1], sys.argv[2]
MAX = 1000
# name: (the states argued in warp.cu as out, whether MAX applies)
EXPECT = {
    "warp_seqlock": ([[0, 0, 0, 0], [1, 2, 3, 4]], True),
    "warp_count": ([[1], [2]], False),
    "reg_seqlock": ([[0], [7]], True),
}
fails = []
for name, (want, bounded) in EXPECT.items():
    spec = os.path.join(d, name + ".json")
    r = subprocess.run([exe, "outcomes", "--json", spec], capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fails.append(f"{name}: exit {r.returncode}: {r.stderr.strip()[:200]}")
        continue
    res = json.loads(r.stdout)
    got = sorted(o["buffers"]["out"] for o in res["outcomes"])
    launches = res["stats"]["launches"]
    print(f"{name}: {got}, {launches} launches, bound_hit {res['bound_hit']}")
    if got != sorted(want) or res["races"]:
        fails.append(f"{name}: states {got}, races {len(res['races'])}; expected {sorted(want)}, none")
    if bounded and launches > MAX:
        fails.append(f"{name}: {launches} launches, more than {MAX}")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
