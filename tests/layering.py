#!/usr/bin/env python3
"""Layering of the components (docs/architecture in README.md: parser -> semantics
-> events -> memmodel; support/ under all of them).

  layering.py SRC             check the tree at SRC; exit 1 with one line per breach
  layering.py --self-test     build small trees that break each rule and require
                              that the check reports each of them

Rules:
  1. #include "X/..." in a component's C++ files names only the components it
     may see (ALLOWED below). memmodel sees memmodel/ and support/ only;
     support/ sees nothing else.
  2. No meson.build compiles another component's files by path
     (files('../../checker/x.cpp') from tests/): link its library instead.
     A component is a top-level folder.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# component -> components its #includes may name ("*": any; the file's own
# component is always allowed). Single headers allowed across a boundary are
# listed as "component/path".
ALLOWED = {
    "support": set(),
    "memmodel": {"support"},
    "parser": {"support", "memmodel/events.hpp", "memmodel/names.hpp"},
    "semantics": {"support", "parser", "memmodel"},
}
SOURCE_EXT = (".cpp", ".hpp", ".h", ".def", ".inc", ".cu", ".cuh")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def tracked_files(src):
    try:
        out = subprocess.run(["git", "-C", src, "ls-files", "-co", "--exclude-standard"], check=True,
                             capture_output=True, text=True).stdout
        return [f for f in out.splitlines() if os.path.isfile(os.path.join(src, f))]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for root, dirs, names in os.walk(src):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
            files += [os.path.relpath(os.path.join(root, n), src) for n in names]
        return files


def include_breaches(src, files):
    out = []
    for f in files:
        comp = f.split("/", 1)[0]
        if comp not in ALLOWED or not f.endswith(SOURCE_EXT):
            continue
        with open(os.path.join(src, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            if "/" not in inc:
                continue  # a file beside this one
            target = inc.split("/", 1)[0]
            if target == comp or target in ALLOWED[comp] or inc in ALLOWED[comp]:
                continue
            line = text.count("\n", 0, m.start()) + 1
            out.append(f'{f}:{line}: {comp}/ includes "{inc}" ({comp} may see only '
                       f'{", ".join(sorted(ALLOWED[comp] | {comp}))})')
    return out


def files_calls(text):
    """(offset, argument text) of every files( ... ) call, parentheses matched."""
    for m in re.finditer(r"\bfiles\s*\(", text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text[i] == "'":
                j = text.index("'", i + 1)
                i = j + 1
                continue
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield m.start(), text[m.end():i - 1]


def meson_breaches(src, files):
    out = []
    for f in files:
        if os.path.basename(f) != "meson.build" or "/" not in f:
            continue
        comp = f.split("/", 1)[0]
        here = os.path.dirname(f)
        with open(os.path.join(src, f), encoding="utf-8") as fh:
            text = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), fh.read())
        for off, args in files_calls(text):
            for s in re.findall(r"'([^']*)'", args):
                path = os.path.normpath(os.path.join(here, s))
                if path.split("/", 1)[0] != comp:
                    line = text.count("\n", 0, off) + 1
                    out.append(f"{f}:{line}: files('{s}') compiles {path} of {path.split('/', 1)[0]}/ "
                               f"from {comp}/: link that component's library instead")
    return out


def check(src):
    files = tracked_files(src)
    return include_breaches(src, files) + meson_breaches(src, files)


def self_test():
    cases = {
        "memmodel includes parser": {"memmodel/a.cpp": '#include "parser/diagnostic.hpp"\n'},
        "memmodel includes semantics": {"memmodel/a.hpp": '#include "semantics/interp/ir.hpp"\n'},
        "support includes parser": {"support/e.hpp": '  #  include "parser/ast.hpp"\n'},
        "parser includes memmodel beyond events": {"parser/p.hpp": '#include "memmodel/relations.hpp"\n'},
        "semantics includes checker": {"semantics/s.cpp": '#include "checker/commands.hpp"\n'},
        "tests compile checker by path": {"tests/fuzz/meson.build":
                                          "x = {'c' : files(\n  '../../checker/outcomes_cond.cpp')}\n"},
        "hw compiles semantics by path": {"hw/shim/meson.build":
                                          "l = static_library('s', files('a.cpp', '../../semantics/interp/session.cpp'))\n"},
    }
    clean = {
        "memmodel/a.cpp": '#include "memmodel/events.hpp"\n#include "support/error.hpp"\n#include <vector>\n',
        "parser/p.hpp": '#include "memmodel/events.hpp"\n#include "support/error.hpp"\n',
        "semantics/s.cpp": '#include "parser/ast.hpp"\n#include "memmodel/engine.hpp"\n',
        "checker/c.cpp": '#include "cuda/exec/exec.hpp"\n',
        "cuda/tests/meson.build": "e = executable('r', files('../examples/run.cpp'))  # '../../x.cpp'\n",
    }
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        def write(tree):
            shutil.rmtree(tmp)
            os.mkdir(tmp)
            for name, body in tree.items():
                os.makedirs(os.path.dirname(os.path.join(tmp, name)), exist_ok=True)
                with open(os.path.join(tmp, name), "w") as fh:
                    fh.write(body)

        write(clean)
        if check(tmp):
            print("self-test: a clean tree was reported:", *check(tmp), sep="\n  ")
            failed += 1
        for what, files in cases.items():
            write({**clean, **files})
            found = check(tmp)
            if len(found) != 1:
                print(f"self-test: '{what}': expected one breach, got {found}")
                failed += 1
    print(f"self-test: {len(cases) + 1 - failed}/{len(cases) + 1} cases as expected")
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    breaches = check(sys.argv[1])
    for b in breaches:
        print(b)
    print(f"layering: {len(breaches)} breach(es)")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
