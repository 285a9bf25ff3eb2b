#!/usr/bin/env python3
"""Independent reference for sync_split.ptx: the ballot collects each lane's
own predicate (odd lanes: tid < 10, even lanes: tid >= 20), each lane reads
the shuffle source of lane ^ 1 as that lane's own instruction names it
(odd lanes 1000 + lane, even lanes 2000 + lane), WARP_SZ is 32. Writes
sync_split.expected.json."""
import json, os
ballot = sum(1 << l for l in range(32) if (l % 2 == 1 and l < 10) or (l % 2 == 0 and l >= 20))
out = []
for t in range(32):
    src = t ^ 1
    out += [ballot, (1000 if src % 2 else 2000) + src, 32, t + 32]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'sync_split.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
