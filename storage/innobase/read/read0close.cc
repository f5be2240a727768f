/*****************************************************************************

Copyright (c) 2026, the innofork authors.

This program is free software; you can redistribute it and/or modify it under
the terms of the GNU General Public License, version 2.0, as published by the
Free Software Foundation.

This program is distributed in the hope that it will be useful, but WITHOUT
ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS
FOR A PARTICULAR PURPOSE. See the GNU General Public License, version 2.0,
for more details.

*****************************************************************************/

/** @file read/read0close.cc
 innodb_view_close_latch_free: close a READ COMMITTED statement's read view
 without trx_sys->mutex.

 Stock InnoDB, at READ COMMITTED and below, closes the statement's view in
 ha_innobase::external_lock() / store_lock() with MVCC::view_close(view,
 true) under trx_sys->mutex (the view goes from m_views to m_free), and the
 next statement's MVCC::view_open() takes the mutex again to open a new one:
 two acquisitions of the busiest latch in InnoDB per statement.  With the
 switch ON the close is MVCC::view_close(view, false): the view is marked
 closed (m_closed = true) and the owner's pointer tagged with bit 0; it stays
 on m_views until the owner reopens or frees it under the mutex it takes
 anyway.

 Correctness argument

 C1. Who closes this way.  trx_close_statement_view() is called only for a
     transaction at READ COMMITTED or below with an active view, at a
     statement boundary of a multi-statement transaction (autocommit
     statements end in trx commit instead, where read-only transactions
     already close latch-free and read-write ones close under the mutex they
     hold for trx_erase_lists()).  The owner does not read through the view
     after the boundary, exactly as in the stock code.

 C2. Purge (MVCC::clone_oldest_view) runs under trx_sys->mutex and skips
     views with m_closed == true.  The owner's last read through the view is
     sequenced-before its m_closed.store(true) (seq_cst); if purge loads
     true, that store happens-before purge's decision, so every read the
     statement made happened before purge may free the undo it needed.  If
     purge loads false, it treats the view as open: it keeps more undo than
     needed, never less.  A closed view's contents are never changed by
     closing, so purge copying a view that is being closed copies a
     consistent snapshot (the copy runs under the mutex; the close writes
     only m_closed).

 C3. Reopening.  The next statement calls MVCC::view_open() with the tagged
     pointer.  A transaction that is not autocommit-non-locking-read-only
     (AC-NL-RO) never takes view_open()'s latch-free reuse path: it takes
     trx_sys->mutex, removes the view from m_views, prepares it afresh and
     puts it back at the head, as for any first view.  An AC-NL-RO
     transaction may take the reuse path, but a closed view of an AC-NL-RO
     transaction still on m_views is exactly what the stock code leaves after
     a read-only commit (trx_commit_in_memory() closes with
     view_close(view, false) too), and the P1/P2 argument in
     MVCC::view_open() covers it.  So no new kind of transaction reuses a
     view without the mutex, and that argument needs no extension.

 C4. Commit, rollback, XA PREPARE, disconnect.  A read-write commit frees
     the view with view_close(view, true) inside trx_erase_lists() under the
     mutex it already holds; view_close(own_mutex=true) untags the pointer,
     so a view closed here is unlinked and returned to m_free there.
     trx_disconnect_from_mysql() (plain disconnect, KILL, and disconnect after
     XA PREPARE via trx_disconnect_prepared()) does the same under the mutex
     it holds for mysql_trx_list.  Those sites stay as they are: they hold the
     mutex for other work, so closing there latch-free would save nothing and
     would leave views on m_views after their owner is gone.  XA PREPARE
     itself does not close the view.

 C5. Memory.  A transaction owns at most one view (trx->read_view), closed
     or open; closing latch-free does not allocate.  So m_views holds at most
     one view per trx_t, and the views are returned to m_free at commit or
     disconnect (C4).  Nothing grows with the number of statements.

 Memory-ordering table: each shared variable read without the latch that
 writes it.  W: who writes it, under what; R: who reads it without that;
 O: the ordering that makes the read safe.

 ReadView::m_closed
   W  the owner, no latch: true here; false in prepare() under the mutex,
      and in view_open()'s reuse path for AC-NL-RO transactions (stock).
   R  purge (MVCC::clone_oldest_view()) under trx_sys->mutex, which the
      owner does not hold.
   O  seq_cst store, seq_cst load (C2): a release and an acquire, so the
      owner's reads of undo, sequenced before the store, happen before
      purge acts on `true`.
 The view's limits and ids (m_low_limit_id, m_ids or m_hybrid, ...)
   W  the owner, in prepare() under trx_sys->mutex; closing writes none of
      them (C2).
   R  the owner, no latch; purge under the mutex.
   O  the mutex orders the owner's writes before purge's copy; the owner
      reads its own writes.
 trx->read_view (the pointer and its bit-0 tag)
   W  the owner, no latch (here, and at every read-only commit in stock).
   R  SHOW ENGINE INNODB STATUS (lock_trx_print_wait_and_mvcc_state())
      under the mutex.
   O  none: a formal data race that stock has too.  It is one aligned
      pointer store, which does not tear on aarch64 or x86, and either value
      names a view that stays on m_views, with limits the mutex orders.
 srv_view_close_latch_free
   W  SET GLOBAL (a plain bool).   R  statement boundaries.
   O  none: a formal data race, as for every InnoDB dynamic switch.  Both
      branches are correct at any moment; a stale value only delays the
      switch's effect.
 view_close_stats
   W  ib_counter_t's plain adds.   R  SHOW GLOBAL STATUS.
   O  none: approximate, as stock's counters are.

 Why this holds on a weakly ordered machine and not only on x86: the one
 latch-free publication, m_closed, is a release/acquire pair in the C++
 memory model (GCC emits stlrb and ldarb on aarch64).  x86's TSO would have
 kept even a plain store after the owner's earlier loads; aarch64 does not,
 and a relaxed store there could let purge free undo records the owner is
 still reading.  Everything else is ordered by trx_sys->mutex.  The fast
 tier's read0hybrid-concurrent-tsan-t runs this protocol (owners, writers,
 purge) under ThreadSanitizer.

 Hazards named in the issue

 * PS-11308 (Percona): read-view reuse by READ COMMITTED autocommit
   transactions racing with cloning the view in view_open().  Upstream 9.7
   has no cross-session view cloning; the only clone is purge's
   clone_oldest_view(), covered by C2.  The reuse window in view_open()
   (m_closed = false, then check m_low_limit_id) is reached only by AC-NL-RO
   transactions (C3), as in stock, and is protected by the P1 argument there.
 * MySQL bug #88422: closed views left on m_views lengthen purge's scan
   under the mutex.  With the switch ON a view stays on m_views between the
   statements of an open READ COMMITTED transaction, at most one per
   transaction (C5), so the scan is bounded by the number of open
   transactions, the same bound the stock code has with open views; the
   views leave the list at commit or disconnect (C4).

 Debug builds assert the preconditions below and, now and then, that the
 view being closed is on m_views. */

