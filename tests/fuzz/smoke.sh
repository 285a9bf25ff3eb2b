#!/usr/bin/env bash
# Fuzz smoke run (CI, .ci/run): builds every libFuzzer target (build.sh) and
# fuzzes each for its share of a total budget (default 60 s, split evenly),
# from its seeds (tests/fuzz/seeds/TARGET/) and regression inputs
# (tests/fuzz/regress/TARGET/). Exits non-zero on any crash, hang (>5 s per
# input), sanitizer report, uncaught exception or build failure; reproducers
# are left in build-fuzz/TARGET-crash-* (add them to tests/fuzz/regress/).
# Usage: tests/fuzz/smoke.sh [TOTAL_SECONDS]   (FUZZ_TARGETS="a b" to pick)
set -euo pipefail
cd "$(dirname "$0")/../.."
total=${1:-60}
start=$(date +%s)
tests/fuzz/build.sh
built=$(date +%s)
out=${FUZZ_OUT:-build-fuzz}
targets=(${FUZZ_TARGETS:-parse litmus_native litmus_dat3m launch_spec cond})
per=$(( total / ${#targets[@]} ))
[ "$per" -ge 1 ] || per=1

export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t"
  dirs=("$out/corpus/$t" "tests/fuzz/seeds/$t")
  [ -d "tests/fuzz/regress/$t" ] && dirs+=("tests/fuzz/regress/$t")
  echo "== fuzz $t for ${per}s"
  if ! "$out/fuzz_$t" -max_total_time="$per" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
       -artifact_prefix="$out/$t-" -print_final_stats=1 "${dirs[@]}" 2>"$out/$t.log"; then
    tail -n 40 "$out/$t.log" >&2
    failed+=("$t")
  else
    grep -E '^(stat::number_of_executed_units|Done)' "$out/$t.log" || true
  fi
done
echo "fuzz smoke: build $(( built - start ))s, fuzzing $(( $(date +%s) - built ))s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz smoke: findings in ${failed[*]} (build-fuzz/*.log, build-fuzz/TARGET-crash-*)" >&2
  exit 1
fi
echo "fuzz smoke: no finding in ${#targets[@]} targets, ${per}s each"
