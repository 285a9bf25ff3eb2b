#!/usr/bin/env python3
"""Race classes and race reports on kernels written for this test (races.cu,
compiled by nvcc; issue 15 acceptance, docs/races.md), through the CLI as a
user runs it:

* tile_nosync (a warp stages mma.sync tiles in shared memory and loads them
  with ldmatrix, no __syncwarp): warp-sync-race warnings, exit 0; an error
  and exit 1 under --races=strict; the product is still right.
* tile_syncwarp (the same with __syncwarp): clean.
* tile_cross_warp (a second warp reads the tiles of the first): data-race
  errors between warps, exit 1.
* shfl_exchange (lanes exchange words ordered only by a shuffle):
  warp-sync-race warnings.
* softmax_racy (a block reduction reuses its buffer without the second
  __syncthreads): a data-race between warps; softmax_fixed is clean.
* ptxcheck outcomes on shfl_pair / shfl_pair_cross: the same classes.
* ptxcheck exec is not run here (cuda/tests: exec-broken-*).

Every race report must name both accesses: thread, warp, lane and CTA, the
PTX line and column (pointing at the instruction that accessed), the `.loc`
source line (checked against races.cu), the one state-space name, address,
size, and weak/strong with scope.

usage: check_races.py PTXCHECK"""
import json
import os
import re
import struct
import subprocess
import sys

exe = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL:", what)


def run(*args):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=300)


def spec(name):
    return os.path.join(here, name + ".json")


with open(os.path.join(here, "races.ptx")) as f:
    PTX = f.read().splitlines()
with open(os.path.join(here, "races.cu")) as f:
    CU = f.read().splitlines()


def cu_line(pattern):
    """1-based lines of races.cu matching `pattern`."""
    return {i + 1 for i, l in enumerate(CU) if re.search(pattern, l)}


def cu_stmt(pattern):
    """1-based lines of the statements of races.cu that start at a line
    matching `pattern` (nvcc's `.loc` may name any line of an asm statement)."""
    out = set()
    for start in cu_line(pattern):
        n = start
        while n <= len(CU):
            out.add(n)
            if CU[n - 1].rstrip().endswith(");"):
                break
            n += 1
    return out


STAGE_A = cu_line(r"reinterpret_cast<uint4\*>\(sa\)\[lane\] =")
STAGE_B = cu_line(r"reinterpret_cast<uint2\*>\(sb\)\[lane\] =")
LDMATRIX = cu_stmt(r'asm volatile\("ldmatrix')
SHFL_STORE = cu_line(r"buf\[l\] = in\[l\];")
SHFL_LOAD = cu_line(r"out\[l\] = buf\[\(l \+ 1\) % 32\]")
MAX_READ = cu_line(r"m = lane < nwarps \? buf\[lane\]")
SUM_WRITE = cu_line(r"if \(lane == 0\) buf\[warp\] = s;")
for what, s in (("stage A", STAGE_A), ("stage B", STAGE_B), ("ldmatrix", LDMATRIX), ("shfl store", SHFL_STORE),
                ("shfl load", SHFL_LOAD), ("max read", MAX_READ), ("sum write", SUM_WRITE)):
    check(len(s) >= 1, "races.cu has the " + what + " line")


def src_line(source):
    """races.cu line of a `.loc` source string, the outermost position when inlined."""
    m = re.search(r"inlined at races\.cu:(\d+)", source) or re.match(r"races\.cu:(\d+)", source)
    return int(m.group(1)) if m else None


def direct_line(source):
    m = re.match(r"races\.cu:(\d+)", source)
    return int(m.group(1)) if m else None


