# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The workloads: sysbench OLTP, TPC-C (go-tpc), the long report and the
split-heavy inserts.  Each has a data set (prepared once per server,
ANALYZEd, saved, and restored before each measured group) and groups of
points; a group runs on a freshly restored, restarted and warmed-up server."""
import os
import subprocess
import threading
import time

from . import metrics, optimizer, parse, variance
from .server import BUILD, ROOT

BENCH = os.path.join(ROOT, "benchmarks")
GO_TPC = os.path.join(BUILD, "tools", "go-tpc")
ISOLATION = {"RC": "READ-COMMITTED", "RR": "REPEATABLE-READ"}


class Context:
    """What a workload needs from the run: parameters, the client pinning
    prefix, where raw logs go, and where result rows go.  table_stats and
    plans hold, per (server, data set), what optimizer.record and
    optimizer.explain found after the prepare.  fixes: the variance fixes
    on (variance.FIXES).  file_dir: the servers' secure_file_priv, where
    the first server's rows of a data set are exported to (exported: the
    data sets already there, with the server they came from)."""

    def __init__(self, p, client_prefix, rawdir, log, fixes=(), file_dir=None):
        self.p, self.client_prefix, self.rawdir, self.log = p, list(client_prefix), rawdir, log
        self.rows, self.timelines = [], []
        self.table_stats, self.plans = {}, {}
        self.fixes, self.file_dir, self.exported = set(fixes), file_dir, {}
        self.data_mb = {}  # (server, data set) -> MB of its tables, after ANALYZE

    def settle(self, server):
        """Before a point: wait for purge and the checkpoint (variance.settle)."""
        return variance.settle(server) if "settle" in self.fixes else {}

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


# sysbench 1.0's own --mysql-ignore-errors (drv_mysql.c): deadlock, record
# changed, lock wait timeout.  Giving the option replaces the list, so the
# harness always gives it whole: a run would otherwise stop at its first
# deadlock.
SYSBENCH_IGNORED_ERRORS = ("1213", "1020", "1205")
# ER_TOO_MANY_CONCURRENT_TRXS: the fork's innodb_trx_throttling_timeout
# expired before a slot was free.  Nothing was started; sysbench restarts
# the transaction and counts an ignored error (results.csv errors; the
# server's throttling_timeouts says how many were this one).  On stock it
# means the undo slots ran out, counted the same way.
THROTTLING_TIMEOUT = "1637"


def ignored_errors(extra):
    """extra with a single --mysql-ignore-errors: sysbench's defaults,
    1637 and the codes extra lists (oltp_insert-random's 1062), each once;
    'all' if extra asks for all."""
    codes, rest = list(SYSBENCH_IGNORED_ERRORS) + [THROTTLING_TIMEOUT], []
    for x in extra:
        if x.startswith("--mysql-ignore-errors="):
            codes += [c.strip() for c in x.split("=", 1)[1].split(",") if c.strip()]
        else:
            rest.append(x)
    return rest + ["--mysql-ignore-errors=" + ("all" if "all" in codes
                                              else ",".join(dict.fromkeys(codes)))]


def sysbench_argv(server, script, p, threads, seconds, *extra, command="run"):
    """A sysbench command; a run ignores the errors of ignored_errors()
    (a prepare stops at any error: its rows must all be there)."""
    extra = ignored_errors(extra) if command == "run" else list(extra)
    return ["sysbench", script, "--mysql-socket=" + server.sock, "--mysql-user=root",
            "--mysql-db=sbtest", "--tables=%d" % p["tables"], "--table-size=%d" % p["table_size"],
            "--threads=%d" % threads, "--time=%d" % seconds, "--histogram=on",
            "--percentile=95", "--db-ps-mode=auto", "--report-interval=1"] + extra + [command]


def measure(ctx, server, argv, logname, parser, settled=None):
    """One point: the server settled (unless the caller did, settled is
    what it waited), latch waits reset, CPU metered, the fork's active
    transaction set and throttling queue sampled once a second (the same
    query on every server: stock answers nothing), client run, output
    parsed, reads, server CPU and trx_sys->mutex per transaction (of every
    type, where the parser counts them), deadlocks per second, the
    throttling counters' deltas, page splits and merges (metrics.INDEX_METRICS), disk
    reads and their wait, the fork's latch hold times, the steal time
    against its limit (metrics.steal_limit_pct())."""
    settled = ctx.settle(server) if settled is None else settled
    metrics.reset_waits(server)
    reads = metrics.read_counters(server)
    deadlocks = metrics.deadlocks(server)
    blink = metrics.blink_counters(server)
    holds = metrics.hold_counters(server)
    index_counts = metrics.index_metrics(server)
    trx = metrics.trx_status(server)
    sampler = metrics.Sampler(lambda: metrics.trx_gauges(metrics.trx_status(server)))
    sampler.start()
    cpu = metrics.CpuMeter(server.pid)
    try:
        out = ctx.run(server, argv, logname)
        used = cpu.stop()  # before the sampler's last query is waited for
    finally:
        samples = sampler.stop()
    row = parser(out)
    row.update(used, **settled)
    transactions = row.get("all_transactions", row.get("transactions"))
    row["cpu_us_per_txn"] = metrics.cpu_us_per_txn(row["server_cpu_s"], transactions)
    row["blink_counters"] = metrics.blink_counter_deltas(blink, metrics.blink_counters(server))
    row.update(metrics.hold_deltas(holds, metrics.hold_counters(server)))
    row.update({col: n - index_counts[col] for col, n in metrics.index_metrics(server).items()})
    row["deadlocks_per_s"] = (metrics.deadlocks(server) - deadlocks) / row["wall_s"] \
        if row["wall_s"] else None
    row.update(metrics.reads_per_transaction(reads, metrics.read_counters(server), transactions))
    row.update(metrics.throttling_deltas(trx, metrics.trx_status(server)))
    row["trx_samples"] = metrics.trx_samples(samples)
    for gauge in ("active_rw_ids", "throttling_waiting"):
        row.update(metrics.gauge_summary(row["trx_samples"], gauge))
    waits = metrics.read_waits(server)
    row.update(waits)
    row.update(metrics.steal_judgement(row))
    row.update(metrics.trx_sys_mutex_per_transaction(waits, transactions))
    row.update(metrics.io_per_transaction(waits, transactions))
    return row


def sysbench_row(out):
    r = parse.sysbench(out)
    hist = parse.sysbench_histogram(out)
    return {"throughput": r["tps"], "unit": "tps", "qps": r.get("qps"),
            "lat_avg_ms": r.get("lat_avg_ms"), "p95_ms": parse.percentile(hist, 95),
            "p99_ms": parse.percentile(hist, 99), "errors_per_s": r.get("errors_per_s", 0.0),
            "errors": r.get("errors", 0),
            "reconnects_per_s": r.get("reconnects_per_s", 0.0),
            "transactions": r["transactions"], "writes": r.get("writes"),
            "intervals": [(i["t"], i["tps"], i["lat_ms"], i["err_per_s"]) for i in r["intervals"]]}


def data_mb(server, database):
    """Data and indexes of the database's tables in MB, as ANALYZE TABLE
    counted their pages (information_schema.TABLES)."""
    (mb,), = server.rows("SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) / 1048576"
                         " FROM information_schema.TABLES WHERE TABLE_SCHEMA = '%s'" % database)
    return round(float(mb), 1)


class Workload:
    """A data set, prepared once per server (prepare), and groups of points
    (groups, run_group).  A workload loads its data set (load), may check it
    (check_loaded) and may name statements whose plans are recorded
    (statements: (transaction, SQL) run in database)."""
    statements = ()
    database = None
    # The io workloads start every group from the buffer pool the restart
    # emptied; the others from one warmed by a scan of every index.
    cold = False

    def prepare(self, server, ctx):
        """Load the data set into a fresh server and make it ready to save:
        ANALYZE every table, so that the statistics describe the loaded rows
        and are the same on every server that loaded them, record them and
        the plans of the workload's statements, then check the data (after
        ANALYZE: the check's queries need the statistics too)."""
        self.load(server, ctx)
        optimizer.analyze(server)
        key = (server.name, self.dataset)
        ctx.data_mb[key] = data_mb(server, self.database or "sbtest")
        ctx.table_stats[key] = optimizer.record(server)
        if self.statements:
            ctx.plans[key] = optimizer.explain(server, self.statements, self.database)
        self.check_loaded(server, ctx)

    def check_loaded(self, server, ctx):
        """Nothing to check unless the workload says so."""


class Sysbench(Workload):
    """sysbench 1.0 OLTP workloads at each isolation level over a thread ladder."""
    dataset = "sysbench"

    def __init__(self, script, name=None, extra=()):
        self.name, self.script, self.extra = name or script, script, list(extra)

    def load(self, server, ctx):
        """sysbench's prepare, then the same rows on every server: sysbench
        1.0.20 draws k and c at random and --rand-seed does not make two
        prepares equal, so the first server's rows are exported and every
        server, the first included, loads them into the tables its own
        prepare created (issue 14)."""
        p = self.params(ctx.p)
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        ctx.run(server, sysbench_argv(server, "oltp_read_write", p, min(p["tables"], 4), 0,
                                      command="prepare"), "prepare-sysbench.log")
        files = {n: os.path.join(ctx.file_dir, "%s-sbtest%d.tsv" % (self.dataset, n))
                 for n in range(1, p["tables"] + 1)}
        if self.dataset not in ctx.exported:
            for n, path in files.items():
                if os.path.exists(path):  # INTO OUTFILE does not overwrite
                    os.unlink(path)
                server.sql(export_sql(n, path))
            ctx.exported[self.dataset] = server.name
        for n, path in files.items():
            server.sql(reload_sql(n, path))

    def groups(self, p):
        return [{"isolation": iso} for iso in p["isolation"]]

    def params(self, p):
        """The profile's parameters as this workload's sysbench sees them."""
        return p

    def extra_args(self, p):
        """The workload's own sysbench options."""
        return self.extra

    def run_group(self, server, ctx, group, rep):
        p, iso = self.params(ctx.p), group["isolation"]
        server.sql("SET GLOBAL transaction_isolation = '%s'" % ISOLATION[iso])
        if p["warmup"]:
            ctx.run(server, sysbench_argv(server, self.script, p, max(p["threads"]), p["warmup"],
                                          *self.extra_args(p)),
                    "%s-%s-warmup-r%d.log" % (self.name, iso, rep))
        for threads in p["threads"]:
            ctx.log("  %-10s %-18s %s %5d threads" % (server.name, self.name, iso, threads))
            row = measure(ctx, server, sysbench_argv(server, self.script, p, threads, p["time"],
                                                     *self.extra_args(p)),
                          "%s-%s-%d-r%d.log" % (self.name, iso, threads, rep), sysbench_row)
            row.update(workload=self.name, isolation=iso, threads=threads)
            yield row


def _string(text):
    return "'%s'" % text.replace("\\", "\\\\").replace("'", "''")


def export_sql(n, path):
    """sbtest<n>'s rows, in primary key order, into path (server side)."""
    return "SELECT id, k, c, pad FROM sbtest.sbtest%d ORDER BY id INTO OUTFILE %s" % (n, _string(path))


def reload_sql(n, path):
    """Replace sbtest<n>'s rows with path's, the way sysbench's prepare
    builds the table (oltp_common.lua create_table): the rows in primary key
    order into the table without its secondary index, then CREATE INDEX.
    TRUNCATE recreates the table, with this server's engine settings."""
    return ("ALTER TABLE sbtest.sbtest{n} DROP INDEX k_{n}; TRUNCATE TABLE sbtest.sbtest{n};"
            " LOAD DATA INFILE {path} INTO TABLE sbtest.sbtest{n} (id, k, c, pad);"
            " CREATE INDEX k_{n} ON sbtest.sbtest{n}(k)").format(n=n, path=_string(path))


def _delivery_orders(columns):
    """go-tpc's DELIVERY handles the oldest new order of each of the 10
    districts in one statement: (w, d, o) IN ((1, 1, 2101), ..., (1, 10, 2101))."""
    return "(%s) IN (%s)" % (columns, ", ".join("(1, %d, 2101)" % d for d in range(1, 11)))


# The statements go-tpc sends (pingcap/go-tpc tpcc/new_order.go, payment.go,
# order_status.go, delivery.go, stock_level.go), with values that exist
# right after the load in every warehouse: warehouse 1, district 1,
# customer 1 (last name BARBARBAR, TPC-C's name for customer number 0),
# item 1, order 1 (order_line), new orders 2101-3000, next order id 3001.
# The INSERTs are left out: they have no plan.  NEW_ORDER and PAYMENT are
# 88 % of the mix; ORDER_STATUS, DELIVERY and STOCK_LEVEL are where the
# statistics choose between indexes and join orders.
TPCC_STATEMENTS = (
    ("NEW_ORDER", "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse"
                  " WHERE w_id = 1 AND c_w_id = w_id AND c_d_id = 1 AND c_id = 1"),
    ("NEW_ORDER", "SELECT d_next_o_id, d_tax FROM district WHERE d_id = 1 AND d_w_id = 1 FOR UPDATE"),
    ("NEW_ORDER", "UPDATE district SET d_next_o_id = 3001 + 1 WHERE d_id = 1 AND d_w_id = 1"),
    ("NEW_ORDER", "SELECT i_price, i_name, i_data FROM item WHERE i_id = 1"),
    ("NEW_ORDER", "SELECT s_quantity, s_data, s_dist_01 s_dist FROM stock"
                  " WHERE s_i_id = 1 AND s_w_id = 1 FOR UPDATE"),
    ("NEW_ORDER", "UPDATE stock SET s_quantity = 50, s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1,"
                  " s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 1 AND s_w_id = 1"),
    ("PAYMENT", "UPDATE warehouse SET w_ytd = w_ytd + 10.00 WHERE w_id = 1"),
    ("PAYMENT", "SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse"
                " WHERE w_id = 1"),
    ("PAYMENT", "UPDATE district SET d_ytd = d_ytd + 10.00 WHERE d_w_id = 1 AND d_id = 1"),
    ("PAYMENT", "SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district"
                " WHERE d_w_id = 1 AND d_id = 1"),
    ("PAYMENT", "SELECT count(c_id) namecnt FROM customer"
                " WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR'"),
    ("PAYMENT", "SELECT c_id FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR'"
                " ORDER BY c_first"),
    ("PAYMENT", "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip,"
                " c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer"
                " WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1 FOR UPDATE"),
    ("PAYMENT", "SELECT c_data FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1"),
    ("PAYMENT", "UPDATE customer SET c_balance = c_balance - 10.00, c_ytd_payment = c_ytd_payment"
                " + 10.00, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = 1 AND c_d_id = 1"
                " AND c_id = 1"),
    ("ORDER_STATUS", "SELECT c_balance, c_first, c_middle, c_id FROM customer"
                     " WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = 'BARBARBAR' ORDER BY c_first"),
    ("ORDER_STATUS", "SELECT o_id, o_carrier_id, o_entry_d FROM orders"
                     " WHERE o_w_id = 1 AND o_d_id = 1 AND o_c_id = 1 ORDER BY o_id DESC LIMIT 1"),
    ("ORDER_STATUS", "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d"
                     " FROM order_line WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id = 1"),
    ("DELIVERY", "SELECT no_o_id FROM new_order WHERE no_w_id = 1 AND no_d_id = 1"
                 " ORDER BY no_o_id ASC LIMIT 1 FOR UPDATE"),
    ("DELIVERY", "DELETE FROM new_order WHERE " + _delivery_orders("no_w_id, no_d_id, no_o_id")),
    ("DELIVERY", "UPDATE orders SET o_carrier_id = 1 WHERE " + _delivery_orders("o_w_id, o_d_id, o_id")),
    ("DELIVERY", "SELECT o_d_id, o_c_id FROM orders WHERE " + _delivery_orders("o_w_id, o_d_id, o_id")),
    ("DELIVERY", "UPDATE order_line SET ol_delivery_d = '2026-01-01 00:00:00' WHERE "
                 + _delivery_orders("ol_w_id, ol_d_id, ol_o_id")),
    ("DELIVERY", "SELECT ol_d_id, SUM(ol_amount) FROM order_line WHERE "
                 + _delivery_orders("ol_w_id, ol_d_id, ol_o_id") + " GROUP BY ol_d_id"),
    ("DELIVERY", "UPDATE customer SET c_balance = c_balance + 10.00, c_delivery_cnt = c_delivery_cnt + 1"
                 " WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1"),
    ("STOCK_LEVEL", "SELECT d_next_o_id FROM district WHERE d_w_id = 1 AND d_id = 1"),
    ("STOCK_LEVEL", "SELECT COUNT(DISTINCT (s_i_id)) stock_count FROM order_line, stock"
                    " WHERE ol_w_id = 1 AND ol_d_id = 1 AND ol_o_id < 3001 AND ol_o_id >= 3001 - 20"
                    " AND s_w_id = 1 AND s_i_id = ol_i_id AND s_quantity < 15"),
)


class Tpcc(Workload):
    """TPC-C with go-tpc: prepare once, then run and check at each point."""
    name = "tpcc"
    dataset = "tpcc"
    database = "tpcc"
    statements = TPCC_STATEMENTS

    def argv(self, server, p, *args):
        return [GO_TPC, "tpcc", "-H", "127.0.0.1", "-P", str(server.port), "-U", "root",
                "-D", self.database, "--warehouses", str(p["warehouses"]),
                "--interval", "1s"] + list(args)

    def load(self, server, ctx):
        if not os.access(GO_TPC, os.X_OK):
            raise RuntimeError("no %s: run benchmarks/tools/build-go-tpc.sh" % GO_TPC)
        server.sql("CREATE DATABASE IF NOT EXISTS " + self.database)
        ctx.run(server, self.argv(server, ctx.p, "prepare", "--no-check",
                                  "-T", str(min(4, ctx.p["warehouses"]))), "prepare-tpcc.log")
        # go-tpc's consistency condition 3.3.2.10 sums each customer's
        # history rows, but go-tpc indexes history on h_c_w_id alone: every
        # customer scans its whole warehouse's history, 30,000 x 30,000 rows
        # per warehouse (over 10 minutes per check on one core).  This index
        # makes the check a lookup.  Every server gets it, Payment maintains
        # it (an extra secondary index insert per history row).
        server.sql("ALTER TABLE tpcc.history ADD INDEX idx_h_customer (h_c_w_id, h_c_d_id, h_c_id)")

    def check_loaded(self, server, ctx):
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
            "transactions": new_order.get("count"), "errors": errors,
            "all_transactions": sum(op["count"] or 0 for name, op in r["ops"].items()
                                    if not name.endswith("_ERR")),
            "errors_per_s": errors / new_order["takes_s"] if new_order.get("takes_s") else None,
            # go-tpc's per-interval NEW_ORDER lines: tpmC, P95, errors/s per second.
            "intervals": r["intervals"]}


