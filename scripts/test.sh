#!/usr/bin/env bash
# The test command (make test; .ci/run calls it).
#   1. fast tier: patch series check, unit tests of our own code (plain and
#      under ThreadSanitizer), tree and harness tests
#   2. the debug build
#   3. MTR: our suites plus the upstream smoke selection, --parallel=2;
#      again with innodb_trx_throttling=3 the tests of our suites whose
#      verdict the gate can change (stage mtr-throttled; THROTTLED=all: all)
#   4. the harness's mutation check; 5. the harness smoke run
# Ends with one line: "N passed, N failed, N skipped".  Exits non-zero on any
# failure.
#
#   FAST_ONLY=1     stop after the fast tier
#   MTR_TESTS="..." run these MTR tests instead of the default selection
#   MTR_ARGS="..."  extra mtr options
set -uo pipefail
. "$(dirname "$0")/lib.sh"

results=$(mktemp)
trap 'rm -f "$results" "$results.failures"' EXIT

# --- 1. fast tier -----------------------------------------------------------
info "fast tier"
source=$("$FORK_ROOT/scripts/fetch-source.sh") || { tally fetch 0 1 0; summary; exit 1; }
bash "$FORK_ROOT/scripts/build.sh" debug --prepare-only || { tally prepare 0 1 0; summary; exit 1; }
if python3 "$FORK_ROOT/scripts/tree.py" check "$(preset_src stock)"; then
  tally patches 1 0 0
else
  tally patches 0 1 0
fi
bash "$FORK_ROOT/scripts/fast-tier.sh" "$results"

if [ "${FAST_ONLY:-0}" = 1 ]; then summary; exit; fi

# --- 2. debug build ---------------------------------------------------------
# A cold debug build and its MTR run, from here on (the source is prepared),
# took 4.6 GB more at their peak, sampled once a minute on a fresh clone
# (object tree 3.5 GB, ccache 0.4, MTR's var up to 2); 8 leaves room for what
# the samples missed.  A full compiler /tmp fails many objects at once with a
# message that hides the cause.  Benchmark data sets (build/bench, 3-5 GB per
# server) are the usual cause.
need_gb=$([ -d "$(preset_obj debug)/runtime_output_directory" ] && echo 4 || echo 8)
free_gb=$(( $(df -Pk "$FORK_ROOT/build" "${TMPDIR:-/tmp}" | awk 'NR>1 {print $4}' | sort -n | head -1) / 1048576 ))
if [ "$free_gb" -lt "$need_gb" ]; then
  info "ERROR: $free_gb GB free under build/ or ${TMPDIR:-/tmp}, the debug build and MTR need $need_gb:" \
       "remove build/bench (benchmark data sets) or run make clean"
  tally disk 0 1 0; summary; exit 1
fi
if ! bash "$FORK_ROOT/scripts/build.sh" debug; then
  tally build 0 1 0; summary; exit 1
fi

# --- 3. MTR -----------------------------------------------------------------
obj=$(preset_obj debug)
if [ -n "${MTR_TESTS:-}" ]; then
  tests=($MTR_TESTS)
else
  ours=()
  for suite in "$FORK_ROOT"/mysql-test/suite/*/; do
    for t in "$suite"t/*.test; do
      [ -e "$t" ] && ours+=("$(basename "$suite").$(basename "$t" .test)")
    done
  done
  tests=("${ours[@]}" $(grep -v '^#' "$FORK_ROOT/mysql-test/innofork-smoke.list"))
fi
info "MTR: ${#tests[@]} tests"
mtr_stage mtr "$obj" "$obj/mtr.log" --parallel=2 --testcase-timeout=30 ${MTR_ARGS:-} "${tests[@]}"

# --- 3b. under innodb_trx_throttling -----------------------------------------
# At most 3 user transactions in InnoDB at once, fewer than blink_stress.test's 4
# writers, which asserts that the gate queued some (trx/README.throttling.md):
# the gate must change no test's result.  The tests that can open more
# sessions than the cap, or read the gate's status (scripts/mtr_throttled.py
# says why no other test's verdict can change); THROTTLED=all (make
# test-throttled) runs every test of our suites.
if [ -z "${MTR_TESTS:-}" ]; then
  cap=3
  if [ "${THROTTLED:-}" = all ]; then
    throttled=("${ours[@]}")
  else
    throttled=($(python3 "$FORK_ROOT/scripts/mtr_throttled.py" $cap "$FORK_ROOT"/mysql-test/suite/*/))
  fi
  info "MTR with innodb_trx_throttling=$cap: ${#throttled[@]} tests"
  mtr_stage mtr-throttled "$obj" "$obj/mtr-throttled.log" --parallel=2 --testcase-timeout=30 \
    --vardir="$obj/mysql-test/var-throttled" --mysqld=--innodb-trx-throttling=$cap \
    ${MTR_ARGS:-} "${throttled[@]}"
fi

# --- 4. mutations of the harness ---------------------------------------------
# Each mutation of the harness's arithmetic and flow must make one of its
# unit tests fail (benchmarks/tests/mutate.py; under 2 minutes, no server).
log=$FORK_BUILD_DIR/harness-mutations.log
info "harness mutation check (log: $log)"
/usr/bin/python3 "$FORK_ROOT/benchmarks/tests/mutate.py" -j 2 > "$log" 2>&1
killed=$(grep -oE '^mutations: [0-9]+ killed' "$log" | grep -oE '[0-9]+' || echo 0)
survived=$(grep -oE '[0-9]+ survived' "$log" | grep -oE '[0-9]+' || echo 1)
[ "$survived" != 0 ] && grep -v '^killed' "$log" >&2
tally mutations "$killed" "$survived" 0

# --- 5. benchmark harness smoke ---------------------------------------------
# The harness end to end against the debug server: every workload that needs
# no extra tool, 2-10 s each (about 2 minutes in all on 2 cores, most of it
# initializing the debug server's data directory); check_smoke.py asserts on
# what it wrote.
bench=$FORK_BUILD_DIR/bench-smoke
rm -rf "$bench"
info "benchmark harness smoke run (log: $bench.log)"
if "$FORK_ROOT/benchmarks/run" --profile smoke --fork-build debug --port 3390 \
     --out "$bench/results" --workdir "$bench/work" > "$bench.log" 2>&1 \
   && python3 "$FORK_ROOT/benchmarks/tests/check_smoke.py" "$bench/results"; then
  tally bench 1 0 0
else
  tail -30 "$bench.log" >&2
  tally bench 0 1 0
fi
summary
