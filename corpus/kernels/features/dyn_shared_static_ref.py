#!/usr/bin/env python3
"""Independent reference for dyn_shared_static.ptx: the static shared word
keeps the 0x11111111 the kernel wrote (two 32-bit halves) when the dynamic
shared memory, written with 0x22222222 after it, does not overlap it; the
last dynamic word is 0x22222222. Writes dyn_shared_static.expected.json."""
import json, os

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dyn_shared_static.expected.json"), "w") as f:
    json.dump({"out": [0x11111111, 0x11111111, 0x22222222]}, f)
    f.write("\n")
