#!/usr/bin/env python3
"""Generator and independent reference for the warp-level sparse mma tests
(mma_sp*.ptx, mma_sp_*.json / .expected.json and
tests/interp/faults/mma_sp_*.json; docs/mma.md "Sparse mma").

Each kernel msp_<name> loads one mma.sp / mma.sp::ordered_metadata
instruction's registers lane by lane from buffers a, b, c and e (metadata),
executes it and stores d. This script builds random logical matrices (A with
half of every chunk zero), distributes them with the fragment layouts and
computes D = A*B + C exactly on values whose sums are exact, so the result
does not depend on the accumulation policy. It shares no code with the C++
implementation:

- A (packed 16 x K/2): the text formulas of PTX ISA 9.7.14.6.2.1-8 (row of
  a_i, and its [firstcol, lastcol] span "as per the mapping of non-zero
  elements"): the elements of one lane with the same row and span are the
  span's stored elements in order.
- B (K x 8) and the metadata: the figures are images; we evaluate CUTLASS's
  CuTe layouts, written below as data (BLayout / ELayout of the SM80 sparse
  MMA traits, and of SM120's m16n8k64 in
  cute/atom/mma_traits_sm120_sparse.hpp), with a small CuTe layout
  evaluator. A metadata element (16/32/8 bits of the register, covering E
  logical elements of a row) holds its chunks' 4-bit indices from its low
  bits up; thread modes of stride 0 are the lanes the selector chooses.
- C/D: the m16n8 accumulator (9.7.14.5.8: c_i row g + 8(i>>1), column
  2t + (i&1)).
- A chunk index (9.7.14.6.1): 2:4 bits 1:0 position of the first stored
  element, 3:2 the second's (4:8 pair-wise for .s4/.u4: the 2-element
  sub-chunks); .tf32 0b0100 element 0, 0b1110 element 1. ::ordered_metadata
  kernels use increasing pairs only, plain mma.sp kernels both orders.
Lanes the selector does not choose get random metadata, which must not
matter. Run it to regenerate the files (deterministic); with --check it
writes them to a temporary directory and compares them byte for byte with
the committed ones (meson test interp-mma-sp-gen)."""
import filecmp, json, os, random, shutil, sys, tempfile
from fractions import Fraction as Fr

HERE = os.path.dirname(os.path.abspath(__file__))
FAULTS = os.path.join(HERE, '..', '..', '..', 'tests', 'interp', 'faults')
FAULT_PTX_DIR = '../../../corpus/kernels/features/'  # the PTX as the fault specs name it
RNG = random.Random(1412)

# (exponent bits, mantissa bits, bias) of the floating-point element types
FMT = {'f16': (5, 10, 15), 'bf16': (8, 7, 127), 'tf32': (8, 23, 127), 'f32': (8, 23, 127),
       'e4m3': (4, 3, 7), 'e5m2': (5, 2, 15), 'e3m2': (3, 2, 3), 'e2m3': (2, 3, 1), 'e2m1': (2, 1, 1)}
BITS = {'f16': 16, 'bf16': 16, 'tf32': 32, 'e4m3': 8, 'e5m2': 8, 'e3m2': 8, 'e2m3': 8, 'e2m1': 8,
        's8': 8, 'u8': 8, 's4': 4, 'u4': 4}


def enc_float(t, v):
    """Bits of the exactly representable v in format t (8-bit containers for
    the f8f6f4 kinds: .e2m1 in bits 5..2, .e3m2/.e2m3 in bits 5..0)."""
    eb, mb, bias = FMT[t]
    v = Fr(v)
    sign = 1 if v < 0 else 0
    a = abs(v)
    if a == 0:
        e_field, m_field = 0, 0
    else:
        e = 0
        while a >= 2 ** (e + 1):
            e += 1
        while a < 2 ** e:
            e -= 1
        if e + bias >= 1:
            e_field, m = e + bias, (a / Fr(2) ** e - 1) * 2 ** mb
        else:
            e_field, m = 0, a / Fr(2) ** (1 - bias) * 2 ** mb
        assert m.denominator == 1 and e_field < 2 ** eb, (t, v)
        m_field = int(m)
    bits = sign << (eb + mb) | e_field << mb | m_field
    return bits << 2 if t == 'e2m1' else bits


def enc(t, v):
    if t in FMT:
        return enc_float(t, v)
    return int(v) & ((1 << BITS[t]) - 1) if t in BITS else int(v) & 0xffffffff


