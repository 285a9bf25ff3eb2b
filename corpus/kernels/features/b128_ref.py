#!/usr/bin/env python3
"""Independent reference for b128.ptx (layout in the kernel's comments).
Writes b128.expected.json."""
import json, os
M = (1 << 64) - 1
inp = [(4294967000 + i * 1000000007) & M for i in range(64)]
cells = list(range(64))
out = [0] * 584
def sext32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >> 31 else x
for t in range(32):
    lo, hi = inp[2 * t], inp[2 * t + 1]
    out[2 * t], out[2 * t + 1] = hi, lo
    wsw = lambda x: ((x & 0xffffffff) << 32) | (x >> 32)
    out[64 + 2 * t], out[65 + 2 * t] = wsw(lo), wsw(hi)
    r = 31 - t
    out[128 + 2 * t], out[129 + 2 * t] = inp[2 * r], inp[2 * r + 1]
    old = (cells[2 * t], cells[2 * t + 1])          # (2t, 2t+1)
    out[192 + 2 * t], out[193 + 2 * t] = old
    cell = (lo, hi) if t % 2 == 0 else old          # cas succeeds for even t
    out[256 + 2 * t], out[257 + 2 * t] = cell
    cell = (hi, lo)                                 # exch of the swapped pair
    out[320 + 2 * t], out[321 + 2 * t] = cell
    cells[2 * t], cells[2 * t + 1] = cell
    s = sext32(lo)
    out[392 + 2 * t], out[393 + 2 * t] = s & M, M if s < 0 else 0
    out[456 + 2 * t], out[457 + 2 * t] = lo & 0xffffffff, 0
    out[520 + 2 * t], out[521 + 2 * t] = hi, lo
out[384] = 1
out[386], out[387] = M, 0                          # -1: a 64-bit constant, zero-extended
out[388], out[389] = 5, 0
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'b128.expected.json'), 'w') as f:
    json.dump({'out': out, 'cells': cells}, f)
    f.write('\n')
