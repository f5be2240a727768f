# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Repetitions, spread and ratios."""
import statistics


def summarize(values):
    """median, min, max and spread (max-min as % of the median) of repetitions."""
    vals = [float(v) for v in values]
    if not vals:
        raise ValueError("no values")
    med = statistics.median(vals)
    return {"n": len(vals), "median": med, "min": min(vals), "max": max(vals),
            "spread_pct": (max(vals) - min(vals)) / med * 100 if med else 0.0}


def ratio(fork, stock):
    """fork/stock of the medians, with the range the repetitions allow
    (worst fork over best stock, best fork over worst stock)."""
    f, s = summarize(fork), summarize(stock)
    if s["median"] == 0 or s["min"] == 0:
        raise ValueError("stock value is zero")
    return {"ratio": f["median"] / s["median"], "low": f["min"] / s["max"],
            "high": f["max"] / s["min"]}
