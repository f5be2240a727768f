# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The transaction throttling benchmark's harness pieces, without a server:
server names with mysqld options of their own (NAME+option=value) and
those options in that server's my.cnf only; the fork's active transaction
set and throttling queue sampled during a point, the throttling counters'
deltas and trx_sys->mutex per transaction; sysbench ignoring error 1637
beside its own list, and its error count."""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, parse, report, server, workloads  # noqa: E402

SWITCHES = {"innodb_hybrid_read_view": "ON", "innodb_view_close_latch_free": "ON"}
THROTTLED = "fork+innodb_trx_throttling=32"
# The run the benchmark needs, in one --servers list.
LADDER = ["stock", "stock+innodb_thread_concurrency=16", "fork", THROTTLED,
          "fork+innodb_trx_throttling=64"]

# sysbench 1.0.20's report of an oltp_read_write run whose statements hit
# innodb_trx_throttling_timeout (in its format: sysbench cannot run here):
# the ignored errors are restarted transactions, counted in err/s.
SYSBENCH_1637 = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 64
Report intermediate results every 1 second(s)
Initializing random number generator from current time


Initializing worker threads...

Threads started!

[ 1s ] thds: 64 tps: 812.45 qps: 16390.77 (r/w/o: 11486.34/3232.55/1671.88) lat (ms,95%): 150.29 err/s: 0.00 reconn/s: 0.00
[ 2s ] thds: 64 tps: 790.02 qps: 15843.35 (r/w/o: 11088.25/3165.07/1590.03) lat (ms,95%): 1013.60 err/s: 25.00 reconn/s: 0.00
[ 3s ] thds: 64 tps: 801.00 qps: 16031.00 (r/w/o: 11214.00/3204.00/1613.00) lat (ms,95%): 155.80 err/s: 12.00 reconn/s: 0.00
SQL statistics:
    queries performed:
        read:                            33600
        write:                           9600
        other:                           4837
        total:                           48037
    transactions:                        2400   (799.31 per sec.)
    queries:                             48037  (15998.29 per sec.)
    ignored errors:                      37     (12.32 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          3.0027s
    total number of events:              2400

Latency (ms):
         min:                                    3.12
         avg:                                   79.95
         max:                                 1204.77
         95th percentile:                      158.63
         sum:                               191880.11

Threads fairness:
    events (avg/stddev):           37.5000/2.91
    execution time (avg/stddev):   2.9981/0.00
"""


class NameTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(server.parse_name("stock"), ("stock", {}))
        self.assertEqual(server.parse_name(THROTTLED), ("fork", {"innodb_trx_throttling": "32"}))
        base, opts = server.parse_name(
            "fork-no-btree-blink+innodb_trx_throttling=8+innodb_trx_throttling_timeout=1+x=1.5")
        self.assertEqual(base, "fork-no-btree-blink")
        self.assertEqual(list(opts.items()), [("innodb_trx_throttling", "8"),
                                              ("innodb_trx_throttling_timeout", "1"), ("x", "1.5")])

    def test_malformed(self):
        for bad, why in (("fork+", "not option=value"), ("fork+innodb_trx_throttling", "not option"),
                         ("fork+=3", "not option=value"), ("+x=1", "no server before"),
                         ("fork+x=", "value ''"), ("fork+X=1", "lower-case"),
                         ("fork+innodb-thread-concurrency=4", "underscores"),
                         ("fork+x=a-b", "letters, digits"), ("fork+x=a/b", "letters, digits"),
                         ("fork+x=a b", "letters, digits"), ("fork+x=a|b", "letters, digits"),
                         ("fork+x=1+x=2", "given twice"), ("fork+port=3500", "the harness's"),
                         ("stock+datadir=tmp", "the harness's"), ("fork+socket=s", "the harness's")):
            with self.assertRaisesRegex(ValueError, why, msg=bad):
                server.parse_name(bad)

    def test_specs(self):
        specs = server.server_specs(LADDER, switches=SWITCHES)
        self.assertEqual([s["name"] for s in specs], LADDER)
        by = {s["name"]: s for s in specs}
        self.assertEqual(by["stock+innodb_thread_concurrency=16"]["build"], ("stock", "release"))
        self.assertEqual(by["stock+innodb_thread_concurrency=16"]["options"],
                         {"innodb_thread_concurrency": "16"})
        self.assertEqual(by["stock"]["options"], {})
        self.assertEqual(by[THROTTLED]["switches"], SWITCHES)
        self.assertEqual(by[THROTTLED]["build"], ("fork", "release"))
        # Variants are not twins of their base: every ratio is against stock.
        self.assertEqual(server.aa_pairs(LADDER), [])
        off = server.server_specs(["fork-no-hybrid-read-view+innodb_trx_throttling=8"],
                                  switches=SWITCHES)[0]
        self.assertEqual((off["switches"]["innodb_hybrid_read_view"], off["options"]),
                         ("OFF", {"innodb_trx_throttling": "8"}))

    def test_twins_of_a_variant(self):
        names = [s["name"] for s in server.server_specs([THROTTLED, "stock", THROTTLED],
                                                        switches=SWITCHES)]
        self.assertEqual(names, [THROTTLED, "stock", THROTTLED + "-2"])
        self.assertEqual(server.aa_pairs(names), [(THROTTLED, THROTTLED + "-2")])

    def test_bad_specs(self):
        for bad, why in (("stock+innodb_trx_throttling=8", "stock has no innodb_trx_throttling"),
                         ("stock+innodb_hybrid_read_view=OFF", "stock has no"),
                         ("ablations+innodb_trx_throttling=8", "ablations takes no options"),
                         ("forc+innodb_trx_throttling=8", "unknown server")):
            with self.assertRaisesRegex(ValueError, why, msg=bad):
                server.server_specs([bad], switches=SWITCHES)

    def test_options_reach_that_servers_cnf_only(self):
        cnf = server.base_cnf({"mysqld_opts": ["innodb-thread-concurrency=4"]})
        specs = server.server_specs(LADDER, switches=SWITCHES)
        with tempfile.TemporaryDirectory() as d:
            srv = {s["name"]: server.Server(s, d, 3400 + i, cnf) for i, s in enumerate(specs)}
            for s in srv.values():
                s.write_cnf()
            text = {}
            for n, s in srv.items():
                with open(s.cnf_path) as f:
                    text[n] = f.read().splitlines()
            self.assertEqual(srv[THROTTLED].dir, os.path.join(d, THROTTLED))
        self.assertIn("innodb_trx_throttling=32", text[THROTTLED])
        self.assertIn("innodb_trx_throttling=64", text["fork+innodb_trx_throttling=64"])
        self.assertEqual([n for n, lines in text.items() if "innodb_trx_throttling=32" in lines],
                         [THROTTLED])
        self.assertIn("datadir=%s" % os.path.join(d, THROTTLED, "data"), text[THROTTLED])
        # The server's own value replaces the shared one, whatever its spelling.
        conc = srv["stock+innodb_thread_concurrency=16"].cnf
        self.assertEqual(conc["innodb_thread_concurrency"], "16")
        self.assertNotIn("innodb-thread-concurrency", conc)
        self.assertEqual(srv["stock"].cnf["innodb-thread-concurrency"], "4")
        self.assertNotIn("innodb_thread_concurrency", srv["stock"].cnf)
        # Everything else, performance_schema and its instruments included, is
        # the same on every server: stock's cnf less the options and switches.
        for name, s in srv.items():
            own = set(s.spec["options"]) | set(s.spec["switches"]) | {"innodb-thread-concurrency"}
            self.assertEqual({k: v for k, v in s.cnf.items() if k not in own},
                             {k: v for k, v in srv["stock"].cnf.items() if k not in own}, name)
            self.assertEqual(s.cnf["performance-schema-instrument"], "'wait/synch/%/innodb/%=ON'")

    def test_socket_path_limit(self):
        spec = server.server_specs([THROTTLED], switches=SWITCHES)[0]
        server.Server(spec, "/" + "w" * 40, 1, {})
        with self.assertRaisesRegex(ValueError, "socket path .* at most 107"):
            server.Server(spec, "/" + "w" * 80, 1, {})

    def test_options(self):
        a, p = main.arguments(["--servers", ",".join(LADDER), "--threads", "64,1024"])
        self.assertEqual(p["servers"], LADDER)
        err = io.StringIO()
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(err):
            main.arguments(["--servers", "stock,fork+innodb-trx-throttling=32"])
        self.assertIn("error: server 'fork+innodb-trx-throttling=32': option", err.getvalue())
        a, p = main.arguments(["--servers", "stock,fork+innodb_buffer_pool_size=4G",
                               "--buffer-pool", "2G", "--no-pin"])
        self.assertEqual(main.buffer_pool(a, p), "4G")  # the largest any server gets

    def test_names_in_tables_and_csv(self):
        rows = [{"rep": rep, "server": s, "workload": "oltp_read_write", "isolation": "RC",
                 "threads": 64, "throughput": tps + rep, "unit": "tps", "check": "ok"}
                for rep in range(3) for s, tps in (("stock", 100), (THROTTLED, 150))]
        with tempfile.TemporaryDirectory() as d:
            report.write_csv(os.path.join(d, "r.csv"), rows)
            back = report.read_csv(os.path.join(d, "r.csv"))
        self.assertEqual({r["server"] for r in back}, {"stock", THROTTLED})
        lines = report.summary_table(back, ["stock", THROTTLED])
        self.assertIn("| %s/stock (95 %% CI) |" % THROTTLED, lines[0])
        self.assertTrue(lines[2].rstrip(" |").split("|")[-1].strip().startswith("**1.4"), lines[2])


