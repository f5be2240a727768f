# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Optimizer statistics and plans without a server (issue 14): ANALYZE
after every prepare, the record of statistics, the tolerance, and a summary
that refuses to compare servers whose statistics or plans differ."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import metrics, optimizer, report, server, workloads  # noqa: E402
import check_smoke  # noqa: E402

SETTINGS = [("innodb_stats_auto_recalc", "OFF"), ("innodb_stats_persistent", "ON"),
            ("innodb_stats_persistent_sample_pages", "1000001")]


def tpcc_record(item=100000, customer=60000, stock=200000, order_line=600123, pages=1.0):
    """A TPC-C record as optimizer.collect builds it from the queries'
    rows; n_rows as given, COUNT(*) the real row counts of 2 warehouses."""
    n_rows = {"item": item, "customer": customer, "stock": stock, "order_line": order_line}
    count = {"item": 100000, "customer": 60000, "stock": 200000, "order_line": 600123}
    size = {"item": 600, "customer": 5000, "stock": 7000, "order_line": 4000}
    tables = [("tpcc", t, "") for t in n_rows]
    table_rows = [("tpcc", t, str(n), str(int(size[t] * pages)), "0") for t, n in n_rows.items()]
    index_rows = [("tpcc", t, "PRIMARY", stat, str(v)) for t, n in n_rows.items()
                  for stat, v in (("n_diff_pfx01", n), ("size", int(size[t] * pages)),
                                  ("n_leaf_pages", int(size[t] * pages * 0.9)))]
    counts = [("tpcc." + t, str(n)) for t, n in count.items()]
    return optimizer.collect(tables, table_rows, index_rows, counts, SETTINGS)


# The numbers: stock's saved data set, sampled while go-tpc loaded.
STOCK_AS_LOADED = tpcc_record(item=2, customer=2784, stock=42064, order_line=30073)


def step(table, type_, key, rows="1", extra="NULL"):
    return dict(zip(optimizer.EXPLAIN_COLUMNS,
                    ["1", "SIMPLE", table, "NULL", type_, key, key, "8", "const,const", rows,
                     "100.00", extra]), transaction="STOCK_LEVEL", statement="SELECT ...")


def tpcc_rows(stock_tpmc, fork_tpmc):
    return [{"rep": rep, "order": 0, "server": s, "workload": "tpcc", "dataset": "tpcc",
             "isolation": "RC", "threads": 4, "throughput": tp, "unit": "tpmC", "p95_ms": 10.0,
             "check": "ok", "handler_reads_per_txn": 90.0, "page_reads_per_txn": 200.0}
            for rep in (0, 1) for s, tp in (("stock", stock_tpmc), ("fork", fork_tpmc))]


def summary(table_stats, plans=None):
    info = {"profile": "quick", "pinning": "-", "repeats": 2, "versions": {}, "durations": "-",
            "command": "benchmarks/run", "machine": {"cpu": "x", "arch": "x", "cores": 2,
                                                     "numa_nodes": 1, "kernel": "x", "memory_gib": 1}}
    with tempfile.TemporaryDirectory() as d:
        return "\n".join(report.write_summary(d, tpcc_rows(1000, 7070), [], ["stock", "fork"], info,
                                              table_stats, plans or {}))


class ToleranceTest(unittest.TestCase):
    def test_row_statistics_within_two_percent(self):
        self.assertTrue(optimizer.agree("n_rows", 100000, 98100))
        self.assertFalse(optimizer.agree("n_rows", 100000, 97900))
        self.assertTrue(optimizer.agree("n_diff_pfx02", 12642, 12600))
        self.assertFalse(optimizer.agree("n_diff_pfx01", 99435, 2))
        self.assertFalse(optimizer.agree("count", 10, 11))  # no absolute slack for rows

    def test_page_counts_within_ten_percent_or_four_extents(self):
        self.assertTrue(optimizer.agree("size", 10000, 9050))
        self.assertFalse(optimizer.agree("size", 10000, 8900))
        self.assertTrue(optimizer.agree("n_leaf_pages", 40, 296))  # 256 pages of slack
        self.assertFalse(optimizer.agree("clustered_index_size", 40, 297))

    def test_settings_and_options_must_be_equal(self):
        self.assertIsNone(optimizer.tolerance("innodb_stats_auto_recalc"))
        self.assertTrue(optimizer.agree("innodb_stats_auto_recalc", "OFF", "OFF"))
        self.assertFalse(optimizer.agree("innodb_stats_persistent_sample_pages", 1000001, 1000000))
        self.assertFalse(optimizer.agree("create_options", "", "stats_persistent=0"))


