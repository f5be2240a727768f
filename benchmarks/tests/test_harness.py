# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The harness's own logic, without a server: histogram percentiles, the
go-tpc check verdict, server and ablation specs, profiles and options, the
summary table and CSV round trip."""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, parse, report, server, workloads  # noqa: E402

HISTOGRAM = """\
Latency histogram (values are in milliseconds)
       value  ------------- distribution ------------- count
       1.000 |****                                     10
       2.000 |****************************************  80
       5.000 |**                                       8
      20.000 |*                                        2

SQL statistics:
"""

CHECK_OK = """\
begin to check warehouse 1 at condition 3.3.2.1
begin to check warehouse 1 at condition 3.3.2.2
Finished
"""

CHECK_BAD = """\
begin to check warehouse 1 at condition 3.3.2.1
execute check failed, err check warehouse 1 at condition 3.3.2.1 failed sum(d_ytd) - max(w_ytd) should be 0 in warehouse 1, but got 10.000000
"""

SWITCHES = {"innodb_hybrid_read_view": "ON", "innodb_view_close_latch_free": "ON"}


class ParseTest(unittest.TestCase):
    def test_histogram_percentiles(self):
        h = parse.sysbench_histogram(HISTOGRAM)
        self.assertEqual(h, [(1.0, 10), (2.0, 80), (5.0, 8), (20.0, 2)])
        self.assertEqual(parse.percentile(h, 50), 2.0)
        self.assertEqual(parse.percentile(h, 95), 5.0)
        self.assertEqual(parse.percentile(h, 99), 20.0)
        self.assertEqual(parse.percentile(h, 10), 1.0)
        self.assertIsNone(parse.percentile([], 95))

    def test_gotpc_check(self):
        self.assertEqual(parse.gotpc_check(CHECK_OK), "ok")
        self.assertTrue(parse.gotpc_check(CHECK_BAD).startswith("FAILED: execute check failed"))
        self.assertTrue(parse.gotpc_check("").startswith("FAILED: no consistency check"))


class WaitsTest(unittest.TestCase):
    class FakeServer:
        """Answers the global summary, then the background threads' one."""
        def __init__(self, answers):
            self.answers = list(answers)
            self.queries = []

        def rows(self, sql):
            self.queries.append(sql)
            return self.answers.pop(0) if self.answers else []

    def test_background_waits_apart(self):
        glob = [("wait/synch/sxlock/innodb/fil_space_latch", "90", "25000000000000"),
                ("wait/synch/sxlock/innodb/index_tree_rw_lock", "7", "1000000000")]
        background = [("wait/synch/sxlock/innodb/fil_space_latch", "5", "1300000000000")]
        fake = self.FakeServer([glob, background, []])
        out = metrics.read_waits(fake)
        self.assertEqual(out["top_waits"],
                         "fil_space_latch:90:25000.0ms index_tree_rw_lock:7:1.0ms")
        self.assertEqual(out["top_waits_background"], "fil_space_latch:5:1300.0ms")
        self.assertEqual(out["index_lock_count"], 7)
        self.assertIn("TYPE = 'BACKGROUND'", fake.queries[1])

    def test_top_waits_keeps_the_first_five(self):
        rows = [("wait/synch/mutex/innodb/m%d" % i, "1", "1000000") for i in range(7)]
        self.assertEqual(len(metrics.top_waits(rows).split()), metrics.TOP_WAITS)


