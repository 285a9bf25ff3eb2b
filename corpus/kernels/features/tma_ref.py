#!/usr/bin/env python3
"""Generator and independent reference for the bulk tensor tests (tma.ptx,
tma_*.json / .expected.json; docs/interpreter.md "Tensor maps").

The kernels load a box of a tensor described by a tensor-map kernel argument
into shared memory with cp.async.bulk.tensor (1-5 D, tile or im2col mode,
optionally multicast to both CTAs of a cluster), wait on the mbarrier, and
copy the raw shared-memory bytes out; or they fill shared memory and store /
reduce it into the tensor. This script computes the expected bytes from the
rules of PTX ISA 5.5 (tiled and im2col modes, out-of-bounds fill) and the
swizzle patterns, written here independently of the interpreter. Run it to
regenerate the files (deterministic)."""
import json, os, math

HERE = os.path.dirname(os.path.abspath(__file__))
IOTA = {'iota': {'start': 1, 'step': 7}}
ESZ = {'u8': 1, 'u16': 2, 'f16': 2, 'bf16': 2, 'u32': 4, 's32': 4, 'f32': 4, 'u64': 8, 'f64': 8}
NAN = {'f16': 0x7fff, 'bf16': 0x7fff, 'f32': 0x7fffffff, 'f64': 0x7fffffffffffffff}
SW = {'none': 0, '32B': 1, '64B': 2, '128B': 3}


def buf_type(es):
    return {1: 'u8', 2: 'u16', 4: 'u32', 8: 'u64'}[es]


def tensor_value(idx, es):
    """Buffer element idx holds 1 + 7 idx modulo 2^bits (an iota init)."""
    return (1 + 7 * idx) & ((1 << (8 * es)) - 1)


