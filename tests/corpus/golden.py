#!/usr/bin/env python3
"""Checks goldens that sit beside their inputs, dispatching on the kind of
golden file (docs/corpus.md, "Goldens").

    golden.py PTXCHECK [--timeout-scale N] [--part integrity|outcomes|run|litmus|malformed] PATH...
    golden.py PTXCHECK --update PATH...   (litmus goldens)

PATH is a golden file or a folder searched for goldens. Kinds:

  NAME.outcomes.json  beside the launch spec NAME.json (corpus/outcomes/):
    part "outcomes": `ptxcheck outcomes --json OPTIONS SPEC` must list
      exactly the golden's outcome set, with its `complete` and `bound_hit`
      (and `unroll`, the bound explored, where the golden gives it),
      and report races iff the golden says `races`;
    part "run": `ptxcheck run --json SPEC` must end with outputs that are one
      of the golden's outcomes and report a data race iff `run_races`.
    Every reported racing access must map (through the PTX `.loc` lines) to a
    line of NAME's CUDA source listed in `race_lines`.

    part "integrity": the golden is well formed against the spec, the CUDA
      source and the PTX (needs no ptxcheck).

  NAME.litmus.expected  beside the litmus test NAME.litmus (litmus/,
    corpus/spec/), herd7's `X.litmus.expected` with GenMC's execution counts:
    the herd block `ptxcheck NAME.litmus` prints under the default model (its
    Time line left out), then one line per model
    `Model M: VERDICT Positive: P Negative: N Executions: E`, ending in
    ` Undefined` when the test has a mixed-size data race (PTX ISA 8.7.2);
    part "litmus": ptxcheck must print the same block and, with
      `--json --model M` under both engines, the same verdict and counts.
    `golden.py PTXCHECK --update PATH...` writes these goldens (read the
    diff: a golden is a claim about the PTX memory model).

  Malformed inputs carry their expected error in the file itself:
  NAME.ptx whose first line is `// expect: LINE:COL message`
  (corpus/malformed/) and NAME.json with a key `"_expect": "LINE:COL
  message"` (tests/interp/bad_specs/);
    part "malformed": `ptxcheck parse NAME.ptx` / `ptxcheck run NAME.json`
      must exit 2 with nothing on stdout and first print
      `NAME:LINE:COL: error: ...message...`.
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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import models_def  # noqa: E402  (memmodel/models.def, the one table of model names)

# (case, part) -> why the check cannot pass yet. case "*" means every case.
PENDING: dict[tuple[str, str], str] = {}
TIMEOUT_S = 60
# A pending check gets less: it only has to show that it still fails (an
# XPASS within this shorter limit is reported); running two known-slow cases
# to the full limit cost CI two minutes per build.
PENDING_TIMEOUT_S = 15
EXPECT_PTX = re.compile(r"^// expect: (\d+):(\d+) (.*)$")
EXPECT_JSON = re.compile(r'"_expect"\s*[:,]\s*"(\d+):(\d+) ([^"]*)"')


def malformed_expectation(path):
    """(line, col, message) a malformed input states, or None."""
    if not path.endswith((".ptx", ".json")):
        return None
    with open(path, errors="replace") as f:
        text = f.read()
    m = EXPECT_PTX.match(text.split("\n", 1)[0]) if path.endswith(".ptx") else EXPECT_JSON.search(text)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else None


def check_malformed(exe, path):
    line, col, msg = malformed_expectation(path)
    cmd = [exe, "parse", path] if path.endswith(".ptx") else [exe, "run", path]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
    first = (r.stderr.splitlines() or [""])[0]
    if r.returncode != 2:
        return f"exit {r.returncode}, expected 2 ({first})"
    if r.stdout:
        return "printed output for a malformed input"
    if not first.startswith(f"{path}:{line}:{col}: error: ") or msg not in first:
        return f"printed `{first}`, expected {line}:{col} and `{msg}`"
    return None
KINDS = {".outcomes.json": "outcomes", ".litmus.expected": "litmus"}
LITMUS_MODELS = models_def.readings()  # one reading per model kind, without variants


def canon(state):
    return json.dumps(state, sort_keys=True)


class PtxLines:
    """Maps PTX line numbers to lines of the CUDA source (the `.file` named
    `source`, file 1 when none is given; an -O0 build names the CUDA headers
    it calls into first) through `.loc` directives, following `inlined_at`
    to the call site in the kernel."""

    LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(?:.*inlined_at\s+(\d+)\s+(\d+)\s+(\d+))?")
    FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"')

    def __init__(self, path, source=None):
        self.at = {}        # ptx line -> (file, line, col) in effect
        self.root = {}      # ptx line -> the outermost location of its .loc chain, when known
        inlined = {}        # (file, line, col) -> (file, line, col) it is inlined at
        cur = root = prev = None
        self.file = 1       # the index of the CUDA source
        with open(path) as f:
            for n, text in enumerate(f, 1):
                fm = self.FILE.match(text)
                if fm and source is not None and fm.group(2) == source:
                    self.file = int(fm.group(1))
                m = self.LOC.match(text)
                if m:
                    cur = tuple(int(x) for x in m.group(1, 2, 3))
                    if m.group(4):
                        inlined[cur] = tuple(int(x) for x in m.group(4, 5, 6))
                        # nvcc writes a chain outermost first, each .loc inlined at
                        # the one before it: the same header location may be
                        # inlined at several call sites, so follow the chain, not
                        # the last inlined_at seen for that location.
                        root = prev[1] if prev and prev[0] == inlined[cur] else None
                    else:
                        root = cur
                    prev = (cur, root)
                elif text.strip():
                    prev = None
                self.at[n] = cur
                self.root[n] = root
        self.inlined = inlined

    def source_line(self, ptx_line):
        loc = self.root.get(ptx_line) or self.at.get(ptx_line)
        seen = set()
        while loc in self.inlined and loc not in seen:
            seen.add(loc)
            loc = self.inlined[loc]
        return loc[1] if loc and loc[0] == self.file else None


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
    for key in ("complete", "bound_hit", "unroll"):
        if key in golden and j.get(key) != golden[key]:
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
        if not re.search(r'\.file\t\d+ "' + re.escape(s["kernel"]) + r'\.cu"', f.read()):
            return f"{s['ptx']} does not name {s['kernel']}.cu in a .file directive (run regen.sh)"
    for key in ("command", "complete", "bound_hit", "argument"):
        if key not in golden:
            return f"missing {key}"
    if golden["command"][0] != "outcomes" or golden["command"][-1] != os.path.basename(spec):
        return "command must be [\"outcomes\", OPTIONS..., SPEC]"
    return None


_LITMUS_CACHE = {}


def litmus_batch(exe, folder):
    """ptxcheck's answers for every NAME.litmus of FOLDER, from one run per
    (model, engine) plus one herd-text run: {file: (text, [model lines])}."""
    if folder in _LITMUS_CACHE:
        return _LITMUS_CACHE[folder]
    files = [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".litmus")]
    out = {f: ["", {}] for f in files}
    r = subprocess.run([exe, *files], capture_output=True, text=True, timeout=TIMEOUT_S)
    blocks = [b for b in r.stdout.split("\n\n") if b.startswith("Test ")]
    for f, b in zip(files, blocks):  # printed in input order
        out[f][0] = "".join(l + "\n" for l in b.splitlines() if not l.startswith("Time "))
    for model in LITMUS_MODELS:
        for engine in ("enum", "z3"):
            r = subprocess.run([exe, "--json", "--model", model, "--engine", engine, *files],
                               capture_output=True, text=True, timeout=TIMEOUT_S)
            for line in r.stdout.splitlines():
                j = json.loads(line)
                f = next((x for x in files if os.path.samefile(x, j["file"])), None)
                if f is not None:
                    out[f][1][(model, engine)] = (f"Model {model}: {j['verdict']} Positive: {j['positive']} "
                                                  f"Negative: {j['negative']} Executions: {j['executions']}"
                                                  + (" Undefined" if j.get("undefined") else ""))
    _LITMUS_CACHE[folder] = out
    return out


def litmus_golden(exe, litmus):
    """The golden text for LITMUS as ptxcheck computes it now (both engines
    must agree on every model line)."""
    text, lines = litmus_batch(exe, os.path.dirname(litmus) or ".").get(litmus, ["", {}])
    if not text:
        return None, "ptxcheck printed no herd block for it"
    for model in LITMUS_MODELS:
        enum, z3 = lines.get((model, "enum")), lines.get((model, "z3"))
        if not enum or not z3:
            return None, f"--model {model}: no JSON result"
        if enum != z3:
            return None, f"engines disagree: {enum} (enum) vs {z3} (z3)"
        text += enum + "\n"
    return text, None


def check_litmus(exe, golden_path):
    litmus = golden_path[: -len(".expected")]
    with open(golden_path) as f:
        want = f.read()
    got, err = litmus_golden(exe, litmus)
    if err:
        return err
    if got != want:
        import difflib
        diff = difflib.unified_diff(want.splitlines(), got.splitlines(), "golden", "ptxcheck", lineterm="", n=0)
        return "differs from its golden:\n  " + "\n  ".join(list(diff)[2:12])
    return None


CHECKS = {"integrity": check_integrity, "outcomes": check_outcomes, "run": check_run}
LITMUS_PARTS = {"litmus"}


def folder_problems(folder):
    """Inputs without their golden, sources without their PTX."""
    names = set(os.listdir(folder))
    out = []
    for n in sorted(names):
        if n.endswith(".cu") and n[:-3] + ".ptx" not in names:
            out.append(f"{n} has no PTX (run regen.sh)")
        if n.endswith(".litmus") and n + ".expected" not in names:
            out.append(f"{n} has no golden beside it (golden.py PTXCHECK --update {n})")
        if n.endswith(".json") and not any(n.endswith(k) for k in KINDS) and \
                not malformed_expectation(os.path.join(folder, n)):
            if not any(n[:-5] + k in names for k in KINDS):
                out.append(f"{n} has no golden beside it")
    # A folder of malformed inputs (one states its expected error) states it in
    # every input: a .ptx there without `// expect:` would be skipped silently.
    if any(malformed_expectation(os.path.join(folder, n)) for n in names):
        for n in sorted(names):
            if n.endswith(".ptx") and not malformed_expectation(os.path.join(folder, n)):
                out.append(f"{n} states no expected error (first line `// expect: LINE:COL message`)")
    return out


def goldens(paths):
    for p in paths:
        if os.path.isdir(p):
            for name in sorted(os.listdir(p)):
                if any(name.endswith(s) for s in KINDS) or malformed_expectation(os.path.join(p, name)):
                    yield os.path.join(p, name)
        else:
            yield p


def update_litmus(exe, paths):
    """Writes NAME.litmus.expected beside every NAME.litmus under PATHS."""
    rc = 0
    for p in paths:
        tests = [os.path.join(p, n) for n in sorted(os.listdir(p)) if n.endswith(".litmus")] if os.path.isdir(p) else [p]
        for t in tests:
            text, err = litmus_golden(exe, t)
            if err:
                print(f"FAIL  {t}: {err}")
                rc = 1
                continue
            with open(t + ".expected", "w") as f:
                f.write(text)
            print(f"wrote {t}.expected")
    return rc


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    global TIMEOUT_S
    exe, args = argv[1], argv[2:]
    if args[:1] == ["--timeout-scale"]:
        # The sanitized build runs every command several times slower.
        TIMEOUT_S, args = TIMEOUT_S * int(args[1]), args[2:]
    if args[:1] == ["--update"]:
        return update_litmus(exe, args[1:])
    parts = None
    if args[:1] == ["--part"]:
        parts, args = [args[1]], args[2:]
    counts = {"ok": 0, "XFAIL": 0, "FAIL": 0, "XPASS": 0}
    if parts is None or "integrity" in parts:
        for p in args:
            for problem in folder_problems(p) if os.path.isdir(p) else []:
                counts["FAIL"] += 1
                print(f"FAIL  {p}: {problem}")
    for path in goldens(args):
        if malformed_expectation(path):
            if parts is None or "malformed" in parts:
                err = check_malformed(exe, path)
                counts["FAIL" if err else "ok"] += 1
                print(f"{'FAIL' if err else 'ok':5} {path}" + (f": {err}" if err else ""))
            continue
        kind = next(k for s, k in KINDS.items() if path.endswith(s))
        if kind == "litmus":
            if parts is None or "litmus" in parts:
                err = check_litmus(exe, path)
                counts["FAIL" if err else "ok"] += 1
                print(f"{'FAIL' if err else 'ok':5} {os.path.basename(path)}" + (f": {err}" if err else ""))
            continue
        outcome_parts = [p for p in (parts or CHECKS) if p in CHECKS]
        if not outcome_parts:
            continue
        folder = os.path.dirname(path)
        case = os.path.basename(path)[: -len(".outcomes.json")]
        with open(path) as f:
            golden = json.load(f)
        spec = os.path.join(folder, golden["command"][-1])
        with open(spec) as f:
            sj = json.load(f)
        ptx = os.path.join(folder, sj["ptx"])
        ptx_lines = PtxLines(ptx, sj["kernel"] + ".cu")
        for part in outcome_parts:
            why = PENDING.get((case, part)) or PENDING.get(("*", part))
            saved, TIMEOUT_S = TIMEOUT_S, (PENDING_TIMEOUT_S if why else TIMEOUT_S)
            err = CHECKS[part](exe, folder, golden, spec, ptx_lines)
            TIMEOUT_S = saved
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
