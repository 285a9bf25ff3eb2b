#!/usr/bin/env python3
"""Runs an nvcc-built runtime-API program on the shim and checks its output.

usage: run.py SHIM_DIR PROGRAM [--expect-stdout TEXT] [--expect-stderr TEXT] [--expect-exit N] [-- ARGS...]
Exit 0 when the program exits as expected and each expected text occurs.
"""
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    rest = []
    if "--" in args:
        i = args.index("--")
        args, rest = args[:i], args[i + 1:]
    shim, prog = args[0], args[1]
    want_out, want_err, want_exit, env = [], [], 0, {}
    i = 2
    while i < len(args):
        if args[i] == "--expect-stdout":
            want_out.append(args[i + 1])
        elif args[i] == "--expect-stderr":
            want_err.append(args[i + 1])
        elif args[i] == "--expect-exit":
            want_exit = int(args[i + 1])
        elif args[i] == "--env":
            k, v = args[i + 1].split("=", 1)
            env[k] = v
        i += 2
    r = subprocess.run([prog, *rest], env=dict(os.environ, LD_LIBRARY_PATH=shim, **env), capture_output=True,
                       text=True, timeout=120)
    ok = r.returncode == want_exit
    ok &= all(t in r.stdout for t in want_out)
    ok &= all(t in r.stderr for t in want_err)
    if not ok:
        print(f"exit {r.returncode} (expected {want_exit})\n--- stdout\n{r.stdout}\n--- stderr\n{r.stderr}")
        print("expected stdout:", want_out, "stderr:", want_err)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
