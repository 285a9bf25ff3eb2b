#!/usr/bin/env python3
"""Cross-check of the value-chain bound of `ptxcheck outcomes`
(docs/outcomes.md "How the search scales", item 3): each launch spec must give
the same outcomes, races, complete and bound_hit with the bound on and off
(PTXCHECK_OUTCOMES_NO_CHAIN_BOUND=1), and with the bound on it must take no
more launches. Usage: chain_bound_xcheck.py PTXCHECK SPEC.json..."""
import json
import os
import subprocess
import sys


def run(exe, spec, off):
    env = dict(os.environ)
    env.pop("PTXCHECK_OUTCOMES_NO_CHAIN_BOUND", None)
    if off:
        env["PTXCHECK_OUTCOMES_NO_CHAIN_BOUND"] = "1"
    p = subprocess.run([exe, "outcomes", "--json", os.path.basename(spec)], cwd=os.path.dirname(spec) or ".",
                       env=env, capture_output=True, text=True, timeout=300)
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{spec}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    j = json.loads(p.stdout)
    races = sorted(json.dumps(r, sort_keys=True) for r in j["races"])
    return (json.dumps(j["outcomes"], sort_keys=True), races, j["complete"], j["bound_hit"]), j["stats"]["launches"]


def main():
    exe, specs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    fails = 0
    for spec in specs:
        (on, n_on), (off, n_off) = run(exe, spec, False), run(exe, spec, True)
        ok = on == off and n_on <= n_off
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(spec)}: launches {n_on} (bound on) / {n_off} (off)"
              + ("" if on == off else ": outcomes or races differ"))
    print(f"{len(specs) - fails} ok, {fails} FAIL")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
