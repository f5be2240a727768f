# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""What the optimizer sees, per server and data set, and whether two
servers may be compared at all.

InnoDB's persistent statistics are whatever its last recalculation sampled.
Left to the background recalculation they describe the table as it was
part-way through the load (one saved TPC-C data set had item n_rows 2 for
100,000 rows), and two servers loading the same rows ran different plans:
a false 6-7x in tpmC (issue 14).  So after every prepare, before the copy is
saved, every table of the data set is ANALYZEd with a full leaf scan (the
settings are in server.base_cnf), and the statistics, the real row counts
and, for workloads that name their statements, EXPLAIN of those statements
are recorded.  A server whose statistics or plans for a data set differ from
the reference server's is not compared with it: the summary shows an error
instead of a ratio.

A record of one server and data set is a flat dict {(table, index, stat):
value}: table "schema.name" with index "" for per-table values (n_rows,
clustered_index_size, sum_of_other_index_sizes from innodb_table_stats, the
exact row count as "count", the table options as "create_options"), an
index name for innodb_index_stats (size, n_leaf_pages, n_diff_pfxNN), and
table and index "" for the server settings that shape statistics."""
import re

from .server import FULL_SCAN_PAGES

SYSTEM_SCHEMAS = ("mysql", "sys", "information_schema", "performance_schema")

# The server settings that decide how statistics are computed and kept.
SETTINGS = ("innodb_stats_persistent", "innodb_stats_auto_recalc",
            "innodb_stats_persistent_sample_pages", "innodb_stats_include_delete_marked",
            "innodb_stats_method")

# Tolerances between two servers' values, as (relative, absolute): values
# agree when they differ by at most the larger of the two allowances.
#
# Row statistics (n_rows, n_diff_pfxNN, the row count) come from a full
# leaf scan, so they are exact counts: the only honest differences are in
# the data itself (go-tpc draws 5-15 order lines per order, about 0.2 % on
# order_line at 2 warehouses; sysbench's rows are the same on every server,
# workloads.Sysbench.load).  2 % leaves room for that and still catches any
# sampling error worth talking about (the bug was a factor of 2 to 50,000).
ROW_TOLERANCE = (0.02, 0)
# Page counts depend on the layout, which depends on how the loader's
# concurrent threads interleaved, and a segment grows by extents of 64 pages
# (16 KB pages), reserving up to 4 of them ahead (FSEG_FREE_LIST_MAX_LEN):
# so 10 %, or 256 pages for small indexes.  They only enter the optimizer
# as scan costs.
PAGE_TOLERANCE = (0.10, 256)
ROW_STATS = ("n_rows", "count")
PAGE_STATS = ("size", "n_leaf_pages", "clustered_index_size", "sum_of_other_index_sizes")

# At most this many differences of statistics per pair of servers in the
# summary (all values are in tablestats.csv); every plan difference is listed.
MAX_LISTED = 10

EXPLAIN_COLUMNS = ("id", "select_type", "table", "partitions", "type", "possible_keys", "key",
                   "key_len", "ref", "rows", "filtered", "extra")
# What a plan is, for comparing: the access path of every step.  rows and
# filtered are estimates (index dives), possible_keys follows from the schema.
PLAN_SHAPE = ("select_type", "table", "type", "key", "key_len", "ref", "extra")


def _value(text):
    return int(text) if re.match(r"^-?\d+$", text) else text


def _quote(schema, table):
    return "`%s`.`%s`" % (schema.replace("`", "``"), table.replace("`", "``"))


def _in_list(names):
    return ", ".join("'%s'" % n.replace("'", "''") for n in names)


# --- the server side: thin wrappers around SQL -----------------------------

def user_tables(server):
    """[(schema, table, create_options)] of every InnoDB table outside the
    system schemas: the tables of the data set, as each set starts from an
    empty data directory.  (create_options sits in the middle because
    Server.rows strips the output, which would drop an empty last field.)"""
    return [(s, t, o) for s, o, t in server.rows(
        "SELECT TABLE_SCHEMA, CREATE_OPTIONS, TABLE_NAME FROM information_schema.TABLES"
        " WHERE TABLE_TYPE = 'BASE TABLE' AND ENGINE = 'InnoDB' AND TABLE_SCHEMA NOT IN (%s)"
        " ORDER BY TABLE_SCHEMA, TABLE_NAME" % _in_list(SYSTEM_SCHEMAS))]


def analyze(server):
    """ANALYZE TABLE on every table of the data set.  With the harness's
    settings InnoDB reads every leaf page of every index instead of sampling
    random ones.  Raises RuntimeError unless every table reports OK."""
    tables = [(s, t) for s, t, _ in user_tables(server)]
    if not tables:
        return
    out = server.rows("ANALYZE TABLE " + ", ".join(_quote(s, t) for s, t in tables))
    errors = analyze_errors(out, ["%s.%s" % st for st in tables])
    if errors:
        raise RuntimeError("%s: ANALYZE TABLE: %s" % (server.name, "; ".join(errors)))


def index_pages(server):
    """The pages of every index of the data set, summed over the tables:
    leaf_pages_after (n_leaf_pages: pages the leaf segments use, the fork's
    page reserve among them), index_pages_after (size: pages every segment
    holds, used or free), as ANALYZE TABLE counts them from the segments,
    and leaf_pages_walked_after (the leaves its full scan walked: the
    pages in the trees' leaf levels).  The statistics it leaves are not the
    prepared ones: the caller runs it after a group's last point, and the
    next group starts from the saved copy."""
    (old,), = server.rows("SELECT @@GLOBAL.innodb_stats_persistent_sample_pages")
    server.sql("SET GLOBAL innodb_stats_persistent_sample_pages = %d" % FULL_SCAN_PAGES)
    try:
        analyze(server)
    finally:
        server.sql("SET GLOBAL innodb_stats_persistent_sample_pages = %s" % old)
    sums = {name: _value(n) for name, n in server.rows(
        "SELECT stat_name, SUM(IF(stat_name = 'n_diff_pfx01', sample_size, stat_value))"
        " FROM mysql.innodb_index_stats"
        " WHERE stat_name IN ('n_leaf_pages', 'size', 'n_diff_pfx01')"
        " AND database_name NOT IN (%s) GROUP BY stat_name" % _in_list(SYSTEM_SCHEMAS))}
    return {"leaf_pages_after": sums.get("n_leaf_pages"),
            "index_pages_after": sums.get("size"),
            "leaf_pages_walked_after": sums.get("n_diff_pfx01")}


def record(server):
    """The record of the data set on this server (see the module comment)."""
    tables = user_tables(server)
    if not tables:
        return collect([], [], [], [], [])
    schemas = _in_list(sorted({s for s, _, _ in tables}))
    table_rows = server.rows(
        "SELECT database_name, table_name, n_rows, clustered_index_size, sum_of_other_index_sizes"
        " FROM mysql.innodb_table_stats WHERE database_name IN (%s)" % schemas)
    index_rows = server.rows(
        "SELECT database_name, table_name, index_name, stat_name, stat_value"
        " FROM mysql.innodb_index_stats WHERE database_name IN (%s)" % schemas)
    counts = server.rows(" UNION ALL ".join("SELECT '%s.%s', COUNT(*) FROM %s" % (s, t, _quote(s, t))
                                            for s, t, _ in tables))
    settings = server.rows("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema."
                           "global_variables WHERE VARIABLE_NAME IN (%s)" % _in_list(SETTINGS))
    return collect(tables, table_rows, index_rows, counts, settings)


def explain(server, statements, db):
    """EXPLAIN FORMAT=TRADITIONAL (9.x defaults to TREE) of each
    (transaction, statement): one dict per plan step, EXPLAIN_COLUMNS plus
    transaction and statement."""
    out = []
    for txn, sql in statements:
        for r in server.rows("EXPLAIN FORMAT=TRADITIONAL " + sql, db=db):
            step = dict(zip(EXPLAIN_COLUMNS, r))
            step.update(transaction=txn, statement=sql)
            out.append(step)
    return out


# --- pure functions ---------------------------------------------------------

def analyze_errors(rows, tables):
    """What went wrong in ANALYZE TABLE's result rows (Table, Op, Msg_type,
    Msg_text) for the tables named "schema.table": every error, and every
    table without a status OK."""
    errors = ["%s: %s" % (r[0], r[3]) for r in rows if len(r) >= 4 and r[2] == "error"]
    ok = {r[0] for r in rows if len(r) >= 4 and r[2] == "status" and r[3] == "OK"}
    errors += ["%s: no status OK" % t for t in tables if t not in ok]
    return errors


def collect(tables, table_rows, index_rows, counts, settings):
    """A record from the rows of the queries in record()."""
    out = {("", "", name): _value(v) for name, v in settings}
    for schema, table, options in tables:
        out[(schema + "." + table, "", "create_options")] = options
    for name, n in counts:
        out[(name, "", "count")] = _value(n)
    for schema, table, n_rows, clustered, other in table_rows:
        name = schema + "." + table
        out[(name, "", "n_rows")] = _value(n_rows)
        out[(name, "", "clustered_index_size")] = _value(clustered)
        out[(name, "", "sum_of_other_index_sizes")] = _value(other)
    for schema, table, index, stat, value in index_rows:
        out[(schema + "." + table, index, stat)] = _value(value)
    return out


def tolerance(stat):
    """(relative, absolute) difference allowed for a statistic; None for
    values that must be equal (settings, table options)."""
    if stat in ROW_STATS or stat.startswith("n_diff_pfx"):
        return ROW_TOLERANCE
    if stat in PAGE_STATS:
        return PAGE_TOLERANCE
    return None


def agree(stat, a, b):
    tol = tolerance(stat)
    if tol is None or not isinstance(a, int) or not isinstance(b, int):
        return a == b
    rel, slack = tol
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), slack)


def label(key):
    table, index, stat = key
    return " ".join(x for x in (table or "setting", index, stat) if x)


def differences(ref, other, ref_name, other_name):
    """Messages for every value of two records that does not agree."""
    out = []
    for key in sorted(set(ref) | set(other)):
        a, b = ref.get(key), other.get(key)
        if a is None or b is None or not agree(key[2], a, b):
            out.append("%s: %s %s, %s %s" % (label(key), ref_name, "missing" if a is None else a,
                                             other_name, "missing" if b is None else b))
    return out


def undescribed(rec):
    """Messages for every table whose n_rows is not its real row count
    within the row tolerance: ANALYZE did not run, or sampled."""
    out = []
    for (table, index, stat), count in sorted(rec.items()):
        if stat != "count":
            continue
        n_rows = rec.get((table, "", "n_rows"))
        if n_rows is None:
            out.append("%s: no persistent statistics (COUNT(*) %s)" % (table, count))
        elif not agree("n_rows", n_rows, count):
            out.append("%s: n_rows %s, COUNT(*) %s" % (table, n_rows, count))
    return out


def plan_shapes(steps):
    """{(transaction, statement): (shape of each step, in order)}."""
    out = {}
    for s in steps:
        out.setdefault((s["transaction"], s["statement"]), []).append(
            tuple(s.get(k, "") for k in PLAN_SHAPE))
    return {k: tuple(v) for k, v in out.items()}


def describe(shape):
    step = dict(zip(PLAN_SHAPE, shape))
    return "%s %s%s%s" % (step["table"], step["type"],
                          "" if step["key"] in ("", "NULL") else " on " + step["key"],
                          "" if step["extra"] in ("", "NULL") else " (%s)" % step["extra"])


def plan_differences(ref, other, ref_name, other_name):
    """Messages for every statement whose plan differs between two servers."""
    a, b = plan_shapes(ref), plan_shapes(other)
    out = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            txn, sql = key
            out.append("%s `%s`: %s: %s; %s: %s" % (
                txn, sql, ref_name, ", ".join(map(describe, a.get(key, ()))) or "missing",
                other_name, ", ".join(map(describe, b.get(key, ()))) or "missing"))
    return out


def reference(servers, baseline="stock"):
    """The server every other one is checked against: the ratio baseline
    if it ran, else the first server."""
    return baseline if baseline in servers else servers[0]


def _listed(msgs):
    if len(msgs) <= MAX_LISTED:
        return msgs
    return msgs[:MAX_LISTED] + ["... and %d more" % (len(msgs) - MAX_LISTED)]


def problems(table_stats, plans, servers, baseline="stock"):
    """{(dataset, server): [message]} for every server whose statistics or
    plans of a data set differ from the reference server's: these servers'
    results on that data set are not compared with the reference's.
    table_stats and plans are {(server, dataset): record or plan steps}."""
    if not servers:
        return {}
    ref = reference(servers, baseline)
    out = {}
    for (server, dataset), rec in table_stats.items():
        if server == ref or (ref, dataset) not in table_stats:
            continue
        msgs = _listed(["statistics: " + m
                        for m in differences(table_stats[(ref, dataset)], rec, ref, server)])
        if (server, dataset) in plans and (ref, dataset) in plans:
            msgs += ["plan: " + m for m in plan_differences(plans[(ref, dataset)],
                                                           plans[(server, dataset)], ref, server)]
        if msgs:
            out[(dataset, server)] = msgs
    return out


def failures(table_stats, plans, servers, baseline="stock"):
    """One line per server not compared on a data set and per record whose
    statistics do not describe the data; the details are in the summary's
    statistics section (report.statistics_lines)."""
    out = ["- %s vs %s on %s: not compared, statistics or plans differ (see Optimizer statistics)"
           % (server, reference(servers, baseline), dataset)
           for dataset, server in problems(table_stats, plans, servers, baseline)]
    out += ["- %s %s: statistics do not describe the data (see Optimizer statistics)"
            % (server, dataset) for (server, dataset), rec in table_stats.items() if undescribed(rec)]
    return out


def to_csv_rows(table_stats):
    """tablestats.csv rows: server, dataset, table, index, stat, value."""
    return [{"server": server, "dataset": dataset, "table": t, "index": i, "stat": s, "value": v}
            for (server, dataset), rec in table_stats.items()
            for (t, i, s), v in sorted(rec.items())]


def from_csv_rows(rows):
    """{(server, dataset): record} back from tablestats.csv rows."""
    out = {}
    for r in rows:
        out.setdefault((r["server"], r["dataset"]), {})[(r["table"], r["index"], r["stat"])] = \
            _value(r["value"])
    return out