class LongReport(Workload):
    """Hot-row updates (pareto) while one connection holds a consistent
    snapshot and then scans the whole table: per-second TPS, the report's
    duration and the history list length over time."""
    name = "long-report"
    dataset = "sysbench"
    load = Sysbench.load
    params = Sysbench.params

    def groups(self, p):
        return [{"isolation": "RR"}]

    def run_group(self, server, ctx, group, rep):
        p = ctx.p
        server.sql("SET GLOBAL transaction_isolation = 'REPEATABLE-READ'")
        settled = ctx.settle(server)  # before the report's clock starts
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
                                        "--rand-type=pareto"),
                          "long-report-%d-r%d.log" % (threads, rep), sysbench_row, settled)
            reporter.join()
        finally:
            samples = hll.stop()
        ctx.timelines.append({"server": server.name, "rep": rep, "report": report,
                              "tps": [(started + i[0], i[1]) for i in row["intervals"]],
                              "hll": samples})
        row.update(workload=self.name, isolation="RR", threads=threads,
                   report_s=report.get("seconds"), hll_max=max((v for _, v in samples), default=None))
        if "seconds" not in report:
            row["check"] = "FAILED: the report did not finish, see the error log"

        yield row


class SplitInserts(Workload):
    """Inserts between nearly full leaf pages from many threads: nearly every
    insert splits a leaf.  Checks the table and the row count afterwards."""
    name = "split-insert"
    dataset = "split"
    script = os.path.join(BENCH, "workloads", "split_insert.lua")
    log_name = "split"
    readers_per_writer = 0
    rows_key = "split_rows"

    def argv(self, server, p, threads, seconds, *extra, command="run"):
        extra = ignored_errors(extra) if command == "run" else list(extra)
        return ["sysbench", self.script, "--mysql-socket=" + server.sock, "--mysql-user=root",
                "--mysql-db=sbtest", "--rows=%d" % p[self.rows_key], "--threads=%d" % threads,
                "--time=%d" % seconds, "--histogram=on", "--report-interval=1"] \
            + extra + [command]

    def load(self, server, ctx):
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        ctx.run(server, self.argv(server, ctx.p, 1, 0, command="prepare"), "prepare-split.log")

    def groups(self, p):
        return [{"isolation": "RR"}]

    def run_group(self, server, ctx, group, rep, settled=None):
        """The point; settled: what the caller waited for (measure)."""
        p = ctx.p
        writers = group.get("threads", p["split_threads"])
        threads = writers * (1 + self.readers_per_writer)
        ctx.log("  %-10s %-18s RR %5d threads" % (server.name, self.name, threads))
        # For split_time seconds, not a number of inserts: a point must be
        # long enough to be steady (issue 22).  The first pass over the gaps
        # splits nearly every full leaf; later inserts land on half-full
        # pages and split less often: splits_per_insert says how often.
        extra = ["--readers=on"] if self.readers_per_writer else []
        row = measure(ctx, server, self.argv(server, p, threads, p["split_time"], *extra),
                      "%s-%d-r%d.log" % (self.log_name, threads, rep), sysbench_row, settled)
        splits = row["page_splits"]  # measure()'s
        inserted = row["writes"] if row.get("writes") is not None else row["transactions"]
        row.update(workload=self.name, isolation="RR", threads=threads,
                   splits_per_insert=splits / inserted if inserted else 0,
                   check=self.check(server, p, inserted))
        yield row

    def check(self, server, p, inserted):
        """CHECK TABLE and the row count after a point."""
        check = server.rows("CHECK TABLE sbtest.split_t")[-1]
        count = int(server.sql("SELECT COUNT(*) FROM sbtest.split_t"))
        expected = p[self.rows_key] + inserted
        return "ok" if check[-1] == "OK" and count == expected else \
            "FAILED: CHECK TABLE %s, %d rows, expected %d" % (check[-1], count, expected)


