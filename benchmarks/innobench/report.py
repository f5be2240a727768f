# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Results directory: results.csv, intervals.csv, trx_samples.csv,
timeline.csv, tablestats.csv, explain.csv, plots/*.png, summary.md;
sweep.md."""
import csv
import os
import platform
import re

from . import metrics, optimizer, stats
from .numa import parse_size
from .server import aa_pairs
from .workloads import IO_WORKLOADS

FIELDS = ["rep", "order", "server", "workload", "dataset", "isolation", "threads", "throughput",
          "unit", "qps", "lat_avg_ms", "p95_ms", "p99_ms", "errors_per_s", "errors",
          "reconnects_per_s", "deadlocks_per_s", "transactions", "writes", "server_cpus", "wall_s",
          "handler_reads_per_txn", "page_reads_per_txn",
          "cpu_server", "cpu_clients", "cpu_us_per_txn", "steal_pct", "steal_limit_pct",
          "steal_high",
          # The io workloads' figures (every point records them): pages read
          # from disk, the data file reads and their wait, iowait, the index
          # lock's wait per transaction, the readers' own latency
          # (split-insert-io-read), the fork's latch hold times (mtr0hold.h).
          "disk_reads", "disk_reads_per_txn", "data_reads", "data_read_ms",
          "read_wait_us_per_txn", "iowait_pct", "index_lock_us_per_txn",
          "read_qps", "read_p95_ms", "read_p99_ms"] + list(metrics.HOLD_COUNTERS) + [
          "trx_sys_mutex_count", "trx_sys_mutex_ms", "trx_sys_mutex_per_txn",
          "trx_sys_mutex_us_per_txn",
          "index_lock_count", "index_lock_ms", "top_waits", "top_waits_background",
          # The fork's active transaction set and throttling (empty on stock):
          # gauges sampled once a second (trx_samples.csv), counters' deltas.
          "active_rw_ids_mean", "active_rw_ids_max", "throttling_waiting_mean",
          "throttling_waiting_max"] + list(metrics.THROTTLING_COUNTERS) + [
          "report_s", "hll_max",
          "page_splits", "page_merge_attempts", "page_merges", "page_discards",
          "splits_per_insert", "check", "blink_counters",
          # --index-pages: on a group's last point, after purge settled.
          "leaf_pages_after", "index_pages_after", "leaf_pages_walked_after",
          # and what purge did after the point, until it settled:
          "settle_after_s", "page_merges_after", "page_discards_after",
          # What the variance fixes waited for (variance.py), per group:
          "pending_mb", "writeback_s", "writeback", "warm_s", "warm_pages",
          # and per point:
          "settle_s", "settle", "hll_start", "ckpt_age_mb"]
TABLE_STATS_FIELDS = ["server", "dataset", "table", "index", "stat", "value"]
PLAN_FIELDS = ["server", "dataset", "transaction", "statement"] + list(optimizer.EXPLAIN_COLUMNS)


def _write_dicts(path, fields, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def write_csv(path, rows):
    _write_dicts(path, FIELDS, rows)


def write_table_stats(path, table_stats):
    """tablestats.csv: every recorded statistic of every server and data set."""
    _write_dicts(path, TABLE_STATS_FIELDS, optimizer.to_csv_rows(table_stats))


def write_plans(path, plans):
    """explain.csv: every EXPLAIN step of every server and data set."""
    _write_dicts(path, PLAN_FIELDS, [dict(step, server=server, dataset=dataset)
                                     for (server, dataset), steps in plans.items()
                                     for step in steps])


POINT_KEY_FIELDS = ["server", "workload", "isolation", "threads", "rep"]
INTERVAL_FIELDS = POINT_KEY_FIELDS + ["t_s", "throughput", "lat_ms", "errors_per_s"]


def _write_samples(path, fields, rows, key):
    """One CSV row per sample in each point's rows[key], after the point's
    key fields."""
    _write_dicts(path, fields, [
        dict(zip(fields, [r[k] for k in POINT_KEY_FIELDS] + list(sample)))
        for r in rows for sample in r.get(key) or ()])


def write_intervals(path, rows):
    """intervals.csv: every point's per-second samples (sysbench
    --report-interval=1: tps, its percentile latency, errors/s; go-tpc
    --interval 1s: tpmC, NEW_ORDER P95, errors/s)."""
    _write_samples(path, INTERVAL_FIELDS, rows, "intervals")


TRX_SAMPLE_FIELDS = POINT_KEY_FIELDS + ["t_s"] + list(metrics.TRX_GAUGES)


def write_trx_samples(path, rows):
    """trx_samples.csv: every point's once-a-second samples of the fork's
    gauges (metrics.TRX_GAUGES), t_s from the client's start; none for a
    server without them (stock)."""
    _write_samples(path, TRX_SAMPLE_FIELDS, rows, "trx_samples")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def write_timeline(path, timelines):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["server", "rep", "series", "t_s", "value"])
        for tl in timelines:
            for series in ("tps", "hll"):
                for t, v in tl[series]:
                    w.writerow([tl["server"], tl["rep"], series, "%.1f" % t, v])
            for k, v in sorted(tl["report"].items()):
                w.writerow([tl["server"], tl["rep"], "report_" + k, "", v])


def points(rows):
    """{(workload, isolation, threads): {server: [row, ...]}} in first-seen order."""
    out = {}
    for r in rows:
        key = (r["workload"], r["isolation"], int(r["threads"]))
        out.setdefault(key, {}).setdefault(r["server"], []).append(r)
    return out


def _vals(rows, field):
    return [float(r[field]) for r in rows if r.get(field) not in (None, "")]


# How metrics.steal_limit_pct() judges a point, for the summary's texts.
STEAL_RULE = "%.0f %% plus %.1f %% per 1,000 data file reads a second" % (
    metrics.STEAL_LIMIT_PCT, metrics.STEAL_PCT_PER_KREAD_S)


def _steal_high(rows):
    return any(str(r.get("steal_high")) == "1" for r in rows)


# Client errors (sysbench's ignored errors, go-tpc's) above this share of
# the transactions make a repetition unusable for a ratio.
ERROR_SHARE_LIMIT = 0.01


def excluded(row):
    """Why a repetition must not enter a ratio, or None: its correctness
    check failed, its settle or write-back timed out, the machine's steal
    time was flagged, or its clients saw errors above ERROR_SHARE_LIMIT of
    its transactions."""
    if row.get("check") not in (None, "", "ok"):
        return "check %s" % row["check"]
    for wait in ("settle", "writeback"):
        if row.get(wait) == "timeout":
            return "%s timed out" % wait
    if str(row.get("steal_high")) == "1":
        return "steal %s %%" % row.get("steal_pct")
    errors, tps = row.get("errors_per_s"), row.get("throughput")
    if errors not in (None, "") and tps not in (None, ""):
        # TPC-C's throughput is NEW_ORDER per minute, its errors per second.
        tps = float(tps) / (60.0 if row.get("unit") == "tpmC" else 1.0)
        if float(errors) > ERROR_SHARE_LIMIT * max(tps, 1e-9):
            return "%.1f errors/s at %.0f transactions/s" % (float(errors), tps)
    return None


def excluded_lines(rows):
    """One line per repetition left out of the ratios, with the reason."""
    reasons = ((r, excluded(r)) for r in rows)
    return ["- %s %s %s %s threads rep %s: %s" % (r["server"], r["workload"], r["isolation"],
                                                  r["threads"], r["rep"], why)
            for r, why in reasons if why]


# Digits and unit of each field a summary table can compare (the
# throughput's unit is the workload's: tps or tpmC).
TABLE_FIELDS = {"throughput": (0, None), "cpu_us_per_txn": (1, "us"),
                "p95_ms": (2, "ms"), "p99_ms": (2, "ms")}


def summary_table(rows, servers, baseline="stock", refused=None, field="throughput"):
    """Markdown lines: per point, each server's median of field
    (TABLE_FIELDS: throughput, with P95; cpu_us_per_txn, p95_ms or p99_ms)
    with its spread, and its
    ratio to the baseline: the ratio of geometric means with a Welch
    interval on log values (stats.welch_log_ratio), each interval at the
    Bonferroni confidence of all the table's A/B ratios
    (stats.family_confidence).  A ratio is bold only when its interval
    excludes 1; otherwise "no difference measured" with the smallest effect
    the point could have detected (stats.detectable_effect).  A/A twins
    (server.aa_pairs) print their own ratio as the noise; at a point where
    an A/A interval excludes 1 the run cannot tell noise from effect and
    the A/B ratios are not compared.  No ratio for a server and data set in
    refused ({(dataset, server): reasons}, optimizer.problems).  One
    repetition gives no interval: the ratio of the values, not bold.
    Repetitions that excluded() rejects enter neither the medians nor the
    ratios; the server's cell says how many were left out, a dagger if one
    had too much steal time."""
    refused = refused or {}
    pairs = aa_pairs(servers)
    throughput = field == "throughput"
    others = [s for s in servers if s != baseline] if baseline in servers else []
    pts = points(rows)
    conf = stats.family_confidence(len(pts) * sum((baseline, s) not in pairs for s in others))
    head = ["workload", "iso", "threads"]
    for s in servers:
        head += ["%s (spread)" % s] + (["%s P95 ms" % s] if throughput else [])
    head += ["%s/%s%s (%s %% CI)" % (s, baseline, " A/A" if (baseline, s) in pairs else "",
                                     _pct(conf)) for s in others]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (workload, iso, threads), by_server in pts.items():
        first = next(iter(by_server.values()))[0]
        digits, unit = TABLE_FIELDS[field]
        unit, dataset = unit or first["unit"], first.get("dataset")
        kept = {s: [r for r in by_server.get(s, []) if not excluded(r)] for s in servers}
        vals = {s: _vals(kept[s], field) for s in servers}
        cells = [workload, iso, str(threads)]
        for s in servers:
            left_out = len(by_server.get(s, [])) - len(kept[s])
            note = (" †" if _steal_high(by_server.get(s, [])) else "") + \
                (" (%d left out)" % left_out if left_out else "")
            if vals[s]:
                m = stats.summarize(vals[s])
                cells.append("%.*f %s (%.0f%%, n=%d)%s" % (
                    digits, m["median"], unit, m["spread_pct"], m["n"], note))
            else:
                cells.append("-" + note)
            if throughput:
                p95 = _vals(kept[s], "p95_ms")
                cells.append("%.2f" % stats.summarize(p95)["median"] if p95 else "-")

        # Throughput: each repetition's windows (stats.pool_windows), where
        # every server's repetitions at the point allow it, so that the A/A
        # check and the A/B ratios have the same precision (a pooled A/B
        # ratio beside an A/A ratio from repetitions once printed a
        # difference where the twins differed as much).
        pooled = {s: throughput and stats.pool_windows(
            [stats.windows([x[:2] for x in r.get("intervals") or ()]) for r in kept[s]])
            for s in servers}
        if not all(pooled[s] for s in servers if kept[s]):
            pooled = dict.fromkeys(servers)

        def interval(a, b):
            if pooled[a] and pooled[b]:
                r = stats.welch_log_ratio(pooled[a], pooled[b], conf)
                r["ci"] = "%.3f-%.3f, %d+%d windows" % (r["low"], r["high"], len(pooled[a]),
                                                        len(pooled[b]))
                return r
            if len(vals[a]) < 2 or len(vals[b]) < 2 or min(vals[a] + vals[b]) <= 0:
                return None
            r = stats.welch_log_ratio(vals[a], vals[b], conf)
            r["ci"] = "%.3f-%.3f" % (r["low"], r["high"])
            return r

        aa_differs = any(r and (r["low"] > 1 or r["high"] < 1)
                         for r in (interval(t, o) for o, t in pairs))
        for s in others:
            r = interval(s, baseline)
            if (dataset, s) in refused or (dataset, baseline) in refused:
                cells.append("**not compared** (statistics or plans differ)")
            elif r is None:
                one = vals[s] and vals[baseline] and min(vals[baseline]) > 0
                cells.append("%.3f (one repetition: no interval)"
                             % (stats.summarize(vals[s])["median"]
                                / stats.summarize(vals[baseline])["median"]) if one else "-")
            elif (baseline, s) in pairs:  # the noise itself, not a result
                cells.append("%.3f (%s)" % (r["ratio"], r["ci"]))
            elif aa_differs:
                cells.append("not compared: the A/A twins differ here (%.3f, %s)"
                             % (r["ratio"], r["ci"]))
            elif r["low"] > 1 or r["high"] < 1:
                cells.append("**%.3f** (%s)" % (r["ratio"], r["ci"]))
            else:
                cells.append("no difference measured (%s; could detect %.0f %%)" % (
                    r["ci"], 100 * stats.detectable_effect(r["se"], r["df"], conf)))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _pct(confidence):
    """95, 99.5, 99.72: the confidence in per cent, without trailing zeros."""
    return ("%.2f" % (100 * confidence)).rstrip("0").rstrip(".")


def checks(rows):
    """Lines for every failed correctness check (go-tpc check, CHECK TABLE)."""
    bad = [r for r in rows if r.get("check") not in (None, "", "ok")]
    return ["- %s %s rep %s: %s" % (r["server"], r["workload"], r["rep"], r["check"]) for r in bad]


# CPU parts of ARM server cores, by implementer and part number as
# /proc/cpuinfo gives them (the "CPU implementer" and "CPU part" lines).
ARM_PARTS = {
    ("0x41", "0xd0c"): "Arm Neoverse N1 (Graviton2, Ampere Altra)",
    ("0x41", "0xd40"): "Arm Neoverse V1 (Graviton3)",
    ("0x41", "0xd49"): "Arm Neoverse N2",
    ("0x41", "0xd4f"): "Arm Neoverse V2 (Graviton4, Grace)",
    ("0x41", "0xd8e"): "Arm Neoverse N3",
    ("0x48", "0xd01"): "HiSilicon Kunpeng 920",
    ("0xc0", "0xac3"): "AmpereOne",
}


def cpu_name(cpuinfo):
    """The CPU's name from /proc/cpuinfo text: the model name on x86, the
    decoded part on ARM (which has no model name line)."""
    m = re.search(r"^model name\s*:\s*(.+)$", cpuinfo, re.M)
    if m:
        return m.group(1).strip()
    imp = re.search(r"^CPU implementer\s*:\s*(\S+)", cpuinfo, re.M)
    part = re.search(r"^CPU part\s*:\s*(\S+)", cpuinfo, re.M)
    if imp and part:
        key = (imp.group(1).lower(), part.group(1).lower())
        return ARM_PARTS.get(key, "ARM implementer %s part %s" % key)
    return platform.processor() or platform.machine()


def machine():
    """CPU (cpu_name()), cores, NUMA nodes, kernel and memory of this machine."""
    try:
        with open("/proc/cpuinfo") as f:
            cpuinfo = f.read()
    except OSError:
        cpuinfo = ""
    nodes = [d for d in os.listdir("/sys/devices/system/node") if d.startswith("node")] \
        if os.path.isdir("/sys/devices/system/node") else []
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": cpu_name(cpuinfo), "arch": platform.machine(),
            "cores": os.cpu_count(), "numa_nodes": len(nodes) or 1,
            "kernel": platform.release(), "memory_gib": round(mem, 1)}


def _plot_median(ax, pts, server, field):
    """One server's median of field against threads, bars from min to max."""
    xs = [t for t, bs in pts if _vals(bs.get(server, []), field)]
    ms = [stats.summarize(_vals(bs[server], field)) for t, bs in pts if t in xs]
    if xs:
        ax.errorbar(xs, [m["median"] for m in ms],
                    yerr=[[m["median"] - m["min"] for m in ms], [m["max"] - m["median"] for m in ms]],
                    marker="o", capsize=3, label=server)


def trx_series(rows, servers):
    """What plots/<workload>-<iso>-trx.png draws: {(workload, iso): [(threads,
    [(server, rep, t, active_rw_ids, throttling_waiting)])]}, per point the
    repetitions of every server that sampled the fork's gauges (None where
    a gauge is missing), in the ladder's and the servers' order; points and
    groups with no samples left out (stock alone: no plot)."""
    out = {}
    rw, waiting = (1 + metrics.TRX_GAUGES.index(g) for g in ("active_rw_ids", "throttling_waiting"))
    for (workload, iso, threads), by_server in points(rows).items():
        lines = []
        for s in servers:
            for r in by_server.get(s, []):
                samples = r.get("trx_samples") or ()
                if samples:
                    lines.append((s, r["rep"], [x[0] for x in samples], [x[rw] for x in samples],
                                  [x[waiting] for x in samples]))
        if lines:
            out.setdefault((workload, iso), []).append((threads, lines))
    return out


def _plot_trx(plt, outdir, rows, servers):
    """plots/<workload>-<iso>-trx.png (trx_series): one column per thread
    count, the active read-write set on top and the transactions queued
    for a throttling slot below, against seconds since the client started;
    one colour per server, one line per repetition."""
    colors = {s: "C%d" % (i % 10) for i, s in enumerate(servers)}
    made = []
    for (workload, iso), pts in trx_series(rows, servers).items():
        fig, axes = plt.subplots(2, len(pts), figsize=(4 * len(pts) + 1, 6), sharex="col",
                                 squeeze=False)
        for col, (threads, lines) in enumerate(pts):
            labelled = set()
            for server, rep, ts, rw, waiting in lines:
                for ax, ys in ((axes[0][col], rw), (axes[1][col], waiting)):
                    ax.plot(ts, [float("nan") if y is None else y for y in ys],
                            color=colors[server], alpha=0.8,
                            label=None if server in labelled else server)
                labelled.add(server)
            axes[0][col].set_title("%d threads" % threads)
            axes[1][col].set_xlabel("seconds")
            axes[0][col].legend(fontsize=7)
            for ax in (axes[0][col], axes[1][col]):
                ax.grid(True, alpha=0.3)
        axes[0][0].set_ylabel("active read-write transactions")
        axes[1][0].set_ylabel("queued for a throttling slot")
        fig.suptitle("%s, %s: the fork's active transaction set, once a second"
                     " (one line per repetition)" % (workload, iso))
        name = "%s-%s-trx.png" % (workload, iso)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "plots", name), dpi=90)
        plt.close(fig)
        made.append(name)
    return made


def plot(outdir, rows, timelines, servers):
    """plots/<workload>-<iso>.png (throughput, P95 and server CPU per
    transaction against threads, one line per server),
    plots/<workload>-<iso>-trx.png (the fork's active transaction set over
    each point, _plot_trx) and plots/long-report.png.  Returns the file
    names."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(os.path.join(outdir, "plots"), exist_ok=True)
    made = []
    groups = {}
    for (workload, iso, threads), by_server in points(rows).items():
        groups.setdefault((workload, iso), []).append((threads, by_server))
    for (workload, iso), pts in groups.items():
        fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(16, 4))
        unit = next(iter(pts[0][1].values()))[0]["unit"]
        for s in servers:
            for ax, field in ((ax1, "throughput"), (ax2, "p95_ms"), (ax3, "cpu_us_per_txn")):
                _plot_median(ax, pts, s, field)
        for ax, ylabel in ((ax1, unit), (ax2, "P95 latency (ms)"),
                           (ax3, "server CPU per transaction (us)")):
            if len(pts) > 1:
                ax.set_xscale("log", base=2)
            ax.set_xlabel("threads")
            ax.set_ylabel(ylabel)
            ax.grid(True, alpha=0.3)
            ax.legend()
        fig.suptitle("%s, %s (median of repetitions, bars: min-max)" % (workload, iso))
        name = "%s-%s.png" % (workload, iso)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "plots", name), dpi=90)
        plt.close(fig)
        made.append(name)
    made += _plot_trx(plt, outdir, rows, servers)
    if timelines:
        fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
        for tl in timelines:
            label = "%s r%d" % (tl["server"], tl["rep"])
            line, = ax1.plot([t for t, _ in tl["tps"]], [v for _, v in tl["tps"]], label=label)
            ax2.plot([t for t, _ in tl["hll"]], [v for _, v in tl["hll"]], label=label,
                     color=line.get_color())
            rep = tl["report"]
            if "started" in rep:
                for ax in (ax1, ax2):
                    ax.axvspan(rep["started"], rep["started"] + rep["seconds"],
                               color=line.get_color(), alpha=0.12)
        ax1.set_ylabel("update TPS")
        ax2.set_ylabel("history list length")
        ax2.set_xlabel("seconds (shaded: the report's scan)")
        for ax in (ax1, ax2):
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=8)
        fig.suptitle("long report under hot-row updates")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, "plots", "long-report.png"), dpi=90)
        plt.close(fig)
        made.append("long-report.png")
    return made


def long_report_lines(timelines):
    lines = ["| server | rep | report scan (s) | history length max | update TPS median |",
             "|---|---|---|---|---|"]
    for tl in timelines:
        tps = [v for _, v in tl["tps"]]
        hll = [v for _, v in tl["hll"]]
        lines.append("| %s | %d | %s | %s | %s |" % (
            tl["server"], tl["rep"],
            "%.2f" % tl["report"]["seconds"] if "seconds" in tl["report"] else "-",
            max(hll) if hll else "-", "%.0f" % stats.summarize(tps)["median"] if tps else "-"))
    return lines


def _table_cell(rec, table):
    """n_rows / COUNT(*) and pages (clustered + secondary) of one table."""
    if rec is None:
        return "-"
    n_rows, count, clustered, other = (rec.get((table, "", k), "-") for k in (
        "n_rows", "count", "clustered_index_size", "sum_of_other_index_sizes"))
    pages = clustered + other if isinstance(clustered, int) and isinstance(other, int) else "-"
    return "%s / %s rows, %s pages" % (n_rows, count, pages)


def statistics_lines(table_stats, plans, servers, baseline="stock"):
    """The summary's statistics section: how they were made, the tolerance,
    per data set and table each server's n_rows against the real row count,
    and as errors every server not compared (statistics or plans differ
    from the reference server's) and every table whose statistics do not
    describe its rows."""
    if not table_stats:
        return []
    ref = optimizer.reference(servers, baseline)
    rel_rows, rel_pages, slack = (optimizer.ROW_TOLERANCE[0] * 100, optimizer.PAGE_TOLERANCE[0] * 100,
                                  optimizer.PAGE_TOLERANCE[1])
    lines = ["", "## Optimizer statistics", "",
             "After each prepare, before the copy was saved, ANALYZE TABLE read every leaf page of"
             " every index of every table (settings below); nothing recalculated them afterwards."
             " Servers are compared only if their statistics agree with %s's: row statistics"
             " (n_rows, n_diff_pfx*, COUNT(*)) within %.0f %%, page counts (size, n_leaf_pages,"
             " clustered_index_size, sum_of_other_index_sizes) within %.0f %% or %d pages, settings"
             " and table options equal; and their EXPLAIN plans match. Every value per index:"
             " `tablestats.csv`; the plans: `explain.csv`." % (ref, rel_rows, rel_pages, slack), ""]
    datasets = list(dict.fromkeys(d for _, d in table_stats))
    head = ["data set", "table"] + servers
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for d in datasets:
        recs = {s: table_stats.get((s, d)) for s in servers}
        tables = sorted({t for r in recs.values() if r for t, _, st in r if st == "count"})
        for t in tables:
            lines.append("| %s | %s | %s |" % (d, t, " | ".join(_table_cell(recs[s], t) for s in servers)))
    server, rec = next(((s, r) for (s, _), r in table_stats.items() if s == ref),
                       next((s, r) for (s, _), r in table_stats.items()))
    lines += ["", "Settings (%s): %s." % (server, ", ".join(
        "%s=%s" % (k[2], v) for k, v in sorted(rec.items()) if k[0] == ""))]
    for (server, dataset), steps in plans.items():
        if server == ref:
            lines.append("EXPLAIN of %d %s statements after ANALYZE (explain.csv)." % (
                len(optimizer.plan_shapes(steps)), dataset))
    refused = optimizer.problems(table_stats, plans, servers, baseline)
    for (dataset, server), msgs in refused.items():
        lines += ["", "**Error: %s is not compared with %s on %s** (no ratio):" % (server, ref, dataset),
                  ""] + ["- " + m for m in msgs]
    for (server, dataset), rec in table_stats.items():
        bad = optimizer.undescribed(rec)
        if bad:
            lines += ["", "**Error: %s's statistics of %s do not describe the data**"
                      " (ANALYZE did not run, or sampled):" % (server, dataset), ""]
            lines += ["- " + m for m in bad]
    if len(servers) > 1 and not refused:
        lines += ["", "Statistics and plans agree between all servers."]
    return lines


def reads_lines(rows, servers, workload="tpcc"):
    """Per point and server the median handler reads (Handler_read_*) and
    page reads (buffer pool read requests) per transaction: a plan
    difference shows up here, not only in the throughput."""
    head = ["iso", "threads"]
    for s in servers:
        head += ["%s handler reads/txn" % s, "%s page reads/txn" % s]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (w, iso, threads), by_server in points(rows).items():
        if w != workload:
            continue
        cells = [iso, str(threads)]
        for s in servers:
            for field in ("handler_reads_per_txn", "page_reads_per_txn"):
                v = _vals(by_server.get(s, []), field)
                cells.append("%.0f" % stats.summarize(v)["median"] if v else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


ERROR_FIELDS = ("errors_per_s", "deadlocks_per_s", "reconnects_per_s")


def errors_lines(rows, servers):
    """Per point with any, each server's client errors (sysbench's ignored
    errors, go-tpc's NEW_ORDER errors), InnoDB deadlocks (lock_deadlocks)
    and client reconnects per second in its worst repetition, every
    repetition counted (also those left out of the ratios)."""
    head = ["workload", "iso", "threads"] + [
        "%s errors / deadlocks / reconnects per s (worst repetition)" % s for s in servers]
    out = []
    for (workload, iso, threads), by_server in points(rows).items():
        cells, seen = [workload, iso, str(threads)], False
        for s in servers:
            worst = []
            for f in ERROR_FIELDS:
                v = _vals(by_server.get(s, []), f)
                worst.append(max(v) if v else None)
                seen = seen or bool(v and max(v) > 0)
            cells.append(" / ".join("-" if m is None else "%.2f" % m for m in worst))
        if seen:
            out.append("| " + " | ".join(cells) + " |")
    if not out:
        return ["No client errors, deadlocks or reconnects at any point."]
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + out


def throttling_per_repetition(row):
    """(requests that queued for a slot per slot granted, a queued
    request's mean wait in ms) from one repetition's throttling counters;
    None for either without its denominator (nothing admitted, nothing
    queued, stock).  A request that timed out queued but was not admitted:
    the share can exceed 1 when most do."""
    admitted, waits, wait_us = (None if row.get(f) in (None, "") else float(row[f])
                                for f in ("throttling_admitted", "throttling_waits",
                                          "throttling_wait_time_us"))
    share = waits / admitted if admitted and waits is not None else None
    mean_ms = wait_us / waits / 1e3 if waits and wait_us is not None else None
    return share, mean_ms


def _median_cell(values, fmt):
    return fmt % stats.summarize(values)["median"] if values else "-"


def _gauge_cell(rows, gauge):
    """'median of the repetitions' means / largest max' of a gauge."""
    means, maxes = _vals(rows, gauge + "_mean"), _vals(rows, gauge + "_max")
    return "%.1f / %.0f" % (stats.summarize(means)["median"], max(maxes)) if means else "-"


TRX_HEAD = ["workload", "iso", "threads", "server", "active rw ids mean / max",
            "queued for a slot mean / max", "waits / admitted", "wait ms per wait",
            "throttling timeouts", "trx_sys_mutex per txn", "trx_sys_mutex us per txn"]


def trx_lines(rows, servers):
    """Per point and server with any such number, every repetition counted
    (also those left out of the ratios): the fork's active read-write set
    and its queue for a throttling slot (median of the repetitions' means /
    largest sample), waits per admission and a queued request's mean wait
    (throttling_per_repetition, medians), the
    throttling timeouts (all repetitions together), trx_sys->mutex
    acquisitions and wait per transaction (medians).  [] if no row has any."""
    out = []
    for (workload, iso, threads), by_server in points(rows).items():
        for s in servers:
            mine = by_server.get(s, [])
            per_rep = [throttling_per_repetition(r) for r in mine]
            timeouts = _vals(mine, "throttling_timeouts")
            cells = [_gauge_cell(mine, "active_rw_ids"), _gauge_cell(mine, "throttling_waiting"),
                     _median_cell([100 * a for a, _ in per_rep if a is not None], "%.1f %%"),
                     _median_cell([b for _, b in per_rep if b is not None], "%.2f"),
                     "%.0f" % sum(timeouts) if timeouts else "-",
                     _median_cell(_vals(mine, "trx_sys_mutex_per_txn"), "%.2f"),
                     _median_cell(_vals(mine, "trx_sys_mutex_us_per_txn"), "%.2f")]
            if any(c != "-" for c in cells):
                out.append("| %s | %s | %d | %s | %s |" % (workload, iso, threads, s,
                                                          " | ".join(cells)))
    if not out:
        return []
    return ["| " + " | ".join(TRX_HEAD) + " |", "|" + "---|" * len(TRX_HEAD)] + out


def sweep_lines(runs, servers, baseline="stock"):
    """The --server-cpu-sweep table: per point and server the median
    throughput at each mysqld CPU count, and per other server its ratio to
    the baseline with the summary's interval and gate (Bonferroni over
    every A/B ratio of the table; A/A twins print their ratio as the noise,
    never bold, and where one excludes 1 the point's A/B ratios at that
    count are not compared)."""
    labels = []
    for count, rows in runs:
        got = {str(r.get("server_cpus")) for r in rows if r.get("server_cpus") not in (None, "")}
        labels.append("%s CPU%s" % (count, "" if count == 1 else "s") if got == {str(count)}
                      else "%s (%s CPUs)" % (count, "/".join(sorted(got)) or "?"))
    pts = {}
    for i, (_, rows) in enumerate(runs):
        for key, by_server in points(rows).items():
            pts.setdefault(key, [dict() for _ in runs])[i] = by_server
    others = [s for s in servers if s != baseline] if baseline in servers else []
    pairs = aa_pairs(servers)
    conf = stats.family_confidence(
        len(pts) * len(runs) * sum((baseline, s) not in pairs for s in others))
    head = ["workload", "iso", "threads", "server"] + labels
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (workload, iso, threads), per_run in pts.items():
        vals = [{s: _vals([r for r in by.get(s, []) if not excluded(r)], "throughput")
                 for s in servers} for by in per_run]
        for s in servers:
            lines.append("| %s | %s | %d | %s | %s |" % (workload, iso, threads, s, " | ".join(
                "%.0f" % stats.summarize(v[s])["median"] if v[s] else "-" for v in vals)))
        def interval(v, a, b):
            if len(v[a]) < 2 or len(v[b]) < 2 or min(v[a] + v[b]) <= 0:
                return None
            return stats.welch_log_ratio(v[a], v[b], conf)

        def differs(r):
            return r is not None and (r["low"] > 1 or r["high"] < 1)

        aa_differs = [any(differs(interval(v, t, o)) for o, t in pairs) for v in vals]
        for s in others:
            cells = []
            for v, twins_differ in zip(vals, aa_differs):
                r = interval(v, s, baseline)
                if r is None:
                    cells.append("-")
                    continue
                text = "%.3f (%.3f-%.3f)" % (r["ratio"], r["low"], r["high"])
                if (baseline, s) in pairs:
                    cells.append(text)
                elif twins_differ:
                    cells.append("not compared: A/A differs (%s)" % text)
                else:
                    cells.append("**%s**" % text if differs(r) else text)
            lines.append("| %s | %s | %d | %s/%s (%s %% CI) | %s |" % (
                workload, iso, threads, s, baseline, _pct(conf), " | ".join(cells)))
    return lines


def write_sweep(path, runs, servers, command):
    """sweep.md: the sweep's table (sweep_lines); each count's own run is
    in cpus-<count>/."""
    base = optimizer.reference(servers) if servers else "stock"
    lines = ["# mysqld CPU sweep", "", "- reproduce: `%s`" % command,
             "- each column is a complete run in `cpus-<count>/` (its summary.md, results.csv,"
             " metadata.json); throughput is the median over repetitions, a ratio bold only"
             " when its interval excludes 1", ""] + sweep_lines(runs, servers, base)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines


IO_HEAD = ["workload", "threads", "server", "tps", "P95 ms", "P99 ms", "readers' P95 / P99 ms",
           "splits/txn", "disk reads/txn", "disk reads/split", "read wait us/txn", "iowait %",
           "steal %",
           "index lock wait us/txn", "CPU us/txn", "SX hold us/split", "X hold us/split",
           "tablespace X hold us/split"]


def _per_split(rows, field, scale=1.0):
    """Each repetition's field / page_splits (x scale)."""
    vals = [float(r[field]) * scale / float(r["page_splits"]) for r in rows
            if r.get(field) not in (None, "") and float(r.get("page_splits") or 0) > 0]
    return vals


def io_lines(rows, servers):
    """The io workloads' table (benchmarks/doc/blink/README.md, "Tables
    larger than the buffer pool"): per point and server the medians over
    repetitions of throughput, latency (the readers' own in
    split-insert-io-read), splits and disk reads per transaction, disk reads
    per split, the wait for data file reads, iowait and steal (here the
    hypervisor's share of this VM's disk I/O), the index lock's wait, CPU per
    transaction, and the fork's hold times of the latches that serialise
    splits, per split (mtr0hold.h; - on stock)."""
    lines = ["| " + " | ".join(IO_HEAD) + " |", "|" + "---|" * len(IO_HEAD)]
    for (w, iso, threads), by_server in points(rows).items():
        if w not in IO_WORKLOADS:
            continue
        for s in servers:
            mine = by_server.get(s, [])
            if not mine:
                continue
            med = lambda field, fmt="%.1f": _median_cell(_vals(mine, field), fmt)
            splits = [float(r["page_splits"]) / float(r["transactions"]) for r in mine
                      if r.get("page_splits") not in (None, "") and float(r["transactions"] or 0)]
            readers = "%s / %s" % (med("read_p95_ms", "%.2f"), med("read_p99_ms", "%.2f")) \
                if _vals(mine, "read_p95_ms") else "-"
            lines.append("| " + " | ".join([
                w, str(threads), s, med("throughput", "%.0f"), med("p95_ms", "%.2f"),
                med("p99_ms", "%.2f"), readers, _median_cell(splits, "%.3f"),
                med("disk_reads_per_txn", "%.2f"),
                _median_cell(_per_split(mine, "disk_reads"), "%.2f"),
                med("read_wait_us_per_txn", "%.0f"), med("iowait_pct"), med("steal_pct"),
                med("index_lock_us_per_txn", "%.1f"), med("cpu_us_per_txn", "%.0f")] + [
                _median_cell(_per_split(mine, latch + "_hold_ns", 1e-3), "%.1f")
                for latch in metrics.HOLD_LATCHES]) + " |")
    return lines


def data_set_lines(info):
    """Each data set's size per server, and its ratio to the buffer pool."""
    sizes = info.get("data_mb") or {}
    if not sizes:
        return []
    pool_mb = parse_size(info["buffer_pool"]) / 1048576 if info.get("buffer_pool") else None
    out = []
    for ds in dict.fromkeys(d for _, d in sizes):
        mb = [v for (s, d), v in sizes.items() if d == ds]
        cells = ", ".join("%s %.0f MB" % (s, v) for (s, d), v in sizes.items() if d == ds)
        ratio = " (%.1f to %.1f times the %s buffer pool)" % (
            min(mb) / pool_mb, max(mb) / pool_mb, info["buffer_pool"]) if pool_mb else ""
        out.append("- data set %s after ANALYZE: %s%s" % (ds, cells, ratio))
    return out


def _median_max(values, fmt="%.1f"):
    return (fmt + " / " + fmt) % (stats.summarize(values)["median"], max(values)) if values else "-"


def variance_lines(rows, servers, fixes, listed=20):
    """The summary's variance section: which fixes were on (variance.py)
    and, per data set and server, what they waited for, the buffer pool
    pages after the warm-up (the same on every server if the warm-up is),
    and every point with too much steal time."""
    lines = ["", "## Variance controls", "",
             "Fixes on (`--variance-fixes`): %s. Writeback and warm-up once per group (after the"
             " restore, before and after the start), settle before every point; values are"
             " median / max. Steal: the machine's steal time during the point, as %% of all CPU"
             " time; above its limit, %s, a point is marked † (`steal_high` in results.csv)."
             % (", ".join(fixes) or "none", STEAL_RULE), "",
             "| data set | server | groups | writeback s | pages after warm-up | warm-up s"
             " | settle s | timeouts | history at start (max) | checkpoint age MB (max) | steal % |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for dataset in dict.fromkeys(r.get("dataset") for r in rows):
        for s in servers:
            mine = [r for r in rows if r["server"] == s and r.get("dataset") == dataset]
            if not mine:
                continue
            groups = list({(r["rep"], r["workload"], r["isolation"]): r for r in mine}.values())
            pages = _vals(groups, "warm_pages")
            timeouts = (sum(r.get("writeback") == "timeout" for r in groups)
                        + sum(r.get("settle") == "timeout" for r in mine))
            lines.append("| %s | %s | %d | %s | %s | %s | %s | %d | %s | %s | %s |" % (
                dataset, s, len(groups), _median_max(_vals(groups, "writeback_s")),
                "%.0f-%.0f" % (min(pages), max(pages)) if pages else "-",
                _median_max(_vals(groups, "warm_s")), _median_max(_vals(mine, "settle_s")), timeouts,
                "%.0f" % max(_vals(mine, "hll_start")) if _vals(mine, "hll_start") else "-",
                "%.1f" % max(_vals(mine, "ckpt_age_mb")) if _vals(mine, "ckpt_age_mb") else "-",
                _median_max(_vals(mine, "steal_pct"))))
    stolen = ["- %s %s %s %s threads rep %s: steal %.1f %%%s" % (
        r["server"], r["workload"], r["isolation"], r["threads"], r["rep"], float(r["steal_pct"]),
        " (limit %s %%)" % r["steal_limit_pct"] if r.get("steal_limit_pct") not in (None, "") else "")
        for r in rows if _steal_high([r])]
    if stolen:
        lines += ["", "Points with steal time above their limit:", ""]
        lines += stolen[:listed] + (["- ... and %d more" % (len(stolen) - listed)]
                                    if len(stolen) > listed else [])
    return lines


def write_summary(outdir, rows, timelines, servers, info, table_stats=None, plans=None):
    """summary.md: machine, pinning, command, versions, the ratio table,
    the optimizer statistics, the long report, splits, TPC-C reads and the
    correctness checks."""
    table_stats, plans = table_stats or {}, plans or {}
    m = info["machine"]
    lines = ["# Benchmark summary: %s profile" % info["profile"], "",
             "- machine: %s (%s), %d cores, %d NUMA node(s), kernel %s, %.0f GiB"
             % (m["cpu"], m["arch"], m["cores"], m["numa_nodes"], m["kernel"], m["memory_gib"]),
             "- pinning: %s" % info["pinning"]]
    lines += ["- **warning**: %s" % w for w in info.get("warnings", [])]
    lines += ["- servers: " + ", ".join("%s = %s" % (s, info["versions"].get(s, "?"))
                                        for s in servers),
              "- repetitions: %d, server order alternated between repetitions; %s"
              % (info["repeats"], info["durations"]),
              "- reproduce: `%s`" % info["command"],
              "- metadata: `metadata.json` (the fork tree's git sha and state, the pinned"
              " upstream source, each server's build flags, compiler and global variables,"
              " tool versions, kernel, CPU, governor, SMT, THP)"]
    if info.get("interrupted"):
        lines.append("- **interrupted** (Ctrl-C): partial results")
    if info.get("error"):
        lines.append("- **stopped by an error**: %s (partial results)" % info["error"])
    lines += data_set_lines(info)
    if info.get("exported"):
        lines.append("- same rows: " + ", ".join(
            "the %s data set of %s's prepare, loaded into every server" % kv
            for kv in sorted(info["exported"].items())))
    refused = optimizer.problems(table_stats, plans, servers)
    lines += ["", "Each server's value is the median over repetitions; spread = (max-min)/median."
              " A ratio is the ratio of the geometric means over the repetitions with a Welch"
              " interval on log values; each table's intervals are Bonferroni-corrected so that"
              " all of them hold together at 95 %. A ratio is bold only when its interval"
              " excludes 1, else *no difference measured* with the smallest effect the point"
              " could detect (80 % power); see benchmarks/README.md, *Intervals on log values*."]
    if aa_pairs(servers):
        lines += ["A/A pairs (one server twice): %s. Their ratios are the noise; where an A/A"
                  " interval excludes 1 the A/B ratios of that point are not compared."
                  % ", ".join("%s/%s" % (t, a) for a, t in aa_pairs(servers))]
    else:
        lines += ["No A/A pair ran (`--servers stock,stock,...`): the intervals alone decide."]
    # The ratios' baseline is the optimizer check's reference: stock if it
    # ran, else the first server (fork,fork: fork-2/fork).
    base = optimizer.reference(servers) if servers else "stock"
    lines += [""] + summary_table(rows, servers, base, refused)
    if any(r.get("cpu_us_per_txn") not in (None, "") for r in rows):
        lines += ["", "## Server CPU per transaction", "",
                  "mysqld's user+system CPU time (/proc/<pid>/stat) during the point divided by"
                  " its transactions (TPC-C: all five types), in microseconds; lower is better.",
                  ""] + summary_table(rows, servers, base, refused, "cpu_us_per_txn")
    for field, title, source in (
            ("p95_ms", "P95 latency", "sysbench: from its latency histogram; TPC-C: NEW_ORDER's"),
            ("p99_ms", "P99 latency", "the same sources")):
        if any(r.get(field) not in (None, "") for r in rows):
            lines += ["", "## " + title, "",
                      "Each repetition's %s in milliseconds (%s), with the same intervals and gate"
                      " as the throughput; lower is better." % (title, source),
                      ""] + summary_table(rows, servers, base, refused, field)
    lines += ["", "## Client errors, deadlocks and reconnects", ""] + errors_lines(rows, servers)
    trx = trx_lines(rows, servers)
    if trx:
        lines += ["", "## Transactions in flight, throttling and trx_sys->mutex", "",
                  "The fork's `Innodb_trx_active_rw_ids` (the read-write set every read view"
                  " copies) and `Innodb_trx_throttling_waiting`, sampled once a second during"
                  " each point (`trx_samples.csv`; mean and max without the first and last"
                  " sample): median of the repetitions' means / largest sample. From the"
                  " `Innodb_trx_throttling_*` counters over the point: requests that queued for"
                  " a slot per slot granted and a queued request's mean wait (medians), the"
                  " timeouts (error 1637: sysbench restarted the transaction and counted an"
                  " error) of all repetitions. trx_sys->mutex: acquisitions and their wait"
                  " (performance_schema) per transaction, medians. Every repetition counted;"
                  " `-`: the server has no such variable (stock) or nothing to divide by.",
                  ""] + trx
    if any(_steal_high([r]) for r in rows):
        lines += ["", "† steal time above its limit (%s) in at least one repetition"
                  " (Variance controls)." % STEAL_RULE]
    lines += variance_lines(rows, servers, info.get("fixes", []))
    lines += statistics_lines(table_stats, plans, servers)
    splits = [r for r in rows if r["workload"].startswith("split-insert")]
    if splits:
        lines += ["", "## Split-heavy inserts", "",
                  "| workload | server | rep | inserts | page splits | splits/insert | P99 ms"
                  " | check | B-link counters |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for r in splits:
            lines.append("| %s | %s | %s | %s | %s | %.2f | %s | %s | %s |" % (
                r["workload"], r["server"], r["rep"], r.get("writes") or r["transactions"],
                r["page_splits"],
                float(r["splits_per_insert"]), r["p99_ms"], r["check"],
                r.get("blink_counters") or ""))
    if any(r["workload"] in IO_WORKLOADS for r in rows):
        lines += ["", "## I/O-bound points", "",
                  "Medians over repetitions. Disk reads: `Innodb_buffer_pool_reads`; read wait:"
                  " performance_schema's wait on the InnoDB data files' reads (every thread);"
                  " iowait: /proc/stat, % of all CPU time; index lock wait: performance_schema's"
                  " `index_tree_rw_lock`; hold us/split: the fork's `Innodb_index_lock_sx_hold_ns`,"
                  " `Innodb_index_lock_x_hold_ns` and `Innodb_tablespace_latch_x_hold_ns` over"
                  " `index_page_splits` (stock has no such counter: fork-no-btree-blink runs"
                  " stock's code path with them). split-insert-io-read: per insert, the readers'"
                  " CPU and reads included; its threads are the writers and the readers.",
                  ""] + io_lines(rows, servers)
    if timelines:
        lines += ["", "## Long report", ""] + long_report_lines(timelines)
    tpcc = [r for r in rows if r["workload"] == "tpcc"]
    if tpcc:
        lines += ["", "go-tpc check after every TPC-C run: %d of %d passed."
                  % (sum(r["check"] == "ok" for r in tpcc), len(tpcc))]
        lines += ["", "TPC-C reads per transaction (all five types), median over repetitions:",
                  ""] + reads_lines(rows, servers)
    left_out = excluded_lines(rows)
    if left_out:
        lines += ["", "## Repetitions left out of the ratios", ""] + left_out
    bad = checks(rows) + optimizer.failures(table_stats, plans, servers)
    lines += ["", "## Correctness checks", ""] + (bad or ["All checks passed."])
    if info.get("plots"):
        lines += ["", "## Plots", ""] + ["![%s](plots/%s)" % (p, p) for p in info["plots"]]
    with open(os.path.join(outdir, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return lines