class ServerSpecTest(unittest.TestCase):
    def test_stock_fork_ablations(self):
        specs = server.server_specs(["stock", "fork", "ablations"], switches=SWITCHES)
        by = {s["name"]: s for s in specs}
        self.assertEqual(list(by), ["stock", "fork", "fork-no-hybrid-read-view",
                                    "fork-no-view-close-latch-free"])
        self.assertEqual(by["stock"]["switches"], {})
        self.assertEqual(by["stock"]["build"], ("stock", "release"))
        self.assertEqual(by["fork"]["switches"], SWITCHES)
        off = by["fork-no-hybrid-read-view"]["switches"]
        self.assertEqual(off["innodb_hybrid_read_view"], "OFF")
        self.assertEqual(off["innodb_view_close_latch_free"], "ON")

    def test_bad_names(self):
        with self.assertRaisesRegex(ValueError, "unknown server"):
            server.server_specs(["fork-no-such"], switches=SWITCHES)
        with self.assertRaisesRegex(ValueError, "unknown server"):
            server.server_specs(["stock-2"], switches=SWITCHES)

    def test_aa_twins(self):
        specs = server.server_specs(["stock", "stock", "fork", "fork", "fork"], switches=SWITCHES)
        names = [s["name"] for s in specs]
        self.assertEqual(names, ["stock", "stock-2", "fork", "fork-2", "fork-3"])
        self.assertEqual(specs[1]["build"], specs[0]["build"])
        self.assertEqual(specs[3]["switches"], specs[2]["switches"])
        self.assertEqual(server.aa_pairs(names),
                         [("stock", "stock-2"), ("fork", "fork-2"), ("fork", "fork-3")])
        self.assertEqual(server.aa_pairs(["stock", "fork", "fork-no-hybrid-read-view"]), [])
        cnf = server.base_cnf({})
        a, b = (server.Server(s, "/tmp/x", 3400 + i, cnf) for i, s in enumerate(specs[:2]))
        self.assertEqual(a.cnf, b.cnf)
        self.assertEqual((a.bindir, a.dir, a.port), (b.bindir, "/tmp/x/stock", 3400))
        self.assertEqual((b.dir, b.port), ("/tmp/x/stock-2", 3401))

    def test_switches_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".cnf", delete=False) as f:
            f.write("# comment\ninnodb_a=ON\n\ninnodb_b = ON  # why\n")
        try:
            self.assertEqual(server.fork_switches(f.name), {"innodb_a": "ON", "innodb_b": "ON"})
        finally:
            os.unlink(f.name)

    def test_same_cnf_apart_from_switches(self):
        cnf = server.base_cnf({"mysqld_opts": ["innodb_flush_log_at_trx_commit=2", "skip-ssl"]})
        specs = server.server_specs(["stock", "fork"], switches=SWITCHES)
        a, b = (server.Server(s, "/tmp/x", 1, cnf) for s in specs)
        self.assertEqual({k: v for k, v in b.cnf.items() if k not in SWITCHES}, a.cnf)
        self.assertEqual(a.cnf["innodb_flush_log_at_trx_commit"], "2")
        self.assertIsNone(a.cnf["skip-ssl"])


class OptionsTest(unittest.TestCase):
    def test_profile_and_overrides(self):
        a, p = main.arguments(["--profile", "quick", "--threads", "1,8", "--repeats", "3"])
        self.assertEqual(p["threads"], [1, 8])
        self.assertEqual(p["repeats"], 3)
        # The default profile has the A/A twin: make bench always shows the noise.
        self.assertEqual(p["servers"], ["stock", "stock", "fork"])
        self.assertEqual(server.aa_pairs([s["name"] for s in server.server_specs(p["servers"])]),
                         [("stock", "stock-2")])
        self.assertEqual(p["lob_rows"], main.LOB_ROWS)
        a, p = main.arguments(["--profile", "quick", "--lob-rows", "200000"])
        self.assertEqual(p["lob_rows"], 200000)
        a, p = main.arguments(["--profile", "full"])
        self.assertEqual(p["threads"], [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])
        self.assertIn("ablations", p["servers"])

    def test_reproduce_command_names_profile(self):
        self.assertEqual(main.reproduce_command([], "quick"), "benchmarks/run --profile quick")
        self.assertEqual(main.reproduce_command(["--threads", "1,8"], "full"),
                         "benchmarks/run --profile full --threads 1,8")
        self.assertEqual(main.reproduce_command(["--profile=smoke", "--out", "a b"], "smoke"),
                         "benchmarks/run --profile=smoke --out 'a b'")

    def test_oltp_insert_only_when_named(self):
        names = [w.name for w in workloads.make(["sysbench"])]
        self.assertNotIn("oltp_insert", names)
        self.assertNotIn("oltp_write_only", names)
        self.assertEqual([w.name for w in workloads.make(["oltp_insert", "split-insert"])],
                         ["oltp_insert", "split-insert"])
        read = workloads.make(["oltp_write_only", "split-insert-read"])
        self.assertEqual([w.name for w in read], ["oltp_write_only", "split-insert-read"])
        self.assertEqual(read[1].dataset, "split")
        self.assertEqual(read[1].readers_per_writer, 1)
        with self.assertRaisesRegex(ValueError, "oltp_insert"):
            workloads.make(["oltp_delete"])

    def test_blink_counters_deltas_of_the_moved_ones(self):
        from innobench import metrics
        fake = mock.Mock()
        fake.rows.return_value = [["Innodb_btree_blink_leveled_splits", "12"],
                                  ["Innodb_btree_blink_exclusive_paths", "3"],
                                  ["Innodb_btree_blink_validate", "OFF"]]
        before = metrics.blink_counters(fake)
        self.assertIn("LIKE 'Innodb_btree_blink_%'", fake.rows.call_args[0][0])
        self.assertEqual(before, {"leveled_splits": 12, "exclusive_paths": 3})
        after = dict(before, leveled_splits=20, splits_finished=4)
        self.assertEqual(metrics.blink_counter_deltas(before, after),
                         "leveled_splits:8 splits_finished:4")
        self.assertEqual(metrics.blink_counter_deltas({}, {}), "")

    def test_index_metrics_by_column(self):
        from innobench import metrics, server
        fake = mock.Mock()
        fake.rows.return_value = [["index_page_merge_successful", "7"],
                                  ["index_page_splits", "40"]]
        self.assertEqual(metrics.index_metrics(fake), {
            "page_splits": 40, "page_merge_attempts": 0, "page_merges": 7, "page_discards": 0})
        for name in server.INDEX_METRICS:  # asked for, and enabled at startup
            self.assertIn("'%s'" % name, fake.rows.call_args[0][0])
            self.assertIn(name, server.base_cnf({})["innodb_monitor_enable"].split(","))

    def test_oltp_insert_random_runs_oltp_insert_with_explicit_ids(self):
        self.assertNotIn("oltp_insert-random", [w.name for w in workloads.make(["sysbench"])])
        w, = workloads.make(["oltp_insert-random"])
        self.assertEqual((w.name, w.script, w.extra, w.dataset),
                         ("oltp_insert-random", "oltp_insert",
                          ["--auto_inc=off", "--mysql-ignore-errors=1062"], "sysbench"))
        plain, = workloads.make(["oltp_insert"])
        self.assertEqual((plain.script, plain.extra), ("oltp_insert", []))
        argv = workloads.sysbench_argv(mock.Mock(sock="/s"), w.script, {"tables": 1, "table_size": 5},
                                       8, 3, *w.extra)
        self.assertEqual(argv[1], "oltp_insert")
        self.assertLess(argv.index("--auto_inc=off"), argv.index("run"))

    def test_bad_options(self):
        for bad in (["--isolation", "SERIALIZABLE"], ["--repeats", "0"], ["--profile", "x"]):
            err = io.StringIO()
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
                main.arguments(bad)
            self.assertIn("error:", err.getvalue())


