#!/usr/bin/env python3
"""`ptxcheck outcomes` on tests/corpus/ticket/ticket_sumN.json (N threads of
one CTA each store `atomicAdd(&s, tid + 1)`, thread 0 then stores the total):
the outcomes must be exactly one state per order of the N updates (N!), as
this script computes them, and the search of RMW chains
(semantics/outcomes/hook_chain.cpp) must take at most 2 N! + 1 launches (one
per order in each of its two rounds over the chain, no launch parked at a
dead end). Value choices take far longer (N = 4: over 500,000 launches), so
only the chains are run here; canon_xcheck.py compares both on N = 3.
Usage: ticket_perm.py PTXCHECK SPEC.json..."""
import itertools
import json
import os
import subprocess
import sys


def expected(n):
    states = set()
    for order in itertools.permutations(range(n)):
        out, s = [0] * (n + 1), 0
        for t in order:
            out[t] = s
            s += t + 1
        out[n] = s
        states.add(json.dumps({"out": out}, sort_keys=True))
    return sorted(states)


def main():
    exe, specs = os.path.abspath(sys.argv[1]), sys.argv[2:]
    fails = 0
    for spec in specs:
        n = json.load(open(spec))["block"][0]
        p = subprocess.run([exe, "outcomes", "--json", os.path.basename(spec)], cwd=os.path.dirname(spec) or ".",
                           capture_output=True, text=True, timeout=300)
        why = ""
        if p.returncode != 0:
            why = f": exit {p.returncode}: {p.stderr.strip()[-300:]}"
        else:
            j = json.loads(p.stdout)
            got = sorted(json.dumps(o["buffers"], sort_keys=True) for o in j["outcomes"])
            launches = j["stats"]["launches"]
            if got != expected(n):
                why = f": {len(got)} outcomes, expected the {len(expected(n))} orders"
            elif not j["complete"] or j["bound_hit"] or j["races"]:
                why = ": incomplete, bound hit or races"
            elif launches > 2 * len(got) + 1:
                why = f": {launches} launches, more than 2 N! + 1"
        fails += bool(why)
        print(f"{'FAIL' if why else 'ok  '} {os.path.basename(spec)}" + why)
    print(f"{len(specs) - fails} ok, {fails} FAIL")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
