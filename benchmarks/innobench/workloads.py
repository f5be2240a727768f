# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The workloads: sysbench OLTP, TPC-C (go-tpc), the long report and the
split-heavy inserts.  Each has a data set (prepared once per server, saved,
and restored before each measured group) and groups of points; a group runs
on a freshly restored, restarted and warmed-up server."""
import os
import subprocess
import threading
import time

from . import metrics, parse
from .server import BUILD, ROOT

BENCH = os.path.join(ROOT, "benchmarks")
GO_TPC = os.path.join(BUILD, "tools", "go-tpc")
ISOLATION = {"RC": "READ-COMMITTED", "RR": "REPEATABLE-READ"}


class Context:
    """What a workload needs from the run: parameters, the client pinning
    prefix, where raw logs go, and where result rows go."""

    def __init__(self, p, client_prefix, rawdir, log):
        self.p, self.client_prefix, self.rawdir, self.log = p, list(client_prefix), rawdir, log
        self.rows, self.timelines = [], []

    def run(self, server, argv, logname, timeout=None):
        """Run a client command pinned to the client CPUs; keep its output."""
        path = os.path.join(self.rawdir, server.name, logname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        r = subprocess.run(self.client_prefix + argv, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=timeout)
        with open(path, "w") as f:
            f.write("$ %s\n%s" % (" ".join(argv), r.stdout))
        if r.returncode != 0:
            raise RuntimeError("%s: %s failed (exit %d), see %s"
                               % (server.name, os.path.basename(argv[0]), r.returncode, path))
        return r.stdout


def sysbench_argv(server, script, p, threads, seconds, *extra, command="run"):
    return ["sysbench", script, "--mysql-socket=" + server.sock, "--mysql-user=root",
            "--mysql-db=sbtest", "--tables=%d" % p["tables"], "--table-size=%d" % p["table_size"],
            "--threads=%d" % threads, "--time=%d" % seconds, "--histogram=on",
            "--percentile=95", "--db-ps-mode=auto"] + list(extra) + [command]


def measure(ctx, server, argv, logname, parser):
    """One point: latch waits reset, CPU metered, client run, output parsed."""
    metrics.reset_waits(server)
    cpu = metrics.CpuMeter(server.pid)
    out = ctx.run(server, argv, logname)
    row = parser(out)
    row.update(cpu.stop())
    row.update(metrics.read_waits(server))
    return row


def sysbench_row(out):
    r = parse.sysbench(out)
    hist = parse.sysbench_histogram(out)
    return {"throughput": r["tps"], "unit": "tps", "qps": r.get("qps"),
            "lat_avg_ms": r.get("lat_avg_ms"), "p95_ms": parse.percentile(hist, 95),
            "p99_ms": parse.percentile(hist, 99), "errors_per_s": r.get("errors_per_s", 0.0),
            "transactions": r["transactions"]}


class Sysbench:
    """sysbench 1.0 OLTP workloads at each isolation level over a thread ladder."""
    dataset = "sysbench"

    def __init__(self, script):
        self.name = script

    def prepare(self, server, ctx):
        p = ctx.p
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        ctx.run(server, sysbench_argv(server, "oltp_read_write", p, min(p["tables"], 4), 0,
                                      command="prepare"), "prepare-sysbench.log")

    def groups(self, p):
        return [{"isolation": iso} for iso in p["isolation"]]

    def run_group(self, server, ctx, group, rep):
        p, iso = ctx.p, group["isolation"]
        server.sql("SET GLOBAL transaction_isolation = '%s'" % ISOLATION[iso])
        if p["warmup"]:
            ctx.run(server, sysbench_argv(server, self.name, p, max(p["threads"]), p["warmup"]),
                    "%s-%s-warmup-r%d.log" % (self.name, iso, rep))
        for threads in p["threads"]:
            ctx.log("  %-10s %-18s %s %5d threads" % (server.name, self.name, iso, threads))
            row = measure(ctx, server, sysbench_argv(server, self.name, p, threads, p["time"]),
                          "%s-%s-%d-r%d.log" % (self.name, iso, threads, rep), sysbench_row)
            row.update(workload=self.name, isolation=iso, threads=threads)
            yield row


class Tpcc:
    """TPC-C with go-tpc: prepare once, then run and check at each point."""
    name = "tpcc"
    dataset = "tpcc"

    def argv(self, server, p, *args):
        return [GO_TPC, "tpcc", "-H", "127.0.0.1", "-P", str(server.port), "-U", "root",
                "-D", "tpcc", "--warehouses", str(p["warehouses"])] + list(args)

    def prepare(self, server, ctx):
        if not os.access(GO_TPC, os.X_OK):
            raise RuntimeError("no %s: run benchmarks/tools/build-go-tpc.sh" % GO_TPC)
        server.sql("CREATE DATABASE IF NOT EXISTS tpcc")
        ctx.run(server, self.argv(server, ctx.p, "prepare", "--no-check",
                                  "-T", str(min(4, ctx.p["warehouses"]))), "prepare-tpcc.log")
        # go-tpc's consistency condition 3.3.2.10 sums each customer's
        # history rows, but go-tpc indexes history on h_c_w_id alone: every
        # customer scans its whole warehouse's history, 30,000 x 30,000 rows
        # per warehouse (over 10 minutes per check on one core).  This index
        # makes the check a lookup.  Every server gets it, Payment maintains
        # it (an extra secondary index insert per history row).
        server.sql("ALTER TABLE tpcc.history ADD INDEX idx_h_customer (h_c_w_id, h_c_d_id, h_c_id)")
        verdict = self.check(server, ctx, "prepare-tpcc-check.log")
        if verdict != "ok":
            raise RuntimeError("%s: go-tpc check after prepare: %s" % (server.name, verdict))

    def check(self, server, ctx, logname):
        """go-tpc's consistency checks: 'ok' or 'FAILED: ...'."""
        return parse.gotpc_check(ctx.run(server, self.argv(server, ctx.p, "check", "-T", "1"), logname))

    def groups(self, p):
        return [{"isolation": iso} for iso in p["isolation"]]

    def run_group(self, server, ctx, group, rep):
        p, iso = ctx.p, group["isolation"]
        server.sql("SET GLOBAL transaction_isolation = '%s'" % ISOLATION[iso])
        for threads in p["tpcc_threads"]:
            ctx.log("  %-10s %-18s %s %5d threads" % (server.name, "tpcc", iso, threads))
            row = measure(ctx, server,
                          # Without --ignore-error a worker stops at its first
                          # deadlock and the run goes on with fewer threads.
                          self.argv(server, p, "run", "-T", str(threads), "--time",
                                    "%ds" % p["tpcc_time"], "--ignore-error", "--silence"),
                          "tpcc-%s-%d-r%d.log" % (iso, threads, rep), tpcc_row)
            check = self.check(server, ctx, "tpcc-check-%s-%d-r%d.log" % (iso, threads, rep))
            row.update(workload="tpcc", isolation=iso, threads=threads)
            if row.get("check") is None:
                row["check"] = check
            yield row


