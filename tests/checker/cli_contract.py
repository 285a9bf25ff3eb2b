#!/usr/bin/env python3
"""The ptxcheck CLI explains itself: `--help` lists every row of
checker/subcommands.def, `SUB --help` gives each subcommand's options with a
usage line naming the program, `--version` names the PTX ISA, and every
usage error is one line on stderr (`ptxcheck SUB:1:COL: error: ...`, the
column of the offending argument) with exit 2."""
import os
import re
import subprocess
import sys

exe, src = sys.argv[1], os.environ.get("PTXCHECK_SRC", ".")
fails = []


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True)


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


with open(os.path.join(src, "checker", "subcommands.def")) as f:
    subs = re.findall(r'^PTXCHECK_SUBCOMMAND\("([a-z0-9-]+)"', f.read(), re.M)
check(len(subs) >= 3 and subs[0] == "litmus", "subcommands.def lists litmus first: %s" % subs)

for flag in ("--help", "-h", "help"):
    r = run(flag)
    check(r.returncode == 0 and r.stderr == "", flag + " exits 0 quietly")
    check(r.stdout.startswith("usage: ptxcheck "), flag + " starts with a usage line naming ptxcheck")
    listed = re.findall(r"^  ([a-z0-9-]+)  ", r.stdout, re.M)
    check(listed[: len(subs)] == subs, "%s lists every subcommand in table order: %s" % (flag, listed))
    block = r.stdout.split("subcommands", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    check(len(block) == len(subs), "%s gives one line per subcommand: %d lines for %d" % (flag, len(block), len(subs)))

r = run("--version")
check(r.returncode == 0 and re.fullmatch(r"ptxcheck \S+ \(PTX ISA 9\.2\)\n", r.stdout) is not None,
      "--version prints version and PTX ISA: " + r.stdout)

for sub in subs:
    for form in ([sub, "--help"], ["help", sub]):
        r = run(*form)
        check(r.returncode == 0, " ".join(form) + " exits 0")
        check(("Usage: ptxcheck " + sub) in r.stdout, " ".join(form) + " has a usage line naming ptxcheck " + sub)
        check("--help" in r.stdout and "OPTIONS" in r.stdout.upper(), " ".join(form) + " lists options")
    r = run(sub, "--no-such-option")
    lines = r.stderr.splitlines()
    check(r.returncode == 2, sub + " --no-such-option exits 2")
    check(len(lines) == 1 and re.match(r"ptxcheck %s:1:\d+: error: " % sub, lines[0]) is not None and r.stdout == "",
          sub + " usage error is one line positioned on the command line: " + r.stderr)

r = run()
check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, "no arguments: one line, exit 2")
r = run("help", "nosuch")
check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, "help of an unknown subcommand: one line, exit 2")
r = run("--no-such-option", os.path.join(src, "litmus", "mp.litmus"))
check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, "default subcommand: bad option is one line, exit 2")
r = run("litmus", os.path.join(src, "litmus", "mp.litmus"))
check(r.returncode == 0 and r.stdout.startswith("Test mp "), "`ptxcheck litmus FILE` is the default subcommand")

spec = os.path.join(src, "corpus", "kernels", "features", "user_mix.json")
for bad in (["--max-steps", "-5", spec], ["--max-steps", "x", spec], ["--max-steps"], [], [spec, spec]):
    r = run("run", *bad)
    check(r.returncode == 2 and len(r.stderr.splitlines()) == 1 and r.stdout == "",
          "run %s: one-line usage error, exit 2: %s" % (bad, r.stderr))
r = run("run", spec, "--max-steps=100000000", "--no-races", "--json")
check(r.returncode == 0 and r.stdout.startswith("{"), "run accepts --opt=value, --no-races, --json")
r = run("parse")
check(r.returncode == 2 and len(r.stderr.splitlines()) == 1, "parse without files: one line, exit 2")
r = run("parse", "--json", os.path.join(src, "corpus", "malformed", "unknown_modifier.ptx"))
check(r.returncode == 2 and ":9:5: error:" in r.stderr, "parse errors keep file:line:col")

print("FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)
