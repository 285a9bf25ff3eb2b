#!/usr/bin/env python3
"""Replays kernel recordings made on a GPU (hw/README.md, "Kernel recordings").

Usage: replay_kernels.py [--flip] PTXCHECK DIR...

Every `*.recording.json` (format ptxcheck-instr-recording/1, written by
ptxcheck-instr-host) under each DIR names its launch spec relative to itself;
`ptxcheck run SPEC --expect E` must then accept, bit for bit, every output
buffer the GPU recorded (E holds the recorded bit patterns as hex strings,
docs/launch-spec.md). Instruction-harness recordings (`instr/` folders, which
have manifests and are replayed by hw-instr-replay) and `unmatched/` folders
(recordings that do not match, kept as findings: corpus/hw/README.md) are
skipped.
--flip flips the lowest bit of the first value of every recording (the
meson test `hw-kernels-flip` expects that to fail: the replay can fail).
Exit 0 when every recording matches and at least one was found, 1 otherwise."""
import json
import os
import subprocess
import sys
import tempfile


def recordings(root):
    for d, _, files in os.walk(root):
        parts = os.path.relpath(d, root).split(os.sep)
        if 'instr' in parts or 'unmatched' in parts:
            continue
        for f in sorted(files):
            if f.endswith('.recording.json'):
                yield os.path.join(d, f)


def main():
    args = sys.argv[1:]
    flip = bool(args) and args[0] == '--flip'
    if flip:
        args = args[1:]
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    ptxcheck = args[0]
    seen = bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for root in args[1:]:
            for rec_path in sorted(recordings(root)):
                with open(rec_path) as f:
                    rec = json.load(f)
                if rec.get('format') != 'ptxcheck-instr-recording/1':
                    continue
                seen += 1
                spec = os.path.join(os.path.dirname(rec_path), rec['spec'])
                expect = os.path.join(tmp, 'expect.json')
                outs = rec['outputs']
                if flip:
                    first = next(iter(outs))
                    outs[first][0] = hex(int(outs[first][0], 16) ^ 1)
                with open(expect, 'w') as f:
                    json.dump(outs, f)
                p = subprocess.run([ptxcheck, 'run', spec, '--expect', expect],
                                   capture_output=True, text=True, timeout=600)
                name = os.path.relpath(rec_path, root)
                if p.returncode != 0:
                    bad += 1
                    lines = (p.stdout + p.stderr).strip().splitlines()
                    print(f'MISMATCH {name} ({rec.get("gpu")}): ' + '\n  '.join(
                        l for l in lines if 'mismatch' in l or 'error' in l)[:4000])
                else:
                    print(f'ok {name} ({rec.get("gpu")})')
    print(f'{seen} kernel recordings, {bad} mismatching')
    return 0 if seen > 0 and bad == 0 else 1


if __name__ == '__main__':
    sys.exit(main())
