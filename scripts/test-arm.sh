#!/usr/bin/env bash
# make test-arm: the debug fork cross-built for aarch64 on this x86-64 host
# and run under qemu-user (README, "ARM").  Not part of make test.
#   1. packages: Debian's cross compilers, the :arm64 libraries, qemu-user
#      registered with binfmt_misc (MTR starts mysqld and the clients by
#      path, so the kernel must run aarch64 programs by itself)
#   2. the cross-build (scripts/build.sh arm64)
#   3. the fast tier's unit tests, cross-built, plain and under TSan
#   4. a server of its own: --initialize-insecure, start, queries that
#      exercise the three switches, a few seconds of sysbench, shutdown
#   5. an MTR selection (mysql-test/innofork-arm.list)
# Ends with "N passed, N failed, N skipped" and the time of each stage.
#
#   MTR_TESTS="..."  run these MTR tests instead of the list
#   SYSBENCH_TIME=N  seconds of sysbench (default 10)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

results=$(mktemp)
trap 'rm -f "$results" "$results.failures"' EXIT
times=()
stage_time() { times+=("$1 $(( $(date +%s) - $2 )) s"); }

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

# --- 1. packages and binfmt -------------------------------------------------
arm_deps() {
  bash "$FORK_ROOT/scripts/deps.sh" || return 1
  # The :arm64 twins of the libraries deps.sh installs, plus googletest and
  # the TSan runtime for the fast tier.
  local pkgs=(crossbuild-essential-arm64 qemu-user qemu-user-binfmt binfmt-support)
  local p
  for p in libssl-dev libncurses-dev libaio-dev libnuma-dev libzstd-dev liblz4-dev \
           zlib1g-dev libicu-dev libprotobuf-dev libprotoc-dev libtirpc-dev \
           libgtest-dev libtsan2; do
    pkgs+=("$p:arm64")
  done
  local missing=()
  for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
      info "adding the arm64 architecture to dpkg (multiarch)"
      $SUDO dpkg --add-architecture arm64 || return 1
    fi
    info "installing: ${missing[*]}"
    $SUDO apt-get update -qq || return 1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" || return 1
  fi
  # binfmt_misc: mounted and qemu-aarch64 enabled (a container or a fresh
  # boot may have neither).
  local bm=/proc/sys/fs/binfmt_misc
  [ -e "$bm/register" ] || $SUDO mount -t binfmt_misc binfmt_misc "$bm" || return 1
  [ -e "$bm/qemu-aarch64" ] || $SUDO update-binfmts --enable qemu-aarch64 || return 1
  grep -q '^enabled' "$bm/qemu-aarch64"
}

start=$(date +%s)
if arm_deps; then
  tally arm-deps 1 0 0
else
  info "could not install the cross toolchain or register qemu-aarch64 with binfmt_misc"
  tally arm-deps 0 1 0; summary; exit 1
fi
stage_time packages "$start"

# --- 2. cross-build ---------------------------------------------------------
start=$(date +%s)
if ! bash "$FORK_ROOT/scripts/build.sh" arm64; then
  tally arm-build 0 1 0; summary; exit 1
fi
obj=$(preset_obj arm64)
if readelf -h "$obj/bin/mysqld" | grep -q 'Machine: *AArch64'; then
  tally arm-build 1 0 0
else
  info "$obj/bin/mysqld is not an aarch64 program"; tally arm-build 0 1 0
fi
stage_time cross-build "$start"

# --- 3. fast tier -----------------------------------------------------------
start=$(date +%s)
FAST_ARCH=arm64 bash "$FORK_ROOT/scripts/fast-tier.sh" "$results"
stage_time fast-tier "$start"

