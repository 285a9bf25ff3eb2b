#!/bin/sh
# Regenerates races.ptx from races.cu (the committed file comes from CUDA 13).
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
"$NVCC" -ptx -arch=sm_80 -O3 -lineinfo -o races.ptx races.cu
sed -i "s|\"$(pwd)/|\"|" races.ptx
