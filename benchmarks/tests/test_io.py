# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The io workloads without a server: the io data set's ids, the
workloads' data sets and groups, the per-point I/O figures and the
summary's I/O-bound table."""
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, report, workloads  # noqa: E402

INT_MIN, INT_MAX = -2 ** 31, 2 ** 31 - 1


def ids(sql):
    """The first and last id an io_rows_sql() statement inserts."""
    m = re.search(r"SELECT (\d+) UNION ALL .* i < (\d+)\) SELECT (-?\d+) \+ i \* (\d+),", sql)
    first, last, base, stride = (int(x) for x in m.groups())
    return base + first * stride, base + last * stride, stride


class DataSetTest(unittest.TestCase):
    def test_ids_spread_over_the_integer_range(self):
        size = main.IO_SETS["io_table_size"]
        low, _, stride = ids(workloads.io_rows_sql(1, 0, 10, size))
        _, high, _ = ids(workloads.io_rows_sql(1, size - 10, 10, size))
        self.assertGreaterEqual(low, INT_MIN)
        self.assertLessEqual(high, INT_MAX)
        # Evenly: random ids land among the rows, all but the 2^32 mod
        # size ids at the top (0.01 %) and half a stride at the bottom.
        self.assertLessEqual(low - INT_MIN, stride)
        self.assertLess((INT_MAX - high) / 2 ** 32, 1e-3)

    def test_chunks_follow_each_other(self):
        _, last, stride = ids(workloads.io_rows_sql(2, 0, workloads.IO_CHUNK, 10 ** 6))
        first, _, _ = ids(workloads.io_rows_sql(2, workloads.IO_CHUNK, 5, 10 ** 6))
        self.assertEqual(first - last, stride)

    def test_purge_script_computes_the_same_ids(self):
        with open(os.path.join(workloads.BENCH, "workloads", "purge_heavy.lua")) as f:
            lua = f.read()
        self.assertIn("stride = math.floor(4294967296 / sysbench.opt.table_size)", lua)
        self.assertIn("-2147483648 + math.floor(stride / 2) +", lua)
        self.assertEqual(workloads.IO_ID_BASE, -2147483648)
        self.assertEqual(workloads.io_stride(3), 4294967296 // 3)

    def test_io_sets_over_eight_times_the_io_buffer_pool(self):
        # 2.5 KB rows at about 6 a page; sysbench's rows at about 70 a page.
        p = main.PROFILES["io"]
        pool = 128 * 2 ** 20
        self.assertEqual(p["buffer_pool"], "128M")
        self.assertGreater(p["io_split_rows"] / 6 * 16384, 8 * pool)
        self.assertGreater(p["io_tables"] * p["io_table_size"] / 70 * 16384, 8 * pool)
        self.assertIn("innodb_flush_method=O_DIRECT", p["mysqld_opts"])


class WorkloadsTest(unittest.TestCase):
    def test_io_workloads(self):
        p = main.PROFILES["io"]
        ws = workloads.make(list(workloads.IO_WORKLOADS))
        self.assertEqual([w.dataset for w in ws], ["split-io", "split-io", "sysbench-io",
                                                   "sysbench-io", "sysbench-io-own"])
        self.assertTrue(all(w.cold for w in ws))
        self.assertFalse(any(w.cold for w in workloads.make(["split-insert", "oltp_insert"])))
        self.assertEqual(ws[0].groups(p), [{"isolation": "RR", "threads": 32},
                                           {"isolation": "RR", "threads": 128}])
        self.assertEqual(ws[1].groups(p), [{"isolation": "RR", "threads": 32}])
        sb = ws[2].params(p)
        self.assertEqual((sb["tables"], sb["table_size"], sb["warmup"]),
                         (p["io_tables"], p["io_table_size"], 0))
        self.assertIn("--auto_inc=off", ws[2].extra_args(p))
        self.assertEqual(ws[3].extra_args(p), ["--mysql-ignore-errors=1062",
                                               "--delete_rows=%d" % p["io_delete_rows"]])
        # oltp_write_only-io: sysbench's own ids, at the io data set's sizes
        ow = ws[4].params(p)
        self.assertEqual((ws[4].script, ow["tables"], ow["table_size"], ow["warmup"]),
                         ("oltp_write_only", p["io_tables"], p["io_table_size"], 0))
        self.assertIs(type(ws[4]).load, workloads.Sysbench.load)

    def test_every_profile_has_the_io_parameters(self):
        for name, p in main.PROFILES.items():
            for k in main.IO_SETS:
                self.assertIn(k, p, name)
            self.assertIn("lob_rows", p, name)

    def test_lob_workload(self):
        p = main.PROFILES["quick"]
        w, = workloads.make(list(workloads.LOB_WORKLOADS))
        self.assertEqual((w.name, w.dataset, w.cold), ("lob-write", "lob", False))
        self.assertTrue(os.path.exists(w.script))
        self.assertEqual(w.groups(p), [{"isolation": "RR", "threads": p["split_threads"]}])
        server = type("Server", (), {"sock": "/s"})
        self.assertIn("--rows=%d" % p["lob_rows"], w.argv(server, p, 4, 20))
        self.assertIn("lob-write", main.PROFILES["smoke"]["workloads"])


class MetricsTest(unittest.TestCase):
    def test_iowait(self):
        before = [100, 0, 50, 800, 10, 0, 0, 0]
        after = [200, 0, 100, 900, 60, 0, 0, 0]  # 300 ticks, 50 of them iowait
        self.assertAlmostEqual(metrics.iowait_pct(before, after), 100 * 50 / 300)

    def test_hold_deltas(self):
        before = {"index_lock_sx_holds": 5, "index_lock_sx_hold_ns": 1000}
        after = {"index_lock_sx_holds": 15, "index_lock_sx_hold_ns": 61000,
                 "index_lock_x_holds": 2, "index_lock_x_hold_ns": 10}
        self.assertEqual(metrics.hold_deltas(before, after),
                         {"index_lock_sx_holds": 10, "index_lock_sx_hold_ns": 60000,
                          "index_lock_x_holds": 2, "index_lock_x_hold_ns": 10})
        self.assertEqual(metrics.hold_deltas({}, {}), {})

    def test_io_per_transaction(self):
        self.assertEqual(metrics.io_per_transaction({"index_lock_ms": 2.0, "data_read_ms": 50.0},
                                                    100),
                         {"index_lock_us_per_txn": 20.0, "read_wait_us_per_txn": 500.0})
        self.assertEqual(metrics.io_per_transaction({}, 0),
                         {"index_lock_us_per_txn": None, "read_wait_us_per_txn": None})


def io_row(server, rep, tps, splits, sx_ns=""):
    return {"server": server, "rep": rep, "workload": "split-insert-io", "isolation": "RR",
            "threads": 32, "throughput": tps, "transactions": 1000, "p95_ms": 10, "p99_ms": 20,
            "page_splits": splits, "disk_reads": 3 * splits, "disk_reads_per_txn": 1.5,
            "read_wait_us_per_txn": 300, "iowait_pct": 40, "index_lock_us_per_txn": 700,
            "cpu_us_per_txn": 150, "index_lock_sx_hold_ns": sx_ns, "index_lock_x_hold_ns": "",
            "tablespace_latch_x_hold_ns": ""}


class ReportTest(unittest.TestCase):
    def test_io_table(self):
        rows = [io_row("stock", 0, 100, 500), io_row("stock", 1, 120, 500),
                io_row("fork-no-btree-blink", 0, 110, 400, 400 * 250000)]
        lines = report.io_lines(rows, ["stock", "fork-no-btree-blink"])
        self.assertEqual(len(lines), 4)
        cells = [c.strip() for c in lines[2].strip("|").split("|")]
        head = dict(zip(report.IO_HEAD, cells))
        self.assertEqual((head["server"], head["tps"], head["splits/txn"],
                          head["disk reads/split"], head["SX hold us/split"]),
                         ("stock", "110", "0.500", "3.00", "-"))
        cells = dict(zip(report.IO_HEAD, [c.strip() for c in lines[3].strip("|").split("|")]))
        self.assertEqual(cells["SX hold us/split"], "250.0")

    def test_data_set_sizes(self):
        info = {"buffer_pool": "128M", "data_mb": {("stock", "split-io"): 1280.0,
                                                   ("fork", "split-io"): 1344.0}}
        self.assertEqual(report.data_set_lines(info),
                         ["- data set split-io after ANALYZE: stock 1280 MB, fork 1344 MB"
                          " (10.0 to 10.5 times the 128M buffer pool)"])
        self.assertEqual(report.data_set_lines({}), [])


if __name__ == "__main__":
    unittest.main()
