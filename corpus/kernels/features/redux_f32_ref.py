#!/usr/bin/env python3
"""Independent reference for redux_f32.ptx: redux.sync.{min,max}{.abs}{.NaN}.f32
per PTX ISA 9.x: NaN inputs are ignored unless .NaN (then the result is the
canonical NaN); .abs reduces |a|. Writes redux_f32.expected.json."""
import json, math, os

def lanes(w):
    v = [(l - 13) * 0.75 for l in range(32)]
    v[7] = -0.0
    if w == 1:
        v[5] = float('nan')
    return v

def red(vals, op, nan=False, absolute=False):
    if absolute:
        vals = [abs(x) for x in vals]
    if any(math.isnan(x) for x in vals):
        if nan:
            return 'nan'
        vals = [x for x in vals if not math.isnan(x)]
    return min(vals) if op == 'min' else max(vals)

out = []
for w in range(2):
    v = lanes(w)
    out += [red(v, 'min'), red(v, 'max'), red(v, 'min', absolute=True), red(v, 'max', absolute=True),
            red(v, 'min', nan=True), red(v, 'max', nan=True, absolute=True),
            red(v[:16], 'min'), red(v[16:], 'max', nan=True)]
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'redux_f32.expected.json'), 'w') as f:
    json.dump({'out': out}, f)
    f.write('\n')
