#!/usr/bin/env python3
"""Independent reference for tex_mip.ptx / tex_mip.json, written from the
texts, not from texture.cpp:
- PTX ISA 9.7.10.3 tex, "Mipmaps": .base / no mode picks level 0; .level
  takes the LOD from its operand (its type follows .ctype); .grad derives it
  from the partials dPdx, dPdy. Offsets (operand e) are added to the
  coordinates, in texels. 9.7.10.5 txq: .num_mipmap_levels, txq.level.
- The CUDA driver API (cuMipmappedArrayCreate, cuTexObjectCreate): level k
  halves level k-1's extents (at least 1); mipmapLevelBias is added to the
  LOD, which is then clamped to [minMipmapLevelClamp, maxMipmapLevelClamp];
  mipmapped textures use normalized coordinates.
- The LOD of .grad and the level selection are the OpenGL 4.6
  specification's (8.14.1, 8.14.3), which docs/interpreter.md states as our
  reading: rho = max(|dPdx * N|, |dPdy * N|), lambda = log2(rho); point mip
  filtering takes level 0 for lambda <= 1/2, else ceil(lambda + 1/2) - 1;
  linear blends floor(lambda) and the next level by frac(lambda).
- Within a level, the CUDA C++ Programming Guide's "Texture Fetching":
  nearest T[floor(x)], linear with xB = x - 0.5 and 9-bit fixed-point
  weights (8 fractional bits), clamp addressing.
Every float operation is rounded to binary32 (as the device computes in
float). Writes tex_mip.expected.json."""
import json, math, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]

def lit(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]

spec = json.load(open(os.path.join(HERE, 'tex_mip.json')))
vals = [float(v) for v in spec['buffers']['mip']['init']['values']]

# Levels of an 8 x 4 array, 4 levels, laid out one after another.
levels, off, w, h = [], 0, 8, 4
for k in range(4):
    levels.append((off, w, h))
    off += w * h
    w, h = max(1, w // 2), max(1, h // 2)

def texel(k, i, j):  # clamp addressing
    o, w, h = levels[k]
    i, j = min(max(i, 0), w - 1), min(max(j, 0), h - 1)
    return vals[o + j * w + i]

def sample(k, u, v, linear, off=(0, 0)):
    o, w, h = levels[k]
    x = f32(f32(u * w) + off[0])
    y = f32(f32(v * h) + off[1])
    if not linear:
        return texel(k, math.floor(x), math.floor(y))
    xb, yb = f32(x - 0.5), f32(y - 0.5)
    i, j = math.floor(xb), math.floor(yb)
    a = round((xb - i) * 256) / 256  # ties to even
    b = round((yb - j) * 256) / 256
    acc = 0.0
    for q in range(4):  # corner order: x low/high, then y
        hx, hy = q & 1, q >> 1
        wgt = f32(1.0 * (a if hx else f32(1 - a)))
        wgt = f32(wgt * (b if hy else f32(1 - b)))
        acc = f32(acc + f32(wgt * texel(k, i + hx, j + hy)))
    return acc

def lookup(lam_base, u, v, linear, mip_linear, bias, lo, hi, off=(0, 0)):
    lam = f32(lam_base + bias)
    lam = min(max(lam, lo), hi)
    lam = min(max(lam, 0.0), 3.0)
    if not mip_linear:
        d = 0 if lam <= 0.5 else math.ceil(lam + 0.5) - 1
        return sample(min(d, 3), u, v, linear, off)
    d1 = min(math.floor(lam), 3)
    d2 = min(d1 + 1, 3)
    wt = f32(lam - math.floor(lam))
    t1 = sample(d1, u, v, linear, off)
    if wt == 0:
        return t1
    t2 = sample(d2, u, v, linear, off)
    return f32(f32(f32(1 - wt) * t1) + f32(wt * t2))

def grad_lod(gx, gy):
    lx = f32(f32(gx * 8) * f32(gx * 8)) + 0.0
    ly = f32(f32(gy * 4) * f32(gy * 4)) + 0.0
    rho = f32(math.sqrt(max(lx, ly)))
    return f32(math.log2(rho)) if rho > 0 else -math.inf

TP = dict(linear=False, mip_linear=False, bias=0.0, lo=0.0, hi=3.0)
TL = dict(linear=True, mip_linear=True, bias=0.25, lo=0.5, hi=2.5)
res, ires = [], []
for i in range(16):
    u = f32(f32(float(i % 8) + lit(0x3E99999A)) * 0.125)
    v = f32(f32(float(i // 8) + lit(0x3F19999A)) * 0.25)
    lod = f32(f32(i * 0.25) - 0.5)
    gl = grad_lod(f32(i * 0.0625), 0.125)
    r = [lookup(lod, u, v, **TP), lookup(lod, u, v, **TL), lookup(gl, u, v, **TL), lookup(gl, u, v, **TP),
         lookup(lod, u, v, off=(1, -1), **TP),
         sample(0, u, v, True),  # plain tex: level 0, no bias or clamp
         0.0, 1.0]
    # .s32 coordinates and lod: the texel (i%8 - 1, 2*(i/8)) of the level the LOD picks
    sl = i % 5 - 1
    d = 0 if sl <= 0.5 else math.ceil(sl + 0.5) - 1
    r[6] = texel(min(max(d, 0), 3), i % 8 - 1, 2 * (i // 8))
    res += r
    k = i % 5
    lw, lh = (levels[k][1], levels[k][2]) if k < 4 else (0, 0)
    suld = bits(vals[levels[2][0] + (i % 2)])
    ires += [lw, lh, 1 if k < 4 else 0, 4, suld, 3, 1, 2]

def out(x):
    return int(x) if x == int(x) else x

with open(os.path.join(HERE, 'tex_mip.expected.json'), 'w') as f:
    json.dump({'res': [out(x) for x in res], 'ires': ires}, f)
    f.write('\n')
