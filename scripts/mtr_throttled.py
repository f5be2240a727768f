#!/usr/bin/env python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The tests of our MTR suites whose verdict innodb_trx_throttling=CAP can
change: make test's stage mtr-throttled runs these; `make test-throttled`
runs every test of our suites under the gate.

The gate makes a transaction wait only when CAP others hold a slot, and only
client sessions hold slots (trx/README.throttling.md, T2: InnoDB's own
transactions never ask).  Every user transaction comes from a session the
test opens, so a test that can never have more than CAP sessions never sees
a wait, and the gate only counts its transactions.  A test is chosen when

  1 (the default connection) + its connect()s + the clients it execs
    + the workers of its load scripts (--workers=N)            > CAP,

counted over the test and the suite's include files it sources (an upper
bound: a session that disconnected is counted too), or when it reads the
gate's own status (trx_throttling variables, SHOW ENGINE INNODB STATUS),
which the gate changes whatever the load.

  python3 scripts/mtr_throttled.py CAP SUITE_DIR...   prints suite.test names
"""
import os
import re
import sys

CONNECT = re.compile(r"^\s*(?:--)?connect\s*\(", re.I | re.M)
# A client the test runs: $MYSQL, $MYSQL_DUMP, $MYSQL_SLAP, $MYSQLADMIN, ...
EXEC_CLIENT = re.compile(r"^\s*(?:--)?exec(?:_in_background)?\b.*\$MYSQL", re.M)
WORKERS = re.compile(r"--workers[= ](\d+)")
SOURCE = re.compile(r"^\s*(?:--)?source\s+(\S+?\.inc)\s*;?\s*$", re.M)
GATE_STATUS = re.compile(r"trx_throttling|ENGINE\s+INNODB\s+STATUS", re.I)


def text_with_includes(path, suite_dir, seen=None):
    """The test's text and that of the suite's include files it sources."""
    seen = seen if seen is not None else set()
    with open(path) as f:
        text = f.read()
    for inc in SOURCE.findall(text):
        name = os.path.join(suite_dir, "include", os.path.basename(inc))
        if os.path.exists(name) and name not in seen:
            seen.add(name)
            text += text_with_includes(name, suite_dir, seen)
    return text


def sessions(text):
    """An upper bound of the client sessions a test opens."""
    return (1 + len(CONNECT.findall(text)) + len(EXEC_CLIENT.findall(text))
            + sum(int(n) for n in WORKERS.findall(text)))


def gate_can_change(text, cap):
    return sessions(text) > cap or bool(GATE_STATUS.search(text))


def chosen(cap, suite_dirs):
    out = []
    for suite_dir in suite_dirs:
        suite = os.path.basename(os.path.normpath(suite_dir))
        tdir = os.path.join(suite_dir, "t")
        for name in sorted(os.listdir(tdir)):
            if name.endswith(".test") and gate_can_change(
                    text_with_includes(os.path.join(tdir, name), suite_dir), cap):
                out.append("%s.%s" % (suite, name[:-len(".test")]))
    return out


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[-1].strip())
    print("\n".join(chosen(int(sys.argv[1]), sys.argv[2:])))
