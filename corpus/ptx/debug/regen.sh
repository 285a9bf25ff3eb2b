#!/bin/sh
# Regenerates the debug-build corpus from every CUDA source of the repository
# (git ls-files '*.cu'): device-debug and line-info PTX as nvcc emits it for
# `-G`, `-lineinfo` and `-rdc=true` builds (PTX ISA 9.2 11.5 debugging
# directives, DWARF .section blocks with label arithmetic).
#   G/NAME.ptx         nvcc -ptx -G                  every source
#   lineinfo/NAME.ptx  nvcc -ptx -O3 -lineinfo       sources outside corpus/ptx/src
#                                                     (corpus/ptx/sm_* already are)
#   rdc/NAME.ptx       nvcc -ptx -G -rdc=true        sources with __device__ code, where
#                                                     it differs from G/NAME.ptx
#   clang/NAME.ptx     clang -O0 -g, sm_80 (NVPTX    corpus/ptx/src sources that include
#                      backend; clang 14 knows        no CUDA header and that clang
#                      no sm_90)                      compiles without the CUDA headers
#   large.txt          sources whose -G build exceeds MAX_BYTES (the libcu++-heavy
#                      ones: cuda::atomic_ref, memcpy_async, TMA); not committed,
#                      tests/parser/test_nvcc.cpp builds and checks them
# NAME is the source's path in the repository with '/' replaced by '.', minus
# ".cu". Architecture: the first of the source's `// corpus-arch:` line, else
# sm_90; `// corpus-flags:` adds nvcc flags (see ../regen.sh). A source with
# a `// corpus-debug: none` line has no debug builds (its device code is
# meant not to assemble: -G runs ptxas).
# The sources are compiled from a copy at a fixed path (STAGE below) under
# their repository-relative names, because -G embeds the compilation
# directory in .debug_info bytes: the output then does not depend on where
# the checkout lives. Deterministic for a given nvcc/clang (the committed
# files come from CUDA 13.0.88 and Debian clang 14.0.6).
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CLANG=${CLANG:-clang-14}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
STAGE=/tmp/ptxcheck-debug-corpus
MAX_BYTES=262144
rm -rf "$STAGE"
mkdir -p "$STAGE"
cd "$root"
git ls-files '*.cu' '*.cuh' | while read -r f; do
    mkdir -p "$STAGE/$(dirname "$f")"
    cp "$f" "$STAGE/$f"
done
rm -rf "$here/G" "$here/lineinfo" "$here/rdc" "$here/clang" "$here/large.txt"
mkdir -p "$here/G" "$here/lineinfo" "$here/rdc" "$here/clang"
: > "$here/large.txt"
cd "$STAGE"
# clang -nocudainc: the CUDA 13 headers are newer than clang 14 accepts, so
# sources that need none get the few attribute macros from this prelude.
cat > "$STAGE/clang_prelude.h" <<'PRELUDE'
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#include <__clang_cuda_builtin_vars.h>
PRELUDE
(cd "$root" && git ls-files '*.cu') | while read -r src; do
    if grep -q '^// corpus-debug: none' "$src"; then continue; fi
    name=$(echo "${src%.cu}" | tr / .)
    arch=$(sed -n 's|^// corpus-arch: ||p' "$src" | awk '{print $1}')
    arch=${arch:-sm_90}
    flags=$(sed -n 's|^// corpus-flags: ||p' "$src")
    # -G already runs cicc at -O0: nvcc refuses "-Xcicc -O0" beside it
    # ("libnvvm : error: -opt defined more than once"), and -G twice is one -G.
    gflags=$(echo "$flags" | sed -e 's/-Xcicc -O0//' -e 's/-G//')
    echo "$src -> $name ($arch)"
    # shellcheck disable=SC2086
    "$NVCC" -ptx -arch="$arch" -G $gflags -o "$STAGE/G.ptx" "$src"
    case "$src" in
        corpus/ptx/src/*) ;;
        *) # shellcheck disable=SC2086
           "$NVCC" -ptx -arch="$arch" -O3 -lineinfo $flags -o "$here/lineinfo/$name.ptx" "$src" ;;
    esac
    # Relocatable device code changes the PTX only where there are
    # __device__ functions or variables to keep external.
    if grep -q '__device__' "$src"; then
        # shellcheck disable=SC2086
        "$NVCC" -ptx -arch="$arch" -G -rdc=true $gflags -o "$STAGE/rdc.ptx" "$src"
        if ! cmp -s "$STAGE/rdc.ptx" "$STAGE/G.ptx" && [ "$(wc -c < "$STAGE/rdc.ptx")" -le "$MAX_BYTES" ]; then
            mv "$STAGE/rdc.ptx" "$here/rdc/$name.ptx"
        fi
    fi
    if [ "$(wc -c < "$STAGE/G.ptx")" -le "$MAX_BYTES" ]; then
        mv "$STAGE/G.ptx" "$here/G/$name.ptx"
    else
        # Too large to commit: listed for tests/parser/test_nvcc.cpp, which
        # builds and checks them where nvcc is installed.
        echo "$src" >> "$here/large.txt"
    fi
    case "$src" in
        corpus/ptx/src/*)
            if ! grep -q '^#include' "$src" && [ -z "$flags" ]; then
                "$CLANG" -x cuda --cuda-gpu-arch=sm_80 --cuda-device-only -nocudainc -nocudalib \
                    -include "$STAGE/clang_prelude.h" -O0 -g -S -o "$here/clang/$name.ptx" "$src" \
                    2>/dev/null || rm -f "$here/clang/$name.ptx"
            fi ;;
    esac
done
rm -rf "$STAGE"
