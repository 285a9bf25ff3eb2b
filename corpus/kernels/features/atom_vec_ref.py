#!/usr/bin/env python3
"""Independent reference for atom_vec.ptx (vector and 16-bit float atomics).
Every shared location is only reduced with order-independent operations
(exact f32 sums, min, max); returned old values come from per-thread slots.
Writes atom_vec.expected.json (bit patterns as hex strings for 16-bit data,
numbers otherwise) next to this script."""
import json, math, os, struct

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def f16_bits(x):  # IEEE binary16, round to nearest even (struct 'e')
    return struct.unpack('<H', struct.pack('<e', x))[0]

def f16_val(b):
    return struct.unpack('<e', struct.pack('<H', b))[0]

def bf16_bits(x):  # bfloat16 from the exact value, round to nearest even
    # x is a sum of two bf16 values or a small integer: exact in binary64,
    # and a binary64 -> binary32 -> bfloat16 double rounding is avoided by
    # rounding the binary64 value directly to 8 significant bits.
    if x == 0:
        return 0x8000 if math.copysign(1, x) < 0 else 0
    m, e = math.frexp(abs(x))          # x = m * 2^e, 0.5 <= m < 1
    q = m * 256                        # 8 significant bits
    r = math.floor(q)
    if q - r > 0.5 or (q - r == 0.5 and r % 2 == 1):
        r += 1
    v = math.ldexp(r / 256, e)
    bits = struct.unpack('<I', struct.pack('<f', v))[0] >> 16
    return bits | (0x8000 if x < 0 else 0)

def bf16_val(b):
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]

def hexs(bs):
    return ['0x%04x' % b for b in bs]

T = range(64)
acc = [float(sum(T)), 0.5 * 64, -float(sum(T)), 0.25 * 64]
priv = [float(i) for i in range(128)]
oldf = [0.0] * 256
for t in T:
    oldf[2 * t], oldf[2 * t + 1] = priv[2 * t], priv[2 * t + 1]
    priv[2 * t] = f32(priv[2 * t] + 1.5)
    priv[2 * t + 1] = f32(priv[2 * t + 1] + t)
    oldf[128 + 2 * t] = priv[2 * t]      # the re-read after the atom
hmin = [100.0] * 4
for t in T:
    for k, v in enumerate([t - 20, 50 - t, t, -t]):
        hmin[k] = min(hmin[k], float(v))
bmax = [bf16_bits(-1000.0)] * 4
for t in T:
    vals = [bf16_bits(t * 0.5), bf16_bits(-float(t)) if t else 0x8000, bf16_bits(4.0 * t), bf16_bits(3.0)]
    for k in range(4):
        if bf16_val(vals[k]) > bf16_val(bmax[k]) or (bf16_val(vals[k]) == bf16_val(bmax[k]) and vals[k] == 0):
            bmax[k] = vals[k]  # max(-0, +0) = +0 (PTX ISA max)
hp = [bf16_bits(float(i)) for i in range(256)]
oldh = [0] * 128
for t in T:
    o = hp[4 * t:4 * t + 4]
    oldh[2 * t] = o[0] | (o[1] << 16)
    oldh[2 * t + 1] = o[2] | (o[3] << 16)
    add = [1.0, float(t), 0.5, -2.0]
    hp[4 * t:4 * t + 4] = [bf16_bits(bf16_val(o[k]) + add[k]) for k in range(4)]
hv = [f16_bits(float(i - 40)) for i in range(128)]
oldv = [0] * 128
for t in T:
    oldv[2 * t], oldv[2 * t + 1] = hv[2 * t], hv[2 * t + 1]
    hv[2 * t] = f16_bits(max(f16_val(hv[2 * t]), float(t - 32)))
    hv[2 * t + 1] = f16_bits(max(f16_val(hv[2 * t + 1]), 7.0))
exp = {'acc': acc, 'priv': priv, 'oldf': oldf,
       'hmin': hexs(f16_bits(v) for v in hmin), 'bmax': hexs(bmax), 'hp': hexs(hp),
       'oldh': oldh, 'hv': hexs(hv), 'oldv': hexs(oldv)}
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'atom_vec.expected.json'), 'w') as f:
    json.dump(exp, f)
    f.write('\n')
