#!/bin/sh
# Assembles every PTX file of the corpus with ptxas for the architecture it
# declares in its .target directive (sm_80, sm_90 or sm_90a). Exit 1 if any
# file is rejected; prints one line per file.
set -u
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
cd "$(dirname "$0")"
fail=0; count=0
for f in sm_80/*.ptx sm_90/*.ptx handwritten/*.ptx ../kernels/*.ptx; do
    [ -e "$f" ] || continue
    arch=$(sed -n 's|^[[:space:]]*\.target[[:space:]]*\([a-z0-9_]*\).*|\1|p' "$f" | head -n 1)
    count=$((count + 1))
    if out=$("$PTXAS" -arch="$arch" -o /dev/null "$f" 2>&1); then
        echo "ok   $arch $f"
    else
        echo "FAIL $arch $f"; echo "$out" | sed 's/^/     /'; fail=1
    fi
done
echo "$count files checked"
exit $fail