class SplitInsertsRead(SplitInserts):
    """The split inserts with one reading thread beside each inserting one:
    short primary key ranges around random gaps, across the leaves being
    split (benchmarks/doc/blink/README.md, "Descent with move-right,
    merges under X").  Named only."""
    name = "split-insert-read"
    log_name = "split-read"
    readers_per_writer = 1


class SplitInsertsIO(SplitInserts):
    """split-insert on a table many times the buffer pool (the io profile):
    most inserts read their leaf from disk, and a split reads its
    neighbours.  A group per thread count, each on the restored table."""
    cold = True
    name = "split-insert-io"
    dataset = "split-io"
    log_name = "split-io"
    rows_key = "io_split_rows"

    def groups(self, p):
        return [{"isolation": "RR", "threads": t} for t in p["io_split_threads"]]


class SplitInsertsIORead(SplitInsertsIO):
    """split-insert-io with as many threads reading ten keys from a random
    gap on, in a sysbench process of their own, whose latency is the
    readers' (results.csv read_*)."""
    name = "split-insert-io-read"
    log_name = "split-io-read"

    def groups(self, p):
        return [{"isolation": "RR", "threads": p["io_split_threads"][0]}]

    def run_group(self, server, ctx, group, rep, settled=None):
        threads, out = group["threads"], {}
        # Settled before the readers start, so that they start with the writers.
        settled = ctx.settle(server) if settled is None else settled
        reader = threading.Thread(target=self._read, daemon=True,
                                  args=(server, ctx, threads, rep, out))
        reader.start()
        try:
            for row in super().run_group(server, ctx, group, rep, settled):
                reader.join()
                row.update(out)
                row["threads"] = 2 * threads
                yield row
        finally:
            reader.join()

    def _read(self, server, ctx, threads, rep, out):
        """The readers' run, from the writers' start to their end."""
        try:
            r = sysbench_row(ctx.run(server, self.argv(server, ctx.p, threads, ctx.p["split_time"],
                                                       "--readers=on", "--read_only=on"),
                                     "%s-readers-%d-r%d.log" % (self.log_name, threads, rep)))
            out.update(read_qps=r["throughput"], read_p95_ms=r["p95_ms"],
                       read_p99_ms=r["p99_ms"])
        except Exception as e:  # the row says so; the writers' figures stand
            out["check"] = "FAILED: readers: %s" % e


