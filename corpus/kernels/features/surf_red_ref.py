#!/usr/bin/env python3
"""Independent reference for surf_red.ptx / surf_red.json, from PTX ISA
9.7.11.3 sured (.b: byte offsets, .u32/.s32 by .ctype; .p: sample offsets
scaled by the .ctype size, .b32 read as .s32 on SINT surfaces; the
reduction is atomic, so the order of the 16 threads does not matter) and
9.7.11.2 sust.p (R, G, B, A from the source vector; .u32 assumed for UINT
surfaces, .f32 for FLOAT ones, then converted to the sample format: our
reading is saturation for integers, as OpenCL's write_imageui, and
round-to-nearest-even for half). Writes surf_red.expected.json."""
import json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def lit(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]

cnt, mn, mx = [0] * 4, [100] * 4, [-100] * 4
img = [0] * 64
hf = [0.0] * 16
for i in range(16):
    k = i % 4
    cnt[k] = (cnt[k] + i + 1) % 2**32
    mn[k] = min(mn[k], 7 - i)
    mx[k] = max(mx[k], 7 - i)
    vals = [(20 * i) % 2**32, (40 * i) % 2**32, (300 - 30 * i) % 2**32, 7]  # as .u32
    x, y = i % 4, i // 4
    for ch in range(4):
        img[(y * 4 + x) * 4 + ch] = min(vals[ch], 255)
    h = struct.unpack('<e', struct.pack('<e', f32(float(i) * lit(0x3DCCCCCD))))[0]
    hf[i] = h

with open(os.path.join(HERE, 'surf_red.expected.json'), 'w') as f:
    json.dump({'cnt': cnt, 'mn': mn, 'mx': mx, 'img': img, 'hf': [int(v) if v == int(v) else v for v in hf]}, f)
    f.write('\n')
