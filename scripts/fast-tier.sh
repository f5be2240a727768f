#!/usr/bin/env bash
# Fast tier: builds and runs in seconds, no server.  Appends
# "stage passed failed skipped" lines to the file given as $1 (or prints a
# summary when run alone).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=${1:-/dev/stdout}

run_gtests() {  # stage binaries...: every *-tsan-t in stage tsan only
  local stage=$1 t p f rc pass=0 fail=0 ran=0 run=(); shift
  # setarch -R for ThreadSanitizer: its shadow memory layout does not fit
  # every kernel's address randomisation (gcc 12's runtime on 32 random
  # bits); only where the personality call is allowed (not in every
  # container).
  [ "$stage" = tsan ] && setarch "$(uname -m)" -R true 2>/dev/null && run=(setarch "$(uname -m)" -R)
  for t in "$@"; do
    [ -x "$t" ] || continue
    case $stage:$t in unit:*-tsan-t) continue;; esac
    ran=$((ran + 1))
    # A hang (a lost wake-up in a concurrent test) ends as a failure.
    timeout 600 "${run[@]}" "$t" --gtest_brief=1 > "$t.log" 2>&1; rc=$?
    [ $rc != 0 ] && cat "$t.log" >&2
    p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$t.log" | grep -oE '[0-9]+$' || true)
    f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$t.log" | grep -oE '[0-9]+' || true)
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    # A binary that crashed, printed no verdict, or exited non-zero after
    # its verdict (a sanitizer's report at exit) counts as a failure.
    [ -z "$p$f" ] || { [ $rc != 0 ] && [ "${f:-0}" = 0 ]; } && fail=$((fail + 1))
  done
  [ $ran = 0 ] && fail=1             # nothing built for this stage
  echo "$stage $pass $fail 0" >> "$out"
  info "$stage tests: $pass passed, $fail failed"
}

# Unit tests of our own InnoDB code, built standalone (CMakeLists.txt at the
# repository root) against Debian's googletest.  FAST_ARCH=arm64 (make
# test-arm): cross-built for aarch64 and run under qemu-user through
# binfmt_misc, the unit tests only.
fast=$FORK_BUILD_DIR/fast
cross=()
if [ "${FAST_ARCH:-}" = arm64 ]; then
  fast=$FORK_BUILD_DIR/fast-arm64
  cross=(-DCMAKE_TOOLCHAIN_FILE="$FORK_ROOT/cmake/innofork-aarch64.cmake")
fi
if cmake -S "$FORK_ROOT" -B "$fast" -G Ninja -DCMAKE_BUILD_TYPE=Debug "${cross[@]}" > "$fast.cmake.log" 2>&1 \
   && ninja -C "$fast" > "$fast.ninja.log" 2>&1; then
  run_gtests unit "$fast"/unittest/*-t
  # ThreadSanitizer: a data race report ends the binary (halt_on_error)
  # before GoogleTest's verdict, and no verdict counts as a failure.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    run_gtests tsan "$fast"/unittest/*-tsan-t
else
  cat "$fast.cmake.log" "$fast.ninja.log" 2>/dev/null | tail -30 >&2
  echo "unit 0 1 0" >> "$out"
  echo "tsan 0 1 0" >> "$out"
fi

[ -n "${FAST_ARCH:-}" ] && exit 0

# Python tests: the tree tool, the benchmark harness (no server).
py_tests() {  # stage dir [python]
  local stage=$1 dir=$2 python=${3:-python3} log=$FORK_BUILD_DIR/$1-tests.log n f sk
  [ -d "$dir" ] || return 0
  "$python" -m unittest discover -s "$dir" > "$log" 2>&1
  n=$(grep -oE '^Ran [0-9]+' "$log" | grep -oE '[0-9]+' || echo 0)
  f=$(grep -oE '(failures|errors)=[0-9]+' "$log" | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
  sk=$(grep -oE 'skipped=[0-9]+' "$log" | grep -oE '[0-9]+' || echo 0)
  [ "$f" != 0 ] && cat "$log" >&2
  [ "$n" = 0 ] && f=1                 # discovered nothing: a failure
  echo "$stage $((n - f - sk)) $f $sk" >> "$out"
  info "$stage tests: $((n - f - sk)) passed, $f failed, $sk skipped"
}
py_tests tree "$FORK_ROOT/scripts/tests"
# The harness's tests with the harness's interpreter (benchmarks/run:
# Debian's, which has matplotlib for the plot tests).
py_tests harness "$FORK_ROOT/benchmarks/tests" /usr/bin/python3
