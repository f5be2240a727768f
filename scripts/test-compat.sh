#!/usr/bin/env bash
# make test-compat: the drop-in round trip between stock 9.7.2 and the fork
# with B-link indexes (docs/operations.md; README.blink.md, "Which indexes are
# B-link").  Not part of make test: it needs the stock build as well.
#
#   1. stock makes a data directory with two tables;
#   2. the fork runs it with innodb_btree_blink OFF: nothing changes;
#   3. the fork with the switch ON: a new table (3-level trees) and a
#      rebuilt one become B-link, the untouched one stays stock;
#   4. stock is given that data directory: it must never return a wrong row
#      (it may refuse the B-link tables; what it does is printed);
#   5. the fork with the switch OFF rebuilds the B-link tables;
#   6. stock reads every row of every table, CHECK TABLE clean;
#   7. the fork, switch ON, writes to a B-link and a stock-format table and
#      is killed (kill -9) with the writes only in the redo log;
#   8. stock is started on (a copy of) that data directory, then the fork:
#      every committed row must be there (or the fork refuse the table,
#      never serve a stale one); stock's messages are printed;
#   9. the same with stock at each innodb_force_recovery level 1..6, and
#      at 6 without the binary log (where stock starts, read-only);
#  10. the safe way back after a crash (docs/operations.md, "Going back
#      to stock"):
#      the fork recovers, the B-link table is rebuilt with the switch OFF,
#      then stock reads every row.
#
#   FORK_PRESET=debug|release  fork build to use (default debug)
#   VARDIR=DIR   scratch directory, emptied first (default build/compat)
#   PORT=N       (default 3398)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

FORK_PRESET=${FORK_PRESET:-debug}
export VARDIR=${VARDIR:-$FORK_BUILD_DIR/compat} PORT=${PORT:-3398}
export DATADIR=$VARDIR/data
for p in stock "$FORK_PRESET"; do
  [ -x "$(preset_obj "$p")/bin/mysqld" ] || die "no $p build: run make build PRESET=$p"
done
rm -rf "$VARDIR"; mkdir -p "$VARDIR"
log=$VARDIR/mysqld.err
# Whichever server is up when a step fails is stopped (the same VARDIR, so
# either preset's stop finds it by its pid file).
trap 'PRESET=stock bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null 2>&1 || true' EXIT

n_pass=0 n_fail=0
pass() { n_pass=$((n_pass + 1)); printf '  ok    %s\n' "$1"; }
fail() { n_fail=$((n_fail + 1)); printf '  FAIL  %s\n' "$1"; }
expect() {  # what actual expected
  if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', expected '$3'"; fi
}

server() {  # preset start|stop [extra cnf lines]
  PRESET=$1 EXTRA_CNF=${3:-} bash "$FORK_ROOT/scripts/server.sh" "$2" >/dev/null
}
q() {  # preset sql: tab-separated rows, no headers
  "$(preset_obj "$1")/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B -e "$2" compat
}
q_err() {  # preset sql: the rows, or the client's error message
  "$(preset_obj "$1")/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B -e "$2" compat 2>&1 || true
}
step() { printf '\n== %s\n' "$*"; }

# A checksum of every row through the primary key and a count through the
# secondary index.
sums() {  # preset table
  q "$1" "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', pk, k, pad))) FROM $2;
          SELECT COUNT(*), SUM(k) FROM $2 FORCE INDEX (k) WHERE k >= 0" | tr '\t\n' '  '
}
blink_indexes() {  # preset: B-link indexes of the compat schema
  q "$1" "SELECT COUNT(*) FROM information_schema.INNODB_INDEXES i
          JOIN information_schema.INNODB_TABLES t USING (TABLE_ID)
          WHERE t.NAME LIKE 'compat/%' AND i.TYPE & 4096"
}
check_ok() {  # preset table
  q "$1" "CHECK TABLE $2" | awk -F'\t' '{print $3 ":" $4}' | tr '\n' ' ' | sed 's/ $//'
}
create_sql() {  # table key-type
  echo "CREATE TABLE $1 (pk $2 NOT NULL PRIMARY KEY, k INT NOT NULL,
          pad VARCHAR(1000) NOT NULL, KEY k (k)) ENGINE=InnoDB CHARSET=latin1;"
}
fill_sql() {  # table first last pk-expression
  echo "SET SESSION cte_max_recursion_depth = 100000;
        INSERT INTO $1 WITH RECURSIVE s (n) AS
          (SELECT $2 UNION ALL SELECT n + 1 FROM s WHERE n < $3)
        SELECT $4, n % 101, REPEAT(CHAR(65 + n % 26), 200 + n % 800) FROM s;"
}
declare -A expected

