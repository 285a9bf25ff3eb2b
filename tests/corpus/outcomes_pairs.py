#!/usr/bin/env python3
"""Location-pair checks of `ptxcheck outcomes` (docs/outcomes.md, "How the
search scales", item 2) against the search without them
(PTXCHECK_OUTCOMES_NO_PAIRS=1): the same states and races on every SPEC, and
on the first SPEC (a lock whose acquire/release orders two fields) at least
4 times fewer runs decided (`stats.skeletons`: 36 of 169 since loop entry
states drop the lock's failed first CAS; 96 of 1,183 before).

    outcomes_pairs.py PTXCHECK SPEC.json...
"""
import json
import os
import subprocess
import sys

exe, specs = sys.argv[1], sys.argv[2:]
fails = []


def run(spec, pairs):
    env = dict(os.environ)
    env.pop("PTXCHECK_OUTCOMES_NO_PAIRS", None)
    if not pairs:
        env["PTXCHECK_OUTCOMES_NO_PAIRS"] = "1"
    r = subprocess.run([exe, "outcomes", "--json", "--unroll", "1", spec], capture_output=True, text=True,
                       timeout=120, env=env)
    if r.returncode != 0:
        fails.append(f"{spec}: exit {r.returncode}: {r.stderr.strip()[:200]}")
        return None
    return json.loads(r.stdout)


for i, spec in enumerate(specs):
    name = os.path.basename(spec)
    a, b = run(spec, True), run(spec, False)
    if a is None or b is None:
        continue
    if (a["outcomes"], a["races"]) != (b["outcomes"], b["races"]):
        fails.append(f"{name}: states or races differ with and without pair checks")
    sa, sb = a["stats"]["skeletons"], b["stats"]["skeletons"]
    print(f"{name}: {sa} runs decided with pair checks, {sb} without")
    if i == 0 and not sa * 4 <= sb:
        fails.append(f"{name}: pair checks should leave at most a quarter of the runs ({sa} of {sb})")

for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