def pick(t):
    if t in ('s8', 'u8', 's4', 'u4'):
        b = BITS[t]
        return RNG.randint(-2 ** (b - 1), 2 ** (b - 1) - 1) if t[0] == 's' else RNG.randint(0, 2 ** b - 1)
    # multiples of 0.5 in [-3, 3], exact in every floating-point type here
    v = Fr(RNG.choice([1, 2, 3, 4, 6]), 2)
    return -v if RNG.random() < 0.5 else v


# CuTe layouts: (shape, stride) nested tuples; coordinates colexicographic.
def flat(t):
    return [x for s in t for x in flat(s)] if isinstance(t, tuple) else [t]


def cute(shape, stride, i):
    out = 0
    for s, d in zip(flat(shape), flat(stride)):
        out += (i % s) * d
        i //= s
    return out


def thread_modes(tshape, tstride, T):
    """The thread's coordinates, and the coordinates of the stride-0 modes."""
    coords, zero = [], []
    for s, d in zip(flat(tshape), flat(tstride)):
        coords.append(T % s)
        if d == 0:
            zero.append(T % s)
        T //= s
    return zero


# Per (K, type family): A registers, A text formula, B CuTe layout (T32,V)->
# (N8,K), metadata CuTe layout (T32,V)->(M16,K) with E logical elements and
# `ebits` register bits per metadata element.
def a_text(K, t, l, i):
    """PTX ISA 9.7.14.6.2: (row, firstcol, lastcol) of a_i of lane l."""
    g, tig = l >> 2, l % 4
    fam = 'h' if BITS[t] == 16 else 'tf' if t == 'tf32' else 'b8' if BITS[t] == 8 else 'b4'
    if fam == 'h' and K == 16:    # 9.7.14.6.2.1
        return g + 8 * (i >= 2), 4 * tig, 4 * tig + 3
    if fam == 'h' and K == 32:    # 9.7.14.6.2.2
        row = g if i in (0, 1, 4, 5) else g + 8
        f = 4 * tig + (16 if i >= 4 else 0)
        return row, f, f + 3
    if fam == 'tf' and K == 8:    # 9.7.14.6.2.4
        return g + 8 * i, 2 * tig, 2 * tig + 1
    if fam == 'tf' and K == 16:   # 9.7.14.6.2.3
        f = 2 * tig + (8 if i >= 2 else 0)
        return g + 8 * (i % 2), f, f + 1
    if fam == 'b8' and K == 32:   # 9.7.14.6.2.5
        return g + 8 * (i >= 4), 8 * tig, 8 * tig + 7
    if fam == 'b8' and K == 64:   # 9.7.14.6.2.6
        row = g if i < 4 or 8 <= i < 12 else g + 8
        f = 8 * tig + (32 if i >= 8 else 0)
        return row, f, f + 7
    if fam == 'b4' and K == 64:   # 9.7.14.6.2.7
        return g + 8 * (i >= 8), 16 * tig, 16 * tig + 15
    if fam == 'b4' and K == 128:  # 9.7.14.6.2.8
        row = g if i < 8 or 16 <= i < 24 else g + 8
        f = 16 * tig + (64 if i >= 16 else 0)
        return row, f, f + 15
    raise ValueError((K, t))


