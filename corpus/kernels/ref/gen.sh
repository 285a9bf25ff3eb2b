#!/bin/sh
# Rebuilds the reference generator with g++ and regenerates every
# corpus/kernels/NAME.json (launch spec) and NAME.expected.json (expected
# outputs). The references are plain C++ mirrors of the CUDA sources in
# corpus/ptx/src; nothing here runs PTX. -ffp-contract=off keeps host float
# arithmetic exactly as written (fma only where std::fma is called); directed
# rounding is computed by error-free transformations, never by fesetround.
set -eu
cd "$(dirname "$0")"
CXX=${CXX:-g++}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
$CXX -std=c++20 -O1 -ffp-contract=off -fno-fast-math -Wall -Wextra \
    -o "$out/gen" ./*.cpp
"$out/gen" ..
