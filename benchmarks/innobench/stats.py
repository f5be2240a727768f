# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Repetitions, spread, ratios and their intervals."""
import math
import random
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


# --- Intervals (issue "Benchmark harness: statistics that detect a 5 %
# effect").  Repetitions are samples; a ratio of two servers is the ratio of
# their geometric means, with a Welch interval on log values: throughput
# noise is multiplicative (a slow repetition is slower by a factor), logs
# make it additive and the ratio's interval symmetric in either direction.
# Welch, not a pooled t-test, because two servers need not be equally noisy.


def _betacf(a, b, x):
    """Continued fraction of the regularized incomplete beta function
    (modified Lentz's method)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for aa in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                   -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + aa * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + aa / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-14:
            break
    return h


def _betainc(a, b, x):
    """Regularized incomplete beta I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """Student's t distribution function, df > 0 (not necessarily whole)."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p, df):
    """The t with t_cdf(t, df) == p, 0 < p < 1 (bisection)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be in (0, 1)")
    lo, hi = -1.0, 1.0
    while t_cdf(lo, df) > p:
        lo *= 2.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2.0


def welch_log_ratio(a, b, confidence=0.95):
    """a/b as the ratio of geometric means of the repetitions, with a Welch
    interval on log values at `confidence` (two-sided).  Needs two or more
    positive values on each side.  Returns ratio, low, high, se (of the
    log ratio) and df (Welch-Satterthwaite)."""
    la = [math.log(float(v)) for v in a]
    lb = [math.log(float(v)) for v in b]
    if len(la) < 2 or len(lb) < 2:
        raise ValueError("an interval needs two repetitions on each side")
    va, vb = statistics.variance(la) / len(la), statistics.variance(lb) / len(lb)
    d = statistics.fmean(la) - statistics.fmean(lb)
    se = math.sqrt(va + vb)
    if se == 0.0:
        return {"ratio": math.exp(d), "low": math.exp(d), "high": math.exp(d),
                "se": 0.0, "df": math.inf}
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))
    q = t_quantile(0.5 + confidence / 2.0, df)
    return {"ratio": math.exp(d), "low": math.exp(d - q * se),
            "high": math.exp(d + q * se), "se": se, "df": df}


def family_confidence(n_ratios, family=0.95):
    """Bonferroni: the confidence of each of n_ratios intervals such that
    all of them hold together with probability `family` at least."""
    return 1.0 - (1.0 - family) / max(1, n_ratios)


def detectable_effect(se, df, confidence=0.95, power=0.8):
    """The smallest relative effect (0.05 = 5 %) an interval of this
    standard error and df excludes 1 for with probability `power`:
    exp((t_(1-alpha/2) + t_power) * se) - 1."""
    if se == 0.0:
        return 0.0
    return math.exp((t_quantile(0.5 + confidence / 2.0, df) + t_quantile(power, df)) * se) - 1.0


def simulate_gate(effect, n, sigma, trials=4000, confidence=0.95, seed=1):
    """How often the Welch interval of n repetitions per server, with
    lognormal noise of sigma (0.065 = 6.5 %) per run, excludes 1 in the
    effect's direction (effect 0: in either direction, the false-positive
    rate)."""
    rng = random.Random(seed)
    hits = 0
    for _ in range(trials):
        a = [math.exp(math.log1p(effect) + rng.gauss(0.0, sigma)) for _ in range(n)]
        b = [math.exp(rng.gauss(0.0, sigma)) for _ in range(n)]
        hits += _found(welch_log_ratio(a, b, confidence), effect)
    return hits / trials


def _found(r, effect):
    """Whether an interval excludes 1 in the effect's direction (either
    direction for effect 0: a false positive)."""
    if effect > 0:
        return r["low"] > 1.0
    if effect < 0:
        return r["high"] < 1.0
    return r["low"] > 1.0 or r["high"] < 1.0


# --- Windows of a point as samples.  Repetitions alone leave an interval
# with few degrees of freedom: on this machine no number of whole
# repetitions that fits a session finds 5 %.  A point's per-second samples,
# averaged over fixed windows (the first dropped as warm-up), are samples
# too, but only when the repetitions do not differ more than their windows
# do: a restart, a restore or a warm-up that shifts a whole repetition is
# noise the windows of one repetition cannot show.  One-way analysis of
# variance of the log window means with repetitions as groups decides
# (pool_windows); where it refuses, the repetitions are the samples.

