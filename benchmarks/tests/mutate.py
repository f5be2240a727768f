#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Mutation check of the harness's arithmetic and flow (issue 22, item 7).

Each mutation below is a small wrong change a reviewer could miss: CPU time
from utime alone or from the clients, not divided by wall time, CPU per
transaction from NEW_ORDER alone, a limit's `>` turned into `>=`, the
server order never alternated, a variance fix never called, the interval
or its correction computed wrongly, a server's own options lost, the
throttling counters or trx_sys->mutex not per point or transaction,
sysbench's ignore list replaced.  The harness's tests (discovered in
this folder, the mutation checker itself left out) run against a copy of
benchmarks/ with one mutation applied; a test must fail.  Prints one line a
mutation and "mutations: N killed, N survived", where every verdict but
killed counts as survived: the tests passed, the mutation broke an import
(no test caught anything), they hung, or its text is no longer in the code
(update the list); exits 1 if any did.

  python3 benchmarks/tests/mutate.py [-j 2] [NAME-SUBSTRING]"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)
TIMEOUT_S = 300  # the tests take seconds; a mutation that hangs them fails

# (name, file under benchmarks/innobench, text, replacement)
MUTATIONS = [
    ("cpu from utime only", "metrics.py",
     "(int(fields[11]) + int(fields[12]))", "int(fields[11])"),
    ("cpu from the clients", "metrics.py",
     "server = proc_cpu_seconds(self.pid) - self.s0", "server = children_cpu_seconds() - self.c0"),
    ("server cpu not divided by wall time", "metrics.py",
     '"cpu_server": server / wall if wall else 0.0', '"cpu_server": server'),
    ("client cpu not divided by wall time", "metrics.py",
     "(children_cpu_seconds() - self.c0) / wall if wall else 0.0", "(children_cpu_seconds() - self.c0)"),
    ("cpu per transaction from NEW_ORDER only", "workloads.py",
     'transactions = row.get("all_transactions", row.get("transactions"))',
     'transactions = row.get("transactions")'),
    ("cpu per transaction in ms", "metrics.py",
     "cpu_seconds / transactions * 1e6", "cpu_seconds / transactions * 1e3"),
    ("steal from softirq", "metrics.py", "100.0 * delta[7] / total", "100.0 * delta[6] / total"),
    ("steal limit >=", "metrics.py", 'int(row["steal_pct"] > limit)', 'int(row["steal_pct"] >= limit)'),
    ("steal limit without reads", "metrics.py", "STEAL_PCT_PER_KREAD_S * rate / 1000.0", "0.0"),
    ("error limit >=", "report.py",
     "float(errors) > ERROR_SHARE_LIMIT", "float(errors) >= ERROR_SHARE_LIMIT"),
    ("gate >= and <=", "report.py",
     'elif r["low"] > 1 or r["high"] < 1:', 'elif r["low"] >= 1 or r["high"] <= 1:'),
    ("no order alternation", "main.py",
     "order = servers if rep % 2 == 0 else servers[::-1]", "order = servers"),
    ("write-back never waited for", "main.py",
     'waits = variance.wait_writeback() if "writeback" in ctx.fixes else {}', "waits = {}"),
    ("warm-up never run", "main.py", 'if "warm" in ctx.fixes:', "if False:"),
    ("settle never run", "workloads.py",
     'return variance.settle(server) if "settle" in self.fixes else {}', "return {}"),
    ("settle timeout not excluded", "report.py",
     'for wait in ("settle", "writeback"):', 'for wait in ("writeback",):'),
    ("excluded repetitions in the medians", "report.py",
     "kept = {s: [r for r in by_server.get(s, []) if not excluded(r)] for s in servers}",
     "kept = {s: list(by_server.get(s, [])) for s in servers}"),
    ("A/A twins that differ ignored", "report.py", "elif aa_differs:", "elif False:"),
    ("pooled degrees of freedom", "stats.py",
     "df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))",
     "df = len(la) + len(lb) - 2"),
    ("no Bonferroni correction", "stats.py",
     "return 1.0 - (1.0 - family) / max(1, n_ratios)", "return family"),
    ("ratio of medians of logs", "stats.py",
     "d = statistics.fmean(la) - statistics.fmean(lb)",
     "d = statistics.median(la) - statistics.median(lb)"),
    ("detectable effect without power", "stats.py",
     "+ t_quantile(power, df)) * se)", ") * se)"),
    ("percentile one bucket late", "parse.py", "if seen >= need:", "if seen > need:"),
    ("handler reads not per transaction", "metrics.py",
     '"handler_reads_per_txn": handler / transactions', '"handler_reads_per_txn": handler'),
    ("split-insert row count not checked", "workloads.py",
     'check[-1] == "OK" and count == expected', 'check[-1] == "OK"'),
    ("SMT siblings split", "numa.py", "        out += g\n", "        out += g[:1]\n"),
    ("clients' count from the first core", "numa.py",
     "taken=srv or (), from_end=True)", "taken=srv or ())"),
    ("windows pooled without the F test", "stats.py",
     "    if repetitions_p(groups) <= alpha:\n        return None\n", ""),
    ("windows pooled despite autocorrelation", "stats.py",
     "if window_autocorrelation(groups) > MAX_WINDOW_AUTOCORRELATION:", "if False:"),
    ("TPC-C errors against tpmC", "report.py",
     '(60.0 if row.get("unit") == "tpmC" else 1.0)', "1.0"),
    ("sweep twins bold", "report.py", "if (baseline, s) in pairs:\n                    cells",
     "if False:\n                    cells"),
    ("windows where a twin does not pool", "report.py",
     "if not all(pooled[s] for s in servers if kept[s]):", "if False:"),
    ("warm-up window kept", "stats.py",
     "def windows(samples, seconds=WINDOW_S, skip=1):", "def windows(samples, seconds=WINDOW_S, skip=0):"),
    ("deadlocks not per second", "workloads.py",
     '(metrics.deadlocks(server) - deadlocks) / row["wall_s"]', "(metrics.deadlocks(server) - deadlocks)"),
    ("cpu sweep ratios not corrected", "report.py",
     "len(pts) * len(runs) * sum((baseline, s) not in pairs for s in others))", "1)"),
    # Transaction throttling: server variants, the active set, trx_sys->mutex, 1637.
    ("a server's options not in its cnf", "server.py", "    out.update(options)\n", ""),
    ("shared option kept beside a server's own", "server.py",
     'if k.replace("-", "_") not in options', "if k not in options"),
    ("'-' allowed in an option value", "server.py",
     'OPTION_VALUE = re.compile(r"^[A-Za-z0-9_.]+$")', 'OPTION_VALUE = re.compile(r"^[A-Za-z0-9_.-]+$")'),
    ("harness's own options overridable", "server.py", "if key in RESERVED_OPTIONS:", "if False:"),
    ("active set mean with the first and last sample", "metrics.py",
     "vals = vals[1:-1] if len(vals) >= 3 else vals", "vals = vals"),
    ("stock's empty samples kept", "metrics.py", "if any(v is not None for v in g)", "if True"),
    ("throttling counters not deltas", "metrics.py", "after[c] - before.get(c, 0)", "after[c]"),
    ("trx_sys mutex not per transaction", "metrics.py",
     '"trx_sys_mutex_per_txn": count / transactions', '"trx_sys_mutex_per_txn": count'),
    ("trx_sys mutex wait in ms per transaction", "metrics.py",
     "ms * 1e3 / transactions", "ms / transactions"),
    ("sysbench's own ignore list replaced", "workloads.py",
     "list(SYSBENCH_IGNORED_ERRORS) + [THROTTLING_TIMEOUT]", "[THROTTLING_TIMEOUT]"),
    ("1637 not ignored", "workloads.py",
     "list(SYSBENCH_IGNORED_ERRORS) + [THROTTLING_TIMEOUT]", "list(SYSBENCH_IGNORED_ERRORS)"),
    ("split inserts stop at 1637", "workloads.py",
     'extra = ignored_errors(extra) if command == "run" else list(extra)\n        return',
     "extra = list(extra)\n        return"),
    ("prepare ignores errors", "workloads.py",
     'extra = ignored_errors(extra) if command == "run" else list(extra)\n    return',
     "extra = ignored_errors(extra)\n    return"),
    ("error count from the rate", "parse.py", 'out["errors"] = int(found["errors"].group(1))',
     'out["errors"] = int(float(found["errors"].group(2)))'),
    ("queue wait not per queued request", "report.py", "wait_us / waits / 1e3", "wait_us / 1e3"),
    ("waits per admission inverted", "report.py", "share = waits / admitted", "share = admitted / waits"),
    ("iowait from idle", "metrics.py", "100.0 * delta[4] / total", "100.0 * delta[3] / total"),
    ("hold time per split in ns", "report.py",
     'latch + "_hold_ns", 1e-3)', 'latch + "_hold_ns", 1.0)'),
    ("io ids not spread", "workloads.py", "return 2 ** 32 // table_size", "return 1"),
]


