#!/usr/bin/env python3
"""Generator and independent reference for the sm_100 im2col tensor-copy
modes (tma_im2col_w.ptx, tma_i2w_*.json / .expected.json;
docs/interpreter.md "Tensor maps"):

- .im2col::w and .im2col::w::128 loads (PTX ISA 5.5.5) through maps of
  cuTensorMapEncodeIm2colWide (launch-spec key "im2col_wide");
- .im2col_no_offs stores and reductions (9.7.9.25.5.2-3) through an im2col
  map, which walk the im2col pixels without im2col offsets.

The wide modes are specified by text plus Figures 16-24 of PTX ISA 5.5.5;
this script follows the reading stated in docs/interpreter.md, written here
as an explicit walk, independently of the interpreter's index arithmetic:
the pixels form one sequence along W (traversal stride elementStrides[1])
from the W coordinate + wOffset to the right end of the bounding box
[lowerW + wOffset, W - 1 + upperW + wOffset], then from its left end in the
next image; H and D stay at the coordinates. .im2col::w stores
pixelsPerColumn pixels then wHalo halo pixels (the next ones of the
sequence); .im2col::w::128 stores four groups of 32 pixels, each followed by
wHalo halo pixels (the pixels after the group). Each pixel holds
channelsPerPixel channels from the C coordinate; out-of-bounds elements read
as zero (or the canonical NaN with oob_fill nan). Shared memory: dense,
channel innermost, with the 64B/128B swizzle (16-byte chunk index XOR
address bits 7..). Run it to regenerate the files (deterministic)."""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ESZ = {'u16': 2, 'u32': 4, 'f32': 4}
NAN = {'f32': 0x7fffffff}
SWZ = {'none': 1, '64B': 4, '128B': 8}  # 16-byte chunks per swizzle line


def value(idx, es):
    """Tensor buffer element idx holds 3 + 5 idx (an iota init)."""
    return (3 + 5 * idx) & ((1 << (8 * es)) - 1)


def strides_of(dims, es):
    out, s = [], dims[0] * es
    for d in dims[1:]:
        out.append(s)
        s *= d
    return out


def linear(dims, g):
    i, m = 0, 1
    for d, x in enumerate(g):
        i += x * m
        m *= dims[d]
    return i


def inside(dims, g):
    return all(0 <= g[d] < dims[d] for d in range(len(dims)))


def swizzle(a, sw):
    chunks = SWZ[sw]
    return a ^ (((a >> 7) % chunks) << 4)


def wide_walk(dims, wide, coords, woff, count, stride):
    """(w, n) of `count` pixels of the W sequence."""
    lo = wide['lower'] + woff
    hi = dims[1] - 1 + wide['upper'] + woff
    w, n = coords[1] + woff, coords[-1]
    out = []
    while len(out) < count:
        out.append((w, n))
        w += stride
        if w > hi:
            w, n = lo, n + 1
    return out


def wide_pixels(dims, tm, coords, halo, woff):
    wide = tm['im2col_wide']
    stride = tm.get('element_strides', [1] * len(dims))[1]
    if wide['mode'] == 'w':
        return wide_walk(dims, wide, coords, woff, wide['pixels'] + halo, stride)
    seq = wide_walk(dims, wide, coords, woff, 128 + halo, stride)
    out = []
    for grp in range(4):
        out += seq[32 * grp:32 * grp + 32] + seq[32 * grp + 32:32 * grp + 32 + halo]
    return out


def im2col_walk(dims, ic, coords, count):
    """Spatial positions of `count` im2col pixels without offsets: W fastest
    from the coordinates, wrapping at the box's upper corner to its lower
    corner and carrying into H, D and the next image."""
    ns = len(dims) - 2
    lo = [ic['lower'][k] for k in range(ns)]
    hi = [dims[k + 1] - 1 + ic['upper'][k] for k in range(ns)]
    pos, n = [coords[k + 1] for k in range(ns)], coords[-1]
    out = []
    for _ in range(count):
        out.append((list(pos), n))
        k = 0
        while True:
            pos[k] += 1
            if pos[k] <= hi[k]:
                break
            pos[k] = lo[k]
            k += 1
            if k == ns:
                n += 1
                break
    return out


def write(name, spec, expected):
    with open(os.path.join(HERE, name + '.json'), 'w') as f:
        json.dump(spec, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(HERE, name + '.expected.json'), 'w') as f:
        json.dump(expected, f, separators=(',', ':'))
        f.write('\n')


