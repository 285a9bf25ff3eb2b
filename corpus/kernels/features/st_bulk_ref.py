#!/usr/bin/env python3
"""Independent reference for st_bulk.ptx (zero-fill by st.bulk).
Writes st_bulk.expected.json next to this script."""
import json, os
g = [0xffffffff] * 512
for t in range(32):
    for k in range(16 * t + 4, 16 * t + 12):
        g[k] = 0
s = [0 if 8 <= t < 24 else t + 1 for t in range(32)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'st_bulk.expected.json'), 'w') as f:
    json.dump({'g': g, 's': s}, f)
    f.write('\n')
