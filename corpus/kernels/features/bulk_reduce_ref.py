#!/usr/bin/env python3
"""Generator and independent reference for bulk_reduce.ptx (non-tensor
cp.reduce.async.bulk, PTX ISA 9.7.9.25.4.2 in the 9.1 numbering of
docs.nvidia.com/cuda/parallel-thread-execution).

bulk_reduce_global: 32 threads copy `src` into shared memory, fence.proxy.async,
bar.sync; thread 0 then issues one cp.reduce.async.bulk.global.shared::cta
.bulk_group per form below (every .redOp/.type the ISA's table allows for a
.global destination), each on its own 16-byte chunk of `dst` (the first,
add.u32, on 32 bytes + the `bump` argument), then commit_group/wait_group 0.

bulk_reduce_cluster: a cluster of 2 CTAs. each CTA fills its `csrc` from `src` and
fences (fence.proxy.async.shared::cta, when bit 0 of the `fence` argument is
set); CTA 0 fills its `acc` from `init` and fences (bit 1),
inits its mbarrier and expects 208 transaction bytes; after barrier.cluster
thread 0 of CTA 1 issues one cp.reduce.async.bulk.shared::cluster.shared::cta
.mbarrier::complete_tx::bytes per form the table allows for a
.shared::cluster destination (12 forms, 192 bytes) into CTA 0's `acc`, and
thread 0 of CTA 0 adds (.add.u32) its own 16 bytes into chunk 0 (the two
reductions of chunk 0 are atomic and commute). CTA 0 waits for the phase and
copies acc to `cout`.

The expected values follow the ISA text: integer .add wraps; .min/.max compare
as the type says; .inc/.dec are (old >= b) ? 0 : old+1 and
(old == 0 || old > b) ? b : old-1 (atom's definitions, which the text refers
to with "return a result in the range [0..x]"); .add.f32 rounds to nearest
even and "flushes subnormal inputs and results to sign-preserving zero";
.add.noftz.f16/.bf16 "preserves input and result subnormals"; .add.f64 is
IEEE round to nearest even; f16/bf16 .min/.max are the min/max instruction's
(a NaN operand yields the other operand). Arithmetic here is exact
(fractions) with round-to-nearest-even written out below, independent of the
interpreter. Run to regenerate bulk_reduce.ptx, bulk_reduce_*.json and
.expected.json (deterministic)."""
import json, os, struct
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = os.path.join(HERE, '..', '..', '..', 'tests', 'interp', 'faults')

# ---- floating point formats: (exponent bits, mantissa bits) ----
FMT = {'f16': (5, 10), 'bf16': (8, 7), 'f32': (8, 23), 'f64': (11, 52)}
ES = {'b32': 4, 'u32': 4, 's32': 4, 'b64': 8, 'u64': 8, 's64': 8, 'f16': 2, 'bf16': 2, 'f32': 4, 'f64': 8}


def fdecode(bits, ty):
    e, m = FMT[ty]
    sign = bits >> (e + m) & 1
    ex = bits >> m & ((1 << e) - 1)
    man = bits & ((1 << m) - 1)
    bias = (1 << (e - 1)) - 1
    if ex == (1 << e) - 1:
        return ('nan' if man else ('inf', sign))
    if ex == 0:
        v = Fraction(man, 1 << m) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(man, 1 << m)) * Fraction(2) ** (ex - bias)
    return (-v if sign else v, sign)


def fencode(v, neg_zero, ty):
    """Rounds the exact value v to nearest even in format ty."""
    e, m = FMT[ty]
    bias = (1 << (e - 1)) - 1
    sign = 1 if v < 0 or (v == 0 and neg_zero) else 0
    a = abs(v)
    if a == 0:
        return sign << (e + m)
    ex = 1 - bias  # find the exponent of a (normal range) or the subnormal one
    while a >= Fraction(2) ** (ex + 1):
        ex += 1
    while a < Fraction(2) ** ex and ex > 1 - bias:
        ex -= 1
    q = a / Fraction(2) ** ex * (1 << m)  # significand in units of the last place
    n = q.numerator // q.denominator
    r = q - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n & 1):
        n += 1
    if n >= (2 << m):
        n >>= 1
        ex += 1
    if ex > bias:
        return sign << (e + m) | ((1 << e) - 1) << m  # overflow: infinity
    if n < (1 << m):
        return sign << (e + m) | n  # subnormal
    return sign << (e + m) | (ex + bias) << m | (n - (1 << m))


