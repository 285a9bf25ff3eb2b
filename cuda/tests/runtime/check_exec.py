#!/usr/bin/env python3
"""Runs a runtime-API program under `ptxcheck exec` and checks the outcome.

usage: check_exec.py PTXCHECK PROGRAM NAME [EXPECTED.json [--pass-line] [--stderr-end TEXT]]
Without EXPECTED: the program must print "NAME: PASS", exit 0, and exec must
report no diagnostic. With EXPECTED (a list of {kind, severity, kernel,
cuda_line} for a program broken on purpose): exec must exit with the
--error-exitcode and report exactly those diagnostics (as a multiset; the
CUDA file is the program's source); with --pass-line the program must also
print its PASS line (a program that checks the errors it provokes); with
--stderr-end TEXT a line of the program's stderr must end with TEXT.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ERROR_EXIT = 86


def passthrough(ptxcheck):
    """Everything from PROGRAM on is the program's, options included; usage errors exit 2."""
    r = subprocess.run([ptxcheck, "exec", "--races=off", "echo", "a", "--races=on", "-x"], capture_output=True,
                       text=True, timeout=60)
    ok = r.returncode == 0 and r.stdout == "a --races=on -x\n"
    r2 = subprocess.run([ptxcheck, "exec", "--races=maybe", "echo"], capture_output=True, text=True, timeout=60)
    r3 = subprocess.run([ptxcheck, "exec"], capture_output=True, text=True, timeout=60)
    r4 = subprocess.run([ptxcheck, "exec", "/nonexistent/program"], capture_output=True, text=True, timeout=60)
    ok &= r2.returncode == 2 and r3.returncode == 2 and r4.returncode == 127
    if not ok:
        print(r.returncode, repr(r.stdout), r2.returncode, r3.returncode, r4.returncode, r4.stderr)
    return 0 if ok else 1


def main():
    if sys.argv[2] == "--passthrough":
        return passthrough(sys.argv[1])
    ptxcheck, prog, name = sys.argv[1:4]
    expected = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else None
    pass_line = "--pass-line" in sys.argv[5:]
    stderr_end = sys.argv[sys.argv.index("--stderr-end") + 1] if "--stderr-end" in sys.argv[5:] else None
    with tempfile.TemporaryDirectory() as d:
        report = os.path.join(d, "report.json")
        r = subprocess.run([ptxcheck, "exec", "--report", report, "--error-exitcode", str(ERROR_EXIT), prog],
                           capture_output=True, text=True, timeout=120)
        rep = json.load(open(report)) if os.path.exists(report) else None
    problems = []
    if rep is None:
        problems.append("no report written")
    got = [] if rep is None else [
        {"kind": x["kind"], "severity": x["severity"], "kernel": x["kernel"], "cuda_line": x.get("cuda_line")}
        for l in rep["launches"] for x in l["diagnostics"]]
    if expected is None:
        if r.returncode != 0:
            problems.append(f"exit {r.returncode}, expected 0")
        if f"{name}: PASS" not in r.stdout:
            problems.append(f"no '{name}: PASS' line")
        if got:
            problems.append(f"unexpected diagnostics {got}")
    else:
        if r.returncode != ERROR_EXIT:
            problems.append(f"exit {r.returncode}, expected {ERROR_EXIT} (--error-exitcode)")
        key = lambda x: json.dumps(x, sort_keys=True)
        if pass_line and f"{name}: PASS" not in r.stdout:
            problems.append(f"no '{name}: PASS' line")
        if stderr_end is not None and not any(l.endswith(stderr_end) for l in r.stderr.splitlines()):
            problems.append(f"no stderr line ending with '{stderr_end}'")
        if sorted(map(key, got)) != sorted(map(key, expected)):
            problems.append(f"diagnostics {got}\nexpected    {expected}")
        # Every diagnostic has its PTX and CUDA positions with columns
        # (file:line:col), in the report and in exec's own lines.
        for l in (rep or {}).get("launches", []):
            for x in l["diagnostics"]:
                if not (x.get("ptx_line", 0) > 0 and x.get("ptx_col", 0) > 0 and "cuda_col" in x):
                    problems.append(f"diagnostic without PTX/CUDA line and column: {x}")
        at = re.findall(r" at (\S+:\d+:\d+), PTX (\S+:\d+:\d+)", r.stderr)
        if len(at) != len(got):
            problems.append(f"{len(at)} 'at CUDA:line:col, PTX file:line:col' lines for {len(got)} diagnostics")
    if problems:
        print("\n".join(problems))
        print("--- stdout\n" + r.stdout + "--- stderr\n" + r.stderr)
        return 1
    print(f"{name}: ok ({len(got)} diagnostics)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
