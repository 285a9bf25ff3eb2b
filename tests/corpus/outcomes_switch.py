"""Runs `ptxcheck outcomes --json` with one of its search's switches
(PTXCHECK_OUTCOMES_NO_*, docs/outcomes.md) on or off: the shared part of
the outcomes_*.py runners (compare: the whole loop of outcomes_pairs.py,
outcomes_prefix.py and outcomes_symmetry.py)."""
import json
import os
import subprocess


def run(exe, spec, switch, on, fails, args=(), timeout=120):
    """The parsed JSON result of `exe outcomes --json ARGS SPEC` with the
    environment variable `switch` unset (on) or set to 1 (off), or None after
    appending a failure line to `fails` when the run exits non-zero."""
    env = dict(os.environ)
    env.pop(switch, None)
    if not on:
        env[switch] = "1"
    r = subprocess.run([exe, "outcomes", "--json", *args, spec], capture_output=True, text=True, timeout=timeout,
                       env=env)
    if r.returncode != 0:
        fails.append(f"{spec}: exit {r.returncode}: {r.stderr.strip()[:200]}")
        return None
    return json.loads(r.stdout)


def compare(exe, specs, switch, what, check, args=("--unroll", "1"), timeout=120):
    """Runs every SPEC with `switch` on and off: a failure when the states or
    races differ (`what` names the rule the switch turns off), and the
    failure lines check(i, spec, name, on, off) returns. Prints the failures
    and returns the exit status."""
    fails = []
    for i, spec in enumerate(specs):
        name = os.path.basename(spec)
        a, b = run(exe, spec, switch, True, fails, args, timeout), run(exe, spec, switch, False, fails, args, timeout)
        if a is None or b is None:
            continue
        if (a["outcomes"], a["races"]) != (b["outcomes"], b["races"]):
            fails.append(f"{name}: states or races differ with and without {what}")
        fails += check(i, spec, name, a, b)
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0