def run_one(mutation):
    """'killed' (a test failed), 'survived' (all passed), 'broken' (the
    mutation broke an import), 'timeout' or 'stale' (its text is no longer
    there)."""
    name, path, old, new = mutation
    with tempfile.TemporaryDirectory() as d:
        # The tree around benchmarks/ (git, scripts/) by symlinks: the tests
        # read it through the harness's ROOT.
        for top in os.listdir(ROOT):
            if top != "benchmarks":
                os.symlink(os.path.join(ROOT, top), os.path.join(d, top))
        copy = os.path.join(d, "benchmarks")
        for sub in os.listdir(BENCH):
            if sub not in ("innobench", "tests", "results"):
                os.makedirs(copy, exist_ok=True)
                os.symlink(os.path.join(BENCH, sub), os.path.join(copy, sub))
        shutil.copytree(os.path.join(BENCH, "innobench"), os.path.join(copy, "innobench"))
        shutil.copytree(os.path.join(BENCH, "tests"), os.path.join(copy, "tests"))
        target = os.path.join(copy, "innobench", path)
        with open(target) as f:
            text = f.read()
        if text.count(old) != 1 and old:
            return "stale"
        with open(target, "w") as f:
            f.write(text.replace(old, new))
        # -f: the first failing test kills the mutation, the rest need not run.
        try:
            r = subprocess.run([sys.executable, "-m", "unittest", "discover", "-f", "-s",
                                os.path.join(copy, "tests"), "-p", "test_*.py"],
                               cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "timeout"
        if r.returncode == 0:
            return "survived"
        # A mutation that breaks an import fails every test at once: that is
        # the mutation's fault, not a test's catch.
        return "broken" if "_FailedTest" in r.stdout else "killed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-j", type=int, default=2, help="mutations tested at once")
    ap.add_argument("only", nargs="?", default="", help="mutations whose name contains this")
    a = ap.parse_args()
    chosen = [m for m in MUTATIONS if a.only in m[0]]
    # The copy unmutated must pass, or every "killed" below means nothing.
    if run_one(("none", "stats.py", "", "")) != "survived":
        print("the harness's tests fail without a mutation: fix them first")
        return 1
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        verdicts = list(pool.map(run_one, chosen))
    for m, v in zip(chosen, verdicts):
        print("%-9s %s" % (v, m[0]))
    killed = verdicts.count("killed")
    print("mutations: %d killed, %d survived" % (killed, len(verdicts) - killed))
    return 0 if chosen and killed == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