class LobWrite(SplitInsertsIORead):
    """Writes of rows with a TEXT value of 20-100 KB stored off the page
    (workloads/lob_write.lua): updates that give random rows a value,
    inserts of rows with one and deletes, from split_threads threads, with
    as many threads reading single rows by primary key in a sysbench
    process of their own (results.csv read_*).  On a B-link table the
    writes hold index->lock in S (storage/innobase/btr/README.blink.md,
    EX1-EX4), stock's SX; the exclusive path (innodb_btree_blink_leveled_external
    OFF) holds X.  A data set in memory, warmed as sysbench's."""
    cold = False
    name = "lob-write"
    dataset = "lob"
    script = os.path.join(BENCH, "workloads", "lob_write.lua")
    log_name = "lob"
    rows_key = "lob_rows"

    def load(self, server, ctx):
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        ctx.run(server, self.argv(server, ctx.p, 1, 0, command="prepare"), "prepare-lob.log")

    def groups(self, p):
        return [{"isolation": "RR", "threads": p["split_threads"]}]

    def check(self, server, p, inserted):
        """CHECK TABLE: the count moves with the deletes and the inserts."""
        check = server.rows("CHECK TABLE sbtest.lob_t")[-1]
        return "ok" if check[-1] == "OK" else "FAILED: CHECK TABLE %s" % check[-1]


