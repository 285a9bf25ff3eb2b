#!/usr/bin/env python3
"""Independent reference for grid_sync.cu: partial[b] is the sum of
in[b*64 .. b*64+63] with in[i] = -100 + 7i (grid_sync.json), scan[b] the sum
of partial[0..b]. Writes grid_sync.expected.json."""
import json, os

inp = [-100 + 7 * i for i in range(384)]
partial = [sum(inp[b * 64:(b + 1) * 64]) for b in range(6)]
scan = [sum(partial[:b + 1]) for b in range(6)]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "grid_sync.expected.json"), "w") as f:
    json.dump({"partial": partial, "scan": scan}, f)
    f.write("\n")
