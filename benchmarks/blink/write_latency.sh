#!/usr/bin/env bash
# Point-select latency while one client writes the same B-link table
# (benchmarks/doc/blink/README.md, "Growing updates beside point selects",
# "Rows with values stored off the page beside point selects"): one fork
# server, sysbench's table (B-link) with a column added.  For each
# repetition and each setting of the workload's switch, interleaved, two
# sysbench point-select threads run for $SECS seconds while one client runs
# the writes (a third setting, stock, builds the table with
# innodb_btree_blink OFF: stock InnoDB's code path in the same binary):
#   update  $WRITES updates that give random rows 2,000 bytes in a VARCHAR
#           column, so that most of them split their leaf; the switch is
#           innodb_btree_blink_leveled_update (README.blink.md UP1);
#   lob     $WRITES inserts of rows after the last, each with a MEDIUMTEXT
#           value of 20-100 KB stored off the page; the switch is
#           innodb_btree_blink_leveled_external (EX1);
#   lobupdate  $WRITES updates that give random rows such a value (EX3).
# With the switch OFF every such split or write holds the index lock in X
# (the exclusive path), ON it holds S; stock holds SX, which stops no
# reader.  The table is rebuilt before each
# run.  Prints one line per run: setting, repetition, the writes' seconds,
# their exclusive paths and leveled splits, the point selects' P99 and
# maximum latency (ms), queries per second, and their acquisitions of the
# index lock with the milliseconds those took (performance_schema).
#
#   benchmarks/blink/write_latency.sh update|lob|lobupdate [rows] [repetitions]
#                                                    (200000, 3)
#
# FORK_PRESET=release|debug (default release), SECS (default 30), WRITES
# (default 20000 updates, 5000 LOB writes), WRITER_WAITS=1 (also times InnoDB's
# latches and file I/O, and prints the writer's six longest waits after
# each run), BUFFER_POOL (default 2G; the
# server is started with it unless one runs in VARDIR), VARDIR (default
# build/blink-write).
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/../../scripts/lib.sh"

workload=${1:-}
rows=${2:-200000}
reps=${3:-3}
secs=${SECS:-30}
case $workload in
  update) switch=leveled_update label=updates writes=${WRITES:-20000}
          column="v VARCHAR(4000) NOT NULL DEFAULT ''" ;;
  lob) switch=leveled_external label=inserts writes=${WRITES:-5000}
       column="t MEDIUMTEXT NULL" ;;
  lobupdate) switch=leveled_external label=updates writes=${WRITES:-5000}
             column="t MEDIUMTEXT NULL" ;;
  *) die "usage: $0 update|lob|lobupdate [rows] [repetitions]" ;;
esac
FORK_PRESET=${FORK_PRESET:-release}
obj=$(preset_obj "$FORK_PRESET")
[ -x "$obj/bin/mysqld" ] || die "no $FORK_PRESET build: make build PRESET=$FORK_PRESET"
export VARDIR=${VARDIR:-$FORK_BUILD_DIR/blink-write} PORT=3397 PRESET=$FORK_PRESET
sock=$VARDIR/mysqld.sock
my=("$obj/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B)
sb=(--mysql-socket="$sock" --mysql-db=sbtest --tables=1 --table-size="$rows")

if ! bash "$FORK_ROOT/scripts/server.sh" status >/dev/null 2>&1; then
  rm -rf "$VARDIR"
  EXTRA_CNF="innodb_buffer_pool_size=${BUFFER_POOL:-2G}" bash "$FORK_ROOT/scripts/server.sh" start >/dev/null
fi
trap 'bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null 2>&1 || true' EXIT
# The point selects run as a user of their own, so that performance_schema
# sums their waits for the index lock apart from the writes'.
"${my[@]}" -e "SET GLOBAL innodb_btree_blink = ON; CREATE DATABASE IF NOT EXISTS sbtest;
  CREATE USER IF NOT EXISTS reader@localhost; GRANT SELECT ON sbtest.* TO reader@localhost;
  UPDATE performance_schema.setup_instruments SET ENABLED = 'YES', TIMED = 'YES'
  WHERE NAME = 'wait/synch/sxlock/innodb/index_tree_rw_lock'
     OR (${WRITER_WAITS:-0} AND (NAME LIKE 'wait/synch/%/innodb/%'
                                 OR NAME LIKE 'wait/io/file/innodb/%'))"

# The same writes in every run: ids and lengths from a fixed seed.
sql=$(mktemp)
awk -v w="$workload" -v n="$writes" -v rows="$rows" 'BEGIN { srand(7);
  for (i = 0; i < n; i++)
    if (w == "update")
      printf "UPDATE sbtest1 SET v = REPEAT(\"u\", 2000) WHERE id = %d;\n", 1 + int(rand() * rows)
    else if (w == "lobupdate")
      printf "UPDATE sbtest1 SET t = REPEAT(\"t\", %d) WHERE id = %d;\n",
             20000 + int(rand() * 80001), 1 + int(rand() * rows)
    else
      printf "INSERT INTO sbtest1 (id, k, c, pad, t) VALUES (%d, 0, \"\", \"\", REPEAT(\"t\", %d));\n",
             rows + 1 + i, 20000 + int(rand() * 80001) }' > "$sql"