def tpcc_row(out):
    try:
        r = parse.gotpc(out)
    except ValueError:  # no NEW_ORDER completed: a result, not a crash
        return {"throughput": 0.0, "unit": "tpmC", "check": "FAILED: no NEW_ORDER completed"}
    new_order = r["ops"].get("NEW_ORDER", {})
    errors = r["ops"].get("NEW_ORDER_ERR", {}).get("count") or 0
    return {"throughput": r["tpmC"], "unit": "tpmC", "lat_avg_ms": new_order.get("avg_ms"),
            "p95_ms": new_order.get("p95_ms"), "p99_ms": new_order.get("p99_ms"),
            "transactions": new_order.get("count"),
            "errors_per_s": errors / new_order["takes_s"] if new_order.get("takes_s") else None}


class LongReport:
    """Hot-row updates (pareto) while one connection holds a consistent
    snapshot and then scans the whole table: per-second TPS, the report's
    duration and the history list length over time."""
    name = "long-report"
    dataset = "sysbench"
    prepare = Sysbench.prepare

    def groups(self, p):
        return [{"isolation": "RR"}]

    def run_group(self, server, ctx, group, rep):
        p = ctx.p
        server.sql("SET GLOBAL transaction_isolation = 'REPEATABLE-READ'")
        hll = metrics.Sampler(lambda: metrics.history_length(server))
        hll.start()
        report = {}
        threads = p["long_threads"]

        def run_report():
            time.sleep(p["long_delay"])
            t0 = time.monotonic() - hll.t0
            out = server.sql(
                "START TRANSACTION WITH CONSISTENT SNAPSHOT; DO SLEEP(%d);"
                " SET @t = NOW(6); SELECT AVG(k) FROM sbtest.sbtest1;"
                " SELECT TIMESTAMPDIFF(MICROSECOND, @t, NOW(6)) / 1e6; COMMIT"
                % p["long_hold"])
            avg, seconds = out.split("\n")[-2:]
            report.update(opened=t0, started=t0 + p["long_hold"],
                          seconds=float(seconds), avg_k=float(avg))

        ctx.log("  %-10s %-18s RR %5d threads, report after %d s"
                % (server.name, self.name, threads, p["long_delay"]))
        reporter = threading.Thread(target=run_report, daemon=True)
        reporter.start()
        started = time.monotonic() - hll.t0  # sysbench's clock starts here
        try:
            row = measure(ctx, server,
                          sysbench_argv(server, "oltp_update_non_index", p, threads, p["long_time"],
                                        "--rand-type=pareto", "--report-interval=1"),
                          "long-report-%d-r%d.log" % (threads, rep), sysbench_row)
            reporter.join()
        finally:
            samples = hll.stop()
        out = open(os.path.join(ctx.rawdir, server.name, "long-report-%d-r%d.log"
                                % (threads, rep))).read()
        intervals = parse.sysbench(out)["intervals"]
        ctx.timelines.append({"server": server.name, "rep": rep, "report": report,
                              "tps": [(started + i["t"], i["tps"]) for i in intervals],
                              "hll": samples})
        row.update(workload=self.name, isolation="RR", threads=threads,
                   report_s=report.get("seconds"), hll_max=max((v for _, v in samples), default=None))
        if "seconds" not in report:
            row["check"] = "FAILED: the report did not finish, see the error log"

        yield row