class FakeStatus:
    """A server's SHOW GLOBAL STATUS LIKE 'Innodb_trx_%' answers, one a call."""

    def __init__(self, answers):
        self.answers, self.queries = list(answers), []

    def rows(self, query, db=None):
        self.queries.append(query)
        return self.answers.pop(0) if self.answers else []


def status(rw, active, waiting, admitted=0, waits=0, wait_us=0, timeouts=0):
    return [["Innodb_trx_active_rw_ids", str(rw)], ["Innodb_trx_throttling_active", str(active)],
            ["Innodb_trx_throttling_waiting", str(waiting)],
            ["Innodb_trx_throttling_admitted", str(admitted)],
            ["Innodb_trx_throttling_waits", str(waits)],
            ["Innodb_trx_throttling_wait_time_us", str(wait_us)],
            ["Innodb_trx_throttling_timeouts", str(timeouts)],
            ["Innodb_trx_throttling_interrupted", "0"], ["Innodb_trx_throttling_active_max", "32"]]


class MetricsTest(unittest.TestCase):
    def test_status_and_gauges(self):
        fake = FakeStatus([status(40, 32, 7)])
        st = metrics.trx_status(fake)
        self.assertIn("LIKE 'Innodb_trx_%'", fake.queries[0])
        self.assertEqual((st["active_rw_ids"], st["throttling_active_max"]), (40, 32))
        self.assertEqual(metrics.trx_gauges(st), (40, 32, 7))
        self.assertEqual(metrics.trx_gauges(metrics.trx_status(FakeStatus([[]]))),
                         (None, None, None))

    def test_deltas(self):
        before = metrics.trx_status(FakeStatus([status(1, 0, 0, 100, 10, 5000, 1)]))
        after = metrics.trx_status(FakeStatus([status(2, 0, 0, 2500, 400, 900000, 4)]))
        self.assertEqual(metrics.throttling_deltas(before, after),
                         {"throttling_admitted": 2400, "throttling_waits": 390,
                          "throttling_wait_time_us": 895000, "throttling_timeouts": 3,
                          "throttling_interrupted": 0})
        self.assertEqual(metrics.throttling_deltas({}, {}), {})  # stock: empty columns

    def test_samples_and_summary(self):
        raw = [(0.01, (3, 3, 0)), (1.02, (60, 32, 28)), (2.04, (64, 32, 30)),
               (3.0, (58, 32, 20)), (4.1, (0, 0, 0))]
        samples = metrics.trx_samples(raw)
        self.assertEqual(samples[0], (0.0, 3, 3, 0))
        self.assertEqual(len(samples), 5)
        # Without the first (connecting) and the last (after the client's exit).
        self.assertEqual(metrics.gauge_summary(samples, "active_rw_ids"),
                         {"active_rw_ids_mean": 182 / 3, "active_rw_ids_max": 64})
        self.assertEqual(metrics.gauge_summary(samples, "throttling_waiting"),
                         {"throttling_waiting_mean": 26.0, "throttling_waiting_max": 30})
        self.assertEqual(metrics.gauge_summary(samples[:2], "active_rw_ids"),
                         {"active_rw_ids_mean": 31.5, "active_rw_ids_max": 60})
        # Stock: no sample is kept, no summary.
        self.assertEqual(metrics.trx_samples([(0.0, (None, None, None))]), [])
        self.assertEqual(metrics.gauge_summary([], "active_rw_ids"),
                         {"active_rw_ids_mean": None, "active_rw_ids_max": None})
        # A server with the active set but no throttling (an older fork).
        partial = metrics.trx_samples([(t, (10, None, None)) for t in range(4)])
        self.assertEqual(metrics.gauge_summary(partial, "throttling_waiting")
                         ["throttling_waiting_mean"], None)
        self.assertEqual(metrics.gauge_summary(partial, "active_rw_ids")["active_rw_ids_mean"], 10)

    def test_trx_sys_mutex_per_transaction(self):
        waits = {"trx_sys_mutex_count": 3000, "trx_sys_mutex_ms": 1.5}
        self.assertEqual(metrics.trx_sys_mutex_per_transaction(waits, 1000),
                         {"trx_sys_mutex_per_txn": 3.0, "trx_sys_mutex_us_per_txn": 1.5})
        for w, n in ((waits, 0), (waits, None), ({}, 1000)):
            self.assertEqual(metrics.trx_sys_mutex_per_transaction(w, n),
                             {"trx_sys_mutex_per_txn": None, "trx_sys_mutex_us_per_txn": None})


