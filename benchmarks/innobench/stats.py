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


def aa_band(ranges):
    """The noise band of the A/A pairs of one point, from their ratio
    ranges [(low, high)]: [1/m, m] with m the largest deviation from 1 that
    any A/A range reached, in either direction (which of two identical
    servers is the numerator is arbitrary, so the band is symmetric).
    None without an A/A pair."""
    if not ranges:
        return None
    m = max(max(high, 1 / low) for low, high in ranges)
    return 1 / m, m


def no_difference(r, band):
    """The noise gate: an A/B ratio (ratio()) measured no difference when
    its range [low, high] overlaps the A/A band, i.e. when some pairing of
    the repetitions gives a ratio that two identical servers also gave.
    A difference is measured only when the whole range lies outside the
    band: low > band's top or high < band's bottom."""
    return band is not None and r["low"] <= band[1] and r["high"] >= band[0]
