#!/usr/bin/env python3
"""`ptxcheck outcomes --memory MIB` (docs/outcomes.md "Limits"): a resident
memory limit ends the exploration with exit 3 and one clear line on stderr,
never a crash or the kernel's OOM killer; a limit with room to spare changes
nothing.

    outcomes_memory.py PTXCHECK SPEC.json

SPEC is an -O0 build of a spin kernel (before its spin loops were reduced
through calls, such a build grew without bound until the machine ran out of
memory)."""
import json
import subprocess
import sys

exe, spec = sys.argv[1], sys.argv[2]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([exe, "outcomes", *args, spec], capture_output=True, text=True, timeout=120)


r = run("--memory", "1")
lines = r.stderr.splitlines()
check(r.returncode == 3, f"--memory 1 exits 3 (got {r.returncode})")
check(r.stdout == "", "--memory 1 prints nothing on stdout")
check(len(lines) == 1 and lines[0].startswith("ptxcheck: limit reached: out of memory:") and "--memory 1)" in lines[0],
      f"--memory 1 gives one line naming the limit: {lines}")

r = run("--memory", "0")
check(r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, "--memory 0 is a usage error")

r = run("--memory", "4096", "--json")
check(r.returncode == 0, f"--memory 4096 exits 0 (got {r.returncode}: {r.stderr.strip()[:200]})")
if r.returncode == 0:
    check(len(json.loads(r.stdout)["outcomes"]) >= 1, "--memory 4096 lists the outcomes")

print("ok" if not fails else f"{len(fails)} failed")
sys.exit(1 if fails else 0)
