#!/usr/bin/env python3
"""Checks goldens that sit beside their inputs, dispatching on the kind of
golden file (docs/corpus.md, "Goldens").

    golden.py PTXCHECK [--part outcomes|run] PATH...

PATH is a golden file or a folder searched for goldens. Kinds:

  NAME.outcomes.json  beside the launch spec NAME.json (corpus/outcomes/):
    part "outcomes": `ptxcheck outcomes --json OPTIONS SPEC` must list
      exactly the golden's outcome set, with its `complete` and `bound_hit`,
      and report races iff the golden says `races`;
    part "run": `ptxcheck run --json SPEC` must end with outputs that are one
      of the golden's outcomes and report a data race iff `run_races`.
    Every reported racing access must map (through the PTX `.loc` lines) to a
    line of NAME's CUDA source listed in `race_lines`.

    part "integrity": the golden is well formed against the spec, the CUDA
      source and the PTX (needs no ptxcheck).
A check listed in PENDING is expected to fail (XFAIL) because the feature it
needs is not on main yet; if it passes (XPASS) the runner fails, so that the
entry is removed as soon as the feature lands. Exit status: 0 when every
check passes or fails as pending, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys

# (case, part) -> why the check cannot pass yet. case "*" means every case.
PENDING = {
    ("*", "outcomes"): "`ptxcheck outcomes` is not on main yet (issue 9 item 2)",
}
# Cases where today's approximate race detector of `run` gives the wrong
# verdict (docs/races.md); model-exact races are issue 9 item 3.
for case in ["bar_named_early", "cluster_handoff", "lastblock_nofence", "lookback",
             "mp_fence_block_1cta", "mp_fence_block_2cta", "mp_release_acquire",
             "mp_release_acquire_cta_1cta", "relay3"]:
    PENDING[(case, "run")] = "model-exact races in `run` are not on main yet (issue 9 item 3)"

TIMEOUT_S = 120
KINDS = {".outcomes.json": "outcomes"}


def canon(state):
    return json.dumps(state, sort_keys=True)


class PtxLines:
    """Maps PTX line numbers to lines of the module's file 1 (the CUDA
    source) through `.loc` directives, following `inlined_at` to the call
    site in the kernel."""

    LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:.*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")

    def __init__(self, path):
        self.at = {}        # ptx line -> (file, line, col) in effect
        inlined = {}        # (file, line, col) -> (file, line, col) it is inlined at
        cur = None
        with open(path) as f:
            for n, text in enumerate(f, 1):
                m = self.LOC.match(text)
                if m:
                    cur = tuple(int(x) for x in m.group(1, 2, 3))
                    if m.group(4):
                        inlined[cur] = tuple(int(x) for x in m.group(4, 5, 6))
                self.at[n] = cur
        self.inlined = inlined

    def source_line(self, ptx_line):
        loc = self.at.get(ptx_line)
        seen = set()
        while loc in self.inlined and loc not in seen:
            seen.add(loc)
            loc = self.inlined[loc]
        return loc[1] if loc and loc[0] == 1 else None


def race_ptx_lines(obj):
    """Every PTX line a race report names: values of keys called `line` (or
    ending in `_line`/`lines`) and `line N` in message strings."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if (k == "line" or k.endswith("_line")) and isinstance(v, int):
                out.append(v)
            elif k.endswith("lines") and isinstance(v, list):
                out += [x for x in v if isinstance(x, int)]
            else:
                out += race_ptx_lines(v)
    elif isinstance(obj, list):
        for v in obj:
            out += race_ptx_lines(v)
    elif isinstance(obj, str):
        out += [int(x) for x in re.findall(r"\bline (\d+)", obj)]
    return out


def run_json(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT_S} s"
    try:
        return json.loads(r.stdout), None
    except ValueError:
        first = (r.stderr or r.stdout).strip().splitlines()[:1]
        return None, f"exit {r.returncode}, no JSON: {first[0] if first else ''}"


def check_race_lines(races, golden, ptx_lines, what):
    allowed = set(golden["race_lines"])
    for race in races:
        for pl in race_ptx_lines(race):
            src = ptx_lines.source_line(pl)
            if src not in allowed:
                return f"{what} names PTX line {pl} (source line {src}), not in race_lines {sorted(allowed)}"
    return None


def check_outcomes(exe, folder, golden, spec, ptx_lines):
    j, err = run_json([exe, *golden["command"][:-1], "--json", spec])
    if err:
        return err
    got = sorted(canon(o["buffers"]) for o in j.get("outcomes", []))
    want = sorted(canon(o) for o in golden["outcomes"])
    if got != want:
        return f"outcomes {got} != expected {want}"
    for key in ("complete", "bound_hit"):
        if j.get(key) != golden[key]:
            return f"{key} is {j.get(key)}, expected {golden[key]}"
    races = j.get("races", [])
    if bool(races) != golden["races"]:
        return f"races reported: {bool(races)}, expected {golden['races']}"
    return check_race_lines(races, golden, ptx_lines, "an outcomes race")