step "1. stock creates the data directory: t_keep and t_old"
server stock start
"$(preset_obj stock)/bin/mysql" --defaults-file="$VARDIR/my.cnf" -e "CREATE DATABASE compat"
q stock "$(create_sql t_keep INT) $(create_sql t_old INT)
         $(fill_sql t_keep 1 1000 n) $(fill_sql t_old 1 1000 'n * 3')"
for t in t_keep t_old; do expected[$t]=$(sums stock $t); done
server stock stop

step "2. the fork, innodb_btree_blink OFF: runs the stock data directory unchanged"
server "$FORK_PRESET" start innodb_btree_blink=OFF
for t in t_keep t_old; do
  expect "$t: every row" "$(sums "$FORK_PRESET" $t)" "${expected[$t]}"
  expect "$t: CHECK TABLE" "$(check_ok "$FORK_PRESET" $t)" "status:OK"
done
expect "no B-link index" "$(blink_indexes "$FORK_PRESET")" 0
server "$FORK_PRESET" stop

step "3. the fork, innodb_btree_blink ON: t_new created, t_old rebuilt, t_keep untouched"
server "$FORK_PRESET" start
expect "switch ON (scripts/fork-switches.cnf)" "$(q "$FORK_PRESET" 'SELECT @@innodb_btree_blink')" 1
expect "stock-made indexes stay stock" "$(blink_indexes "$FORK_PRESET")" 0
q "$FORK_PRESET" "$(fill_sql t_old 1001 1500 'n * 3') ALTER TABLE t_old FORCE;
                  $(create_sql t_new 'VARCHAR(400)')
                  $(fill_sql t_new 1 3000 "LPAD(n * 7, 400, '0')")
                  ANALYZE TABLE t_old, t_new" >/dev/null
expect "B-link indexes: t_old and t_new, 2 each" "$(blink_indexes "$FORK_PRESET")" 4
expect "B-link tablespaces flagged (32768)" "$(q "$FORK_PRESET" \
  "SELECT GROUP_CONCAT(NAME, '=', FLAG & 32768 ORDER BY NAME)
   FROM information_schema.INNODB_TABLESPACES WHERE NAME LIKE 'compat/%'")" \
  "compat/t_keep=0,compat/t_new=32768,compat/t_old=32768"
# A node pointer of t_new holds a 400-byte key, so a 16 KiB page has at most
# 40 of them: more than 40 leaves need two levels above the leaves.
leaves=$(q "$FORK_PRESET" "SELECT stat_value FROM mysql.innodb_index_stats
  WHERE database_name = 'compat' AND table_name = 't_new'
  AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'")
expect "t_new's primary key has 3 levels ($leaves leaves > 40)" "$([ "$leaves" -gt 40 ] && echo yes)" yes
for t in t_keep t_old t_new; do
  expect "$t: CHECK TABLE (validator on B-link indexes)" "$(check_ok "$FORK_PRESET" $t)" "status:OK"
done
for t in t_old t_new; do expected[$t]=$(sums "$FORK_PRESET" $t); done
expect "t_keep: every row" "$(sums "$FORK_PRESET" t_keep)" "${expected[t_keep]}"
server "$FORK_PRESET" stop

step "4. stock 9.7.2 given the data directory with B-link tables"
: > "$log"
if server stock start 2>/dev/null; then
  echo "  stock started.  Its errors and warnings:"
  grep -E "\[(ERROR|Warning)\]" "$log" | cut -c1-300 | sed 's/^/    | /' | head -20 || true
  for t in t_old t_new; do
    got=$(q_err stock "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', pk, k, pad))) FROM $t")
    echo "  SELECT from $t: $got"
    case $got in
      ERROR*) pass "$t: refused with an error, no rows";;
      *) expect "$t: stock reads it: every row right" "$(sums stock $t)" "${expected[$t]}";;
    esac
  done
  expect "t_keep: every row" "$(sums stock t_keep)" "${expected[t_keep]}"
  expect "t_keep: CHECK TABLE" "$(check_ok stock t_keep)" "status:OK"
  server stock stop
  cp "$log" "$VARDIR/stock-on-blink.err"
