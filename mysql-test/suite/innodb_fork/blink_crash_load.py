#!/usr/bin/python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Split-heavy inserts into a B-link table until the server is killed, then
a check that every acknowledged insert survived (run by
innodb_fork.blink_crash_load).

"load": each worker inserts rows whose keys fall between the preloaded ones,
so that nearly every insert lands on a full leaf, in transactions of 1 to 5
rows, some of them rolled back on purpose.  Before a transaction begins the
worker writes it to its journal (ids, and whether it will commit); when
COMMIT or ROLLBACK returns, the outcome.  When the server goes away (the test
kills it) the worker writes "gone" and exits; a worker that reaches the time
limit first writes "deadline", which the check reports as a failure (the
kill must happen under load).  Run in the background.

"check", after the restart: waits for the last line of every worker of this
round, then reads the journals of this round and the earlier ones, and the
table through the primary key and through the secondary index and
requires, per journalled transaction:
  - acknowledged commit: every row there;
  - rolled back, or meant to be rolled back: no row there;
  - commit sent but not acknowledged (the kill came first): all rows or none;
and no other row than the preloaded ones.  Each row's key must be the one its
id determines, and both indexes must hold the same rows.  Prints
"blink crash load: ok" or the first mismatch; exits non-zero on a mismatch.
Needs Debian's python3-pymysql.
"""
import argparse
import os
import random
import sys
import threading
import time

import pymysql

PRELOAD_GAP = 1000       # preloaded row i has key position i * PRELOAD_GAP
KEY_LEN = 200
SERVER_GONE = (2002, 2003, 2006, 2013)   # CR_*: connection lost or refused
FIRST_LOAD_ID = 1000000  # ids below are preloaded rows


def row_key(rid, preload):
    """The primary key of row rid: its position, then the id for uniqueness.
    Preloaded rows sit PRELOAD_GAP apart; the others fall between them."""
    if rid < FIRST_LOAD_ID:
        pos = rid * PRELOAD_GAP
    else:
        pos = (rid * 2654435761) % ((preload + 1) * PRELOAD_GAP)
    return ("%09d-%08d" % (pos, rid)).ljust(KEY_LEN, "k")


def connect(a):
    conn = pymysql.connect(unix_socket=a.socket, user="root", database="test",
                           autocommit=True)
    # make test's stage mtr-throttled caps InnoDB at fewer transactions than
    # there are workers: a queued worker waits, it does not fail.
    conn.cursor().execute("SET SESSION innodb_trx_throttling_timeout = 3600")
    return conn


def server_gone(e):
    return isinstance(e, pymysql.err.InterfaceError) or (
        isinstance(e, pymysql.err.OperationalError) and e.args[0] in SERVER_GONE)


def journal_path(a, rnd, w):
    return os.path.join(a.dir, "round%d-worker%d" % (rnd, w))


def load_worker(a, w, deadline):
    rng = random.Random(a.round * 1000 + w)
    next_id = FIRST_LOAD_ID * (1 + a.round) + w * (FIRST_LOAD_ID // a.workers)
    with open(journal_path(a, a.round, w), "w", buffering=1) as journal:
        try:
            cur = connect(a).cursor()
            while time.monotonic() < deadline:
                ids = list(range(next_id, next_id + rng.randint(1, 5)))
                next_id += len(ids)
                commit = rng.random() >= 0.1
                journal.write("T %s %s\n" % ("c" if commit else "r",
                                             " ".join(map(str, ids))))
                cur.execute("BEGIN")
                for rid in ids:
                    cur.execute("INSERT INTO t (k, n, pad) VALUES (%s, %s, %s)",
                                (row_key(rid, a.preload), rid,
                                 "p" * (200 + rid % 200)))
                cur.execute("COMMIT" if commit else "ROLLBACK")
                journal.write("A\n" if commit else "R\n")
            journal.write("deadline\n")
        except pymysql.MySQLError as e:
            journal.write("gone\n" if server_gone(e) else "error %r\n" % (e.args,))
        except Exception as e:  # written down for the check
            journal.write("error %s: %s\n" % (type(e).__name__, e))


def load(a):
    deadline = time.monotonic() + a.seconds
    threads = [threading.Thread(target=load_worker, args=(a, w, deadline))
               for w in range(a.workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return 0


class Mismatch(Exception):
    pass


def read_journal(path, timeout):
    """The transactions of one worker's journal: [ids, meant to commit,
    outcome line or None], once its last line is written."""
    stop = time.monotonic() + timeout
    while True:
        try:
            with open(path) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            lines = []
        if lines and not lines[-1].startswith(("T ", "A", "R")):
            break
        if time.monotonic() > stop:
            raise Mismatch("%s: the worker did not finish" % path)
        time.sleep(0.1)
    if lines[-1] != "gone":
        raise Mismatch("%s ended with %r, not with the server killed under load"
                       % (path, lines[-1]))
    txns = []
    for line in lines[:-1]:
        if line.startswith("T "):
            kind, *ids = line.split()[1:]
            txns.append([[int(i) for i in ids], kind == "c", None])
        else:
            txns[-1][2] = line
    return txns


def check(a):
    txns = []  # [rnd, ids, meant to commit, outcome]
    for rnd in range(1, a.round + 1):
        for w in range(a.workers):
            txns += [[rnd] + t for t in read_journal(journal_path(a, rnd, w), a.seconds)]
    cur = connect(a).cursor()
    by_index = {}
    for index in ("PRIMARY", "n"):
        cur.execute("SELECT n, k FROM t FORCE INDEX (%s)" % index)
        by_index[index] = dict(cur.fetchall())
    rows = by_index["PRIMARY"]
    if by_index["n"] != rows:
        diff = set(rows.items()) ^ set(by_index["n"].items())
        raise Mismatch("the indexes differ: %s" % sorted(diff)[:5])
    for rid, k in rows.items():
        if k != row_key(rid, a.preload):
            raise Mismatch("row %d has key %r" % (rid, k[:20]))
    preloaded = sum(1 for rid in rows if rid < FIRST_LOAD_ID)
    if preloaded != a.preload:
        raise Mismatch("%d preloaded rows, not %d" % (preloaded, a.preload))
    journalled = set()
    acked = 0
    for rnd, ids, commit, outcome in txns:
        there = [rid in rows for rid in ids]
        journalled.update(ids)
        if commit and outcome == "A":
            acked += rnd == a.round
            if not all(there):
                raise Mismatch("committed rows lost: %s" % ids)
        elif not commit:
            if any(there):
                raise Mismatch("rolled-back rows there: %s" % ids)
        elif any(there) and not all(there):
            raise Mismatch("part of an unacknowledged transaction: %s" % ids)
    strays = [rid for rid in rows if rid >= FIRST_LOAD_ID and rid not in journalled]
    if strays:
        raise Mismatch("rows never inserted: %s" % strays[:5])
    sys.stderr.write("blink crash load round %d: %d transactions, %d acknowledged "
                     "in this round, %d rows\n" % (a.round, len(txns), acked, len(rows)))
    if acked == 0:
        raise Mismatch("no transaction of this round was acknowledged before the kill")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("load", "check"))
    ap.add_argument("--socket", required=True)
    ap.add_argument("--dir", required=True, help="where the journals are")
    ap.add_argument("--round", type=int, required=True)
    ap.add_argument("--preload", type=int, required=True,
                    help="rows preloaded with ids 1..preload")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=120,
                    help="load: the time limit; check: how long to wait for it")
    a = ap.parse_args(argv)
    if a.mode == "load":
        return load(a)
    try:
        check(a)
    except Mismatch as e:
        print("blink crash load: FAILED: %s" % e)
        return 1
    print("blink crash load: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
