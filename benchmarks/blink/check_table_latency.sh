#!/usr/bin/env bash
# Point-select latency while CHECK TABLE runs on the same table
# (benchmarks/doc/blink/README.md, "CHECK TABLE beside point selects"):
# one fork server, two copies of sysbench's table, one created with
# innodb_btree_blink OFF (stock format and code) and one ON (B-link).  For
# each repetition and each case, interleaved, two sysbench point-select
# threads run for $SECS seconds and one CHECK TABLE starts after 5: the
# stock table, the B-link table (online walk, index lock in S) and the
# B-link table with CHECK TABLE ... EXTENDED (full walk, index lock in X).
# Prints one line per run: case, repetition, CHECK TABLE seconds, point
# selects' P99 and maximum latency (ms), and queries per second.
#
#   benchmarks/blink/check_table_latency.sh [rows] [repetitions]   (1000000, 3)
#
# FORK_PRESET=release|debug (default release), SECS (default 60),
# VARDIR (default build/blink-check).
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/../../scripts/lib.sh"

rows=${1:-1000000}
reps=${2:-3}
secs=${SECS:-60}
FORK_PRESET=${FORK_PRESET:-release}
obj=$(preset_obj "$FORK_PRESET")
[ -x "$obj/bin/mysqld" ] || die "no $FORK_PRESET build: make build PRESET=$FORK_PRESET"
export VARDIR=${VARDIR:-$FORK_BUILD_DIR/blink-check} PORT=3398 PRESET=$FORK_PRESET
sock=$VARDIR/mysqld.sock
my=("$obj/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B)
sb=(--mysql-socket="$sock" --mysql-user=root --tables=1 --table-size="$rows")

if ! bash "$FORK_ROOT/scripts/server.sh" status >/dev/null 2>&1; then
  rm -rf "$VARDIR"
  EXTRA_CNF="innodb_buffer_pool_size=4G" bash "$FORK_ROOT/scripts/server.sh" start >/dev/null
fi
trap 'bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null 2>&1 || true' EXIT

for sw in OFF ON; do          # the switch decides the format of new tables
  db=sb_$sw
  if [ "$("${my[@]}" -e "SELECT COUNT(*) FROM information_schema.TABLES
         WHERE TABLE_SCHEMA = '$db' AND TABLE_NAME = 'sbtest1'")" = 0 ]; then
    "${my[@]}" -e "SET GLOBAL innodb_btree_blink = $sw; CREATE DATABASE IF NOT EXISTS $db"
    sysbench oltp_point_select "${sb[@]}" --mysql-db=$db prepare >/dev/null
  fi
done
"${my[@]}" -e "SET GLOBAL innodb_btree_blink = ON"
# Warm the buffer pool: the latency is about the index lock, not reads.
for db in sb_OFF sb_ON; do "${my[@]}" $db -e "CHECK TABLE sbtest1" >/dev/null; done

run() {  # case db check-statement rep
  local name=$1 db=$2 stmt=$3 rep=$4 out t0 t1
  out=$(mktemp)
  sysbench oltp_point_select "${sb[@]}" --mysql-db="$db" --threads=2 --time="$secs" \
    --percentile=99 --report-interval=0 run > "$out" &
  local pid=$!
  sleep 5
  t0=$(date +%s.%N)
  "${my[@]}" "$db" -e "$stmt" >/dev/null
  t1=$(date +%s.%N)
  wait $pid
  awk -v n="$name" -v r="$rep" -v c="$(echo "$t1 - $t0" | bc)" '
    /queries:/ && /per sec/ { gsub(/[()]/, ""); qps = $3 }
    /99th percentile:/ { p99 = $3 }
    /max:/ && !max { max = $2 }
    END { printf "%-16s rep %d  check %6.2f s  p99 %8.2f ms  max %9.2f ms  qps %s\n", n, r, c, p99, max, qps }' "$out"
  rm -f "$out"
}

for rep in $(seq 1 "$reps"); do
  run stock sb_OFF "CHECK TABLE sbtest1" "$rep"
  run blink sb_ON "CHECK TABLE sbtest1" "$rep"
  run blink-extended sb_ON "CHECK TABLE sbtest1 EXTENDED" "$rep"
done
