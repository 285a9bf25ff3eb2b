#!/usr/bin/env python3
"""Independent reference for st_async_b128.ptx: CTA r ends with the peer's
128-bit values {1000*peer + t, ~(1000*peer + t)} in buf. Writes
st_async_b128.expected.json."""
import json, os
M = (1 << 64) - 1
out = []
for r in range(2):
    for t in range(16):
        v = 1000 * (1 - r) + t
        out += [v, ~v & M]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'st_async_b128.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
