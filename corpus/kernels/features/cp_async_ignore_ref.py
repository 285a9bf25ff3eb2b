#!/usr/bin/env python3
"""Independent reference for cp_async_ignore.ptx: odd threads ignore the
source of the 16-byte copy (zeros), even threads ignore it for the 4-byte
copy. Writes cp_async_ignore.expected.json next to this script."""
import json, os
inp = [1.0 + i for i in range(128)]
out = []
for t in range(32):
    out += [0.0] * 4 if t % 2 else inp[4 * t:4 * t + 4]
out2 = [inp[4 * t] if t % 2 else 0.0 for t in range(32)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'cp_async_ignore.expected.json'), 'w') as f:
    json.dump({'out': out, 'out2': out2}, f)
    f.write('\n')
