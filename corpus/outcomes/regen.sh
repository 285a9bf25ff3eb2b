#!/bin/sh
# Regenerates NAME.ptx from every NAME.cu of this folder with fixed flags
# (deterministic for a given nvcc; the committed files come from CUDA 13.0.88).
# A source line "// corpus-arch: sm_90" picks the architecture (default sm_80);
# "// corpus-flags: -G" adds nvcc flags (a debug build).
# The absolute source path in .file directives becomes "NAME.cu", so the
# output does not depend on where the checkout lives.
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
here=$(pwd)
for src in *.cu; do
    name=$(basename "$src" .cu)
    arch=$(sed -n 's|^// corpus-arch: ||p' "$src")
    flags=$(sed -n 's|^// corpus-flags: ||p' "$src")
    # shellcheck disable=SC2086
    "$NVCC" -ptx -arch="${arch:-sm_80}" -O3 -lineinfo $flags -o "$name.ptx" "$src"
    sed -i "s|\"$here/|\"|" "$name.ptx"
done