class RecordTest(unittest.TestCase):
    def test_collect(self):
        rec = tpcc_record()
        self.assertEqual(rec[("tpcc.item", "", "n_rows")], 100000)
        self.assertEqual(rec[("tpcc.item", "", "count")], 100000)
        self.assertEqual(rec[("tpcc.stock", "", "clustered_index_size")], 7000)
        self.assertEqual(rec[("tpcc.stock", "PRIMARY", "size")], 7000)
        self.assertEqual(rec[("tpcc.stock", "", "create_options")], "")
        self.assertEqual(rec[("", "", "innodb_stats_persistent_sample_pages")], 1000001)
        self.assertEqual(rec[("", "", "innodb_stats_auto_recalc")], "OFF")

    def test_undescribed(self):
        self.assertEqual(optimizer.undescribed(tpcc_record(order_line=600000)), [])
        self.assertEqual(optimizer.undescribed(STOCK_AS_LOADED), [
            "tpcc.customer: n_rows 2784, COUNT(*) 60000", "tpcc.item: n_rows 2, COUNT(*) 100000",
            "tpcc.order_line: n_rows 30073, COUNT(*) 600123", "tpcc.stock: n_rows 42064, COUNT(*) 200000"])
        rec = tpcc_record()
        del rec[("tpcc.item", "", "n_rows")]
        self.assertEqual(optimizer.undescribed(rec),
                         ["tpcc.item: no persistent statistics (COUNT(*) 100000)"])

    def test_analyze_errors(self):
        tables = ["sbtest.sbtest1", "sbtest.split_t"]
        ok = [["sbtest.sbtest1", "analyze", "status", "OK"], ["sbtest.split_t", "analyze", "status", "OK"]]
        self.assertEqual(optimizer.analyze_errors(ok, tables), [])
        bad = [ok[0], ["sbtest.split_t", "analyze", "error", "Table 'sbtest.split_t' doesn't exist"]]
        self.assertEqual(optimizer.analyze_errors(bad, tables), [
            "sbtest.split_t: Table 'sbtest.split_t' doesn't exist", "sbtest.split_t: no status OK"])

    def test_csv_round_trip(self):
        stats = {("stock", "tpcc"): tpcc_record(), ("fork", "tpcc"): STOCK_AS_LOADED}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tablestats.csv")
            report.write_table_stats(path, stats)
            self.assertEqual(optimizer.from_csv_rows(report.read_csv(path)), stats)