def words(b):
    return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b), 4)]


def map_spec(tm):
    m = dict(tm)
    m['buffer'] = 't'
    m['strides'] = strides_of(tm['dims'], ESZ[tm['type']])
    return m


def load_case(name, kern, tm, coords, halo, woff, comment):
    dims, es = tm['dims'], ESZ[tm['type']]
    ch = tm['im2col_wide']['channels']
    fill = NAN.get(tm['type'], 0) if tm.get('oob_fill') == 'nan' else 0
    img = bytearray()
    for w, n in wide_pixels(dims, tm, coords, halo, woff):
        for c in range(ch):
            g = [coords[0] + c, w] + list(coords[2:-1]) + [n]
            v = value(linear(dims, g), es) if inside(dims, g) else fill
            img += v.to_bytes(es, 'little')
    nbytes = len(img)
    assert nbytes % 16 == 0
    sm = bytearray(nbytes)
    for a in range(0, nbytes, 16):
        b = swizzle(a, tm['swizzle'])
        assert b + 16 <= nbytes, 'the kernel copies out nbytes: the swizzled box must stay within them'
        sm[b:b + 16] = img[a:a + 16]
    count = 1
    for d in dims:
        count *= d
    spec = {'ptx': 'tma_im2col_w.ptx', 'kernel': kern, 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': tm['type'] if tm['type'] != 'f32' else 'u32', 'count': count,
                              'init': {'iota': {'start': 3, 'step': 5}}},
                        'out': {'type': 'u32', 'count': nbytes // 4, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': map_spec(tm)},
            'args': [{'tensormap': 'm'}, {'buffer': 'out'}] + [{'s32': c} for c in coords] +
                    [{'u32': halo}, {'u32': woff}, {'u32': nbytes}],
            'outputs': ['out'], 'comment': comment}
    write(name, spec, {'out': words(sm)})


def store_case(name, kern, tm, coords, reduce, comment):
    """Shared byte i = (7 i + 3) & 0xff; the im2col pixels are stored (or
    added as u32) into the tensor; out-of-bounds elements are skipped."""
    dims, es = tm['dims'], ESZ[tm['type']]
    ic = tm['im2col']
    count = 1
    for d in dims:
        count *= d
    t = [value(i, es) for i in range(count)]
    nbytes = ic['pixels'] * ic['channels'] * es
    smem = bytes(((7 * i + 3) & 0xff) for i in range(nbytes))
    slot = 0
    for pos, n in im2col_walk(dims, ic, coords, ic['pixels']):
        for c in range(ic['channels']):
            g = [coords[0] + c] + pos + [n]
            a = swizzle(slot * es, tm.get('swizzle', 'none'))
            slot += 1
            if not inside(dims, g):
                continue
            v = int.from_bytes(smem[a:a + es], 'little')
            k = linear(dims, g)
            t[k] = (t[k] + v) & ((1 << (8 * es)) - 1) if reduce else v
    spec = {'ptx': 'tma_im2col_w.ptx', 'kernel': kern, 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': tm['type'], 'count': count, 'init': {'iota': {'start': 3, 'step': 5}}}},
            'tensormaps': {'m': map_spec(tm)},
            'args': [{'tensormap': 'm'}] + [{'s32': c} for c in coords] + [{'u32': nbytes}],
            'outputs': ['t'], 'comment': comment}
    write(name, spec, {'t': t})


# --- the kernels (tma_im2col_w.ptx) ---
HDR = '''// GENERATED by tma_im2col_w_ref.py; do not edit.
// The sm_100 im2col tensor-copy modes (PTX ISA 5.5.5, 9.7.9.25.5.2-3):
// .im2col::w / .im2col::w::128 loads (wait on the mbarrier for the expected
// bytes, then copy the raw shared-memory bytes out) and .im2col_no_offs
// stores and reductions (fill shared memory, then store / add it into the
// tensor). Expected outputs: tma_im2col_w_ref.py; launch specs:
// tma_i2w_*.json. Assembles with ptxas -arch=sm_100a.
.version 8.8
.target sm_100a
.address_size 64

.shared .align 1024 .b8 smem[8192];
.shared .align 8 .b64 mbar;
'''


