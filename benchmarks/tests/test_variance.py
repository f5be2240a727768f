# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Numbers a user can trust (issue 13), without a server: steal time, CPU
per transaction, the variance fixes' arithmetic, A/A twins and the
intervals of the summary."""
import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, report, server, variance  # noqa: E402

# SHOW ENGINE INNODB STATUS of the stock 9.7.2 server, the parts settle reads.
STATUS = """\
------------
TRANSACTIONS
------------
Trx id counter 2060
Purge done for trx's n:o < 2057 undo n:o < 0 state: running but idle
History list length 4
---
LOG
---
Log capacity                 1073741824
Log capacity used            1073741824
Log sequence number          19527405
Log buffer assigned up to    19527405
Pages flushed up to          19479302
Last checkpoint at           19479302
"""


class CpuTest(unittest.TestCase):
    def test_steal_pct(self):
        # user nice system idle iowait irq softirq steal guest guest_nice
        before = [1000, 0, 500, 8000, 100, 0, 50, 10, 300, 0]
        after = [1600, 0, 700, 8800, 100, 0, 50, 60, 900, 0]
        # 1650 ticks in all (guest is inside user), 50 of them stolen.
        self.assertAlmostEqual(metrics.steal_pct(before, after), 100 * 50 / 1650)
        self.assertEqual(metrics.steal_pct(before, before), 0.0)

    def test_cpu_per_transaction(self):
        self.assertAlmostEqual(metrics.cpu_us_per_txn(0.5, 10000), 50.0)
        self.assertAlmostEqual(metrics.cpu_us_per_txn(3.0, 4917), 3.0 / 4917 * 1e6)
        self.assertIsNone(metrics.cpu_us_per_txn(1.0, 0))
        self.assertIsNone(metrics.cpu_us_per_txn(1.0, None))

    def test_meter_on_this_process(self):
        m = metrics.CpuMeter(os.getpid())
        sum(range(200000))
        r = m.stop()
        self.assertGreaterEqual(r["server_cpu_s"], 0.0)
        self.assertGreaterEqual(r["steal_pct"], 0.0)
        self.assertNotIn("steal_high", r)  # measure() judges it with the point's reads

    def test_steal_limit_grows_with_reads(self):
        self.assertEqual(metrics.steal_limit_pct(None, 20.0), metrics.STEAL_LIMIT_PCT)
        self.assertEqual(metrics.steal_limit_pct(0, 20.0), metrics.STEAL_LIMIT_PCT)
        self.assertEqual(metrics.steal_limit_pct(500, 0), metrics.STEAL_LIMIT_PCT)
        # 3,000 reads a second (an I/O-bound point here): 2 % + 3 x 2.5 %
        self.assertAlmostEqual(metrics.steal_limit_pct(60000, 20.0),
                               metrics.STEAL_LIMIT_PCT + 3 * metrics.STEAL_PCT_PER_KREAD_S)

    def test_steal_judgement(self):
        limit = metrics.STEAL_LIMIT_PCT + 3 * metrics.STEAL_PCT_PER_KREAD_S
        point = {"data_reads": 60000, "wall_s": 20.0}
        self.assertEqual(metrics.steal_judgement(dict(point, steal_pct=limit)),
                         {"steal_limit_pct": limit, "steal_high": 0})
        self.assertEqual(metrics.steal_judgement(dict(point, steal_pct=limit + 0.1))["steal_high"], 1)
        # no reads: the base limit, as for a point in memory
        self.assertEqual(metrics.steal_judgement({"wall_s": 20.0, "steal_pct": 2.1})["steal_high"], 1)


class FixesTest(unittest.TestCase):
    def test_option(self):
        self.assertEqual(variance.fixes("all"), {"writeback", "warm", "settle"})
        self.assertEqual(variance.fixes("none"), set())
        self.assertEqual(variance.fixes("warm, settle"), {"warm", "settle"})
        for bad in ("warm,sleep", "", "none,warm"):
            with self.assertRaises(ValueError):
                variance.fixes(bad)
        a, _ = main.arguments([])
        self.assertEqual(a.variance_fixes, set(variance.FIXES))
        a, _ = main.arguments(["--variance-fixes", "none"])
        self.assertEqual(a.variance_fixes, set())
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            main.arguments(["--variance-fixes", "cold"])

    def test_pending_writeback(self):
        meminfo = "MemTotal:       24000000 kB\nDirty:             40960 kB\nWriteback:         8192 kB\n" \
                  "WritebackTmp:          0 kB\n"
        self.assertEqual(variance.pending_writeback_mb(meminfo), 48.0)

    def test_warm_without_the_startup_load(self):
        self.assertEqual(server.base_cnf({"warm": True})["innodb_buffer_pool_load_at_startup"], "OFF")
        self.assertNotIn("innodb_buffer_pool_load_at_startup", server.base_cnf({"warm": False}))

    def test_warm_reads_every_index(self):
        self.assertEqual(variance.warm_queries([("sbtest", "sbtest1", "PRIMARY"),
                                                ("sbtest", "sbtest1", "k_1")]),
                         ["SELECT COUNT(*) FROM `sbtest`.`sbtest1` FORCE INDEX (`PRIMARY`)",
                          "SELECT COUNT(*) FROM `sbtest`.`sbtest1` FORCE INDEX (`k_1`)"])

    def test_settled(self):
        cur = variance.innodb_status(STATUS)
        self.assertEqual(cur, {"purge_done": 2057, "history": 4, "lsn": 19527405,
                               "checkpoint": 19479302, "capacity": 1073741824})
        self.assertFalse(variance.settled(None, cur))  # one poll says nothing about progress
        self.assertTrue(variance.settled(cur, cur))
        self.assertFalse(variance.settled(dict(cur, purge_done=2000), cur))  # purge moved
        # Checkpoint age above 1 % of the capacity: pages still to flush.
        far = dict(cur, lsn=cur["checkpoint"] + cur["capacity"] // 100 + 1)
        self.assertFalse(variance.settled(far, far))
        # A history list that stays long after purge went idle is settled.
        self.assertTrue(variance.settled(dict(cur, history=40000), dict(cur, history=40000)))
        with self.assertRaisesRegex(ValueError, "Last checkpoint"):
            variance.innodb_status(STATUS.replace("Last checkpoint", "Checkpoint"))


def row(server, rep, tps, cpu_us, steal=0.0):
    return {"rep": rep, "order": 0, "server": server, "workload": "oltp_point_select",
            "dataset": "sysbench", "isolation": "RC", "threads": 8, "throughput": tps, "unit": "tps",
            "p95_ms": 1.0, "cpu_us_per_txn": cpu_us, "steal_pct": steal,
            "steal_high": int(steal > metrics.STEAL_LIMIT_PCT), "warm_pages": 3949, "warm_s": 0.5,
            "writeback_s": 1.5, "settle_s": 1.0, "settle": "ok", "hll_start": 342, "ckpt_age_mb": 0.1}


def cells(line):
    return [c.strip() for c in line.strip("|").split("|")]


class SummaryTest(unittest.TestCase):
    SERVERS = ["stock", "stock-2", "fork"]

    def rows(self, fork_tps, fork_cpu, twin=(990, 1050)):
        return [row("stock", 0, 1000, 50.0), row("stock", 1, 1020, 50.0),
                row("stock-2", 0, twin[0], 52.0), row("stock-2", 1, twin[1], 50.0),
                row("fork", 0, fork_tps[0], fork_cpu[0]), row("fork", 1, fork_tps[1], fork_cpu[1])]

    def test_interval_with_1_is_no_difference(self):
        lines = report.summary_table(self.rows((1030, 1060), (49.0, 50.0)), self.SERVERS)
        self.assertEqual(cells(lines[0])[-2:], ["stock-2/stock A/A (95 % CI)",
                                                "fork/stock (95 % CI)"])
        c = cells(lines[2])
        self.assertEqual(c[-2], "1.010 (0.779-1.308)")  # the A/A ratio, not bold
        self.assertEqual(c[-1], "no difference measured (0.950-1.126; could detect 11 %)")
        self.assertNotIn("**", lines[2])

    def test_interval_without_1_is_a_ratio(self):
        rows = self.rows((1200, 1250), (40.0, 41.0))
        c = cells(report.summary_table(rows, self.SERVERS)[2])
        self.assertEqual(c[-1], "**1.213** (1.050-1.400)")
        # CPU per transaction: its own ratio and interval.
        c = cells(report.summary_table(rows, self.SERVERS, field="cpu_us_per_txn")[2])
        self.assertEqual(c[3:6], ["50.0 us (0%, n=2)", "51.0 us (4%, n=2)", "40.5 us (2%, n=2)"])
        self.assertEqual(c[-1], "**0.810** (0.692-0.948)")

    def test_twins_that_differ_stop_the_comparison(self):
        rows = self.rows((1200, 1250), (40.0, 41.0), twin=(1300, 1302))
        c = cells(report.summary_table(rows, self.SERVERS)[2])
        self.assertTrue(c[-1].startswith("not compared: the A/A twins differ here (1.213"), c[-1])

    def test_summary_and_steal(self):
        rows = self.rows((1200, 1250), (40.0, 41.0))
        rows[4]["steal_pct"], rows[4]["steal_high"] = 3.5, 1
        info = {"profile": "smoke", "pinning": "-", "repeats": 2, "versions": {}, "durations": "-",
                "command": "benchmarks/run", "fixes": ["settle", "warm", "writeback"],
                "exported": {"sysbench": "stock"},
                "machine": {"cpu": "x", "arch": "x", "cores": 2, "numa_nodes": 1, "kernel": "x",
                            "memory_gib": 1}}
        with tempfile.TemporaryDirectory() as d:
            report.write_csv(os.path.join(d, "results.csv"), rows)
            back = report.read_csv(os.path.join(d, "results.csv"))
            text = "\n".join(report.write_summary(d, back, [], self.SERVERS, info))
        self.assertIn("- same rows: the sysbench data set of stock's prepare, loaded into every server",
                      text)
        self.assertIn("A/A pairs (one server twice): stock-2/stock.", text)
        self.assertIn("## Server CPU per transaction", text)
        # The repetition with steal enters neither the median nor the ratio.
        self.assertIn("| 1250 tps (0%, n=1) † (1 left out) |", text)
        self.assertIn("| 1.238 (one repetition: no interval) |", text)
        self.assertIn("## Repetitions left out of the ratios\n\n"
                      "- fork oltp_point_select RC 8 threads rep 0: steal 3.5 %", text)
        self.assertIn("- fork oltp_point_select RC 8 threads rep 0: steal 3.5 %", text)
        self.assertIn("| sysbench | stock | 2 | 1.5 / 1.5 | 3949-3949 | 0.5 / 0.5 | 1.0 / 1.0 | 0 | 342 | 0.1"
                      " | 0.0 / 0.0 |", text)

    def test_excluded(self):
        ok = row("fork", 0, 1000, 50.0)
        self.assertIsNone(report.excluded(ok))
        self.assertEqual(report.excluded(dict(ok, check="FAILED: check 3.3.2.1")),
                         "check FAILED: check 3.3.2.1")
        self.assertEqual(report.excluded(dict(ok, settle="timeout")), "settle timed out")
        self.assertEqual(report.excluded(dict(ok, writeback="timeout")), "writeback timed out")
        self.assertIsNone(report.excluded(dict(ok, errors_per_s=10.0)))  # 1 % of 1000 tps
        self.assertEqual(report.excluded(dict(ok, errors_per_s=10.5)),
                         "10.5 errors/s at 1000 transactions/s")
        # A TPC-C repetition of 0 tpmC whose check failed leaves the ratio.
        rows = self.rows((1200, 1250), (40.0, 41.0))
        rows[5]["check"] = "FAILED"
        c = cells(report.summary_table(rows, self.SERVERS)[2])
        self.assertEqual(c[7], "1200 tps (0%, n=1) (1 left out)")

    def test_fork_fork(self):
        rows = [dict(r, server=r["server"].replace("stock", "fork"))
                for r in self.rows((0, 0), (0, 0))[:4]]
        info = {"profile": "smoke", "pinning": "-", "repeats": 2, "versions": {}, "durations": "-",
                "command": "-", "machine": {"cpu": "x", "arch": "x", "cores": 2, "numa_nodes": 1,
                                            "kernel": "x", "memory_gib": 1}}
        with tempfile.TemporaryDirectory() as d:
            text = "\n".join(report.write_summary(d, rows, [], ["fork", "fork-2"], info))
        self.assertIn("A/A pairs (one server twice): fork-2/fork.", text)
        self.assertIn("| fork-2/fork A/A (95 % CI) |", text)
        self.assertIn("| 1.010 (0.779-1.308) |", text)

    def test_without_aa_pair(self):
        lines = report.summary_table(self.rows((1030, 1060), (49.0, 50.0)), ["stock", "fork"])
        # No twin: the interval alone decides (the old report printed
        # **1.035** without a gate).
        self.assertEqual(cells(lines[2])[-1],
                         "no difference measured (0.950-1.126; could detect 11 %)")


if __name__ == "__main__":
    unittest.main()