# --- 4. a server, queries, sysbench -----------------------------------------
# scripts/server.sh with the arm64 build; the clients are the aarch64 ones
# too, sysbench is the host's (it only speaks the protocol).
start=$(date +%s)
var=$FORK_BUILD_DIR/arm/var
rm -rf "$var"
export PRESET=arm64 VARDIR=$var PORT=${ARM_PORT:-3396} START_TIMEOUT=900
server_checks() {
  bash "$FORK_ROOT/scripts/server.sh" start >/dev/null || return 1
  local sql=("$obj/bin/mysql" --defaults-file="$var/my.cnf" -N -B)
  local got
  got=$("${sql[@]}" -e "SELECT @@version_compile_machine, @@innodb_btree_blink,
          @@innodb_hybrid_read_view, @@innodb_view_close_latch_free") || return 1
  info "server: $got"
  [ "$got" = "$(printf 'aarch64\t1\t1\t1')" ] || return 1
  # Splits of a B-link index at every level, a READ COMMITTED reader, the
  # validator (a violation fails the SET), CHECK TABLE, and the validator in
  # its strict form.
  got=$("${sql[@]}" <<'SQL'
CREATE DATABASE test;
USE test;
CREATE TABLE t (k VARCHAR(200) PRIMARY KEY, v INT) ENGINE=InnoDB CHARSET=latin1;
SET SESSION cte_max_recursion_depth = 20000;
INSERT INTO t WITH RECURSIVE s (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT LPAD((n * 1009) % 20011, 200, '0'), n FROM s;
SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED;
BEGIN; SELECT COUNT(*), SUM(v) FROM t; SELECT COUNT(*) FROM t WHERE k > LPAD(10000, 200, '0'); COMMIT;
SET GLOBAL innodb_btree_blink_validate_debug = ON;
CHECK TABLE t;
SET SESSION debug = '+d,blink_validate_strict';
SET GLOBAL innodb_btree_blink_validate_debug = ON;
SELECT VARIABLE_VALUE > 0 FROM performance_schema.global_status
  WHERE VARIABLE_NAME = 'Innodb_btree_blink_nonleaf_splits';
SELECT VARIABLE_VALUE > 0 FROM performance_schema.global_status
  WHERE VARIABLE_NAME = 'Innodb_view_close_latch_free';
SQL
) || return 1
  info "server: $(echo $got)"
  [ "$(echo $got)" = "20000 200010000 10001 test.t check status OK 1 1" ] || return 1
  local sb=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$var/mysqld.sock"
            --mysql-user=root --mysql-db=test --tables=2 --table-size=2000)
  "${sb[@]}" prepare > "$var/sysbench.log" 2>&1 || return 1
  "${sb[@]}" --threads=4 --time="${SYSBENCH_TIME:-10}" --report-interval=0 \
    --db-ps-mode=disable run >> "$var/sysbench.log" 2>&1 || return 1
  info "sysbench under emulation: $(grep -E 'transactions:' "$var/sysbench.log" | tr -s ' ')"
  grep -qE 'transactions: +[1-9]' "$var/sysbench.log" || return 1
  grep -qE 'errors: +0 ' "$var/sysbench.log"
}
if server_checks; then
  tally arm-server 1 0 0
else
  tail -20 "$var/mysqld.err" "$var/sysbench.log" 2>/dev/null >&2
  tally arm-server 0 1 0
fi
bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null 2>&1
unset PRESET VARDIR PORT START_TIMEOUT
stage_time server "$start"

# --- 5. MTR -----------------------------------------------------------------
start=$(date +%s)
if [ -n "${MTR_TESTS:-}" ]; then
  tests=($MTR_TESTS)
else
  tests=($(grep -vE '^\s*(#|$)' "$FORK_ROOT/mysql-test/innofork-arm.list"))
fi
info "MTR under emulation: ${#tests[@]} tests"
# Under qemu-user a debug mysqld runs several times slower (the data
# directory takes about 4 minutes to initialize, a start about 40 s): the
# timeouts of a native run, stretched.  qemu-user implements neither Linux
# native AIO (io_setup) nor the NUMA memory policy calls (mbind,
# set_mempolicy): InnoDB would log an error and warnings at every start,
# which MTR's log check counts as failures, so both are off.
MTR_START_TIMEOUT=900 mtr_stage mtr "$obj" "$obj/mtr.log" --parallel=2 \
  --testcase-timeout=60 --shutdown-timeout=300 \
  --mysqld=--innodb-use-native-aio=OFF --mysqld=--innodb-numa-interleave=OFF \
  "${tests[@]}"
stage_time mtr "$start"

printf '  time: %s\n' "${times[@]}" >&2
summary
