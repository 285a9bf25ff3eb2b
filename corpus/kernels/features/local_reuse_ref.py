#!/usr/bin/env python3
"""Independent reference for local_reuse.ptx: CTA 0's 40 threads store 7,
the threads of CTAs 1 and 2 store the local word they read before any
write, which starts zero in every CTA. Writes local_reuse.expected.json and
local_reuse_alloca.expected.json."""
import json, os
out = [7] * 40 + [0] * 80
here = os.path.dirname(os.path.abspath(__file__))
for name in ('local_reuse', 'local_reuse_alloca'):
    with open(os.path.join(here, name + '.expected.json'), 'w') as f:
        json.dump({'out': out}, f)
        f.write('\n')
