#!/usr/bin/env python3
"""Cross-check of the canonical arrives of `ptxcheck outcomes`
(semantics/outcomes/hook_canon.cpp, docs/outcomes.md "How the search scales",
item 4): each launch spec must give the same outcomes (final states; the count
of executions differs: one order of the arrives stands for all), races, complete
and bound_hit with them on and off (PTXCHECK_OUTCOMES_NO_CANON=1). The launches
of both are printed (a spec that breaks a condition restarts the exploration
and may take more). With --env NAME, the reduction that NAME=1 turns off is
checked instead (PTXCHECK_OUTCOMES_NO_COMMUTE: the exempt updates of
Hook::commuting_rmw); with --fewer A.json,B.json those specs must also take
fewer launches with the reduction on (it applies to them). With --unroll N
both runs use that loop bound instead of deepening it (whose stop depends on
the time an exploration takes: a search by choices may stop at a bound below
the reduced one's).
Usage: canon_xcheck.py [--env NAME] [--fewer SPECS] [--unroll N] PTXCHECK SPEC.json..."""
import json
import os
import subprocess
import sys

ENV = "PTXCHECK_OUTCOMES_NO_CANON"
EXTRA = []


def run(exe, spec, off):
    env = dict(os.environ)
    env.pop(ENV, None)
    if off:
        env[ENV] = "1"
    p = subprocess.run([exe, "outcomes", "--json"] + EXTRA + [os.path.basename(spec)], cwd=os.path.dirname(spec) or ".",
                       env=env, capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{spec}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    j = json.loads(p.stdout)
    races = sorted(json.dumps(r, sort_keys=True) for r in j["races"])
    states = sorted(json.dumps(o["buffers"], sort_keys=True) for o in j["outcomes"])
    return (states, races, j["complete"], j["bound_hit"]), j["stats"]["launches"]


def main():
    global ENV
    args, fewer = sys.argv[1:], set()
    while args and args[0].startswith("--"):
        if args[0] == "--env":
            ENV = args[1]
        elif args[0] == "--fewer":
            fewer = set(args[1].split(","))
        elif args[0] == "--unroll":
            EXTRA[:] = ["--unroll", args[1]]
        else:
            raise SystemExit(f"unknown option {args[0]}")
        args = args[2:]
    exe, specs = os.path.abspath(args[0]), args[1:]
    fails = 0
    for spec in specs:
        (on, n_on), (off, n_off) = run(exe, spec, False), run(exe, spec, True)
        name = os.path.basename(spec)
        why = "" if on == off else ": outcomes or races differ"
        if not why and name in fewer and n_on >= n_off:
            why = ": not fewer launches with the reduction on"
        fails += bool(why)
        print(f"{'FAIL' if why else 'ok  '} {name}: {len(on[0])} outcomes, "
              f"launches {n_on} (reduced) / {n_off} (choices, {ENV}=1)" + why)
    print(f"{len(specs) - fails} ok, {fails} FAIL")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
