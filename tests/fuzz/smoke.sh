#!/usr/bin/env bash
# Fuzz smoke run of the PTX parser: builds tests/fuzz/fuzz_parse.cpp with
# clang++ -fsanitize=fuzzer,address,undefined (no meson option needed) and
# runs it for 60 s on the seeds. Exits non-zero on any crash, hang (>5 s per
# input), sanitizer report or a build failure. Usage: tests/fuzz/smoke.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-60}
CXX=${CXX:-clang++}
out=build-fuzz
mkdir -p "$out/obj" "$out/corpus"

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
  probe || { echo "fuzz smoke: clang++ has no libFuzzer runtime" >&2; exit 1; }
fi

flags=(-std=c++20 -O1 -gline-tables-only -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -I.)
srcs=(parser/diagnostic.cpp parser/table/table.cpp parser/x3/grammar.cpp parser/parse.cpp parser/insn.cpp
      parser/decl.cpp parser/expr.cpp parser/resolve.cpp parser/printer.cpp tests/fuzz/fuzz_parse.cpp)
objs=()
pids=()
for s in "${srcs[@]}"; do
  o="$out/obj/$(echo "$s" | tr '/' '_').o"
  objs+=("$o")
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$(find parser -name '*.hpp' -newer "$o" -o -name '*.def' -newer "$o" | head -1)" ]; then
    "$CXX" "${flags[@]}" -c "$s" -o "$o" &
    pids+=($!)
    if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  fi
done
for p in "${pids[@]}"; do wait "$p"; done
"$CXX" -fsanitize=fuzzer,address,undefined "${objs[@]}" -o "$out/fuzz_parse"

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
"$out/fuzz_parse" -max_total_time="$secs" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
  -artifact_prefix="$out/" -print_final_stats=1 "$out/corpus" tests/fuzz/seeds
echo "fuzz smoke: no crash in ${secs}s"
