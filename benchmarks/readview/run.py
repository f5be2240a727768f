#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Benchmark (not a test) of opening a read view, of the trx_sys->mutex
critical section around it, and of a visibility check, stock algorithm vs
the hybrid sets, for 1..10,000 active transactions.

Instructions per operation come from valgrind --tool=callgrind (repeatable);
time per operation is the median of REPEATS runs on this machine, with the
min-max spread.  Stock and hybrid run interleaved in one invocation.
The operations are described in unittest/gunit/innodb/read0hybrid-bench.cc.

  benchmarks/readview/run.py [--repeats 11] [--out DIR]
"""
import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAST = os.path.join(ROOT, "build", "fast")
SIZES = [1, 2, 10, 50, 100, 1000, 10000]
OPS = ["open", "critical", "visible"]
VARIANTS = [("stock", "read0hybrid-bench", "stock"),
            ("hybrid-8k", "read0hybrid-bench", "hybrid"),
            ("hybrid-2k", "read0hybrid-bench-2k", "hybrid"),
            # what a visibility check cost with the sharded counter it had
            ("counted", "read0hybrid-bench", "hybrid-counted")]
CG_ITER = {"open": 2000, "critical": 2000, "visible": 100000}
TIME_ITER = {"open": 20000, "critical": 20000, "visible": 2000000}


def build():
    subprocess.run(["cmake", "-S", ROOT, "-B", FAST, "-G", "Ninja"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", FAST, "read0hybrid-bench", "read0hybrid-bench-2k"],
                   check=True, stdout=subprocess.DEVNULL)


def run(binary, algo, op, n, iters, repeats):
    out = subprocess.run([os.path.join(FAST, "bench", binary), algo, op, str(n),
                          str(iters), str(repeats)],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    f = out.strip().split(",")
    return {"bytes": int(f[4]), "ns": float(f[5]), "ns_min": float(f[6]), "ns_max": float(f[7])}


def instructions(binary, algo, op, n):
    """Instructions per operation inside the measured loop."""
    with tempfile.TemporaryDirectory() as tmp:
        cg = os.path.join(tmp, "cg.out")
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
                            "--toggle-collect=*bench_%s*" % op,
                            os.path.join(FAST, "bench", binary), algo, op, str(n),
                            str(CG_ITER[op]), "1"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        m = re.search(r"Collected : (\d+)", r.stderr) or re.search(r"refs:\s+([\d,]+)", r.stderr)
        if r.returncode != 0 or not m:
            sys.exit("callgrind failed: %s" % r.stderr[-500:])
        return int(m.group(1).replace(",", "")) / CG_ITER[op]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=11)
    ap.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results", "readview"))
    a = ap.parse_args()
    build()
    rows = []
    for n in SIZES:
        for op in OPS:
            for name, binary, algo in VARIANTS:
                if name == "counted" and op != "visible":
                    continue
                t = run(binary, algo, op, n, TIME_ITER[op], a.repeats)
                ir = instructions(binary, algo, op, n)
                rows.append(dict(variant=name, op=op, n_active=n, instr=round(ir, 1), **t))
                print("%-9s %-7s n=%-6d %8.1f instr/op %9.2f ns/op (%.2f-%.2f) %6d bytes/view"
                      % (name, op, n, ir, t["ns"], t["ns_min"], t["ns_max"], t["bytes"]),
                      file=sys.stderr)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "readview.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    get = {(r["variant"], r["op"], r["n_active"]): r for r in rows}
    print("| active trx | op | stock instr | hybrid-8k instr | stock/hybrid | stock ns (min-max) "
          "| hybrid-8k ns (min-max) | hybrid-2k instr | hybrid counted instr "
          "| stock bytes/view | hybrid-8k bytes | hybrid-2k bytes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in SIZES:
        for op in OPS:
            s, h, h2 = (get[(v, op, n)] for v in ("stock", "hybrid-8k", "hybrid-2k"))
            c = get.get(("counted", op, n))
            b = (lambda r: r["bytes"]) if op == "open" else (lambda r: "")
            print("| %d | %s | %.1f | %.1f | %.1fx | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.1f | %s "
                  "| %s | %s | %s |"
                  % (n, op, s["instr"], h["instr"], s["instr"] / h["instr"],
                     s["ns"], s["ns_min"], s["ns_max"], h["ns"], h["ns_min"], h["ns_max"],
                     h2["instr"], "%.1f" % c["instr"] if c else "", b(s), b(h), b(h2)))

if __name__ == "__main__":
    main()
