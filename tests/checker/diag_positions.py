#!/usr/bin/env python3
"""Every diagnostic that has a position prints `file:line:col` (issue 14
item 1, issue 15 item 4): malformed input to every front end of ptxcheck
(PTX, native and Dat3M litmus, launch specs, expected-output files, JSONL
campaign records, --expect CSVs, the condition language, the command line of
every subcommand) and run-time diagnostics of the interpreter (races, step
limit) each give one line starting `FILE:LINE:COL: ` at the exact place,
with a non-zero exit (2 for malformed input, 3 for a resource limit).

usage: diag_positions.py PTXCHECK"""
import os
import re
import subprocess
import sys
import tempfile

exe = sys.argv[1]
src = os.environ.get("PTXCHECK_SRC", os.path.join(os.path.dirname(__file__), "..", ".."))
POS = re.compile(r"^[^:\s][^:]*:(\d+):(\d+): ")
fails = []
checked = 0


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120)


def expect_error(name, args, line, col, text, stream="stderr", rc=2):
    """The first line of `stream` is `...:LINE:COL: ...TEXT...`, exit `rc`."""
    global checked
    checked += 1
    r = run(*args)
    out = getattr(r, stream)
    first = out.splitlines()[0] if out.strip() else ""
    m = POS.match(first)
    check(r.returncode == rc, f"{name}: exit {r.returncode}, expected {rc} ({first})")
    check(m is not None, f"{name}: `{first}` does not start with file:line:col")
    if m and line is not None:
        got = (int(m.group(1)), int(m.group(2)) if col is not None else None)
        check(got == (line, col) and int(m.group(2)) > 0,
              f"{name}: position {m.group(1)}:{m.group(2)}, expected {line}:{col} ({first})")
    check(text in first, f"{name}: `{first}` does not say `{text}`")
    if stream == "stderr":
        # One diagnostic line (the PTX front end adds the source line and a caret).
        rest = out.splitlines()[1:]
        check(len(rest) == 0 or (len(rest) == 2 and rest[1].strip() == "^"),
              f"{name}: more than one diagnostic line: {out!r}")
    return r


