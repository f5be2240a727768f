#!/usr/bin/python3
# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""Randomized stress of a B-link table (run by innodb_fork.blink_stress).

Several connections insert, delete, update rows so that
they grow and shrink (pages split, and purge deletes the leaves it empties;
one value in ten is 9,000 to 30,000 bytes long and stored off the page,
written and freed under S, EX1 and EX2) and change secondary keys, and scan
ranges in both directions through the clustered
and both secondary indexes.  Worker w owns the ids with id % workers == w:
it keeps its own tally of those rows, and every scan checks that the rows of
its own that the scan returns are exactly the ones the tally says, in
order; rows of the other workers may change under the scan and are only
checked for order.  With --validate-online, one more connection runs the
online validator (innodb_btree_blink_validate_online_debug) over and over
while the workers split and delete pages; every run must pass and at least
one must have run.  At the end every row and every index entry is counted
against the sum of the tallies.

The load runs until what the test asserts has happened (GOALS: splits of
non-leaf pages, leveled splits published, descents that moved right, leaves
deleted and reused by splits, values stored off the page written and freed
under S, and under a gate below the workers a queued transaction), for at least --seconds and at most --max-seconds: a slow
machine runs longer instead of asserting on less, a fast one stops early.

Prints one line, "blink stress: ok", or the first mismatch; exits non-zero
on a mismatch or an unexpected error.  Needs Debian's python3-pymysql.
"""
import argparse
import random
import sys
import threading
import time

import pymysql

KEYSPACE = 20000
DEADLOCK, LOCK_WAIT = 1213, 1205


class Mismatch(Exception):
    pass


def connect(a):
    conn = pymysql.connect(unix_socket=a.socket, user="root", database="test",
                           autocommit=True)
    # Under innodb_trx_throttling below the connections (make test's stage
    # mtr-throttled) one of them waits for a slot while the others may sit
    # in 5-second lock waits, longer than the default 10 s timeout: a
    # queued statement must wait, not fail with ER_TOO_MANY_CONCURRENT_TRXS.
    conn.cursor().execute("SET SESSION innodb_trx_throttling_timeout = 3600")
    return conn


def pad_length(rng):
    """Mostly 10 to 3,000 bytes; one in ten 9,000 to 30,000, which the
    row cannot hold on its page."""
    if rng.random() < 0.1:
        return rng.randrange(9000, 30000)
    return rng.randrange(10, 3000)


def a_value(rid, version):
    """Secondary key a: unique to the id, changes with version; 20 to 800
    bytes long, so that its index has 3 levels at 2,000 rows and high keys
    of very different lengths replace each other when pages merge."""
    return ("%07d-%d-" % ((rid * 7919) % KEYSPACE, version)).ljust(
        20 + (rid * 31 + version * 97) % 780, "a")


class Worker(threading.Thread):
    def __init__(self, a, w, stop):
        super().__init__(name="worker-%d" % w)
        self.a, self.w, self.stop = a, w, stop
        self.rng = random.Random(a.seed * 1000 + w)
        self.rows = {}  # id -> (a, b, pad length)
        self.history = {}  # id -> the last operations on it, for reports
        self.ops = 0
        self.last_id = None
        self.error = None

    def note(self, rid, what):
        self.history.setdefault(rid, []).append("%d:%s" % (self.ops, what))
        del self.history[rid][:-8]

    def my_id(self):
        return self.rng.randrange(KEYSPACE // self.a.workers) * self.a.workers + self.w

    def run(self):
        try:
            self.conn = connect(self.a)
            cur = self.conn.cursor()
            iso = "READ COMMITTED" if self.w % 2 else "REPEATABLE READ"
            cur.execute("SET SESSION TRANSACTION ISOLATION LEVEL " + iso)
            cur.execute("SET SESSION innodb_lock_wait_timeout = 5")
            while not self.stop.is_set():
                self.step(cur)
                self.ops += 1
        except Exception as e:  # reported by main()
            self.error = "%s: %s: %s" % (self.name, type(e).__name__, e)

    def step(self, cur):
        op = self.rng.random()
        try:
            if op < 0.35:
                self.insert(cur)
            elif op < 0.50:
                self.delete(cur)
            elif op < 0.65:
                self.update(cur)
            elif op < 0.72:
                self.rolled_back(cur)
            else:
                self.scan(cur)
        except pymysql.err.IntegrityError as e:
            rid = self.last_id
            cur.execute("SELECT id, LENGTH(pad) FROM stress FORCE INDEX (PRIMARY) WHERE id = %s", (rid,))
            raise Mismatch("%s: %s; id %s: tally %r, table %r, history %s" % (
                self.name, e, rid, self.rows.get(rid), cur.fetchall(), self.history.get(rid)))
        except pymysql.err.OperationalError as e:
            if e.args[0] not in (DEADLOCK, LOCK_WAIT):
                raise
            self.note(self.last_id, "error %d" % e.args[0])
            # The statement (and, for a deadlock, the transaction) was rolled
            # back: the tally is unchanged because it is only updated after
            # a statement succeeds.
            if e.args[0] == LOCK_WAIT:
                cur.execute("ROLLBACK")

    def insert(self, cur):
        rid = self.last_id = self.my_id()
        if rid in self.rows:
            return
        self.note(rid, "insert")
        row = (a_value(rid, 0), self.rng.randrange(100), pad_length(self.rng))
        cur.execute("INSERT INTO stress VALUES (%s, %s, %s, REPEAT('p', %s))",
                    (rid, row[0], row[1], row[2]))
        self.rows[rid] = row

    def delete(self, cur):
        if not self.rows:
            return
        rid = self.last_id = self.rng.choice(list(self.rows))
        self.note(rid, "delete")
        cur.execute("DELETE FROM stress WHERE id = %s", (rid,))
        if cur.rowcount != 1:
            raise Mismatch("%s: DELETE of id %s deleted %d rows" % (self.name, rid, cur.rowcount))
        del self.rows[rid]

    def update(self, cur):
        if not self.rows:
            return
        rid = self.last_id = self.rng.choice(list(self.rows))
        self.note(rid, "update")
        a, b, n = self.rows[rid]
        n = pad_length(self.rng)                  # grows or shrinks
        a = a_value(rid, self.rng.randrange(1000)) if self.rng.random() < 0.5 else a
        cur.execute("UPDATE stress SET a = %s, pad = REPEAT('q', %s) WHERE id = %s",
                    (a, n, rid))
        self.rows[rid] = (a, b, n)

    def rolled_back(self, cur):
        cur.execute("BEGIN")
        inserted = set()
        for _ in range(self.rng.randrange(1, 20)):
            rid = self.last_id = self.my_id()
            if rid not in self.rows and rid not in inserted:
                inserted.add(rid)
                self.note(rid, "insert, rolled back")
                cur.execute("INSERT INTO stress VALUES (%s, %s, 0, REPEAT('r', %s))",
                            (rid, a_value(rid, 9999), pad_length(self.rng)))
        cur.execute("ROLLBACK")

    def scan(self, cur):
        """A range through one index, forward or backward: in order, and
        exactly this worker's rows of the range."""
        lo = self.rng.randrange(KEYSPACE)
        hi = lo + self.rng.randrange(1, 3000)
        desc = self.rng.random() < 0.5
        how = self.rng.choice(["PRIMARY", "a", "b_a"])
        d = " DESC" if desc else ""
        if how == "PRIMARY":
            cur.execute("SELECT id, a, b, LENGTH(pad) FROM stress FORCE INDEX (PRIMARY)"
                        " WHERE id BETWEEN %s AND %s ORDER BY id" + d, (lo, hi))
            got = [(r[0], tuple(r[1:])) for r in cur.fetchall()]
            keys = [r[0] for r in got]
            want = {i: v for i, v in self.rows.items() if lo <= i <= hi}
        elif how == "a":
            # a begins with a 7-digit number unique to the id: [lo, hi] of it
            alo, ahi = "%07d" % lo, "%07d~" % hi
            cur.execute("SELECT id, a FROM stress FORCE INDEX (a)"
                        " WHERE a BETWEEN %s AND %s ORDER BY a" + d, (alo, ahi))
            got = [(r[0], r[1]) for r in cur.fetchall()]
            keys = [r[1] for r in got]
            want = {i: v[0] for i, v in self.rows.items() if alo <= v[0] <= ahi}
        else:
            blo, bhi = lo % 100, lo % 100 + self.rng.randrange(0, 10)
            cur.execute("SELECT id, b, a FROM stress FORCE INDEX (b_a)"
                        " WHERE b BETWEEN %s AND %s ORDER BY b" + d + ", a" + d, (blo, bhi))
            got = [(r[0], (r[1], r[2])) for r in cur.fetchall()]
            keys = [r[1] for r in got]
            want = {i: (v[1], v[0]) for i, v in self.rows.items() if blo <= v[1] <= bhi}
        self.check_order(keys, desc, how)
        mine = {i: v for i, v in got if i % self.a.workers == self.w}
        if mine != want:
            missing = sorted(set(want) - set(mine))[:5]
            extra = sorted(set(mine) - set(want))[:5]
            raise Mismatch("%s: scan of %s from %s to %s%s: missing %s, unexpected %s, "
                           "%d rows differ; history %s" % (
                               self.name, how, lo, hi, d, missing, extra,
                               sum(mine.get(i) != v for i, v in want.items()),
                               {i: self.history.get(i) for i in missing + extra}))

    def check_order(self, keys, desc, how):
        for x, y in zip(keys, keys[1:]):
            if (x <= y) if desc else (x >= y):
                raise Mismatch("%s: scan of %s out of order: %r then %r" % (self.name, how, x, y))