def row(server, rep, threads, tps, p95=1.0, workload="oltp_read_only", check=""):
    return {"rep": rep, "order": 0, "server": server, "workload": workload, "isolation": "RC",
            "threads": threads, "throughput": tps, "unit": "tps", "p95_ms": p95, "check": check}


class ReportTest(unittest.TestCase):
    def test_summary_ratios(self):
        rows = [row("stock", 0, 4, 100), row("fork", 0, 4, 120),
                row("stock", 1, 4, 110), row("fork", 1, 4, 130)]
        lines = report.summary_table(rows, ["stock", "fork"])
        self.assertEqual(len(lines), 3)
        cells = [c.strip() for c in lines[2].strip("|").split("|")]
        self.assertEqual(cells[:3], ["oltp_read_only", "RC", "4"])
        self.assertEqual(cells[3], "105 tps (10%, n=2)")
        self.assertEqual(cells[5], "125 tps (8%, n=2)")
        # Two repetitions each and no A/A twin: the interval alone decides,
        # and it contains 1 (the old report printed **1.190** here).
        self.assertEqual(cells[7], "no difference measured (0.904-1.569; could detect 41 %)")
        rows = [row("stock", i, 4, v) for i, v in enumerate((100, 101, 99))] + \
            [row("fork", i, 4, v) for i, v in enumerate((150, 151, 149))]
        cells = [c.strip() for c in report.summary_table(rows, ["stock", "fork"])[2].strip("|").split("|")]
        self.assertTrue(cells[7].startswith("**1.500** (1.4"), cells[7])

    def test_one_repetition_and_bonferroni(self):
        rows = [row("stock", 0, 4, 100), row("fork", 0, 4, 120),
                row("stock", 0, 8, 200), row("fork", 0, 8, 200)]
        lines = report.summary_table(rows, ["stock", "fork"])
        # Two A/B ratios in the table: each interval at 97.5 %.
        self.assertIn("fork/stock (97.5 % CI)", lines[0])
        cells = [c.strip() for c in lines[2].strip("|").split("|")]
        self.assertEqual(cells[7], "1.200 (one repetition: no interval)")

    def test_missing_server_point(self):
        lines = report.summary_table([row("stock", 0, 1, 50)], ["stock", "fork"])
        cells = [c.strip() for c in lines[2].strip("|").split("|")]
        self.assertEqual(cells[5], "-")
        self.assertEqual(cells[7], "-")

    def test_checks_and_csv_round_trip(self):
        rows = [row("fork", 0, 32, 10, workload="split-insert", check="ok"),
                row("stock", 0, 32, 9, workload="split-insert", check="FAILED: CHECK TABLE")]
        self.assertEqual(report.checks(rows), ["- stock split-insert rep 0: FAILED: CHECK TABLE"])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.csv")
            report.write_csv(path, rows)
            back = report.read_csv(path)
        self.assertEqual([r["check"] for r in back], ["ok", "FAILED: CHECK TABLE"])
        self.assertEqual(report.summary_table(back, ["stock", "fork"])[2],
                         report.summary_table(rows, ["stock", "fork"])[2])


if __name__ == "__main__":
    unittest.main()
