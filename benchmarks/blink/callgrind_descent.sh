#!/usr/bin/env bash
# Instructions per statement on a B-link table and on a stock table of the
# same server and binary (benchmarks/doc/blink/README.md, "Descent with
# move-right, merges under X" for point selects, "Split-insert, index lock
# held in S" for inserts).  Not a timed run: callgrind counts
# instructions, which a 2-core machine's scheduling noise does not change.
#
#   benchmarks/blink/callgrind_descent.sh [rows] [statements] [kind]
#     rows 20000, statements 2000; kind:
#       select  point selects by random id (the descent);
#       append  inserts of ids above the last, k at random (oltp_insert's
#               auto-increment keys: splits at the right end and in k);
#       random  inserts of ids between the preloaded ones, in random order
#               (the preloaded ids are even, the inserted odd: splits all
#               over the primary key)
#       lob     inserts as append, each with a MEDIUMTEXT value of 20-100 KB
#               stored off the page (README.blink.md EX1)
#       lobupdate  updates that give preloaded rows, each once, such a value
#               (EX3)
#
# One server holds both tables: `stock` created with innodb_btree_blink OFF,
# `blink` with it ON (an index's protocol is its marker, M1), sysbench's
# layout, rows in key order.  mysqld is restarted under callgrind with
# instrumentation off; after a warm-up that reads both tables, the same
# point selects (random ids, one connection) run on each table with
# instrumentation on for that phase only, and each phase is dumped.  Prints,
# per table, instructions per select for the whole server and inside
# btr_cur_search_to_nth_level() (the descent, inclusive).  For selects, a
# third phase, blink_locked, runs them on `blink` again with
# innodb_btree_blink_unlocked_descents OFF: every descent takes the index
# lock in S (README.blink.md D1) instead of announcing itself (LF1).
# FORK_PRESET=release|debug (default release), VARDIR (default
# build/blink-callgrind).
set -euo pipefail
shopt -s inherit_errexit
. "$(dirname "$0")/../../scripts/lib.sh"

rows=${1:-20000}
selects=${2:-2000}
kind=${3:-select}
case $kind in
  select) fn=btr_cur_search_to_nth_level;;
  append|random|lob) fn=row_insert_for_mysql;;
  lobupdate) fn=row_update_for_mysql;;
  *) die "kind: select, append, random, lob or lobupdate";;
