# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The many-core projection (innobench/projection.py) on made-up rows."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import projection  # noqa: E402


def row(server, rep, sx_ns, space_ns, x_ns=0, txn=1000, splits=500, cpu=100.0, tps=5000):
    return {"server": server, "rep": rep, "workload": "split-insert-io", "threads": "32",
            "transactions": txn, "page_splits": splits, "cpu_us_per_txn": cpu, "throughput": tps,
            "index_lock_sx_hold_ns": sx_ns, "index_lock_x_hold_ns": x_ns,
            "tablespace_latch_x_hold_ns": space_ns}


class ProjectionTest(unittest.TestCase):
    def test_inputs_per_insert(self):
        # 1000 inserts, 500 splits, 250 ms of SX: 250 us per insert, 500 per split.
        inp = projection.inputs([row("fork-no-btree-blink", 0, 250e6, 100e6)])
        self.assertEqual((inp["splits"], inp["index_us"], inp["space_us"], inp["cpu_us"]),
                         (0.5, 250.0, 100.0, 100.0))
        self.assertIsNone(projection.inputs([]))
        self.assertIsNone(projection.inputs([row("stock", 0, "", "")])["index_us"])

    def test_the_busiest_latch_or_the_cpu_bounds(self):
        inp = {"cpu_us": 100.0, "index_us": 250.0, "space_us": 100.0}
        self.assertEqual(projection.bound(inp, 2), (4000.0, "latch"))  # 1e6 / 250
        self.assertEqual(projection.bound(inp, 1)[1], "latch")
        fast = dict(inp, index_us=1.0, space_us=2.0)
        self.assertEqual(projection.bound(fast, 8), (80000.0, "CPU"))
        self.assertEqual(projection.bound(fast, 64), (500000.0, "latch"))  # 1e6 / 2
        self.assertEqual(projection.bound(dict(inp, index_us=0.0, space_us=0.0), 8)[1], "CPU")

    def test_table(self):
        rows = [row("fork-no-btree-blink", 0, 250e6, 100e6), row("fork-no-btree-blink", 1, 350e6, 100e6),
                row("fork", 0, 0, 20e6), row("stock", 0, "", "")]
        lines = projection.project(rows, cores=(8, 64))
        self.assertEqual(len(lines), 4)  # stock has no counters: no line
        stock = [c.strip() for c in lines[2].strip("|").split("|")]
        # median SX 300 us per insert, 600 per split; ceiling 0.5 * 1e6 / 300 splits/s
        self.assertEqual(stock[6:10], ["600.0", "200.0", "1,667", "3,333 (latch)"])
        fork = [c.strip() for c in lines[3].strip("|").split("|")]
        self.assertEqual(fork[6:], ["0.0", "40.0", "25,000", "50,000 (latch)", "50,000 (latch)"])


if __name__ == "__main__":
    unittest.main()