class FakeSampler:
    """metrics.Sampler without a thread: four samples of fn() at stop."""

    def __init__(self, fn, interval=1.0):
        self.fn = fn

    def start(self):
        pass

    def stop(self):
        return [(float(t), self.fn()) for t in range(4)]


class MeasureTest(unittest.TestCase):
    """workloads.measure() with a fake server and client: the fork's
    columns from its status, nothing (not an error) from stock's."""

    def measure(self, answers):
        class Srv:
            name, pid, sock = "fork", os.getpid(), "/s"
            rows = FakeStatus(answers).rows

            def sql(self, query, db=None, timeout=None):
                return "0"

        ctx = workloads.Context(main.PROFILES["smoke"], [], tempfile.gettempdir(), lambda m: None)
        with mock.patch.object(ctx, "run", return_value=SYSBENCH_1637), \
                mock.patch.object(metrics, "Sampler", FakeSampler), \
                mock.patch.object(metrics, "reset_waits"), \
                mock.patch.object(metrics, "read_counters", return_value={}), \
                mock.patch.object(metrics, "deadlocks", return_value=0), \
                mock.patch.object(metrics, "blink_counters", return_value={}), \
                mock.patch.object(metrics, "hold_counters", return_value={}), \
                mock.patch.object(metrics, "index_metrics", return_value={}), \
                mock.patch.object(metrics, "read_waits", return_value={
                    "trx_sys_mutex_count": 7200, "trx_sys_mutex_ms": 24.0}):
            return workloads.measure(ctx, Srv(), ["sysbench"], "x.log", workloads.sysbench_row, {})

    def test_fork(self):
        # Before the point, four samples, after the point.
        r = self.measure([status(0, 0, 0, 10, 1, 100, 0), status(2, 2, 0), status(60, 32, 20),
                          status(64, 32, 40), status(1, 1, 0), status(0, 0, 0, 2410, 301, 150100, 37)])
        self.assertEqual((r["errors"], r["errors_per_s"], r["transactions"]), (37, 12.32, 2400))
        self.assertEqual((r["throttling_admitted"], r["throttling_waits"],
                          r["throttling_wait_time_us"], r["throttling_timeouts"]),
                         (2400, 300, 150000, 37))
        self.assertEqual(r["trx_samples"], [(0.0, 2, 2, 0), (1.0, 60, 32, 20), (2.0, 64, 32, 40),
                                            (3.0, 1, 1, 0)])
        self.assertEqual((r["active_rw_ids_mean"], r["active_rw_ids_max"]), (62.0, 64))
        self.assertEqual((r["throttling_waiting_mean"], r["throttling_waiting_max"]), (30.0, 40))
        self.assertEqual((r["trx_sys_mutex_per_txn"], r["trx_sys_mutex_us_per_txn"]), (3.0, 10.0))

    def test_stock(self):
        r = self.measure([])
        self.assertEqual(r["trx_samples"], [])
        self.assertIsNone(r["active_rw_ids_mean"])
        self.assertFalse([k for k in r if k.startswith("throttling_") and r[k] is not None])
        self.assertEqual(r["trx_sys_mutex_per_txn"], 3.0)  # performance_schema: every server


