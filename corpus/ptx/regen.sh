#!/bin/sh
# Regenerates sm_80/*.ptx and sm_90/*.ptx from src/*.cu with fixed flags.
# Deterministic for a given nvcc (the committed files come from CUDA 13.0.88).
# Per-file options, read from the source's first lines:
#   // corpus-arch: sm_90        only these architectures (default: sm_80 sm_90)
#   // corpus-flags: FLAGS       extra nvcc flags (e.g. -use_fast_math)
# The absolute path of the source in .file directives is rewritten to
# "src/NAME.cu" so the output does not depend on where the checkout lives.
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
here=$(pwd)
for src in src/*.cu; do
    name=$(basename "$src" .cu)
    archs=$(sed -n 's|^// corpus-arch: ||p' "$src")
    flags=$(sed -n 's|^// corpus-flags: ||p' "$src")
    for arch in ${archs:-sm_80 sm_90}; do
        mkdir -p "$arch"
        # shellcheck disable=SC2086
        "$NVCC" -ptx -arch="$arch" -O3 -lineinfo $flags -o "$arch/$name.ptx" "$src"
        sed -i "s|\"$here/src/|\"src/|" "$arch/$name.ptx"
    done
done
