#!/usr/bin/env python3
"""Independent reference for reserved_smem.ptx. Per CTA (3 warps): the
reserved word has the three warps' bits (7: the region is the CTA's own and
starts at 0, so CTA 1 does not see CTA 0's bits), an untouched reserved word
reads 0, the static shared word keeps 100 + ctaid, end - begin = cap = 1024
(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK), and <1> lies 512
bytes in (at least the 288 bytes cooperative groups need before the end);
last, <0> - begin = 0. Writes reserved_smem.expected.json."""
import json, os

out = []
for cta in range(2):
    out += [0b111, 0, 100 + cta, 1024, 1024, 512]
out.append(0)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "reserved_smem.expected.json"), "w") as f:
    json.dump({"out": out}, f)
    f.write("\n")
