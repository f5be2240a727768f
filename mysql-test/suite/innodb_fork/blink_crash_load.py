#!/usr/bin/python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Split-heavy inserts into a B-link table, and deletes, until the server
is killed, then a check that every acknowledged change survived (run by
innodb_fork.blink_crash_load).

"load": each worker inserts rows whose keys fall between the preloaded ones,
so that nearly every insert lands on a full leaf, in transactions of 1 to 5
rows; a fifth of its transactions delete 1 to 5 of its own committed rows
instead (pages merge when purge removes them); a tenth of all roll back on
purpose.  Before a transaction begins the worker writes it to its journal
(insert or delete, ids, whether it will commit); when COMMIT or ROLLBACK
returns, the outcome.  A transaction that the server chose as a deadlock
victim, or whose lock wait timed out, is rolled back and journalled as
such ("V"), and the worker goes on; the check then fails, because no
worker's lock may wait for another's: each touches its own rows only, in
READ COMMITTED, its deletes through the secondary index.  (Victims were
how a range estimate that read its parent before and after a split
showed: the delete scanned the whole table; README.blink.md, D8.)  When
the server goes away (the test kills it) the worker writes "gone" and
exits; a worker that reaches the time limit first writes "deadline",
which the check reports as a failure (the kill must happen under load).
Run in the background.

"check", after the restart: waits for the last line of every worker of this
round, then replays the journals of this round and the earlier ones and
reads the table through the primary key and through the secondary index:
the rows there must be exactly the preloaded ones and those the
acknowledged commits left, except that each worker's last transaction, if
the kill took its answer, may have changed all its rows or none (not some).
Each row's key must be the one its id determines, and both indexes must
hold the same rows.  Prints "blink crash load: ok" or the first mismatch;
exits non-zero on a mismatch.  Needs Debian's python3-pymysql.
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
LOCK_VICTIM = (1205, 1213)  # ER_LOCK_WAIT_TIMEOUT, ER_LOCK_DEADLOCK
FIRST_LOAD_ID = 1000000  # ids below are preloaded rows
DELETE_SHARE = 0.2       # of the transactions, deletes of a worker's own rows


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
    # No gap locks: a worker's delete must not wait for another's insert.
    conn.cursor().execute("SET SESSION transaction_isolation = 'READ-COMMITTED'")
    return conn


def server_gone(e):
    return isinstance(e, pymysql.err.InterfaceError) or (
        isinstance(e, pymysql.err.OperationalError) and e.args[0] in SERVER_GONE)


def journal_path(a, rnd, w):
    return os.path.join(a.dir, "round%d-worker%d" % (rnd, w))


def load_worker(a, w, deadline):
    rng = random.Random(a.round * 1000 + w)
    next_id = FIRST_LOAD_ID * (1 + a.round) + w * (FIRST_LOAD_ID // a.workers)
    committed = []  # this worker's rows whose insert was acknowledged
    with open(journal_path(a, a.round, w), "w", buffering=1) as journal:
        try:
            cur = connect(a).cursor()
            while time.monotonic() < deadline:
                commit = rng.random() >= 0.1
                if committed and rng.random() < DELETE_SHARE:
                    op = "D"
                    ids = rng.sample(committed, min(len(committed),
                                                    rng.randint(1, 5)))
                else:
                    op = "I"
                    ids = list(range(next_id, next_id + rng.randint(1, 5)))
                    next_id += len(ids)
                journal.write("%s %s %s\n" % (op, "c" if commit else "r",
                                              " ".join(map(str, ids))))
                cur.execute("BEGIN")
                try:
                    if op == "D":
                        cur.execute("DELETE FROM t WHERE n IN (%s)"
                                    % ", ".join(map(str, ids)))
                    for rid in ids if op == "I" else ():
                        cur.execute(
                            "INSERT INTO t (k, n, pad) VALUES (%s, %s, %s)",
                            (row_key(rid, a.preload), rid,
                             "p" * (200 + rid % 200)))
                except pymysql.err.OperationalError as e:
                    if e.args[0] not in LOCK_VICTIM:
                        raise
                    cur.execute("ROLLBACK")  # after a timeout, the rest
                    journal.write("V\n")
                    continue
                cur.execute("COMMIT" if commit else "ROLLBACK")
                journal.write("A\n" if commit else "R\n")
                if commit and op == "I":
                    committed += ids
                elif commit:
                    committed = [i for i in committed if i not in ids]
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
    """The transactions of one worker's journal, in order: [operation
    ("I" or "D"), ids, meant to commit, outcome line or None], once its
    last line is written."""
    stop = time.monotonic() + timeout
    while True:
        try:
            with open(path) as f:
                lines = f.read().splitlines()
        except FileNotFoundError:
            lines = []
        if lines and not lines[-1].startswith(("I ", "D ", "A", "R", "V")):
            break
        if time.monotonic() > stop:
            raise Mismatch("%s: the worker did not finish" % path)
        time.sleep(0.1)
    if lines[-1] != "gone":
        raise Mismatch("%s ended with %r, not with the server killed under load"
                       % (path, lines[-1]))
    txns = []
    for line in lines[:-1]:
        if line.startswith(("I ", "D ")):
            op, kind, *ids = line.split()
            txns.append([op, [int(i) for i in ids], kind == "c", None])
        else:
            txns[-1][3] = line
    return txns


def expected_rows(txns):
    """What one worker's journal says of its rows: the ids that must be
    there, and the ids of its last transaction if the kill took its answer
    (then all of them or none changed), with how many of its transactions
    were acknowledged commits."""
    present, unsure, acked = set(), set(), 0
    for op, ids, commit, outcome in txns:
        if commit and outcome == "A":
            acked += 1
            (present.update if op == "I" else present.difference_update)(ids)
        elif commit and outcome is None:
            unsure = set(ids)  # only the last one can be unanswered
    return present, unsure, acked


def check(a):
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
    there = {rid for rid in rows if rid >= FIRST_LOAD_ID}
    expected = set()
    n_txns = acked = victims = 0
    for rnd in range(1, a.round + 1):
        for w in range(a.workers):
            txns = read_journal(journal_path(a, rnd, w), a.seconds)
            present, unsure, n_acked = expected_rows(txns)
            n_txns += len(txns)
            victims += sum(1 for txn in txns if txn[3] == "V")
            acked += n_acked if rnd == a.round else 0
            # The unanswered transaction: every row of it changed, or none.
            if unsure and len({rid in there for rid in unsure}) > 1:
                raise Mismatch("part of an unacknowledged transaction: %s"
                               % sorted(unsure))
            expected |= (present - unsure) | (unsure & there)
    if there != expected:
        raise Mismatch("rows there that should not be: %s; rows missing: %s"
                       % (sorted(there - expected)[:5],
                          sorted(expected - there)[:5]))
    sys.stderr.write("blink crash load round %d: %d transactions, %d "
                     "acknowledged in this round, %d lock victims, %d rows\n"
                     % (a.round, n_txns, acked, victims, len(rows)))
    if acked == 0:
        raise Mismatch("no transaction of this round was acknowledged before the kill")
    if victims:
        raise Mismatch("%d transactions waited for another worker's lock and "
                       "were rolled back" % victims)
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
