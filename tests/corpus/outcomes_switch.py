"""Runs `ptxcheck outcomes --json` with one of its search's switches
(PTXCHECK_OUTCOMES_NO_*, docs/outcomes.md) on or off: the shared part of
outcomes_pairs.py, outcomes_prefix.py and outcomes_entry.py."""
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