class CompareTest(unittest.TestCase):
    def test_differing_statistics_stop_the_comparison(self):
        stats = {("stock", "tpcc"): STOCK_AS_LOADED, ("fork", "tpcc"): tpcc_record()}
        problems = optimizer.problems(stats, {}, ["stock", "fork"])
        self.assertEqual(list(problems), [("tpcc", "fork")])
        self.assertIn("statistics: tpcc.item n_rows: stock 2, fork 100000", problems[("tpcc", "fork")])
        self.assertIn("statistics: tpcc.item PRIMARY n_diff_pfx01: stock 2, fork 100000",
                      problems[("tpcc", "fork")])
        self.assertEqual(len(optimizer.failures(stats, {}, ["stock", "fork"])), 2)  # + undescribed

    def test_equal_within_tolerance_compares(self):
        # 0.3 % fewer order lines drawn, pages 5 % larger: the same plans.
        stats = {("stock", "tpcc"): tpcc_record(), ("fork", "tpcc"): tpcc_record(pages=1.05)}
        stats[("fork", "tpcc")][("tpcc.order_line", "", "count")] = 598300
        stats[("fork", "tpcc")][("tpcc.order_line", "", "n_rows")] = 598300
        self.assertEqual(optimizer.problems(stats, {}, ["stock", "fork"]), {})
        self.assertEqual(optimizer.failures(stats, {}, ["stock", "fork"]), [])

    def test_differing_setting_stops_the_comparison(self):
        other = tpcc_record()
        other[("", "", "innodb_stats_auto_recalc")] = "ON"
        problems = optimizer.problems({("stock", "tpcc"): tpcc_record(), ("fork", "tpcc"): other},
                                      {}, ["stock", "fork"])
        self.assertEqual(problems[("tpcc", "fork")],
                         ["statistics: setting innodb_stats_auto_recalc: stock OFF, fork ON"])

    def test_reference_without_stock(self):
        stats = {("fork", "tpcc"): tpcc_record(), ("fork-no-x", "tpcc"): STOCK_AS_LOADED}
        self.assertEqual(list(optimizer.problems(stats, {}, ["fork", "fork-no-x"])),
                         [("tpcc", "fork-no-x")])

    def test_long_lists_are_cut(self):
        a, b = tpcc_record(), tpcc_record()
        for i in range(30):
            a[("t%02d" % i, "", "n_rows")] = 1
        msgs = optimizer.problems({("stock", "d"): a, ("fork", "d"): b}, {}, ["stock", "fork"])
        self.assertEqual(len(msgs[("d", "fork")]), optimizer.MAX_LISTED + 1)
        self.assertEqual(msgs[("d", "fork")][-1], "... and 20 more")

    def test_plans(self):
        good = [step("order_line", "range", "PRIMARY", rows="200"), step("stock", "eq_ref", "PRIMARY")]
        estimate = [step("order_line", "range", "PRIMARY", rows="187"), step("stock", "eq_ref", "PRIMARY")]
        bad = [step("stock", "ref", "PRIMARY", rows="100000", extra="Using where"),
               step("order_line", "ALL", "NULL")]
        self.assertEqual(optimizer.plan_differences(good, estimate, "stock", "fork"), [])
        self.assertEqual(optimizer.plan_differences(good, bad, "stock", "fork"), [
            "STOCK_LEVEL `SELECT ...`: stock: order_line range on PRIMARY, stock eq_ref on PRIMARY;"
            " fork: stock ref on PRIMARY (Using where), order_line ALL"])
        stats = {("stock", "tpcc"): tpcc_record(), ("fork", "tpcc"): tpcc_record()}
        plans = {("stock", "tpcc"): good, ("fork", "tpcc"): bad}
        self.assertEqual(len(optimizer.problems(stats, plans, ["stock", "fork"])[("tpcc", "fork")]), 1)


class SummaryTest(unittest.TestCase):
    def test_error_instead_of_ratio(self):
        text = summary({("stock", "tpcc"): STOCK_AS_LOADED, ("fork", "tpcc"): tpcc_record()})
        self.assertIn("**not compared** (statistics or plans differ)", text)
        self.assertNotIn("**7.070**", text)
        self.assertIn("**Error: fork is not compared with stock on tpcc** (no ratio):", text)
        self.assertIn("- statistics: tpcc.item n_rows: stock 2, fork 100000", text)
        self.assertIn("**Error: stock's statistics of tpcc do not describe the data**", text)
        self.assertIn("- fork vs stock on tpcc: not compared", text)
        self.assertNotIn("All checks passed.", text)

    def test_ratio_when_statistics_agree(self):
        text = summary({("stock", "tpcc"): tpcc_record(), ("fork", "tpcc"): tpcc_record(pages=0.95)})
        self.assertIn("**7.070** (7.070-7.070)", text)
        self.assertNotIn("not compared", text)
        self.assertNotIn("Error", text)
        self.assertIn("| tpcc | tpcc.item | 100000 / 100000 rows, 600 pages |", text)
        self.assertIn("innodb_stats_persistent_sample_pages=1000001", text)
        self.assertIn("Statistics and plans agree between all servers.", text)
        self.assertIn("| RC | 4 | 90 | 200 | 90 | 200 |", text)
        self.assertIn("All checks passed.", text)

    def test_no_statistics_recorded(self):  # an old results directory, an early stop
        self.assertIn("**7.070**", summary({}))