def write(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w") as f:
        f.write(text)
    return p


HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n"

with tempfile.TemporaryDirectory() as d:
    # --- PTX ---
    p = write(d, "unterminated.ptx", HEAD + '\t.pragma "nounroll;\n.visible .entry k()\n{\n\tret;\n}\n')
    expect_error("PTX unterminated string", ["parse", p], 4, 10, "unterminated string literal")
    p = write(d, "opcode.ptx", HEAD + ".visible .entry k()\n{\n  frob.u32 %r1, 1;\n}\n")
    expect_error("PTX unknown opcode", ["parse", p], 6, 3, "error")
    p = write(d, "label.ptx", HEAD + ".visible .entry k()\n{\n  bra NOWHERE;\n  ret;\n}\n")
    spec = write(d, "label.json", '{"ptx": "label.ptx", "kernel": "k", "grid": [1], "block": [1],'
                 ' "buffers": {}, "args": [], "outputs": []}')
    r = run("run", spec)
    first = (r.stderr.splitlines() or [""])[0]
    check(r.returncode == 2 and POS.match(first) is not None and "NOWHERE" in first,
          f"PTX lowering error under run: exit {r.returncode}, `{first}`")
    # Labels are scoped by { } blocks as ptxas scopes them
    # (corpus/kernels/features/label_scope): a block does not see the labels
    # of a block nested in it, and one block may not define a label twice.
    write(d, "label_inner.ptx", HEAD + ".visible .entry k()\n{\n  bra IN;\n  { IN: ret; }\n}\n")
    spec = write(d, "label_inner.json", '{"ptx": "label_inner.ptx", "kernel": "k", "grid": [1], "block": [1],'
                 ' "buffers": {}, "args": [], "outputs": []}')
    expect_error("PTX label of a nested block", ["run", spec], 6, 7, "unknown label 'IN'")
    write(d, "label_dup.ptx", HEAD + ".visible .entry k()\n{\n  { L: bra L;\n L: ret; }\n}\n")
    spec = write(d, "label_dup.json", '{"ptx": "label_dup.ptx", "kernel": "k", "grid": [1], "block": [1],'
                 ' "buffers": {}, "args": [], "outputs": []}')
    expect_error("PTX label defined twice in one block", ["run", spec], 7, 2, "duplicate label 'L'")
    # mma.sp operands (PTX ISA 9.7.14.6.3): the sparsity selector is a
    # constant in 0..3, the metadata a register; both are refused at the operand.
    mma = ("  mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0, %f1, %f2, %f3}, {%a0, %a1}, {%b0, %b1},"
           " {%f0, %f1, %f2, %f3}, %e, 4;")
    for what, line, col, text in (("selector", mma, mma.rindex("4") + 1, "sparsity selector must be a constant"),
                                  ("metadata", mma.replace("%e, 4", "0, 1"), mma.rindex("%e") + 1,
                                   "sparsity metadata must be a register")):
        p = write(d, "mmasp.ptx", ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                  "  .reg .b32 %a<2>, %b<2>, %e;\n  .reg .f32 %f<4>;\n" + line + "\n  ret;\n}\n")
        spec = write(d, "mmasp.json", '{"ptx": "mmasp.ptx", "kernel": "k", "grid": [1], "block": [32],'
                     ' "buffers": {}, "args": [], "outputs": []}')
        expect_error("mma.sp " + what + " operand", ["run", spec], 8, col, text)

    # --- native litmus ---
    lit = ('PTX bad\n"x"\n{\n  .global .u32 x = 0;\n}\nT0 @ cta 0, gpu 0 {\n'
           '  st.global.u32 [x] 1;\n}\nexists (T0:%r0 == 0)\n')
    p = write(d, "native_bad.litmus", lit)
    expect_error("native litmus instruction", ["litmus", p], 7, 21, "too few operands")
    p = write(d, "native_str.litmus", 'PTX bad\n"never closed\n{\n}\n')
    expect_error("native litmus unterminated string", ["litmus", p], 2, 1, "unterminated")
    p = write(d, "native_cond.litmus", lit.replace("[x] 1;", "[x], 1;").replace("%r0 == 0)", "%r0 == )"))
    expect_error("native litmus condition", ["litmus", p], 9, 19, "expected")

    p = write(d, "native_unknown_thread.litmus",
              "PTX t\n{ .global .u32 x = 0; }\nT0 @ cta 0, gpu 0 {\n  st.global.u32 [x], 1;\n}\n"
              "exists (x == 1 /\\ T5:%r0 == 1)\n")
    expect_error("native litmus condition, unknown thread", ["litmus", p], 6, 19, "unknown thread 5")
    p = write(d, "native_init_unknown_thread.litmus",
              "PTX t\n{ .global .u32 x = 0;\n  T2:%r1 = 3; }\nT0 @ cta 0, gpu 0 {\n  st.global.u32 [x], 1;\n}\n"
              "exists (x == 1)\n")
    expect_error("native litmus register init, unknown thread", ["litmus", p], 3, 3, "unknown thread 2")
    p = write(d, "dat3m_unknown_thread.litmus",
              "PTX t\n{\n x=0;\n P3:r0=1;\n}\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 ;\nexists (x == 1)\n")
    expect_error("Dat3M litmus register init, unknown thread", ["litmus", p], 4, 2, "unknown thread 3")
    p = write(d, "dat3m_cond_unknown_thread.litmus",
              "PTX t\n{\n x=0;\n}\n P0@cta 0,gpu 0 ;\n st.relaxed.gpu x, 1 ;\nexists (x == 1 /\\ 7:r1 == 0)\n")
    expect_error("Dat3M litmus condition, unknown thread", ["litmus", p], 7, 19, "unknown thread 7")

    # --- Dat3M litmus ---
    dat = ("PTX SB\n\"x\"\n{\nx=0;\ny=0;\n}\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
           " st.weak x, 1 | st.weak y, 2 ;\n ld.weak r0, y | frob r1, x ;\nexists\n(P0:r0 == 0)\n")
    p = write(d, "dat3m_bad.litmus", dat)
    expect_error("Dat3M litmus instruction", ["litmus", p], 9, 18, "frob")
    p = write(d, "dat3m_cond.litmus", dat.replace("frob r1", "ld.weak r1").replace("(P0:r0 == 0)", "(P0:r0 == 0 /\\"))
    expect_error("Dat3M litmus condition", ["litmus", p], None, None, "error")

    # --- launch specs and expected outputs (semantics/interp/json_pos.cpp) ---
    ptx = write(d, "k.ptx", HEAD + ".visible .entry k()\n{\n  ret;\n}\n")
    p = write(d, "comma.json", '{"ptx": "k.ptx", "kernel": "k",\n "grid": [1] "block": [1]}\n')
    expect_error("launch spec JSON syntax", ["run", p], 2, 14, "expected")
    p = write(d, "key.json", '{"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1],\n  "bogus": 1}\n')
    expect_error("launch spec unknown key", ["run", p], 2, 3, "bogus")
    good = write(d, "good.json", '{"ptx": "k.ptx", "kernel": "k", "grid": [1], "block": [1], "buffers":'
                 ' {"o": {"type": "u32", "count": 1, "init": "zero"}}, "args": [], "outputs": ["o"]}\n')
    p = write(d, "exp.json", '{"o": [0,\n  "x"]}\n')
    r = run("run", good, "--expect", p)
    lines = [l for l in r.stderr.splitlines() if l.strip()]
    check(r.returncode == 2 and lines and POS.match(lines[0]) is not None and lines[0].startswith(p + ":"),
          f"--expect file: exit {r.returncode}, `{lines[:1]}`")

    # --- the condition language (ptxcheck outcomes --exists/--forall/--state) ---
    expect_error("--exists condition", ["outcomes", good, "--exists", "o[0] == "], 1, 9, "--exists")
    expect_error("--forall condition", ["outcomes", good, "--forall", "nosuch[0] == 1"], 1, 1, "--forall")

    # --- campaign files ---
    p = write(d, "bad.jsonl", '{"file": "a.litmus", "status": "ok"}\n{"file": \n')
    expect_error("merge JSONL", ["merge", p], 2, 10, "JSON")
    mp = os.path.join(src, "litmus", "mp.litmus")
    rec = run("--json", mp).stdout.strip()
    p = write(d, "conflict.jsonl", rec + "\n" + rec.replace('"verdict":"No"', '"verdict":"Ok"') + "\n")
    expect_error("merge conflicting records", ["merge", p], 2, 1, "conflicts", rc=1)
    p = write(d, "expect.csv", "litmus/mp.litmus,1\nlitmus/sb.litmus,maybe\n")
    expect_error("litmus --expect CSV", ["litmus", "--expect", p, mp], 2, 1, "expected")
    expect_error("litmus --shard", ["litmus", "--shard", "3/2", mp], 1, 1, "I/N")

    # --- the command line of every subcommand ---
    with open(os.path.join(src, "checker", "subcommands.def")) as f:
        subs = re.findall(r'^PTXCHECK_SUBCOMMAND\("([a-z0-9-]+)"', f.read(), re.M)
    for sub in subs:
        # `ptxcheck SUB --no-such-option`: column of the option on the command line
        r = expect_error(f"{sub} unknown option", [sub, "--no-such-option", "x.json"], 1,
                         len("ptxcheck " + sub) + 2, "--no-such-option")
        check(r.stderr.startswith(f"ptxcheck {sub}:1:"), f"{sub}: usage error names ptxcheck {sub}: {r.stderr}")
    expect_error("run --max-steps", ["run", good, "--max-steps", "x"], 1, len("ptxcheck run ") + len(good) + 2,
                 "--max-steps")
    expect_error("run --races", ["run", good, "--races=sometimes"], 1, len("ptxcheck run ") + len(good) + 2,
                 "--races")
    expect_error("outcomes --model", ["outcomes", good, "--model", "tso"], 1, len("ptxcheck outcomes ") + len(good) + 2,
                 "--model")
    expect_error("outcomes --races", ["outcomes", "--races", "maybe", good], 1, len("ptxcheck outcomes ") + 1,
                 "--races")
    expect_error("exec --races", ["exec", "--races=loud", "true"], 1, len("ptxcheck exec ") + 1, "--races")
    expect_error("default subcommand", ["--engine", "herd", mp], 1, len("ptxcheck ") + 1, "--engine")
    expect_error("no arguments", [], 1, len("ptxcheck") + 1, "no arguments")

    # --- run-time diagnostics of the interpreter (stdout of run) ---
    spin = os.path.join(src, "tests", "interp", "faults", "spin.json")
    r = run("run", spin, "--max-steps", "1000")
    diag = [l for l in r.stdout.splitlines() if "step-limit" in l]
    check(r.returncode == 3, f"step limit: exit {r.returncode}, expected 3")
    check(len(diag) == 1 and POS.match(diag[0]) is not None and int(POS.match(diag[0]).group(2)) > 0,
          f"step limit diagnostic with line and column: {diag}")
    race = os.path.join(src, "corpus", "kernels", "warp_stage_nosync.json")
    r = run("run", "--races=strict", race)
    diag = [l for l in r.stdout.splitlines() if "race" in l and ": error: " in l]
    check(r.returncode == 1 and diag and all(POS.match(l) and int(POS.match(l).group(2)) > 0 for l in diag),
          f"race diagnostics with line and column (exit {r.returncode}): {diag[:1]}")
    check(all(re.search(r"at line \d+, column \d+", l) for l in diag), f"the other access's column: {diag[:1]}")
    r = run("run", "--json", race)
    check('"col": ' in r.stdout, "run --json gives each diagnostic's column")

print(f"{checked} malformed inputs checked")
print("FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)
