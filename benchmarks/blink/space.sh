#!/usr/bin/env bash
# The space B-link high keys take: index pages (and pages per million rows),
# fork with innodb_btree_blink OFF and ON, on the same data
# (benchmarks/doc/blink/README.md, "Index size: high keys, F1's room and
# right-only splits").  Not a timed run: page counts are deterministic.
#
#   benchmarks/blink/space.sh [rows]        (default 1000000)
#
# Three tables per server:
#   sbtest1  sysbench's table, prepared in key order (the primary key fills
#            pages left to right, the secondary index k is bulk-loaded by
#            CREATE INDEX);
#   scatter  the same rows with primary keys scattered over the key space,
#            inserted one by one: every split is a middle split;
#   split_t  the split-insert workload's table after its run: rows of 2.5 KB
#            preloaded in key order, then one insert between every two;
#   desc_t   split_t's preloaded rows, then runs of five rows inserted in
#            descending key order into a quarter of the gaps, gap after gap
#            in scattered order: each run's rows land after the last row of
#            a leaf (README.blink.md RS1).
# FORK_PRESET=release|debug (default release), VARDIR (default build/blink-space),
# ON_CNF: more my.cnf lines for the ON server (innodb_btree_blink_sibling_insert=OFF
# measures the splits that RS1 replaces).
set -euo pipefail
shopt -s inherit_errexit   # a failure inside $(measure ...) stops the script
. "$(dirname "$0")/../../scripts/lib.sh"

rows=${1:-1000000}
FORK_PRESET=${FORK_PRESET:-release}
base=${VARDIR:-$FORK_BUILD_DIR/blink-space}
obj=$(preset_obj "$FORK_PRESET")
[ -x "$obj/bin/mysqld" ] || die "no $FORK_PRESET build: make build PRESET=$FORK_PRESET"
split_rows=$(( rows / 25 ))
[ $((split_rows % 7919)) != 0 ] || split_rows=$((split_rows + 1))

measure() {  # OFF|ON: prints "table index pages leaf_pages" lines
  local sw=$1
  export VARDIR=$base/$sw PORT=3397 PRESET=$FORK_PRESET
  rm -rf "$VARDIR"
  local extra=""
  [ "$sw" = OFF ] || extra=${ON_CNF:-}
  EXTRA_CNF="innodb_btree_blink=$sw
innodb_buffer_pool_size=4G
$extra" bash "$FORK_ROOT/scripts/server.sh" start >/dev/null
  local sock=$VARDIR/mysqld.sock my=("$obj/bin/mysql" --defaults-file="$VARDIR/my.cnf" -N -B)
  "${my[@]}" -e "CREATE DATABASE sbtest"
  sysbench oltp_read_write --mysql-socket="$sock" --mysql-user=root --tables=1 \
    --table-size="$rows" prepare >/dev/null
  "${my[@]}" sbtest -e "
    CREATE TABLE scatter LIKE sbtest1;
    ALTER TABLE scatter MODIFY id BIGINT UNSIGNED NOT NULL;
    INSERT INTO scatter SELECT (id * 2654435761) % 4294967291, k, c, pad FROM sbtest1;"
  local lua=$FORK_ROOT/benchmarks/workloads/split_insert.lua
  sysbench "$lua" --mysql-socket="$sock" --mysql-user=root --mysql-db=sbtest \
    --rows="$split_rows" --threads=4 prepare >/dev/null
  sysbench "$lua" --mysql-socket="$sock" --mysql-user=root --mysql-db=sbtest \
    --rows="$split_rows" --threads=4 --time=0 --events="$split_rows" run >/dev/null
  "${my[@]}" sbtest -e "
    CREATE TABLE desc_t LIKE split_t;
    INSERT INTO desc_t SELECT id, pad FROM split_t WHERE id % 1000 = 0 ORDER BY id;
    INSERT INTO desc_t (id, pad)
      WITH RECURSIVE o (v) AS (SELECT 1 UNION ALL SELECT v + 1 FROM o WHERE v < 5)
      SELECT s.id + o.v, REPEAT('i', 2500)
      FROM split_t s JOIN o
      WHERE s.id % 1000 = 0 AND (s.id DIV 1000 * 7919) % $split_rows < $split_rows DIV 4
      ORDER BY (s.id DIV 1000 * 7919) % $split_rows, o.v DESC;"
  "${my[@]}" sbtest -e "ANALYZE TABLE sbtest1, scatter, split_t, desc_t" >/dev/null
  # Every page the indexes use is still in the buffer pool (4G, nothing was
  # evicted), so INNODB_BUFFER_PAGE counts them exactly; n_leaf_pages is the
  # leaf segment's used pages.
  "${my[@]}" -e "
    SELECT SUBSTRING_INDEX(REPLACE(b.TABLE_NAME, '\`', ''), '.', -1) AS tbl, b.INDEX_NAME,
           COUNT(*),
           (SELECT stat_value FROM mysql.innodb_index_stats s
             WHERE s.database_name = 'sbtest' AND s.stat_name = 'n_leaf_pages'
             AND s.table_name = tbl AND s.index_name = b.INDEX_NAME),
           (SELECT COUNT(*) FROM information_schema.INNODB_INDEXES x
             JOIN information_schema.INNODB_TABLES y USING (TABLE_ID)
             WHERE y.NAME = CONCAT('sbtest/', tbl) AND x.NAME = b.INDEX_NAME
             AND x.TYPE & 4096)
    FROM information_schema.INNODB_BUFFER_PAGE b
    WHERE b.PAGE_TYPE = 'INDEX' AND b.TABLE_NAME LIKE '\`sbtest\`.%'
    GROUP BY tbl, b.INDEX_NAME ORDER BY 1, 2"
  # Exact row counts (TABLE_ROWS above is an estimate).
  for t in sbtest1 scatter split_t desc_t; do
    printf 'rows\t%s\t%s\n' "$t" "$("${my[@]}" sbtest -e "SELECT COUNT(*) FROM $t")"
  done
  bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null
}

trap 'bash "$FORK_ROOT/scripts/server.sh" stop >/dev/null 2>&1 || true' EXIT
off=$(measure OFF)
on=$(measure ON)
python3 - "$off" "$on" <<'EOF'
import sys
def parse(text):
    idx, rows = {}, {}
    for line in text.splitlines():
        f = line.split("\t")
        if f[0] == "rows":
            rows[f[1]] = int(f[2])
        else:
            idx[(f[0], f[1])] = (int(f[2]), int(f[3]), int(f[4]))
    return idx, rows
(off, rows_off), (on, rows_on) = parse(sys.argv[1]), parse(sys.argv[2])
assert rows_off == rows_on, (rows_off, rows_on)
print("| table | index | rows | pages OFF | pages ON | leaf pages OFF | leaf pages ON "
      "| pages per million rows OFF | ON | ON / OFF |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for key in sorted(off):
    (p0, l0, b0), (p1, l1, b1) = off[key], on[key]
    assert b0 == 0 and b1 == 1, "index %s: B-link marker OFF=%d ON=%d" % (key, b0, b1)
    n = rows_off[key[0]]
    print("| %s | %s | %d | %d | %d | %d | %d | %.0f | %.0f | %.3f |"
          % (key[0], key[1], n, p0, p1, l0, l1, p0 * 1e6 / n, p1 * 1e6 / n, p1 / p0))
EOF
