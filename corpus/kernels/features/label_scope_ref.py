#!/usr/bin/env python3
"""Independent reference for label_scope.ptx: each thread's adds, with every
branch of thread 0 going to the label of its own block (ptxas' scoping).
Writes label_scope.expected.json next to this script."""
import json, os
out = []
for t in range(2):
    taken = t == 0
    r = 0
    r += (0 if taken else 1) + 2  # first block: its own S
    r += (0 if taken else 4) + 8  # second block: its own S
    r += (0 if taken else 16) + 32  # outer S
    r += (0 if taken else 64) + 256 + 128  # the block's T, then the nested block
    out.append(r)
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'label_scope.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
