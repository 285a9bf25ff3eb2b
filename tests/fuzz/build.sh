#!/usr/bin/env bash
# Builds every libFuzzer target of tests/fuzz/ into build-fuzz/ with
# clang++ -fsanitize=fuzzer,address,undefined (no meson setup needed).
# The front-end sources are compiled once for all targets, at most
# FUZZ_JOBS (default 2) compiles at a time; an object is rebuilt when its
# source or a header it includes is newer. Used by smoke.sh and long.sh.
# Usage: tests/fuzz/build.sh   (prints nothing but errors; exit 1 on failure)
set -euo pipefail
cd "$(dirname "$0")/../.."
CXX=${CXX:-clang++}
jobs=${FUZZ_JOBS:-2}
out=${FUZZ_OUT:-build-fuzz}
mkdir -p "$out/obj"

# The targets: tests/fuzz/fuzz_TARGET.cpp.
targets=(parse litmus_native litmus_dat3m launch_spec cond)

# libFuzzer runtime: Debian ships it in libclang-rt-<ver>-dev.
probe() {
  echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
    "$CXX" -x c++ -fsanitize=fuzzer - -o "$out/probe" 2>/dev/null
}
if ! probe; then
  ver=$("$CXX" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get install -y "libclang-rt-${ver}-dev" >/dev/null || apt-get install -y "libclang-common-${ver}-dev" >/dev/null
  fi
  probe || { echo "fuzz build: $CXX has no libFuzzer runtime" >&2; exit 1; }
fi

flags=(-std=c++20 -O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -Wno-overloaded-shift-op-parentheses -I.)
# What the targets reach: the PTX parser, both litmus front ends and their
# printers, the launch-spec reader and its JSON reader, the outcomes
# condition parser.
common=(parser/diagnostic.cpp parser/table/table.cpp parser/x3/grammar.cpp parser/parse.cpp parser/insn.cpp
        parser/decl.cpp parser/expr.cpp parser/resolve.cpp parser/printer.cpp
        parser/litmus/cursor.cpp parser/litmus/dat3m.cpp parser/litmus/native.cpp parser/litmus/instr_names.cpp
        parser/litmus/mem_defaults.cpp parser/litmus/print.cpp parser/litmus/print_equiv.cpp
        semantics/interp/json_pos.cpp semantics/interp/values.cpp semantics/interp/tensormap.cpp
        semantics/interp/texture.cpp semantics/interp/launch_spec.cpp semantics/interp/launch_spec_tex.cpp
        semantics/interp/worker_pool.cpp
        checker/outcomes_cond.cpp)
srcs=("${common[@]}")
for t in "${targets[@]}"; do srcs+=("tests/fuzz/fuzz_$t.cpp"); done
obj() { echo "$out/obj/$(echo "$1" | tr '/' '_').o"; }

# An object is stale when it or its depfile (-MMD: the source and every
# project header it includes) is missing or older than one of those files.
stale() {
  local o=$1 d=$1.d f
  [ -f "$o" ] && [ -f "$d" ] || return 0
  for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$d"); do
    [ -e "$f" ] && [ ! "$f" -nt "$o" ] || return 0
  done
  return 1
}
# Other flags or compiler than the objects were built with: rebuild all.
stamp="$CXX ${flags[*]}"
[ "$(cat "$out/obj/flags" 2>/dev/null)" = "$stamp" ] || { rm -f "$out"/obj/*.o; echo "$stamp" >"$out/obj/flags"; }
pids=()
for s in "${srcs[@]}"; do
  o=$(obj "$s")
  if stale "$o"; then
    "$CXX" "${flags[@]}" -MMD -MF "$o.d" -MT "$o" -c "$s" -o "$o.tmp" && mv "$o.tmp" "$o" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
common_objs=()
for s in "${common[@]}"; do common_objs+=("$(obj "$s")"); done
for t in "${targets[@]}"; do
  bin="$out/fuzz_$t"
  o=$(obj "tests/fuzz/fuzz_$t.cpp")
  need=0
  [ -f "$bin" ] || need=1
  for x in "$o" "${common_objs[@]}"; do [ "$x" -nt "$bin" ] && need=1; done
  if [ $need = 1 ]; then
    "$CXX" -fsanitize=fuzzer,address,undefined "$o" "${common_objs[@]}" -o "$bin"
  fi
done
