# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The run's flow and CPU arithmetic with fake servers (issue 22, item 7):
server order alternates between repetitions; write-back and warm-up once
per group, settle before every point, none with the fixes off; mysqld's CPU
is utime + stime of its own process divided by wall time; CPU per
transaction counts every transaction type; the gate's boundaries."""
import contextlib
import io
import itertools
import os
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, report, variance, workloads  # noqa: E402

THREADS = (1, 2)


class FakeServer:
    """What run() and measure() ask of a server, logged into `events`."""
    events = []

    def __init__(self, name, workdir, port, cnf, prefix=()):
        self.name, self.pid, self.sock = name, os.getpid(), "/nowhere"

    def _log(self, *what):
        FakeServer.events.append(what + (self.name,))

    def binary(self, name):
        return "/bin/true"

    def initialize(self):
        self._log("initialize")

    def save(self, dataset):
        self._log("save")

    def restore(self, dataset):
        self._log("restore")

    def start(self):
        self._log("start")

    def stop(self):
        self._log("stop")

    def version(self):
        return "fake"

    def sql(self, query, db=None, timeout=None):
        return "0"

    def rows(self, query, db=None):
        return []


class FakeWorkload(workloads.Workload):
    """Two points a group, measured by the real workloads.measure()."""
    name, dataset = "fake", "fake-data"

    def prepare(self, server, ctx):
        FakeServer.events.append(("prepare", server.name))

    def groups(self, p):
        return [{"isolation": "RC"}]

    def run_group(self, server, ctx, group, rep):
        for threads in THREADS:
            # Like TPC-C: `transactions` counts one type, all_transactions all.
            row = workloads.measure(ctx, server, ["echo", "done"], "fake-%d-r%d.log" % (threads, rep),
                                    lambda out: {"throughput": 10.0, "unit": "tps",
                                                 "transactions": 10, "all_transactions": 40})
            row.update(workload=self.name, isolation="RC", threads=threads)
            yield row


class FakeMeter:
    def __init__(self, pid):
        pass

    def stop(self):
        return {"cpu_server": 1.0, "cpu_clients": 0.5, "server_cpu_s": 2.0, "wall_s": 2.0,
                "steal_pct": 0.0, "steal_high": 0}


def fake_run(extra):
    """main.run() with every server and client faked: (rows, events)."""
    FakeServer.events = []
    calls = FakeServer.events
    a, p = main.arguments(["--profile", "smoke", "--servers", "stock,fork", "--repeats", "2",
                           "--no-pin"] + extra)
    with tempfile.TemporaryDirectory() as d, contextlib.ExitStack() as stack:
        a.workdir = d
        for obj, name, value in (
                (main, "Server", FakeServer), (main, "server_specs", lambda names, build: names),
                (main.workloads, "make", lambda names: [FakeWorkload()]),
                (variance, "wait_writeback", lambda: calls.append(("writeback",)) or {}),
                (variance, "warm", lambda s, scan=True: calls.append(("warm", s.name)) or {}),
                (variance, "settle", lambda s: calls.append(("settle", s.name)) or {}),
                (metrics, "CpuMeter", FakeMeter), (metrics, "reset_waits", lambda s: None),
                (metrics, "read_waits", lambda s: {}), (metrics, "read_counters", lambda s: {}),
                (metrics, "deadlocks", lambda s, n=itertools.count(0, 10): next(n)),
                (metrics, "index_metrics", lambda s, n=itertools.count(0): (lambda k: {
                    col: k * (i + 1) for i, col in enumerate(metrics.INDEX_METRICS)})(next(n)))):
            stack.enter_context(mock.patch.object(obj, name, value))
        stack.enter_context(contextlib.redirect_stderr(io.StringIO()))
        ctx, info, names = main.run(a, p, os.path.join(d, "out"), lambda progress, row: None)
    return ctx.rows, calls, info


class FlowTest(unittest.TestCase):
    def test_order_alternates(self):
        rows, calls, info = fake_run([])
        self.assertNotIn("error", info)
        self.assertEqual(len(rows), 2 * 2 * len(THREADS))
        starts = [c[1] for c in calls if c[0] == "start"]
        # Per data set one start each for the prepare, then the groups.
        self.assertEqual(starts, ["stock", "fork", "stock", "fork", "fork", "stock"])
        for r in rows:
            self.assertEqual(r["order"], ["stock", "fork"].index(r["server"]) ^ r["rep"])

    def test_fixes_called_per_group_and_point(self):
        rows, calls, _ = fake_run([])
        groups = [i for i, c in enumerate(calls) if c[0] == "restore"][2:]  # after the prepares
        self.assertEqual(len(groups), 4)
        for i in groups:  # restore, write-back, start, warm: in that order, every group
            self.assertEqual([c[0] for c in calls[i:i + 4]], ["restore", "writeback", "start", "warm"])
        self.assertEqual(sum(c[0] == "settle" for c in calls), 4 * len(THREADS))
        rows, calls, _ = fake_run(["--variance-fixes", "none"])
        self.assertFalse([c for c in calls if c[0] in ("writeback", "warm", "settle")])

    def test_index_pages_on_the_last_point_of_each_group(self):
        pages = {"leaf_pages_after": 812, "index_pages_after": 1056, "leaf_pages_walked_after": 790}
        with mock.patch.object(main.optimizer, "index_pages",
                               lambda s: FakeServer.events.append(("pages", s.name)) or pages):
            rows, calls, info = fake_run(["--index-pages"])
        self.assertNotIn("error", info)
        self.assertEqual([r.get("index_pages_after") for r in rows], [None, 1056] * 4)
        # what purge merged after the point (the fake's counters grow by 3 and 4)
        self.assertEqual([(r.get("page_merges_after"), r.get("page_discards_after")) for r in rows],
                         [(None, None), (3, 4)] * 4)
        # purge settles before the count, and the server stops after it
        for i in [i for i, c in enumerate(calls) if c[0] == "pages"]:
            self.assertEqual([c[0] for c in calls[i - 1:i + 2]], ["settle", "pages", "stop"])
        rows, calls, _ = fake_run([])
        self.assertFalse([r for r in rows if "index_pages_after" in r])

    def test_cpu_per_transaction_counts_every_type(self):
        rows, _, _ = fake_run([])
        for r in rows:  # 2.0 s of mysqld CPU over 40 transactions, not 10
            self.assertAlmostEqual(r["cpu_us_per_txn"], 2.0 / 40 * 1e6)
            self.assertEqual(r["deadlocks_per_s"], 10 / 2.0)  # 10 more over 2 s of wall time

    def test_index_metrics_are_deltas_per_point(self):
        rows, _, _ = fake_run([])
        for r in rows:  # the fake's k-th counter grows by k+1 between reads
            self.assertEqual([r[c] for c in metrics.INDEX_METRICS], [1, 2, 3, 4])


