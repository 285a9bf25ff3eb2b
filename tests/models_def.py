"""The --model names for the Python tests, read from memmodel/models.def (the
one table of model names; the C++ side expands it in memmodel/models.hpp).

Rows are MODEL("name", Kind, fence_sc_is_acq_rel, listed). `listed()` gives the
names that `ptxcheck --help` lists, the default (the first row) first;
`readings()` the listed names that are a model's own reading, one per kind
(fence_sc_is_acq_rel true, as Model{} has it), without the variants such as
ptx75-no-fence-sc-acqrel. Running this file prints both and checks the table.
"""
import os
import re
import sys

DEF = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "memmodel", "models.def")
ROW = re.compile(r'^MODEL\("([^"]+)",\s*(\w+),\s*(true|false),\s*(true|false)\)', re.M)


def rows(path=DEF):
    """(name, kind, fence_sc_is_acq_rel, listed) per row, in table order."""
    with open(path) as f:
        text = f.read()
    out = [(m[1], m[2], m[3] == "true", m[4] == "true") for m in ROW.finditer(text)]
    if not out:
        raise SystemExit(f"{path}: no MODEL(...) rows")
    return out


def listed(path=DEF):
    return [name for name, _, _, shown in rows(path) if shown]


def readings(path=DEF):
    return [name for name, _, fsc, shown in rows(path) if shown and fsc]


def default(path=DEF):
    return listed(path)[0]


def check(names, path=DEF):
    """Fails when a script names a model that the table does not have."""
    known = {r[0] for r in rows(path)}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"model(s) {', '.join(unknown)} not in {path}")
    return names


if __name__ == "__main__":
    print("listed:", " ".join(listed()))
    print("readings:", " ".join(readings()))
    print("default:", default())
    sys.exit(0 if readings() and default() in readings() else 1)
