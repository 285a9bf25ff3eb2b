#!/usr/bin/env bash
# Campaigns (docs/campaigns.md): runs the GNU parallel demo of the doc as
# written (small COUNT), then checks what it relies on: the shards partition
# the batch, merge reproduces a single run's counts, --jsonl resumes (done
# tests skipped, a cut line redone), and merge's --expect verdicts and exit
# codes. Usage: campaign_test.sh PTXCHECK LITMUS_GEN SRC_ROOT
set -euo pipefail
ptxcheck=$(realpath "$1") gen=$(realpath "$2") src=$(realpath "$3")
command -v parallel >/dev/null || { echo "SKIP: GNU parallel is not installed (bootstrap.sh installs it)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The demo block, verbatim, with build/ pointing at this build.
mkdir -p "$tmp/demo/build/checker" "$tmp/demo/build/tests/props"
ln -s "$ptxcheck" "$tmp/demo/build/checker/ptxcheck"
ln -s "$gen" "$tmp/demo/build/tests/props/litmus-gen"
awk '/<!-- campaign-demo -->/{on=1; next} on && /^```sh/{inb=1; next} inb && /^```/{exit} inb' \
  "$src/docs/campaigns.md" > "$tmp/demo.sh"
[ -s "$tmp/demo.sh" ] || fail "no demo block in docs/campaigns.md"
(cd "$tmp/demo" && COUNT=20 SHARDS=3 OUT=c bash -euo pipefail "$tmp/demo.sh") > "$tmp/demo.out" 2>&1 ||
  { cat "$tmp/demo.out"; fail "the demo of docs/campaigns.md failed"; }
grep -q "^tests 20 |" "$tmp/demo.out" || { cat "$tmp/demo.out"; fail "merge did not count 20 tests"; }
for i in 1 2 3; do [ -s "$tmp/demo/c/shard-$i.jsonl" ] || fail "shard $i wrote nothing"; done

# 2. The shards partition the batch: every test once, in exactly one shard.
d="$tmp/demo/c/tests"
python3 - "$tmp/demo/c" "$d" <<'PY'
import json, os, sys
out, tests = sys.argv[1], sys.argv[2]
seen = {}
for i in (1, 2, 3):
    for line in open(f"{out}/shard-{i}.jsonl"):
        f = json.loads(line)["file"]
        assert f not in seen, f"{f} in shards {seen[f]} and {i}"
        seen[f] = i
assert sorted(os.path.basename(p) for p in seen) == sorted(os.listdir(tests)), "shards miss tests"
PY

# 3. merge gives the counts of one unsharded run.
(cd "$tmp/demo" && "$ptxcheck" -q c/tests | grep '^tests ') > "$tmp/one.txt"
(cd "$tmp/demo" && "$ptxcheck" merge -q c/shard-*.jsonl | grep '^tests ') > "$tmp/merged.txt"
diff "$tmp/one.txt" "$tmp/merged.txt" || fail "merge counts differ from a single run"

# 4. Resume: a rerun skips everything; a cut last line is redone.
(cd "$tmp/demo" && "$ptxcheck" -q --shard 2/3 --jsonl c/shard-2.jsonl c/tests) > "$tmp/rerun.txt"
n2=$(wc -l < "$tmp/demo/c/shard-2.jsonl")
grep -q "^tests 0 |" "$tmp/rerun.txt" && grep -q "^skipped $n2 " "$tmp/rerun.txt" || { cat "$tmp/rerun.txt"; fail "rerun did not skip"; }
head -c -20 "$tmp/demo/c/shard-2.jsonl" > "$tmp/cut" && cp "$tmp/cut" "$tmp/demo/c/shard-2.jsonl"
(cd "$tmp/demo" && "$ptxcheck" -q --shard 2/3 --jsonl c/shard-2.jsonl c/tests) > "$tmp/resume.txt"
grep -q "^tests 1 |" "$tmp/resume.txt" || { cat "$tmp/resume.txt"; fail "resume did not redo exactly the cut test"; }
[ "$(wc -l < "$tmp/demo/c/shard-2.jsonl")" = "$n2" ] || fail "resume left $(wc -l < "$tmp/demo/c/shard-2.jsonl") lines, want $n2"
"$ptxcheck" merge -q "$tmp"/demo/c/shard-*.jsonl > /dev/null || fail "merge after resume"

# 5. --expect through merge: the classics pass; a flipped expectation fails with 1.
# Their verdicts under the default model come from their goldens (NAME.litmus.expected).
for g in "$src"/litmus/*.litmus.expected; do
  v=$(sed -n 's/^Model ptx75: \([A-Za-z]*\) .*/\1/p' "$g")
  echo "litmus/$(basename "$g" .expected),$([ "$v" = Ok ] && echo 1 || echo 0)"
done > "$tmp/expected.csv"
parallel "$ptxcheck" -q --shard {}/2 --jsonl "$tmp/cl-{}.jsonl" "$src/litmus" ::: 1 2 > /dev/null
"$ptxcheck" merge --expect "$tmp/expected.csv" "$tmp"/cl-*.jsonl > "$tmp/cl.txt" || { cat "$tmp/cl.txt"; fail "classics"; }
want=$(grep -v '^#' "$tmp/expected.csv" | grep -c ,)
grep -q "^expected $want | agree $want | disagree 0" "$tmp/cl.txt" || { cat "$tmp/cl.txt"; fail "classics agreement"; }
awk '!done && !/^#/ && /,[01]$/ {sub(/,1$/, ",x"); sub(/,0$/, ",1"); sub(/,x$/, ",0"); done=1} 1' \
  "$tmp/expected.csv" > "$tmp/flip.csv"
set +e
"$ptxcheck" merge -q --expect "$tmp/flip.csv" "$tmp"/cl-*.jsonl > /dev/null 2> "$tmp/flip.err"; rc=$?
set -e
[ $rc = 1 ] && grep -q "expected" "$tmp/flip.err" || { cat "$tmp/flip.err"; fail "flipped expectation: exit $rc"; }

# 6. Bad input: one line file:line:col, exit 2; a bad --shard, exit 2.
echo '{"file": "x"' > "$tmp/bad.jsonl"
set +e
"$ptxcheck" merge "$tmp/bad.jsonl" 2> "$tmp/bad.err"; rc=$?
"$ptxcheck" --shard 4/3 "$src/litmus" 2> /dev/null; rc2=$?
set -e
[ $rc = 2 ] && grep -q "bad.jsonl:1:" "$tmp/bad.err" || { cat "$tmp/bad.err"; fail "malformed JSONL: exit $rc"; }
[ $rc2 = 2 ] || fail "--shard 4/3: exit $rc2"
echo "campaign: ok"
