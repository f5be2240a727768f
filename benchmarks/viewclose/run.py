#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Benchmark (not a test) of innodb_view_close_latch_free: trx_sys_mutex
acquisitions per statement (performance_schema) and sysbench TPS, switch OFF
vs ON, on one running server binary, interleaved in one run.

  benchmarks/viewclose/run.py [--preset release] [--repeats 3] [--time 20]
                              [--threads 16] [--tps-threads 64,256,1024]

It starts its own server (innobench.server, build/bench-viewclose, port 3317)
with the fork's switches and the harness's my.cnf (the InnoDB mutex
instruments must be on at startup: performance_schema does not instrument a
mutex created before its instrument was enabled), sets READ COMMITTED
globally, prepares sysbench tables, and alternates OFF/ON order between
repetitions.  Writes CSV to benchmarks/results/viewclose/ and
prints a markdown table."""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import metrics, optimizer, parse, stats  # noqa: E402
from innobench.server import ROOT, Server, base_cnf, fork_switches  # noqa: E402

MUTEX = metrics.TRX_SYS_MUTEX


def sysbench(server, workload, threads, seconds, cmd="run"):
    args = ["sysbench", workload, "--mysql-socket=" + server.sock, "--mysql-user=root",
            "--mysql-db=sbtest", "--tables=4", "--table-size=10000", "--threads=%d" % threads,
            "--time=%d" % seconds, "--report-interval=0", "--rand-type=uniform", cmd]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("sysbench %s failed:\n%s" % (cmd, r.stdout[-2000:]))
    return r.stdout


def measure(server, workload, threads, seconds, latch_free):
    server.sql("SET GLOBAL innodb_view_close_latch_free = %s" % ("ON" if latch_free else "OFF"))
    server.sql("TRUNCATE TABLE performance_schema.events_waits_summary_global_by_event_name")
    out = parse.sysbench(sysbench(server, workload, threads, seconds))
    acq = int(server.sql("SELECT COUNT_STAR FROM performance_schema."
                         "events_waits_summary_global_by_event_name WHERE EVENT_NAME = '%s'" % MUTEX))
    queries = out["qps"] * out["total_time_s"]
    return {"tps": out["tps"], "qps": out["qps"], "lat_pct_ms": out.get("lat_pct_ms"),
            "acquisitions": acq, "per_statement": acq / queries if queries else 0.0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="release")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--time", type=int, default=20)
    ap.add_argument("--threads", type=int, default=16)
    ap.add_argument("--tps-threads", default="64,256,1024")
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "viewclose"))
    a = ap.parse_args()

    spec = {"name": "fork", "build": ("fork", a.preset), "switches": fork_switches()}
    server = Server(spec, os.path.join(ROOT, "build", "bench-viewclose"), 3317, base_cnf({}))
    if not os.path.isdir(os.path.join(server.datadir, "mysql")):
        server.initialize()
    server.start()
    try:
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        server.sql("SET GLOBAL transaction_isolation = 'READ-COMMITTED'")
        if server.sql("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest'") != "4":
            sysbench(server, "oltp_read_write", 4, 0, "cleanup")  # a half-done prepare
            sysbench(server, "oltp_read_write", 4, 0, "prepare")
        # The harness's my.cnf turns the background recalculation off: the
        # statistics are what this ANALYZE computes (innobench/optimizer.py).
        optimizer.analyze(server)
        version = server.sql("SELECT VERSION()")
        points = [(w, a.threads) for w in ("oltp_read_write", "oltp_read_only")]
        points += [(w, int(t)) for t in a.tps_threads.split(",") for w in ("oltp_read_write", "oltp_read_only")
                   if int(t) != a.threads]
        rows = []
        for rep in range(a.repeats):
            for workload, threads in points:
                order = (False, True) if rep % 2 == 0 else (True, False)
                for latch_free in order:
                    m = measure(server, workload, threads, a.time, latch_free)
                    m.update(rep=rep, workload=workload, threads=threads,
                             switch="ON" if latch_free else "OFF")
                    rows.append(m)
                    print("rep %d %-16s %5d thr %-3s  %9.1f tps  %.3f trx_sys_mutex/statement"
                          % (rep, workload, threads, m["switch"], m["tps"], m["per_statement"]),
                          file=sys.stderr)
    finally:
        server.stop()

    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "viewclose.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["rep", "workload", "threads", "switch", "tps", "qps",
                                          "lat_pct_ms", "acquisitions", "per_statement"])
        w.writeheader()
        w.writerows(rows)
    print("server: %s, READ COMMITTED, %d repetitions of %d s, OFF/ON order alternated"
          % (version, a.repeats, a.time))
    print()
    print("| workload | threads | mutex/stmt OFF | mutex/stmt ON | ON/OFF | TPS OFF (min-max) | TPS ON (min-max) | TPS ON/OFF (range) |")
    print("|---|---|---|---|---|---|---|---|")
    for workload, threads in points:
        sel = lambda s, k: [r[k] for r in rows if r["workload"] == workload and r["threads"] == threads and r["switch"] == s]
        off, on = stats.summarize(sel("OFF", "per_statement")), stats.summarize(sel("ON", "per_statement"))
        toff, ton = stats.summarize(sel("OFF", "tps")), stats.summarize(sel("ON", "tps"))
        r = stats.ratio(sel("ON", "tps"), sel("OFF", "tps"))
        print("| %s | %d | %.3f | %.3f | %.2f | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.3f (%.3f-%.3f) |"
              % (workload, threads, off["median"], on["median"],
                 on["median"] / off["median"] if off["median"] else float("nan"),
                 toff["median"], toff["min"], toff["max"], ton["median"], ton["min"], ton["max"],
                 r["ratio"], r["low"], r["high"]))


if __name__ == "__main__":
    main()
