# Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.
"""The harness's own sources of variance, removed (issue 13), each one a
name of --variance-fixes so that a run with and without it can be compared:

  writeback  after the saved data set is restored and before mysqld starts:
             sync, then wait until the kernel's Dirty+Writeback is below
             WRITEBACK_LIMIT_MB, so that the copy's write-back does not run
             during the measurement;
  warm       after mysqld starts: read every index of every table of the
             data set (SELECT COUNT(*) ... FORCE INDEX), the same scans on
             every server, instead of a cold buffer pool warmed by whatever
             the workload touches first (and with the startup load of the
             buffer pool dump off, server.base_cnf);
  settle     before every measured point: wait until purge is idle and the
             checkpoint has caught up, so that no point pays for the
             previous one's purge or page flushing.

Each records what it waited for in the point's row (results.csv)."""
import re
import subprocess
import time

from . import optimizer
from .server import status

FIXES = ("writeback", "warm", "settle")

WRITEBACK_LIMIT_MB = 64
WRITEBACK_TIMEOUT = 120
# Checkpoint age at most 1 % of the redo capacity: the page cleaner, idle,
# flushes everything within seconds (innodb_io_capacity 10000 in 9.7), and
# the age falls to 0; 1 % leaves room for the harness's own few writes.
CHECKPOINT_AGE_PCT = 1.0
SETTLE_TIMEOUT = 120
POLL_S = 1.0


def fixes(text):
    """The set of fixes from --variance-fixes: names, "all" or "none"."""
    names = [x.strip() for x in text.split(",") if x.strip()]
    if names == ["all"]:
        return set(FIXES)
    if names == ["none"]:
        return set()
    bad = [n for n in names if n not in FIXES]
    if bad or not names:
        raise ValueError("unknown variance fix %s: all, none or a list of %s"
                         % (", ".join(bad) or "(empty)", ", ".join(FIXES)))
    return set(names)


# --- writeback --------------------------------------------------------------

def pending_writeback_mb(meminfo):
    """Dirty + Writeback of /proc/meminfo's text, in MB."""
    kb = {}
    for line in meminfo.splitlines():
        k, _, v = line.partition(":")
        kb[k] = int(v.split()[0]) if v.split() else 0
    return (kb.get("Dirty", 0) + kb.get("Writeback", 0)) / 1024


def _meminfo():
    with open("/proc/meminfo") as f:
        return f.read()


def wait_writeback(limit_mb=WRITEBACK_LIMIT_MB, timeout=WRITEBACK_TIMEOUT):
    """sync, then poll until Dirty+Writeback is below limit_mb (other
    processes may dirty pages meanwhile) or timeout seconds passed.
    Returns writeback_s (the whole wait, sync included), pending_mb (before
    the sync) and writeback ("ok" or "timeout")."""
    t0 = time.monotonic()
    before = pending_writeback_mb(_meminfo())
    subprocess.run(["sync"], check=True)
    while True:
        done = pending_writeback_mb(_meminfo()) < limit_mb
        if done or time.monotonic() - t0 > timeout:
            break
        time.sleep(0.2)
    return {"writeback_s": round(time.monotonic() - t0, 2), "pending_mb": round(before, 1),
            "writeback": "ok" if done else "timeout"}


# --- warm -------------------------------------------------------------------

def warm_queries(indexes):
    """One full scan per index of [(schema, table, index)]: COUNT(*) with
    FORCE INDEX reads the whole index in 9.7 ("Count rows" through that
    index; for PRIMARY every clustered leaf page)."""
    return ["SELECT COUNT(*) FROM `%s`.`%s` FORCE INDEX (`%s`)"
            % tuple(x.replace("`", "``") for x in sit) for sit in indexes]


def warm(server, scan=True):
    """Read every index of the data set (unless not scan: the io workloads
    start from the buffer pool the restart emptied).  Returns warm_s and
    warm_pages (Innodb_buffer_pool_pages_data afterwards)."""
    t0 = time.monotonic()
    tables = optimizer.user_tables(server) if scan else None
    if tables:
        indexes = server.rows(
            "SELECT DISTINCT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME FROM information_schema.STATISTICS"
            " WHERE (TABLE_SCHEMA, TABLE_NAME) IN (%s) ORDER BY 1, 2, 3"
            % ", ".join("('%s', '%s')" % (s, t) for s, t, _ in tables))
        for q in warm_queries(indexes):
            server.sql(q)
    pages = status(server, ["Innodb_buffer_pool_pages_data"])["Innodb_buffer_pool_pages_data"]
    return {"warm_s": round(time.monotonic() - t0, 2), "warm_pages": pages}


# --- settle -----------------------------------------------------------------

INNODB_STATUS = {"purge_done": r"Purge done for trx's n:o < (\d+)",
                 "history": r"History list length (\d+)",
                 "lsn": r"Log sequence number\s+(\d+)",
                 "checkpoint": r"Last checkpoint at\s+(\d+)",
                 "capacity": r"Log capacity\s+(\d+)"}


def innodb_status(text):
    """The numbers settle needs from SHOW ENGINE INNODB STATUS."""
    out = {}
    for k, pattern in INNODB_STATUS.items():
        m = re.search(pattern, text)
        if not m:
            raise ValueError("SHOW ENGINE INNODB STATUS has no %r" % pattern)
        out[k] = int(m.group(1))
    return out


def settled(prev, cur):
    """Purge is idle and the checkpoint has caught up, from two
    innodb_status() POLL_S apart.  Purge: its position did not move.  Not
    the history list length: InnoDB frees purged undo logs from the history
    only every innodb_purge_rseg_truncate_frequency (128) batches, so the
    length stays where the last truncation left it (342 after a stock
    oltp_update_index point, until the next load).  Nor "Purge done" equal
    to "Trx id counter": they need not meet (an idle stock server after
    its start: counter 2060, purge done < 2057)."""
    age = cur["lsn"] - cur["checkpoint"]
    return (prev is not None and cur["purge_done"] == prev["purge_done"]
            and age <= cur["capacity"] * CHECKPOINT_AGE_PCT / 100)


def _status_text(server):
    # mysql -B escapes the newlines of the one Status field.
    return server.rows("SHOW ENGINE INNODB STATUS")[0][2].replace("\\n", "\n")


def settle(server, timeout=SETTLE_TIMEOUT):
    """Wait until settled() or timeout.  Returns settle_s, settle ("ok" or
    "timeout"), and at the point's start hll_start (history list length)
    and ckpt_age_mb (checkpoint age)."""
    t0 = time.monotonic()
    prev = None
    while True:
        cur = innodb_status(_status_text(server))
        done = settled(prev, cur)
        if done or time.monotonic() - t0 > timeout:
            break
        prev = cur
        time.sleep(POLL_S)
    return {"settle_s": round(time.monotonic() - t0, 2), "settle": "ok" if done else "timeout",
            "hll_start": cur["history"],
            "ckpt_age_mb": round((cur["lsn"] - cur["checkpoint"]) / 2**20, 2)}