#include "read0close.h"

#include "read0read.h"
#include "trx0sys.h"
#include "trx0trx.h"

#include "sql/debug_sync.h"

bool srv_view_close_latch_free = false;
view_close_stats_t view_close_stats;
view_close_export_t view_close_export;

#ifdef UNIV_DEBUG
bool MVCC::is_listed(const ReadView *view) const {
  ut_ad(trx_sys_mutex_own());
  for (const ReadView *v : m_views) {
    if (v == view) return true;
  }
  return false;
}

/** @return whether a (possibly tagged) view is on trx_sys->mvcc->m_views */
static bool view_is_listed(const ReadView *view) {
  view = reinterpret_cast<const ReadView *>(uintptr_t(view) & ~uintptr_t{1});
  trx_sys_mutex_enter();
  const bool found = trx_sys->mvcc->is_listed(view);
  trx_sys_mutex_exit();
  return found;
}
#endif /* UNIV_DEBUG */

void trx_close_statement_view(trx_t *trx) {
  ut_ad(trx->isolation_level <= TRX_ISO_READ_COMMITTED);
  ut_ad(MVCC::is_view_active(trx->read_view));

  if (!srv_view_close_latch_free) {
    trx_sys_mutex_enter();
    trx_sys->mvcc->view_close(trx->read_view, true);
    trx_sys_mutex_exit();
    view_close_stats.latched.inc();
    return;
  }

  /* C4, C5: the view is on m_views, so that the next view_open() or
  view_close(view, true) can unlink it. */
  ut_ad(ut::random_from_interval_fast(0, 99) != 0 ||
        view_is_listed(trx->read_view));

  trx_sys->mvcc->view_close(trx->read_view, false);
  view_close_stats.latch_free.inc();

  ut_ad(trx->read_view != nullptr);
  ut_ad(!MVCC::is_view_active(trx->read_view));
  DEBUG_SYNC_C("innodb_after_view_close_latch_free");
}

void view_close_export_status() {
  view_close_export.latch_free = view_close_stats.latch_free;
  view_close_export.latched = view_close_stats.latched;
}