class IgnoredErrorsTest(unittest.TestCase):
    P = {"tables": 1, "table_size": 5, "split_rows": 100}

    def ignore_options(self, argv):
        return [x for x in argv if x.startswith("--mysql-ignore-errors")]

    def test_merge(self):
        self.assertEqual(workloads.ignored_errors([]), ["--mysql-ignore-errors=1213,1020,1205,1637"])
        self.assertEqual(workloads.ignored_errors(["--auto_inc=off", "--mysql-ignore-errors=1062"]),
                         ["--auto_inc=off", "--mysql-ignore-errors=1213,1020,1205,1637,1062"])
        self.assertEqual(workloads.ignored_errors(["--mysql-ignore-errors=1637, 1213,9"]),
                         ["--mysql-ignore-errors=1213,1020,1205,1637,9"])
        self.assertEqual(workloads.ignored_errors(["--mysql-ignore-errors=all"]),
                         ["--mysql-ignore-errors=all"])

    def test_every_sysbench_run(self):
        srv = mock.Mock(sock="/s")
        for w in workloads.make(["sysbench", "oltp_insert-random", "oltp_write_only"]):
            argv = workloads.sysbench_argv(srv, w.script, self.P, 64, 8, *w.extra)
            opts = self.ignore_options(argv)
            self.assertEqual(len(opts), 1, w.name)
            self.assertIn("1637", opts[0].split("=")[1].split(","), w.name)
            self.assertIn("1213", opts[0], w.name)  # sysbench's own list kept
        random, = workloads.make(["oltp_insert-random"])
        argv = workloads.sysbench_argv(srv, random.script, self.P, 8, 3, *random.extra)
        self.assertIn("--mysql-ignore-errors=1213,1020,1205,1637,1062", argv)
        self.assertLess(argv.index("--auto_inc=off"), argv.index("run"))
        split = workloads.SplitInserts().argv(srv, self.P, 32, 20, "--readers=on")
        self.assertEqual(self.ignore_options(split), ["--mysql-ignore-errors=1213,1020,1205,1637"])
        self.assertEqual(split[-1], "run")
        # A prepare stops at any error: its rows must all be there.
        for argv in (workloads.sysbench_argv(srv, "oltp_read_write", self.P, 4, 0, command="prepare"),
                     workloads.SplitInserts().argv(srv, self.P, 1, 0, command="prepare")):
            self.assertEqual(self.ignore_options(argv), [])

    def test_long_report_ignores_1637(self):
        calls = []

        def fake_measure(ctx, srv, argv, *a, **k):
            calls.append(argv)
            return {"intervals": []}

        ctx = workloads.Context(dict(main.PROFILES["smoke"], long_delay=0, long_hold=0),
                                [], tempfile.gettempdir(), lambda m: None)
        srv = mock.Mock(sock="/s")
        srv.name = "fork"
        srv.sql.return_value = "1\n0.5"
        with mock.patch.object(workloads, "measure", fake_measure), \
                mock.patch.object(metrics, "history_length", return_value=0):
            list(workloads.LongReport().run_group(srv, ctx, {}, 0))
        self.assertEqual(self.ignore_options(calls[0]), ["--mysql-ignore-errors=1213,1020,1205,1637"])

    def test_error_count(self):
        r = parse.sysbench(SYSBENCH_1637)
        self.assertEqual((r["errors"], r["errors_per_s"]), (37, 12.32))
        self.assertEqual([i["err_per_s"] for i in r["intervals"]], [0.0, 25.0, 12.0])
        row = workloads.sysbench_row(SYSBENCH_1637)
        self.assertEqual((row["errors"], row["throughput"]), (37, 799.31))
        self.assertEqual(workloads.sysbench_row(SYSBENCH_1637.replace(
            "    ignored errors:                      37     (12.32 per sec.)\n", ""))["errors"], 0)


def trx_row(server, rep, **kw):
    r = {"rep": rep, "server": server, "workload": "oltp_update_index", "isolation": "RC",
         "threads": 256, "throughput": 1000.0, "unit": "tps", "check": "ok"}
    r.update(kw)
    return r


