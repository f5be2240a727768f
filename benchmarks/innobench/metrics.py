# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""What is measured around each point besides the workload's own output:
CPU use of server and clients (and the server's CPU time per transaction,
and the machine's steal time), performance_schema waits on InnoDB latches
(trx_sys->mutex per transaction), handler and page reads per transaction,
the fork's B-link and transaction throttling counters, and a once-a-second
sampler (history list length for timelines; the fork's active transaction
set and throttling queue during every point)."""
import os
import threading
import time

from .server import INDEX_METRICS as INDEX_METRIC_NAMES, status

TRX_SYS_MUTEX = "wait/synch/mutex/innodb/trx_sys_mutex"
INDEX_LOCK = "wait/synch/sxlock/innodb/index_tree_rw_lock"
TOP_WAITS = 5
# Rows read through the handler (every access path) and InnoDB's logical
# page reads: per transaction they show a plan difference between servers
# that would otherwise only show up as throughput.
HANDLER_READS = ("Handler_read_first", "Handler_read_key", "Handler_read_last",
                 "Handler_read_next", "Handler_read_prev", "Handler_read_rnd",
                 "Handler_read_rnd_next")
PAGE_READS = "Innodb_buffer_pool_read_requests"
# Pages read from disk (the io workloads: per transaction and per split).
DISK_READS = "Innodb_buffer_pool_reads"
# The time threads waited for reads of InnoDB's data files (every thread:
# the user threads' page reads and the read-ahead of the I/O threads).
DATA_FILE = "wait/io/file/innodb/innodb_data_file"
# A point with more steal time than its limit is flagged: the machine was
# not ours alone, its numbers are suspect (results.csv steal_high,
# summary).  The limit is STEAL_LIMIT_PCT plus STEAL_PCT_PER_KREAD_S per
# 1,000 data file reads a second of the point: on a VM the hypervisor's
# work for this machine's own disk reads shows as steal, a cost of reading
# there like the device's latency, not a neighbour.  On the VM the
# benchmarks ran on, 96 I/O-bound points at flush 2 had 0.46 % more steal
# per 1,000 reads a second on average, at most 2.36 % above the 2 % base
# (benchmarks/doc/blink/README.md, "Tables larger than the buffer pool").
STEAL_LIMIT_PCT = 2.0
STEAL_PCT_PER_KREAD_S = 2.5


def steal_limit_pct(data_reads, wall_s):
    """The steal time a point may have, in % of all CPU time, given its
    data file reads over wall_s seconds (None: no reads counted)."""
    rate = (data_reads or 0) / wall_s if wall_s else 0.0
    return STEAL_LIMIT_PCT + STEAL_PCT_PER_KREAD_S * rate / 1000.0


def steal_judgement(row):
    """A point's steal limit and whether its steal_pct is above it, from
    its data_reads and wall_s."""
    limit = round(steal_limit_pct(row.get("data_reads"), row["wall_s"]), 2)
    return {"steal_limit_pct": limit, "steal_high": int(row["steal_pct"] > limit)}


def _ticks():
    return os.sysconf("SC_CLK_TCK")


def proc_cpu_seconds(pid, proc="/proc"):
    """user+system CPU seconds of a process (its threads included): fields
    14 (utime) and 15 (stime) of /proc/<pid>/stat, counted after the
    command name, which may hold spaces and parentheses."""
    with open("%s/%d/stat" % (proc, pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _ticks()


def children_cpu_seconds():
    t = os.times()
    return t.children_user + t.children_system


def machine_cpu_ticks():
    """The "cpu" line of /proc/stat: user nice system idle iowait irq
    softirq steal ..., in ticks, all CPUs together."""
    with open("/proc/stat") as f:
        return [int(x) for x in f.readline().split()[1:]]


def iowait_pct(before, after):
    """iowait between two machine_cpu_ticks() as % of all CPU time: CPUs
    idle while a read or write of theirs was outstanding."""
    delta = [b - a for a, b in zip(before[:8], after[:8])]
    total = sum(delta)
    return 100.0 * delta[4] / total if total > 0 else 0.0


def steal_pct(before, after):
    """Steal time between two machine_cpu_ticks() as % of all CPU time:
    the hypervisor ran someone else on our CPUs.  guest and guest_nice
    (fields 9, 10) are already counted in user and nice."""
    delta = [b - a for a, b in zip(before[:8], after[:8])]
    total = sum(delta)
    return 100.0 * delta[7] / total if total > 0 else 0.0


def cpu_us_per_txn(cpu_seconds, transactions):
    """Server CPU time per transaction, in microseconds."""
    return cpu_seconds / transactions * 1e6 if transactions else None


class CpuMeter:
    """CPU use over an interval: in cores (1.0 = one CPU busy all the time)
    for mysqld and the clients, mysqld's CPU seconds, and the machine's
    steal time (measure() judges it against steal_limit_pct())."""

    def __init__(self, server_pid):
        self.pid = server_pid
        self.t0 = time.monotonic()
        self.s0 = proc_cpu_seconds(server_pid)
        self.c0 = children_cpu_seconds()
        self.m0 = machine_cpu_ticks()

    def stop(self):
        wall = time.monotonic() - self.t0
        server = proc_cpu_seconds(self.pid) - self.s0
        ticks = machine_cpu_ticks()
        return {"iowait_pct": round(iowait_pct(self.m0, ticks), 2),
                "cpu_server": server / wall if wall else 0.0,
                "cpu_clients": (children_cpu_seconds() - self.c0) / wall if wall else 0.0,
                "server_cpu_s": server, "wall_s": wall, "steal_pct": round(steal_pct(self.m0, ticks), 2)}


def reset_waits(server):
    server.sql("TRUNCATE TABLE performance_schema.events_waits_summary_global_by_event_name;"
               " TRUNCATE TABLE performance_schema.events_waits_summary_by_thread_by_event_name;"
               " TRUNCATE TABLE performance_schema.file_summary_by_event_name")


def top_waits(rows):
    """'latch:count:ms' of the first TOP_WAITS (EVENT_NAME, COUNT, SUM_TIMER_WAIT)
    rows, ordered by wait time."""
    return " ".join("%s:%d:%.1fms" % (name.rsplit("/", 1)[1], int(count), int(ps) / 1e9)
                    for name, count, ps in rows[:TOP_WAITS])


BLINK_PREFIX = "Innodb_btree_blink_"


def read_waits(server):
    """InnoDB latch waits since reset_waits: count and total wait (ms) for
    trx_sys_mutex and the index lock, and the top InnoDB latches by wait time."""
    rows = server.rows(
        "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM performance_schema."
        "events_waits_summary_global_by_event_name WHERE EVENT_NAME LIKE 'wait/synch/%/innodb/%'"
        " AND COUNT_STAR > 0 ORDER BY SUM_TIMER_WAIT DESC")
    out = {"trx_sys_mutex_count": 0, "trx_sys_mutex_ms": 0.0,
           "index_lock_count": 0, "index_lock_ms": 0.0, "top_waits": top_waits(rows)}
    for name, count, ps in rows:
        ms = int(ps) / 1e9
        if name == TRX_SYS_MUTEX:
            out["trx_sys_mutex_count"], out["trx_sys_mutex_ms"] = int(count), ms
        elif name == INDEX_LOCK:
            out["index_lock_count"], out["index_lock_ms"] = int(count), ms
    # The same of InnoDB's own threads (purge, page cleaners, ...): the
    # clients' connections waited the rest of top_waits.
    out["top_waits_background"] = top_waits(server.rows(
        "SELECT EVENT_NAME, SUM(COUNT_STAR), SUM(SUM_TIMER_WAIT) FROM performance_schema."
        "events_waits_summary_by_thread_by_event_name JOIN performance_schema.threads"
        " USING (THREAD_ID) WHERE TYPE = 'BACKGROUND' AND EVENT_NAME LIKE 'wait/synch/%/innodb/%'"
        " AND COUNT_STAR > 0 GROUP BY EVENT_NAME ORDER BY SUM(SUM_TIMER_WAIT) DESC"))
    for count, ps in server.rows(
            "SELECT COUNT_READ, SUM_TIMER_READ FROM performance_schema.file_summary_by_event_name"
            " WHERE EVENT_NAME = '%s'" % DATA_FILE):
        out["data_reads"], out["data_read_ms"] = int(count), int(ps) / 1e9
    return out


def read_counters(server):
    return status(server, HANDLER_READS + (PAGE_READS, DISK_READS))


def reads_per_transaction(before, after, transactions):
    """Handler reads and page reads per transaction between two
    read_counters() (everything the server read meanwhile, the harness's
    own few queries included)."""
    disk = after.get(DISK_READS, 0) - before.get(DISK_READS, 0)
    if not transactions:
        return {"handler_reads_per_txn": None, "page_reads_per_txn": None, "disk_reads": disk,
                "disk_reads_per_txn": None}
    handler = sum(after.get(n, 0) - before.get(n, 0) for n in HANDLER_READS)
    pages = after.get(PAGE_READS, 0) - before.get(PAGE_READS, 0)
    return {"handler_reads_per_txn": handler / transactions,
            "page_reads_per_txn": pages / transactions, "disk_reads": disk,
            "disk_reads_per_txn": disk / transactions}


def _status_prefixed(server, prefix):
    """SHOW GLOBAL STATUS variables starting with prefix: name without the
    prefix -> integer value ({} when the server has none, as stock)."""
    return {name[len(prefix):]: int(value) for name, value in server.rows(
        "SHOW GLOBAL STATUS LIKE '%s%%'" % prefix) if value.lstrip("-").isdigit()}


# results.csv column -> the INNODB_METRICS counter it is the delta of
# (server.INDEX_METRICS, which base_cnf() enables).  Stock counts merges
# in btr_compress() and discards in btr_discard_page(); the fork's page
# deletion counts its merges and emptied leaves there too (README.blink.md,
# "Counters").
INDEX_METRICS = dict(zip(("page_splits", "page_merge_attempts", "page_merges", "page_discards"),
                         INDEX_METRIC_NAMES))


def index_metrics(server):
    """INDEX_METRICS' counters now: column -> value."""
    got = dict(server.rows("SELECT NAME, COUNT FROM information_schema.INNODB_METRICS"
                           " WHERE NAME IN (%s)" % ", ".join(
                               "'%s'" % n for n in INDEX_METRICS.values())))
    return {col: int(got.get(name) or 0) for col, name in INDEX_METRICS.items()}


def blink_counters(server):
    """The fork's B-link status counters (README.blink.md, "Counters"):
    name without the Innodb_btree_blink_ prefix -> value; {} on stock."""
    return _status_prefixed(server, BLINK_PREFIX)


def blink_counter_deltas(before, after):
    """The counters that moved between two blink_counters(), as
    'name:delta' separated by spaces ('' when none did, or on stock)."""
    return " ".join("%s:%d" % (n, after[n] - before.get(n, 0)) for n in sorted(after)
                    if after[n] != before.get(n, 0))


# The fork's hold times of the latches that serialise structure changes
# (storage/innobase/include/mtr0hold.h): <latch>_holds and <latch>_hold_ns
# for index->lock in SX and X and the tablespace latch in X.
HOLD_LATCHES = ("index_lock_sx", "index_lock_x", "tablespace_latch_x")
HOLD_COUNTERS = tuple("%s_%s" % (latch, what) for latch in HOLD_LATCHES
                      for what in ("holds", "hold_ns"))


def hold_counters(server):
    """HOLD_COUNTERS -> value, {} on stock."""
    return {n: v for n, v in _status_prefixed(server, "Innodb_").items() if n in HOLD_COUNTERS}


def hold_deltas(before, after):
    """{counter: after - before} of the HOLD_COUNTERS the server has."""
    return {n: after[n] - before.get(n, 0) for n in HOLD_COUNTERS if n in after}


TRX_PREFIX = "Innodb_trx_"
# The fork's gauges of transactions in flight (storage/innobase/trx/
# README.throttling.md, "Observability"), sampled once a second during a
# point: the active read-write set every read view copies, the throttling
# slots held and the transactions queued for one.
TRX_GAUGES = ("active_rw_ids", "throttling_active", "throttling_waiting")
# Its throttling counters, as deltas over a point (results.csv columns).
THROTTLING_COUNTERS = ("throttling_admitted", "throttling_waits", "throttling_wait_time_us",
                       "throttling_timeouts", "throttling_interrupted")


def trx_status(server):
    """The fork's Innodb_trx_* status variables, name without the prefix
    -> value ({} on stock).  Innodb_trx_active_rw_ids is counted under
    trx_sys->mutex: one more acquisition a call."""
    return _status_prefixed(server, TRX_PREFIX)


def trx_gauges(status):
    """TRX_GAUGES from a trx_status(), None for each the server lacks."""
    return tuple(status.get(g) for g in TRX_GAUGES)


def throttling_deltas(before, after):
    """{counter: after - before} of the THROTTLING_COUNTERS between two
    trx_status(); only those the server has ({} on stock: empty columns)."""
    return {c: after[c] - before.get(c, 0) for c in THROTTLING_COUNTERS if c in after}


def trx_samples(samples):
    """A Sampler's (t, trx_gauges()) as (t, *gauges) rows, t rounded to
    0.1 s; samples with no gauge at all (stock) left out."""
    return [(round(t, 1),) + tuple(g) for t, g in samples if any(v is not None for v in g)]


def gauge_summary(samples, name):
    """{name_mean, name_max} of one TRX_GAUGES gauge over a point's
    trx_samples(), without the first sample (taken while the client
    connects its threads) and the last (it may follow the client's exit)
    when there are three or more; None for both without a value."""
    i = 1 + TRX_GAUGES.index(name)
    vals = [s[i] for s in samples if s[i] is not None]
    vals = vals[1:-1] if len(vals) >= 3 else vals
    return {name + "_mean": sum(vals) / len(vals) if vals else None,
            name + "_max": max(vals) if vals else None}


def trx_sys_mutex_per_transaction(waits, transactions):
    """trx_sys->mutex acquisitions (every instrumented lock is a wait in
    performance_schema) and their wait time in microseconds per
    transaction, from read_waits() over the point; None without
    transactions or without the instrument's numbers."""
    count, ms = waits.get("trx_sys_mutex_count"), waits.get("trx_sys_mutex_ms")
    if not transactions or count is None or ms is None:
        return {"trx_sys_mutex_per_txn": None, "trx_sys_mutex_us_per_txn": None}
    return {"trx_sys_mutex_per_txn": count / transactions,
            "trx_sys_mutex_us_per_txn": ms * 1e3 / transactions}


def io_per_transaction(waits, transactions):
    """Per transaction, from read_waits() over the point: the index lock's
    wait time and the data file reads' wait time, in microseconds."""
    if not transactions:
        return {"index_lock_us_per_txn": None, "read_wait_us_per_txn": None}
    return {"index_lock_us_per_txn": waits.get("index_lock_ms", 0.0) * 1e3 / transactions,
            "read_wait_us_per_txn": waits["data_read_ms"] * 1e3 / transactions
            if "data_read_ms" in waits else None}


def deadlocks(server):
    """InnoDB's deadlock count since startup (INNODB_METRICS lock_deadlocks,
    on by default)."""
    return int(server.sql("SELECT COUNT FROM information_schema.INNODB_METRICS"
                          " WHERE NAME = 'lock_deadlocks'") or 0)


def history_length(server):
    return int(server.sql("SELECT COUNT FROM information_schema.INNODB_METRICS"
                          " WHERE NAME = 'trx_rseg_history_len'") or 0)


class Sampler(threading.Thread):
    """Calls fn() every interval seconds; samples are (seconds since start, value)."""

    def __init__(self, fn, interval=1.0):
        super().__init__(daemon=True)
        self.fn, self.interval = fn, interval
        self.samples, self.errors = [], 0
        self._halt = threading.Event()
        self.t0 = time.monotonic()

    def run(self):
        while not self._halt.is_set():
            try:
                self.samples.append((time.monotonic() - self.t0, self.fn()))
            except Exception:  # a sample lost is reported, not fatal
                self.errors += 1
            self._halt.wait(self.interval)

    def stop(self):
        self._halt.set()
        self.join()
        return self.samples