def check_access(kernel, a, ops, src_lines, nthreads):
    """One access of a race report names everything (issue 15 item 2)."""
    for key in ("access", "cta", "thread", "warp", "lane", "line", "col", "source", "address", "size", "order"):
        check(key in a, f"{kernel}: the access names its {key}: {a}")
    if any(k not in a for k in ("thread", "warp", "lane", "line", "col", "source", "order")):
        return
    t = a["thread"][0]
    check(t < nthreads and a["warp"] == t // 32 and a["lane"] == t % 32, f"{kernel}: thread/warp/lane agree: {a}")
    text = PTX[a["line"] - 1] if 0 < a["line"] <= len(PTX) else ""
    check(a["col"] >= 1 and text[a["col"] - 1:].split(" ")[0].split(".")[0] in ops,
          f"{kernel}: PTX {a['line']}:{a['col']} is an {ops} instruction: {text!r}")
    check(direct_line(a["source"]) in src_lines or src_line(a["source"]) in src_lines,
          f"{kernel}: source {a['source']!r} is one of races.cu lines {sorted(src_lines)}")
    check(a["order"] == "weak", f"{kernel}: plain accesses are weak: {a['order']}")
    check(a["size"] in (2, 4, 8, 16) and re.fullmatch(r"0x[0-9a-f]+", a["address"]) is not None,
          f"{kernel}: size and address: {a}")


def run_json(kernel, *opts):
    r = run("run", "--json", *opts, spec(kernel))
    try:
        return r, json.loads(r.stdout)
    except ValueError:
        check(False, f"{kernel}: run --json gives JSON (exit {r.returncode}, {r.stderr.strip()[:200]})")
        return r, {"diagnostics": [], "outputs": {}}


def races_of(j):
    return [d for d in j["diagnostics"] if d["kind"] in ("data-race", "warp-sync-race")]


def f16(v):
    return struct.unpack("<e", struct.pack("<e", v))[0]


A = [((i * 7 + j * 3) % 7) - 3 for i in range(16) for j in range(16)]
B = [((k * 5 + n) % 5) - 2 for k in range(16) for n in range(8)]
C = [float(sum(A[i * 16 + k] * B[k * 8 + n] for k in range(16))) for i in range(16) for n in range(8)]


def check_text(kernel, opts, kind, severity):
    """The text report: one line per race, file:line:col, both threads named."""
    r = run("run", *opts, spec(kernel))
    lines = [l for l in r.stdout.splitlines() if f": {kind}: " in l]
    check(lines, f"{kernel} {opts}: a {kind} line in the text report")
    for l in lines[:3]:
        check(re.match(r"^\S+races\.ptx:\d+:\d+: " + severity + ": " + kind + ": ", l) is not None,
              f"{kernel}: text line starts file:line:col: {severity}: {kind}: {l[:120]}")
        check(len(re.findall(r"by thread \(\d+,\d+,\d+\)", l)) == 2 and len(re.findall(r"warp \d+, lane \d+", l)) == 2,
              f"{kernel}: text names both threads with warp and lane: {l}")
        check(l.count("races.cu:") >= 2 and "shared::cta 0x" in l and re.search(r"at line \d+, column \d+", l),
              f"{kernel}: text names both source lines, the space and the other access's position: {l}")
    return r


# --- the warp stages its mma tiles without __syncwarp ---
r, j = run_json("tile_nosync")
rs = races_of(j)
check(r.returncode == 0, f"tile_nosync: exit 0 by default, got {r.returncode}")
check(rs and all(d["kind"] == "warp-sync-race" and d["severity"] == "warning" for d in rs),
      f"tile_nosync: only warp-sync-race warnings: {[(d['kind'], d['severity']) for d in rs]}")
check(j["outputs"].get("c") == C, "tile_nosync: C = A * B")
for d in rs:
    first, second = d["race"]["accesses"]
    check(d["race"]["space"] == "shared::cta", f"tile_nosync: space {d['race']['space']}")
    check(first["access"] == "write" and second["access"] == "read", "tile_nosync: a store, then an ldmatrix read")
    check(first["warp"] == second["warp"] == 0 and first["lane"] != second["lane"], "tile_nosync: two lanes of warp 0")
    check_access("tile_nosync", first, {"st"}, STAGE_A | STAGE_B, 32)
    check_access("tile_nosync", second, {"ldmatrix"}, LDMATRIX, 32)
check_text("tile_nosync", [], "warp-sync-race", "warning")
r, j = run_json("tile_nosync", "--races=strict")
check(r.returncode == 1 and races_of(j) and all(d["severity"] == "error" for d in races_of(j)),
      f"tile_nosync --races=strict: errors, exit 1 (got {r.returncode})")
check_text("tile_nosync", ["--races=strict"], "warp-sync-race", "error")
r, j = run_json("tile_nosync", "--races=off")
check(r.returncode == 0 and not races_of(j), "tile_nosync --races=off: no race report")

# --- the same with __syncwarp ---
for opts in ([], ["--races=strict"]):
    r, j = run_json("tile_syncwarp", *opts)
    check(r.returncode == 0 and not j["diagnostics"], f"tile_syncwarp {opts}: clean: {j['diagnostics'][:1]}")
    check(j["outputs"].get("c") == C, "tile_syncwarp: C = A * B")

# --- a second warp reads the first warp's tiles ---
r, j = run_json("tile_cross_warp")
rs = races_of(j)
check(r.returncode == 1, f"tile_cross_warp: exit 1, got {r.returncode}")
cross = [d for d in rs if d["race"]["accesses"][0]["warp"] != d["race"]["accesses"][1]["warp"]]
check(cross and all(d["kind"] == "data-race" and d["severity"] == "error" for d in cross),
      f"tile_cross_warp: cross-warp races are data-race errors: {[(d['kind'], d['severity']) for d in rs]}")
for d in cross:
    first, second = d["race"]["accesses"]
    check_access("tile_cross_warp", first, {"st"}, STAGE_A | STAGE_B, 64)
    check_access("tile_cross_warp", second, {"ldmatrix"}, LDMATRIX, 64)
check_text("tile_cross_warp", [], "data-race", "error")

# --- words exchanged through shared memory, ordered only by a shuffle ---
r, j = run_json("shfl_exchange")
rs = races_of(j)
check(r.returncode == 0 and rs and all(d["kind"] == "warp-sync-race" for d in rs),
      f"shfl_exchange: warp-sync-race warnings, exit 0 (got {r.returncode})")
for d in rs:
    first, second = d["race"]["accesses"]
    check_access("shfl_exchange", first, {"st"}, SHFL_STORE, 32)
    check_access("shfl_exchange", second, {"ld"}, SHFL_LOAD, 32)
check(j["outputs"].get("out") == [100 + 3 * ((l + 1) % 32) for l in range(32)], "shfl_exchange: outputs")
r, j = run_json("shfl_exchange", "--races=strict")
check(r.returncode == 1, "shfl_exchange --races=strict: exit 1")

# --- a block reduction that reuses its buffer without __syncthreads ---
# Across warps the buffer reuse is a data-race; inside one warp (lane w
# read buf[w], lane 0 of warp w then stores its sum there) only the shuffles
# of the reductions lie between the two accesses: a warp-sync-race.
r, j = run_json("softmax_racy")
rs = races_of(j)
cross = [d for d in rs if d["race"]["accesses"][0]["warp"] != d["race"]["accesses"][1]["warp"]]
check(r.returncode == 1 and cross and all(d["kind"] == "data-race" and d["severity"] == "error" for d in cross),
      f"softmax_racy: cross-warp data-race errors, exit 1 (got {r.returncode}, {[(d['kind'], d['severity']) for d in rs]})")
check(all(d["kind"] == "warp-sync-race" for d in rs if d not in cross), "softmax_racy: same-warp races are warp-sync-races")
for d in rs:
    a, b = d["race"]["accesses"]
    reads = [x for x in (a, b) if x["access"] == "read"]
    writes = [x for x in (a, b) if x["access"] == "write"]
    check(len(reads) == 1 and len(writes) == 1, "softmax_racy: a read and a write")
    if len(reads) == 1 and len(writes) == 1:
        check_access("softmax_racy", reads[0], {"ld"}, MAX_READ, 128)
        check_access("softmax_racy", writes[0], {"st"}, SUM_WRITE, 128)
check_text("softmax_racy", [], "data-race", "error")
r, j = run_json("softmax_fixed")
check(r.returncode == 0 and not j["diagnostics"], f"softmax_fixed: clean: {j['diagnostics'][:1]}")
y = j["outputs"].get("y", [])
check(len(y) == 128 and abs(sum(y) - 1.0) < 1e-4, f"softmax_fixed: the row sums to 1: {sum(y) if y else None}")

# --- ptxcheck outcomes: the same classes ---
for kernel, kind in (("shfl_pair", "warp-sync-race"), ("shfl_pair_cross", "data-race")):
    r = run("outcomes", "--json", spec(kernel))
    try:
        j = json.loads(r.stdout)
    except ValueError:
        check(False, f"outcomes {kernel}: JSON (exit {r.returncode}: {r.stderr.strip()[:200]})")
        continue
    rs = j.get("races", [])
    sev = "warning" if kind == "warp-sync-race" else "error"
    check(rs and all(x.get("kind") == kind and x.get("severity") == sev for x in rs),
          f"outcomes {kernel}: {kind} {sev}: {[(x.get('kind'), x.get('severity')) for x in rs]}")
    for x in rs:
        for a in (x["first"], x["second"]):
            check(all(k in a for k in ("line", "col", "cta", "thread", "warp", "lane")),
                  f"outcomes {kernel}: the access names line, col, thread, warp, lane: {a}")
    r = run("outcomes", "--json", "--races=strict", spec(kernel))
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    check(j.get("races") and all(x.get("severity") == "error" for x in j["races"]),
          f"outcomes {kernel} --races=strict: errors")
    r = run("outcomes", "--json", "--races=off", spec(kernel))
    j = json.loads(r.stdout) if r.returncode == 0 else {}
    check(j.get("races") == [], f"outcomes {kernel} --races=off: no races")
    r = run("outcomes", spec(kernel))
    lines = [l for l in r.stdout.splitlines() if f": {kind}: " in l]
    check(lines and all(re.match(r"^\S+races\.ptx:\d+:\d+: " + sev + ": ", l) for l in lines),
          f"outcomes {kernel}: text race lines start file:line:col: {sev}: {lines[:1]}")

# __syncwarp orders the exchange: no race for run nor outcomes.
r, j = run_json("syncwarp_pair")
check(r.returncode == 0 and not j["diagnostics"] and j["outputs"].get("out") == [7, 5],
      f"syncwarp_pair: clean, out = [7, 5]: {j['diagnostics'][:1]} {j['outputs']}")
r = run("outcomes", "--json", spec("syncwarp_pair"))
j = json.loads(r.stdout) if r.returncode == 0 else {}
check(r.returncode == 0 and j.get("races") == [], f"outcomes syncwarp_pair: no race ({r.returncode}, {j.get('races')})")

# ldmatrix's shared-memory reads are memory-model events for outcomes too:
# the 16-byte staging stores against 2-byte ldmatrix reads are a mixed-size
# overlap, which outcomes reports as a limit (exit 3) instead of a result.
for kernel in ("tile_nosync", "tile_cross_warp"):
    r = run("outcomes", spec(kernel))
    check(r.returncode == 3 and "different sizes" in r.stderr, f"outcomes {kernel}: exit 3, mixed sizes ({r.returncode})")

print("FAIL" if fails else "PASS")
sys.exit(1 if fails else 0)