class ReportTest(unittest.TestCase):
    def rows(self):
        out = []
        for rep in range(3):
            out.append(trx_row("stock", rep, trx_sys_mutex_per_txn=4.0 + rep,
                               trx_sys_mutex_us_per_txn=2.0, trx_samples=[]))
            out.append(trx_row(THROTTLED, rep, trx_sys_mutex_per_txn=2.0,
                               trx_sys_mutex_us_per_txn=0.5 + rep,
                               active_rw_ids_mean=30.0 + rep, active_rw_ids_max=33 + rep,
                               throttling_waiting_mean=200.0, throttling_waiting_max=224,
                               throttling_admitted=10000, throttling_waits=2500 * (rep + 1),
                               throttling_wait_time_us=5000000, throttling_timeouts=rep,
                               throttling_interrupted=0,
                               trx_samples=[(0.0, 1, 1, 0), (1.0, 32, 32, 200 + rep)]))
        return out

    def test_per_repetition(self):
        self.assertEqual(report.throttling_per_repetition(
            {"throttling_admitted": "1000", "throttling_waits": "250",
             "throttling_wait_time_us": "500000"}), (0.25, 2.0))
        self.assertEqual(report.throttling_per_repetition(
            {"throttling_admitted": 0, "throttling_waits": 0, "throttling_wait_time_us": 0}),
            (None, None))
        self.assertEqual(report.throttling_per_repetition({"throttling_admitted": ""}), (None, None))

    def test_lines(self):
        lines = report.trx_lines(self.rows(), ["stock", THROTTLED])
        self.assertEqual(len(lines), 4)
        self.assertEqual(lines[0].count("|"), len(report.TRX_HEAD) + 1)
        self.assertEqual(lines[2], "| oltp_update_index | RC | 256 | stock | - | - | - | - | - | 5.00"
                                   " | 2.00 |")
        # waits/admitted 25, 50, 75 %; 2000, 1000, 667 us per queued request.
        self.assertEqual(lines[3], "| oltp_update_index | RC | 256 | %s | 31.0 / 35 | 200.0 / 224"
                                   " | 50.0 %% | 1.00 | 3 | 2.00 | 1.50 |" % THROTTLED)
        self.assertEqual(report.trx_lines([trx_row("stock", 0)], ["stock"]), [])

    def test_csv_files(self):
        rows = self.rows()
        with tempfile.TemporaryDirectory() as d:
            report.write_csv(os.path.join(d, "results.csv"), rows)
            report.write_trx_samples(os.path.join(d, "trx_samples.csv"), rows)
            back = report.read_csv(os.path.join(d, "results.csv"))
            samples = report.read_csv(os.path.join(d, "trx_samples.csv"))
        for f in ("errors", "active_rw_ids_mean", "active_rw_ids_max", "throttling_waiting_mean",
                  "throttling_admitted", "throttling_timeouts", "trx_sys_mutex_per_txn",
                  "trx_sys_mutex_us_per_txn"):
            self.assertIn(f, back[0])
        self.assertEqual(back[0]["active_rw_ids_mean"], "")  # stock: NA
        self.assertEqual(back[1]["throttling_waits"], "2500")
        self.assertEqual(report.trx_lines(back, ["stock", THROTTLED])[3],
                         report.trx_lines(rows, ["stock", THROTTLED])[3])
        self.assertEqual(len(samples), 6)  # stock has none
        self.assertEqual(samples[1], {"server": THROTTLED, "workload": "oltp_update_index",
                                      "isolation": "RC", "threads": "256", "rep": "0", "t_s": "1.0",
                                      "active_rw_ids": "32", "throttling_active": "32",
                                      "throttling_waiting": "200"})

    def test_series(self):
        series = report.trx_series(self.rows(), ["stock", THROTTLED])
        (key, pts), = series.items()
        self.assertEqual(key, ("oltp_update_index", "RC"))
        (threads, lines), = pts
        self.assertEqual(threads, 256)
        self.assertEqual([(s, rep) for s, rep, *_ in lines], [(THROTTLED, 0), (THROTTLED, 1),
                                                              (THROTTLED, 2)])
        self.assertEqual(lines[1][2:], ([0.0, 1.0], [1, 32], [0, 201]))
        self.assertEqual(report.trx_series([trx_row("stock", 0, trx_samples=[])], ["stock"]), {})

    def test_summary_section(self):
        info = {"machine": {"cpu": "x", "arch": "x", "cores": 2, "numa_nodes": 1, "kernel": "x",
                            "memory_gib": 1}, "profile": "quick", "pinning": "-", "versions": {},
                "repeats": 3, "durations": "-", "command": "benchmarks/run"}
        with tempfile.TemporaryDirectory() as d:
            text = "\n".join(report.write_summary(d, self.rows(), [], ["stock", THROTTLED], info))
        self.assertIn("## Transactions in flight, throttling and trx_sys->mutex", text)
        self.assertIn("| %s/stock (" % THROTTLED, text)

    @unittest.skipUnless(__import__("importlib").util.find_spec("matplotlib"), "no matplotlib")
    def test_plot(self):
        with tempfile.TemporaryDirectory() as d:
            made = report.plot(d, self.rows(), [], ["stock", THROTTLED])
            self.assertIn("oltp_update_index-RC-trx.png", made)
            with open(os.path.join(d, "plots", "oltp_update_index-RC-trx.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


if __name__ == "__main__":
    unittest.main()