def check_run(exe, folder, golden, spec, ptx_lines):
    j, err = run_json([exe, "run", "--json", spec])
    if err:
        return err
    if canon(j.get("outputs")) not in {canon(o) for o in golden["outcomes"]}:
        return f"run's outputs {canon(j.get('outputs'))} are not a permitted outcome"
    races = [d for d in j.get("diagnostics", []) if d.get("kind") == "data-race"]
    others = [d for d in j.get("diagnostics", []) if d.get("kind") != "data-race" and d.get("severity") == "error"]
    if others:
        return f"run reports {others[0].get('kind')}: {others[0].get('message')}"
    if bool(races) != golden["run_races"]:
        return f"run reports a data race: {bool(races)}, expected {golden['run_races']}"
    return check_race_lines(races, golden, ptx_lines, "a run race")


def check_integrity(exe, folder, golden, spec, ptx_lines):
    """The golden against its inputs: every outcome names exactly the spec's
    outputs with their counts, race_lines are lines of the CUDA source, and
    the PTX says which source it came from."""
    with open(spec) as f:
        s = json.load(f)
    counts = {name: s["buffers"][name]["count"] for name in s["outputs"]}
    for o in golden["outcomes"]:
        if {k: len(v) for k, v in o.items()} != counts:
            return f"outcome {canon(o)} does not match the spec's outputs {counts}"
    if len({canon(o) for o in golden["outcomes"]}) != len(golden["outcomes"]):
        return "an outcome is listed twice"
    if not golden["outcomes"]:
        return "no outcome"
    if (golden["races"] or golden["run_races"]) != bool(golden["race_lines"]):
        return "race_lines must be given exactly when a race is expected"
    cu = os.path.join(folder, s["kernel"] + ".cu")
    with open(cu) as f:
        nlines = sum(1 for _ in f)
    if any(not 1 <= n <= nlines for n in golden["race_lines"]):
        return f"race_lines outside {cu}"
    with open(os.path.join(folder, s["ptx"])) as f:
        if f'.file\t1 "{s["kernel"]}.cu"' not in f.read():
            return f"{s['ptx']} does not name {s['kernel']}.cu as its file 1 (run regen.sh)"
    for key in ("command", "complete", "bound_hit", "argument"):
        if key not in golden:
            return f"missing {key}"
    if golden["command"][0] != "outcomes" or golden["command"][-1] != os.path.basename(spec):
        return "command must be [\"outcomes\", OPTIONS..., SPEC]"
    return None


CHECKS = {"integrity": check_integrity, "outcomes": check_outcomes, "run": check_run}


def folder_problems(folder):
    """Inputs without their golden, sources without their PTX."""
    names = set(os.listdir(folder))
    out = []
    for n in sorted(names):
        if n.endswith(".cu") and n[:-3] + ".ptx" not in names:
            out.append(f"{n} has no PTX (run regen.sh)")
        if n.endswith(".json") and not any(n.endswith(k) for k in KINDS):
            if not any(n[:-5] + k in names for k in KINDS):
                out.append(f"{n} has no golden beside it")
    return out


def goldens(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if any(name.endswith(s) for s in KINDS):
                    yield os.path.join(p, name)
        else:
            yield p


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    exe, args = argv[1], argv[2:]
    parts = list(CHECKS)
    if args[:1] == ["--part"]:
        parts, args = [args[1]], args[2:]
    counts = {"ok": 0, "XFAIL": 0, "FAIL": 0, "XPASS": 0}
    if "integrity" in parts:
        for p in args:
            for problem in folder_problems(p) if os.path.isdir(p) else []:
                counts["FAIL"] += 1
                print(f"FAIL  {p}: {problem}")
    for path in goldens(args):
        kind = next(k for s, k in KINDS.items() if path.endswith(s))
        assert kind == "outcomes"
        folder = os.path.dirname(path)
        case = os.path.basename(path)[: -len(".outcomes.json")]
        with open(path) as f:
            golden = json.load(f)
        spec = os.path.join(folder, golden["command"][-1])
        with open(spec) as f:
            ptx = os.path.join(folder, json.load(f)["ptx"])
        ptx_lines = PtxLines(ptx)
        for part in parts:
            why = PENDING.get((case, part)) or PENDING.get(("*", part))
            err = CHECKS[part](exe, folder, golden, spec, ptx_lines)
            status = ("XFAIL" if err else "XPASS") if why else ("FAIL" if err else "ok")
            counts[status] += 1
            line = f"{status:5} {case} {part}"
            if err:
                line += f": {err}"
            if why:
                line += f" [pending: {why}]"
            if status == "XPASS":
                line += " -- passes now: remove it from PENDING"
            print(line)
    print(" ".join(f"{k} {v}" for k, v in counts.items()))
    return 1 if counts["FAIL"] or counts["XPASS"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