def box_coords(tm, coords, offsets):
    """Global coordinates of the box elements in shared-memory order (None: OOB)."""
    rank = len(tm['dims'])
    es = tm.get('element_strides', [1] * rank)
    out = []
    if 'im2col' in tm:
        ic = tm['im2col']
        for p in range(ic['pixels']):
            carry = p
            g = [0] * rank
            for k in range(rank - 2):
                ext = max(1, tm['dims'][k + 1] - 1 + ic['upper'][k] - ic['lower'][k] + 1)
                v = coords[k + 1] + offsets[k] - ic['lower'][k] + carry
                g[k + 1] = ic['lower'][k] + v % ext
                carry = v // ext
            g[rank - 1] = coords[rank - 1] + carry
            for ch in range(ic['channels']):
                gg = list(g)
                gg[0] = coords[0] + ch
                out.append(gg)
    else:
        n = [-(-tm['box'][d] // es[d]) for d in range(rank)]
        total = math.prod(n)
        for idx in range(total):
            g, r = [], idx
            for d in range(rank):
                g.append(coords[d] + (r % n[d]) * es[d])
                r //= n[d]
            out.append(g)
    return [g if all(0 <= g[d] < tm['dims'][d] for d in range(rank)) else None for g in out]


def elem_index(tm, g):
    es = ESZ[tm['type']]
    byte = g[0] * es + sum(g[d] * tm['strides'][d - 1] for d in range(1, len(g)))
    assert byte % es == 0
    return byte // es


def swz(a, mode):
    w = 1 << SW[mode] if SW[mode] else 1
    return a ^ (((a >> 7) & (w - 1)) << 4) if w > 1 else a


def load_image(tm, coords, offsets=(), smem_base=0, nbytes=None):
    es = ESZ[tm['type']]
    cs = box_coords(tm, coords, list(offsets))
    img = bytearray(nbytes or len(cs) * es)
    for i, g in enumerate(cs):
        v = tensor_value(elem_index(tm, g), es) if g is not None else (NAN.get(tm['type'], 0) if tm.get('oob_fill') == 'nan' else 0)
        a = swz(smem_base + i * es, tm.get('swizzle', 'none')) - smem_base
        img[a:a + es] = v.to_bytes(es, 'little')
    return bytes(img), len(cs) * es


def tensor_buffer_count(tm):
    es = ESZ[tm['type']]
    last = len(tm['dims']) - 1
    size = (tm['strides'][last - 1] * tm['dims'][last]) if last else tm['dims'][0] * es
    return size // es


# The specs this script wrote last time (one name a line): it replaces only
# those, so the other tma_* specs here (tma_im2col_w_ref.py,
# tma_interleave_ref.py, tma_swatom_ref.py) survive, in either order.
MANIFEST = os.path.join(HERE, 'tma_ref.outputs')
written = []


def write(name, spec, expected):
    written.append(name)
    with open(os.path.join(HERE, name + '.json'), 'w') as f:
        json.dump(spec, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(HERE, name + '.expected.json'), 'w') as f:
        json.dump(expected, f, separators=(',', ':'))
        f.write('\n')


def words(b):
    return [int.from_bytes(b[i:i + 4], 'little') for i in range(0, len(b), 4)]


def load_case(name, kern, tm, coords, offsets=(), comment=''):
    es = ESZ[tm['type']]
    count = tensor_buffer_count(tm)
    img, nbytes = load_image(tm, coords, offsets)
    assert nbytes % 16 == 0
    tms = dict(tm)
    tms['buffer'] = 't'
    args = [{'tensormap': 'm'}, {'buffer': 'out'}] + [{'s32': c} for c in coords] + [{'u32': o} for o in offsets] + \
           [{'u32': nbytes}]
    spec = {'ptx': 'tma.ptx', 'kernel': kern, 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': buf_type(es), 'count': count, 'init': IOTA},
                        'out': {'type': 'u32', 'count': nbytes // 4, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': tms}, 'args': args, 'outputs': ['out'], 'comment': comment}
    out = words(img)
    write(name, spec, {'out': out})


def store_case(name, kern, tm, coords, reduce=False, comment=''):
    """Shared memory byte i = (7 i + 3) & 0xff; the box is stored (or added
    as u32 elements) into the tensor; out-of-bounds elements are skipped."""
    es = ESZ[tm['type']]
    count = tensor_buffer_count(tm)
    cs = box_coords(tm, coords, [])
    nbytes = len(cs) * es
    smem = bytes(((7 * i + 3) & 0xff) for i in range(nbytes))
    t = [tensor_value(i, es) for i in range(count)]
    for i, g in enumerate(cs):
        if g is None:
            continue
        a = swz(i * es, tm.get('swizzle', 'none'))
        v = int.from_bytes(smem[a:a + es], 'little')
        k = elem_index(tm, g)
        t[k] = (t[k] + v) & ((1 << (8 * es)) - 1) if reduce else v
    tms = dict(tm)
    tms['buffer'] = 't'
    spec = {'ptx': 'tma.ptx', 'kernel': kern, 'grid': [1], 'block': [32],
            'buffers': {'t': {'type': buf_type(es), 'count': count, 'init': IOTA}},
            'tensormaps': {'m': tms}, 'args': [{'tensormap': 'm'}] + [{'s32': c} for c in coords] + [{'u32': nbytes}],
            'outputs': ['t'], 'comment': comment}
    write(name, spec, {'t': t})


# --- the kernels (tma.ptx) ---
HDR = '''// Bulk tensor copies through tensor maps (PTX ISA 9.7.9.25.5, 5.5): loads of
// 1-5 D tiles and an im2col box, multicast to a cluster, stores, a reduction,
// and tensormap.replace. The expected outputs come from tma_ref.py; the
// launch specs are tma_*.json. Assembles with ptxas -arch=sm_90a.
.version 8.3
.target sm_90a
.address_size 64

.shared .align 1024 .b8 smem[8192];
.shared .align 8 .b64 mbar;
.shared .align 128 .b8 smap[128];
'''

def copy_out(outreg='%rd4', base='%r2', nreg='%r4', tid='%r1', nthreads=32, dst_off=None):
    L = [f'  // copy the box bytes out, 4 at a time',
         f'  shl.b32 %r20, {tid}, 2;',
         'COPY:',
         f'  setp.ge.u32 %p3, %r20, {nreg};',
         '  @%p3 bra DONE;',
         f'  add.u32 %r21, {base}, %r20;',
         '  ld.shared.u32 %r22, [%r21];',
         '  cvt.u64.u32 %rd5, %r20;']
    if dst_off:
        L.append(f'  add.u64 %rd5, %rd5, {dst_off};')
    L += [f'  add.u64 %rd5, {outreg}, %rd5;',
          '  st.global.u32 [%rd5], %r22;',
          f'  add.u32 %r20, %r20, {4 * nthreads};',
          '  bra COPY;',
          'DONE:']
    return L

def load_kernel(name, dim, im2col=False):
    cs = [f'.param .s32 c{d}' for d in range(dim)]
    offs = [f'.param .u32 o{d}' for d in range(dim - 2)] if im2col else []
    P = ', '.join(['.param .align 64 .b8 tmap[128]', '.param .u64 out'] + cs + offs + ['.param .u32 nbytes'])
    L = [f'.visible .entry {name}({P})', '{', '  .reg .pred %p<4>;', '  .reg .b16 %rs<4>;', '  .reg .b32 %r<32>;', '  .reg .b64 %rd<12>;',
         '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  mov.u32 %r3, mbar;', '  ld.param.u32 %r4, [nbytes];',
         '  setp.eq.u32 %p1, %r1, 0;', '  @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;', '  bar.sync 0;', '  @!%p1 bra WAIT;',
         '  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;', '  mov.u64 %rd2, tmap;', '  cvta.param.u64 %rd3, %rd2;']
    for d in range(dim):
        L.append(f'  ld.param.u32 %r{5 + d}, [c{d}];')
    crd = '{' + ', '.join(f'%r{5 + d}' for d in range(dim)) + '}'
    if im2col:
        for d in range(dim - 2):
            L.append(f'  ld.param.u32 %r{12 + d}, [o{d}];')
            L.append(f'  cvt.u16.u32 %rs{d + 1}, %r{12 + d};')
        oo = '{' + ', '.join(f'%rs{d + 1}' for d in range(dim - 2)) + '}'
        L.append(f'  cp.async.bulk.tensor.{dim}d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r2], [%rd3, {crd}], [%r3], {oo};')
    else:
        L.append(f'  cp.async.bulk.tensor.{dim}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd3, {crd}], [%r3];')
    L += ['WAIT:', '  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;', '  @!%p2 bra WAIT;', '  ld.param.u64 %rd4, [out];']
    L += copy_out()
    L += ['  ret;', '}', '']
    return L

def store_kernel(name, reduce, fence=True):
    L = [f'.visible .entry {name}(.param .align 64 .b8 tmap[128], .param .s32 c0, .param .s32 c1, .param .u32 nbytes)', '{',
         '  .reg .pred %p<4>;', '  .reg .b32 %r<32>;', '  .reg .b64 %rd<12>;',
         '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  ld.param.u32 %r4, [nbytes];',
         '  // shared byte i = 7 i + 3', '  mov.u32 %r20, %r1;', 'FILL:', '  setp.ge.u32 %p3, %r20, %r4;', '  @%p3 bra FILLED;',
         '  mad.lo.u32 %r21, %r20, 7, 3;', '  add.u32 %r22, %r2, %r20;', '  st.shared.u8 [%r22], %r21;', '  add.u32 %r20, %r20, 32;',
         '  bra FILL;', 'FILLED:',
         '  fence.proxy.async.shared::cta;       // generic writes -> the bulk copy\'s async-proxy reads' if fence else
         '  // no fence.proxy.async: the bulk copy\'s async-proxy reads race with the generic writes',
         '  bar.sync 0;', '  setp.ne.u32 %p1, %r1, 0;', '  @%p1 bra DONE;',
         '  mov.u64 %rd2, tmap;', '  cvta.param.u64 %rd3, %rd2;', '  ld.param.u32 %r5, [c0];', '  ld.param.u32 %r6, [c1];']
    if reduce:
        L.append('  cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd3, {%r5, %r6}], [%r2];')
    else:
        L.append('  cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd3, {%r5, %r6}], [%r2];')
    L += ['  cp.async.bulk.commit_group;', '  cp.async.bulk.wait_group 0;', 'DONE:', '  ret;', '}', '']
    return L

def multicast_kernel():
    L = ['.visible .entry tma_multicast(.param .align 64 .b8 tmap[128], .param .u64 out, .param .s32 c0, .param .s32 c1,',
         '    .param .u32 nbytes) .reqnctapercluster 2, 1, 1', '{', '  .reg .pred %p<4>;', '  .reg .b16 %rs<2>;', '  .reg .b32 %r<32>;',
         '  .reg .b64 %rd<12>;', '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  mov.u32 %r3, mbar;', '  ld.param.u32 %r4, [nbytes];',
         '  mov.u32 %r9, %cluster_ctarank;', '  setp.eq.u32 %p1, %r1, 0;', '  @%p1 mbarrier.init.shared::cta.b64 [%r3], 1;',
         '  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;', '  fence.mbarrier_init.release.cluster;',
         '  barrier.cluster.arrive;', '  barrier.cluster.wait;', '  setp.eq.u32 %p2, %r9, 0;', '  and.pred %p2, %p2, %p1;', '  @!%p2 bra WAIT;',
         '  mov.u64 %rd2, tmap;', '  cvta.param.u64 %rd3, %rd2;', '  ld.param.u32 %r5, [c0];', '  ld.param.u32 %r6, [c1];', '  mov.b16 %rs1, 3;',
         '  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%r2], [%rd3, {%r5, %r6}], [%r3], %rs1;',
         'WAIT:', '  mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r3], 0;', '  @!%p3 bra WAIT;', '  ld.param.u64 %rd4, [out];',
         '  mul.wide.u32 %rd6, %r9, %r4;']
    L += copy_out(dst_off='%rd6')
    L += ['  barrier.cluster.arrive;', '  barrier.cluster.wait;', '  ret;', '}', '']
    return L

def replace_kernel():
    L = ['// One thread (the .sync.aligned instructions run on a one-lane warp).',
         '.visible .entry tma_replace(.param .align 64 .b8 tmap[128], .param .u64 out, .param .s32 c0, .param .s32 c1,',
         '    .param .u32 nbytes, .param .u64 gmap)', '{', '  .reg .pred %p<4>;', '  .reg .b32 %r<32>;', '  .reg .b64 %rd<24>;',
         '  mov.u32 %r1, %tid.x;', '  mov.u32 %r2, smem;', '  mov.u32 %r3, mbar;', '  ld.param.u32 %r4, [nbytes];', '  mov.u32 %r10, smap;']
    for k in range(16):
        L += [f'  ld.param.b64 %rd{8}, [tmap+{8 * k}];', f'  st.shared.b64 [%r10+{8 * k}], %rd8;']
    L += ['  tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%r10], 1, 2;   // box dim 1: 8 -> 2',
          '  ld.param.u64 %rd9, [gmap];',
          '  tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd9], [%r10], 128;',
          '  fence.proxy.tensormap::generic.acquire.gpu [%rd9], 128;',
          '  mbarrier.init.shared::cta.b64 [%r3], 1;',
          '  mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [%r3], %r4;', '  ld.param.u32 %r5, [c0];', '  ld.param.u32 %r6, [c1];',
          '  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r2], [%rd9, {%r5, %r6}], [%r3];',
          'WAIT:', '  mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;', '  @!%p2 bra WAIT;', '  ld.param.u64 %rd4, [out];']
    L += ['  // clear the global copy: it holds a device address, which differs between runs']
    L += [f'  st.global.b64 [%rd9+{8 * k}], 0;' for k in range(16)]
    L += copy_out(nthreads=1)
    L += ['  ret;', '}', '']
    return L


def write_ptx():
    out = [HDR]
    for d in (1, 2, 3, 5):
        out += load_kernel(f'tma_load{d}d', d)
    out += load_kernel('tma_im2col4d', 4, im2col=True)
    out += store_kernel('tma_store2d', False)
    out += store_kernel('tma_reduce2d', True)
    out += store_kernel('tma_store2d_nofence', False, fence=False)
    out += multicast_kernel()
    out += replace_kernel()
    with open(os.path.join(HERE, 'tma.ptx'), 'w') as f:
        f.write('// GENERATED by tma_ref.py; do not edit.\n' + '\n'.join(out))


def main():
    write_ptx()
    if os.path.exists(MANIFEST):
        with open(MANIFEST) as f:
            for name in f.read().split():
                for ext in ('.json', '.expected.json'):
                    if os.path.exists(os.path.join(HERE, name + ext)):
                        os.remove(os.path.join(HERE, name + ext))
    t2 = {'type': 'u32', 'dims': [40, 24], 'strides': [176], 'box': [16, 8]}
    load_case('tma_2d_inner', 'tma_load2d', t2, [8, 4], comment='interior box, padded rows (176-byte stride)')
    load_case('tma_2d_oob', 'tma_load2d', t2, [32, 20], comment='box crosses both upper bounds: zero fill')
    load_case('tma_2d_neg', 'tma_load2d', dict(t2, oob_fill='nan', type='f32'), [-4, -2], comment='negative coordinates, NaN fill')
    load_case('tma_2d_estride', 'tma_load2d', dict(t2, box=[8, 8], element_strides=[1, 2]), [3, 1],
              comment='element strides (1, 2): 8 x 4 elements')
    th = {'type': 'f16', 'dims': [64, 32], 'strides': [128]}
    load_case('tma_2d_sw128', 'tma_load2d', dict(th, box=[64, 8], swizzle='128B'), [0, 3], comment='128B swizzle, 128-byte rows')
    load_case('tma_2d_sw64', 'tma_load2d', dict(th, box=[32, 8], swizzle='64B'), [16, 30], comment='64B swizzle, partly out of bounds')
    load_case('tma_2d_sw32', 'tma_load2d', dict(th, box=[16, 16], swizzle='32B'), [48, 5], comment='32B swizzle')
    load_case('tma_1d', 'tma_load1d', {'type': 'u8', 'dims': [100], 'box': [64]}, [60], comment='1-D bytes, tail out of bounds')
    t3 = {'type': 'u16', 'dims': [24, 5, 7], 'strides': [64, 336], 'box': [8, 4, 3]}
    load_case('tma_3d', 'tma_load3d', t3, [16, 2, 5], comment='3-D, padded strides, crossing dims 1 and 2')
    t5 = {'type': 'u32', 'dims': [8, 3, 4, 2, 3], 'strides': [32, 96, 384, 768], 'box': [4, 2, 2, 2, 2],
          'element_strides': [1, 1, 2, 1, 1]}
    load_case('tma_5d', 'tma_load5d', t5, [4, 1, 1, 1, 2], comment='5-D with an element stride')
    t4 = {'type': 'u32', 'dims': [8, 6, 5, 2], 'strides': [32, 192, 960],
          'im2col': {'lower': [-1, -1], 'upper': [-1, -1], 'channels': 8, 'pixels': 16}}
    load_case('tma_im2col', 'tma_im2col4d', t4, [0, 3, 2, 0], [1, 0], comment='NHWC im2col: 16 pixels x 8 channels')
    store_case('tma_store', 'tma_store2d', dict(t2), [30, 18], comment='store, box crossing the upper bounds')
    store_case('tma_store_sw', 'tma_store2d', dict(th, box=[64, 4], swizzle='128B'), [0, 29], comment='store from a 128B-swizzled box')
    store_case('tma_reduce', 'tma_reduce2d', dict(t2), [-3, 1], reduce=True, comment='reduce .add.u32, box crossing the lower bound')
    # multicast to both CTAs of a cluster
    tm = dict(t2, box=[8, 4])
    es = 4
    img, nbytes = load_image(tm, [5, 6])
    count = tensor_buffer_count(tm)
    spec = {'ptx': 'tma.ptx', 'kernel': 'tma_multicast', 'grid': [2], 'block': [32], 'cluster': [2, 1, 1],
            'buffers': {'t': {'type': 'u32', 'count': count, 'init': IOTA},
                        'out': {'type': 'u32', 'count': 64, 'init': {'fill': 0xdeadbeef}}},
            'tensormaps': {'m': dict(tm, buffer='t')}, 'args': [{'tensormap': 'm'}, {'buffer': 'out'}, {'s32': 5}, {'s32': 6},
                                                              {'u32': nbytes}],
            'outputs': ['out'], 'comment': 'rank 0 multicasts one box to both CTAs (ctaMask 0b11)'}
    write('tma_multicast', spec, {'out': words(img) * 2})
    # tensormap.replace: box dim 1 of a copy in shared memory becomes 2
    tm = dict(t2)
    img, nbytes = load_image(dict(tm, box=[16, 2]), [8, 4])
    spec = {'ptx': 'tma.ptx', 'kernel': 'tma_replace', 'grid': [1], 'block': [1],
            'buffers': {'t': {'type': 'u32', 'count': tensor_buffer_count(tm),
                              'init': IOTA},
                        'out': {'type': 'u32', 'count': 64, 'init': {'fill': 0xdeadbeef}},
                        'gm': {'type': 'u8', 'count': 128, 'init': 'zero'}},
            'tensormaps': {'m': dict(tm, buffer='t')}, 'args': [{'tensormap': 'm'}, {'buffer': 'out'}, {'s32': 8}, {'s32': 4},
                                                              {'u32': nbytes}, {'buffer': 'gm'}],
            'outputs': ['out'], 'comment': 'tensormap.replace.tile.box_dim on a shared-memory copy, then a load through it'}
    write('tma_replace', spec, {'out': words(img) + [0xdeadbeef] * (64 - nbytes // 4)})
    with open(MANIFEST, 'w') as f:
        f.write(''.join(name + '\n' for name in sorted(written)))


if __name__ == '__main__':
    main()
