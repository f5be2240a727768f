#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The many-core projection of split-insert from a results directory
(benchmarks/doc/blink/README.md, "The many-core projection"; the model is
innobench/projection.py).

  benchmarks/blink/projection.py RESULTS_DIR [--cores 8,32,64]"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from innobench import projection, report  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", help="a benchmarks/run --out directory")
    ap.add_argument("--cores", default="8,32,64")
    a = ap.parse_args()
    rows = report.read_csv(os.path.join(a.results, "results.csv"))
    cores = tuple(int(c) for c in a.cores.split(","))
    print("\n".join(projection.project(rows, cores=cores)))
    print("\n| published | before | after | ratio |\n|---|---|---|---|")
    print("\n".join(projection.published_lines()))


if __name__ == "__main__":
    main()
