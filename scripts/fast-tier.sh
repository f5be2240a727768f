#!/usr/bin/env bash
# Fast tier: builds and runs in seconds, no server.  Appends
# "stage passed failed skipped" lines to the file given as $1 (or prints a
# summary when run alone).
set -uo pipefail
. "$(dirname "$0")/lib.sh"
out=${1:-/dev/stdout}

# Unit tests of our own InnoDB code, built standalone (CMakeLists.txt at the
# repository root) against Debian's googletest.
fast=$FORK_BUILD_DIR/fast
if cmake -S "$FORK_ROOT" -B "$fast" -G Ninja -DCMAKE_BUILD_TYPE=Debug > "$fast.cmake.log" 2>&1 \
   && ninja -C "$fast" > "$fast.ninja.log" 2>&1; then
  pass=0 fail=0
  for t in "$fast"/unittest/*-t; do
    [ -x "$t" ] || continue
    "$t" --gtest_brief=1 > "$t.log" 2>&1 || { cat "$t.log" >&2; }
    p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$t.log" | grep -oE '[0-9]+$' || true)
    f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$t.log" | grep -oE '[0-9]+' || true)
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    # A binary that crashed or printed no verdict counts as a failure.
    [ -z "$p$f" ] && fail=$((fail + 1))
  done
  echo "unit $pass $fail 0" >> "$out"
  info "unit tests: $pass passed, $fail failed"
else
  cat "$fast.cmake.log" "$fast.ninja.log" 2>/dev/null | tail -30 >&2
  echo "unit 0 1 0" >> "$out"
fi

# Python tests: the tree tool, the benchmark harness (no server).
py_tests() {  # stage dir
  local stage=$1 dir=$2 log=$FORK_BUILD_DIR/$1-tests.log n f sk
  [ -d "$dir" ] || return 0
  python3 -m unittest discover -s "$dir" > "$log" 2>&1
  n=$(grep -oE '^Ran [0-9]+' "$log" | grep -oE '[0-9]+' || echo 0)
  f=$(grep -oE '(failures|errors)=[0-9]+' "$log" | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
  sk=$(grep -oE 'skipped=[0-9]+' "$log" | grep -oE '[0-9]+' || echo 0)
  [ "$f" != 0 ] && cat "$log" >&2
  [ "$n" = 0 ] && f=1                 # discovered nothing: a failure
  echo "$stage $((n - f - sk)) $f $sk" >> "$out"
  info "$stage tests: $((n - f - sk)) passed, $f failed, $sk skipped"
}
py_tests tree "$FORK_ROOT/scripts/tests"
py_tests harness "$FORK_ROOT/benchmarks/tests"
