#!/bin/sh
# Assembles PTX files with ptxas for the architecture each declares in its
# .target directive. Usage: check.sh [DIR...]; without DIR, the corpus
# (sm_80, sm_90, handwritten and ../kernels of this folder). A DIR may list
# files ptxas is known to reject in DIR/ptxas_skip.txt (`NAME.ptx reason`
# per line); they are reported as skipped. Exit 1 if any file is rejected,
# 77 (skipped) without ptxas; prints one line per file.
set -u
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
[ -x "$PTXAS" ] || { echo "ptxas not found at $PTXAS: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- "$here/sm_80" "$here/sm_90" "$here/handwritten" "$here/../kernels"
fail=0; count=0
for d in "$@"; do
    for f in "$d"/*.ptx; do
        [ -e "$f" ] || continue
        name=$(basename "$f")
        if [ -f "$d/ptxas_skip.txt" ] && grep -q "^$name " "$d/ptxas_skip.txt"; then
            echo "skip $f"; continue
        fi
        arch=$(sed -n 's|^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*|\1|p' "$f" | head -n 1)
        count=$((count + 1))
        if out=$("$PTXAS" -arch="$arch" -o /dev/null "$f" 2>&1); then
            echo "ok   $arch $f"
        else
            echo "FAIL $arch $f"; echo "$out" | sed 's/^/     /'; fail=1
        fi
    done
done
echo "$count files checked"
exit $fail
