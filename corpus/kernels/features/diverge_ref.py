# Reference for diverge.ptx, from the PTX ISA pseudo-code of shfl.sync
# (9.7.9.6), activemask (9.7.13.11), redux.sync (9.7.13.12), vote (9.7.13.9 vote.sync).
import json
out = []
for tid in range(64):
    lane = tid % 32
    if lane & 1:
        seg, c = 0, 31
        maxl = (lane & seg) | (c & ~seg)
        j = lane ^ 2
        v = (j if j <= maxl else lane) * 10
        act = 0xaaaaaaaa
        red = sum(l for l in range(32) if l & 1)
    else:
        maxl = 0
        j = lane - 2
        v = (j if j >= maxl else lane) * 10
        act = 0x55555555
        red = sum(l for l in range(32) if not l & 1)
    out.append((lane, v, act, red))
rows = []
for tid in range(64):
    w0 = (tid // 32) * 32
    ballot = sum(1 << l for (l, v, a, r) in out[w0:w0 + 32] if v > 100)
    lane, v, act, red = out[tid]
    rows += [v, act, red, ballot, 0xffffffff]
print(json.dumps({"out": rows}))
