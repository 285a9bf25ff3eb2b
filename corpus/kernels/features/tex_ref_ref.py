#!/usr/bin/env python3
"""Independent reference for tex_ref.ptx / tex_ref.json, from the texts:
PTX ISA 5.3 (in independent mode the sampler's fields replace the
texture's: filter and address modes come from the .samplerref, and
force_unnormalized_coords overrides the texture's normalized coordinates),
9.7.10.5 txq (.addr_mode_* from enum { wrap, mirror, clamp_ogl,
clamp_to_edge, clamp_to_border }), 9.7.10.6 istypep, and the CUDA C++
Programming Guide's "Texture Fetching" (linear filtering with xB = x - 0.5
and weights in 9-bit fixed point, 8 fractional bits; border colour 0).
Every float operation is rounded to binary32. Writes tex_ref.expected.json."""
import json, math, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

spec = json.load(open(os.path.join(HERE, 'tex_ref.json')))
img = [float(v) for v in spec['buffers']['img']['init']['values']]  # 4 x 4
vals = [-20 + 7 * i for i in range(8)]

def T(i, j):  # border: outside reads the border colour 0
    return img[j * 4 + i] if 0 <= i < 4 and 0 <= j < 4 else 0.0

def linear(x, y):
    xb, yb = f32(x - 0.5), f32(y - 0.5)
    i, j = math.floor(xb), math.floor(yb)
    a = round((xb - i) * 256) / 256
    b = round((yb - j) * 256) / 256
    acc = 0.0
    for q in range(4):
        hx, hy = q & 1, q >> 1
        w = f32(1.0 * (a if hx else f32(1 - a)))
        w = f32(w * (b if hy else f32(1 - b)))
        acc = f32(acc + f32(w * T(i + hx, j + hy)))
    return acc

res = []
for i in range(8):
    x = f32(f32(i * 0.625) - 0.75)
    y = f32(f32(i * 0.5) + 0.25)
    res.append(linear(x, y))
out_vals = [v * 3 + i for i, v in enumerate(vals)]
# width, height, normalized_coords (the texture's), filter_mode (linear), addr_mode_0
# (clamp_to_border = 4), force_unnormalized_coords, suq.width (twice); istypep results
ires = [4, 4, 1, 1, 4, 1, 8, 8, 1, 0, 1, 1, 0]

def out(v):
    return int(v) if v == int(v) else v

with open(os.path.join(HERE, 'tex_ref.expected.json'), 'w') as f:
    json.dump({'res': [out(v) for v in res], 'vals': out_vals, 'ires': ires}, f)
    f.write('\n')
