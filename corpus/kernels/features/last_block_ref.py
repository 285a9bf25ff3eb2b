#!/usr/bin/env python3
"""Independent reference for last_block.cu: partial[b] is the sum of
in[b*64 .. b*64+63] with in[i] = -100 + 7i (last_block.json), total their
sum, and count is reset to 0 by the last CTA. Writes last_block.expected.json."""
import json, os

inp = [-100 + 7 * i for i in range(384)]
partial = [sum(inp[b * 64:(b + 1) * 64]) for b in range(6)]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "last_block.expected.json"), "w") as f:
    json.dump({"partial": partial, "count": [0], "total": [sum(partial)]}, f)
    f.write("\n")
