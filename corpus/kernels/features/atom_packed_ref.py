#!/usr/bin/env python3
"""Reference for atom_packed.json (atom_packed.ptx, kernel atom_packed_norace):
thread 0 adds the packed word 0x3f803c00 to out[0] (red.add.noftz.f16x2: f16 1.0
low, f16 1.875 high) and to a shared word (atom.add.noftz.bf16x2: bf16 2^-7 low,
bf16 1.0 high), thread 32
adds 1.0 to the high half of each (red.add.noftz.f16 / atom.add.noftz.bf16);
after bar.sync thread 0 copies the shared word to out[1]. Each half is its own
atomic operation (PTX ISA 9.7.13.5), and the sums are exact: the result does
not depend on the order. Run to regenerate atom_packed.json and
atom_packed.expected.json."""
import json, os, struct

HERE = os.path.dirname(os.path.abspath(__file__))


def f16(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def f16v(b):
    return struct.unpack('<e', struct.pack('<H', b))[0]


def bf16(x):
    b = struct.unpack('<I', struct.pack('<f', x))[0]
    assert b & 0xffff == 0  # exact in bf16
    return b >> 16


def bf16v(b):
    return struct.unpack('<f', struct.pack('<I', b << 16))[0]


def main():
    # out[0]: f16x2 {lo, hi} = {0 + f16(0x3c00), 0 + f16(0x3f80) + 1.0}
    lo, hi = f16(0.0 + f16v(0x3c00)), f16(0.0 + f16v(0x3f80) + 1.0)
    w0 = hi << 16 | lo
    # shared: bf16x2 {lo, hi} = {0 + bf16(0x3c00), 0 + bf16(0x3f80) + 1.0}
    slo, shi = bf16(0.0 + bf16v(0x3c00)), bf16(0.0 + bf16v(0x3f80) + 1.0)
    w1 = shi << 16 | slo
    spec = {'ptx': 'atom_packed.ptx', 'kernel': 'atom_packed_norace', 'grid': [1], 'block': [64],
            'buffers': {'out': {'type': 'u32', 'count': 2, 'init': 'zero'}}, 'args': [{'buffer': 'out'}],
            'outputs': ['out'], 'comment': 'packed f16x2/bf16x2 atomics and scalar atomics of their high halves'}
    with open(os.path.join(HERE, 'atom_packed.json'), 'w') as f:
        json.dump(spec, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(HERE, 'atom_packed.expected.json'), 'w') as f:
        json.dump({'out': [w0, w1]}, f, separators=(',', ':'))
        f.write('\n')


if __name__ == '__main__':
    main()
