#!/usr/bin/env python3
"""Generator and independent reference for the 128-byte swizzle with 32-byte,
32-byte + 8-byte-flip and 64-byte atomicity (tma_swatom.ptx, tma_swa_*.json /
.expected.json, faults tma_swa_*; docs/interpreter.md "Tensor maps").

The destination layouts are written here as the tables of PTX ISA 9.2 5.5.7
"Swizzling Modes", cell by cell (each cell a 16-byte chunk of a 128-byte
shared-memory line; row r of a table is line r of the repeating pattern and
lists, for each position of the line, the chunk of the source line stored
there):

- 128B, 16B atomicity: 8 rows (the pattern starts on a 1024-byte boundary);
- 128B, 32B atomicity: "the 32-byte of data is kept intact while swizzling",
  4 rows of four 32-byte units;
- 128B, 32B atomicity with 8-byte flip: as 32B, with "a flip of adjacent
  8-bytes within the 16-byte data at every alternate shared memory line"
  (which lines: our reading, the odd ones, lines counted from the 1024-byte
  boundary); legal only for loads (global -> shared);
- 128B, 64B atomicity: 2 rows of two 64-byte halves.

The box may start off the pattern's boundary: "the swizzle base offset is
(dstMem / 128) % 8" (5.5.7), i.e. the line number of the shared address
picks the row. The map's swizzle names are CUDA's CUtensorMapSwizzle
(CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B, ..._ATOM_32B_FLIP_8B, ..._ATOM_64B,
CUDA 12.8); tensormap.replace writes the atomicity with .swizzle_atomicity
(PTX ISA 9.7.9.27, Table 33: 0 16B, 1 32B, 2 32B + 8B flip, 3 64B).

The tensor element at byte offset b of the buffer holds the buffer's iota
value (element index k -> 1 + 7k). Loads copy the raw shared bytes out;
stores fill shared byte i with 7i + 3 and the tensor is compared. Run to
regenerate the files (deterministic)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = os.path.join(HERE, '..', '..', '..', 'tests', 'interp', 'faults')
FAULT_PTX = '../../../corpus/kernels/features/tma_swatom.ptx'
IOTA = {'iota': {'start': 1, 'step': 7}}
ESZ = {'u8': 1, 'u16': 2, 'f16': 2, 'u32': 4, 'u64': 8}

# PTX ISA 5.5.7, the tables as printed (cells of 16 bytes).
T128_16 = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 0, 3, 2, 5, 4, 7, 6], [2, 3, 0, 1, 6, 7, 4, 5], [3, 2, 1, 0, 7, 6, 5, 4],
           [4, 5, 6, 7, 0, 1, 2, 3], [5, 4, 7, 6, 1, 0, 3, 2], [6, 7, 4, 5, 2, 3, 0, 1], [7, 6, 5, 4, 3, 2, 1, 0]]
T128_32 = [[0, 1, 2, 3, 4, 5, 6, 7], [2, 3, 0, 1, 6, 7, 4, 5], [4, 5, 6, 7, 0, 1, 2, 3], [6, 7, 4, 5, 2, 3, 0, 1]]
T128_64 = [[0, 1, 2, 3, 4, 5, 6, 7], [4, 5, 6, 7, 0, 1, 2, 3]]
MODES = {'128B': (T128_16, False), '128B_atom_32B': (T128_32, False), '128B_atom_32B_flip_8B': (T128_32, True),
         '128B_atom_64B': (T128_64, False)}


def dest(addr, mode):
    """Shared address where the byte that the unswizzled layout puts at
    `addr` (relative to a 1024-byte boundary) is stored."""
    table, flip = MODES[mode]
    line, within = divmod(addr, 128)
    cell, byte = divmod(within, 16)
    row = table[line % len(table)]
    pos = row.index(cell)            # the position of the line holding this chunk
    if flip and line % 2 == 1:
        byte ^= 8                    # the two 8-byte halves of the chunk swap
    return line * 128 + pos * 16 + byte


def box_coords(dims, box, coords):
    """Global coordinates of the 2D box elements in shared-memory order (None: out of bounds)."""
    out = []
    for y in range(box[1]):
        for x in range(box[0]):
            g = (coords[0] + x, coords[1] + y)
            out.append(g if 0 <= g[0] < dims[0] and 0 <= g[1] < dims[1] else None)
    return out


def elem_index(tm, g):
    es = ESZ[tm['type']]
    return (g[0] * es + g[1] * tm['strides'][0]) // es


def buffer_count(tm):
    return tm['strides'][0] * tm['dims'][1] // ESZ[tm['type']]


def iota(k, es):
    return (1 + 7 * k) & ((1 << (8 * es)) - 1)


def load_image(tm, coords, soff):
    es = ESZ[tm['type']]
    cs = box_coords(tm['dims'], tm['box'], coords)
    img = bytearray(len(cs) * es)
    for i, g in enumerate(cs):
        v = iota(elem_index(tm, g), es) if g is not None else 0
        for b in range(es):
            a = dest(soff + i * es + b, tm['swizzle']) - soff
            img[a] = (v >> (8 * b)) & 0xff
    return bytes(img)


def store_result(tm, coords, soff):
    es = ESZ[tm['type']]
    n = buffer_count(tm)
    mem = bytearray()
    for k in range(n):
        mem += iota(k, es).to_bytes(es, 'little')
    cs = box_coords(tm['dims'], tm['box'], coords)
    for i, g in enumerate(cs):
        if g is None:
            continue                 # out-of-bounds elements are not written
        base = elem_index(tm, g) * es
        for b in range(es):
            a = dest(soff + i * es + b, tm['swizzle']) - soff
            mem[base + b] = (7 * a + 3) & 0xff
    return mem


def words(b):
    return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b), 4)]


def buf_type(es):
    return {1: 'u8', 2: 'u16', 4: 'u32', 8: 'u64'}[es]


def write(path, spec, expected=None):
    with open(path + '.json', 'w') as f:
        json.dump(spec, f, separators=(',', ':'))
        f.write('\n')
    if expected is not None:
        with open(path + '.expected.json', 'w') as f:
            json.dump(expected, f, separators=(',', ':'))
            f.write('\n')


def tensor_buffer(tm):
    es = ESZ[tm['type']]
    return {'type': buf_type(es), 'count': buffer_count(tm), 'init': IOTA}


def load_case(name, tm, coords, soff, comment):
    img = load_image(tm, coords, soff)
    tms = dict(tm, buffer='t')
    spec = {'ptx': 'tma_swatom.ptx', 'kernel': 'swa_load2d', 'grid': [1], 'block': [32],
            'buffers': {'t': tensor_buffer(tm), 'out': {'type': 'u32', 'count': len(img) // 4, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': tms},
            'args': [{'tensormap': 'm'}, {'buffer': 'out'}, {'s32': coords[0]}, {'s32': coords[1]}, {'u32': soff},
                     {'u32': len(img)}],
            'outputs': ['out'], 'comment': comment}
    write(os.path.join(HERE, name), spec, {'out': words(img)})


def store_case(name, tm, coords, soff, comment, fault=None):
    es = ESZ[tm['type']]
    nbytes = tm['box'][0] * tm['box'][1] * es
    tms = dict(tm, buffer='t')
    spec = {'ptx': 'tma_swatom.ptx' if not fault else FAULT_PTX, 'kernel': 'swa_store2d',
            'grid': [1], 'block': [32], 'buffers': {'t': tensor_buffer(tm)}, 'tensormaps': {'m': tms},
            'args': [{'tensormap': 'm'}, {'s32': coords[0]}, {'s32': coords[1]}, {'u32': soff}, {'u32': nbytes}],
            'outputs': ['t'], 'comment': comment}
    if fault:
        spec.update(fault)
        del spec['outputs']
        write(os.path.join(FAULTS, name), spec)
        return
    mem = store_result(tm, coords, soff)
    exp = {1: list(mem), 2: [int.from_bytes(mem[i:i + 2], 'little') for i in range(0, len(mem), 2)],
           4: words(mem), 8: [int.from_bytes(mem[i:i + 8], 'little') for i in range(0, len(mem), 8)]}[es]
    write(os.path.join(HERE, name), spec, {'t': exp})


def replace_case(name, tm, coords, comment, fault=None, kernel='swa_replace', after=None):
    """tensormap.replace (kernel's field) on a shared copy of the map, then a load through it."""
    es = ESZ[tm['type']]
    nbytes = tm['box'][0] * tm['box'][1] * es
    tms = dict(tm, buffer='t')
    spec = {'ptx': 'tma_swatom.ptx' if not fault else FAULT_PTX, 'kernel': kernel,
            'grid': [1], 'block': [1],
            'buffers': {'t': tensor_buffer(tm), 'out': {'type': 'u32', 'count': nbytes // 4, 'init': {'fill': 0xdeadbeef}},
                        'g': {'type': 'u64', 'count': 16}},
            'tensormaps': {'m': tms},
            'args': [{'tensormap': 'm'}, {'buffer': 'out'}, {'s32': coords[0]}, {'s32': coords[1]}, {'u32': nbytes},
                     {'buffer': 'g'}],
            'outputs': ['out'], 'comment': comment}
    if fault:
        spec.update(fault)
        del spec['outputs']
        write(os.path.join(FAULTS, name), spec)
        return
    img = load_image(after or dict(tm, swizzle='128B_atom_64B'), coords, 0)
    write(os.path.join(HERE, name), spec, {'out': words(img)})


PTX_HEAD = r'''// GENERATED by tma_swatom_ref.py; do not edit.
// cp.async.bulk.tensor loads and stores through maps with the 128-byte swizzle
// and 32B, 32B + 8B-flip and 64B atomicity (PTX ISA 5.5.7), at shared
// addresses on and off the pattern's 1024-byte boundary, and
// tensormap.replace.tile.swizzle_atomicity (9.7.9.27). Expected outputs from
// tma_swatom_ref.py. Assembles with ptxas -arch=sm_100a.
.version 8.6
.target sm_100a
.address_size 64

.shared .align 1024 .b8 smem[6144];
.shared .align 8 .b64 mbar;
.shared .align 128 .b8 smap[128];
'''

COPY_OUT = r'''  ld.param.u64 %rd4, [out];
  // copy the box bytes out, 4 at a time
  shl.b32 %r20, %r1, 2;
COPY:
  setp.ge.u32 %p3, %r20, %r4;
  @%p3 bra DONE;
  add.u32 %r21, %r2, %r20;
  ld.shared.u32 %r22, [%r21];
  cvt.u64.u32 %rd5, %r20;
  add.u64 %rd5, %rd4, %rd5;
  st.global.u32 [%rd5], %r22;
  add.u32 %r20, %r20, %r23;
  bra COPY;
DONE:
  ret;
}
'''


def ptx():
    out = PTX_HEAD
    out += r'''
// Load the box at {c0, c1} to smem + soff and copy its nbytes out.
.visible .entry swa_load2d(.param .align 64 .b8 tmap[128], .param .u64 out, .param .s32 c0, .param .s32 c1,
    .param .u32 soff, .param .u32 nbytes)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, smem;
  ld.param.u32 %r7, [soff];
  add.u32 %r2, %r2, %r7;
  mov.u32 %r3, mbar;
  ld.param.u32 %r4, [nbytes];
  mov.u32 %r23, 128;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;
  bar.sync 0;
  @!%p1 bra WAIT;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;
  mov.u64 %rd2, tmap;
  cvta.param.u64 %rd3, %rd2;
  ld.param.u32 %r5, [c0];
  ld.param.u32 %r6, [c1];
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd3, {%r5, %r6}], [%r3];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;
  @!%p2 bra WAIT;
''' + COPY_OUT + r'''
// Fill smem + soff (byte i = 7 i + 3) and store it to the box at {c0, c1}.
.visible .entry swa_store2d(.param .align 64 .b8 tmap[128], .param .s32 c0, .param .s32 c1, .param .u32 soff,
    .param .u32 nbytes)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<12>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, smem;
  ld.param.u32 %r7, [soff];
  add.u32 %r2, %r2, %r7;
  ld.param.u32 %r4, [nbytes];
  mov.u32 %r20, %r1;
FILL:
  setp.ge.u32 %p3, %r20, %r4;
  @%p3 bra FILLED;
  mad.lo.u32 %r21, %r20, 7, 3;
  add.u32 %r22, %r2, %r20;
  st.shared.u8 [%r22], %r21;
  add.u32 %r20, %r20, 32;
  bra FILL;
FILLED:
  fence.proxy.async.shared::cta;       // generic writes -> the bulk copy's async-proxy reads
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra END;
  mov.u64 %rd2, tmap;
  cvta.param.u64 %rd3, %rd2;
  ld.param.u32 %r5, [c0];
  ld.param.u32 %r6, [c1];
  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r5, %r6}], [%r2];
  cp.async.bulk.commit_group;
  cp.async.bulk.wait_group 0;
END:
  ret;
}

'''
    out += replace_kernel('swa_replace', 'swizzle_atomicity', 3,
                          'set .swizzle_atomicity to 3 (64B; PTX ISA 9.7.9.27 Table 33)')
    out += replace_kernel('swa_elemtype', 'elemtype', 9,
                          'set .elemtype to 9 (.f64 in Table 33, whose values are not CUtensorMapDataType\'s)')
    return out


def replace_kernel(name, field, value, what):
    out = r'''
// One thread: copy the map to shared memory, ''' + what + r''',
// publish it to global memory, load through it to smem and copy the box out.
.visible .entry ''' + name + r'''(.param .align 64 .b8 tmap[128], .param .u64 out, .param .s32 c0, .param .s32 c1,
    .param .u32 nbytes, .param .u64 gmap)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<24>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, smem;
  mov.u32 %r3, mbar;
  ld.param.u32 %r4, [nbytes];
  mov.u32 %r23, 4;
  mov.u32 %r10, smap;
'''
    for o in range(0, 128, 8):
        out += '  ld.param.b64 %%rd8, [tmap+%d];\n  st.shared.b64 [%%r10+%d], %%rd8;\n' % (o, o)
    out += '  tensormap.replace.tile.%s.shared::cta.b1024.b32 [%%r10], %d;\n' % (field, value)
    out += r'''
  ld.param.u64 %rd9, [gmap];
  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd9], [%r10], 128;
  fence.proxy.tensormap::generic.acquire.gpu [%rd9], 128;
  mbarrier.init.shared::cta.b64 [%r3], 1;
  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;
  ld.param.u32 %r5, [c0];
  ld.param.u32 %r6, [c1];
  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd9, {%r5, %r6}], [%r3];
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;
  @!%p2 bra WAIT;
'''
    out += '  // clear the global copy: it holds a device address, which differs between runs\n'
    for o in range(0, 128, 8):
        out += '  st.global.b64 [%%rd9+%d], 0;\n' % o
    out += COPY_OUT
    return out


def main():
    with open(os.path.join(HERE, 'tma_swatom.ptx'), 'w') as f:
        f.write(ptx())
    f16 = {'type': 'f16', 'dims': [64, 40], 'strides': [128], 'box': [64, 8]}
    load_case('tma_swa_32b', dict(f16, swizzle='128B_atom_32B'), [0, 3], 0,
              '128B swizzle, 32B atomicity, 8 lines from a 1024-byte boundary')
    load_case('tma_swa_32b_base', dict(f16, swizzle='128B_atom_32B'), [0, -2], 384,
              '128B swizzle, 32B atomicity, box at line 3 of the pattern, two rows out of bounds')
    u32 = {'type': 'u32', 'dims': [32, 20], 'strides': [128], 'box': [32, 8]}
    load_case('tma_swa_flip', dict(u32, swizzle='128B_atom_32B_flip_8B'), [0, 5], 128,
              '128B swizzle, 32B atomicity with 8B flip, from line 1 of the pattern')
    u8 = {'type': 'u8', 'dims': [128, 16], 'strides': [128], 'box': [128, 6]}
    load_case('tma_swa_64b', dict(u8, swizzle='128B_atom_64B'), [0, 5], 640,
              '128B swizzle, 64B atomicity, from line 5 of the pattern')
    u64 = {'type': 'u64', 'dims': [12, 10], 'strides': [96], 'box': [8, 4]}
    load_case('tma_swa_64b_u64', dict(u64, swizzle='128B_atom_64B'), [6, 1], 0,
              '128B swizzle, 64B atomicity, 8-byte elements, 64-byte rows, right columns out of bounds')
    store_case('tma_swa_store32', dict(u32, swizzle='128B_atom_32B'), [0, 4], 512,
               'store through a 128B swizzle with 32B atomicity from line 4 of the pattern')
    store_case('tma_swa_store64', dict(u64, swizzle='128B_atom_64B'), [6, 7], 128,
               'store through a 128B swizzle with 64B atomicity, bottom rows and right columns out of bounds')
    replace_case('tma_swa_replace', dict(f16, swizzle='128B'), [0, 2],
                 'tensormap.replace.tile.swizzle_atomicity 3 (64B) on a 128B map, then a load')
    # .elemtype 9 is .f64 (Table 33); as CUtensorMapDataType 9 (bf16) the
    # box would hold 2-byte elements. The u64 map becomes an f64 one.
    u64b = {'type': 'u64', 'dims': [12, 10], 'strides': [96], 'box': [8, 4], 'swizzle': '128B'}
    replace_case('tma_swa_elemtype', u64b, [2, 3], 'tensormap.replace.tile.elemtype 9 (.f64, Table 33) on a u64 map',
                 kernel='swa_elemtype', after=dict(u64b, swizzle='128B'))
    store_case('tma_swa_store_flip', dict(u32, swizzle='128B_atom_32B_flip_8B'), [0, 0], 0,
               'store through a map with the 8B flip (legal only for loads, PTX ISA 5.5.7)',
               fault={'_expect_diagnostic': 'tensor-map', '_expect_message': '8-byte flip'})
    replace_case('tma_swa_replace_64', dict(f16, box=[32, 8], swizzle='64B'), [0, 2],
                 'tensormap.replace.tile.swizzle_atomicity 3 on a 64B map (Table 14: only the 128B mode)',
                 fault={'_expect_diagnostic': 'tensor-map', '_expect_message': 'needs the 128B swizzle'})


if __name__ == '__main__':
    main()
