#!/usr/bin/env python3
"""Operands and independent reference for atom_v8.ptx (atom/red .v8 of .f16
and .bf16, PTX ISA 9.7.13.5 atom / 9.7.13.6 red).

Writes atom_v8.json (the launch spec, with the operands drawn from a fixed
seed) and atom_v8.expected.json next to this script. The arithmetic is exact
(fractions) with the rounding written out: .add.noftz rounds the exact sum to
nearest even and keeps subnormals ("preserves subnormal inputs and results,
and does not flush them to zero"), overflow gives infinity; min/max order
-0 below +0. Each of the 8 elements is its own operation on its own half.
No NaN operands (the atom text does not say how min/max treat them)."""
import json
import os
import random
from fractions import Fraction

F16 = dict(p=11, ebits=5)    # binary16
BF16 = dict(p=8, ebits=8)    # bfloat16


def params(fmt):
    bias = (1 << (fmt['ebits'] - 1)) - 1
    return fmt['p'], fmt['ebits'], bias, 1 - bias, bias  # p, ebits, bias, emin, emax


def decode(fmt, b):
    """bits -> ('num', Fraction, negative) or ('inf', None, negative)."""
    p, ebits, bias, emin, _ = params(fmt)
    neg = bool(b >> (p - 1 + ebits))
    e = (b >> (p - 1)) & ((1 << ebits) - 1)
    m = b & ((1 << (p - 1)) - 1)
    if e == (1 << ebits) - 1:
        assert m == 0, 'no NaN operands'
        return ('inf', None, neg)
    if e == 0:
        v = Fraction(m, 1) * Fraction(2) ** (emin - (p - 1))
    else:
        v = Fraction(m + (1 << (p - 1))) * Fraction(2) ** (e - bias - (p - 1))
    return ('num', -v if neg else v, neg)


def encode(fmt, x, neg_zero=False):
    """Round the exact value x to nearest even in the format; bits."""
    p, ebits, bias, emin, emax = params(fmt)
    sign = 1 << (p - 1 + ebits)
    inf = ((1 << ebits) - 1) << (p - 1)
    if x == 0:
        return sign if neg_zero else 0
    s = sign if x < 0 else 0
    a = abs(x)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    q = Fraction(2) ** (e - (p - 1))
    n = a / q
    r = n.numerator // n.denominator
    rem = n - r
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and r % 2 == 1):
        r += 1
    if r == 1 << p:
        r >>= 1
        e += 1
    if e > emax:
        return s | inf
    if r < 1 << (p - 1):
        return s | r  # subnormal (or rounded to zero: r == 0 keeps the sign)
    return s | ((e + bias) << (p - 1)) | (r - (1 << (p - 1)))


def add(fmt, a, b):
    ka, va, na = decode(fmt, a)
    kb, vb, nb = decode(fmt, b)
    if ka == 'inf' or kb == 'inf':
        assert not (ka == kb == 'inf' and na != nb), 'no inf - inf'
        return a if ka == 'inf' else b
    s = va + vb
    return encode(fmt, s, neg_zero=(s == 0 and na and nb))


def less(fmt, a, b):
    """a < b with -0 < +0 (no NaN)."""
    ka, va, na = decode(fmt, a)
    kb, vb, nb = decode(fmt, b)
    ra = (1 if not na else -1) * 10 ** 60 if ka == 'inf' else va
    rb = (1 if not nb else -1) * 10 ** 60 if kb == 'inf' else vb
    if ra != rb:
        return ra < rb
    return na and not nb


def fmin(fmt, a, b):
    return b if less(fmt, b, a) else a


def fmax(fmt, a, b):
    return b if less(fmt, a, b) else a


def draw(rng, fmt):
    """A value of the format with its special cases: zeros, subnormals,
    the largest finite values, infinities, and ordinary normals."""
    p, ebits, bias, emin, emax = params(fmt)
    sign = rng.choice([0, 1 << (p - 1 + ebits)])
    k = rng.random()
    if k < 0.08:
        return sign  # +-0
    if k < 0.22:
        return sign | rng.randrange(1, 1 << (p - 1))  # subnormal
    if k < 0.28:
        return sign | ((1 << ebits) - 2) << (p - 1) | rng.randrange(1 << (p - 1))  # top binade
    if k < 0.31:
        return sign | ((1 << ebits) - 1) << (p - 1)  # inf
    if k < 0.45:
        return sign | (1 << (p - 1)) | rng.randrange(1 << (p - 1))  # smallest normal binade
    e = rng.randrange(bias - 6, bias + 7)
    return sign | e << (p - 1) | rng.randrange(1 << (p - 1))