# CUTLASS BLayout / ELayout (cute/atom/mma_traits_sm80_sparse.hpp as found in
# public code; SM120_SPARSE_16x8x64_TN in cute/atom/mma_traits_sm120_sparse.hpp).
LAYOUTS = {
    ('h', 16): dict(B=(((4, 8), (2, 2)), ((16, 1), (8, 64))),
                    E=(((4, 8), (16, 2)), ((0, 1), (0, 8))), Ee=16, ebits=16),
    ('h', 32): dict(B=(((4, 8), (2, 4)), ((16, 1), (8, 64))),
                    E=(((2, 2, 8), (16, 2)), ((256, 0, 1), (0, 8))), Ee=16, ebits=16),
    ('tf', 8): dict(B=(((4, 8), 2), ((8, 1), 32)),
                    E=(((4, 8), (8, 2)), ((0, 1), (0, 8))), Ee=8, ebits=16),
    ('tf', 16): dict(B=(((4, 8), 4), ((8, 1), 32)),
                     E=(((2, 2, 8), (8, 2)), ((128, 0, 1), (0, 8))), Ee=8, ebits=16),
    ('b8', 32): dict(B=(((4, 8), (4, 2)), ((32, 1), (8, 128))),
                     E=(((2, 2, 8), 32), ((8, 0, 1), 0)), Ee=32, ebits=32),
    ('b8', 64): dict(B=(((4, 8), (4, 4)), ((32, 1), (8, 128))),
                     E=(((2, 2, 8), 32), ((8, 512, 1), 0)), Ee=32, ebits=32),
    # the public SM120 m16n8k64 ELayout (sparse_elem<8, uint8_t>): the same
    # lanes and bits as the SM80 one above, written per logical element
    ('f8', 64): dict(B=(((4, 8), (4, 4)), ((32, 1), (8, 128))),
                     E=(((2, 2, 8), 32), ((8, 512, 1), 16)), Ee=8, ebits=8),
    ('b4', 64): dict(B=(((4, 8), (8, 2)), ((64, 1), (8, 256))),
                     E=(((2, 2, 8), 64), ((8, 0, 1), 0)), Ee=64, ebits=32),
    ('b4', 128): dict(B=(((4, 8), (8, 4)), ((64, 1), (8, 256))),
                      E=(((2, 2, 8), 64), ((8, 1024, 1), 0)), Ee=64, ebits=32),
}


def family(t):
    return 'h' if BITS[t] == 16 else 'tf' if t == 'tf32' else 'b4' if BITS[t] == 4 else \
        'f8' if t in FMT else 'b8'


def chunk_w(t):
    return 2 if t == 'tf32' else 8 if BITS[t] == 4 else 4


def nibble(t, pos):
    if t == 'tf32':
        return 0b0100 if pos[0] == 0 else 0b1110
    return pos[0] | pos[1] << 2


# name, ptx group, atype, btype, dtype, K, ordered, selector, kind
CONFIGS = [
    ('f16_f32_k16', 'sm80', 'f16', 'f16', 'f32', 16, False, 0, False),
    ('f16_f16_k16_ord', 'sm80', 'f16', 'f16', 'f16', 16, True, 3, False),
    ('f16_f32_k32_ord', 'sm80', 'f16', 'f16', 'f32', 32, True, 1, False),
    ('f16_f16_k32', 'sm80', 'f16', 'f16', 'f16', 32, False, 0, False),
    ('bf16_k16_ord', 'sm80', 'bf16', 'bf16', 'f32', 16, True, 2, False),
    ('bf16_k32', 'sm80', 'bf16', 'bf16', 'f32', 32, False, 1, False),
    ('tf32_k8', 'sm80', 'tf32', 'tf32', 'f32', 8, False, 1, False),
    ('tf32_k16_ord', 'sm80', 'tf32', 'tf32', 'f32', 16, True, 0, False),
    ('s8_u8_k32_sat', 'sm80', 's8', 'u8', 's32', 32, False, 1, False),
    ('u8_s8_k64_ord', 'sm80', 'u8', 's8', 's32', 64, True, 0, False),
    ('s4_u4_k64_sat', 'sm80', 's4', 'u4', 's32', 64, False, 1, False),
    ('u4_s4_k128_ord', 'sm80', 'u4', 's4', 's32', 128, True, 0, False),
    ('e4m3_e5m2_k64', 'sm89', 'e4m3', 'e5m2', 'f32', 64, False, 0, False),
    ('e5m2_e4m3_f16_ord', 'sm120a', 'e5m2', 'e4m3', 'f16', 64, True, 0, False),
    ('e3m2_e2m1_f8f6f4', 'sm120a', 'e3m2', 'e2m1', 'f32', 64, True, 0, True),
    ('e2m3_e4m3_f16_f8f6f4', 'sm120a', 'e2m3', 'e4m3', 'f16', 64, True, 0, True),
]
# kernels for the fault specs only
FAULT_KERNELS = [('f16_f32_k32_sel2', 'sm80', 'f16', 'f16', 'f32', 32, False, 2, False)]
GROUPS = {'sm80': ('mma_sp.ptx', '8.5', 'sm_80'), 'sm89': ('mma_sp_fp8.ptx', '8.7', 'sm_89'),
          'sm120a': ('mma_sp_f8f6f4.ptx', '8.8', 'sm_120a')}


