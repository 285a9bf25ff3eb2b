#!/usr/bin/env python3
"""Independent reference for ld_param_ext.ptx: each value extended from its
type to the destination register's width (then zero-extended to 64 bits by
the cvt.u64 of a narrower register), the guarded loads only on odd (%rd3) or
even (%rd6) threads. Writes ld_param_ext.expected.json."""
import json, os, struct

M64 = (1 << 64) - 1


def sext(v, bits, width):
    v &= (1 << bits) - 1
    if v >> (bits - 1):
        v -= 1 << bits
    return v & ((1 << width) - 1)


ctab = bytes([0xf0, 0x80, 0x7f, 0xff, 1, 2, 3, 0x84, 0xfe, 0xff, 0xff, 0xff, 0x10, 0x20, 0x30, 0x40])
a, b, c, d, e = -3, -20000, -123456789, 200, 1.5
out = []
for t in range(40):
    odd = t & 1
    out += [
        sext(a, 8, 64),                                   # ld.param.s8 %rd2
        sext(b, 16, 64) if odd else 0,                    # @%p1 ld.param.s16 %rd3
        sext(c, 32, 64),                                  # ld.param.s32 %rd4
        sext(b, 16, 32),                                  # ld.param.s16 %r3, cvt.u64.u32
        d,                                                # ld.param.u8 %rs1, cvt.u64.u16
        sext(a, 8, 16),                                   # ld.param.s8 %rs2, cvt.u64.u16
        sext(int.from_bytes(ctab[0:2], 'little'), 16, 64),  # ld.const.s16 %rd5
        0 if odd else sext(int.from_bytes(ctab[8:12], 'little'), 32, 64),  # @!%p1 ld.const.s32 %rd6
        int.from_bytes(ctab[2:4], 'little'),              # ld.const.u16 %r4
        int.from_bytes(ctab[8:16], 'little'),             # ld.const.u64 %rd7
        struct.unpack('<I', struct.pack('<f', e))[0],     # ld.param.f32 %r5
    ]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'ld_param_ext.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