esac
lob=$(case $kind in lob|lobupdate) echo 1;; esac)
lob_column=$([ "$lob" ] && echo ", t MEDIUMTEXT NULL" || true)
FORK_PRESET=${FORK_PRESET:-release}
export VARDIR=${VARDIR:-$FORK_BUILD_DIR/blink-callgrind} PORT=3398 PRESET=$FORK_PRESET
obj=$(preset_obj "$FORK_PRESET")
[ -x "$obj/bin/mysqld" ] || die "no $FORK_PRESET build: make build PRESET=$FORK_PRESET"
command -v valgrind >/dev/null || die "valgrind is not installed"
sock=$VARDIR/mysqld.sock
my=("$obj/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B)

rm -rf "$VARDIR"
EXTRA_CNF="innodb_btree_blink=OFF
innodb_adaptive_hash_index=OFF" bash "$FORK_ROOT/scripts/server.sh" start >/dev/null
"${my[@]}" -e "CREATE DATABASE sb"
for t in stock blink; do
  [ $t = blink ] && "${my[@]}" -e "SET GLOBAL innodb_btree_blink = ON"
  "${my[@]}" sb -e "
    CREATE TABLE $t (id INT UNSIGNED NOT NULL PRIMARY KEY, k INT UNSIGNED NOT NULL,
                     c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL$lob_column, KEY k (k))
      ENGINE=InnoDB;
    SET SESSION cte_max_recursion_depth = $rows;
    INSERT INTO $t WITH RECURSIVE q (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM q WHERE n < $rows)
      SELECT IF('$kind' = 'random', 2 * n, n), (n * 7919) % $rows, REPEAT(CHAR(97 + n % 26), 120),
             REPEAT('p', 60)$([ "$lob" ] && echo ", NULL" || true) FROM q;
    ANALYZE TABLE $t;" >/dev/null
done
blink_type=$("${my[@]}" -e "SELECT GROUP_CONCAT(t.NAME, ':', i.TYPE & 4096 ORDER BY t.NAME)
  FROM information_schema.INNODB_INDEXES i JOIN information_schema.INNODB_TABLES t USING (TABLE_ID)
  WHERE t.NAME IN ('sb/stock', 'sb/blink') AND i.NAME = 'PRIMARY'")
[ "$blink_type" = "sb/blink:4096,sb/stock:0" ] || die "unexpected index formats: $blink_type"
bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null

valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$VARDIR/cg.out" \
  "$obj/bin/mysqld" --defaults-file="$VARDIR/my.cnf" >"$VARDIR/valgrind.log" 2>&1 &
vg=$!
for _ in $(seq 600); do
  "$obj/bin/mysqladmin" --defaults-file="$VARDIR/my.cnf" ping >/dev/null 2>&1 && break
  kill -0 $vg 2>/dev/null || die "mysqld under valgrind exited: $VARDIR/valgrind.log"
  sleep 1
done
"$obj/bin/mysqladmin" --defaults-file="$VARDIR/my.cnf" ping >/dev/null 2>&1 ||
  die "mysqld under valgrind did not answer in 600 s"

queries=$VARDIR/queries
awk -v n="$selects" -v rows="$rows" -v kind="$kind" 'BEGIN { srand(1);
  for (i = 0; i < n; i++) {
    if (kind == "select") {
      printf "SELECT c FROM TABLE WHERE id = %d;\n", 1 + int(rand() * rows); continue
    }
    # append, lob: rows+1, rows+2, ...; random: odd ids, each gap once
    # (n <= rows)
    id = kind == "random" ? 2 * ((i * 7919) % rows) + 1 : rows + 1 + i
    if (kind == "lobupdate")
      printf "UPDATE TABLE SET t = REPEAT(\"t\", %d) WHERE id = %d;\n",
             20000 + int(rand() * 80001), 1 + (i * 7919) % rows
    else if (kind == "lob")
      printf "INSERT INTO TABLE VALUES (%d, %d, REPEAT(\"c\", 120), \"p\", REPEAT(\"t\", %d));\n",
             id, int(rand() * rows), 20000 + int(rand() * 80001)
    else
      printf "INSERT INTO TABLE VALUES (%d, %d, REPEAT(\"c\", 120), \"p\");\n", id, int(rand() * rows)
  } }' >"$queries"
case $kind in random|lobupdate)
  [ $((rows % 7919)) = 0 ] && die "rows must not be a multiple of 7919"
  [ "$selects" -gt "$rows" ] && die "$kind: at most rows statements";;
esac
for t in stock blink; do   # warm-up: every page in the buffer pool, plans cached
  "${my[@]}" sb -e "SELECT COUNT(*), SUM(LENGTH(c)) FROM $t; SELECT COUNT(*) FROM $t FORCE INDEX (k)" >/dev/null
  [ "$kind" = select ] && sed "s/TABLE/$t/" "$queries" | "${my[@]}" sb >/dev/null
done
phases="stock blink$([ "$kind" = select ] && echo " blink_locked" || true)"
for phase in $phases; do
  [ "$phase" = blink_locked ] && "${my[@]}" -e "SET GLOBAL innodb_btree_blink_unlocked_descents = OFF"
  callgrind_control -i on $vg >/dev/null
  sed "s/TABLE/${phase%_locked}/" "$queries" | "${my[@]}" sb >/dev/null
  callgrind_control -i off $vg >/dev/null
  callgrind_control -d "$phase" $vg >/dev/null
done
"$obj/bin/mysqladmin" --defaults-file="$VARDIR/my.cnf" -uroot shutdown
wait $vg || true

# The last column leaves out extending the data file: each table's file
# grows once every so many pages, and whether that falls inside a phase of
# a few thousand statements depends on where the phase begins.
printf '%-12s %14s %30s %30s\n' table "Ir/$kind" "$fn Ir/$kind" "without fsp_try_extend_data_file"
inclusive() {  # inclusive Ir of function $2 in callgrind output $1, or 0
  callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk -v fn=":$2(" 'index($0, fn) && $1 ~ /^[0-9,]+$/ && !n++ { gsub(",", "", $1); print $1 }
                      END { if (!n) print 0 }'
}
for t in $phases; do
  f=$(grep -l "^desc: Trigger: dump $t\$" "$VARDIR"/cg.out.*)
  total=$(awk '/^totals:/ { print $2 }' "$f")
  inner=$(inclusive "$f" "$fn")
  extend=$(inclusive "$f" fsp_try_extend_data_file)
  printf '%-12s %14d %30d %30d\n' $t $((total / selects)) $((inner / selects)) \
    $(((inner - extend) / selects))
done