class SmokeCheckTest(unittest.TestCase):
    """check_smoke.check_statistics on a tablestats.csv as the smoke run writes it."""

    def record(self, n_rows, recalc="OFF"):
        settings = [("innodb_stats_auto_recalc", recalc),
                    ("innodb_stats_persistent_sample_pages", "1000001")]
        return {("fork", "sysbench"): optimizer.collect(
                    [("sbtest", "sbtest1", "")], [("sbtest", "sbtest1", str(n_rows), "5", "2")], [],
                    [("sbtest.sbtest1", "1000")], settings),
                ("fork", "split"): optimizer.collect(
                    [("sbtest", "split_t", "")], [("sbtest", "split_t", "3000", "481", "0")], [],
                    [("sbtest.split_t", "3000")], settings),
                ("fork", "split-io"): optimizer.collect(
                    [("sbtest", "split_t", "")], [("sbtest", "split_t", "3000", "481", "0")], [],
                    [("sbtest.split_t", "3000")], settings),
                ("fork", "sysbench-io"): optimizer.collect(
                    [("sbtest", "sbtest1", "")], [("sbtest", "sbtest1", "3000", "45", "5")], [],
                    [("sbtest.sbtest1", "3000")], settings)}

    def errors(self, stats):
        with tempfile.TemporaryDirectory() as d:
            report.write_table_stats(os.path.join(d, "tablestats.csv"), stats)
            return check_smoke.check_statistics(d)

    def test_analyzed(self):
        self.assertEqual(self.errors(self.record(1000)), [])

    def test_not_analyzed(self):
        self.assertEqual(self.errors(self.record(0)),
                         ["fork sysbench: sbtest.sbtest1: n_rows 0, COUNT(*) 1000"])
        self.assertEqual(self.errors(self.record(1000, recalc="ON")), [
            "fork sysbench: innodb_stats_auto_recalc=ON, the harness sets OFF",
            "fork split: innodb_stats_auto_recalc=ON, the harness sets OFF",
            "fork split-io: innodb_stats_auto_recalc=ON, the harness sets OFF",
            "fork sysbench-io: innodb_stats_auto_recalc=ON, the harness sets OFF"])
        stats = self.record(1000)
        del stats[("fork", "split")]
        self.assertEqual(self.errors(stats), ["tablestats.csv has no statistics of fork split"])


class FakeServer:
    """Answers the harness's queries by their first words; keeps them."""
    name = "fork"

    def __init__(self, answers):
        self.answers, self.queries = answers, []

    def rows(self, query, db=None):
        self.queries.append(query)
        return next(v for k, v in self.answers.items() if query.startswith(k))