def mnemonic(c):
    name, grp, at, bt, dt, K, ordered, sel, kind = c
    m = 'mma.sp::ordered_metadata' if ordered else 'mma.sp'
    m += f'.sync.aligned.m16n8k{K}.row.col'
    if kind:
        m += '.kind::f8f6f4'
    if name.endswith('_sat'):
        m += '.satfinite'
    return m + f'.{dt}.{at}.{bt}.{dt}'


def counts(c):
    name, grp, at, bt, dt, K, *_ = c
    na = K * BITS[at] // 128          # A registers
    nb = K * 8 // 32 * BITS[bt] // 32  # B registers
    ncd = 2 if dt == 'f16' else 4
    return na, nb, ncd


def kernel_ptx(c):
    name, grp, at, bt, dt, K, ordered, sel, kind = c
    na, nb, ncd = counts(c)
    f32 = dt == 'f32'
    cd = '.f32' if f32 else '.b32'
    lines = [f'// {mnemonic(c)}, selector {sel}',
             f'.visible .entry msp_{name}(.param .u64 p_a, .param .u64 p_b, .param .u64 p_c, .param .u64 p_e,',
             '\t.param .u64 p_d)', '{',
             '\t.reg .b32 %r<2>;', '\t.reg .b64 %rd<12>;',
             f'\t.reg .b32 %a<{na}>;', f'\t.reg .b32 %b<{nb}>;',
             f'\t.reg {cd} %c<{ncd}>;', f'\t.reg {cd} %d<{ncd}>;', '\t.reg .b32 %e;',
             '\tmov.u32 %r0, %tid.x;']
    for j, p in enumerate(['p_a', 'p_b', 'p_c', 'p_e', 'p_d']):
        lines += [f'\tld.param.u64 %rd{j}, [{p}];', f'\tcvta.to.global.u64 %rd{j}, %rd{j};']

    def load(reg, n, base, ty):
        out = [f'\tmul.wide.u32 %rd5, %r0, {4 * n};', f'\tadd.s64 %rd6, %rd{base}, %rd5;']
        return out + [f'\tld.global{ty} %{reg}{i}, [%rd6+{4 * i}];' for i in range(n)]
    lines += load('a', na, 0, '.b32') + load('b', nb, 1, '.b32') + load('c', ncd, 2, cd)
    lines += ['\tmul.wide.u32 %rd5, %r0, 4;', '\tadd.s64 %rd6, %rd3, %rd5;', '\tld.global.b32 %e, [%rd6];']

    def vec(reg, n):
        return '{' + ', '.join(f'%{reg}{i}' for i in range(n)) + '}'
    lines.append(f'\t{mnemonic(c)}\n\t\t{vec("d", ncd)}, {vec("a", na)}, {vec("b", nb)}, {vec("c", ncd)}, %e, {sel};')
    lines += [f'\tmul.wide.u32 %rd5, %r0, {4 * ncd};', '\tadd.s64 %rd6, %rd4, %rd5;']
    lines += [f'\tst.global{cd} [%rd6+{4 * i}], %d{i};' for i in range(ncd)]
    lines += ['\tret;', '}', '']
    return '\n'.join(lines)