def load_kernel(name, dim, mode, dst):
    cs = ', '.join(f'.param .s32 c{k}' for k in range(dim))
    regs = ', '.join(f'%r{5 + k}' for k in range(dim))
    L = [f'.visible .entry {name}(.param .align 64 .b8 tmap[128], .param .u64 out, {cs}, .param .u32 halo,',
         '    .param .u32 woff, .param .u32 nbytes)', '{',
         '  .reg .pred %p<4>;', '  .reg .b16 %rs<4>;', '  .reg .b32 %r<32>;', '  .reg .b64 %rd<12>;',
         '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  mov.u32 %r3, mbar;', '  ld.param.u32 %r4, [nbytes];',
         '  setp.eq.u32 %p1, %r1, 0;', '  @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;', '  bar.sync 0;',
         '  @!%p1 bra WAIT;',
         '  // one arrival expecting the copy\'s bytes: a wrong byte count never completes the phase',
         '  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;',
         '  mov.u64 %rd2, tmap;', '  cvta.param.u64 %rd3, %rd2;']
    L += [f'  ld.param.u32 %r{5 + k}, [c{k}];' for k in range(dim)]
    L += ['  ld.param.u32 %r12, [halo];', '  cvt.u16.u32 %rs1, %r12;', '  ld.param.u32 %r13, [woff];',
          '  cvt.u16.u32 %rs2, %r13;',
          f'  cp.async.bulk.tensor.{dim}d.{dst}.global.{mode}.mbarrier::complete_tx::bytes [%r2], [%rd3, {{{regs}}}],',
          '      [%r3], {%rs1, %rs2};',
          'WAIT:', '  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;', '  @!%p2 bra WAIT;',
          '  ld.param.u64 %rd4, [out];', '  shl.b32 %r20, %r1, 2;', 'COPY:', '  setp.ge.u32 %p3, %r20, %r4;',
          '  @%p3 bra DONE;', '  add.u32 %r21, %r2, %r20;', '  ld.shared.u32 %r22, [%r21];', '  cvt.u64.u32 %rd5, %r20;',
          '  add.u64 %rd5, %rd4, %rd5;', '  st.global.u32 [%rd5], %r22;', '  add.u32 %r20, %r20, 128;', '  bra COPY;',
          'DONE:', '  ret;', '}', '']
    return L


def store_kernel(name, dim, red):
    cs = ', '.join(f'.param .s32 c{k}' for k in range(dim))
    regs = ', '.join(f'%r{5 + k}' for k in range(dim))
    op = (f'cp.reduce.async.bulk.tensor.{dim}d.global.shared::cta.add.im2col_no_offs.bulk_group' if red else
          f'cp.async.bulk.tensor.{dim}d.global.shared::cta.im2col_no_offs.bulk_group')
    L = [f'.visible .entry {name}(.param .align 64 .b8 tmap[128], {cs}, .param .u32 nbytes)', '{',
         '  .reg .pred %p<4>;', '  .reg .b32 %r<32>;', '  .reg .b64 %rd<12>;',
         '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  ld.param.u32 %r4, [nbytes];',
         '  // shared byte i = 7 i + 3', '  mov.u32 %r20, %r1;', 'FILL:', '  setp.ge.u32 %p3, %r20, %r4;',
         '  @%p3 bra FILLED;', '  mad.lo.u32 %r21, %r20, 7, 3;', '  add.u32 %r22, %r2, %r20;',
         '  st.shared.u8 [%r22], %r21;', '  add.u32 %r20, %r20, 32;', '  bra FILL;', 'FILLED:',
         '  fence.proxy.async.shared::cta;       // generic writes -> the bulk copy\'s async-proxy reads',
         '  bar.sync 0;', '  setp.ne.u32 %p1, %r1, 0;', '  @%p1 bra DONE;', '  mov.u64 %rd2, tmap;',
         '  cvta.param.u64 %rd3, %rd2;']
    L += [f'  ld.param.u32 %r{5 + k}, [c{k}];' for k in range(dim)]
    L += [f'  {op} [%rd3, {{{regs}}}], [%r2];', '  cp.async.bulk.commit_group;', '  cp.async.bulk.wait_group 0;',
          'DONE:', '  ret;', '}', '']
    return L


def write_ptx():
    L = HDR.split('\n')
    L += load_kernel('i2w_load4d_w', 4, 'im2col::w', 'shared::cta')
    L += load_kernel('i2w_load3d_w128', 3, 'im2col::w::128', 'shared::cluster')
    L += load_kernel('i2w_load5d_w128', 5, 'im2col::w::128', 'shared::cta')
    L += load_kernel('i2w_load5d_w', 5, 'im2col::w', 'shared::cluster')
    L += store_kernel('i2c_store4d_nooffs', 4, False)
    L += store_kernel('i2c_reduce3d_nooffs', 3, True)
    with open(os.path.join(HERE, 'tma_im2col_w.ptx'), 'w') as f:
        f.write('\n'.join(L).rstrip('\n') + '\n')