else
  # Stock started on this data directory when this test was written: not
  # starting is news, whatever the reason (port in use, a timeout).
  echo "  stock did not start.  The end of its error log:"
  tail -15 "$log" | sed 's/^/    | /'
  fail "stock did not start on the data directory with B-link tables"
fi

step "5. the fork, innodb_btree_blink OFF: ALTER TABLE ... FORCE is the way back"
server "$FORK_PRESET" start innodb_btree_blink=OFF
q "$FORK_PRESET" "ALTER TABLE t_old FORCE; ALTER TABLE t_new FORCE"
expect "no B-link index" "$(blink_indexes "$FORK_PRESET")" 0
expect "no flagged tablespace" "$(q "$FORK_PRESET" "SELECT COUNT(*)
  FROM information_schema.INNODB_TABLESPACES WHERE NAME LIKE 'compat/%' AND FLAG & 32768")" 0
server "$FORK_PRESET" stop

step "6. stock reads every row, CHECK TABLE clean"
: > "$log"
server stock start
for t in t_keep t_old t_new; do
  expect "$t: every row" "$(sums stock $t)" "${expected[$t]}"
  expect "$t: CHECK TABLE" "$(check_ok stock $t)" "status:OK"
done
server stock stop

step "7. the fork, switch ON, killed (kill -9) after committed writes to t_crash (B-link) and t_keep (stock format)"
: > "$log"
server "$FORK_PRESET" start
# Recovery must replay redo of both tables: no checkpoint after the writes
# begin (a debug build's switch; the page cleaner may still write some
# pages; a release build is killed right after its commits, before its
# next checkpoint is likely to cover them).
q_err "$FORK_PRESET" "SET GLOBAL innodb_checkpoint_disabled = ON" >/dev/null
q "$FORK_PRESET" "$(create_sql t_crash INT) $(fill_sql t_crash 1 20000 n)
                  $(fill_sql t_keep 1001 3000 n)"
for t in t_crash t_keep; do expected[$t]=$(sums "$FORK_PRESET" $t); done
expect "t_crash is B-link, t_keep is not" "$(q "$FORK_PRESET" "SELECT GROUP_CONCAT(t.NAME,
  '=', i.TYPE & 4096 ORDER BY t.NAME) FROM information_schema.INNODB_INDEXES i
  JOIN information_schema.INNODB_TABLES t USING (TABLE_ID)
  WHERE t.NAME IN ('compat/t_crash', 'compat/t_keep') AND i.NAME = 'PRIMARY'")" \
  "compat/t_crash=4096,compat/t_keep=0"
kill_mysqld() {  # kill -9 the server of $VARDIR, if any, and wait for it
  local pid
  pid=$(cat "$VARDIR/mysqld.pid" 2>/dev/null) || return 0
  rm -f "$VARDIR/mysqld.pid"
  grep -q mysqld "/proc/$pid/comm" 2>/dev/null || return 0
  kill -9 "$pid" 2>/dev/null || true
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}
kill_mysqld
cp -a "$DATADIR" "$VARDIR/crashed"

# The distinct errors (or errors and warnings) of the error log, without
# their time stamps.
log_lines() {  # regex
  grep -E "$1" "$log" | sed -E 's/^[0-9T:.-]+Z //' | cut -c1-220 | awk '!seen[$0]++' \
    | sed 's/^/    | /' | head -8 || true
}