class OnlineValidator(threading.Thread):
    """Runs the online validator until stopped; error: the first
    violation it reported."""

    def __init__(self, a, stop):
        super().__init__(name="online-validator")
        self.a, self.stop = a, stop
        self.runs, self.error = 0, None

    def run(self):
        try:
            cur = connect(self.a).cursor()
            while not self.stop.is_set():
                try:
                    cur.execute("SET GLOBAL innodb_btree_blink_validate_online_debug = ON")
                except pymysql.MySQLError:
                    cur.execute("SHOW WARNINGS")
                    self.error = "online validator: %s" % "; ".join(r[2] for r in cur.fetchall())
                    return
                self.runs += 1
                self.stop.wait(0.5)
        except Exception as e:  # reported by main()
            self.error = "%s: %s: %s" % (self.name, type(e).__name__, e)


# What the test asserts the load did: global status counters that must grow,
# and INNODB_METRICS monitors (enabled by the test) that must count.
GOAL_STATUS = ("Innodb_btree_blink_nonleaf_splits", "Innodb_btree_blink_leveled_splits",
               "Innodb_btree_blink_splits_finished", "Innodb_btree_blink_move_rights",
               "Innodb_btree_blink_pages_deleted", "Innodb_btree_blink_reserve_deleted_ripe",
               "Innodb_btree_blink_external_writes", "Innodb_btree_blink_external_frees")
