#!/usr/bin/env python3
"""CTAs on all cores, whole programs: runs every runtime-API program given
under `ptxcheck exec --jobs 1` and `--jobs 4` and requires the same stdout,
stderr, exit status and --report JSON byte for byte (docs/interpreter.md,
"CTAs on all cores"). Both runs trace the shim (PTXCHECK_SHIM_TRACE=1); the
one line per launch that says how its CTAs ran is left out of the
comparison and counted: some launches must have run in parallel, and some
must have fallen back (the programs include atomics and cross-CTA
reductions).

usage: check_jobs.py PTXCHECK PROGRAM...
"""
import os
import re
import subprocess
import sys
import tempfile

RAN = re.compile(r"^ptxcheck-shim: .*: CTAs ran (.*); [0-9]+ thread instructions$")


def run(ptxcheck, prog, jobs, d):
    report = os.path.join(d, f"report{jobs}.json")
    env = dict(os.environ, PTXCHECK_SHIM_TRACE="1")
    r = subprocess.run([ptxcheck, "exec", "--jobs", str(jobs), "--report", report, "--error-exitcode", "86", prog],
                       capture_output=True, text=True, timeout=300, env=env)
    ran = []
    err = []
    for line in r.stderr.splitlines(keepends=True):
        m = RAN.match(line.rstrip("\n"))
        if m:
            ran.append(m.group(1))
        else:
            err.append(line)
    rep = open(report).read() if os.path.exists(report) else None
    return (r.returncode, r.stdout, "".join(err), rep), ran


def main():
    ptxcheck, progs = sys.argv[1], sys.argv[2:]
    problems = []
    parallel = fallback = 0
    for prog in progs:
        name = os.path.basename(prog)
        with tempfile.TemporaryDirectory() as d:
            one, ran1 = run(ptxcheck, prog, 1, d)
            four, ran4 = run(ptxcheck, prog, 4, d)
        for what, a, b in zip(("exit status", "stdout", "stderr", "report"), one, four):
            if a != b:
                problems.append(f"{name}: {what} differs between --jobs 1 and --jobs 4:\n{a!r}\n{b!r}")
        if any(s not in ("sequential", "cooperative") for s in ran1):
            problems.append(f"{name}: --jobs 1 ran {ran1}")
        parallel += sum(s == "parallel" for s in ran4)
        fallback += sum(s.startswith("sequential after a parallel attempt") for s in ran4)
        print(f"{name}: {len(ran4)} launches: " + "; ".join(ran4))
    print(f"{parallel} launches ran their CTAs in parallel, {fallback} fell back")
    if parallel == 0 or fallback == 0:
        problems.append("expected launches of both kinds")
    if problems:
        print("\n".join(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
