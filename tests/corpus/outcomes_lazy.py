#!/usr/bin/env python3
"""Lazy loads of outcomes (semantics/outcomes/hook_lazy.cpp: a load whose
value reaches nothing observable makes no choice) on the kernels of
DIR/lazy.cu, built with nvcc -O3, which speculates `if (lane == 0) acc +=
s` into a load in every lane:
  * lazy_rounds and lazy_loop give the states argued in lazy.cu with their
    race on s, in at most MAX launches each (without lazy loads each of the
    64 threads' loads chooses: lazy_rounds runs out of time or memory; lazy_loop also
    if a selp is followed as reading both operands, since the sum is then
    live at the loop head in every lane);
  * lazy_shfl (the loaded values reach a __shfl_sync) and lazy_pred (which
    lane's load reaches a store depends on a value read) give the same
    states and races as with lazy loads off (PTXCHECK_OUTCOMES_NO_LAZY=1).

    outcomes_lazy.py PTXCHECK DIR
"""
import json
import os
import subprocess
import sys

exe, d = sys.argv[1], sys.argv[2]
MAX = 200
ARGUED = {
    "lazy_rounds": [[12, 12], [22, 12]],
    "lazy_loop": [[12, 12], [22, 12]],
}
SAME = ["lazy_shfl", "lazy_pred"]


def run(name, lazy=True):
    env = dict(os.environ)
    if not lazy:
        env["PTXCHECK_OUTCOMES_NO_LAZY"] = "1"
    spec = os.path.join(d, name + ".json")
    r = subprocess.run([exe, "outcomes", "--json", "--timeout", "60", spec], capture_output=True, text=True,
                       timeout=120, env=env)
    if r.returncode != 0:
        return None, f"exit {r.returncode}: {r.stderr.strip()[:200]}"
    res = json.loads(r.stdout)
    states = sorted(json.dumps(o["buffers"], sort_keys=True) for o in res["outcomes"])
    races = sorted({(x["kind"], x["location"], x["first"]["line"], x["second"]["line"]) for x in res["races"]})
    return (states, races, res["stats"]["launches"]), None


fails = []
for name, want in ARGUED.items():
    got, err = run(name)
    if err:
        fails.append(f"{name}: {err}")
        continue
    states, races, launches = got
    print(f"{name}: {states}, races {races}, {launches} launches")
    outs = sorted(json.loads(s)["out"] for s in states)
    if outs != sorted(want) or {r[1] for r in races} != {"shared[cta 0]+0"} or races[0][0] != "data-race":
        fails.append(f"{name}: states {outs}, races {races}; expected {sorted(want)}, a data race on s")
    if launches > MAX:
        fails.append(f"{name}: {launches} launches, more than {MAX}")
for name in SAME:
    got, err = run(name)
    ref, err2 = run(name, lazy=False)
    if err or err2:
        fails.append(f"{name}: {err or err2}")
        continue
    print(f"{name}: {got[0]}, races {got[1]}, {got[2]} launches ({ref[2]} without lazy loads)")
    if got[:2] != ref[:2]:
        fails.append(f"{name}: states/races {got[:2]} with lazy loads, {ref[:2]} without")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
