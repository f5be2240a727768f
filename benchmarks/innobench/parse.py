# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Parsers for the output of sysbench 1.0.x and go-tpc."""
import re

_NUM = r"([0-9]+(?:\.[0-9]+)?)"

_SB_INTERVAL = re.compile(
    r"^\[ *" + _NUM + r"s \] thds: (\d+) tps: " + _NUM + r" qps: " + _NUM +
    r" \(r/w/o: [0-9./]+\) lat \(ms,(\d+)%\): " + _NUM + r" err/s: " + _NUM)


def sysbench(text):
    """Final report and per-interval lines of a sysbench run.

    Returns a dict: tps, qps, writes (write queries), errors (sysbench's
    "ignored errors": every error of its --mysql-ignore-errors list, the
    transaction restarted), errors_per_s, reconnects_per_s, lat_avg_ms,
    lat_min_ms, lat_max_ms,
    lat_pct (the percentile sysbench was asked for, e.g. 95), lat_pct_ms,
    total_time_s, transactions, intervals (list of dicts t, threads, tps, qps,
    lat_ms, err_per_s).  Raises ValueError if the final report is missing."""
    out = {"intervals": []}
    for line in text.splitlines():
        m = _SB_INTERVAL.match(line.strip())
        if m:
            out["intervals"].append(dict(
                t=float(m.group(1)), threads=int(m.group(2)), tps=float(m.group(3)),
                qps=float(m.group(4)), lat_pct=int(m.group(5)), lat_ms=float(m.group(6)),
                err_per_s=float(m.group(7))))
    fields = {
        "transactions": r"^\s*transactions:\s+(\d+)\s+\(" + _NUM + r" per sec\.\)",
        "queries": r"^\s*queries:\s+(\d+)\s+\(" + _NUM + r" per sec\.\)",
        "writes": r"^\s*write:\s+(\d+)\s*$",
        "errors": r"^\s*ignored errors:\s+(\d+)\s+\(" + _NUM + r" per sec\.\)",
        "reconnects": r"^\s*reconnects:\s+(\d+)\s+\(" + _NUM + r" per sec\.\)",
        "total_time_s": r"^\s*total time:\s+" + _NUM + r"s",
        "lat_min_ms": r"^\s*min:\s+" + _NUM,
        "lat_avg_ms": r"^\s*avg:\s+" + _NUM,
        "lat_max_ms": r"^\s*max:\s+" + _NUM,
        "lat_pct": r"^\s*(\d+)th percentile:\s+" + _NUM,
    }
    found = {k: re.search(p, text, re.M) for k, p in fields.items()}
    if not found["transactions"] or not found["total_time_s"]:
        raise ValueError("no sysbench final report in output")
    out["transactions"] = int(found["transactions"].group(1))
    out["tps"] = float(found["transactions"].group(2))
    if found["queries"]:
        out["qps"] = float(found["queries"].group(2))
    if found["writes"]:
        out["writes"] = int(found["writes"].group(1))
    if found["errors"]:
        out["errors"] = int(found["errors"].group(1))
        out["errors_per_s"] = float(found["errors"].group(2))
    if found["reconnects"]:
        out["reconnects_per_s"] = float(found["reconnects"].group(2))
    out["total_time_s"] = float(found["total_time_s"].group(1))
    for k in ("lat_min_ms", "lat_avg_ms", "lat_max_ms"):
        if found[k]:
            out[k] = float(found[k].group(1))
    if found["lat_pct"]:
        out["lat_pct"] = int(found["lat_pct"].group(1))
        out["lat_pct_ms"] = float(found["lat_pct"].group(2))
    return out


_TPC_LINE = re.compile(r"^\[(Summary|Current)\] (\S+) - (.*)$")


def _gotpc_values(text):
    """"Takes(s): 1.0, Count: 12, TPM: 720.0, ..." -> {"Takes(s)": 1.0, ...}"""
    vals = {}
    for item in text.split(","):
        if ":" in item:
            k, v = item.split(":", 1)
            try:
                vals[k.strip()] = float(v.strip())
            except ValueError:
                pass
    return vals


def gotpc(text, interval_s=1.0):
    """The summary of a go-tpc tpcc run: tpmC, efficiency and, per
    transaction type, count, tpm, avg/p50/p90/p95/p99/p99.9/max latency (ms);
    intervals: (t, tpmC, NEW_ORDER P95 ms, NEW_ORDER errors/s) per block of
    [Current] lines (--interval interval_s), t the block's end.  go-tpc
    prints a block's lines in name order and leaves out a type with no
    operation in the interval: a name not after the previous one starts a
    new block, and a block without NEW_ORDER is a second with tpmC 0.
    Raises ValueError if there is no tpmC line."""
    ops, blocks, last = {}, [], None
    for line in text.splitlines():
        m = _TPC_LINE.match(line.strip())
        if not m:
            continue
        kind, name, vals = m.group(1), m.group(2), _gotpc_values(m.group(3))
        if kind == "Current":
            if last is None or name <= last:
                blocks.append({})
            blocks[-1][name] = vals
            last = name
            continue
        ops[name] = {
            "count": vals.get("Count"), "tpm": vals.get("TPM"), "avg_ms": vals.get("Avg(ms)"),
            "p50_ms": vals.get("50th(ms)"), "p90_ms": vals.get("90th(ms)"),
            "p95_ms": vals.get("95th(ms)"), "p99_ms": vals.get("99th(ms)"),
            "p999_ms": vals.get("99.9th(ms)"), "max_ms": vals.get("Max(ms)"),
            "takes_s": vals.get("Takes(s)")}
    intervals = []
    for i, block in enumerate(blocks, 1):
        new_order = block.get("NEW_ORDER", {})
        errors = block.get("NEW_ORDER_ERR", {}).get("Count") or 0.0
        intervals.append((round(i * interval_s, 1),
                          new_order.get("Count", 0.0) * 60.0 / interval_s,
                          new_order.get("95th(ms)"), errors / interval_s))
    m = re.search(r"^tpmC: " + _NUM + r"(?:, tpmTotal: " + _NUM + r")?, efficiency: " + _NUM + "%",
                  text, re.M)
    if not m:
        raise ValueError("no tpmC line in go-tpc output")
    out = {"tpmC": float(m.group(1)), "efficiency_pct": float(m.group(3)), "ops": ops,
           "intervals": intervals}
    if m.group(2):
        out["tpmTotal"] = float(m.group(2))
    return out


_SB_HIST = re.compile(r"^\s*" + _NUM + r" \|\**\s+(\d+)$")


def sysbench_histogram(text):
    """[(latency_ms, count)] from the report of `sysbench --histogram=on`."""
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("Latency histogram"):
            inside = True
            continue
        if inside:
            m = _SB_HIST.match(line)
            if m:
                out.append((float(m.group(1)), int(m.group(2))))
            elif out:
                break
    return out


def percentile(histogram, pct):
    """The smallest latency with at least pct % of the events at or below it."""
    total = sum(c for _, c in histogram)
    if not total:
        return None
    need, seen = total * pct / 100.0, 0
    for value, count in sorted(histogram):
        seen += count
        if seen >= need:
            return value
    return histogram[-1][0]


def gotpc_check(text):
    """'ok' if `go-tpc tpcc check` ran its checks and none failed, else
    'FAILED: <first failure>'."""
    for line in text.splitlines():
        if "failed" in line:
            return "FAILED: " + line.strip()
    if "begin to check" not in text:
        return "FAILED: no consistency check ran"
    return "ok"
