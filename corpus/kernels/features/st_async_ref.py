#!/usr/bin/env python3
"""Independent reference for st_async.ptx: CTA r of the 2-CTA cluster ends
with the peer's values in buf (1000*peer + t) and buf[0] increased by the
peer's 64 red.async additions of t+1. Writes st_async.expected.json."""
import json, os
out = []
for r in range(2):
    peer = 1 - r
    out += [1000 * peer + t for t in range(64)]
out += [1000 * (1 - r) + sum(t + 1 for t in range(64)) for r in range(2)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'st_async.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