GOAL_METRICS = ()
THROTTLING_WAITS = "Innodb_trx_throttling_waits"


def goal_values(cur, throttled):
    names = GOAL_STATUS + ((THROTTLING_WAITS,) if throttled else ())
    cur.execute("SELECT VARIABLE_NAME, VARIABLE_VALUE FROM performance_schema.global_status"
                " WHERE VARIABLE_NAME IN (%s)" % ", ".join(["%s"] * len(names)), names)
    values = {n.lower(): int(v) for n, v in cur.fetchall()}
    if GOAL_METRICS:
        cur.execute("SELECT NAME, COUNT FROM information_schema.INNODB_METRICS"
                    " WHERE NAME IN (%s)" % ", ".join(["%s"] * len(GOAL_METRICS)),
                    GOAL_METRICS)
        values.update((n.lower(), int(v)) for n, v in cur.fetchall())
    return values


def run_until_goals(a, stop, threads):
    """Lets the load run until every goal is reached (at least a.seconds,
    at most a.max_seconds) or a thread ended with an error; returns the
    goals not reached."""
    cur = connect(a).cursor()
    cur.execute("SELECT @@GLOBAL.innodb_trx_throttling")
    cap = int(cur.fetchone()[0])
    before = goal_values(cur, 0 < cap < a.workers)
    start = time.monotonic()
    while True:
        time.sleep(1)
        now = goal_values(cur, 0 < cap < a.workers)
        missing = sorted(n for n in before if now[n] <= before[n])
        if a.validate_online and threads[-1].runs == 0:
            missing.append("online validation")
        elapsed = time.monotonic() - start
        if (elapsed >= a.seconds and not missing) or elapsed >= a.max_seconds \
           or not all(t.is_alive() for t in threads):
            stop.set()
            return missing


