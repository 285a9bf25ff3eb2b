#!/usr/bin/env python3
"""hw-instr's driver-API host program end to end on the shim.

Generates random instruction tests (ptxcheck-instrgen gen), runs each launch
spec with the unmodified host program (ptxcheck-instr-host) on libcuda.so.1
from the shim, and requires its recording to equal, bit for bit, the one
ptxcheck's interpreter makes directly (`selfrecord`, the values of `ptxcheck
run`), and to pass `ptxcheck-instrgen compare`.

usage: shim_e2e.py INSTRGEN HOST SHIM_DIR [--seed S] [--count N]
Exit 0 when every test agrees, 1 otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    instrgen, host, shim_dir = args[:3]
    seed, count = "7", "5"
    rest = args[3:]
    for i in range(0, len(rest) - 1, 2):
        if rest[i] == "--seed":
            seed = rest[i + 1]
        elif rest[i] == "--count":
            count = rest[i + 1]
    env = dict(os.environ, LD_LIBRARY_PATH=shim_dir)
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([instrgen, "gen", "--seed", seed, "--count", count, "--out", d], check=True)
        specs = sorted(f for f in os.listdir(d) if f.endswith(".json") and not f.endswith(".manifest.json"))
        if not specs:
            print("no launch specs generated", file=sys.stderr)
            return 1
        for spec in specs:
            path = os.path.join(d, spec)
            shim_rec = path[:-5] + ".shim-rec.json"
            self_rec = path[:-5] + ".self-rec.json"
            r = subprocess.run([host, path, "--out", shim_rec], env=env)
            if r.returncode != 0:
                print(f"{spec}: host program exited {r.returncode}", file=sys.stderr)
                failures += 1
                continue
            subprocess.run([instrgen, "selfrecord", path, "--out", self_rec], check=True)
            got = json.load(open(shim_rec))
            want = json.load(open(self_rec))
            if got.get("gpu") != "ptxcheck (reference interpreter)":
                print(f"{spec}: recorded device {got.get('gpu')!r}", file=sys.stderr)
                failures += 1
            if not want["outputs"] or got["outputs"] != want["outputs"]:
                bad = [k for k in want["outputs"] if got["outputs"].get(k) != want["outputs"][k]]
                print(f"{spec}: outputs differ from the interpreter's: {bad}", file=sys.stderr)
                failures += 1
            if subprocess.run([instrgen, "compare", shim_rec]).returncode != 0:
                failures += 1
        print(f"{len(specs)} launch specs through the shim, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