class PrepareTest(unittest.TestCase):
    def test_load_analyze_record_explain_then_check(self):
        calls = []

        class Fake(workloads.Workload):
            dataset, database = "tpcc", "tpcc"
            statements = (("NEW_ORDER", "SELECT i_price FROM item WHERE i_id = 1"),)

            def load(self, server, ctx):
                calls.append("load")

            def check_loaded(self, server, ctx):
                calls.append("check after %d queries" % len(server.queries))

        srv = FakeServer({
            "SELECT TABLE_SCHEMA": [["tpcc", "", "item"]],
            "ANALYZE TABLE": [["tpcc.item", "analyze", "status", "OK"]],
            "SELECT database_name, table_name, n_rows": [["tpcc", "item", "100000", "609", "0"]],
            "SELECT database_name, table_name, index_name": [["tpcc", "item", "PRIMARY", "size", "609"]],
            "SELECT 'tpcc.item', COUNT(*)": [["tpcc.item", "100000"]],
            "SELECT VARIABLE_NAME": SETTINGS,
            "SELECT COALESCE(SUM(DATA_LENGTH": [["12.5"]],
            "EXPLAIN FORMAT=TRADITIONAL SELECT i_price": [
                ["1", "SIMPLE", "item", "NULL", "const", "PRIMARY", "PRIMARY", "4", "const", "1",
                 "100.00", "NULL"]]})
        ctx = workloads.Context({}, [], "/nonexistent", None)
        Fake().prepare(srv, ctx)
        self.assertEqual(calls, ["load", "check after %d queries" % len(srv.queries)])
        self.assertIn("ANALYZE TABLE `tpcc`.`item`", srv.queries)
        self.assertLess(srv.queries.index("ANALYZE TABLE `tpcc`.`item`"),
                        [i for i, q in enumerate(srv.queries) if "innodb_table_stats" in q][0])
        self.assertEqual(ctx.data_mb, {("fork", "tpcc"): 12.5})
        self.assertTrue([q for q in srv.queries if "SUM(DATA_LENGTH" in q
                         and q.endswith("TABLE_SCHEMA = 'tpcc'")])
        rec = ctx.table_stats[("fork", "tpcc")]
        self.assertEqual(optimizer.undescribed(rec), [])
        self.assertEqual(rec[("tpcc.item", "PRIMARY", "size")], 609)
        plan = ctx.plans[("fork", "tpcc")]
        self.assertEqual([(s["table"], s["type"], s["key"]) for s in plan], [("item", "const", "PRIMARY")])

    def test_analyze_failure_stops_the_prepare(self):
        srv = FakeServer({"SELECT TABLE_SCHEMA": [["sbtest", "", "sbtest1"]],
                          "ANALYZE TABLE": [["sbtest.sbtest1", "analyze", "error", "Lock wait timeout"]]})
        with self.assertRaisesRegex(RuntimeError, "ANALYZE TABLE: sbtest.sbtest1: Lock wait timeout"):
            optimizer.analyze(srv)

    def test_every_workload_is_analyzed(self):
        for w in workloads.make(["sysbench", "tpcc", "long-report", "split-insert"]):
            self.assertIs(type(w).prepare, workloads.Workload.prepare, w.name)

    def test_tpcc_statements(self):
        names = {t for t, _ in workloads.Tpcc.statements}
        self.assertEqual(names, {"NEW_ORDER", "PAYMENT", "ORDER_STATUS", "DELIVERY", "STOCK_LEVEL"})
        delivery = dict((sql.split()[0], sql) for t, sql in workloads.Tpcc.statements if t == "DELIVERY")
        self.assertIn("(1, 10, 2101))", delivery["DELETE"])


class IndexPagesTest(unittest.TestCase):
    def test_full_scan_analyze_then_the_sums_and_the_setting_back(self):
        srv = FakeServer({"SELECT @@GLOBAL.innodb_stats_persistent_sample_pages": [["200"]],
                          "SELECT TABLE_SCHEMA": [["sbtest", "", "sbtest1"]],
                          "ANALYZE TABLE": [["sbtest.sbtest1", "analyze", "status", "OK"]],
                          "SELECT stat_name, SUM(IF(": [["n_leaf_pages", "812"],
                                                        ["size", "1056"],
                                                        ["n_diff_pfx01", "790"]]})
        srv.sql = srv.queries.append
        out = optimizer.index_pages(srv)
        self.assertEqual(out, {"leaf_pages_after": 812, "index_pages_after": 1056,
                               "leaf_pages_walked_after": 790})
        # the walked leaves are the first column's sample size, of a full scan
        self.assertIn("'n_diff_pfx01', sample_size", srv.queries[-1])
        sets = [q for q in srv.queries if q.startswith("SET GLOBAL")]
        self.assertGreater(optimizer.FULL_SCAN_PAGES, 10 ** 6)
        self.assertEqual(sets, ["SET GLOBAL innodb_stats_persistent_sample_pages = %d"
                                % optimizer.FULL_SCAN_PAGES,
                                "SET GLOBAL innodb_stats_persistent_sample_pages = 200"])
        analyze = srv.queries.index("ANALYZE TABLE `sbtest`.`sbtest1`")
        self.assertLess(srv.queries.index(sets[0]), analyze)
        self.assertLess(analyze, srv.queries.index(sets[1]))
        self.assertIn("'mysql'", srv.queries[-1])

    def test_the_setting_comes_back_when_analyze_fails(self):
        srv = FakeServer({"SELECT @@GLOBAL.innodb_stats_persistent_sample_pages": [["1000001"]],
                          "SELECT TABLE_SCHEMA": [["sbtest", "", "sbtest1"]],
                          "ANALYZE TABLE": [["sbtest.sbtest1", "analyze", "error", "Lock wait"]]})
        srv.sql = srv.queries.append
        with self.assertRaises(RuntimeError):
            optimizer.index_pages(srv)
        self.assertEqual(srv.queries[-1], "SET GLOBAL innodb_stats_persistent_sample_pages = 1000001")


