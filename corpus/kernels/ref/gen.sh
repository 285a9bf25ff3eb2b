#!/bin/sh
# Rebuilds the reference generator with g++ and regenerates every
# corpus/kernels/NAME.json (launch spec) and NAME.expected.json (expected
# outputs). The references are plain C++ mirrors of the CUDA sources in
# corpus/ptx/src; nothing here runs PTX. -ffp-contract=off keeps host float
# arithmetic exactly as written (fma only where std::fma is called); directed
# rounding is computed by error-free transformations, never by fesetround.
# Usage: gen.sh [OUTDIR]   (default: corpus/kernels itself; the data-integrity
# test writes to a temporary folder and compares with the committed files;
# it sets OPT=-O0 to compile faster: the outputs do not depend on it).
set -eu
outdir=${1:+$(cd "$1" && pwd)}
cd "$(dirname "$0")"
CXX=${CXX:-g++}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One translation unit (a unity build) halves the compile time; the sources
# keep their helpers static with distinct names so this stays valid.
for f in ./*.cpp; do echo "#include \"$(pwd)/$f\""; done > "$out/all.cpp"
$CXX -std=c++20 ${OPT:--O1} -ffp-contract=off -fno-fast-math -Wall -Wextra \
    -o "$out/gen" "$out/all.cpp"
here=$(pwd)
"$out/gen" "${outdir:-$here/..}" "$here/.."