def draw_add_pair(rng, fmt):
    """(old, operand) with no inf - inf; often close magnitudes so the sum
    rounds, sometimes cancelling exactly."""
    while True:
        a, b = draw(rng, fmt), draw(rng, fmt)
        if rng.random() < 0.2:
            b = a ^ (1 << (params(fmt)[0] - 1 + params(fmt)[1]))  # -a: exact cancellation
        ka, _, na = decode(fmt, a)
        kb, _, nb = decode(fmt, b)
        if not (ka == kb == 'inf' and na != nb):
            return a, b


def hexs(xs):
    return ['0x%04x' % x for x in xs]


rng = random.Random(20261127)
T = 64
bin_ = [[0] * 40 for _ in range(T)]
badd, bold = [0] * (8 * T), [0] * (8 * T)
hmin, hold = [0] * (8 * T), [0] * (8 * T)
bmax = [0] * (8 * T)
rev, revold = [0] * (8 * T), [0] * (8 * T)
hsum0 = [rng.randrange(-20, 21) for _ in range(8)]
for t in range(T):
    for e in range(8):
        a, b = draw_add_pair(rng, BF16)
        badd[8 * t + e], bin_[t][e] = a, b
        hmin[8 * t + e], bin_[t][8 + e] = draw(rng, F16), draw(rng, F16)
        bmax[8 * t + e], bin_[t][16 + e] = draw(rng, BF16), draw(rng, BF16)
        bin_[t][24 + e] = encode(F16, Fraction(rng.randrange(-8, 9)))
        rev[8 * t + e], bin_[t][32 + e] = draw(rng, F16), draw(rng, F16)
spec_init = {'badd': list(badd), 'hmin': list(hmin), 'bmax': list(bmax), 'rev': list(rev),
             'hsum': [encode(F16, Fraction(v)) for v in hsum0]}

hsum = list(spec_init['hsum'])
for t in range(T):
    for e in range(8):
        i = 8 * t + e
        bold[i] = badd[i]
        badd[i] = add(BF16, badd[i], bin_[t][e])
        hold[i] = hmin[i]
        hmin[i] = fmin(F16, hmin[i], bin_[t][8 + e])
        bmax[i] = fmax(BF16, bmax[i], bin_[t][16 + e])
        hsum[e] = add(F16, hsum[e], bin_[t][24 + e])
    # rev: element e's old value lands in register %h(23-e); revold[j] holds
    # %h(16+j), the old value of element 7-j.
    olds = []
    for e in range(8):
        i = 8 * t + e
        olds.append(rev[i])
        rev[i] = fmax(F16, rev[i], bin_[t][32 + e])
    for j in range(8):
        revold[8 * t + j] = olds[7 - j]

here = os.path.dirname(os.path.abspath(__file__))


def buf(ty, vals):
    return {'type': ty, 'count': len(vals), 'init': {'values': vals}}


names = ['bin', 'badd', 'bold', 'hmin', 'hold', 'bmax', 'hsum', 'rev', 'revold']
spec = {
    'ptx': 'atom_v8.ptx', 'kernel': 'atom_v8', 'grid': [1], 'block': [T],
    'comment': 'written by atom_v8_ref.py',
    'buffers': {
        'bin': buf('u16', [x for row in bin_ for x in row]),
        'badd': buf('bf16', hexs(spec_init['badd'])),
        'bold': {'type': 'bf16', 'count': 8 * T, 'init': 'zero'},
        'hmin': buf('f16', hexs(spec_init['hmin'])),
        'hold': {'type': 'f16', 'count': 8 * T, 'init': 'zero'},
        'bmax': buf('bf16', hexs(spec_init['bmax'])),
        'hsum': buf('f16', hexs(spec_init['hsum'])),
        'rev': buf('f16', hexs(spec_init['rev'])),
        'revold': {'type': 'f16', 'count': 8 * T, 'init': 'zero'}},
    'args': [{'buffer': n} for n in names],
    'outputs': names[1:]}
exp = {'badd': hexs(badd), 'bold': hexs(bold), 'hmin': hexs(hmin), 'hold': hexs(hold), 'bmax': hexs(bmax),
       'hsum': hexs(hsum), 'rev': hexs(rev), 'revold': hexs(revold)}
with open(os.path.join(here, 'atom_v8.json'), 'w') as f:
    json.dump(spec, f)
    f.write('\n')
with open(os.path.join(here, 'atom_v8.expected.json'), 'w') as f:
    json.dump(exp, f)
    f.write('\n')
