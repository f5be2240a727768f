# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""benchmarks/run: stock, fork and ablations side by side in one run.

  benchmarks/run [--profile smoke|quick|full|io] [--servers stock,fork,ablations]
                 [--servers stock,stock+innodb_thread_concurrency=16,fork+innodb_trx_throttling=32]
                 [--workloads sysbench,tpcc,long-report,split-insert,split-insert-io,...]
                 [--threads 1,4,16] [--isolation RC,RR] [--time S] [--warmup S]
                 [--repeats N] [--server-nodes 0] [--client-nodes 1] [--no-pin]
                 [--server-cpus all|N|LIST] [--client-cpus N|LIST]
                 [--server-cpu-sweep 1,2,4,all] [--membind NODES | --interleave NODES|all]
                 [--fork-build release|debug] [--mysqld-opt k=v ...] [--perf]
                 [--variance-fixes all|none|writeback,warm,settle]
                 [--out DIR] [--workdir DIR]

See benchmarks/README.md."""
import argparse
import datetime
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

from . import metadata, metrics, numa, optimizer, report, variance, workloads
from .server import ROOT, Server, base_cnf, server_specs

POW2 = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]

# The io data sets (workloads.IO_WORKLOADS): the split table of 2.5 KB rows
# and four sysbench tables, about 1.3 GB each, over 8 times the io
# profile's buffer pool (the summary gives each server's sizes).
IO_SETS = dict(io_tables=4, io_table_size=1500000, io_split_rows=500000,
               io_split_threads=[32, 128], io_delete_rows=10)
# The lob-write table's preloaded rows (workloads.LobWrite), their values
# NULL until the run writes them.
LOB_ROWS = 20000

PROFILES = {
    # Seconds, for the test command: one server, tiny data, every workload
    # that needs no extra tool.
    "smoke": dict(servers=["fork"], workloads=["oltp_point_select", "oltp_read_write",
                                               "long-report", "split-insert"]
                  + list(workloads.IO_WORKLOADS) + list(workloads.LOB_WORKLOADS),
                  threads=[1, 2], isolation=["RC"], time=2, warmup=0, repeats=1, tables=1,
                  table_size=1000, warehouses=1, tpcc_threads=[1], tpcc_time=10,
                  long_threads=2, long_time=6, long_delay=1, long_hold=2,
                  split_rows=3000, split_threads=4, split_time=4,
                  io_tables=1, io_table_size=3000, io_split_rows=3000, io_split_threads=[2],
                  io_delete_rows=5, lob_rows=500, buffer_pool="256M", redo="64M"),
    # Minutes, for a small machine: every workload, both servers.
    # stock twice: the A/A twin (stock-2) shows this machine's noise beside
    # every ratio.  Three repetitions, the fewest that give an interval
    # with a usable t quantile; about an hour on 2 cores.
    "quick": dict(servers=["stock", "stock", "fork"],
                  workloads=["sysbench", "tpcc", "long-report", "split-insert"],
                  threads=[1, 16], isolation=["RC", "RR"], time=8, warmup=2, repeats=3,
                  tables=4, table_size=20000, warehouses=2, tpcc_threads=[16], tpcc_time=20,
                  long_threads=8, long_time=40, long_delay=5, long_hold=15,
                  split_rows=40000, split_threads=32, split_time=20,
                  **IO_SETS, lob_rows=LOB_ROWS, buffer_pool="1G", redo="1G"),
    # Hours, for a NUMA server.
    "full": dict(servers=["stock", "fork", "ablations"],
                 workloads=["sysbench", "tpcc", "long-report", "split-insert"],
                 threads=POW2, isolation=["RC", "RR"], time=120, warmup=60, repeats=3,
                 tables=16, table_size=1000000, warehouses=100, tpcc_threads=[16, 64, 256, 1024],
                 tpcc_time=300, long_threads=64, long_time=600, long_delay=60, long_hold=240,
                 split_rows=2000000, split_threads=32, split_time=300,
                 **IO_SETS, lob_rows=10 * LOB_ROWS, buffer_pool="32G", redo="8G"),
    # Half an hour per repetition on 2 cores: the io workloads, their data
    # sets over 8 times the buffer pool, reads past the OS cache (O_DIRECT),
    # each group from the buffer pool its restart emptied; split-insert on a
    # table the buffer pool holds, for the projection's in-memory figures
    # (benchmarks/doc/blink/README.md, "Tables larger than the buffer
    # pool").
    "io": dict(servers=["stock", "stock", "fork-no-btree-blink", "fork"],
               workloads=["split-insert"] + list(workloads.IO_WORKLOADS), threads=[32, 128],
               isolation=["RR"], time=20, warmup=0, repeats=3, tables=1, table_size=1000,
               warehouses=1, tpcc_threads=[1], tpcc_time=10, long_threads=8, long_time=40,
               long_delay=5, long_hold=15, split_rows=20000, split_threads=32, split_time=20,
               **IO_SETS, lob_rows=LOB_ROWS, buffer_pool="128M", redo="256M",
               mysqld_opts=["innodb_flush_method=O_DIRECT"]),
}


EPILOG = """Output in --out: results.csv, one row per server, point and repetition
(throughput, latency, CPU per transaction, errors: sysbench's ignored errors,
1637 among them; trx_sys_mutex_per_txn and trx_sys_mutex_us_per_txn;
the fork's active_rw_ids_mean/_max and throttling_waiting_mean/_max, sampled
once a second, and the throttling counters' deltas throttling_admitted,
_waits, _wait_time_us, _timeouts, _interrupted, empty on stock),
intervals.csv and trx_samples.csv (per-second samples), plots/ (with
<workload>-<iso>-trx.png: the active set over time), summary.md,
metadata.json. See benchmarks/README.md."""


def words(s):
    out = [x.strip() for x in s.split(",") if x.strip()]
    if not out:
        raise argparse.ArgumentTypeError("empty list")
    return out


def ints(s):
    try:
        out = [int(x) for x in words(s)]
    except ValueError:
        raise argparse.ArgumentTypeError("not a list of integers: %r" % s)
    if min(out) < 1:
        raise argparse.ArgumentTypeError("must be positive: %r" % s)
    return out


def arguments(argv):
    ap = argparse.ArgumentParser(prog="benchmarks/run", description=__doc__.split("\n")[0],
                                 epilog=EPILOG)
    ap.add_argument("--profile", choices=sorted(PROFILES), default="quick")
    ap.add_argument("--servers", type=words, help="stock, fork, ablations, fork-no-<switch>,"
                    " each (not ablations) optionally with mysqld options of its own:"
                    " NAME+option=value[+option=value...], e.g. stock+innodb_thread_concurrency=16,"
                    " fork+innodb_trx_throttling=32 (option: a-z, 0-9, _; value: letters, digits,"
                    " '.', '_'); a name given twice runs an A/A twin (stock,stock: stock and"
                    " stock-2; fork+x=1,fork+x=1: fork+x=1 and fork+x=1-2)")
    ap.add_argument("--workloads", type=words)
    ap.add_argument("--threads", type=ints, help="sysbench thread ladder")
    ap.add_argument("--tpcc-threads", type=ints)
    ap.add_argument("--isolation", type=words, help="RC,RR")
    ap.add_argument("--time", type=int, help="seconds per sysbench point")
    ap.add_argument("--warmup", type=int, help="seconds of warm-up per group")
    ap.add_argument("--repeats", type=int)
    ap.add_argument("--tables", type=int)
    ap.add_argument("--table-size", type=int)
    ap.add_argument("--warehouses", type=int)
    ap.add_argument("--tpcc-time", type=int)
    ap.add_argument("--lob-rows", type=int, help="rows lob-write preloads (profile's default)")
    ap.add_argument("--index-pages", action="store_true",
                    help="after each group: wait for purge, record the indexes' pages"
                         " (leaf_pages_after, index_pages_after, leaf_pages_walked_after on its last point)")
    ap.add_argument("--fork-build", choices=["release", "debug"], default="release")
    ap.add_argument("--server-nodes", type=ints, help="NUMA nodes for mysqld")
    ap.add_argument("--client-nodes", type=ints, help="NUMA nodes for the clients")
    ap.add_argument("--no-pin", action="store_true", help="no numactl pinning")
    ap.add_argument("--server-cpus", type=cpus, metavar="all|N|LIST",
                    help="mysqld's CPUs: all, a count (whole cores) or a list such as 0-3,8")
    ap.add_argument("--client-cpus", type=cpus, metavar="all|N|LIST", help="the clients' CPUs")
    ap.add_argument("--server-cpu-sweep", type=sweep, metavar="N,N,...",
                    help="run everything once per mysqld CPU count (all: every CPU),"
                         " into <out>/cpus-<N>/, and tabulate them in <out>/sweep.md")
    ap.add_argument("--membind", type=ints, metavar="NODES", help="mysqld's memory on these nodes")
    ap.add_argument("--interleave", type=nodes_or_all, metavar="NODES|all",
                    help="mysqld's memory interleaved over these nodes")
    ap.add_argument("--buffer-pool", help="innodb_buffer_pool_size (profile's default)")
    ap.add_argument("--redo", help="innodb_redo_log_capacity (profile's default)")
    ap.add_argument("--mysqld-opt", action="append", default=[], metavar="K=V",
                    help="extra [mysqld] option for every server (a server's own"
                         " +option=value replaces it for that server)")
    ap.add_argument("--perf", action="store_true", help="perf profile of each group (linux-perf)")
    ap.add_argument("--variance-fixes", type=fixes, default=set(variance.FIXES), metavar="LIST",
                    help="writeback, warm, settle, all (default) or none: see benchmarks/README.md")
    ap.add_argument("--port", type=int, default=3400, help="first TCP port")
    ap.add_argument("--out", help="results directory (default benchmarks/results/<time>-<profile>)")
    ap.add_argument("--workdir", default=os.path.join(ROOT, "build", "bench"),
                    help="data directories and saved data sets (default build/bench)")
    a = ap.parse_args(argv)
    p = dict(PROFILES[a.profile])
    for k in ("servers", "workloads", "threads", "tpcc_threads", "isolation", "time", "warmup",
              "repeats", "tables", "table_size", "warehouses", "tpcc_time", "lob_rows",
              "buffer_pool", "redo"):
        if getattr(a, k) is not None:
            p[k] = getattr(a, k)
    for iso in p["isolation"]:
        if iso not in workloads.ISOLATION:
            ap.error("unknown isolation %r: RC or RR" % iso)
    if p["repeats"] < 1:
        ap.error("--repeats must be at least 1")
    try:  # a malformed server name fails here, before any server is built
        server_specs(p["servers"], a.fork_build)
    except ValueError as e:
        ap.error(str(e))
    placed = [o for o in ("server_cpus", "client_cpus", "server_cpu_sweep", "membind",
                          "interleave") if getattr(a, o) is not None]
    if a.no_pin and placed:
        ap.error("--no-pin and --%s exclude each other" % placed[0].replace("_", "-"))
    if a.server_cpu_sweep and a.server_cpus is not None:
        ap.error("--server-cpu-sweep sets --server-cpus itself")
    if (a.server_cpus is not None or a.client_cpus is not None or a.server_cpu_sweep) and \
            (a.server_nodes or a.client_nodes):
        ap.error("choose CPUs (--server-cpus, --client-cpus) or nodes (--server-nodes,"
                 " --client-nodes), not both")
    return a, p


def cpus(s):
    try:
        return numa.cpu_spec(s)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def sweep(s):
    out = [cpus(x) for x in words(s)]
    if any(isinstance(x, list) for x in out):
        raise argparse.ArgumentTypeError("a sweep is of CPU counts or all: %r" % s)
    return out


def nodes_or_all(s):
    return "all" if s.strip() == "all" else ints(s)


def fixes(s):
    try:
        return variance.fixes(s)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def pinning(a, p):
    """Where mysqld and the clients run (numa.py), with its warnings."""
    if a.no_pin:
        return {"server": [], "client": [], "note": "not pinned (--no-pin)", "warnings": []}
    if not shutil.which("numactl"):
        raise RuntimeError("numactl not found: run `make deps` or pass --no-pin")
    nodes = numa.from_sysfs()
    if not nodes:
        nodes = numa.from_numactl(subprocess.run(["numactl", "--hardware"], text=True,
                                                 stdout=subprocess.PIPE).stdout)
    # Only the CPUs this process may use (containers, taskset).
    allowed = os.sched_getaffinity(0)
    nodes = {n: c for n, c in ((n, [c for c in cs if c in allowed]) for n, cs in nodes.items()) if c}
    if a.server_cpus is not None or a.client_cpus is not None:
        plan = numa.cpu_plan(sorted(allowed), a.server_cpus, a.client_cpus, numa.cores_from_sysfs())
    else:
        plan = numa.plan(nodes, a.server_nodes, a.client_nodes)
    return numa.memory_policy(plan, nodes, a.membind, a.interleave, numa.node_memory(),
                              numa.parse_size(buffer_pool(a, p)))


def buffer_pool(a, p):
    """innodb_buffer_pool_size as the servers get it: a --mysqld-opt that
    sets it comes after the profile's in my.cnf and wins; a server's own
    option (stock+innodb_buffer_pool_size=8G) wins for that server, and the
    largest is what the memory check must fit."""
    size = p["buffer_pool"]
    for opt in a.mysqld_opt:
        k, _, v = opt.partition("=")
        if k.strip().replace("-", "_") == "innodb_buffer_pool_size":
            size = v.strip()
    own = [spec["options"]["innodb_buffer_pool_size"]
           for spec in server_specs(p["servers"], a.fork_build)
           if "innodb_buffer_pool_size" in spec["options"]]
    return max([size] + own, key=numa.parse_size) if own else size


def sweep_clients(a):
    """Check every count of --server-cpu-sweep against this machine before
    the first run, and fix the clients' CPUs for the whole sweep, so that
    only mysqld's change from one count to the next: --client-cpus if
    given, else the CPUs the largest count leaves, else (it leaves none)
    all of them, overlap reported by each run."""
    allowed, cores = sorted(os.sched_getaffinity(0)), numa.cores_from_sysfs()
    largest = []
    for count in a.server_cpu_sweep:
        cpus = numa.choose(count, allowed, cores)  # ValueError: not placeable
        largest = max(largest, cpus, key=len)
    if a.client_cpus is not None:
        return a.client_cpus
    return [c for c in allowed if c not in largest] or allowed


class Progress:
    def __init__(self, total):
        self.t0, self.done, self.total = time.monotonic(), 0, total

    def __call__(self, msg):
        el = time.monotonic() - self.t0
        print("[%5.0fs %d/%d] %s" % (el, self.done, self.total, msg), file=sys.stderr, flush=True)


def perf_start(server, path):
    if not shutil.which("perf"):
        raise RuntimeError("--perf needs perf: apt-get install linux-perf")
    return subprocess.Popen(["perf", "record", "-F", "99", "-g", "-p", str(server.pid), "-o", path],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def perf_stop(proc, path):
    proc.send_signal(2)
    proc.wait()
    with open(path + ".txt", "w") as f:
        subprocess.run(["perf", "report", "--stdio", "--no-children", "-i", path, "--percent-limit", "1"],
                       stdout=f, stderr=subprocess.DEVNULL)
    if shutil.which("stackcollapse-perf.pl") and shutil.which("flamegraph.pl"):
        subprocess.run("perf script -i %s | stackcollapse-perf.pl | flamegraph.pl > %s.svg"
                       % (shlex.quote(path), shlex.quote(path)), shell=True)


def source_sha256():
    """The sha256 the upstream source tarball is pinned by (scripts/lib.sh)."""
    try:
        with open(os.path.join(ROOT, "scripts", "lib.sh")) as f:
            for line in f:
                if line.startswith("ORIG_SHA256="):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None


def run(a, p, outdir, log_progress):
    plan = pinning(a, p)
    specs = server_specs(p["servers"], a.fork_build)
    file_dir = os.path.join(a.workdir, "files")  # secure_file_priv: must exist at startup
    os.makedirs(file_dir, exist_ok=True)
    cnf = base_cnf({"buffer_pool": p["buffer_pool"], "redo": p["redo"],
                    "mysqld_opts": p.get("mysqld_opts", []) + a.mysqld_opt,
                    "file_dir": file_dir, "warm": "warm" in a.variance_fixes})
    servers = [Server(s, a.workdir, a.port + i, cnf, plan["server"]) for i, s in enumerate(specs)]
    wls = workloads.make(p["workloads"])
    rawdir = os.path.join(outdir, "raw")
    os.makedirs(rawdir, exist_ok=True)
    ctx = workloads.Context(p, plan["client"], rawdir, None, a.variance_fixes, file_dir)
    datasets = list(dict.fromkeys(w.dataset for w in wls))
    groups = sum(len(w.groups(p)) for w in wls) * p["repeats"] * len(servers)
    progress = Progress(groups + len(datasets) * len(servers))
    ctx.log = progress
    info = {"profile": a.profile, "pinning": plan["note"], "repeats": p["repeats"],
            "versions": {}, "variables": {}, "servers": servers,
            "machine": report.machine(), "interrupted": False,
            "fixes": sorted(a.variance_fixes), "exported": ctx.exported,
            "data_mb": ctx.data_mb, "buffer_pool": cnf["innodb_buffer_pool_size"],
            "durations": "%d s per sysbench point, %d s warm-up per group" % (p["time"], p["warmup"])}
    progress("pinning: " + plan["note"])
    for w in plan["warnings"]:
        progress("warning: " + w)
    info["warnings"] = plan["warnings"]
    try:
        for s in servers:
            s.binary("mysqld")  # fail early on a missing build
            progress("%s: initializing an empty data directory" % s.name)
            s.initialize()
            s.save("empty")
        for ds in datasets:
            mine = [w for w in wls if w.dataset == ds]
            for s in servers:
                progress("%s: preparing data set %s" % (s.name, ds))
                s.restore("empty")
                s.start()
                try:
                    info["versions"][s.name] = s.version()
                    info["variables"][s.name] = dict(
                        (row + [""])[:2] for row in s.rows("SHOW GLOBAL VARIABLES"))
                    mine[0].prepare(s, ctx)
                finally:
                    s.stop()
                s.save(ds)
                progress.done += 1
            for rep in range(p["repeats"]):
                order = servers if rep % 2 == 0 else servers[::-1]
                for w in mine:
                    for g in w.groups(p):
                        for pos, s in enumerate(order):
                            s.restore(ds)
                            waits = variance.wait_writeback() if "writeback" in ctx.fixes else {}
                            s.start()
                            if "warm" in ctx.fixes:
                                waits.update(variance.warm(s, scan=not w.cold))
                            if waits:
                                progress("  %s: %s" % (s.name, ", ".join(
                                    "%s %s" % kv for kv in sorted(waits.items()))))
                            perf = None
                            if a.perf:
                                path = os.path.join(rawdir, s.name, "perf-%s-%s-r%d.data"
                                                    % (w.name, g["isolation"], rep))
                                perf = perf_start(s, path)
                            try:
                                row = None
                                for row in w.run_group(s, ctx, g, rep):
                                    row.update(waits, rep=rep, server=s.name, order=pos, dataset=ds,
                                               server_cpus=len(plan.get("server_cpus") or ()) or None)
                                    ctx.rows.append(row)
                                    log_progress(progress, row)
                                if a.index_pages and row is not None:
                                    before = metrics.index_metrics(s)
                                    # purge frees what the group deleted
                                    row["settle_after_s"] = variance.settle(s).get("settle_s")
                                    after = metrics.index_metrics(s)
                                    for col in ("page_merges", "page_discards"):
                                        row[col + "_after"] = after[col] - before[col]
                                    row.update(optimizer.index_pages(s))
                                    progress("    -> index pages %(index_pages_after)s,"
                                             " leaf pages %(leaf_pages_after)s,"
                                             " walked %(leaf_pages_walked_after)s" % row)
                            finally:
                                if perf:
                                    perf_stop(perf, path)
                                s.stop()
                            progress.done += 1
    except KeyboardInterrupt:
        info["interrupted"] = True
        progress("interrupted: stopping the servers, keeping what was measured")
    except Exception as e:  # keep what was measured; the summary names the error
        info["error"] = "%s: %s" % (type(e).__name__, e)
        progress("error: %s; stopping the servers, keeping what was measured" % info["error"])
    finally:
        for s in servers:
            s.stop()
    return ctx, info, [s.name for s in servers]


def log_row(progress, row):
    us = row.get("cpu_us_per_txn")
    progress("    -> %.1f %s, P95 %s ms, server CPU %.2f (%s us/txn), steal %.1f%%%s%s" % (
        row["throughput"], row["unit"], row.get("p95_ms"), row["cpu_server"],
        "-" if us is None else "%.0f" % us, row["steal_pct"],
        ", settled in %.1f s" % row["settle_s"] if "settle_s" in row else "",
        "" if row.get("check") in (None, "ok") else ", check " + row["check"]))


def interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM, SIGHUP: stop the servers like Ctrl-C


def reproduce_command(args, profile):
    """The command line for the summary, naming the profile even when it
    was the default (`make bench` with no BENCH)."""
    if not any(x == "--profile" or x.startswith("--profile=") for x in args):
        args = ["--profile", profile] + list(args)
    return "benchmarks/run " + " ".join(shlex.quote(x) for x in args)


def measure_into(a, p, outdir, command):
    """One run into outdir: results.csv and the rest, summary.md,
    metadata.json.  Returns the exit status and (rows, server names)."""
    os.makedirs(outdir, exist_ok=True)
    try:
        ctx, info, names = run(a, p, outdir, log_row)
    except (RuntimeError, ValueError) as e:  # before anything was measured
        sys.exit("benchmarks/run: %s" % e)
    info["command"] = command
    report.write_csv(os.path.join(outdir, "results.csv"), ctx.rows)
    report.write_intervals(os.path.join(outdir, "intervals.csv"), ctx.rows)
    report.write_trx_samples(os.path.join(outdir, "trx_samples.csv"), ctx.rows)
    report.write_timeline(os.path.join(outdir, "timeline.csv"), ctx.timelines)
    report.write_table_stats(os.path.join(outdir, "tablestats.csv"), ctx.table_stats)
    report.write_plans(os.path.join(outdir, "explain.csv"), ctx.plans)
    info["plots"] = report.plot(outdir, ctx.rows, ctx.timelines, names) if ctx.rows else []
    lines = report.write_summary(outdir, ctx.rows, ctx.timelines, names, info,
                                 ctx.table_stats, ctx.plans)
    metadata.write(os.path.join(outdir, "metadata.json"), ROOT, source_sha256(), info["servers"],
                   info["variables"], workloads.GO_TPC, command)
    print("\n".join(lines))
    print("\nresults: %s" % outdir, file=sys.stderr)
    failed = report.checks(ctx.rows) + optimizer.failures(ctx.table_stats, ctx.plans, names)
    if info.get("error"):
        print("benchmarks/run: %s" % info["error"], file=sys.stderr)
        return 1, (ctx.rows, names)
    if info["interrupted"]:
        return 130, (ctx.rows, names)
    return (1 if failed or not ctx.rows else 0), (ctx.rows, names)


def main(argv=None):
    a, p = arguments(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGHUP, interrupt)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    outdir = a.out or os.path.join(ROOT, "benchmarks", "results", "%s-%s" % (stamp, a.profile))
    command = reproduce_command(sys.argv[1:] if argv is None else argv, a.profile)
    if not a.server_cpu_sweep:
        return measure_into(a, p, outdir, command)[0]
    # The sweep: the whole run once per mysqld CPU count, then one table.
    try:
        a.client_cpus = sweep_clients(a)
    except ValueError as e:
        sys.exit("benchmarks/run: --server-cpu-sweep: %s" % e)
    runs, status = [], 0
    for count in a.server_cpu_sweep:
        a.server_cpus = count
        rc, (rows, names) = measure_into(a, p, os.path.join(outdir, "cpus-%s" % count), command)
        runs.append((count, rows))
        status = status or rc
        if rc == 130:
            break
    lines = report.write_sweep(os.path.join(outdir, "sweep.md"), runs, names, command)
    print("\n".join(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
