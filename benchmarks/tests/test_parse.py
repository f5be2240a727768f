# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import parse  # noqa: E402

SYSBENCH = """\
sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: 8
Report intermediate results every 1 second(s)

Initializing worker threads...

Threads started!

[ 1s ] thds: 8 tps: 1234.56 qps: 24691.23 (r/w/o: 17283.86/4938.25/2469.12) lat (ms,95%): 8.43 err/s: 0.00 reconn/s: 0.00
[ 2s ] thds: 8 tps: 1300.00 qps: 26000.00 (r/w/o: 18200.00/5200.00/2600.00) lat (ms,95%): 7.98 err/s: 1.00 reconn/s: 0.00
SQL statistics:
    queries performed:
        read:                            35482
        write:                           10138
        other:                           5069
        total:                           50689
    transactions:                        2534   (1267.01 per sec.)
    queries:                             50689  (25344.50 per sec.)
    ignored errors:                      1      (0.50 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          2.0021s
    total number of events:              2534

Latency (ms):
         min:                                    2.01
         avg:                                    6.31
         max:                                   31.75
         95th percentile:                        8.28
         sum:                                15993.66

Threads fairness:
    events (avg/stddev):           316.7500/3.03
    execution time (avg/stddev):   1.9992/0.00
"""

GOTPC = """\
[Current] NEW_ORDER - Takes(s): 10.0, Count: 1003, TPM: 6018.0, Sum(ms): 9870.5, Avg(ms): 9.8, 50th(ms): 9.4, 90th(ms): 13.1, 95th(ms): 14.7, 99th(ms): 19.9, 99.9th(ms): 27.3, Max(ms): 29.4
Finished
[Summary] DELIVERY - Takes(s): 59.4, Count: 405, TPM: 409.1, Sum(ms): 9344.3, Avg(ms): 23.1, 50th(ms): 22.0, 90th(ms): 30.4, 95th(ms): 33.6, 99th(ms): 44.0, 99.9th(ms): 60.8, Max(ms): 62.9
[Summary] NEW_ORDER - Takes(s): 59.9, Count: 4512, TPM: 4519.5, Sum(ms): 44210.3, Avg(ms): 9.8, 50th(ms): 9.4, 90th(ms): 13.1, 95th(ms): 14.7, 99th(ms): 19.9, 99.9th(ms): 27.3, Max(ms): 41.9
[Summary] NEW_ORDER_ERR - Takes(s): 59.9, Count: 2, TPM: 2.0, Sum(ms): 9.1, Avg(ms): 4.6, 50th(ms): 4.2, 90th(ms): 5.2, 95th(ms): 5.2, 99th(ms): 5.2, 99.9th(ms): 5.2, Max(ms): 5.2
tpmC: 4519.5, efficiency: 3514.4%
"""


class ParseTest(unittest.TestCase):
    def test_sysbench_final_report(self):
        r = parse.sysbench(SYSBENCH)
        self.assertEqual(r["transactions"], 2534)
        self.assertAlmostEqual(r["tps"], 1267.01)
        self.assertAlmostEqual(r["qps"], 25344.50)
        self.assertEqual(r["writes"], 10138)
        self.assertAlmostEqual(r["errors_per_s"], 0.5)
        self.assertAlmostEqual(r["total_time_s"], 2.0021)
        self.assertEqual(r["lat_pct"], 95)
        self.assertAlmostEqual(r["lat_pct_ms"], 8.28)
        self.assertAlmostEqual(r["lat_avg_ms"], 6.31)
        self.assertAlmostEqual(r["lat_max_ms"], 31.75)

    def test_sysbench_intervals(self):
        iv = parse.sysbench(SYSBENCH)["intervals"]
        self.assertEqual([i["t"] for i in iv], [1.0, 2.0])
        self.assertAlmostEqual(iv[0]["tps"], 1234.56)
        self.assertEqual(iv[1]["threads"], 8)
        self.assertAlmostEqual(iv[1]["lat_ms"], 7.98)
        self.assertAlmostEqual(iv[1]["err_per_s"], 1.0)

    def test_sysbench_without_report_is_an_error(self):
        with self.assertRaises(ValueError):
            parse.sysbench("FATAL: unable to connect to MySQL server on socket\n")

    def test_gotpc_summary(self):
        r = parse.gotpc(GOTPC)
        self.assertAlmostEqual(r["tpmC"], 4519.5)
        self.assertAlmostEqual(r["efficiency_pct"], 3514.4)
        self.assertEqual(set(r["ops"]), {"DELIVERY", "NEW_ORDER", "NEW_ORDER_ERR"})
        self.assertEqual(r["ops"]["NEW_ORDER"]["count"], 4512)
        self.assertAlmostEqual(r["ops"]["NEW_ORDER"]["p99_ms"], 19.9)
        self.assertAlmostEqual(r["ops"]["DELIVERY"]["p95_ms"], 33.6)

    def test_gotpc_without_tpmc_is_an_error(self):
        with self.assertRaises(ValueError):
            parse.gotpc("[Summary] NEW_ORDER - Takes(s): 1.0, Count: 1\n")


if __name__ == "__main__":
    unittest.main()
