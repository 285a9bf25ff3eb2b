#!/usr/bin/env python3
"""The sm_90a GEMM tile kernels (issue 12 item 5) are what they claim to be:

* ptxas accepts the nvcc-compiled gemm_tma_wgmma.ptx and the hand-written
  corpus/kernels/features/gemm_tma_wgmma.ptx for sm_90a (both kernels of each file);
* the committed gemm_tma_wgmma.ptx is nvcc's output for gemm_tma_wgmma.cu
  with the flags of regen.sh (when nvcc is installed);
* the launch specs and expected output are what the plain C++ reference
  gemm_ref.cpp writes (compiled here with the C++ compiler given);
* the expected output is the reference product bit for bit: `ptxcheck run
  --expect` passes for the fenced kernel and fails for a copy of the expected
  file with one element changed in its last bit, and the missing-fence twin
  is a data race.
(interp-kernels and interp-diagnostics check the same specs through the API.)
Exit 77 (skipped) without the CUDA toolkit's ptxas.

usage: check_gemm.py PTXCHECK CXX [CXX ARGS...]"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

exe, cxx = sys.argv[1], sys.argv[2:]
here = os.path.dirname(os.path.abspath(__file__))
interp = os.path.dirname(here)
src = os.path.dirname(os.path.dirname(interp))
# where each file lives: the kernel test beside the corpus kernels, the fault
# beside the interpreter's other faults
dirs = {"kernels": os.path.join(src, "corpus", "kernels", "features"), "faults": os.path.join(interp, "faults")}
cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
ptxas = os.path.join(cuda, "bin", "ptxas")
nvcc = os.path.join(cuda, "bin", "nvcc")
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=300, **kw)


if not os.path.exists(ptxas):
    print("ptxas not found; skipping")
    sys.exit(77)

for f in (os.path.join(here, "gemm_tma_wgmma.ptx"), os.path.join(dirs["kernels"], "gemm_tma_wgmma.ptx")):
    r = run(ptxas, "-arch=sm_90a", "-o", os.devnull, f)
    check(r.returncode == 0, "ptxas -arch=sm_90a accepts " + os.path.relpath(f, src) + r.stderr.strip())

with tempfile.TemporaryDirectory() as tmp:
    if os.path.exists(nvcc):
        # regen.sh's command on a copy at a fixed name, then its path rewrite.
        src = os.path.join(tmp, "gemm_tma_wgmma.cu")
        shutil.copy(os.path.join(here, "gemm_tma_wgmma.cu"), src)
        out = os.path.join(tmp, "gemm_tma_wgmma.ptx")
        r = run(nvcc, "-ptx", "-arch=sm_90a", "-O3", "-lineinfo", "-o", out, src)
        check(r.returncode == 0, "nvcc compiles gemm_tma_wgmma.cu " + r.stderr.strip())
        if r.returncode == 0:
            with open(out) as f:
                fresh = f.read().replace('"' + tmp + "/", '"')
            with open(os.path.join(here, "gemm_tma_wgmma.ptx")) as f:
                check(f.read() == fresh, "committed gemm_tma_wgmma.ptx is nvcc's output (regen.sh)")
    else:
        print("nvcc not found; the committed PTX is not rebuilt")

    ref = os.path.join(tmp, "gemm_ref")
    r = run(*cxx, "-std=c++20", "-O1", "-o", ref, os.path.join(here, "gemm_ref.cpp"))
    check(r.returncode == 0, "the reference compiles " + r.stderr.strip())
    names = [("kernels", "gemm_tma_wgmma_cu.json"), ("kernels", "gemm_tma_wgmma_cu.expected.json"),
             ("faults", "gemm_tma_wgmma_cu_nofence.json")]
    outs = [os.path.join(tmp, n) for _, n in names]
    r = run(ref, *outs)
    check(r.returncode == 0, "the reference runs")
    for (d, n), o in zip(names, outs):
        with open(o) as a, open(os.path.join(dirs[d], n)) as b:
            check(a.read() == b.read(), d + "/" + n + " is gemm_ref.cpp's output")

    spec = os.path.join(dirs["kernels"], "gemm_tma_wgmma_cu.json")
    expected = os.path.join(dirs["kernels"], "gemm_tma_wgmma_cu.expected.json")
    r = run(exe, "run", spec, "--expect", expected)
    check(r.returncode == 0, "ptxcheck run --expect: the tile equals the reference bit for bit " + r.stderr.strip())
    # One element one ulp off must be a mismatch (the comparison is bit-exact).
    with open(expected) as f:
        exp = json.load(f)
    bits = struct.unpack("<I", struct.pack("<f", exp["c"][77]))[0]
    exp["c"][77] = struct.unpack("<f", struct.pack("<I", bits ^ 1))[0]
    wrong = os.path.join(tmp, "wrong.expected.json")
    with open(wrong, "w") as f:
        json.dump(exp, f)
    r = run(exe, "run", spec, "--expect", wrong)
    check(r.returncode == 1, "a one-ulp change of one element is a mismatch (exit %d)" % r.returncode)
    r = run(exe, "run", os.path.join(dirs["faults"], "gemm_tma_wgmma_cu_nofence.json"))
    out = r.stdout + r.stderr
    check(r.returncode == 1 and "data-race" in out and "fence.proxy.async" in out and "async-proxy read" in out,
          "the missing-fence twin is a data race")

print("%d failures" % len(fails))
sys.exit(1 if fails else 0)
