# Shared helpers for the fork's scripts.  Sourced, not run.
# shellcheck shell=bash
FORK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FORK_NAME=innofork

# The upstream pin.  Change these three together.
MYSQL_VERSION=9.7.2
DEB_SRC_PKG=mysql-9.7
DEB_SRC_VERSION=9.7.2-4
ORIG_TARBALL=mysql-9.7_9.7.2.orig.tar.gz
ORIG_SHA256=e5a676c7cb73738dc6ea33db2093806ebd512b629a139b897fcab68fcd81aaa4
ORIG_SIZE=429211578

# Where things go.  All overridable from the environment (see README).
FORK_BUILD_DIR=${FORK_BUILD_DIR:-$FORK_ROOT/build}
FORK_CACHE_DIR=${FORK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/innofork}

info() { printf '[%s] %s\n' "$FORK_NAME" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "$FORK_NAME" "$*" >&2; exit 1; }

# Source tree and build directory of a preset.  The layout keeps the path from
# a build directory to its source tree identical for all presets (../src), so
# ccache (with base_dir) shares the objects the fork and stock have in common.
preset_src()   { case $1 in stock) echo "$FORK_BUILD_DIR/stock/src";; *) echo "$FORK_BUILD_DIR/fork/src";; esac; }
preset_obj()   { case $1 in stock) echo "$FORK_BUILD_DIR/stock/release";; *) echo "$FORK_BUILD_DIR/fork/$1";; esac; }
check_preset() {
  case $1 in release|debug|stock|arm64) ;;
  *) die "unknown preset '$1': use release, debug, stock or arm64";;
  esac
}

# --- the test scripts' tally (test.sh, test-arm.sh) -------------------------
# Each stage appends "stage passed failed skipped" to the file $results;
# summary prints them and the line "N passed, N failed, N skipped", and
# fails if anything failed or nothing ran.
tally() { echo "$1 $2 $3 $4" >> "$results"; }

summary() {
  # What failed goes last, next to the totals, so that the tail of a CI log
  # names it (failures, written by mtr_stage).
  [ -s "$results.failures" ] && cat "$results.failures" >&2
  awk '{p+=$2; f+=$3; s+=$4; printf "  %-10s %d passed, %d failed, %d skipped\n", $1, $2, $3, $4 > "/dev/stderr"}
       END {printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || NR == 0)}' "$results"
}

# MTR in build directory $1 with every fork switch ON, its output in $2;
# the rest are mysql-test-run.pl options and tests.  Tallies stage "mtr".
# (A test that needs a switch OFF says so in its -master.opt file, which
# comes later and wins; MTR drops a .combinations entry that repeats a
# --mysqld option, so none are used.)
mtr_stage() {  # stage obj log mtr-arguments...
  local stage=$1 obj=$2 log=$3 line rc pass fail skip switches=()
  shift 3
  while IFS= read -r line; do
    switches+=("--mysqld=--${line//_/-}")
  done < <(grep -vE '^\s*(#|$)' "$FORK_ROOT/scripts/fork-switches.cnf")
  info "MTR in $obj, switches: ${switches[*]:-none}"
  ( cd "$obj/mysql-test" && perl mysql-test-run.pl --force --retry=0 --max-test-fail=0 \
      --nounit-tests "${switches[@]}" "$@" ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  pass=$(grep -cE '\[ pass \]' "$log")
  fail=$(grep -cE '\[ fail \]' "$log")
  skip=$(grep -cE '\[ (skipped|disabled) \]' "$log")
  # MTR failing without a per-test verdict (the server did not start, say)
  # is a failure too, and so is a run in which no test ran.
  [ "$rc" != 0 ] && [ "$fail" = 0 ] && fail=1
  [ "$pass" = 0 ] && [ "$fail" = 0 ] && fail=1
  # Each failed test with the first lines of its verdict (the mismatch or the
  # assertion), for summary.
  awk -v stage="$stage" '/\[ fail \]/ {n = 12; print stage ": " $0; next}
       n > 0 && !/^ *- saving/ {print "    " $0; n--; next} {n = 0}' "$log" >> "$results.failures"
  tally "$stage" "$pass" "$fail" "$skip"
}