def is_sub(bits, ty):
    e, m = FMT[ty]
    return (bits >> m & ((1 << e) - 1)) == 0 and bits & ((1 << m) - 1) != 0


def fadd(a, b, ty, ftz):
    e, m = FMT[ty]
    sbit = 1 << (e + m)
    if ftz:
        a = a & sbit if is_sub(a, ty) else a
        b = b & sbit if is_sub(b, ty) else b
    (va, sa), (vb, sb) = fdecode(a, ty), fdecode(b, ty)
    s = va + vb
    r = fencode(s, s == 0 and sa and sb, ty)  # -0 + -0 = -0; x + -x = +0 (RN)
    if ftz and is_sub(r, ty):
        r &= sbit
    return r


def fminmax(a, b, ty, is_min):
    da, db = fdecode(a, ty), fdecode(b, ty)
    assert da != 'nan' or db != 'nan'
    if da == 'nan':
        return b
    if db == 'nan':
        return a
    val = lambda d: (float('-inf') if d[1] else float('inf')) if d[0] == 'inf' else d[0]
    assert val(da) != val(db) or a == b, 'no zero-sign ties in the data'
    less = val(da) < val(db)
    return a if less == is_min else b


def apply(op, ty, old, b):
    es = ES[ty]
    bits = 8 * es
    mask = (1 << bits) - 1
    sx = lambda x: x - (1 << bits) if x >> (bits - 1) else x
    if ty in FMT:
        if op == 'add':
            return fadd(old, b, ty, ty == 'f32')
        return fminmax(old, b, ty, op == 'min')
    if op == 'add':
        return (old + b) & mask
    if op in ('min', 'max'):
        key = sx if ty[0] == 's' else (lambda x: x)
        less = key(old) < key(b)
        return old if less == (op == 'min') else b
    if op == 'inc':
        return 0 if old >= b else old + 1
    if op == 'dec':
        return b if old == 0 or old > b else old - 1
    return {'and': old & b, 'or': old | b, 'xor': old ^ b}[op]


def pack(vals, es):
    return b''.join(v.to_bytes(es, 'little') for v in vals)


def words(bs):
    return [int.from_bytes(bs[i:i + 4], 'little') for i in range(0, len(bs), 4)]


