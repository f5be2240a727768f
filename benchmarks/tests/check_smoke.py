#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Assertions on the results directory of `benchmarks/run --profile smoke`
(called by the test command): every workload measured with a throughput,
latency and CPU figure (per transaction too), the variance fixes recorded,
the correctness checks passed, ANALYZE ran after each prepare, and the CSV,
plots, summary and metadata written."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import main, metrics, optimizer, report, server  # noqa: E402
from innobench.workloads import IO_WORKLOADS  # noqa: E402


def check_statistics(outdir):
    """ANALYZE ran after each prepare, with the harness's settings: every
    table of each smoke data set has statistics, its real row count is what
    the profile loaded, and n_rows is that count within the tolerance (with
    the background recalculation off, an unanalyzed table has n_rows 0)."""
    p = main.PROFILES["smoke"]
    cnf = server.base_cnf({})
    loaded = {"sysbench": {"sbtest.sbtest%d" % i: p["table_size"] for i in range(1, p["tables"] + 1)},
              "split": {"sbtest.split_t": p["split_rows"]},
              "split-io": {"sbtest.split_t": p["io_split_rows"]},
              "sysbench-io": {"sbtest.sbtest%d" % i: p["io_table_size"]
                              for i in range(1, p["io_tables"] + 1)}}
    recs = optimizer.from_csv_rows(report.read_csv(os.path.join(outdir, "tablestats.csv")))
    errors = []
    for name in p["servers"]:
        for dataset, tables in loaded.items():
            rec = recs.get((name, dataset))
            if rec is None:
                errors.append("tablestats.csv has no statistics of %s %s" % (name, dataset))
                continue
            for table, rows in tables.items():
                if rec.get((table, "", "count")) != rows:
                    errors.append("%s %s: %s has %s rows, the profile loads %d"
                                  % (name, dataset, table, rec.get((table, "", "count")), rows))
            errors += ["%s %s: %s" % (name, dataset, m) for m in optimizer.undescribed(rec)]
            for k in ("innodb_stats_auto_recalc", "innodb_stats_persistent_sample_pages"):
                if str(rec.get(("", "", k))) != cnf[k]:
                    errors.append("%s %s: %s=%s, the harness sets %s"
                                  % (name, dataset, k, rec.get(("", "", k)), cnf[k]))
    return errors


