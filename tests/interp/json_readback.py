#!/usr/bin/env python3
"""`ptxcheck run --json` prints numbers that read back bit-exactly in Python.

For every launch spec of the kernel corpus, the outputs printed by
`ptxcheck run --json` are read with Python's json module; each value is
turned into the bits of its buffer's element type (floats by correct
rounding of the double Python read, integers modulo 2^width), written as an
expected file of hex bit patterns, and handed back to `ptxcheck run --expect`,
which compares them with the launch's own bits. A sign lost on -0.0 or a
value rounded on the way fails the comparison."""
import concurrent.futures
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile
from fractions import Fraction

exe, src = sys.argv[1], os.environ.get("PTXCHECK_SRC", ".")
WIDTH = {"b8": 8, "u8": 8, "s8": 8, "u16": 16, "s16": 16, "u32": 32, "s32": 32, "u64": 64, "s64": 64}
FLOAT = {"f16": (5, 10), "bf16": (8, 7), "f32": (8, 23), "f64": (11, 52)}


def float_bits(x, ebits, mbits):
    """Bits of the float format nearest to x (round to nearest even)."""
    sign = 1 if (x < 0 or (x == 0 and struct.pack(">d", x)[0] & 0x80)) else 0
    a = abs(Fraction(x))
    bias = (1 << (ebits - 1)) - 1
    emin, emax = 1 - bias, bias
    if a == 0:
        return sign << (ebits + mbits)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    e = max(e, emin)
    scaled = a / Fraction(2) ** (e - mbits)  # significand in units of the last place
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r > scaled.denominator or (2 * r == scaled.denominator and q & 1):
        q += 1
    if q >= 1 << (mbits + 1):
        q >>= 1
        e += 1
    if e > emax:
        return (sign << (ebits + mbits)) | (((1 << ebits) - 1) << mbits)  # infinity
    if q < 1 << mbits:  # subnormal
        return (sign << (ebits + mbits)) | q
    return (sign << (ebits + mbits)) | ((e + bias) << mbits) | (q - (1 << mbits))


def bits_of(v, t):
    if isinstance(v, str):  # "nan", "inf", "-inf", "0x..." already name their bits
        return v
    if t in FLOAT:
        if isinstance(v, int):
            v = float(v)
        return "0x%x" % float_bits(v, *FLOAT[t])
    assert isinstance(v, int), (v, t)
    return "0x%x" % (v % (1 << WIDTH[t]))


def check(spec, tmp):
    with open(spec) as f:
        s = json.load(f)
    if "outputs" not in s or not s["outputs"]:
        return None
    r = subprocess.run([exe, "run", "--json", spec], capture_output=True, text=True)
    if r.returncode not in (0, 1):
        return "%s: ptxcheck run exited %d: %s" % (spec, r.returncode, r.stderr.strip())
    out = json.loads(r.stdout)["outputs"]
    expected = {name: [bits_of(v, s["buffers"][name]["type"]) for v in vals] for name, vals in out.items()}
    path = os.path.join(tmp, os.path.basename(spec))
    with open(path, "w") as f:
        json.dump(expected, f)
    r = subprocess.run([exe, "run", spec, "--expect", path], capture_output=True, text=True)
    if "mismatch" in r.stderr or r.returncode not in (0, 1):
        return "%s: Python's reading differs from the launch's bits:\n%s" % (spec, r.stderr.strip())
    return None


specs = sorted(p for p in glob.glob(os.path.join(src, "corpus", "kernels", "*.json"))
               if not p.endswith(".expected.json"))
fails = []
with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
    for err in pool.map(lambda p: check(p, tmp), specs):
        if err:
            fails.append(err)
            print("FAIL:", err)
# The rounding helper itself, on values whose bits are known.
for x, t, b in [(-0.0, "f32", 0x80000000), (1.0, "bf16", 0x3F80), (-0.0, "f16", 0x8000), (65520.0, "f16", 0x7C00),
                (2.0 ** -24, "f16", 1), (1.00390625, "bf16", 0x3F80), (1.01171875, "bf16", 0x3F82),
                (0.1, "f64", 0x3FB999999999999A), (-1, "s8", 0xFF)]:
    if bits_of(x, t) != "0x%x" % b:
        fails.append("bits_of(%r, %s) = %s, want 0x%x" % (x, t, bits_of(x, t), b))
        print("FAIL:", fails[-1])
print("%d launch specs; %s" % (len(specs), "FAIL" if fails else "PASS"))
sys.exit(1 if fails else 0)
