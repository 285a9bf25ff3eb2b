#!/usr/bin/env python3
"""Generator and independent reference for bulk tensor loads of interleaved
layouts (tma_il_*.json / .expected.json on the tma.ptx load kernels, fault
tma_il_row; docs/interpreter.md "Tensor maps").

What the documents state, and what this reference does with it:

- PTX ISA 9.2 5.5.6: "8 byte interleave (NC/8DHWC8) : C8 utilizes 16 bytes in
  memory assuming 2B per channel", "16 byte interleave (NC/16HWC16) : C16
  utilizes 32 bytes", "the C information is organized in slices where
  sequential C elements are grouped in 16 byte or 32 byte quantities";
  interleave only for 3D-5D tensors.
- 5.5.7's 32-byte swizzle example: an "NC/(32B)HWC(32B) tensor of
  1x2x10x10xC16 dimension, with the innermost dimension holding slice of 16
  channels with 2 byte/channel". So a tensor map of an interleaved tensor
  names the stored dimensions: (C-in-slice, W, H, C-slice, N), innermost
  first, and the box walks them like any tiled box.
- CUDA driver API cuTensorMapEncodeTiled: "when interleave is
  CU_TENSOR_MAP_INTERLEAVE_NONE, the first element of [elementStrides] is
  ignored since TMA doesn't support the stride for dimension zero" (so with
  interleave it applies); with INTERLEAVE_32B the swizzle must be 32B.

The tensor here is built from the logical NCHW image: channel c of pixel
(n, h, w) is stored at element ((n * S + c // K) * H + h) * W + w) * K + c % K
of the buffer (S slices of K channels), whose element k holds 1 + 7k (the
buffer's iota). Each expected shared-memory element is looked up through that
formula from the logical (n, c, h, w) the box position names, then placed at
its (swizzled) shared address. Run to regenerate the files (deterministic)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = os.path.join(HERE, '..', '..', '..', 'tests', 'interp', 'faults')
IOTA = {'iota': {'start': 1, 'step': 7}}
ESZ = {'u16': 2, 'f16': 2, 'u32': 4}
# PTX ISA 5.5.7, 32-byte swizzle: line r of the pattern (16-byte cells).
T32 = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6]]


def swz(addr, mode):
    if mode != '32B':
        return addr
    line, within = divmod(addr, 128)
    cell, byte = divmod(within, 16)
    return line * 128 + T32[line % 2].index(cell) * 16 + byte


def nchw_element(shape, K, n, c, h, w):
    """Element index of logical (n, c, h, w) in the NC/K HWC K layout, or None outside."""
    N, C, H, W = shape
    if not (0 <= n < N and 0 <= c < C and 0 <= h < H and 0 <= w < W):
        return None
    S = -(-C // K)
    return (((n * S + c // K) * H + h) * W + w) * K + c % K


def case(name, dtype, shape, K, interleave, swizzle, box, estr, start):
    """A 5D map over an NC/K HWC K tensor; start = (c_in, w, h, c_slice, n)."""
    es = ESZ[dtype]
    N, C, H, W = shape
    S = -(-C // K)
    dims = [K, W, H, S, N]
    strides = [K * es, K * es * W, K * es * W * H, K * es * W * H * S]
    count = N * S * H * W * K
    n = [-(-box[d] // estr[d]) for d in range(5)]
    img = bytearray(n[0] * n[1] * n[2] * n[3] * n[4] * es)
    i = 0
    for b in range(n[4]):
        for cs in range(n[3]):
            for h in range(n[2]):
                for w in range(n[1]):
                    for ci in range(n[0]):
                        q = [start[0] + ci * estr[0], start[1] + w * estr[1], start[2] + h * estr[2],
                             start[3] + cs * estr[3], start[4] + b * estr[4]]
                        # a position outside the stored dims is out of bounds (zero)
                        inside = all(0 <= q[d] < dims[d] for d in range(5))
                        k = nchw_element(shape, K, q[4], q[3] * K + q[0], q[2], q[1]) if inside else None
                        v = (1 + 7 * k) & ((1 << (8 * es)) - 1) if k is not None else 0
                        a = swz(i * es, swizzle)
                        img[a:a + es] = v.to_bytes(es, 'little')
                        i += 1
    tm = {'buffer': 't', 'type': dtype, 'dims': dims, 'strides': strides, 'box': box, 'element_strides': estr,
          'interleave': interleave, 'swizzle': swizzle}
    spec = {'ptx': 'tma.ptx', 'kernel': 'tma_load5d', 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': 'u16' if es == 2 else 'u32', 'count': count, 'init': IOTA},
                        'out': {'type': 'u32', 'count': len(img) // 4, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': tm},
            'args': [{'tensormap': 'm'}, {'buffer': 'out'}] + [{'s32': c} for c in start] + [{'u32': len(img)}],
            'outputs': ['out'], 'comment': name}
    exp = {'out': [int.from_bytes(img[j:j + 4], 'little') for j in range(0, len(img), 4)]}
    return spec, exp


def write(path, spec, exp=None):
    with open(path + '.json', 'w') as f:
        json.dump(spec, f, separators=(',', ':'))
        f.write('\n')
    if exp is not None:
        with open(path + '.expected.json', 'w') as f:
            json.dump(exp, f, separators=(',', ':'))
            f.write('\n')


def main():
    # NC/8HWC8, f16, 16-byte slices: N 1, C 16, H 6, W 5; a box of 4 W x 3 H
    # (W 5 and H 6 out of bounds) x both slices.
    s, e = case('16B interleave (NC/8HWC8), f16, no swizzle, W and H partly out of bounds', 'f16', (1, 16, 6, 5), 8,
                '16B', 'none', [8, 4, 3, 2, 1], [1, 1, 1, 1, 1], [0, 2, 4, 0, 0])
    write(os.path.join(HERE, 'tma_il_16b'), s, e)
    # The 5.5.7 example: NC/16HWC16, 1x2x10x10xC16 (C 32), f16, 32B interleave
    # with the 32B swizzle.
    s, e = case('32B interleave (NC/16HWC16) with the 32B swizzle, the 5.5.7 example tensor', 'f16', (1, 32, 10, 10), 16,
                '32B', '32B', [16, 4, 2, 2, 1], [1, 1, 1, 1, 1], [0, 3, 8, 0, 0])
    write(os.path.join(HERE, 'tma_il_32b'), s, e)
    # elementStrides[0] = 2 applies with interleave: every other channel of
    # each 16-channel slice (8 x 2 bytes = 16 bytes per row); W stride 3.
    s, e = case('32B interleave, elementStrides (2, 3, 1, 1, 1): every other channel, every third pixel', 'u16',
                (1, 32, 4, 10), 16, '32B', '32B', [16, 7, 2, 2, 1], [2, 3, 1, 1, 1], [0, 1, 1, 0, 0])
    write(os.path.join(HERE, 'tma_il_32b_estride'), s, e)
    # A 16B-interleaved box row of 4 f16 channels (8 bytes): the documents do
    # not say how it lies in shared memory.
    s, _ = case('16B interleave, box rows of 8 bytes', 'f16', (1, 16, 6, 5), 8, '16B', 'none', [4, 4, 2, 2, 1],
                [1, 1, 1, 1, 1], [0, 0, 0, 0, 0])
    s['ptx'] = '../../../corpus/kernels/features/tma.ptx'
    del s['outputs']
    s['_expect_diagnostic'] = 'unsupported'
    s['_expect_message'] = 'not modelled'
    s['buffers']['out']['count'] = 64
    s['args'][-1] = {'u32': 64}
    write(os.path.join(FAULTS, 'tma_il_row'), s)
    # Without interleave elementStrides[0] is ignored: a 2D u32 box of 8 x 4
    # with element strides (2, 1) holds 8 consecutive elements per row.
    W, H, P = 40, 24, 44
    img = []
    for y in range(4):
        for x in range(8):
            img.append((1 + 7 * (P * (1 + y) + 3 + x)) & 0xffffffff)
    spec = {'ptx': 'tma.ptx', 'kernel': 'tma_load2d', 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': 'u32', 'count': P * H, 'init': IOTA},
                        'out': {'type': 'u32', 'count': 32, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': {'buffer': 't', 'type': 'u32', 'dims': [W, H], 'strides': [4 * P], 'box': [8, 4],
                                 'element_strides': [2, 1]}},
            'args': [{'tensormap': 'm'}, {'buffer': 'out'}, {'s32': 3}, {'s32': 1}, {'u32': 128}],
            'outputs': ['out'], 'comment': 'no interleave: elementStrides[0] = 2 is ignored (driver API)'}
    write(os.path.join(HERE, 'tma_il_none_estride0'), spec, {'out': img})


if __name__ == '__main__':
    main()
