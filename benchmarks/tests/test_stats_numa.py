# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import numa, stats  # noqa: E402

NUMACTL_4NODES = """\
available: 4 nodes (0-3)
node 0 cpus: 0 1 2 3 32 33 34 35
node 0 size: 128000 MB
node 0 free: 120000 MB
node 1 cpus: 4 5 6 7 36 37 38 39
node 1 size: 128000 MB
node 2 cpus: 8 9 10 11
node 3 cpus: 12 13 14 15
node distances:
node   0   1   2   3
  0:  10  21  31  31
"""


class StatsTest(unittest.TestCase):
    def test_summarize(self):
        s = stats.summarize([100, 110, 90])
        self.assertEqual(s["median"], 100)
        self.assertEqual((s["min"], s["max"]), (90, 110))
        self.assertAlmostEqual(s["spread_pct"], 20.0)

    def test_ratio_and_range(self):
        r = stats.ratio([200, 220, 180], [100, 110, 90])
        self.assertAlmostEqual(r["ratio"], 2.0)
        self.assertAlmostEqual(r["low"], 180 / 110)
        self.assertAlmostEqual(r["high"], 220 / 90)

    def test_ratio_rejects_zero_and_empty(self):
        with self.assertRaises(ValueError):
            stats.ratio([1], [0])
        with self.assertRaises(ValueError):
            stats.summarize([])


class NumaTest(unittest.TestCase):
    def test_cpulists(self):
        self.assertEqual(numa.parse_cpulist("0-3,8,10-11\n"), [0, 1, 2, 3, 8, 10, 11])
        self.assertEqual(numa.format_cpulist([11, 0, 1, 2, 3, 8, 10]), "0-3,8,10-11")

    def test_multi_node_default_split(self):
        nodes = numa.from_numactl(NUMACTL_4NODES)
        self.assertEqual(sorted(nodes), [0, 1, 2, 3])
        self.assertEqual(nodes[1], [4, 5, 6, 7, 36, 37, 38, 39])
        p = numa.plan(nodes)
        self.assertEqual(p["server"], ["numactl", "--cpunodebind=0,1", "--membind=0,1"])
        self.assertEqual(p["client"], ["numactl", "--cpunodebind=2,3", "--membind=2,3"])

    def test_multi_node_chosen(self):
        p = numa.plan(numa.from_numactl(NUMACTL_4NODES), server_nodes=[3], client_nodes=[0])
        self.assertEqual(p["server"][1:], ["--cpunodebind=3", "--membind=3"])
        self.assertEqual(p["client"][1:], ["--cpunodebind=0", "--membind=0"])
        with self.assertRaises(ValueError):
            numa.plan(numa.from_numactl(NUMACTL_4NODES), server_nodes=[7])

    def test_single_node_disjoint_cpus(self):
        p = numa.plan({0: [0, 1]})
        self.assertEqual(p["server"], ["numactl", "--physcpubind=0"])
        self.assertEqual(p["client"], ["numactl", "--physcpubind=1"])
        self.assertIn("single NUMA node", p["note"])

    def test_sysfs(self):
        with tempfile.TemporaryDirectory() as d:
            for n, cpus in ((0, "0-1\n"), (1, "2-3\n")):
                os.makedirs(os.path.join(d, "node%d" % n))
                with open(os.path.join(d, "node%d" % n, "cpulist"), "w") as f:
                    f.write(cpus)
            self.assertEqual(numa.from_sysfs(d), {0: [0, 1], 1: [2, 3]})


if __name__ == "__main__":
    unittest.main()