def final_check(a, workers):
    conn = connect(a)
    cur = conn.cursor()
    rows = {}
    for w in workers:
        rows.update(w.rows)
    for index, col in (("PRIMARY", "id"), ("a", "a"), ("b_a", "b")):
        cur.execute("SELECT COUNT(*) FROM stress FORCE INDEX (%s) WHERE %s IS NOT NULL"
                    % (index, col))
        n = cur.fetchone()[0]
        if n != len(rows):
            raise Mismatch("index %s has %d entries, the tallies %d" % (index, n, len(rows)))
    cur.execute("SELECT id, a, b, LENGTH(pad) FROM stress ORDER BY id")
    table = {r[0]: tuple(r[1:]) for r in cur.fetchall()}
    if table != rows:
        diff = sorted(i for i in set(table) | set(rows) if table.get(i) != rows.get(i))
        raise Mismatch("table differs from the tallies at ids %s" % diff[:10])
    return len(rows)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--socket", required=True)
    ap.add_argument("--seconds", type=float, default=10,
                    help="run at least this long, then until every goal is reached")
    ap.add_argument("--max-seconds", type=float, default=600,
                    help="stop here even if a goal is not reached (the test then fails)")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--validate-online", action="store_true",
                    help="run the online validator during the load")
    a = ap.parse_args(argv)

    conn = connect(a)
    conn.cursor().execute(
        "CREATE TABLE stress (id INT PRIMARY KEY,"
        " a VARCHAR(800) CHARACTER SET latin1 COLLATE latin1_bin NOT NULL,"
        " b INT NOT NULL, pad VARCHAR(30000) NOT NULL, KEY a (a), KEY b_a (b, a))"
        " ENGINE=InnoDB CHARSET=latin1")
    stop = threading.Event()
    workers = [Worker(a, w, stop) for w in range(a.workers)]
    threads = workers + ([OnlineValidator(a, stop)] if a.validate_online else [])
    for t in threads:
        t.start()
    start = time.monotonic()
    try:
        missing = run_until_goals(a, stop, threads)
    finally:
        stop.set()  # also when reading the goals failed: the workers must end
    for t in threads:
        t.join()
    errors = [t.error for t in threads if t.error]
    if a.validate_online and not errors and threads[-1].runs == 0:
        errors = ["the online validator never ran"]
    if errors:
        print("blink stress: FAILED: " + errors[0])
        return 1
    try:
        n = final_check(a, workers)
    except Mismatch as e:
        print("blink stress: FAILED: %s" % e)
        return 1
    sys.stderr.write("blink stress: %d operations in %.0f s, %d rows at the end%s%s\n"
                     % (sum(w.ops for w in workers), time.monotonic() - start, n,
                        ", %d online validations" % threads[-1].runs if a.validate_online else "",
                        "; goals not reached: " + ", ".join(missing) if missing else ""))
    print("blink stress: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
