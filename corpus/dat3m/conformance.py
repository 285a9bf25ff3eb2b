#!/usr/bin/env python3
"""Dat3M PTX conformance: run all litmus tests of Dat3M's PTX corpus in one
ptxcheck process per model and compare with Dat3M's expected verdicts.

usage: conformance.py PTXCHECK [--engine z3|enum] [--jobs N] [--timeout S]

Reads the corpus from $PTXCHECK_SHARED/corpus/dat3m-ptx. Prints an agreement
table per model. Fails (exit 1) when a test does not parse, is not decided
(error, limit, timeout), or disagrees with the expected verdict without a
line in known-differences.csv (model,path,expected,ours,argument).
"""
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests"))
import models_def  # noqa: E402  (memmodel/models.def, the one table of model names)

# Dat3M's expected verdicts exist for these two of our models (its file names).
DAT3M_CSV = {"ptx75": "PTXv7_5-expected.csv", "ptx6": "PTXv6_0-expected.csv"}
MODELS = [(m, DAT3M_CSV[m]) for m in models_def.check(list(DAT3M_CSV))]


def load_known(path):
    known = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].startswith("#"):
                continue
            if len(row) < 5 or not row[4].strip():
                sys.exit(f"{path}: every line needs model,path,expected,ours,argument: {row}")
            known[(row[0], row[1])] = (row[2], row[3], row[4])
    return known


def load_expected(path):
    exp = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                p, v = line.rsplit(",", 1)
                exp[p] = "Ok" if v == "1" else "No"
    return exp


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    exe, engine, jobs, timeout = args[0], "z3", "2", "60"
    i = 1
    while i < len(args):
        if args[i] == "--engine":
            engine = args[i + 1]
        elif args[i] == "--jobs":
            jobs = args[i + 1]
        elif args[i] == "--timeout":
            timeout = args[i + 1]
        else:
            sys.exit(f"unknown argument {args[i]}")
        i += 2
    shared = os.environ.get("PTXCHECK_SHARED", os.path.join(HERE, "..", "..", "..", "shared"))
    corpus = os.path.join(shared, "corpus", "dat3m-ptx")
    if not os.path.isdir(corpus):
        print(f"corpus not found at {corpus}; skipped")
        return 77  # meson's "skipped"
    known = load_known(os.path.join(HERE, "known-differences.csv"))
    failed = False
    print(f"{'model':7} {'tests':>5} {'decided':>7} {'expected':>8} {'agree':>5} {'known':>5} {'new':>4} {'time s':>7}")
    details = []
    for model, csv_name in MODELS:
        exp = load_expected(os.path.join(corpus, "expected", csv_name))
        cmd = [exe, "--json", f"--model={model}", f"--engine={engine}", "-j", jobs, "--timeout", timeout,
               os.path.join(corpus, "litmus", "PTX")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        runs = [json.loads(l) for l in proc.stdout.splitlines() if l.startswith("{")]
        decided = agree = known_n = new = 0
        total_time = 0.0
        for r in runs:
            rel = "litmus/PTX/" + r["file"].split("/litmus/PTX/", 1)[1]
            total_time += r["time"]
            if r["status"] != "decided":
                failed = True
                details.append(f"[{model}] NOT DECIDED {rel}: {r['status']}: {r.get('error', '')}")
                continue
            decided += 1
            if rel not in exp:
                continue
            if r["verdict"] == exp[rel]:
                agree += 1
                if (model, rel) in known:
                    details.append(f"[{model}] note: {rel} now agrees; its known-differences line is stale")
            elif (model, rel) in known:
                known_n += 1
            else:
                new += 1
                failed = True
                details.append(f"[{model}] DISAGREE {rel}: expected {exp[rel]}, got {r['verdict']}")
        if len(runs) != 748:
            failed = True
            details.append(f"[{model}] expected 748 results, got {len(runs)} (exit {proc.returncode}): {proc.stderr[-500:]}")
        print(f"{model:7} {len(runs):5} {decided:7} {len(exp):8} {agree:5} {known_n:5} {new:4} {total_time:7.1f}")
    for d in details:
        print(d)
    print("FAIL" if failed else "PASS")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
