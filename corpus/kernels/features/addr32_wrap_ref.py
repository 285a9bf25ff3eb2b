#!/usr/bin/env python3
"""Independent reference for addr32_wrap.ptx: thread t reads sh[(t+1) % 32],
which thread (t+1) % 32 set to its index + 1. Writes addr32_wrap.expected.json."""
import json, os
g = [((t + 1) % 32) + 1 for t in range(32)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'addr32_wrap.expected.json'), 'w') as f:
    json.dump({'g': g}, f)
    f.write('\n')
