#!/usr/bin/env python3
"""Published hardware observations (corpus/hw/literature/README.md) against
ptxcheck's models.

Every row is a litmus recording (hw/README.md "Recording format") with a
`source`; `ptxcheck-hw compare` (the comparator CI uses for our own
recordings) classifies each observed outcome under each model of
`ptxcheck --model`. The outcomes a model does not permit must be exactly the
ones listed in the expected file (tests/corpus/literature.expected); under
the default model only rows marked `pre_model` may be among them. The rows
themselves are checked for a complete, checkable source, and the corpus for
its size (at least 30 tests, 3 GPU generations).

usage: literature.py PTXCHECK_HW PTXCHECK LITERATURE_DIR EXPECTED [--write]
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import models_def  # noqa: E402  (memmodel/models.def, the one table of model names)

MODELS = models_def.listed()  # every model --model lists
DEFAULT = models_def.default()
FORMAT = "ptxcheck-litmus-recording/1"
MIN_TESTS, MIN_GENERATIONS = 30, 3


def fail(msgs):
    for m in msgs:
        print("FAIL:", m)
    sys.exit(1)


def load_rows(root):
    rows, errors = {}, []
    for dirpath, _, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith(".json"):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            try:
                r = json.load(open(path))
            except ValueError as e:
                errors.append(f"{rel}: not JSON ({e})")
                continue
            if r.get("format") != FORMAT:
                errors.append(f"{rel}: format is not {FORMAT}")
                continue
            s = r.get("source") or {}
            if not s.get("citation"):
                errors.append(f"{rel}: no source citation")
            repo = [s.get(k) for k in ("repository", "path", "commit")]
            if any(repo) and not (all(repo) and re.fullmatch(r"[0-9a-f]{40}", s["commit"])):
                errors.append(f"{rel}: source repository needs repository, path and a 40-hex commit")
            if not any(repo) and not s.get("table"):
                errors.append(f"{rel}: source names neither a table/figure nor a repository file")
            for k in ("gpu", "architecture", "test", "litmus_path"):
                if not r.get(k):
                    errors.append(f"{rel}: no {k}")
            hist = r.get("histogram") or {}
            if not hist or any(v <= 0 for v in hist.values()):
                errors.append(f"{rel}: a row reports at least one observed outcome, each with a positive count")
            if sum(hist.values()) + r.get("unlisted", 0) != r.get("instances"):
                errors.append(f"{rel}: histogram plus unlisted is not instances")
            test = os.path.normpath(os.path.join(dirpath, r.get("litmus_path", "")))
            if not os.path.isfile(test):
                errors.append(f"{rel}: litmus_path {r.get('litmus_path')} does not exist")
            r["_test"] = test
            rows[rel] = r
    return rows, errors


def parse_compare(out, root):
    """ptxcheck-hw compare output -> {row: {outcome: class}}."""
    res, cur = {}, None
    for line in out.splitlines():
        if line.endswith(".json:") and not line.startswith(" "):
            cur = os.path.relpath(line[:-1], root)
            res[cur] = {}
            continue
        m = re.match(r"  (VIOLATION|PRE-MODEL|UNDECIDED|WITNESSED|UNSEEN)\s+(.*?)\s+(x\d+|\(rate.*\))$", line)
        if m and cur is not None and m.group(1) != "UNSEEN":
            res[cur][m.group(2)] = m.group(1)
    return res


def cli_states(ptxcheck, test):
    """The final states `ptxcheck` (the CLI, default model) lists for a test."""
    out = subprocess.run([ptxcheck, test], capture_output=True, text=True).stdout
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"States (\d+)$", line)
        if m:
            return set(lines[i + 1:i + 1 + int(m.group(1))])
    return None


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    write = "--write" in sys.argv
    if len(args) != 4:
        print(__doc__)
        sys.exit(2)
    hw_tool, ptxcheck, root, expected_path = args
    root = os.path.abspath(root)
    rows, errors = load_rows(root)
    tests_dir = os.path.join(root, "tests")
    tests = sorted(os.path.join(tests_dir, f) for f in os.listdir(tests_dir) if f.endswith(".litmus"))
    used = {r["_test"] for r in rows.values()}
    errors += [f"tests/{os.path.basename(t)}: no row observes it" for t in tests if t not in used]
    generations = {r["architecture"] for r in rows.values() if r.get("architecture")}
    if len(used) < MIN_TESTS:
        errors.append(f"{len(used)} tests with observations, want at least {MIN_TESTS}")
    if len(generations) < MIN_GENERATIONS:
        errors.append(f"{len(generations)} GPU generations, want at least {MIN_GENERATIONS}")
    if errors:
        fail(errors)

    paths = [os.path.join(root, p) for p in sorted(rows)]
    got = []  # (model, row, outcome, class)
    verdicts = {}
    for model in MODELS:
        p = subprocess.run([hw_tool, "compare", "--model", model] + paths, capture_output=True, text=True)
        if p.returncode not in (0, 1):
            fail([f"ptxcheck-hw compare --model {model} exited {p.returncode}: {p.stderr.strip()}"])
        res = parse_compare(p.stdout, root)
        verdicts[model] = res
        for row, r in rows.items():
            seen = res.get(row)
            if seen is None:
                errors.append(f"{model}: no verdict for {row}")
                continue
            for outcome in r["histogram"]:
                cls = seen.get(outcome)
                if cls is None:
                    errors.append(f"{model}: {row}: observed outcome {outcome!r} not classified")
                elif cls != "WITNESSED":
                    got.append((model, row, outcome, cls))
        # The exit status follows the classes: 1 exactly when some row is a VIOLATION.
        any_violation = any(c == "VIOLATION" for v in res.values() for c in v.values())
        if (p.returncode == 1) != any_violation:
            errors.append(f"{model}: exit status {p.returncode} but violations={any_violation}")
    if errors:
        fail(errors)

    # Under the default model only rows marked pre_model may be forbidden, and
    # each marked row must be forbidden (the mark is not stale).
    for row, r in rows.items():
        bad = [o for (m, rw, o, c) in got if m == DEFAULT and rw == row]
        if r.get("pre_model") and not bad:
            errors.append(f"{row}: marked pre_model but {DEFAULT} permits every observed outcome")
        if not r.get("pre_model") and bad:
            errors.append(f"{row}: {DEFAULT} forbids observed {bad} and the row is not marked pre_model")
    # The CLI agrees with the comparator on the default model.
    for test in sorted(used):
        states = cli_states(ptxcheck, test)
        if states is None:
            errors.append(f"{test}: ptxcheck printed no States")
            continue
        for row, r in rows.items():
            if r["_test"] != test:
                continue
            for outcome in r["histogram"]:
                witnessed = verdicts[DEFAULT][row].get(outcome) == "WITNESSED"
                if (outcome.strip() in states) != witnessed:
                    errors.append(f"{row}: ptxcheck lists {outcome!r}: {outcome.strip() in states}, "
                                  f"ptxcheck-hw WITNESSED: {witnessed}")

    lines = sorted(f"{m} {row} {c} {o}" for (m, row, o, c) in got)
    if write:
        with open(expected_path, "w") as f:
            f.write("# model row class outcome: observed outcomes a model does not permit\n")
            f.write("# (tests/corpus/literature.py; regenerate with --write, then explain in docs/model-notes.md)\n")
            f.write("".join(line + "\n" for line in lines))
    want = [l.rstrip("\n") for l in open(expected_path) if l.strip() and not l.startswith("#")]
    missing, extra = sorted(set(want) - set(lines)), sorted(set(lines) - set(want))
    errors += [f"expected but not found: {l}" for l in missing] + [f"not expected: {l}" for l in extra]
    if errors:
        fail(errors)
    per_model = {m: sum(1 for g in got if g[0] == m) for m in MODELS}
    print(f"literature: {len(rows)} rows, {len(used)} tests, {len(generations)} generations "
          f"({', '.join(sorted(generations))}); forbidden observed outcomes per model: {per_model}")


if __name__ == "__main__":
    main()