# The io data set: sysbench's tables, with ids spread evenly over the
# whole INTEGER range instead of 1..table_size, so that sysbench's random
# ids (oltp_insert --auto_inc=off: sysbench.rand.unique() - 2^31) land
# between the preloaded rows, all over the primary key, as k's values do
# all over k.  Every row is a function of its table and number (k from
# CRC32, c and pad from SHA2; 9.7 has no MD5): every server loads the same
# rows without an export.  workloads/purge_heavy.lua computes the same ids.
IO_ID_BASE = -2 ** 31
IO_CHUNK = 100000


def io_stride(table_size):
    return 2 ** 32 // table_size


def io_table_sql(n):
    """sysbench 1.0.20's sbtest table (oltp_common.lua create_table),
    without k's index: CREATE INDEX after the load builds it sorted."""
    return ("CREATE TABLE sbtest.sbtest%d (id INTEGER NOT NULL AUTO_INCREMENT,"
            " k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL,"
            " pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB" % n)


def io_rows_sql(n, first, count, table_size):
    """Rows first .. first+count-1 (of 0 .. table_size-1) of sbtest<n>, in
    primary key order."""
    stride = io_stride(table_size)
    return ("SET SESSION cte_max_recursion_depth = {count};"
            " INSERT INTO sbtest.sbtest{n} (id, k, c, pad)"
            " WITH RECURSIVE s (i) AS (SELECT {first} UNION ALL SELECT i + 1 FROM s"
            " WHERE i < {last})"
            " SELECT {base} + i * {stride}, 1 + CRC32(CONCAT({n}, '-', i)) % {size},"
            " LEFT(CONCAT(SHA2(i, 256), SHA2(i + 1, 256)), 119), LEFT(SHA2(-i, 256), 59)"
            " FROM s").format(
                count=count, n=n, first=first, last=first + count - 1,
                base=IO_ID_BASE + stride // 2, stride=stride, size=table_size)


class SysbenchIO(Sysbench):
    """A sysbench workload on the io data set (io_tables tables of
    io_table_size rows, many times the buffer pool in the io profile)."""
    cold = True
    dataset = "sysbench-io"

    def params(self, p):
        return dict(p, tables=p["io_tables"], table_size=p["io_table_size"], warmup=0)

    def load(self, server, ctx):
        p = self.params(ctx.p)
        server.sql("CREATE DATABASE IF NOT EXISTS sbtest")
        for n in range(1, p["tables"] + 1):
            server.sql(io_table_sql(n))
            for first in range(0, p["table_size"], IO_CHUNK):
                # The CTE needs a current database (ERROR 1046 without).
                server.sql(io_rows_sql(n, first, min(IO_CHUNK, p["table_size"] - first),
                                       p["table_size"]), db="sbtest")
            server.sql("CREATE INDEX k_{n} ON sbtest.sbtest{n}(k)".format(n=n))


class PurgeHeavyIO(SysbenchIO):
    """Each transaction deletes io_delete_rows neighbouring rows of the io
    data set and inserts as many at random ids (workloads/purge_heavy.lua):
    purge then empties and merges leaves while inserts split others."""
    name = "purge-heavy-io"

    def __init__(self):
        # A random id may hit a row: an ignored error, as in oltp_insert-random.
        super().__init__(os.path.join(BENCH, "workloads", "purge_heavy.lua"), self.name,
                         ["--mysql-ignore-errors=1062"])

    def extra_args(self, p):
        return self.extra + ["--delete_rows=%d" % p["io_delete_rows"]]


class OltpWriteOnlyIO(SysbenchIO):
    """sysbench's oltp_write_only on tables of the io data set's sizes, but
    sysbench's own (ids 1..io_table_size, loaded as the sysbench workloads
    load theirs): its updates and deletes look for those ids, which the io
    data set spreads over the INTEGER range."""
    name = "oltp_write_only-io"
    dataset = "sysbench-io-own"
    load = Sysbench.load

    def __init__(self):
        super().__init__("oltp_write_only", self.name)


SYSBENCH_SCRIPTS = ("oltp_read_write", "oltp_read_only", "oltp_point_select", "oltp_update_index")
# Run only when named: inserts at the end of the primary key and into the
# secondary index; the same with random primary keys (sysbench's unique
# random ids instead of auto-increment: inserts, and splits, all over the
# primary key; an id may hit one of the preloaded 1..table_size, which
# sysbench then counts as an ignored error, in the summary's error table);
# deletes and inserts whose purge merges pages (the B-link benchmarks,
# benchmarks/doc/blink/README.md).
SYSBENCH_NAMED_ONLY = ("oltp_insert", "oltp_insert-random", "oltp_write_only")
# On the io data sets (the io profile; benchmarks/doc/blink/README.md,
# "Tables larger than the buffer pool").
IO_WORKLOADS = ("split-insert-io", "split-insert-io-read", "oltp_insert-random-io",
                "purge-heavy-io", "oltp_write_only-io")
# Writes of values stored off the page beside readers (named only; in the
# smoke profile).
LOB_WORKLOADS = ("lob-write",)
SYSBENCH_VARIANTS = {"oltp_insert-random": ("oltp_insert",
                                            ["--auto_inc=off", "--mysql-ignore-errors=1062"])}


def make(names):
    out = []
    for n in names:
        if n == "sysbench":
            out += [Sysbench(s) for s in SYSBENCH_SCRIPTS]
        elif n in SYSBENCH_VARIANTS:
            out.append(Sysbench(SYSBENCH_VARIANTS[n][0], n, SYSBENCH_VARIANTS[n][1]))
        elif n in SYSBENCH_SCRIPTS + SYSBENCH_NAMED_ONLY:
            out.append(Sysbench(n))
        elif n == "tpcc":
            out.append(Tpcc())
        elif n == "long-report":
            out.append(LongReport())
        elif n == "split-insert":
            out.append(SplitInserts())
        elif n == "split-insert-read":
            out.append(SplitInsertsRead())
        elif n == "split-insert-io":
            out.append(SplitInsertsIO())
        elif n == "split-insert-io-read":
            out.append(SplitInsertsIORead())
        elif n == "oltp_insert-random-io":
            out.append(SysbenchIO("oltp_insert", n, SYSBENCH_VARIANTS["oltp_insert-random"][1]))
        elif n == "purge-heavy-io":
            out.append(PurgeHeavyIO())
        elif n == "oltp_write_only-io":
            out.append(OltpWriteOnlyIO())
        elif n == "lob-write":
            out.append(LobWrite())
        else:
            raise ValueError("unknown workload %r: sysbench, %s, tpcc, long-report, split-insert,"
                             " split-insert-read, %s"
                             % (n, ", ".join(SYSBENCH_SCRIPTS + SYSBENCH_NAMED_ONLY),
                                ", ".join(IO_WORKLOADS + LOB_WORKLOADS)))
    return out
