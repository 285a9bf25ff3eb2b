#!/usr/bin/env python3
"""Generator and independent reference for the wgmma tests (wgmma.ptx and
wgmma_*.json / .expected.json; docs/mma.md "wgmma").

Each kernel wg_<type> runs on one warpgroup (128 threads). It scatters the
logical matrices A (64 x K) and B (K x N, given as its transpose, N x K) from
global memory into shared memory in one of the canonical layouts of PTX ISA
9.7.15.5.1.2 (the address computation is PTX written here from the CuTe
forms of the layouts, not the interpreter's code), builds the matrix
descriptors, and issues wgmma.mma_async with A from shared memory or from
registers, then stores every accumulator register. This script computes the
expected registers from the ISA's fragment formulas (Figures 148-155) and
exact arithmetic: every test value is chosen so that the products and sums
are exact in the destination type, so the result does not depend on the
accumulation policy. Run it to regenerate the files (deterministic)."""
import json, os, random, struct
from fractions import Fraction as Fr

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = [HERE]  # where spec() writes (main's `out`)
RNG = random.Random(12)

# name, atype, btype, dtype, K, N, element bits, A/B values
CONFIGS = [
    ('f16_f32', 'f16', 'f16', 'f32', 16, 16),
    ('f16_f16', 'f16', 'f16', 'f16', 16, 16),
    ('bf16_f32', 'bf16', 'bf16', 'f32', 16, 24),
    ('tf32_f32', 'tf32', 'tf32', 'f32', 8, 16),
    ('e4m3_e5m2_f32', 'e4m3', 'e5m2', 'f32', 32, 16),
    ('e5m2_e4m3_f16', 'e5m2', 'e4m3', 'f16', 32, 8),
    ('s8_u8', 's8', 'u8', 's32', 32, 16),
    ('u8_s8_sat', 'u8', 's8', 's32', 32, 8),
    ('b1', 'b1', 'b1', 's32', 256, 8),
]
BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'e4m3': 8, 'e5m2': 8, 's8': 8, 'u8': 8, 'b1': 1, 'f32': 32, 's32': 32}


def enc(t, v):
    """Bits of the exactly representable value v in type t."""
    if t == 'f16':
        return struct.unpack('<H', struct.pack('<e', float(v)))[0]
    if t in ('f32', 'tf32'):
        b = struct.unpack('<I', struct.pack('<f', float(v)))[0]
        assert Fr(struct.unpack('<f', struct.pack('<I', b))[0]) == v, (t, v)
        return b
    if t == 'bf16':
        b = struct.unpack('<I', struct.pack('<f', float(v)))[0]
        assert b & 0xffff == 0, v
        return b >> 16
    if t in ('e4m3', 'e5m2'):
        eb, mb = (4, 3) if t == 'e4m3' else (5, 2)
        bias = (1 << (eb - 1)) - 1
        s = 0x80 if v < 0 else 0
        a = abs(Fr(v))
        if a == 0:
            return s
        e = 0
        while a >= 2:
            a /= 2; e += 1
        while a < 1:
            a *= 2; e -= 1
        m = (a - 1) * (1 << mb)
        assert m.denominator == 1 and e + bias > 0, (t, v)
        return s | ((e + bias) << mb) | int(m)
    if t in ('s8', 'u8'):
        return v & 0xff
    if t == 's32':
        return v & 0xffffffff
    raise ValueError(t)


def pick(t):
    if t in ('f16', 'bf16', 'tf32'):
        return RNG.randint(-3, 3)
    if t in ('e4m3', 'e5m2'):
        return RNG.choice([0, 0.5, 1, 1.5, 2, -0.5, -1, -1.5, -2])
    if t == 's8':
        return RNG.randint(-128, 127)
    if t == 'u8':
        return RNG.randint(0, 255)
    if t == 'b1':
        return RNG.randint(0, 1)
    raise ValueError(t)


