#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Print a result folder's ratio tables again, from its results.csv and
intervals.csv, with the harness's current statistics and steal limit
(metrics.steal_judgement()): a committed result (benchmarks/doc/<name>/)
can be re-checked without re-running it.

  python3 benchmarks/tools/ratios.py DIR [--field throughput|cpu_us_per_txn|p95_ms|p99_ms]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import metrics, optimizer, report  # noqa: E402


def _number(value):
    return float(value) if value not in (None, "", "None") else None


def load(outdir):
    """The rows of results.csv, each with its per-second samples from
    intervals.csv as the run had them: (t, throughput, latency, errors),
    and its steal judged by the current limit."""
    rows = report.read_csv(os.path.join(outdir, "results.csv"))
    samples = {}
    path = os.path.join(outdir, "intervals.csv")
    if os.path.exists(path):
        for i in report.read_csv(path):
            key = (i["server"], i["workload"], i["isolation"], i["threads"], i["rep"])
            samples.setdefault(key, []).append(tuple(
                float(i[f]) if i[f] not in ("", "None") else None
                for f in ("t_s", "throughput", "lat_ms", "errors_per_s")))
    for r in rows:
        r["intervals"] = samples.get(
            (r["server"], r["workload"], r["isolation"], r["threads"], r["rep"]), [])
        point = {f: _number(r.get(f)) for f in ("steal_pct", "wall_s", "data_reads")}
        if point["steal_pct"] is not None and point["wall_s"] is not None:
            r.update(metrics.steal_judgement(point))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--field", default="throughput", choices=sorted(report.TABLE_FIELDS))
    a = ap.parse_args(argv)
    rows = load(a.outdir)
    servers = list(dict.fromkeys(r["server"] for r in rows))
    print("\n".join(report.summary_table(rows, servers, optimizer.reference(servers),
                                         field=a.field)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
