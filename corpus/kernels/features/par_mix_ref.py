#!/usr/bin/env python3
"""Independent reference for par_mix.cu: out[b*64 + t] = in[b*64 + 63 - t]
with in[i] = 1000 + 3i (par_mix.json). Writes par_mix.expected.json."""
import json, os

inp = [1000 + 3 * i for i in range(256)]
out = [inp[b * 64 + 63 - t] for b in range(4) for t in range(64)]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "par_mix.expected.json"), "w") as f:
    json.dump({"out": out}, f)
    f.write("\n")