def a_frag_coord(t, i, k, bits):
    """Figure 148/150/152: A register fragment element i of thread t."""
    w, l = t // 32, t % 32
    g, q = l >> 2, l & 3
    if bits == 16:
        r, c = g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)
    elif bits == 32:
        r, c = g + 8 * (i & 1), q + 4 * (i >> 1)
    elif bits == 8:
        r, c = g + 8 * ((i >> 2) & 1), 4 * q + (i & 3) + 16 * (i >> 3)
    else:
        r, c = g + 8 * ((i >> 5) & 1), 32 * q + (i & 31) + 128 * (i >> 6)
    return 16 * w + r, c


def d_coord(t, i):
    """Figure 149: accumulator element i of thread t."""
    w, l = t // 32, t % 32
    g, q = l >> 2, l & 3
    return 16 * w + g + 8 * ((i >> 1) & 1), 2 * q + (i & 1) + 8 * (i >> 2)


def layout(variant, bits, rows, major):
    """Descriptor parameters for a matrix of `rows` x (256 bits of K):
    swizzle W (chunks per line: 1, 2, 4, 8), LBO, SBO, start offset."""
    W = [8, 1, 4, 2][variant % 4]
    if major == 'K':
        if W == 1:
            return dict(W=1, lbo=rows * 16, sbo=128, start=0) if variant % 2 else dict(W=1, lbo=128, sbo=256, start=0)
        start = {8: 32 * (variant % 3), 4: 32 * (variant % 2), 2: 0}[W]   # a k step inside the swizzle line
        return dict(W=W, lbo=16, sbo=128 * W, start=start)
    # MN-major (16-bit types): W chunks of 8 elements along MN, 8 k per group.
    if W == 1:
        return dict(W=1, lbo=128 * (rows // 8), sbo=128, start=0)
    return dict(W=W, lbo=2 * 128 * W, sbo=128 * W, start=0)


SWZ = {1: 0, 8: 1, 4: 2, 2: 3}


def sp_sel(at, form):
    """The sparsity selector of a .sp form: 0 or 1 for 16/32-bit types
    (thread pair T0,T1 or T2,T3), always 0 for 8-bit types (9.7.15.6.1)."""
    return 0 if BITS[at] == 8 else form % 2


def ptx_kernel(name, at, bt, dt, K, N, sparse=False):
    """sparse: wgmma.mma_async.sp (A packed to 64 x K/2; sp-meta from p_meta,
    sp-sel the form's selector, see wgmma_sp_ref.py)."""
    ab = BITS[at]
    nd = N // 4 if dt == 'f16' else N // 2
    half = ab == 16
    eb = 8 if ab == 1 else ab          # b1 matrices are scattered a byte (8 k) at a time
    kx = K // 8 if ab == 1 else K      # scatter elements per row
    kxa, kxb = (kx // 2 if sparse else kx), kx   # .sp: A is packed to K/2 columns
    esz = eb // 8
    st = {1: 'b8', 2: 'b16', 4: 'b32'}[esz]
    shape = f'.m64n{N}k{K}'
    types = f'.{dt}.{at}.{bt}'
    dreg = '%fd' if dt == 'f32' else '%rd'
    dl = '{' + ', '.join(f'{dreg}{i}' for i in range(nd)) + '}'
    al = '{%ra0, %ra1, %ra2, %ra3}'
    tail_ss, tail_rs = [], []
    if half:
        forms = {0: ('ss', '1, 1, 0, 0'), 1: ('ss', '1, 1, 1, 1'), 2: ('ss', '-1, 1, 0, 1'),
                 3: ('rs', '1, -1, 0'), 4: ('rs', '1, 1, 1')}
    elif at in ('tf32', 'e4m3', 'e5m2'):
        forms = {0: ('ss', '1, 1'), 2: ('ss', '-1, 1'), 3: ('rs', '1, -1')}
    else:
        forms = {0: ('ss', None), 3: ('rs', None)}
    sat = '.satfinite' if name.endswith('_sat') else ''
    op = '.and.popc' if at == 'b1' else ''
    L = []
    L.append(f'.visible .entry wg_{name}(.param .u64 p_a, .param .u64 p_b, .param .u64 p_afrag, .param .u64 p_c,')
    L.append('    .param .u64 p_out, .param .u32 p_v, .param .u32 p_sd, .param .u32 p_chain,')
    if sparse:
        L.append('    .param .u32 p_la, .param .u32 p_lb, .param .u64 p_meta)   // p_la/p_lb: W | major << 4 (0 K, 1 MN)')
    else:
        L.append('    .param .u32 p_la, .param .u32 p_lb)   // p_la/p_lb: W | major << 4 (0 K, 1 MN)')
    L.append('{')
    L.append('  .reg .pred %p<8>;')
    L.append('  .reg .b32 %r<64>;')
    L.append('  .reg .b64 %rl<32>;')
    L.append('  .reg .b32 %ra<4>;')
    if sparse:
        L.append('  .reg .b32 %rm;')
    if dt == 'f32':
        L.append(f'  .reg .f32 %fd<{nd}>;')
    else:
        L.append(f'  .reg .b32 %rd<{nd}>;')
    L.append('  mov.u32 %r1, %tid.x;')
    L.append('  mov.u32 %r2, sm;')
    # scatter A then B: matrix j (0 A, 1 B) with `rows` rows; layout params from a table in .param
    for j, (rows, pp, lp, base) in enumerate([(64, 'p_a', 'p_la', 0), (N, 'p_b', 'p_lb', 16384)]):
        lay = 'la' if j == 0 else 'lb'
        kx = kxa if j == 0 else kxb
        L.append(f'  // scatter {"A" if j == 0 else "B^T"}: {rows} x {kx} elements of {esz} bytes')
        L.append(f'  ld.param.u64 %rl1, [{pp}];')
        L.append(f'  ld.param.u32 %r3, [{lp}];')
        L.append('  and.b32 %r4, %r3, 15;              // W')
        L.append('  shr.u32 %r5, %r3, 4;')
        L.append('  and.b32 %r5, %r5, 1;               // MN-major')
        L.append('  shr.u32 %r6, %r3, 8;')
        L.append('  and.b32 %r6, %r6, 0xffff;          // LBO >> 4 ... stored in bytes/16')
        L.append('  shl.b32 %r6, %r6, 4;               // LBO')
        L.append('  shr.u32 %r7, %r3, 24;')
        L.append('  shl.b32 %r7, %r7, 7;               // SBO (a multiple of 128)')
        L.append(f'  ld.param.u32 %r8, [p_v];')
        L.append(f'  shr.u32 %r8, %r8, {8 + 8 * j};')
        L.append('  and.b32 %r8, %r8, 0xff;')
        L.append('  shl.b32 %r8, %r8, 4;               // start offset')
        L.append(f'  add.u32 %r8, %r8, {base};')
        L.append(f'  mov.u32 %r9, %r1;')
        L.append(f'SC{j}:')
        L.append(f'  setp.ge.u32 %p1, %r9, {rows * kx};')
        L.append(f'  @%p1 bra SCD{j};')
        L.append(f'  div.u32 %r10, %r9, {kx};             // mn')
        L.append(f'  rem.u32 %r11, %r9, {kx};             // k')
        L.append(f'  mul.wide.u32 %rl2, %r9, {esz};')
        L.append(f'  add.u64 %rl2, %rl1, %rl2;')
        L.append(f'  ld.global.{st} %r12, [%rl2];')
        L.append(f'  setp.ne.u32 %p2, %r5, 0;')
        L.append(f'  @%p2 bra MN{j};')
        # K-major: ((8,m),(T,2)):((W*T, SBO),(1, W==1 ? LBO : T)) in elements
        L.append(f'  and.b32 %r13, %r10, 7;              // r')
        L.append(f'  shr.u32 %r14, %r10, 3;              // j')
        L.append(f'  div.u32 %r15, %r11, {128 // eb};      // k chunk')
        L.append(f'  rem.u32 %r16, %r11, {128 // eb};      // element in chunk')
        L.append(f'  mul.lo.u32 %r17, %r13, %r4;')
        L.append(f'  shl.b32 %r17, %r17, 4;')
        L.append(f'  mad.lo.u32 %r17, %r14, %r7, %r17;')
        L.append(f'  setp.eq.u32 %p3, %r4, 1;')
        L.append(f'  selp.b32 %r18, %r6, 16, %p3;')
        L.append(f'  mad.lo.u32 %r17, %r15, %r18, %r17;')
        L.append(f'  mad.lo.u32 %r17, %r16, {esz}, %r17;')
        L.append(f'  bra ADDR{j};')
        # MN-major: none ((T,1,m),(8,k)):((1,T,SBO),(T,LBO)); swizzled ((T,W,m),(8,k)):((1,T,LBO),(W*T,SBO))
        L.append(f'MN{j}:')
        L.append(f'  rem.u32 %r13, %r10, {128 // eb};      // element in chunk')
        L.append(f'  div.u32 %r14, %r10, {128 // eb};      // MN chunk')
        L.append(f'  and.b32 %r15, %r11, 7;              // k % 8')
        L.append(f'  shr.u32 %r16, %r11, 3;              // k / 8')
        L.append(f'  mul.lo.u32 %r17, %r13, {esz};')
        L.append(f'  setp.eq.u32 %p3, %r4, 1;')
        L.append(f'  @!%p3 bra MNS{j};')
        L.append(f'  mad.lo.u32 %r17, %r14, %r7, %r17;')
        L.append(f'  mad.lo.u32 %r17, %r15, 16, %r17;')
        L.append(f'  mad.lo.u32 %r17, %r16, %r6, %r17;')
        L.append(f'  bra ADDR{j};')
        L.append(f'MNS{j}:')
        L.append(f'  rem.u32 %r19, %r14, %r4;')
        L.append(f'  mad.lo.u32 %r17, %r19, 16, %r17;')
        L.append(f'  div.u32 %r19, %r14, %r4;')
        L.append(f'  mad.lo.u32 %r17, %r19, %r6, %r17;')
        L.append(f'  mul.lo.u32 %r19, %r15, %r4;')
        L.append(f'  mad.lo.u32 %r17, %r19, 16, %r17;')
        L.append(f'  mad.lo.u32 %r17, %r16, %r7, %r17;')
        L.append(f'ADDR{j}:')
        L.append(f'  add.u32 %r17, %r17, %r8;')
        L.append(f'  add.u32 %r17, %r17, %r2;            // shared address')
        L.append(f'  sub.u32 %r19, %r4, 1;')
        L.append(f'  shr.u32 %r20, %r17, 7;')
        L.append(f'  and.b32 %r20, %r20, %r19;')
        L.append(f'  shl.b32 %r20, %r20, 4;')
        L.append(f'  xor.b32 %r17, %r17, %r20;           // Swizzle<log2 W, 4, 3>')
        L.append(f'  st.shared.{st} [%r17], %r12;')
        L.append(f'  add.u32 %r9, %r9, 128;')
        L.append(f'  bra SC{j};')
        L.append(f'SCD{j}:')
        # descriptor: start, LBO, SBO, swizzle code
        L.append(f'  add.u32 %r21, %r2, %r8;')
        L.append(f'  shr.u32 %r21, %r21, 4;')
        L.append(f'  cvt.u64.u32 %rl{10 + j}, %r21;')
        L.append(f'  shr.u32 %r22, %r6, 4;')
        L.append(f'  cvt.u64.u32 %rl3, %r22;')
        L.append(f'  shl.b64 %rl3, %rl3, 16;')
        L.append(f'  or.b64 %rl{10 + j}, %rl{10 + j}, %rl3;')
        L.append(f'  shr.u32 %r22, %r7, 4;')
        L.append(f'  cvt.u64.u32 %rl3, %r22;')
        L.append(f'  shl.b64 %rl3, %rl3, 32;')
        L.append(f'  or.b64 %rl{10 + j}, %rl{10 + j}, %rl3;')
        L.append(f'  setp.eq.u32 %p4, %r4, 8;')
        L.append(f'  selp.b64 %rl4, 1, 0, %p4;')
        L.append(f'  setp.eq.u32 %p4, %r4, 4;')
        L.append(f'  @%p4 mov.b64 %rl4, 2;')
        L.append(f'  setp.eq.u32 %p4, %r4, 2;')
        L.append(f'  @%p4 mov.b64 %rl4, 3;')
        L.append(f'  shl.b64 %rl4, %rl4, 62;')
        L.append(f'  or.b64 %rl{10 + j}, %rl{10 + j}, %rl4;')
    # C and A fragments of this thread
    L.append('  ld.param.u64 %rl5, [p_c];')
    L.append(f'  mul.wide.u32 %rl6, %r1, {4 * nd};')
    L.append('  add.u64 %rl5, %rl5, %rl6;')
    for i in range(nd):
        L.append(f'  ld.global.{"f32" if dt == "f32" else "b32"} {dreg}{i}, [%rl5+{4 * i}];')
    L.append('  ld.param.u64 %rl7, [p_afrag];')
    L.append('  mul.wide.u32 %rl6, %r1, 16;')
    L.append('  add.u64 %rl7, %rl7, %rl6;')
    for i in range(4):
        L.append(f'  ld.global.b32 %ra{i}, [%rl7+{4 * i}];')
    if sparse:
        L.append('  ld.param.u64 %rl9, [p_meta];')
        L.append('  mul.wide.u32 %rl6, %r1, 4;')
        L.append('  add.u64 %rl9, %rl9, %rl6;')
        L.append('  ld.global.b32 %rm, [%rl9];             // this thread\'s sp-meta register')
    L.append('  ld.param.u32 %r30, [p_sd];')
    L.append('  setp.ne.u32 %p5, %r30, 0;           // scale-d')
    L.append('  ld.param.u32 %r31, [p_v];')
    L.append('  and.b32 %r31, %r31, 0xff;           // form')
    L.append('  ld.param.u32 %r32, [p_chain];')
    L.append('  add.u32 %r32, %r32, 1;              // wgmma.mma_async issued this many times')
    L.append('  fence.proxy.async.shared::cta;      // generic writes -> async-proxy reads by wgmma')
    L.append('  bar.sync 0;')
    L.append('  wgmma.fence.sync.aligned;')
    L.append('AGAIN:')
    for v, (kind, tail) in forms.items():
        L.append(f'  setp.eq.u32 %p6, %r31, {v};')
        L.append(f'  @%p6 bra F{v};')
    L.append('  trap;')
    for v, (kind, tail) in forms.items():
        L.append(f'F{v}:')
        src = '%rl10' if kind == 'ss' else al
        if sparse:
            args = f'{dl}, {src}, %rl11, %rm, {sp_sel(at, v)}, %p5' + (f', {tail}' if tail else '')
            L.append(f'  wgmma.mma_async.sp.sync.aligned{shape}{types}{sat} {args};')
        else:
            args = f'{dl}, {src}, %rl11, %p5' + (f', {tail}' if tail else '')
            L.append(f'  wgmma.mma_async.sync.aligned{shape}{types}{op}{sat} {args};')
        L.append('  bra ISSUED;')
    L.append('ISSUED:')
    L.append('  sub.u32 %r32, %r32, 1;')
    L.append('  setp.ne.u32 %p7, %r32, 0;')
    L.append('  @%p7 bra AGAIN;')
    L.append('  wgmma.commit_group.sync.aligned;')
    L.append('  wgmma.wait_group.sync.aligned 0;')
    L.append('  ld.param.u64 %rl8, [p_out];')
    L.append(f'  mul.wide.u32 %rl6, %r1, {4 * nd};')
    L.append('  add.u64 %rl8, %rl8, %rl6;')
    for i in range(nd):
        L.append(f'  st.global.{"f32" if dt == "f32" else "b32"} [%rl8+{4 * i}], {dreg}{i};')
    L.append('  ret;')
    L.append('}')
    return '\n'.join(L), forms, nd


def spec(name, at, bt, dt, K, N, form, kind, la, lb, sd, chain, tag):
    ab = BITS[at]
    nd = N // 4 if dt == 'f16' else N // 2
    # Buffers repeat short lists cyclically (docs/launch-spec.md), which keeps
    # the specs small; the lengths are primes, so rows and columns differ.
    acyc = [pick(at) for _ in range(61)]
    bcyc = [pick(bt) for _ in range(53)]
    A = [[acyc[(r * K + k) % 61] for k in range(K)] for r in range(64)]
    Bt = [[bcyc[(n * K + k) % 53] for k in range(K)] for n in range(N)]
    if at == 's8' or at == 'u8':
        cvals = [RNG.randint(-2**31, 2**31 - 1) for _ in range(128 * (N // 2))]
        if name.endswith('_sat'):
            cvals = [RNG.choice([2**31 - 1 - RNG.randint(0, 300000), -2**31 + RNG.randint(0, 300000)]) for _ in cvals]
    elif at == 'b1':
        cvals = [RNG.randint(0, 1000) for _ in range(128 * (N // 2))]
    else:
        cvals = [RNG.randint(-8, 8) for _ in range(128 * (N // 2))]
    negate_a = form in (2,) and at not in ('s8', 'u8', 'b1')
    negate_b = form == 3 and at not in ('s8', 'u8', 'b1')
    cvals = cvals[:37]
    C = [[0] * N for _ in range(64)]
    # C in fragment order: element i of thread t (the c buffer repeats the
    # 37 packed registers cyclically)
    dper = 2 if dt == 'f16' else 1
    for t in range(128):
        for i in range(N // 2):
            r, c = d_coord(t, i)
            reg = (t * nd + i // dper) % 37
            C[r][c] = cvals[(reg * dper + i % dper) % len(cvals)] if dper == 2 else cvals[reg]
    if at == 'b1':
        abyte = [RNG.randint(0, 255) for _ in range(61)]
        bbyte = [RNG.randint(0, 255) for _ in range(53)]
        A = [[(abyte[(r * K // 8 + k // 8) % 61] >> (k % 8)) & 1 for k in range(K)] for r in range(64)]
        Bt = [[(bbyte[(n * K // 8 + k // 8) % 53] >> (k % 8)) & 1 for k in range(K)] for n in range(N)]
    D = [[0] * N for _ in range(64)]
    for r in range(64):
        for c in range(N):
            if at == 'b1':
                s = sum(A[r][k] & Bt[c][k] for k in range(K))
            else:
                s = sum(Fr(A[r][k]) * Fr(Bt[c][k]) for k in range(K))
                if negate_a != negate_b:
                    s = -s
            acc = C[r][c] if sd else 0
            for _ in range(chain + 1):
                acc = s + acc
            if dt == 's32':
                acc = int(acc)
                if name.endswith('_sat'):
                    acc = max(-2**31, min(2**31 - 1, acc))
            D[r][c] = acc
    # buffers
    def ebits(t, v):
        return v if t == 'b1' else enc(t, v)
    if at == 'b1':
        # one byte = 8 consecutive k, LSB first; a cyclic list of bytes
        abuf = {'type': 'u8', 'count': 64 * K // 8, 'init': {'values': abyte}}
        bbuf = {'type': 'u8', 'count': N * K // 8, 'init': {'values': bbyte}}
    else:
        abuf = {'type': {8: 'u8', 16: 'u16', 32: 'u32'}[ab], 'count': 64 * K, 'init': {'values': [enc(at, x) for x in acyc]}}
        bbuf = {'type': {8: 'u8', 16: 'u16', 32: 'u32'}[BITS[bt]], 'count': N * K,
                'init': {'values': [enc(bt, x) for x in bcyc]}}
    # A register fragment (4 .b32 registers per thread)
    afrag = []
    per = 32 // ab
    for t in range(128):
        regs = [0] * 4
        for i in range(4 * per):
            r, c = a_frag_coord(t, i, K, ab)
            regs[i // per] |= ebits(at, A[r][c]) << ((i % per) * ab)
        afrag += regs
    def dpack(vals):
        out = []
        for t in range(128):
            regs = [0] * nd
            dper = 2 if dt == 'f16' else 1
            for i in range(N // 2):
                r, c = d_coord(t, i)
                regs[i // dper] |= enc(dt, vals[r][c]) << ((i % dper) * 16 if dt == 'f16' else 0)
            out += regs
        return out
    cfrag = [enc(dt, cvals[j]) for j in range(37)] if dper == 1 else \
        [enc('f16', cvals[2 * j % len(cvals)]) | enc('f16', cvals[(2 * j + 1) % len(cvals)]) << 16 for j in range(37)]
    expect = dpack(D)
    def lay(d, major):
        return d['W'] | (1 if major == 'MN' else 0) << 4 | (d['lbo'] // 16) << 8 | (d['sbo'] // 128) << 24
    ma = 'MN' if form == 1 else 'K'
    mb = 'MN' if form in (1, 2, 4) and BITS[at] == 16 else 'K'
    v = form | (la['start'] // 16) << 8 | (lb['start'] // 16) << 16
    s = {'ptx': 'wgmma.ptx', 'kernel': f'wg_{name}', 'grid': [1], 'block': [128],
         'buffers': {'a': abuf, 'b': bbuf,
                     'afrag': {'type': 'u32', 'count': 512, 'init': {'values': afrag} if kind == 'rs' else 'zero'},
                     'c': {'type': 'u32', 'count': 128 * nd, 'init': {'values': cfrag}},
                     'out': {'type': 'u32', 'count': 128 * nd, 'init': 'zero'}},
         'args': [{'buffer': 'a'}, {'buffer': 'b'}, {'buffer': 'afrag'}, {'buffer': 'c'}, {'buffer': 'out'},
                  {'u32': v}, {'u32': sd}, {'u32': chain}, {'u32': lay(la, ma)}, {'u32': lay(lb, mb)}],
         'outputs': ['out'],
         'comment': f'{name}: form {form} ({kind}), A {ma}-major W={la["W"]} LBO={la["lbo"]} SBO={la["sbo"]} start+{la["start"]}, '
                    f'B {mb}-major W={lb["W"]} LBO={lb["lbo"]} SBO={lb["sbo"]} start+{lb["start"]}, scale-d {sd}, issued {chain + 1}x'}
    base = f'wgmma_{tag}'
    with open(os.path.join(OUT[0], base + '.json'), 'w') as f:
        json.dump(s, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(OUT[0], base + '.expected.json'), 'w') as f:
        json.dump({'out': expect}, f, separators=(',', ':'))
        f.write('\n')


def main(out=HERE):
    OUT[0] = out
    text = ['// GENERATED by wgmma_ref.py; do not edit. wgmma.mma_async on one warpgroup,',
            '// every type of PTX ISA 9.7.15.5, A from shared memory or registers.',
            '.version 8.4', '.target sm_90a', '.address_size 64', '',
            '.shared .align 1024 .b8 sm[32768];  // A at 0, B at 16384', '']
    for f in os.listdir(out):
        if f.startswith('wgmma_') and not f.startswith('wgmma_sp_') and f.endswith('.json'):
            os.remove(os.path.join(out, f))
    n = 0
    for (name, at, bt, dt, K, N) in CONFIGS:
        body, forms, nd = ptx_kernel(name, at, bt, dt, K, N)
        text += [body, '']
        for form, (kind, _) in forms.items():
            for rep in range(1):
                variant = n
                n += 1
                ab = BITS[at]
                ma = 'MN' if form == 1 else 'K'
                mb = 'MN' if form in (1, 2, 4) and ab == 16 else 'K'
                la = layout(variant, 8 if ab == 1 else ab, 64, ma)
                lb = layout(variant + 1, 8 if ab == 1 else ab, N, mb)
                sd = 0 if variant % 5 == 4 else 1
                chain = 1 if variant % 3 == 2 and sd else 0
                spec(name, at, bt, dt, K, N, form, kind, la, lb, sd, chain, f'{name}_{form}{"abc"[rep]}')
    with open(os.path.join(out, 'wgmma.ptx'), 'w') as f:
        f.write('\n'.join(text))


if __name__ == '__main__':
    import sys
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
