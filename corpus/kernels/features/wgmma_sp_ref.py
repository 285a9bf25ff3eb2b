#!/usr/bin/env python3
"""Generator and independent reference for the sparse wgmma tests
(wgmma_sp.ptx and wgmma_sp_*.json / .expected.json; docs/mma.md "Sparse
wgmma").

Each kernel wgsp_<type> runs wgmma.mma_async.sp on one warpgroup: it scatters
the packed A (64 x K/2, PTX ISA 9.7.15.6.3 "stored in the packed format
Mx(K/2)") and B^T (N x K) into one of the canonical shared-memory layouts
(the scatter code of wgmma_ref.py), loads every thread's sp-meta register
from buffer `meta`, and issues the instruction with A from shared memory or
from registers. This script builds the logical A (64 x K, two of every four
elements zero; one of every two for .tf32) from the packed values and random
valid metadata, writes each thread's metadata register from the layout we
read for the metadata (below), and computes D = A*B + C with exact
arithmetic on values whose sums are exact, so the result does not depend on
the accumulation policy. Threads whose metadata the selector does not pick
get random bits, which must not matter. Run it to regenerate the files
(deterministic).

Layout of the metadata (9.7.15.6.2, Figures 176/178/180/181 are images; read
from CUTLASS's sparse GMMA ELayout_64x32/64x16/64x64 and the mma.sp text
9.7.14.6.2): warp w gives rows 16w..16w+15; for lane l, g = l >> 2:
- .f16/.bf16 (chunks of 4) and .tf32 (chunks of 2): lanes with
  (l & 3) >> 1 == sp-sel; bits 4j..4j+3 hold chunk 4*(l & 1) + j of row g,
  bits 16+4j.. the same chunk of row g + 8 (j = 0..3);
- 8-bit (chunks of 4, sp-sel 0, every lane): row g + 8*(l & 1), bits 4j..
  hold chunk 8*((l >> 1) & 1) + j (j = 0..7).
A 2:4 index: bits 1:0 position of the first stored element, 3:2 of the
second; .tf32: 0b0100 position 0, 0b1110 position 1 (9.7.15.6.1)."""
import json, os, random
from fractions import Fraction as Fr

import wgmma_ref as W
from wgmma_ref import BITS, enc, d_coord, a_frag_coord, sp_sel

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = [HERE]  # where spec() writes (main's `out`)
RNG = random.Random(1212)
W.RNG = RNG  # pick() draws from this script's generator

# name, atype, btype, dtype, K (logical), N
CONFIGS = [
    ('f16_f32', 'f16', 'f16', 'f32', 32, 16),
    ('f16_f16', 'f16', 'f16', 'f16', 32, 8),
    ('bf16_f32', 'bf16', 'bf16', 'f32', 32, 8),
    ('tf32_f32', 'tf32', 'tf32', 'f32', 16, 16),
    ('e4m3_e5m2_f32', 'e4m3', 'e5m2', 'f32', 64, 8),
    ('e5m2_e4m3_f16', 'e5m2', 'e4m3', 'f16', 64, 16),
    ('s8_u8', 's8', 'u8', 's32', 64, 16),
    ('u8_s8_sat', 'u8', 's8', 's32', 64, 8),
]


def chunk_w(at):
    return 2 if BITS[at] == 32 else 4


def meta_nibble(at, pos):
    """The 4-bit index of a chunk whose stored elements are at `pos`."""
    if BITS[at] == 32:
        return 0b0100 if pos[0] == 0 else 0b1110
    return pos[0] | pos[1] << 2


def meta_regs(at, sel, nib):
    """Every thread's sp-meta register; nib[r][q] is chunk q of row r."""
    regs = [RNG.getrandbits(32) for _ in range(128)]
    for t in range(128):
        w, l = t // 32, t % 32
        g = l >> 2
        v = 0
        if BITS[at] == 8:
            r = 16 * w + g + 8 * (l & 1)
            for j in range(8):
                v |= nib[r][8 * ((l >> 1) & 1) + j] << (4 * j)
        elif (l & 3) >> 1 == sel:
            for h in range(2):
                r = 16 * w + g + 8 * h
                for j in range(4):
                    v |= nib[r][4 * (l & 1) + j] << (16 * h + 4 * j)
        else:
            continue
        regs[t] = v
    return regs