status() {  # the counter's value
  "${my[@]}" -e "SELECT VARIABLE_VALUE FROM performance_schema.global_status
                 WHERE VARIABLE_NAME = 'Innodb_btree_blink_$1'"
}

run() {  # setting (OFF, ON, stock) rep
  local sw=$1 rep=$2 out t0 t1 x0 l0 waits
  local blink=$([ "$sw" = stock ] && echo OFF || echo ON)
  "${my[@]}" sbtest -e "DROP TABLE IF EXISTS sbtest1; SET GLOBAL innodb_btree_blink = $blink"
  sysbench oltp_point_select "${sb[@]}" --mysql-user=root prepare >/dev/null
  "${my[@]}" sbtest -e "ALTER TABLE sbtest1 ADD COLUMN $column, ALGORITHM=COPY;
                        SET GLOBAL innodb_btree_blink = ON;
                        SET GLOBAL innodb_btree_blink_$switch = $([ "$sw" = stock ] && echo ON || echo "$sw");
                        TRUNCATE TABLE performance_schema.events_waits_summary_by_account_by_event_name"
  x0=$(status exclusive_paths) l0=$(status leveled_splits)
  out=$(mktemp)
  sysbench oltp_point_select "${sb[@]}" --mysql-user=reader --threads=2 --time="$secs" \
    --percentile=99 --report-interval=0 run > "$out" &
  local pid=$!
  sleep 2
  t0=$(date +%s.%N)
  "${my[@]}" sbtest < "$sql"
  t1=$(date +%s.%N)
  wait $pid
  # The point selects' acquisitions of the index lock, and the milliseconds
  # they took.
  waits=$("${my[@]}" -e "SELECT COUNT_STAR, ROUND(SUM_TIMER_WAIT / 1e9, 1)
    FROM performance_schema.events_waits_summary_by_account_by_event_name
    WHERE USER = 'reader' AND EVENT_NAME = 'wait/synch/sxlock/innodb/index_tree_rw_lock'")
  awk -v n="$switch" -v lb="$label" -v s="$sw" -v r="$rep" -v u="$(echo "$t1 - $t0" | bc)" -v w="$waits" \
      -v x="$(($(status exclusive_paths) - x0))" -v l="$(($(status leveled_splits) - l0))" '
    /queries:/ && /per sec/ { gsub(/[()]/, ""); qps = $3 }
    /99th percentile:/ { p99 = $3 }
    /max:/ && !max { max = $2 }
    END { split(w, a, "\t");
          printf "%s=%-3s rep %d  %s %6.2f s  exclusive %5d  leveled %5d  p99 %5.2f ms  max %7.2f ms  qps %s  index lock: %s acquisitions, %s ms\n",
          n, s, r, lb, u, x, l, p99, max, qps, a[1], a[2] }' "$out"
  rm -f "$out"
  if [ "${WRITER_WAITS:-0}" = 1 ]; then
    "${my[@]}" -e "SELECT '  writer waits', EVENT_NAME, COUNT_STAR, ROUND(SUM_TIMER_WAIT / 1e9, 1)
      FROM performance_schema.events_waits_summary_by_account_by_event_name
      WHERE USER = 'root' AND SUM_TIMER_WAIT > 0 ORDER BY SUM_TIMER_WAIT DESC LIMIT 6"
  fi
}

for rep in $(seq 1 "$reps"); do
  run OFF "$rep"
  run ON "$rep"
  run stock "$rep"
done
rm -f "$sql"
