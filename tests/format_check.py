#!/usr/bin/env python3
"""Formatting and static checks of the C++ sources, cheap enough for every CI run.

  format_check.py SRC                       clang-format --dry-run --Werror on every
                                            C++ file of the tree (git ls-files) but
                                            those listed in tests/format_exempt.txt
  format_check.py SRC --changed BASE        ... and on the C++ files changed since
                                            git revision BASE, exempt or not
  format_check.py SRC --tidy BUILD [--changed BASE]
                                            clang-tidy (.clang-tidy) on the files of
                                            tests/format_files.txt marked `tidy` (and
                                            the changed ones), with BUILD/compile_commands.json
  format_check.py --self-test               shows that each rule can fail

An exempt file that is formatted already, or no longer exists, is an error too,
so the list only shrinks. Skips (exit 77) when clang-format is not installed."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CXX = (".cpp", ".hpp", ".h", ".cc", ".cu", ".cuh")


def read_list(path):
    """(file, words after it) per non-comment line."""
    out = []
    if os.path.isfile(path):
        with open(path) as f:
            for line in f:
                words = line.split("#", 1)[0].split()
                if words:
                    out.append((words[0], words[1:]))
    return out


def tree_files(src):
    """The tracked C++ files (every file under SRC outside build folders without git)."""
    r = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout:
        names = [p for p in r.stdout.split("\0") if p]
    else:
        names = []
        for root, dirs, fs in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            names += [os.path.relpath(os.path.join(root, f), src) for f in fs]
    return sorted(p for p in names if p.endswith(CXX) and os.path.isfile(os.path.join(src, p)))


def check(fmt, src, base=None, tidy_build=None):
    """The failures, and how many files clang-format checked."""
    exempt = {p for p, _ in read_list(os.path.join(src, "tests", "format_exempt.txt"))}
    tidy_files = [p for p, w in read_list(os.path.join(src, "tests", "format_files.txt")) if "tidy" in w]
    all_files = tree_files(src)
    fails = ["%s: listed in tests/format_exempt.txt but missing" % p for p in sorted(exempt - set(all_files))]
    fails += ["%s: listed in tests/format_files.txt but missing" % p for p in tidy_files
              if not os.path.isfile(os.path.join(src, p))]
    files = [p for p in all_files if p not in exempt]
    if base:
        out = subprocess.run(["git", "-C", src, "diff", "--name-only", "--diff-filter=AM", base, "--"],
                             capture_output=True, text=True, check=True).stdout.split()
        changed = [p for p in out if p.endswith(CXX)]
        files += [p for p in changed if p in exempt]
        tidy_files += [p for p in changed if p not in tidy_files]

    def unformatted(paths):
        """{path: clang-format's first complaint} over the paths it would change (one call)."""
        bad = {}
        if paths:
            r = subprocess.run([fmt, "--dry-run", "--style=file"] + paths, capture_output=True, text=True, cwd=src)
            for line in r.stderr.splitlines():
                m = re.match(r"(.*?):\d+:\d+: (?:warning|error): code should be clang-formatted", line)
                if m:
                    bad.setdefault(m.group(1), line)
            if r.returncode and not bad:
                bad["clang-format"] = r.stderr[:2000]
        return bad

    for p, err in sorted(unformatted(files).items()):
        fails.append("%s: not formatted (clang-format -i %s; X-macro blocks need // clang-format off, "
                     "see tests/format_exempt.txt)\n%s" % (p, p, err))
    listed = sorted(exempt & set(all_files))
    still = unformatted(listed)
    fails += ["%s: formatted now; remove it from tests/format_exempt.txt" % p for p in listed if p not in still]
    if tidy_build:
        tidy = shutil.which("clang-tidy-14") or shutil.which("clang-tidy")
        srcs = [p for p in tidy_files if p.endswith(".cpp") and os.path.isfile(os.path.join(src, p))]
        if tidy and srcs:
            r = subprocess.run([tidy, "--quiet", "-p", tidy_build] + srcs, capture_output=True, text=True, cwd=src)
            if r.returncode:
                fails.append("clang-tidy:\n" + r.stdout[-4000:])
    return fails, len(files)


def self_test(fmt, src):
    """A clean tree passes; an unformatted file, a formatted exempt file and a
    missing exempt file are each reported."""
    good = "int f(int x) { return x + 1; }\n"
    bad = "int  f( int x ){return x+1;}\n"
    cases = [("clean", {"a.cpp": good}, "", 0),
             ("unformatted", {"a.cpp": good, "b.hpp": bad}, "", 1),
             ("exempt and unformatted", {"a.cpp": good, "b.hpp": bad}, "b.hpp\n", 0),
             ("exempt but formatted", {"a.cpp": good}, "a.cpp\n", 1),
             ("exempt but missing", {"a.cpp": good}, "gone.cpp\n", 1)]
    ok = 0
    for name, files, exempt, want in cases:
        with tempfile.TemporaryDirectory() as d:
            shutil.copy(os.path.join(src, ".clang-format"), d)
            os.mkdir(os.path.join(d, "tests"))
            with open(os.path.join(d, "tests", "format_exempt.txt"), "w") as f:
                f.write(exempt)
            for p, text in files.items():
                with open(os.path.join(d, p), "w") as f:
                    f.write(text)
            fails, _ = check(fmt, d)
            if len(fails) == want:
                ok += 1
            else:
                print("self-test %s: %d failure(s), expected %d: %s" % (name, len(fails), want, fails))
    print("self-test: %d/%d cases as expected" % (ok, len(cases)))
    return ok == len(cases)


def main():
    args = sys.argv[1:]
    src = args.pop(0) if args and not args[0].startswith("--") else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    base = tidy_build = None
    selftest = False
    while args:
        a = args.pop(0)
        if a == "--changed" and args:
            base = args.pop(0)
        elif a == "--tidy" and args:
            tidy_build = args.pop(0)
        elif a == "--self-test":
            selftest = True
        else:
            sys.exit("usage: format_check.py [SRC] [--changed BASE] [--tidy BUILD] | --self-test")
    fmt = shutil.which("clang-format-14") or shutil.which("clang-format")
    if not fmt:
        print("clang-format not installed: skipped")
        sys.exit(77)
    if selftest:
        sys.exit(0 if self_test(fmt, src) else 1)
    fails, n = check(fmt, src, base, tidy_build)
    for f in fails:
        print("FAIL:", f)
    print("%d files formatted; %s" % (n, "FAIL" if fails else "PASS"))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
