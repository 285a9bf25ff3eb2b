#!/bin/sh
# Regenerates gemm_tma_wgmma.ptx from gemm_tma_wgmma.cu (nvcc, sm_90a; the
# committed file comes from CUDA 13.0.88) and, from the plain C++ reference
# gemm_ref.cpp, the launch specs and expected output:
#   corpus/kernels/features/gemm_tma_wgmma_cu.json and .expected.json,
#   tests/interp/faults/gemm_tma_wgmma_cu_nofence.json
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CXX=${CXX:-g++}
cd "$(dirname "$0")"
"$NVCC" -ptx -arch=sm_90a -O3 -lineinfo -o gemm_tma_wgmma.ptx gemm_tma_wgmma.cu
sed -i "s|\"$(pwd)/|\"|" gemm_tma_wgmma.ptx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CXX" -std=c++20 -O1 -Wall -Werror -o "$tmp/gemm_ref" gemm_ref.cpp
features=../../../corpus/kernels/features
"$tmp/gemm_ref" "$features/gemm_tma_wgmma_cu.json" "$features/gemm_tma_wgmma_cu.expected.json" \
    ../faults/gemm_tma_wgmma_cu_nofence.json
