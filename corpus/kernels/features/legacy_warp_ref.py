#!/usr/bin/env python3
"""Independent reference for legacy_warp.ptx: the shfl pseudo-code of PTX ISA
9.7.9.5 shfl (deprecated) and the vote definitions of 9.7.13.8 vote (deprecated), evaluated per warp.
Writes legacy_warp.expected.json next to this script."""
import json, os

def shfl(mode, a, lane, b, c):
    """Returns (d, p) for one lane; a: list of the 32 source values."""
    bval, cval, mask = b & 31, c & 31, (c >> 8) & 31
    max_lane = (lane & mask) | (cval & ~mask)
    min_lane = lane & mask
    if mode == 'up':
        j = lane - bval; p = j >= max_lane
    elif mode == 'down':
        j = lane + bval; p = j <= max_lane
    elif mode == 'bfly':
        j = lane ^ bval; p = j <= max_lane
    else:
        j = min_lane | (bval & ~mask); p = j <= max_lane
    if not p:
        j = lane
    return a[j], int(p)

out = []
for warp in range(2):
    tids = [32 * warp + l for l in range(32)]
    a = [100 * t for t in tids]
    active = [l for l in range(32) if l < 20]          # the lane < 20 branch
    pred = {l: l % 3 == 0 for l in active}
    ballot = sum(1 << l for l in active if pred[l])
    bits = (all(pred.values()) * 1) | (any(pred.values()) * 2) | \
           ((all(pred.values()) or not any(pred.values())) * 4) | 8
    odd_ballot = sum(1 << l for l in range(32) if l & 1)
    for l in range(32):
        row = []
        row += shfl('up', a, l, 1, 0)
        row += shfl('down', a, l, 3, 31)
        row += shfl('bfly', a, l, 5, 31)
        row += shfl('idx', a, l, 3 * l, 0x181f)
        row += [ballot, bits] if l < 20 else [0, 0]
        row += [a[l ^ 1] if l < 16 else 0]
        row += [odd_ballot]
        out += row
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'legacy_warp.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
