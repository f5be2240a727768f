# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The many-core projection of split-insert
(benchmarks/doc/blink/README.md, "The many-core projection"): from one
results directory, the upper bound of splits per second and of inserts
per second at a number of cores, for stock's code path
(fork-no-btree-blink, whose counters time it) and for B-link (fork).

Per insert, two resources bound the rate:
- the CPU: at n cores, at most n / (CPU time per insert) inserts a second,
  if the CPU time per insert stays what it was here;
- the latches every split of one index (or tablespace) takes one at a time:
  index->lock in SX or X, a tablespace latch in X.  A latch held h
  microseconds per insert allows at most 10^6 / h inserts a second,
  whatever the number of cores (the utilisation law: it cannot be held
  more than all the time).  The busiest latch bounds.

The bound is the smaller of the two.  It ignores the device (its queue
depth and bandwidth), page latches (per page: not serial across the
index) and any contention that grows with the core count: an upper bound,
not a forecast."""
import statistics

from .metrics import HOLD_LATCHES

# Published split-insert-like results at 32 threads, for comparison only
# (different machines and workloads; benchmarks/doc/blink/README.md, "The
# many-core projection").
PUBLISHED = [("KernelMaker's B-link prototype, 32 threads", 5666, 91524),
             ("the MariaDB port, flush 2", 19676, 102838)]
# The serialising latches of each path: index->lock (SX and X) and the
# tablespace latch, from mtr0hold.h's counters.
INDEX_LATCHES = ("index_lock_sx", "index_lock_x")
SPACE_LATCHES = ("tablespace_latch_x",)


def _num(row, field):
    v = row.get(field)
    return float(v) if v not in (None, "") else None


def inputs(rows):
    """The medians over repetitions of one point of one server: CPU us per
    insert, splits per insert, and per latch group (index, tablespace) the
    hold time in us per insert and per split; None without hold counters
    (stock's binary)."""
    per = []
    for r in rows:
        txn, splits = _num(r, "transactions"), _num(r, "page_splits")
        cpu = _num(r, "cpu_us_per_txn")
        if not txn or cpu is None or splits is None:
            continue
        held = {}
        for group, latches in (("index", INDEX_LATCHES), ("space", SPACE_LATCHES)):
            ns = [_num(r, latch + "_hold_ns") for latch in latches]
            held[group] = None if None in ns else sum(ns) / 1e3 / txn
        per.append({"cpu_us": cpu, "splits": splits / txn, "tps": _num(r, "throughput"),
                    "index_us": held["index"], "space_us": held["space"]})
    if not per:
        return None
    out = {}
    for k in per[0]:
        vals = [p[k] for p in per if p[k] is not None]
        out[k] = statistics.median(vals) if vals else None
    return out


def bound(inp, cores):
    """Inserts a second at most at `cores` cores, and which resource bounds."""
    cpu = cores * 1e6 / inp["cpu_us"] if inp["cpu_us"] else float("inf")
    serial_us = max(inp["index_us"] or 0.0, inp["space_us"] or 0.0)
    latch = 1e6 / serial_us if serial_us else float("inf")
    return (cpu, "CPU") if cpu <= latch else (latch, "latch")


def project(rows, servers=("fork-no-btree-blink", "fork"), cores=(8, 32, 64),
            workloads=("split-insert", "split-insert-io")):
    """Markdown lines: per workload, threads and server, the inputs and the
    bounds at each core count, with the measured rate on this machine."""
    head = ["workload", "threads", "server", "measured tps", "CPU us/insert", "splits/insert",
            "index->lock us/split", "tablespace latch us/split", "latch ceiling splits/s"] + [
            "bound tps at %d cores" % n for n in cores]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    points = {}
    for r in rows:
        if r["workload"] in workloads and r["server"] in servers:
            points.setdefault((r["workload"], int(r["threads"])), {}).setdefault(
                r["server"], []).append(r)
    for (w, threads), by_server in points.items():
        for s in servers:
            inp = inputs(by_server.get(s, []))
            if inp is None or inp["index_us"] is None:
                continue
            splits = inp["splits"] or 0.0
            serial_us = max(inp["index_us"], inp["space_us"] or 0.0)
            per_split = lambda us: "%.1f" % (us / splits) if splits else "-"
            ceiling = splits * 1e6 / serial_us if serial_us else float("inf")
            cells = [w, str(threads), s, "%.0f" % inp["tps"], "%.0f" % inp["cpu_us"],
                     "%.3f" % splits, per_split(inp["index_us"]),
                     per_split(inp["space_us"] or 0.0), _rate(ceiling)]
            for n in cores:
                tps, by = bound(inp, n)
                cells.append("%s (%s)" % (_rate(tps), by))
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def _rate(x):
    return "unbounded" if x == float("inf") else "{:,.0f}".format(x)


def published_lines():
    return ["| %s | %s | %s | %.1fx |" % (name, "{:,}".format(a), "{:,}".format(b), b / a)
            for name, a, b in PUBLISHED]


assert set(INDEX_LATCHES + SPACE_LATCHES) == set(HOLD_LATCHES)
