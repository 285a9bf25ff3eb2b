#!/usr/bin/env python3
"""ptxas accepts the wgmma kernel tests' PTX, and (with --regen) they are
their generators' output: runs ptxas -arch=sm_90a on wgmma.ptx and
wgmma_sp.ptx when a CUDA toolkit is found (skipped otherwise, as every
toolkit test is); with --regen it also regenerates wgmma_ref.py's and
wgmma_sp_ref.py's files into a temporary directory and compares them byte
for byte with the committed ones (wgmma.ptx, wgmma_sp.ptx, wgmma_*.json,
wgmma_*.expected.json). The regeneration takes about 25 s of CPU (exact
Fraction sums), too slow for CI, so CI runs the ptxas check only."""
import filecmp, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    tmp = tempfile.mkdtemp(prefix='ptxcheck-wgmma-gen-')
    try:
        bad = 0
        made, committed = [], []
        if '--regen' in sys.argv[1:]:
            for script in ('wgmma_ref.py', 'wgmma_sp_ref.py'):
                subprocess.run([sys.executable, os.path.join(HERE, script), tmp], check=True)
            made = sorted(f for f in os.listdir(tmp))
            committed = sorted(f for f in os.listdir(HERE)
                               if f.startswith('wgmma') and (f.endswith('.json') or f.endswith('.ptx')))
        if made != committed:
            print('file sets differ: only generated', sorted(set(made) - set(committed)),
                  'only committed', sorted(set(committed) - set(made)))
            bad += 1
        for f in made:
            if f in committed and not filecmp.cmp(os.path.join(tmp, f), os.path.join(HERE, f), shallow=False):
                print('differs from its generator output:', f)
                bad += 1
        if made:
            print(f'{len(made)} generated files compared, {bad} problems')
        ptxas = shutil.which('ptxas') or next((p for p in (os.path.join(os.environ.get('CUDA_HOME', ''), 'bin/ptxas'),
                                                        '/usr/local/cuda/bin/ptxas') if os.path.exists(p)), None)
        if not ptxas:
            print('ptxas not found: acceptance not checked')
        else:
            for m in ('wgmma.ptx', 'wgmma_sp.ptx'):
                r = subprocess.run([ptxas, '-arch=sm_90a', os.path.join(HERE, m), '-o', os.devnull],
                                   capture_output=True, text=True)
                print(f'ptxas -arch=sm_90a {m}: exit {r.returncode}')
                if r.returncode:
                    print(r.stderr)
                    bad += 1
        return 1 if bad else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
