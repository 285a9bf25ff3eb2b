#!/usr/bin/env python3
"""Expected output of mma_diverge.ptx: lane l holds row l/4, columns 2(l%4)
and 2(l%4)+1 of an 8x8 b16 matrix (PTX ISA 9.7.14.5.17); movmatrix.trans
gives each lane the same positions of the transpose."""
import json

def value(l):
    lo, hi = 3 * l, 3 * l + 1
    if l < 16:
        lo, hi = lo + 1, hi + 1
    return lo | hi << 16

def elem(r, c):  # M[r][c]
    return (value(4 * r + c // 2) >> (16 * (c % 2))) & 0xffff

out = []
for l in range(32):
    r, c0 = l // 4, 2 * (l % 4)
    out.append(elem(c0, r) | elem(c0 + 1, r) << 16)
print(json.dumps({"out": out}))
