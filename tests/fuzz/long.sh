#!/usr/bin/env bash
# Long fuzz run (docs/testing.md, "Fuzzing"): builds the targets (build.sh)
# and fuzzes each for SECONDS (default 3600) under `nice -n 19`, FUZZ_PARALLEL
# targets at a time (default 1). A finding does not end a target's run: the
# reproducer is kept and libFuzzer restarts on the grown corpus until the
# time is spent. Per target, in build-fuzz/long/: TARGET/ (the corpus, kept
# between runs), TARGET.log, TARGET-crash-*/-timeout-*/-oom-* (findings:
# fix them and add them to tests/fuzz/regress/TARGET/), and a summary line
# in summary.txt: wall time, executions, restarts, findings.
# Usage: tests/fuzz/long.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-3600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse litmus_native litmus_dat3m launch_spec cond)
par=${FUZZ_PARALLEL:-1}
FUZZ_JOBS=${FUZZ_JOBS:-1} nice -n 19 tests/fuzz/build.sh
out=${FUZZ_OUT:-build-fuzz}/long
mkdir -p "$out"
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1

run_target() {
  local t=$1 start end left execs=0 runs=0 n
  mkdir -p "$out/$t"
  local dirs=("$out/$t" "tests/fuzz/seeds/$t")
  [ -d "tests/fuzz/regress/$t" ] && dirs+=("tests/fuzz/regress/$t")
  start=$(date +%s)
  end=$((start + secs))
  : >"$out/$t.log"
  while left=$((end - $(date +%s))); [ "$left" -gt 0 ]; do
    runs=$((runs + 1))
    echo "== run $runs, ${left}s left ($(date -u +%H:%M:%S))" >>"$out/$t.log"
    nice -n 19 "${FUZZ_OUT:-build-fuzz}/fuzz_$t" -max_total_time="$left" -timeout=5 -rss_limit_mb=2048 -max_len=16384 \
      -artifact_prefix="$out/$t-" -print_final_stats=1 "${dirs[@]}" >"$out/$t.run" 2>&1 || true
    # Executions: the final stats, or for a run ended by a finding its last
    # status line (`#N ...`).
    n=$(grep '^stat::number_of_executed_units' "$out/$t.run" | awk '{print $2}')
    [ -n "$n" ] || n=$(grep -o '^#[0-9]*' "$out/$t.run" | tail -1 | tr -d '#')
    execs=$((execs + ${n:-0}))
    cat "$out/$t.run" >>"$out/$t.log"
    sleep 1  # no busy loop should the binary be missing (rebuilt meanwhile)
  done
  local findings
  findings=$(find "$out" -maxdepth 1 -name "$t-*" -newer "$out/$t.log.start" 2>/dev/null | wc -l)
  printf '%s %s: wall %ss, %s executions, %s libFuzzer runs, %s findings\n' "$(date -u +%FT%TZ)" "$t" \
    "$(($(date +%s) - start))" "$execs" "$runs" "$findings" | tee -a "$out/summary.txt"
}

pids=()
for t in "${targets[@]}"; do
  touch "$out/$t.log.start"
  run_target "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$par" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
