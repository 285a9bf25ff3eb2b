#!/bin/sh
# ThreadSanitizer run of the parallel mode (--jobs, docs/interpreter.md "CTAs
# on all cores"), by hand; not part of CI (it compiles the interpreter again).
# The interpreter's sources (semantics/interp/*.cpp, where the worker threads
# run and share global memory) and tests/interp/test_parallel.cpp are compiled
# with -fsanitize=thread and linked against the normal libraries of BUILD
# (parser, memmodel, the rest of semantics: no thread shares their data).
# Also the driver shim, libcuda.so.1, with the same objects. Then: the
# `[parallel]` test cases of interp-parallel, `ptxcheck run --jobs 4` on the
# launch specs given, and `ptxcheck exec --jobs 4` on the runtime programs
# given (their processes get the TSan runtime by LD_PRELOAD).
# Usage: tests/interp/tsan.sh BUILD OUT [SPEC.json...] [PROGRAM...]
#   (from the source root; BUILD is a configured build directory with the
#   libraries, ptxcheck and the shim built; TSAN_NO_TEST=1 skips the test cases)
set -e
B=${1:?build directory}
O=${2:?output directory}
shift 2
mkdir -p "$O"
FL="-I. -I$B -I$B/semantics -D_FILE_OFFSET_BITS=64 -std=c++20 -O1 -g -fPIC -fsanitize=thread -pthread -DBOOST_ALL_NO_LIB"
objs=""
for f in semantics/interp/*.cpp; do
  o=$O/$(echo "$f" | tr / _).o
  if [ ! -f "$o" ] || [ "$f" -nt "$o" ]; then echo "cc $f"; c++ $FL -c "$f" -o "$o"; fi
  objs="$objs $o"
done
t=$O/tests_interp_test_parallel.cpp.o
if [ ! -f "$t" ] || [ tests/interp/test_parallel.cpp -nt "$t" ]; then c++ $FL -c tests/interp/test_parallel.cpp -o "$t"; fi
LIBS="-Wl,--start-group $B/semantics/libsemantics.a $B/parser/libptxparser.a $B/memmodel/libmemmodel.a
  $B/memmodel/libmemmodel_core.a $B/checker/libchecker_run.a -lfmt -lz3 -Wl,--end-group"
c++ -fsanitize=thread -pthread -o "$O/test_parallel_tsan" $objs "$t" $LIBS -lCatch2WithMain
c++ -fsanitize=thread -pthread -o "$O/ptxcheck_tsan" $objs "$B"/checker/ptxcheck.p/*.o \
  -Wl,--start-group "$B"/checker/*.a "$B"/cuda/libcuda_exec.a $LIBS -Wl,--end-group
mkdir -p "$O/shim"
c++ -fsanitize=thread -pthread -shared -fPIC -o "$O/shim/libcuda.so.1" -Wl,-soname,libcuda.so.1 \
  -Wl,--version-script=cuda/shim/exports.map "$B"/cuda/libcuda.so.1.p/*.o $objs $LIBS -llz4 -lzstd
echo "built $O/test_parallel_tsan $O/ptxcheck_tsan $O/shim/libcuda.so.1"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
[ -n "${TSAN_NO_TEST:-}" ] || PTXCHECK_SRC=$PWD "$O/test_parallel_tsan" '[parallel]'
tsan=$(c++ -print-file-name=libtsan.so)
for s in "$@"; do
  case "$s" in
    *.json)
      echo "ptxcheck run --jobs 4 $s"
      for r in default off; do
        rc=0
        "$O/ptxcheck_tsan" run --jobs 4 --races=$r "$s" > "$O/run.out" 2> "$O/run.err" || rc=$?
        if [ $rc = 66 ]; then cat "$O/run.err"; exit 1; fi
      done ;;
    *)
      echo "ptxcheck exec --jobs 4 $s"
      rc=0
      PTXCHECK_SHIM_DIR="$O/shim" LD_PRELOAD="$tsan" "$O/ptxcheck_tsan" exec --jobs 4 "$s" > "$O/exec.out" 2> "$O/exec.err" || rc=$?
      if [ $rc = 66 ] || grep -q "ThreadSanitizer" "$O/exec.err"; then cat "$O/exec.err"; exit 1; fi ;;
  esac
done
echo "tsan: no data race reported"
