#!/usr/bin/env python3
"""Resource limits of `ptxcheck outcomes` (docs/outcomes.md "Limits" and
"Loops"): each ends with exit 3, nothing on stdout and one clear line on
stderr, never a crash, the kernel's OOM killer or an empty answer.

    outcomes_limits.py PTXCHECK memory SPEC.json
    outcomes_limits.py PTXCHECK bound ALL_CUT.json PARTLY_CUT.json
    outcomes_limits.py PTXCHECK async BULK_MBAR.json REDUCE_MBAR.json

memory: `--memory MIB`. SPEC is an -O0 build of a spin kernel (before its
spin loops were reduced through calls, such a build grew without bound until
the machine ran out of memory); a limit with room to spare changes nothing.

bound: when the loop bound cut every path, no execution finished, so there
is no answer. ALL_CUT needs two back jumps in every thread
(bound/bound_cut_all.cu), each iteration a choice: it runs with
PTXCHECK_OUTCOMES_NO_RMW_CHAIN=1, since with RMW chains
(semantics/outcomes/hook_chain.cpp) a thread whose partner has exited adds
without a choice and its loop is not bounded; PARTLY_CUT is a corpus case whose goldens record
bound_hit at --unroll 1: it still lists its outcomes (exit 0, bound_hit).

async: a copy that completes on an mbarrier updates it with its complete_tx.
Once that update was outside the accesses outcomes sees, so the wait never
saw its phase complete and outcomes answered "0 permitted outcomes" with
exit 0. A 1D cp.async.bulk (async/bulk_mbar.cu) now reports its complete_tx
(semantics/outcomes/hook_async.cpp): its one outcome is listed (the words
copied, 5 6 7 8), without a race. A bulk reduction on an mbarrier
(async/bulk_reduce_mbar.cu) still does not, and is refused (the PTX line
and complete_tx named), in text and JSON."""
import json
import os
import subprocess
import sys

exe, mode, specs = sys.argv[1], sys.argv[2], sys.argv[3:]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(spec, *args, env=None):
    return subprocess.run([exe, "outcomes", *args, spec], capture_output=True, text=True, timeout=120, env=env)


def check_limit(r, what, prefix, names):
    """Exit 3, empty stdout, one stderr line that starts with `prefix` and
    contains `names`."""
    lines = r.stderr.splitlines()
    check(r.returncode == 3, f"{what} exits 3 (got {r.returncode}: {r.stdout[:200]})")
    check(r.stdout == "", f"{what} prints nothing on stdout")
    check(len(lines) == 1 and lines[0].startswith(prefix) and names in lines[0],
          f"{what} gives one line naming the limit: {lines}")


def check_listed(r, what):
    check(r.returncode == 0, f"{what} exits 0 (got {r.returncode}: {r.stderr.strip()[:200]})")
    return json.loads(r.stdout) if r.returncode == 0 else None


if mode == "memory":
    (spec,) = specs
    check_limit(run(spec, "--memory", "1"), "--memory 1", "ptxcheck: limit reached: out of memory:", "--memory 1)")
    r = run(spec, "--memory", "0")
    check(r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, "--memory 0 is a usage error")
    j = check_listed(run(spec, "--memory", "4096", "--json"), "--memory 4096")
    if j:
        check(len(j["outcomes"]) >= 1, "--memory 4096 lists the outcomes")
elif mode == "bound":
    all_cut, partly_cut = specs
    choices = dict(os.environ, PTXCHECK_OUTCOMES_NO_RMW_CHAIN="1")
    for extra in ([], ["--json"], ["--exists", "out[0] == 3"]):
        check_limit(run(all_cut, "--unroll", "1", *extra, env=choices), f"every path cut {extra}",
                    "ptxcheck: limit reached: the loop bound cut every path", "--unroll 1")
    j = check_listed(run(partly_cut, "--unroll", "1", "--json"), "partly cut")
    if j:
        check(j["bound_hit"] and len(j["outcomes"]) >= 1, "partly cut lists its outcomes with bound_hit")
elif mode == "async":
    bulk, reduce = specs
    j = check_listed(run(bulk, "--json"), "bulk copy on an mbarrier")
    if j:
        got = sorted(o["buffers"]["out"] for o in j["outcomes"])
        check(got == [[5, 6, 7, 8]], f"bulk copy on an mbarrier: outcomes {got} are [[5, 6, 7, 8]]")
        check(not j.get("races"), "bulk copy on an mbarrier: no race")
    for extra in ([], ["--json"]):
        check_limit(run(reduce, *extra), f"bulk reduction on an mbarrier {extra}", "ptxcheck: limit reached: PTX line",
                    "complete_tx")
else:
    sys.exit(f"outcomes_limits.py: unknown mode {mode!r}")

print("ok" if not fails else f"{len(fails)} failed")
sys.exit(1 if fails else 0)
