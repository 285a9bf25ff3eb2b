#!/usr/bin/env python3
"""The step budget of `ptxcheck exec` (cuda/README.md): it counts the thread
instructions since a thread of the launch last exited.

usage: check_budget.py PTXCHECK PROGRAM   (PROGRAM: step_budget.cu built)

With --max-steps 2000000, under --jobs 1 and --jobs 2:
- `PROGRAM` (one launch of 256 CTAs, millions of thread instructions in all,
  tens of thousands per CTA) runs to its end: PASS, exit 0, no diagnostic,
  and the launch ran more thread instructions than the budget (a budget of
  the launch's total would have stopped it);
- `PROGRAM hang` (a spin on a flag nothing sets) is stopped: one step-limit
  diagnostic, the program sees cudaErrorLaunchTimeout, exec exits 3 with its
  "limit reached" line.
The two job counts give the same output byte for byte.
"""
import json
import os
import subprocess
import sys
import tempfile

BUDGET = 2000000


def run(ptxcheck, prog, args, jobs, d):
    report = os.path.join(d, f"report{jobs}.json")
    r = subprocess.run([ptxcheck, "exec", "--races=off", "--max-steps", str(BUDGET), "--jobs", str(jobs), "--report",
                        report, prog] + args, capture_output=True, text=True, timeout=120)
    rep = json.load(open(report)) if os.path.exists(report) else None
    return r, rep


def main():
    ptxcheck, prog = sys.argv[1:3]
    problems = []
    with tempfile.TemporaryDirectory() as d:
        for args in ([], ["hang"]):
            outs = []
            for jobs in (1, 2):
                r, rep = run(ptxcheck, prog, args, jobs, d)
                outs.append((r.returncode, r.stdout, r.stderr, json.dumps(rep, sort_keys=True)))
                what = f"{' '.join(['step_budget'] + args)} --jobs {jobs}"
                if rep is None or len(rep["launches"]) != 1:
                    problems.append(f"{what}: no report of one launch")
                    continue
                launch = rep["launches"][0]
                kinds = [x["kind"] for x in launch["diagnostics"]]
                if not args:
                    if r.returncode != 0 or "step_budget: PASS" not in r.stdout or kinds:
                        problems.append(f"{what}: exit {r.returncode}, stdout {r.stdout!r}, diagnostics {kinds}")
                    if launch.get("thread_instructions", 0) <= BUDGET:
                        problems.append(f"{what}: only {launch.get('thread_instructions')} thread instructions "
                                        f"(the test needs more than {BUDGET})")
                else:
                    if (r.returncode != 3 or kinds != ["step-limit"] or
                            "hang ended with cudaErrorLaunchTimeout" not in r.stdout or
                            "ptxcheck exec: limit reached: launch 1 of spin(int volatile*): step budget of 2000000 thread "
                            "instructions exceeded without a thread exiting" not in r.stderr):
                        problems.append(f"{what}: exit {r.returncode}, stdout {r.stdout!r}, diagnostics {kinds}, "
                                        f"stderr {r.stderr[-400:]!r}")
            if outs[0] != outs[1]:
                problems.append(f"step_budget {' '.join(args)}: --jobs 1 and --jobs 2 differ: {outs[0]!r} {outs[1]!r}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
