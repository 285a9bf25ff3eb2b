#!/usr/bin/env bash
# Build everything: install missing Debian 12 packages, configure, compile.
# Usage: ./bootstrap.sh [BUILDDIR] [extra meson setup args...]
set -euo pipefail
cd "$(dirname "$0")"
builddir=${1:-build}
shift || true

pkgs=(meson ninja-build pkg-config cmake g++ libboost-dev libz3-dev catch2 librapidcheck-dev
      nlohmann-json3-dev libcli11-dev libfmt-dev liblz4-dev libzstd-dev parallel)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$builddir/build.ninja" ]; then
  meson setup "$builddir" "$@"
fi
ninja -C "$builddir" ${NINJA_JOBS:+-j "$NINJA_JOBS"}
