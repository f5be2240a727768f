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

# Tests of the benchmark harness (pure Python, no server).
if [ -d "$FORK_ROOT/benchmarks/tests" ]; then
  hlog=$FORK_BUILD_DIR/harness-tests.log
  python3 -m unittest discover -s "$FORK_ROOT/benchmarks/tests" -t "$FORK_ROOT/benchmarks" > "$hlog" 2>&1
  n=$(grep -oE '^Ran [0-9]+' "$hlog" | grep -oE '[0-9]+' || echo 0)
  f=$(grep -oE 'failures=[0-9]+|errors=[0-9]+' "$hlog" | grep -oE '[0-9]+' | paste -sd+ | bc 2>/dev/null || echo 0)
  s=$(grep -oE 'skipped=[0-9]+' "$hlog" | grep -oE '[0-9]+' || echo 0)
  [ "$f" != 0 ] && cat "$hlog" >&2
  echo "harness $((n - ${f:-0} - ${s:-0})) ${f:-0} ${s:-0}" >> "$out"
fi
