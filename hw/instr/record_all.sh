#!/bin/sh
# Records every generated test of DIR on the GPU (or the shim) and files the
# recordings under corpus/hw/<gpu>/instr/ with their spec, PTX and manifest,
# then compares each with ptxcheck. Run on the GPU machine:
#   hw/instr/record_all.sh BUILD_DIR DIR GPU_SLUG [MAX_SM]   e.g. build /tmp/instr h100 90
# Variants for a newer target than MAX_SM (default 90; 80 on an A100) are skipped.
# Exit: 0 all recorded and matching; 1 a mismatch or a failed recording.
set -u
build=$1 dir=$2 gpu=$3 max_sm=${4:-90}
src=$(cd "$(dirname "$0")/../.." && pwd)
dest="$src/corpus/hw/$gpu/instr"
mkdir -p "$dest"
status=0
for spec in "$dir"/*.sm_*.json; do
  case "$spec" in *.manifest.json|*.recording.json) continue ;; esac
  name=$(basename "$spec" .json)
  sm=${name##*.sm_}
  [ "$sm" -le "$max_sm" ] || continue
  for ext in ptx json manifest.json; do cp "$dir/$name.$ext" "$dest/"; done
  if ! "$build/hw/instr/ptxcheck-instr-host" "$dest/$name.json" --out "$dest/$name.recording.json"; then
    echo "$name: recording failed (sm_$sm)" >&2
    rm -f "$dest/$name.recording.json"
    status=1
    continue
  fi
  "$build/hw/instr/ptxcheck-instrgen" compare "$dest/$name.recording.json" | tail -1 || status=1
done
exit $status