def f32(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


def f64(x):
    return struct.unpack('<Q', struct.pack('<d', x))[0]


M32, M64 = 0xffffffff, 0xffffffffffffffff
# (op, type, ptx suffix, [(dst, src) element bit patterns]): 16 bytes each
# except the first (32 bytes); every form of the .global table.
GLOBAL = [
    ('add', 'u32', 'add.u32', [(M32, 1), (1, 2), (100, M32 - 15), (7, 3), (0, 0), (5, 6), (1 << 31, 1 << 31), (9, 10)]),
    ('add', 's32', 'add.s32', [((-5) & M32, 3), (7, (-9) & M32), ((1 << 31) - 1, 1), (0, (-1) & M32)]),
    ('add', 'u64', 'add.u64', [(M64, 2), ((1 << 40) + 3, (1 << 33) + 4)]),
    # f32: normal sum; a subnormal input flushed; two negative subnormal
    # inputs give -0; a subnormal result (-2^-127) flushed to -0.
    ('add', 'f32', 'add.f32', [(f32(1.5), f32(2.25)), (0x00000001, f32(1.0)), (0x80000005, 0x80000003),
                              (0x00800000, 0x80c00000)]),
    # f64: 1.25 + 2.5; subnormals are not flushed (0x1 + 0x1 = 0x2).
    ('add', 'f64', 'add.f64', [(f64(1.25), f64(2.5)), (1, 1)]),
    # f16: 1 + 0.5; subnormal + subnormal kept; 65504 + 65504 overflows to
    # inf; -0 + -0 = -0; 1 + 2^-10 exact; 1 + 2^-11 a tie to even (1.0);
    # 1 + 3*2^-11 a tie to even (1 + 2^-9); -1 + 1 = +0.
    ('add', 'f16', 'add.noftz.f16', [(0x3c00, 0x3800), (0x0001, 0x0001), (0x7bff, 0x7bff), (0x8000, 0x8000),
                                     (0x3c00, 0x1400), (0x3c00, 0x1000), (0x3c00, 0x1600), (0xbc00, 0x3c00)]),
    # bf16: 1 + 0.5; subnormals kept; 1 + 2^-8 a tie to even (1.0); 1 + 3*2^-8 a
    # tie to even (1 + 2^-6); -2 + 0.25; max finite doubled = inf; -0 + -0;
    # 3 + 3.
    ('add', 'bf16', 'add.noftz.bf16', [(0x3f80, 0x3f00), (0x0001, 0x0003), (0x3f80, 0x3b80), (0x3f80, 0x3c40),
                                       (0xc000, 0x3e80), (0x7f7f, 0x7f7f), (0x8000, 0x8000), (0x4040, 0x4040)]),
    ('min', 'u32', 'min.u32', [(5, 9), (9, 5), (M32, 0), (0, M32)]),
    ('max', 'u32', 'max.u32', [(5, 9), (9, 5), (M32, 0), (0, M32)]),
    ('min', 's32', 'min.s32', [((-1) & M32, 1), (1, (-1) & M32), (1 << 31, (1 << 31) - 1), (3, 3)]),
    ('max', 's32', 'max.s32', [((-1) & M32, 1), (1, (-1) & M32), (1 << 31, (1 << 31) - 1), (3, 4)]),
    ('min', 'u64', 'min.u64', [(M64, 1), (1 << 40, (1 << 40) + 1)]),
    ('max', 'u64', 'max.u64', [(M64, 1), (1 << 40, (1 << 40) + 1)]),
    ('min', 's64', 'min.s64', [(M64, 1), (1 << 63, (1 << 63) - 1)]),
    ('max', 's64', 'max.s64', [(M64, 1), (1 << 63, (1 << 63) - 1)]),
    # f16/bf16 min/max: ordered pairs, negative values, one NaN operand
    # (the result is the other operand), infinities.
    ('min', 'f16', 'min.f16', [(0x3c00, 0xc000), (0xc000, 0x3c00), (0x7e00, 0x3800), (0x3800, 0x7e00),
                               (0x7c00, 0x3c00), (0xfc00, 0x3c00), (0x0001, 0x0002), (0x4200, 0x4100)]),
    ('max', 'f16', 'max.f16', [(0x3c00, 0xc000), (0xc000, 0x3c00), (0x7e00, 0x3800), (0x3800, 0x7e00),
                               (0x7c00, 0x3c00), (0xfc00, 0x3c00), (0x0001, 0x0002), (0x4200, 0x4100)]),
    ('min', 'bf16', 'min.bf16', [(0x3f80, 0xc000), (0xc000, 0x3f80), (0x7fc0, 0x3f00), (0x3f00, 0x7fc0),
                                 (0x7f80, 0x3f80), (0xff80, 0x3f80), (0x0001, 0x0002), (0x4040, 0x4020)]),
    ('max', 'bf16', 'max.bf16', [(0x3f80, 0xc000), (0xc000, 0x3f80), (0x7fc0, 0x3f00), (0x3f00, 0x7fc0),
                                 (0x7f80, 0x3f80), (0xff80, 0x3f80), (0x0001, 0x0002), (0x4040, 0x4020)]),
    ('inc', 'u32', 'inc.u32', [(0, 5), (5, 5), (10, 5), (3, 0)]),
    ('dec', 'u32', 'dec.u32', [(0, 5), (5, 5), (10, 5), (3, 7)]),
    ('and', 'b32', 'and.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
    ('or', 'b32', 'or.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
    ('xor', 'b32', 'xor.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
    ('and', 'b64', 'and.b64', [(0xf0f0f0f00f0f0f0f, 0xff00ff00ff00ff00), (M64, 0x123456789abcdef0)]),
    ('or', 'b64', 'or.b64', [(0xf0f0f0f00f0f0f0f, 0xff00ff00ff00ff00), (M64, 0x123456789abcdef0)]),
    ('xor', 'b64', 'xor.b64', [(0xf0f0f0f00f0f0f0f, 0xff00ff00ff00ff00), (M64, 0x123456789abcdef0)]),
]
# Every form of the .shared::cluster table (12 chunks of 16 bytes).
CLUSTER = [
    ('add', 'u32', 'add.u32', [(M32, 1), (1, 2), (100, 200), (7, 3)]),
    ('add', 's32', 'add.s32', [((-5) & M32, 3), (7, (-9) & M32), ((1 << 31) - 1, 1), (0, (-1) & M32)]),
    ('add', 'u64', 'add.u64', [(M64, 2), ((1 << 40) + 3, (1 << 33) + 4)]),
    ('min', 'u32', 'min.u32', [(5, 9), (9, 5), (M32, 0), (0, M32)]),
    ('max', 'u32', 'max.u32', [(5, 9), (9, 5), (M32, 0), (0, M32)]),
    ('min', 's32', 'min.s32', [((-1) & M32, 1), (1, (-1) & M32), (1 << 31, (1 << 31) - 1), (3, 3)]),
    ('max', 's32', 'max.s32', [((-1) & M32, 1), (1, (-1) & M32), (1 << 31, (1 << 31) - 1), (3, 4)]),
    ('inc', 'u32', 'inc.u32', [(0, 5), (5, 5), (10, 5), (3, 0)]),
    ('dec', 'u32', 'dec.u32', [(0, 5), (5, 5), (10, 5), (3, 7)]),
    ('and', 'b32', 'and.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
    ('or', 'b32', 'or.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
    ('xor', 'b32', 'xor.b32', [(0xf0f0f0f0, 0xff00ff00), (M32, 0x12345678), (0, M32), (0xa5a5a5a5, 0x5a5a5a5a)]),
]
OWN = [1000, 2000, 3000, 4000]  # CTA 0's own add.u32 into chunk 0


def layout(forms):
    """(offset, size) of each form and the dst/src images."""
    dst, src, where = b'', b'', []
    for op, ty, sfx, elems in forms:
        es = ES[ty]
        where.append((len(dst), len(elems) * es))
        dst += pack([d for d, s in elems], es)
        src += pack([s for d, s in elems], es)
        assert len(dst) % 16 == 0
    return dst, src, where


def result(forms):
    out = b''
    for op, ty, sfx, elems in forms:
        out += pack([apply(op, ty, d, s) for d, s in elems], ES[ty])
    return out


def gen_ptx():
    gdst, gsrc, gw = layout(GLOBAL)
    cdst, csrc, cw = layout(CLUSTER)
    L = []
    w = L.append
    w('// GENERATED by bulk_reduce_ref.py; do not edit.')
    w('// Non-tensor cp.reduce.async.bulk (PTX ISA 9.7.9.25.4.2): every .redOp/.type')
    w('// form to a .global destination (.bulk_group) and to a .shared::cluster')
    w('// destination (.mbarrier::complete_tx::bytes). Expected outputs from')
    w('// bulk_reduce_ref.py; launch specs bulk_reduce_*.json. Assembles with')
    w('// ptxas -arch=sm_90a.')
    w('.version 8.3')
    w('.target sm_90a')
    w('.address_size 64')
    w('')
    w('.visible .entry bulk_reduce_global(.param .u64 src_p, .param .u64 dst_p, .param .u32 bump)')
    w('{')
    w('  .shared .align 16 .b8 sbuf[%d];' % len(gsrc))
    w('  .reg .pred %p<4>;')
    w('  .reg .b32 %r<8>;')
    w('  .reg .b64 %rd<8>;')
    w('  ld.param.u64 %rd1, [src_p];')
    w('  cvta.to.global.u64 %rd1, %rd1;')
    w('  ld.param.u64 %rd2, [dst_p];')
    w('  cvta.to.global.u64 %rd2, %rd2;')
    w('  ld.param.u32 %r5, [bump];')
    w('  mov.u32 %r1, %tid.x;')
    w('  mov.u32 %r2, sbuf;')
    w('  mov.u32 %r3, %r1;')
    w('COPY:')
    w('  setp.ge.u32 %%p1, %%r3, %d;' % (len(gsrc) // 4))
    w('  @%p1 bra COPIED;')
    w('  mul.wide.u32 %rd3, %r3, 4;')
    w('  add.u64 %rd4, %rd1, %rd3;')
    w('  ld.global.u32 %r4, [%rd4];')
    w('  shl.b32 %r6, %r3, 2;')
    w('  add.u32 %r6, %r2, %r6;')
    w('  st.shared.u32 [%r6], %r4;')
    w('  add.u32 %r3, %r3, 32;')
    w('  bra COPY;')
    w('COPIED:')
    w('  fence.proxy.async.shared::cta;  // generic writes of sbuf before the async-proxy reads')
    w('  bar.sync 0;')
    w('  setp.ne.u32 %p2, %r1, 0;')
    w('  @%p2 bra END;')
    w('  add.u32 %%r7, %%r5, %d;  // size of the first form + bump' % gw[0][1])
    for k, ((op, ty, sfx, el), (off, size)) in enumerate(zip(GLOBAL, gw)):
        sz = '%r7' if k == 0 else str(size)
        w('  cp.reduce.async.bulk.global.shared::cta.bulk_group.%s [%%rd2+%d], [sbuf+%d], %s;' % (sfx, off, off, sz))
    w('  cp.async.bulk.commit_group;')
    w('  cp.async.bulk.wait_group 0;')
    w('END:')
    w('  ret;')
    w('}')
    w('')
    nbytes = len(cdst)
    tx = nbytes + 16
    w('.visible .entry bulk_reduce_cluster(.param .u64 init_p, .param .u64 src_p, .param .u64 out_p, .param .u32 fence)')
    w('  .reqnctapercluster 2, 1, 1')
    w('{')
    w('  .shared .align 16 .b8 acc[%d];' % nbytes)
    w('  .shared .align 16 .b8 csrc[%d];' % nbytes)
    w('  .shared .align 8 .b64 mbar;')
    w('  .reg .pred %p<8>;')
    w('  .reg .b32 %r<16>;')
    w('  .reg .b64 %rd<12>;')
    w('  ld.param.u64 %rd1, [init_p];')
    w('  cvta.to.global.u64 %rd1, %rd1;')
    w('  ld.param.u64 %rd2, [src_p];')
    w('  cvta.to.global.u64 %rd2, %rd2;')
    w('  ld.param.u64 %rd3, [out_p];')
    w('  cvta.to.global.u64 %rd3, %rd3;')
    w('  ld.param.u32 %r9, [fence];')
    w('  mov.u32 %r1, %tid.x;')
    w('  mov.u32 %r2, %cluster_ctarank;')
    w('  setp.eq.u32 %p1, %r1, 0;')
    w('  setp.eq.u32 %p2, %r2, 0;')
    w('  mov.u32 %r3, acc;')
    w('  mov.u32 %r4, csrc;')
    w('  mov.u32 %r5, mbar;')
    w('  // CTA r: csrc = src words [%d r, %d r + %d); CTA 0: acc = init' % (nbytes // 4, nbytes // 4, nbytes // 4))
    w('  mul.lo.u32 %%r10, %%r2, %d;' % (nbytes // 4))
    w('  mov.u32 %r6, %r1;')
    w('COPY:')
    w('  setp.ge.u32 %%p3, %%r6, %d;' % (nbytes // 4))
    w('  @%p3 bra COPIED;')
    w('  add.u32 %r11, %r6, %r10;')
    w('  mul.wide.u32 %rd4, %r11, 4;')
    w('  add.u64 %rd5, %rd2, %rd4;')
    w('  ld.global.u32 %r7, [%rd5];')
    w('  shl.b32 %r8, %r6, 2;')
    w('  add.u32 %r12, %r4, %r8;')
    w('  st.shared.u32 [%r12], %r7;')
    w('  add.u32 %r6, %r6, 32;')
    w('  bra COPY;')
    w('COPIED:')
    w('  // fence bit 0: order the generic writes of csrc before the async-proxy reads')
    w('  and.b32 %r9, %r9, 1;')
    w('  setp.ne.u32 %p5, %r9, 0;')
    w('  @%p5 fence.proxy.async.shared::cta;')
    w('  @!%p2 bra INITED;')
    w('  mov.u32 %r6, %r1;')
    w('INIT:')
    w('  setp.ge.u32 %%p3, %%r6, %d;' % (nbytes // 4))
    w('  @%p3 bra INIT_DONE;')
    w('  mul.wide.u32 %rd4, %r6, 4;')
    w('  add.u64 %rd5, %rd1, %rd4;')
    w('  ld.global.u32 %r7, [%rd5];')
    w('  shl.b32 %r8, %r6, 2;')
    w('  add.u32 %r12, %r3, %r8;')
    w('  st.shared.u32 [%r12], %r7;')
    w('  add.u32 %r6, %r6, 32;')
    w('  bra INIT;')
    w('INIT_DONE:')
    w('  // fence bit 1: order the generic writes of acc before the async-proxy reductions')
    w('  ld.param.u32 %r9, [fence];')
    w('  and.b32 %r9, %r9, 2;')
    w('  setp.ne.u32 %p7, %r9, 0;')
    w('  @%p7 fence.proxy.async.shared::cta;')
    w('INITED:')
    w('  and.pred %p4, %p1, %p2;')
    w('  @%p4 mbarrier.init.shared::cta.b64 [%r5], 1;')
    w('  @%%p4 mbarrier.arrive.expect_tx.shared::cta.b64 %%rd6, [%%r5], %d;' % tx)
    w('  barrier.cluster.arrive;')
    w('  barrier.cluster.wait;')
    w('  @!%p1 bra WAIT;')
    w('  mapa.shared::cluster.u32 %r13, %r3, 0;  // CTA 0\'s acc')
    w('  mapa.shared::cluster.u32 %r14, %r5, 0;  // and its mbarrier')
    w('  @%p2 bra OWN;')
    for (op, ty, sfx, el), (off, size) in zip(CLUSTER, cw):
        w('  add.u32 %%r15, %%r13, %d;' % off)
        w('  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.%s [%%r15], [csrc+%d], %d, [%%r14];'
          % (sfx, off, size))
    w('  bra WAIT;')
    w('OWN:')
    w('  cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r13], [csrc], 16, [%r14];')
    w('WAIT:')
    w('  @!%p2 bra DONE;')
    w('  mbarrier.try_wait.parity.shared::cta.b64 %p6, [%r5], 0;')
    w('  @!%p6 bra WAIT;')
    w('  mov.u32 %r6, %r1;')
    w('OUT:')
    w('  setp.ge.u32 %%p3, %%r6, %d;' % (nbytes // 4))
    w('  @%p3 bra DONE;')
    w('  shl.b32 %r8, %r6, 2;')
    w('  add.u32 %r12, %r3, %r8;')
    w('  ld.shared.u32 %r7, [%r12];')
    w('  mul.wide.u32 %rd4, %r6, 4;')
    w('  add.u64 %rd5, %rd3, %rd4;')
    w('  st.global.u32 [%rd5], %r7;')
    w('  add.u32 %r6, %r6, 32;')
    w('  bra OUT;')
    w('DONE:')
    w('  barrier.cluster.arrive;  // no CTA exits while a reduction may still read or write its shared memory')
    w('  barrier.cluster.wait;')
    w('  ret;')
    w('}')
    return '\n'.join(L) + '\n'


def dump(name, obj):
    with open(os.path.join(HERE, name), 'w') as f:
        json.dump(obj, f)
        f.write('\n')


def main():
    with open(os.path.join(HERE, 'bulk_reduce.ptx'), 'w') as f:
        f.write(gen_ptx())
    gdst, gsrc, _ = layout(GLOBAL)
    dump('bulk_reduce_global.json', {
        'ptx': 'bulk_reduce.ptx', 'kernel': 'bulk_reduce_global', 'grid': [1], 'block': [32],
        'buffers': {'src': {'type': 'u32', 'count': len(gsrc) // 4, 'init': {'values': words(gsrc)}},
                    'dst': {'type': 'u32', 'count': len(gdst) // 4, 'init': {'values': words(gdst)}}},
        'args': [{'buffer': 'src'}, {'buffer': 'dst'}, {'u32': 0}], 'outputs': ['dst'],
        'comment': 'every .global form of cp.reduce.async.bulk (bulk_reduce_ref.py)'})
    dump('bulk_reduce_global.expected.json', {'dst': words(result(GLOBAL))})
    cdst, csrc, _ = layout(CLUSTER)
    own = pack(OWN, 4)
    res = bytearray(result(CLUSTER))
    for k in range(4):  # CTA 0's add.u32 into chunk 0 (commutes with CTA 1's)
        v = int.from_bytes(res[4 * k:4 * k + 4], 'little')
        res[4 * k:4 * k + 4] = ((v + OWN[k]) & M32).to_bytes(4, 'little')
    src0 = own + bytes(len(csrc) - 16)
    spec = {
        'ptx': 'bulk_reduce.ptx', 'kernel': 'bulk_reduce_cluster', 'grid': [2], 'block': [32], 'cluster': [2, 1, 1],
        'buffers': {'init': {'type': 'u32', 'count': len(cdst) // 4, 'init': {'values': words(cdst)}},
                    'src': {'type': 'u32', 'count': len(csrc) // 2, 'init': {'values': words(src0 + csrc)}},
                    'out': {'type': 'u32', 'count': len(cdst) // 4, 'init': {'fill': 3735928559}}},
        'args': [{'buffer': 'init'}, {'buffer': 'src'}, {'buffer': 'out'}, {'u32': 3}], 'outputs': ['out'],
        'comment': 'every .shared::cluster form of cp.reduce.async.bulk from CTA 1 into CTA 0, plus CTA 0 into itself'}
    dump('bulk_reduce_cluster.json', spec)
    dump('bulk_reduce_cluster.expected.json', {'out': words(bytes(res))})
    # Faults: no fence.proxy.async before the async-proxy reduction of acc
    # (a data race of the two proxies, PTX ISA 8.6), and a size that is not
    # a multiple of 16 (undefined, 9.7.9.25.4.2).
    for name, fence, what in (('src', 2, 'read'), ('dst', 1, 'write')):
        bad = dict(spec, args=spec['args'][:3] + [{'u32': fence}], outputs=[],
                   comment='bulk_reduce_cluster without fence.proxy.async after the generic writes of %s: a proxy race'
                   % ('csrc' if name == 'src' else 'acc'))
        bad['ptx'] = '../../../corpus/kernels/features/bulk_reduce.ptx'
        bad['_expect_diagnostic'] = 'data-race'
        bad['_expect_message'] = 'async-proxy %s of shared memory' % what
        with open(os.path.join(FAULTS, 'bulk_reduce_nofence_%s.json' % name), 'w') as f:
            json.dump(bad, f)
            f.write('\n')
    g = json.load(open(os.path.join(HERE, 'bulk_reduce_global.json')))
    g.update(ptx='../../../corpus/kernels/features/bulk_reduce.ptx', args=g['args'][:2] + [{'u32': 8}], outputs=[],
             comment='cp.reduce.async.bulk with size 40: not a multiple of 16', _expect_diagnostic='misaligned')
    with open(os.path.join(FAULTS, 'bulk_reduce_size.json'), 'w') as f:
        json.dump(g, f)
        f.write('\n')


if __name__ == '__main__':
    main()