def check(outdir):
    errors = []
    rows = report.read_csv(os.path.join(outdir, "results.csv"))
    p = main.PROFILES["smoke"]
    want = {(w, iso, t) for w in ("oltp_point_select", "oltp_read_write")
            for iso in p["isolation"] for t in p["threads"]}
    want |= {("long-report", "RR", p["long_threads"]), ("split-insert", "RR", p["split_threads"])}
    want |= {("split-insert-io", "RR", t) for t in p["io_split_threads"]}
    want |= {("split-insert-io-read", "RR", 2 * p["io_split_threads"][0])}
    want |= {("lob-write", "RR", 2 * p["split_threads"])}
    want |= {(w, iso, t) for w in ("oltp_insert-random-io", "purge-heavy-io", "oltp_write_only-io")
             for iso in p["isolation"] for t in p["threads"]}
    got = {(r["workload"], r["isolation"], int(r["threads"])) for r in rows}
    if got != want:
        errors.append("points measured %s, expected %s" % (sorted(got), sorted(want)))
    for r in rows:
        where = "%s %s %s" % (r["workload"], r["isolation"], r["threads"])
        if not float(r["throughput"] or 0) > 0:
            errors.append("%s: no throughput" % where)
        if not float(r["p95_ms"] or 0) > 0 or not float(r["p99_ms"] or 0) > 0:
            errors.append("%s: P95 %s / P99 %s" % (where, r["p95_ms"], r["p99_ms"]))
        if not float(r["cpu_server"] or 0) > 0 or not float(r["cpu_us_per_txn"] or 0) > 0:
            errors.append("%s: no server CPU (per transaction) measured" % where)
        if r["steal_pct"] == "" or not int(r["warm_pages"] or 0) > 0 or r["settle_s"] == "":
            errors.append("%s: steal, warm-up or settle not recorded" % where)
        if r["workload"] == "oltp_read_write" and not int(r["trx_sys_mutex_count"] or 0) > 0:
            errors.append("%s: no trx_sys_mutex waits counted" % where)
        if r["workload"].startswith("oltp_") and (r["active_rw_ids_mean"] == ""
                                                  or r["throttling_admitted"] == ""):
            errors.append("%s: the fork's active set or throttling counters not recorded" % where)
        if r["workload"] == "split-insert" and not int(r["page_splits"] or 0) > 0:
            errors.append("%s: no page splits" % where)
        if (r["workload"] == "split-insert" and r["server"] == "fork"
                and "leveled_splits:" not in r["blink_counters"]):
            errors.append("%s: the fork's B-link counters show no leveled split (%r)"
                          % (where, r["blink_counters"]))
        if r["workload"] == "split-insert" and not float(r["wall_s"]) >= p["split_time"]:
            errors.append("%s: ran %s s, not the profile's %d s" % (where, r["wall_s"],
                                                                   p["split_time"]))
        if r["workload"] in IO_WORKLOADS:
            errors += check_io_row(r, where)
        if r["deadlocks_per_s"] == "" or r["reconnects_per_s"] == "":
            errors.append("%s: deadlocks or reconnects per second not recorded" % where)
        if r["workload"] == "long-report" and not float(r["report_s"] or 0) > 0:
            errors.append("%s: the report's duration is missing" % where)
    errors += report.checks(rows)
    errors += check_statistics(outdir)
    # Per-second samples of every point: one a second, less the last.
    samples = {}
    for i in report.read_csv(os.path.join(outdir, "intervals.csv")):
        key = (i["workload"], i["isolation"], int(i["threads"]))
        samples[key] = samples.get(key, 0) + (float(i["throughput"]) > 0)
    seconds = {"split-insert": p["split_time"], "split-insert-io": p["split_time"],
               "split-insert-io-read": p["split_time"], "long-report": p["long_time"]}
    for key in sorted(want):
        if samples.get(key, 0) < seconds.get(key[0], p["time"]) - 1:
            errors.append("intervals.csv: %d per-second samples of %s, expected %d"
                          % (samples.get(key, 0), key, seconds.get(key[0], p["time"])))
    # The fork's active transaction set, sampled once a second during every
    # sysbench point (the smoke runs the fork alone, which has the gauges).
    sampled = {(t["workload"], t["isolation"], int(t["threads"]))
               for t in report.read_csv(os.path.join(outdir, "trx_samples.csv"))}
    for key in sorted(want):
        if key[0].startswith("oltp_") and key not in sampled:
            errors.append("trx_samples.csv: no sample of %s" % (key,))
    timeline = report.read_csv(os.path.join(outdir, "timeline.csv"))
    if not any(t["series"] == "hll" for t in timeline):
        errors.append("timeline.csv has no history list length samples")
    for png in ("oltp_point_select-RC.png", "oltp_read_write-RC.png",
                "oltp_read_write-RC-trx.png", "long-report.png"):
        with open(os.path.join(outdir, "plots", png), "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                errors.append("%s is not a PNG" % png)
    summary = open(os.path.join(outdir, "summary.md")).read()
    for needle in ("| oltp_read_write | RC | 2 |", "reproduce: `benchmarks/run --profile smoke",
                   "All checks passed.", "## Split-heavy inserts", "## Long report",
                   "## Optimizer statistics", "## Server CPU per transaction",
                   "## Variance controls", "- same rows: the sysbench data set",
                   "## P95 latency", "## P99 latency", "## Client errors, deadlocks and reconnects",
                   "## Transactions in flight, throttling and trx_sys->mutex",
                   "## I/O-bound points", "| split-insert-io | %d | fork |" % p["io_split_threads"][0],
                   "- data set split-io after ANALYZE: fork ",
                   "- data set sysbench-io after ANALYZE: fork "):
        if needle not in summary:
            errors.append("summary.md lacks %r" % needle)
    errors += check_metadata(outdir)
    return errors


def check_io_row(r, where):
    """An io workload's figures: disk reads, the data file reads' wait,
    iowait, the index lock's wait and the fork's latch hold counters
    recorded (zero is a value); splits where it inserts; the readers'
    latency in split-insert-io-read; splits that held index->lock in SX
    are none on the fork, whose leaf splits are leveled."""
    errors = ["%s: %s not recorded" % (where, f) for f in (
        "disk_reads", "disk_reads_per_txn", "read_wait_us_per_txn", "iowait_pct",
        "index_lock_us_per_txn") + metrics.HOLD_COUNTERS if r[f] == ""]
    if not int(r["page_splits"] or 0) > 0:
        errors.append("%s: no page splits" % where)
    if r["workload"] == "split-insert-io-read" and not float(r["read_p95_ms"] or 0) > 0:
        errors.append("%s: no readers' P95" % where)
    if r["workload"].startswith("split-insert-io") and "leveled_splits:" not in r["blink_counters"]:
        errors.append("%s: no leveled split (%r)" % (where, r["blink_counters"]))
    return errors


def check_metadata(outdir):
    """metadata.json names the fork tree, each server's build and its
    variables (the fork's switches among them), and the machine."""
    import json
    with open(os.path.join(outdir, "metadata.json")) as f:
        data = json.load(f)
    errors = []
    if len(data["fork_tree"]["sha"] or "") != 40:
        errors.append("metadata.json: no git sha of the fork tree")
    for name in main.PROFILES["smoke"]["servers"]:
        srv = data["servers"].get(name, {})
        if "innodb_btree_blink" not in srv.get("variables", {}):
            errors.append("metadata.json: %s's global variables are missing" % name)
        if not srv.get("build", {}).get("CMAKE_BUILD_TYPE"):
            errors.append("metadata.json: %s's build type is missing" % name)
    if not data["system"].get("cpu") or not data["tools"].get("sysbench"):
        errors.append("metadata.json: CPU or sysbench version missing")
    return errors


if __name__ == "__main__":
    try:
        errs = check(sys.argv[1])
    except (OSError, KeyError, ValueError) as e:  # a file missing or malformed
        errs = ["%s: %s" % (type(e).__name__, e)]
    for e in errs:
        print("check_smoke: " + e, file=sys.stderr)
    print("check_smoke: %s" % ("FAILED" if errs else "ok"))
    sys.exit(1 if errs else 0)
