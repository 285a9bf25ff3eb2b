#!/usr/bin/env python3
"""Formatting and static checks on a bounded set of files, so that CI stays cheap.

  format_check.py SRC                       clang-format --dry-run --Werror on the
                                            files of tests/format_files.txt
  format_check.py SRC --changed BASE        ... and on the C++ files changed since
                                            git revision BASE (what a commit adds)
  format_check.py SRC --tidy BUILD [--changed BASE]
                                            clang-tidy (.clang-tidy) on the listed
                                            files marked `tidy` (and the changed
                                            ones), with BUILD/compile_commands.json

Skips (exit 77) when clang-format is not installed."""
import os
import shutil
import subprocess
import sys

args = sys.argv[1:]
src = args.pop(0) if args and not args[0].startswith("--") else "."
base = tidy_build = None
while args:
    a = args.pop(0)
    if a == "--changed":
        base = args.pop(0)
    elif a == "--tidy":
        tidy_build = args.pop(0)
    else:
        sys.exit("usage: format_check.py [SRC] [--changed BASE] [--tidy BUILD]")

fmt = shutil.which("clang-format-14") or shutil.which("clang-format")
if not fmt:
    print("clang-format not installed: skipped")
    sys.exit(77)

files, tidy_files = [], []
with open(os.path.join(src, "tests", "format_files.txt")) as f:
    for line in f:
        words = line.split("#", 1)[0].split()
        if words:
            files.append(words[0])
            if "tidy" in words[1:]:
                tidy_files.append(words[0])
missing = [p for p in files if not os.path.isfile(os.path.join(src, p))]
if base:
    out = subprocess.run(["git", "-C", src, "diff", "--name-only", "--diff-filter=AM", base, "--"],
                         capture_output=True, text=True, check=True).stdout.split()
    changed = [p for p in out if p.endswith((".cpp", ".hpp", ".h")) and p not in files]
    files += changed
    tidy_files += changed

fails = ["%s: listed in tests/format_files.txt but missing" % p for p in missing]
for p in files:
    path = os.path.join(src, p)
    if not os.path.isfile(path):
        continue
    r = subprocess.run([fmt, "--dry-run", "--Werror", "--style=file", path], capture_output=True, text=True, cwd=src)
    if r.returncode:
        fails.append("%s: not formatted (clang-format -i %s)\n%s" % (p, p, r.stderr[:2000]))
if tidy_build:
    tidy = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
    srcs = [p for p in tidy_files if p.endswith(".cpp") and os.path.isfile(os.path.join(src, p))]
    if tidy and srcs:
        r = subprocess.run([tidy, "--quiet", "-p", tidy_build] + srcs, capture_output=True, text=True, cwd=src)
        if r.returncode:
            fails.append("clang-tidy:\n" + r.stdout[-4000:])
for f in fails:
    print("FAIL:", f)
print("%d files; %s" % (len(files), "FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