def main():
    write_ptx()
    # NHWC, C 8 x u32 (32-byte pixels, 64B swizzle), W 10, H 5, N 3; box
    # [-1, 9] + wOffset 1 = [0, 10]: the pixel at W 10 is the right padding
    # (zero); 20 pixels + 2 halo pixels across three images.
    nhwc = {'type': 'u32', 'dims': [8, 10, 5, 3], 'swizzle': '64B',
            'im2col_wide': {'mode': 'w', 'lower': -1, 'upper': 0, 'channels': 8, 'pixels': 20}}
    load_case('tma_i2w_4d_w', 'i2w_load4d_w', nhwc, [0, 3, 2, 0], 2, 1,
              'im2col::w: 20 pixels + wHalo 2, wOffset 1, right padding and the next images')
    # The same with traversal stride 2 along W, the first pixel left of the
    # box (W -3 < -1), channels 4..11 of 8 (the upper half out of bounds,
    # NaN-filled f32), H 4 of 5.
    st = dict(nhwc, type='f32', oob_fill='nan', element_strides=[1, 2, 1, 1],
              im2col_wide={'mode': 'w', 'lower': -1, 'upper': -1, 'channels': 8, 'pixels': 11})
    load_case('tma_i2w_4d_w_stride', 'i2w_load4d_w', st, [4, -3, 4, 1], 1, 0,
              'im2col::w: traversal stride 2, first pixel left of the box, channels partly out of bounds (NaN)')
    # NWC, C 4 x u32 (16-byte pixels, 64B swizzle), W 100, N 2: 128 pixels
    # from W 90, four groups of 32 each followed by 3 halo pixels; the last
    # pixels run past the batch (zero).
    nwc = {'type': 'u32', 'dims': [4, 100, 2], 'swizzle': '64B',
           'im2col_wide': {'mode': 'w128', 'lower': 0, 'upper': 0, 'channels': 4}}
    load_case('tma_i2w_3d_w128', 'i2w_load3d_w128', nwc, [0, 90, 0], 3, 0,
              'im2col::w::128: 4 x (32 pixels + wHalo 3), past the last image')
    # NDHWC, C 16 x u16 (32-byte pixels, 128B swizzle), W 40, H 3, D 2, N 2;
    # box [-2, 40] + wOffset 2, no halo.
    ndhwc = {'type': 'u16', 'dims': [16, 40, 3, 2, 2], 'swizzle': '128B',
             'im2col_wide': {'mode': 'w128', 'lower': -2, 'upper': 1, 'channels': 16}}
    load_case('tma_i2w_5d_w128', 'i2w_load5d_w128', ndhwc, [0, 30, 1, 1, 0], 0, 2,
              'im2col::w::128 5D: wOffset 2 shifts the box and the start, no halo')
    ndhwc_w = dict(ndhwc, im2col_wide={'mode': 'w', 'lower': 0, 'upper': -30, 'channels': 16, 'pixels': 30})
    load_case('tma_i2w_5d_w', 'i2w_load5d_w', ndhwc_w, [0, 5, 2, 1, 0], 5, 3,
              'im2col::w 5D: a box of 10 pixels, wHalo 5, wOffset 3, into shared::cluster')
    # .im2col_no_offs: an im2col map (cuTensorMapEncodeIm2col), pixels from
    # the coordinates without offsets; the box reaches one pixel past W.
    i2c = {'type': 'u32', 'dims': [8, 6, 5, 2],
           'im2col': {'lower': [0, -1], 'upper': [1, 0], 'channels': 8, 'pixels': 16}}
    store_case('tma_i2c_store_nooffs', 'i2c_store4d_nooffs', i2c, [0, 3, 2, 0], False,
               'im2col_no_offs store: 16 pixels, out-of-bounds pixels skipped')
    i2c3 = {'type': 'u32', 'dims': [8, 12, 2], 'swizzle': '64B',
            'im2col': {'lower': [-1], 'upper': [0], 'channels': 8, 'pixels': 20}}
    store_case('tma_i2c_reduce_nooffs', 'i2c_reduce3d_nooffs', i2c3, [0, 5, 0], True,
               'im2col_no_offs add reduction, 64B swizzle, across two images')


if __name__ == '__main__':
    main()