class SplitInserts:
    """Inserts between nearly full leaf pages from many threads: nearly every
    insert splits a leaf.  Checks the table and the row count afterwards."""
    name = "split-insert"
    dataset = "split"
    script = os.path.join(BENCH, "workloads", "split_insert.lua")

    def argv(self, server, p, threads, seconds, *extra, command="run"):
        return ["sysbench", self.script, "--mysql-socket=" + server.sock, "--mysql-user=root",
                "--mysql-db=sbtest", "--rows=%d" % p["split_rows"], "--threads=%d" % threads,
                "--time=%d" % seconds, "--histogram=on"] + list(extra) + [command]

    def prepare(self, server, ctx):
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        ctx.run(server, self.argv(server, ctx.p, 1, 0, command="prepare"), "prepare-split.log")

    def groups(self, p):
        return [{"isolation": "RR"}]

    def run_group(self, server, ctx, group, rep):
        p = ctx.p
        threads = p["split_threads"]
        ctx.log("  %-10s %-18s RR %5d threads" % (server.name, self.name, threads))
        splits0 = split_count(server)
        # About one insert per leaf page (~6 rows of 2.5 KB per 16 KB page),
        # so that nearly every insert lands on a full page.
        inserts = p["split_rows"] // 8
        row = measure(ctx, server, self.argv(server, p, threads, p["split_time"],
                                             "--events=%d" % inserts),
                      "split-%d-r%d.log" % (threads, rep), sysbench_row)
        splits = split_count(server) - splits0
        check = server.rows("CHECK TABLE sbtest.split_t")[-1]
        count = int(server.sql("SELECT COUNT(*) FROM sbtest.split_t"))
        expected = p["split_rows"] + row["transactions"]
        row.update(workload=self.name, isolation="RR", threads=threads, page_splits=splits,
                   splits_per_insert=splits / row["transactions"] if row["transactions"] else 0,
                   check="ok" if check[-1] == "OK" and count == expected else
                   "FAILED: CHECK TABLE %s, %d rows, expected %d" % (check[-1], count, expected))
        yield row


def split_count(server):
    return int(server.sql("SELECT COUNT FROM information_schema.INNODB_METRICS"
                          " WHERE NAME = 'index_page_splits'") or 0)


SYSBENCH_SCRIPTS = ("oltp_read_write", "oltp_read_only", "oltp_point_select", "oltp_update_index")


def make(names):
    out = []
    for n in names:
        if n == "sysbench":
            out += [Sysbench(s) for s in SYSBENCH_SCRIPTS]
        elif n in SYSBENCH_SCRIPTS:
            out.append(Sysbench(n))
        elif n == "tpcc":
            out.append(Tpcc())
        elif n == "long-report":
            out.append(LongReport())
        elif n == "split-insert":
            out.append(SplitInserts())
        else:
            raise ValueError("unknown workload %r: sysbench, %s, tpcc, long-report, split-insert"
                             % (n, ", ".join(SYSBENCH_SCRIPTS)))
    return out