def layout_b(variant, at, N, major):
    """B spans 64 bytes of K: a K-major swizzle line must hold 4 chunks (no
    32B swizzle) from its start offset; MN-major swizzles need N/T % W == 0."""
    if major == 'K':
        Wd = [8, 1, 4][variant % 3]
        if Wd == 1:
            return dict(W=1, lbo=N * 16, sbo=128, start=0) if variant % 2 else dict(W=1, lbo=128, sbo=512, start=0)
        return dict(W=Wd, lbo=16, sbo=128 * Wd, start=32 * (variant % 3) if Wd == 8 else 0)
    T = 128 // BITS[at]
    ws = [w for w in (1, 2, 4, 8) if (N // T) % w == 0]
    Wd = ws[variant % len(ws)]
    if Wd == 1:
        return dict(W=1, lbo=128 * (N // 8), sbo=128, start=0)
    return dict(W=Wd, lbo=2 * 128 * Wd, sbo=128 * Wd, start=0)


def spec(name, at, bt, dt, K, N, form, kind, la, lb, sd, chain, tag):
    ab = BITS[at]
    KP = K // 2
    nd = N // 4 if dt == 'f16' else N // 2
    sel = sp_sel(at, form)
    acyc = [W.pick(at) for _ in range(61)]
    bcyc = [W.pick(bt) for _ in range(53)]
    Ap = [[acyc[(r * KP + k) % 61] for k in range(KP)] for r in range(64)]
    Bt = [[bcyc[(n * K + k) % 53] for k in range(K)] for n in range(N)]
    # metadata and the logical A
    cw = chunk_w(at)
    per = cw // 2
    nib = [[0] * (K // cw) for _ in range(64)]
    A = [[0] * K for _ in range(64)]
    for r in range(64):
        for q in range(K // cw):
            pos = sorted(RNG.sample(range(cw), per))
            nib[r][q] = meta_nibble(at, pos)
            for j in range(per):
                A[r][q * cw + pos[j]] = Ap[r][q * per + j]
    meta = meta_regs(at, sel, nib)
    if at in ('s8', 'u8'):
        cvals = [RNG.randint(-2**31, 2**31 - 1) for _ in range(37)]
        if name.endswith('_sat'):
            cvals = [RNG.choice([2**31 - 1 - RNG.randint(0, 300000), -2**31 + RNG.randint(0, 300000)]) for _ in cvals]
    else:
        cvals = [RNG.randint(-8, 8) for _ in range(37)]
    negate_a = form == 2 and at not in ('s8', 'u8')
    negate_b = form == 3 and at not in ('s8', 'u8')
    dper = 2 if dt == 'f16' else 1
    C = [[0] * N for _ in range(64)]
    for t in range(128):
        for i in range(N // 2):
            r, c = d_coord(t, i)
            reg = (t * nd + i // dper) % 37
            C[r][c] = cvals[(reg * dper + i % dper) % len(cvals)] if dper == 2 else cvals[reg]
    D = [[0] * N for _ in range(64)]
    for r in range(64):
        for c in range(N):
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
    ety = {8: 'u8', 16: 'u16', 32: 'u32'}
    abuf = {'type': ety[ab], 'count': 64 * KP, 'init': {'values': [enc(at, x) for x in acyc]}}
    bbuf = {'type': ety[BITS[bt]], 'count': N * K, 'init': {'values': [enc(bt, x) for x in bcyc]}}
    # A register fragment of the packed matrix (the dense layout of K/2)
    afrag = []
    pr = 32 // ab
    for t in range(128):
        regs = [0] * 4
        for i in range(4 * pr):
            r, c = a_frag_coord(t, i, KP, ab)
            regs[i // pr] |= enc(at, Ap[r][c]) << ((i % pr) * ab)
        afrag += regs
    out = []
    for t in range(128):
        regs = [0] * nd
        for i in range(N // 2):
            r, c = d_coord(t, i)
            regs[i // dper] |= enc(dt, D[r][c]) << ((i % dper) * 16 if dt == 'f16' else 0)
        out += regs
    cfrag = [enc(dt, cvals[j]) for j in range(37)] if dper == 1 else \
        [enc('f16', cvals[2 * j % len(cvals)]) | enc('f16', cvals[(2 * j + 1) % len(cvals)]) << 16 for j in range(37)]

    def lay(d, major):
        return d['W'] | (1 if major == 'MN' else 0) << 4 | (d['lbo'] // 16) << 8 | (d['sbo'] // 128) << 24
    ma = 'MN' if form == 1 else 'K'
    mb = 'MN' if form in (1, 2, 4) and ab == 16 else 'K'
    v = form | (la['start'] // 16) << 8 | (lb['start'] // 16) << 16
    s = {'ptx': 'wgmma_sp.ptx', 'kernel': f'wgsp_{name}', 'grid': [1], 'block': [128],
         'buffers': {'a': abuf, 'b': bbuf,
                     'afrag': {'type': 'u32', 'count': 512, 'init': {'values': afrag} if kind == 'rs' else 'zero'},
                     'c': {'type': 'u32', 'count': 128 * nd, 'init': {'values': cfrag}},
                     'out': {'type': 'u32', 'count': 128 * nd, 'init': 'zero'},
                     'meta': {'type': 'u32', 'count': 128, 'init': {'values': meta}}},
         'args': [{'buffer': 'a'}, {'buffer': 'b'}, {'buffer': 'afrag'}, {'buffer': 'c'}, {'buffer': 'out'},
                  {'u32': v}, {'u32': sd}, {'u32': chain}, {'u32': lay(la, ma)}, {'u32': lay(lb, mb)},
                  {'buffer': 'meta'}],
         'outputs': ['out'],
         'comment': f'sparse {name}: form {form} ({kind}), sp-sel {sel}, A {ma}-major W={la["W"]} LBO={la["lbo"]} '
                    f'SBO={la["sbo"]} start+{la["start"]}, B {mb}-major W={lb["W"]} LBO={lb["lbo"]} SBO={lb["sbo"]} '
                    f'start+{lb["start"]}, scale-d {sd}, issued {chain + 1}x'}
    base = f'wgmma_sp_{tag}'
    with open(os.path.join(OUT[0], base + '.json'), 'w') as f:
        json.dump(s, f, separators=(',', ':'))
        f.write('\n')
    with open(os.path.join(OUT[0], base + '.expected.json'), 'w') as f:
        json.dump({'out': out}, f, separators=(',', ':'))
        f.write('\n')


def main(out=HERE):
    OUT[0] = out
    text = ['// GENERATED by wgmma_sp_ref.py; do not edit. wgmma.mma_async.sp on one warpgroup,',
            '// every type of PTX ISA 9.7.15.6, A from shared memory or registers.',
            '.version 8.4', '.target sm_90a', '.address_size 64', '',
            '.shared .align 1024 .b8 sm[32768];  // A at 0, B at 16384', '']
    for f in os.listdir(out):
        if f.startswith('wgmma_sp_') and f.endswith('.json'):
            os.remove(os.path.join(out, f))
    n = 0
    for (name, at, bt, dt, K, N) in CONFIGS:
        body, forms, nd = W.ptx_kernel(name, at, bt, dt, K, N, sparse=True)
        text += [body.replace(f'.entry wg_{name}(', f'.entry wgsp_{name}('), '']
        for form, (kind, _) in forms.items():
            variant = n
            n += 1
            ab = BITS[at]
            ma = 'MN' if form == 1 else 'K'
            mb = 'MN' if form in (1, 2, 4) and ab == 16 else 'K'
            la = W.layout(variant, ab, 64, ma)
            lb = layout_b(variant + 1, at, N, mb)
            sd = 0 if variant % 5 == 4 else 1
            chain = 1 if variant % 3 == 2 and sd else 0
            spec(name, at, bt, dt, K, N, form, kind, la, lb, sd, chain, f'{name}_{form}')
    with open(os.path.join(out, 'wgmma_sp.ptx'), 'w') as f:
        f.write('\n'.join(text))


if __name__ == '__main__':
    import sys
    main(sys.argv[1] if len(sys.argv) > 1 else HERE)
