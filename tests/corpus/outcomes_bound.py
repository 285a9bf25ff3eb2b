#!/usr/bin/env python3
"""`ptxcheck outcomes` when the loop bound cut every path (docs/outcomes.md
"Loops"): no execution finished, so there is no answer: exit 3, nothing on
stdout, one line on stderr naming the bound. A bound that cut some paths but
not all still lists its outcomes (exit 0, bound_hit).

    outcomes_bound.py PTXCHECK ALL_CUT.json PARTLY_CUT.json

ALL_CUT needs two back jumps in every thread (bound_cut_all.cu); PARTLY_CUT
is a corpus case whose goldens record bound_hit at --unroll 1."""
import json
import subprocess
import sys

exe, all_cut, partly_cut = sys.argv[1:4]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(spec, *args):
    return subprocess.run([exe, "outcomes", *args, spec], capture_output=True, text=True, timeout=120)


for extra in ([], ["--json"], ["--exists", "out[0] == 3"]):
    r = run(all_cut, "--unroll", "1", *extra)
    lines = r.stderr.splitlines()
    check(r.returncode == 3, f"{extra}: every path cut exits 3 (got {r.returncode}: {r.stdout[:200]})")
    check(r.stdout == "", f"{extra}: nothing on stdout")
    check(len(lines) == 1 and lines[0].startswith("ptxcheck: limit reached: the loop bound cut every path")
          and "--unroll 1" in lines[0], f"{extra}: one line naming the bound: {lines}")

r = run(partly_cut, "--unroll", "1", "--json")
check(r.returncode == 0, f"partly cut exits 0 (got {r.returncode}: {r.stderr.strip()[:200]})")
if r.returncode == 0:
    j = json.loads(r.stdout)
    check(j["bound_hit"] and len(j["outcomes"]) >= 1, "partly cut lists its outcomes with bound_hit")

print("ok" if not fails else f"{len(fails)} failed")
sys.exit(1 if fails else 0)