def build(c, meta_override=None):
    """Returns (spec buffers dict, expected d words)."""
    name, grp, at, bt, dt, K, ordered, sel, kind = c
    na, nb, ncd = counts(c)
    fam = family(at)
    lay = LAYOUTS[(fam, K)]
    cw, KP = chunk_w(at), K // 2
    per, sub = cw // 2, (2 if BITS[at] == 4 else 1)
    # logical A: per chunk, the stored positions (order = storage order)
    Ap = [[pick(at) for _ in range(KP)] for _ in range(16)]
    nib = [[0] * (K // cw) for _ in range(16)]
    A = [[0] * K for _ in range(16)]
    for r in range(16):
        for q in range(K // cw):
            slots = cw // sub
            pos = RNG.sample(range(slots), per // sub)
            if ordered or at == 'tf32':
                pos.sort()
            nib[r][q] = nibble(at, pos)
            for j in range(per):
                A[r][q * cw + sub * pos[j // sub] + j % sub] = Ap[r][q * per + j]
    B = [[pick(bt) for _ in range(8)] for _ in range(K)]
    integer = dt == 's32'
    sat = name.endswith('_sat')
    if integer:
        C = [[RNG.choice([2 ** 31 - 1 - RNG.randint(0, 3000), -2 ** 31 + RNG.randint(0, 3000)]) if sat
              else RNG.randint(-2 ** 31, 2 ** 31 - 1) for _ in range(8)] for _ in range(16)]
    else:
        C = [[Fr(RNG.choice([1, 3, 5, 7, 9, 11]) * RNG.choice([-1, 1]), 4) for _ in range(8)] for _ in range(16)]
    D = [[0] * 8 for _ in range(16)]
    for r in range(16):
        for n in range(8):
            s = sum(Fr(A[r][k]) * Fr(B[k][n]) for k in range(K)) + C[r][n]
            if integer:
                s = int(s)
                s = max(-2 ** 31, min(2 ** 31 - 1, s)) if sat else ((s + 2 ** 31) % 2 ** 32) - 2 ** 31
            D[r][n] = s
    # A registers from the text formulas
    pa = 32 // BITS[at]
    awords = []
    for l in range(32):
        regs = [0] * na
        seen = {}
        for i in range(na * pa):
            row, first, last = a_text(K, at, l, i)
            s = seen.get((row, first), 0)
            seen[(row, first)] = s + 1
            assert s < (last - first + 1) // 2
            regs[i // pa] |= enc(at, Ap[row][first // 2 + s]) << ((i % pa) * BITS[at])
        awords += regs
    # B registers from CUTLASS's BLayout (N8, K) = n + 8k
    pb = 32 // BITS[bt]
    (bsh, bst) = lay['B']
    bwords = []
    for l in range(32):
        regs = [0] * nb
        for v in range(nb * pb):
            idx = cute(bsh[0], bst[0], l) + cute(bsh[1], bst[1], v)
            regs[v // pb] |= enc(bt, B[idx // 8][idx % 8]) << ((v % pb) * BITS[bt])
        bwords += regs
    # C/D registers: c_i row g + 8(i>>1), column 2t + (i&1)
    def cd_words(M):
        out = []
        for l in range(32):
            g, t = l >> 2, l % 4
            vals = [M[g + 8 * (i >> 1)][2 * t + (i & 1)] for i in range(4)]
            if dt == 'f16':
                out += [enc('f16', vals[0]) | enc('f16', vals[1]) << 16, enc('f16', vals[2]) | enc('f16', vals[3]) << 16]
            else:
                out += [enc(dt, x) for x in vals]
        return out
    # metadata: CUTLASS's ELayout (M16, K) = m + 16k
    (esh, est), Ee, ebits = lay['E'], lay['Ee'], lay['ebits']
    ewords = []
    for l in range(32):
        zero = thread_modes(esh[0], est[0], l)
        chosen = all(z == sel for z in zero) if zero else sel == 0
        if not chosen:
            ewords.append(RNG.getrandbits(32))
            continue
        w = 0
        for e in range(32 // ebits):
            idx = cute(esh[0], est[0], l) + cute(esh[1], est[1], e * Ee)
            m, k0 = idx % 16, idx // 16
            for j in range(Ee // cw):
                w |= nib[m][k0 // cw + j] << (e * ebits + 4 * j)
        ewords.append(w)
    if meta_override:
        meta_override(ewords, nib)
    ety = 'u32'
    bufs = {'a': {'type': ety, 'count': len(awords), 'init': {'values': awords}},
            'b': {'type': ety, 'count': len(bwords), 'init': {'values': bwords}},
            'c': {'type': ety, 'count': len(cd_words(C)), 'init': {'values': cd_words(C)}},
            'e': {'type': ety, 'count': 32, 'init': {'values': ewords}},
            'd': {'type': ety, 'count': 32 * ncd, 'init': 'zero'}}
    return bufs, cd_words(D)


def spec(c, bufs, comment, ptx_dir=''):
    name, grp = c[0], c[1]
    return {'ptx': ptx_dir + GROUPS[grp][0], 'kernel': f'msp_{name}', 'grid': [1], 'block': [32],
            'buffers': bufs, 'args': [{'buffer': x} for x in ('a', 'b', 'c', 'e', 'd')], 'outputs': ['d'],
            'comment': comment}


def dump(path, obj):
    with open(path, 'w') as f:
        json.dump(obj, f, separators=(',', ':'))
        f.write('\n')


def main(kdir=HERE, fdir=FAULTS):
    for grp, (fname, ver, target) in GROUPS.items():
        body = [f'// Generated by mma_sp_ref.py; do not edit. Warp-level sparse mma (PTX ISA 9.7.14.6).',
                f'.version {ver}', f'.target {target}', '.address_size 64', '']
        body += [kernel_ptx(c) for c in CONFIGS + FAULT_KERNELS if c[1] == grp]
        with open(os.path.join(kdir, fname), 'w') as f:
            f.write('\n'.join(body))
    for c in CONFIGS:
        bufs, d = build(c)
        dump(os.path.join(kdir, f'mma_sp_{c[0]}.json'),
             spec(c, bufs, f'{mnemonic(c)}, selector {c[7]}; expected values from mma_sp_ref.py'))
        dump(os.path.join(kdir, f'mma_sp_{c[0]}.expected.json'), {'d': d})
    # Faults (tests/interp/faults): an undefined index in a chosen lane; a decreasing
    # pair under ::ordered_metadata; a selector m16n8k32 .f16 does not define.
    byname = {c[0]: c for c in CONFIGS}

    def bad_equal(ewords, nib):  # lane 4*3 + 0 (selector 0), bits 7..4: row 3, chunk 1
        ewords[12] = (ewords[12] & ~0xf0) | 0b0101 << 4
    bufs, _ = build(byname['f16_f32_k16'], bad_equal)
    f = spec(byname['f16_f32_k16'], bufs, 'mma.sp m16n8k16 with the undefined index 0b0101 (two equal positions, '
             'PTX ISA 9.7.14.6.1) for row 3, columns 4-7, in lane 12 (selector 0)', FAULT_PTX_DIR)
    f['_expect_diagnostic'] = 'sparse-metadata'
    f['_expect_message'] = 'for row 3, columns 4-7 of A'
    dump(os.path.join(fdir, 'mma_sp_badmeta.json'), f)

    def decreasing(ewords, nib):  # selector 0 of k64 8-bit: lane 4g + 2(q/8) + h; lane 5 = row 9, chunks 0-7
        ewords[5] = (ewords[5] & ~0xf) | 0b0001
    c = byname['u8_s8_k64_ord']
    bufs, _ = build(c, decreasing)
    f = spec(c, bufs, 'mma.sp::ordered_metadata m16n8k64 with the decreasing pair 0b0001 (positions 1, 0; PTX ISA '
             '9.7.14.6.3 requires increasing indices) for row 9, columns 0-3, in lane 5', FAULT_PTX_DIR)
    f['_expect_diagnostic'] = 'sparse-metadata'
    f['_expect_message'] = 'for row 9, columns 0-3 of A'
    dump(os.path.join(fdir, 'mma_sp_unordered.json'), f)
    # selector 2 on m16n8k32 .f16 -> .f32: ptxas 13 accepts it (not for .f16 -> .f16), 9.7.14.6.1 makes it undefined
    c = FAULT_KERNELS[0]
    bufs, _ = build(c[:7] + (1,) + c[8:])  # registers valid for selector 1, which the model then reads
    f = spec(c, bufs, 'mma.sp m16n8k32 .f16 with sparsity selector 2 (PTX ISA 9.7.14.6.1: '
             '0 or 1)', FAULT_PTX_DIR)
    f['_expect_diagnostic'] = 'sparse-metadata'
    f['_expect_message'] = 'sparsity selector 2'
    dump(os.path.join(fdir, 'mma_sp_badsel.json'), f)


def check():
    tmp = tempfile.mkdtemp(prefix='ptxcheck-mma-sp-gen-')
    try:
        kd, fd = os.path.join(tmp, 'kernels'), os.path.join(tmp, 'faults')
        os.makedirs(kd)
        os.makedirs(fd)
        main(kd, fd)
        bad, n = 0, 0
        for d, ref in ((kd, HERE), (fd, FAULTS)):
            made = sorted(os.listdir(d))
            committed = sorted(f for f in os.listdir(ref) if f.startswith('mma_sp') and f.endswith(('.json', '.ptx')))
            if made != committed:
                print('file sets differ in', ref, ': only generated', sorted(set(made) - set(committed)),
                      'only committed', sorted(set(committed) - set(made)))
                bad += 1
            for f in made:
                n += 1
                if not os.path.exists(os.path.join(ref, f)) or \
                        not filecmp.cmp(os.path.join(d, f), os.path.join(ref, f), shallow=False):
                    print('differs from mma_sp_ref.py output:', f)
                    bad += 1
        print(f'{n} generated files compared, {bad} problems')
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp)


if __name__ == '__main__':
    if sys.argv[1:] == ['--check']:
        sys.exit(check())
    main()
