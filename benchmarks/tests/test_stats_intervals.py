# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The Welch interval on log values, its t quantiles, and its power on
synthetic data with known effects; a point's windows as samples, and the
test that refuses them when repetitions differ (innobench/stats.py)."""
import math
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from innobench import stats  # noqa: E402


class TQuantile(unittest.TestCase):
    def test_table_values(self):
        # Two-sided 95 % quantiles from any t table.
        for df, q in ((2, 4.303), (3, 3.182), (10, 2.228), (30, 2.042), (1e7, 1.960)):
            self.assertAlmostEqual(stats.t_quantile(0.975, df), q, places=3)
        self.assertAlmostEqual(stats.t_quantile(0.8, 8), 0.889, places=3)

    def test_cdf(self):
        self.assertAlmostEqual(stats.t_cdf(0.0, 5), 0.5)
        self.assertAlmostEqual(stats.t_cdf(-2.0, 4) + stats.t_cdf(2.0, 4), 1.0)
        # Fractional df, as Welch gives: between its neighbours.
        self.assertLess(stats.t_quantile(0.975, 3.5), stats.t_quantile(0.975, 3))
        self.assertGreater(stats.t_quantile(0.975, 3.5), stats.t_quantile(0.975, 4))


class WelchLogRatio(unittest.TestCase):
    def test_by_hand(self):
        a, b = [110, 121, 100], [100, 90, 95]
        la, lb = [math.log(v) for v in a], [math.log(v) for v in b]
        va = sum((x - sum(la) / 3) ** 2 for x in la) / 2 / 3
        vb = sum((x - sum(lb) / 3) ** 2 for x in lb) / 2 / 3
        d = sum(la) / 3 - sum(lb) / 3
        df = (va + vb) ** 2 / (va ** 2 / 2 + vb ** 2 / 2)
        q = stats.t_quantile(0.975, df)
        r = stats.welch_log_ratio(a, b)
        self.assertAlmostEqual(r["ratio"], math.exp(d))
        self.assertAlmostEqual(r["df"], df)
        self.assertAlmostEqual(r["low"], math.exp(d - q * math.sqrt(va + vb)))
        self.assertAlmostEqual(r["high"], math.exp(d + q * math.sqrt(va + vb)))

    def test_known_effect_and_none(self):
        b = [1000, 1010, 990, 1005, 995]
        same = stats.welch_log_ratio([1003, 998, 1008, 992, 1000], b)
        self.assertLess(same["low"], 1.0)
        self.assertGreater(same["high"], 1.0)
        double = stats.welch_log_ratio([2 * v for v in reversed(b)], b)
        self.assertAlmostEqual(double["ratio"], 2.0, places=6)
        self.assertGreater(double["low"], 1.9)
        self.assertLess(double["high"], 2.1)
        # The direction: b/a is the reciprocal interval.
        back = stats.welch_log_ratio(b, [2 * v for v in b])
        self.assertAlmostEqual(back["low"], 1 / double["high"])

    def test_degenerate(self):
        r = stats.welch_log_ratio([5, 5], [4, 4])
        self.assertEqual((r["ratio"], r["low"], r["high"]), (1.25, 1.25, 1.25))
        with self.assertRaises(ValueError):
            stats.welch_log_ratio([5], [4, 4])


class Power(unittest.TestCase):
    """The gate on simulated repetitions with lognormal noise of 6.5 % per
    run (what the 2-core machine shows): it must keep its false-positive
    rate near 5 % and find large effects (README, "Statistics")."""

    def test_false_positives(self):
        for n in (3, 5):
            rate = stats.simulate_gate(0.0, n, 0.065, trials=1500)
            self.assertGreater(rate, 0.02)
            self.assertLess(rate, 0.08)

    def test_power(self):
        self.assertGreater(stats.simulate_gate(0.20, 5, 0.065, trials=1500), 0.9)
        self.assertGreater(stats.simulate_gate(-0.20, 5, 0.065, trials=1500), 0.9)
        self.assertLess(stats.simulate_gate(0.05, 3, 0.065, trials=1500), 0.2)
        # More repetitions find more (the old min/max gate did the opposite).
        self.assertGreater(stats.simulate_gate(0.10, 5, 0.065, trials=1500),
                           stats.simulate_gate(0.10, 3, 0.065, trials=1500))

    def test_detectable_effect(self):
        se = math.sqrt(2 * 0.065 ** 2 / 5)
        self.assertAlmostEqual(stats.detectable_effect(se, 8),
                               math.exp((2.306 + 0.889) * se) - 1, places=3)
        self.assertEqual(stats.detectable_effect(0.0, 8), 0.0)
        self.assertAlmostEqual(stats.family_confidence(10), 0.995)
        self.assertAlmostEqual(stats.family_confidence(0), 0.95)


class Windows(unittest.TestCase):
    def test_windows(self):
        per_second = list(enumerate([1, 2, 3, 4, 5, 6, 7], 1))
        self.assertEqual(stats.windows(per_second, 2), [3.5, 5.5])   # [1, 2] is warm-up
        self.assertEqual(stats.windows(per_second, 3, skip=0), [2, 5])
        self.assertEqual(stats.windows(reversed(per_second), 2), [3.5, 5.5])  # by time
        self.assertEqual(stats.windows(per_second[:2], 2), [])

    def test_f_distribution(self):
        # With d1 = 2, P(F > f) = (1 + 2 f / d2) ** (-d2 / 2).
        self.assertAlmostEqual(stats.f_sf(3.0, 2, 10), 1.6 ** -5)
        self.assertAlmostEqual(stats.f_sf(4.10, 2, 10), 0.05, places=3)  # F table, 5 %
        self.assertEqual(stats.f_sf(0.0, 3, 9), 1.0)

    def test_repetitions_that_differ_are_not_pooled(self):
        same = [[100, 102, 98, 101], [101, 99, 100, 102], [99, 100, 101, 98]]
        self.assertGreater(stats.repetitions_p(same), stats.POOL_ALPHA)
        self.assertEqual(len(stats.pool_windows(same)), 12)
        shifted = [same[0], [v * 1.08 for v in same[1]], same[2]]
        self.assertLess(stats.repetitions_p(shifted), 0.001)
        self.assertIsNone(stats.pool_windows(shifted))
        self.assertIsNone(stats.pool_windows(same[:1]))               # one repetition
        self.assertIsNone(stats.pool_windows([g[:2] for g in same]))   # two windows each
        self.assertIsNone(stats.pool_windows(same + [[0, 1, 2]]))

    def test_correlated_windows_are_not_pooled(self):
        # The same drift in every repetition: they agree, but each window
        # says little that its neighbour did not.
        drift = [[100, 101, 102, 103, 104, 105]] * 3
        self.assertGreater(stats.repetitions_p(drift), stats.POOL_ALPHA)
        self.assertGreater(stats.window_autocorrelation(drift), 0.2)
        self.assertIsNone(stats.pool_windows(drift))
        wobble = [[100, 102, 99, 101, 98, 100]] * 3
        self.assertLess(stats.window_autocorrelation(wobble), 0.2)
        self.assertEqual(len(stats.pool_windows(wobble)), 18)

    def test_the_pooling_test_keeps_false_positives_down(self):
        # This machine's noise (benchmarks/README.md, "Windows of a point as
        # samples"): 8 % between
        # repetitions, 6 % between 2-s windows, 9 windows per repetition.
        naive = stats.simulate_windows_gate(0.0, 3, 9, 0.08, 0.06, trials=300,
                                            rule=lambda g: [v for x in g for v in x])
        tested = stats.simulate_windows_gate(0.0, 3, 9, 0.08, 0.06, trials=300)
        self.assertGreater(naive, 0.3)
        self.assertLess(tested, 0.08)
        # Where the repetitions agree the windows add power.
        self.assertGreater(stats.simulate_windows_gate(0.05, 3, 9, 0.0, 0.06, trials=300),
                           stats.simulate_windows_gate(0.05, 3, 9, 0.0, 0.06, trials=300,
                                                       rule=lambda g: None))


if __name__ == "__main__":
    unittest.main()