WINDOW_S = 2      # seconds per window: see benchmarks/README.md, "Windows of a point as samples"
POOL_ALPHA = 0.25  # pool only if the repetitions' F test gives p above this
MAX_WINDOW_AUTOCORRELATION = 0.2  # and consecutive windows correlate less


def windows(samples, seconds=WINDOW_S, skip=1):
    """Means of consecutive `seconds`-long windows of per-second values
    [(t, value)], in time order; the first `skip` windows (warm-up) and an
    incomplete last one dropped."""
    vals = [float(v) for _, v in sorted(samples)]
    means = [statistics.fmean(vals[i:i + seconds])
             for i in range(0, len(vals) - seconds + 1, seconds)]
    return means[skip:]


def f_sf(f, d1, d2):
    """P(F > f) for Fisher's F distribution with d1, d2 degrees of freedom."""
    if f <= 0:
        return 1.0
    return _betainc(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f))


def repetitions_p(groups):
    """One-way ANOVA of log values, repetitions as groups: the p value of
    "the repetitions' means differ no more than their windows predict"."""
    logs = [[math.log(v) for v in g] for g in groups]
    n, k = sum(len(g) for g in logs), len(logs)
    grand = statistics.fmean([v for g in logs for v in g])
    between = sum(len(g) * (statistics.fmean(g) - grand) ** 2 for g in logs) / (k - 1)
    within = sum((v - statistics.fmean(g)) ** 2 for g in logs for v in g) / (n - k)
    if within == 0.0:
        return 1.0 if between == 0.0 else 0.0
    return f_sf(between / within, k - 1, n - k)


def window_autocorrelation(groups):
    """Lag-1 autocorrelation of the log window means, within repetitions,
    pooled over them (0 when it cannot be estimated)."""
    num = den = 0.0
    for g in groups:
        logs = [math.log(v) for v in g]
        mean = statistics.fmean(logs)
        num += sum((x - mean) * (y - mean) for x, y in zip(logs, logs[1:]))
        den += sum((x - mean) ** 2 for x in logs)
    return num / den if den else 0.0


def pool_windows(groups, min_windows=3, alpha=POOL_ALPHA):
    """The windows of every repetition as one sample, or None when they
    may not be: fewer than two repetitions, a repetition with fewer than
    min_windows windows or a value <= 0, repetitions that differ (p <=
    alpha; a pooling test keeps alpha well above 0.05, Bancroft's rule,
    so that a real difference between repetitions is rarely pooled away),
    or consecutive windows that correlate (above
    MAX_WINDOW_AUTOCORRELATION: correlated samples count as more than they
    are, and the interval would be too narrow)."""
    if len(groups) < 2 or min(len(g) for g in groups) < min_windows:
        return None
    if min(v for g in groups for v in g) <= 0:
        return None
    if repetitions_p(groups) <= alpha:
        return None
    if window_autocorrelation(groups) > MAX_WINDOW_AUTOCORRELATION:
        return None
    return [v for g in groups for v in g]


def simulate_windows_gate(effect, n, m, sigma_rep, sigma_window, trials=2000,
                          confidence=0.95, seed=1, rule=pool_windows):
    """simulate_gate() for windows: each repetition shifted by lognormal
    noise sigma_rep, each of its m windows by sigma_window; the interval
    from the pooled windows where rule() allows (pool_windows; the naive
    rule pools always), else from the repetitions' mean logs.  Returns the
    share of trials whose interval excludes 1 in the effect's direction
    (either, for effect 0)."""
    rng = random.Random(seed)

    def server(shift):
        groups = []
        for _ in range(n):
            rep = shift + rng.gauss(0.0, sigma_rep)
            groups.append([math.exp(rep + rng.gauss(0.0, sigma_window)) for _ in range(m)])
        return groups

    hits = 0
    for _ in range(trials):
        a, b = server(math.log1p(effect)), server(0.0)
        pa, pb = rule(a), rule(b)
        if pa is None or pb is None:
            pa = [math.exp(statistics.fmean(math.log(v) for v in g)) for g in a]
            pb = [math.exp(statistics.fmean(math.log(v) for v in g)) for g in b]
        hits += _found(welch_log_ratio(pa, pb, confidence), effect)
    return hits / trials
