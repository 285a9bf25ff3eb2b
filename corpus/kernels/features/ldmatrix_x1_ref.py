#!/usr/bin/env python3
"""Expected output of ldmatrix_x1.ptx. M[r][c] = 100r + c; lane l holds row
l/4, columns 2(l%4), 2(l%4)+1 of M (ldmatrix), of M^T (.trans), and reads
back the same positions of M^T from the stmatrix copy."""
import json

def frag(mat, l):
    r, c = l // 4, 2 * (l % 4)
    return mat(r, c) | mat(r, c + 1) << 16

m = lambda r, c: 100 * r + c
mt = lambda r, c: m(c, r)
out = [frag(m, l) for l in range(32)] + [frag(mt, l) for l in range(32)] + [frag(mt, l) for l in range(32)]
print(json.dumps({"out": out}))