class SplitCheckTest(unittest.TestCase):
    """split-insert's verdict: CHECK TABLE OK and every insert counted."""

    def verdict(self, count):
        class Srv(FakeServer):
            def sql(self, query, db=None, timeout=None):
                return str(count) if "COUNT(*)" in query else "7"

            def rows(self, query, db=None):
                return [["sbtest.split_t", "check", "status", "OK"]]

        p = main.PROFILES["smoke"]
        ctx = workloads.Context(p, [], tempfile.gettempdir(), lambda msg: None)
        with mock.patch.object(workloads, "measure",
                               return_value={"writes": 100, "transactions": 100,
                                             "page_splits": 7}):
            row, = workloads.SplitInserts().run_group(Srv("fork", "", 0, {}), ctx, {}, 0)
        return row["check"]

    def test_row_count(self):
        rows = main.PROFILES["smoke"]["split_rows"]
        self.assertEqual(self.verdict(rows + 100), "ok")
        self.assertEqual(self.verdict(rows + 99),
                         "FAILED: CHECK TABLE OK, %d rows, expected %d" % (rows + 99, rows + 100))


class CpuArithmeticTest(unittest.TestCase):
    def test_utime_plus_stime(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "42"))
            # A command name with a space and a parenthesis; utime 300, stime 200,
            # cutime 7000 and cstime 9000 (children's, not ours).
            fields = ["S", "1", "42", "42", "0", "-1", "4194560", "1", "0", "0", "0",
                      "300", "200", "7000", "9000", "20", "0", "9"]
            with open(os.path.join(d, "42", "stat"), "w") as f:
                f.write("42 (my sql) d) " + " ".join(fields) + "\n")
            self.assertAlmostEqual(metrics.proc_cpu_seconds(42, proc=d), 500 / os.sysconf("SC_CLK_TCK"))

    def test_meter_divides_by_wall_time(self):
        with mock.patch.object(metrics, "proc_cpu_seconds", side_effect=[5.0, 8.0]), \
                mock.patch.object(metrics, "children_cpu_seconds", side_effect=[1.0, 2.0]), \
                mock.patch.object(metrics, "machine_cpu_ticks", return_value=[0] * 10), \
                mock.patch.object(metrics.time, "monotonic", side_effect=[10.0, 12.0]):
            m = metrics.CpuMeter(1)
            r = m.stop()
        self.assertEqual((r["server_cpu_s"], r["wall_s"]), (3.0, 2.0))
        self.assertAlmostEqual(r["cpu_server"], 1.5)   # mysqld's own CPU, per second
        self.assertAlmostEqual(r["cpu_clients"], 0.5)


class GateBoundaryTest(unittest.TestCase):
    def row(self, server, rep, tps, **kw):
        r = {"server": server, "rep": rep, "workload": "w", "isolation": "RC", "threads": 1,
             "throughput": tps, "unit": "tps", "check": "ok"}
        r.update(kw)
        return r

    def test_interval_touching_1_is_no_difference(self):
        # Equal repetitions: the interval is exactly [1, 1].
        rows = [self.row(s, rep, 100.0) for s in ("stock", "fork") for rep in (0, 1)]
        cell = report.summary_table(rows, ["stock", "fork"])[2].strip("|").split("|")[-1].strip()
        self.assertTrue(cell.startswith("no difference measured (1.000-1.000"), cell)

    def test_limits_are_inclusive(self):
        self.assertIsNone(report.excluded(self.row("fork", 0, 1000.0, errors_per_s=10.0)))
        self.assertIsNotNone(report.excluded(self.row("fork", 0, 1000.0, errors_per_s=10.01)))
        with mock.patch.object(metrics, "machine_cpu_ticks",
                               side_effect=[[0] * 10, [98, 0, 0, 0, 0, 0, 0, 2, 0, 0]]), \
                mock.patch.object(metrics, "proc_cpu_seconds", return_value=0.0):
            used = metrics.CpuMeter(1).stop()
        self.assertEqual(used["steal_pct"], 2.0)
        self.assertEqual(metrics.steal_judgement(dict(used, wall_s=20.0))["steal_high"], 0)


if __name__ == "__main__":
    unittest.main()
