#!/usr/bin/env python3
"""Independent reference for device_malloc.cu (CUDA C++ Programming Guide,
"Dynamic Global Memory Allocation and Operations"): blocks are 16-byte
aligned, thread t's block holds 10t + i (i < 4), so its sum is 40t + 6; with
the 8 MiB default heap and every per-thread block freed, thread 0 of a CTA
gets 7 blocks of 1 MiB before malloc returns NULL (each block is followed by
a 16-byte red zone, docs/interpreter.md, so an eighth does not fit), and
after freeing them a new 1 MiB block again. Writes device_malloc.expected.json."""
import json, os

heap, block, red_zone = 8 << 20, 1 << 20, 16
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "device_malloc.expected.json"), "w") as f:
    json.dump({"misalign": [0] * 64, "sums": [40 * t + 6 for t in range(64)],
               "chunks": [min(16, heap // (block + red_zone))] * 2, "again": [1] * 2}, f)
    f.write("\n")