class SqlServer:
    """Keeps the statements sent with sql()."""

    def __init__(self, name):
        self.name, self.queries, self.sock = name, [], "/nonexistent"

    def sql(self, query, db=None):
        self.queries.append(query)
        return ""


class SameRowsTest(unittest.TestCase):
    def test_first_server_exports_every_server_reloads(self):
        with tempfile.TemporaryDirectory() as d:
            ctx = workloads.Context({"tables": 2, "table_size": 10}, [], d, None, file_dir=d)
            ctx.run = lambda server, argv, logname: server.queries.append(argv[-1])
            stale = os.path.join(d, "sysbench-sbtest1.tsv")
            open(stale, "w").close()  # an earlier run's: INTO OUTFILE would fail
            first, second = SqlServer("stock"), SqlServer("stock-2")
            workloads.Sysbench("oltp_point_select").load(first, ctx)
            self.assertFalse(os.path.exists(stale))
            workloads.LongReport().load(second, ctx)  # the same data set
        self.assertEqual(ctx.exported, {"sysbench": "stock"})
        f1, f2 = (os.path.join(d, "sysbench-sbtest%d.tsv" % n) for n in (1, 2))
        reload = [workloads.reload_sql(1, f1), workloads.reload_sql(2, f2)]
        self.assertEqual(first.queries, ["CREATE DATABASE IF NOT EXISTS sbtest", "prepare",
                                         workloads.export_sql(1, f1), workloads.export_sql(2, f2)]
                         + reload)
        self.assertEqual(second.queries, ["CREATE DATABASE IF NOT EXISTS sbtest", "prepare"] + reload)
        self.assertEqual(workloads.reload_sql(2, "/w/files/x.tsv"),
                         "ALTER TABLE sbtest.sbtest2 DROP INDEX k_2; TRUNCATE TABLE sbtest.sbtest2;"
                         " LOAD DATA INFILE '/w/files/x.tsv' INTO TABLE sbtest.sbtest2 (id, k, c, pad);"
                         " CREATE INDEX k_2 ON sbtest.sbtest2(k)")
        self.assertIn("ORDER BY id INTO OUTFILE 'it''s'", workloads.export_sql(1, "it's"))
        self.assertEqual(server.base_cnf({"file_dir": "/w/files"})["secure_file_priv"], "/w/files")


class ConfigAndCountersTest(unittest.TestCase):
    def test_statistics_settings_in_every_servers_cnf(self):
        cnf = server.base_cnf({})
        self.assertEqual(cnf["innodb_stats_auto_recalc"], "OFF")
        self.assertEqual(cnf["innodb_stats_persistent"], "ON")
        # Above 1e6 InnoDB scans every leaf page (dict_stats_analyze_index_low).
        self.assertGreater(int(cnf["innodb_stats_persistent_sample_pages"]), 10**6)

    def test_reads_per_transaction(self):
        before = {"Handler_read_key": 100, "Handler_read_next": 50,
                  "Innodb_buffer_pool_read_requests": 1000, "Innodb_buffer_pool_reads": 10}
        after = {"Handler_read_key": 1100, "Handler_read_next": 2050, "Handler_read_rnd_next": 0,
                 "Innodb_buffer_pool_read_requests": 9000, "Innodb_buffer_pool_reads": 260}
        self.assertEqual(metrics.reads_per_transaction(before, after, 100),
                         {"handler_reads_per_txn": 30.0, "page_reads_per_txn": 80.0,
                          "disk_reads": 250, "disk_reads_per_txn": 2.5})
        self.assertEqual(metrics.reads_per_transaction(before, after, 0),
                         {"handler_reads_per_txn": None, "page_reads_per_txn": None,
                          "disk_reads": 250, "disk_reads_per_txn": None})

    def test_tpcc_counts_every_transaction_type(self):
        from test_parse import GOTPC
        row = workloads.tpcc_row(GOTPC)
        self.assertEqual(row["transactions"], 4512)
        self.assertEqual(row["all_transactions"], 4512 + 405)  # not NEW_ORDER_ERR


if __name__ == "__main__":
    unittest.main()
