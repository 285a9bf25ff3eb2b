#!/usr/bin/env python3
"""Independent reference for brx_idx.ptx: the jump tables evaluated by hand.
Writes brx_idx.expected.json next to this script."""
import json, os
M = 0xffffffff
n = 64
val = []
for t in range(n):
    i = (7 * t) % 5
    v = [t + 1000, 3 * t, t ^ 0x55, (t << 4) & M, (77 - t) & M][i]
    val.append(v)
out = []
ballot = [0, 0]
for t in range(n):
    if val[t] < 100:
        ballot[t // 32] |= 1 << (t % 32)
for t in range(n):
    r9 = 5
    start = (t // 2) % 3 if t % 2 == 0 else 0  # odd lanes fall through to G0
    for k, add in enumerate([1, 10, 100]):
        if k >= start:
            r9 += add
    out += [val[t], ballot[t // 32], r9]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'brx_idx.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