# Start stock on a copy of the crashed data directory, innodb_force_recovery
# $1 (0: none) and the [mysqld] lines $2: print what it says and, if it
# starts, what it reads; then the fork on the same copy must have every
# committed row, or refuse.
stock_then_fork() {  # force-recovery-level [cnf lines]
  local level=$1 got name="force $1${2:+ $2}"
  rm -rf "$DATADIR"; cp -a "$VARDIR/crashed" "$DATADIR"
  : > "$log"
  if server stock start "innodb_force_recovery=$level${2:+
$2}" 2>/dev/null; then
    echo "  stock (innodb_force_recovery=$level${2:+ $2}) started.  Its errors:"
    log_lines "\[ERROR\]"
    for t in t_crash t_keep; do
      got=$(q_err stock "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', pk, k, pad))) FROM $t")
      case $got in
        ERROR*) ;;
        "${expected[$t]%% *}	"*) got="$got (the committed rows' count)";;
        *) got="$got (not what was committed, ${expected[$t]%% *} rows: no redo applied)";;
      esac
      echo "  SELECT from $t: $(echo "$got" | head -1 | cut -c1-160)"
    done
    server stock stop || true
  else
    echo "  stock (innodb_force_recovery=$level${2:+ $2}) did not start.  What it printed:"
    log_lines "\[(ERROR|FATAL)\]|Assertion|flags are invalid|read only"
    kill_mysqld
  fi
  cp "$log" "$VARDIR/stock-force-$level${2:+-$2}.err"
  : > "$log"
  if server "$FORK_PRESET" start 2>/dev/null; then
    for t in t_crash t_keep; do
      got=$(q_err "$FORK_PRESET" "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', pk, k, pad))) FROM $t;
        SELECT COUNT(*), SUM(k) FROM $t FORCE INDEX (k) WHERE k >= 0" | tr '\t\n' '  ')
      case $t:$got in
        t_crash:*ERROR*) pass "$name: the fork refuses $t ($(echo "$got" | cut -c1-120))";;
        *) expect "$name: the fork has every committed row of $t" "$got" "${expected[$t]}"
           expect "$name: $t: CHECK TABLE" "$(check_ok "$FORK_PRESET" $t)" "status:OK";;
      esac
    done
    server "$FORK_PRESET" stop
  else
    log_lines "\[(ERROR|FATAL)\]"
    kill_mysqld
    fail "$name: the fork did not start after stock"
  fi
}

step "8. stock on the crashed data directory, then the fork: nothing committed is lost"
stock_then_fork 0

for level in 1 2 3 4 5 6; do
  step "9.$level. the same with stock at innodb_force_recovery=$level"
  stock_then_fork $level
done
# Level 6 stops at the binary log's gtid_executed table (read-only InnoDB);
# without the binary log stock starts, read-only, with no redo applied.
step "9.7. stock at innodb_force_recovery=6 without the binary log"
stock_then_fork 6 skip-log-bin

step "10. the safe way back after a crash: the fork recovers, t_crash rebuilt with the switch OFF, then stock"
rm -rf "$DATADIR"; cp -a "$VARDIR/crashed" "$DATADIR"
server "$FORK_PRESET" start innodb_btree_blink=OFF
q "$FORK_PRESET" "ALTER TABLE t_crash FORCE"
expect "no B-link index" "$(blink_indexes "$FORK_PRESET")" 0
server "$FORK_PRESET" stop
: > "$log"
server stock start
for t in t_crash t_keep; do
  expect "$t: every row" "$(sums stock $t)" "${expected[$t]}"
  expect "$t: CHECK TABLE" "$(check_ok stock $t)" "status:OK"
done
server stock stop

printf '\ntest-compat: %d passed, %d failed (data directory and logs: %s)\n' \
  "$n_pass" "$n_fail" "$VARDIR"
[ "$n_fail" = 0 ]
