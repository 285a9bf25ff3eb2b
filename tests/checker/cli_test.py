#!/usr/bin/env python3
"""The litmus CLI's contract: herd7 text, exit codes (0 ok, 1 expectation
not met, 2 invalid input/usage, 3 limit), file:line:col errors, --json,
--explain, --dot, --batch, -j."""
import json
import os
import subprocess
import sys
import tempfile

exe, src = sys.argv[1], os.environ.get("PTXCHECK_SRC", ".")
mp = os.path.join(src, "litmus", "mp.litmus")
fails = []


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True)


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


r = run(mp)
lines = r.stdout.splitlines()
check(r.returncode == 0, "mp exits 0")
check(lines[0] == "Test mp Allowed", "herd header")
check(lines[1].startswith("States "), "States line")
n = int(lines[1].split()[1])
check(lines[2 + n] == "No", "mp is No (forbidden outcome)")
check(lines[3 + n] == "Witnesses" and lines[4 + n].startswith("Positive: 0 Negative: "), "witness counts")
check(lines[5 + n].startswith("Condition exists"), "Condition line")
check(lines[6 + n].startswith("Observation mp Never 0 "), "Observation line")
check(lines[7 + n].startswith("Time mp "), "Time line")

with tempfile.TemporaryDirectory() as d:
    bad = os.path.join(d, "bad.litmus")
    with open(bad, "w") as f:
        f.write("PTX bad\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x 1 ;\nexists (x == 1)\n")
    r = run(bad)
    check(r.returncode == 2, "malformed input exits 2")
    check(r.stderr.startswith(bad + ":4:12: error:"), "error is file:line:col: " + r.stderr.strip())
    r = run(os.path.join(d, "missing.litmus"))
    check(r.returncode == 2, "missing file exits 2")
    r = run("--frobnicate", mp)
    check(r.returncode == 2, "bad option exits 2")
    r = run("--model=nope", mp)
    check(r.returncode == 2, "bad model exits 2")

    csv = os.path.join(d, "exp.csv")
    with open(csv, "w") as f:
        f.write("litmus/mp.litmus,1\n")
    r = run("--expect", csv, mp)
    check(r.returncode == 1, "expectation mismatch exits 1")
    with open(csv, "w") as f:
        f.write("litmus/mp.litmus,0\n")
    check(run("--expect", csv, mp).returncode == 0, "met expectation exits 0")

    r = run("--json", mp)
    j = json.loads(r.stdout)
    for k in ("name", "verdict", "states", "positive", "negative", "model", "engine", "time", "bound_hit"):
        check(k in j, "json has " + k)
    check(j["verdict"] == "No" and j["name"] == "mp", "json verdict")

    r = run("--explain", mp)
    check("violates:" in r.stdout, "explain names violated axioms for a forbidden outcome")
    r = run("--explain", os.path.join(src, "litmus", "lb.litmus"))
    check("rf:" in r.stdout and "reachable" in r.stdout, "explain shows a witness for an allowed outcome")

    dot = os.path.join(d, "dot")
    r = run("--dot", dot, os.path.join(src, "litmus", "lb.litmus"))
    check(os.path.exists(os.path.join(dot, "lb.dot")), "dot file written")
    with open(os.path.join(dot, "lb.dot")) as f:
        check(f.read().startswith("digraph"), "dot is a digraph")

    lst = os.path.join(d, "list.txt")
    with open(lst, "w") as f:
        f.write(mp + "\n" + os.path.join(src, "corpus", "spec") + "\n")
    r = run("--batch", lst, "-j", "2", "--json")
    names = [json.loads(l)["name"] for l in r.stdout.splitlines()]
    check(len(names) == 10 and names[0] == "mp", "batch runs all tests in input order")
    check("ptxcheck summary" in r.stderr, "batch prints a summary")

    spin = os.path.join(d, "spin.litmus")
    with open(spin, "w") as f:
        f.write("PTX spin\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n atom.relaxed.gpu.exch r0, x, 1 ;\n"
                " bne r0, 7, LC00 ;\nexists (P0:r0 == 7)\n")
    r = run("--unroll", "3", spin)
    check(r.returncode == 0 and "Bound spin" in r.stdout, "bound hit is reported")

print("FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)
