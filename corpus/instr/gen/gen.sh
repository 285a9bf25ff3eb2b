#!/usr/bin/env bash
# Regenerates corpus/instr/*.vec from the independent host references in
# this folder. Built with -frounding-math so that fesetround is honoured.
# Usage: corpus/instr/gen/gen.sh   (from anywhere; needs g++ >= 12)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(dirname "$here")"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for g in gen_int gen_float gen_cvt gen_video gen_mx; do
  g++ -std=c++20 -O1 -frounding-math -fno-fast-math -Wall -o "$tmp/$g" "$here/$g.cpp" -lm
  "$tmp/$g" "$out"
done
