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

/** @file trx/trx0hybrid.cc
 innodb_hybrid_read_view: the global hybrid set of active read-write trx
 ids, and the ReadView methods that snapshot it.  See trx0hybrid.h.

 Memory-ordering table (W: who writes, under what; R: who reads; O: the
 ordering that makes the read safe):

 The global set's contents (hybrid_rw_trx_ids: words, long ids, bounds)
   W  trx_sys_rw_trx_id_add() and _erase(), and the demotion inside
      Hybrid_snapshot::copy_from(), all under trx_sys->mutex; crash
      recovery's adds at startup, with no mutex.
   R  view prepare(), the debug checks, hybrid_export_status(): all under
      the mutex.
   O  the mutex; recovery's adds happen before any other thread exists, and
      thread creation orders them before the new thread's reads.
 hybrid_rw_trx_ids (the pointer) and srv_hybrid_read_view (read-only)
   W  trx_sys_hybrid_create() at startup; freed at shutdown after the
      threads that read it have stopped.
   R  every thread, no latch.
   O  written before the readers are created (pthread_create synchronizes
      with the new thread), never changed while they run.
 A view's snapshot (ReadView::m_hybrid)
   W  its owner, in prepare() under the mutex (purge writes only its own
      view).
   R  the owner, no latch (visibility checks); purge copying the oldest
      open view, under the mutex.
   O  as for the view's limits (read0close.cc): the mutex orders the
      owner's writes before purge's copy, and the owner reads its own.  The
      copy and the checks are two readers: copy_from(const
      Hybrid_snapshot &), contains() and min_or() are const, and the class
      has no mutable member.
 hybrid_export
   W  SHOW GLOBAL STATUS, copying under the mutex.   R  SHOW GLOBAL STATUS.
   O  none between two concurrent SHOW STATUS: a formal race, as stock's
      export_vars.

 Nothing here depends on x86's TSO: the only synchronization is the mutex
 (acquire at enter, release at exit on every architecture) and thread
 creation.  unittest/gunit/innodb/read0hybrid-concurrent-t.cc runs writers,
 view owners and purge on these classes, plainly and under
 ThreadSanitizer (the fast tier). */

#include "trx0hybrid.h"

#include <chrono>
#include <thread>

#include "read0types.h"
#include "srv0start.h"
#include "trx0sys.h"

bool srv_hybrid_read_view = false;
#ifdef UNIV_DEBUG
ulong srv_hybrid_read_view_window_debug = 0;
#endif /* UNIV_DEBUG */

hybrid::Active_rw_ids *hybrid_rw_trx_ids = nullptr;
hybrid_export_t hybrid_export;
PSI_memory_key hybrid_memory_key = PSI_NOT_INSTRUMENTED;

/* ReadView gained a pointer (m_hybrid) in room taken from its padding: with
the switch OFF a view must cost what it costs in stock MySQL.  These are
MySQL 9.7.2's ReadView members, in order (read0types.h). */
namespace {
struct Stock_read_view {
  trx_id_t m_low_limit_id, m_up_limit_id, m_creator_trx_id;
  struct {
    trx_id_t *m_ptr;
    ulint m_size, m_reserved;
  } m_ids;
  trx_id_t m_low_limit_no;
  std::atomic_bool m_closed;
  byte pad1[64 - 2 * sizeof(void *)];
  void *m_view_list[2];
};
}  // namespace
static_assert(sizeof(ReadView) == sizeof(Stock_read_view),
              "ReadView must keep stock MySQL's size");

/** Register memory/innodb/hybrid_read_view with performance_schema. */
static void hybrid_register_memory_key() {
#ifdef UNIV_PFS_MEMORY
  static PSI_memory_info info[] = {
      {&hybrid_memory_key, "hybrid_read_view", 0, 0,
       "innodb_hybrid_read_view: the active transaction id set and the read "
       "views' snapshots of it"}};
  mysql_memory_register("innodb", info, 1);
#endif /* UNIV_PFS_MEMORY */
}

void hybrid_snapshot_deleter::operator()(
    hybrid::Hybrid_snapshot *snapshot) const {
  ut::delete_(snapshot);
}

/** @return a view's snapshot, allocated on its first use */
static hybrid::Hybrid_snapshot &hybrid_snapshot_of(hybrid_snapshot_ptr &p) {
  if (p == nullptr) {
    p.reset(ut::new_withkey<hybrid::Hybrid_snapshot>(
        ut::make_psi_memory_key(hybrid_memory_key),
        hybrid_allocator<uint64_t>(hybrid_memory_key)));
  }
  return *p;
}

void trx_sys_hybrid_create() {
  ut_ad(hybrid_rw_trx_ids == nullptr);
  /* Registered with the switch OFF too, so that performance_schema shows
  that nothing is allocated. */
  hybrid_register_memory_key();
  if (!srv_hybrid_read_view) {
    return;
  }
  size_t window = hybrid::Active_rw_ids::DEFAULT_WINDOW_BITS;
#ifdef UNIV_DEBUG
  if (srv_hybrid_read_view_window_debug != 0) {
    /* Round to a power of two of at least one word. */
    window = hybrid::WORD_BITS;
    while (window < srv_hybrid_read_view_window_debug &&
           window < hybrid::Active_rw_ids::DEFAULT_WINDOW_BITS) {
      window *= 2;
    }
  }
#endif /* UNIV_DEBUG */
  hybrid_rw_trx_ids = ut::new_withkey<hybrid::Active_rw_ids>(
      ut::make_psi_memory_key(hybrid_memory_key), window,
      hybrid_allocator<uint64_t>(hybrid_memory_key));
  ib::info() << "innodb_hybrid_read_view: active transaction ids kept as a "
             << window << "-id bitmap window plus a vector of long ones;"
             << " read views hold a " << hybrid::Hybrid_snapshot::BITS
             << "-id bitmap";
}

void trx_sys_hybrid_free() {
  ut::delete_(hybrid_rw_trx_ids);
  hybrid_rw_trx_ids = nullptr;
}

void trx_sys_rw_trx_id_add(trx_id_t id) {
  /* Crash recovery (trx_lists_init_at_db_start) adds resurrected ids before
  any other thread runs, without the mutex; everyone else holds it. */
  ut_ad(trx_sys_mutex_own() || srv_is_being_started);
  if (srv_hybrid_read_view) {
    hybrid_rw_trx_ids->insert(id);
    ut_ad(ut::random_from_interval_fast(0, 99) != 0 || hybrid_rw_trx_ids->validate());
  } else {
    trx_sys->rw_trx_ids.push_back(id);
  }
}

void trx_sys_rw_trx_id_erase(trx_id_t id) {
  ut_ad(trx_sys_mutex_own());
  if (srv_hybrid_read_view) {
    hybrid_rw_trx_ids->erase(id);
    return;
  }
  auto it = std::lower_bound(trx_sys->rw_trx_ids.begin(),
                             trx_sys->rw_trx_ids.end(), id);
  ut_ad(*it == id);
  trx_sys->rw_trx_ids.erase(it);
}

void hybrid_export_status() {
  if (hybrid_rw_trx_ids != nullptr) {
    trx_sys_mutex_enter();
    hybrid_export.ids_demoted = hybrid_rw_trx_ids->n_demoted();
    hybrid_export.long_ids = hybrid_rw_trx_ids->n_long();
    hybrid_export.views_opened = hybrid_rw_trx_ids->n_snapshots();
    hybrid_export.views_with_long_ids =
        hybrid_rw_trx_ids->n_snapshots_with_long_ids();
    trx_sys_mutex_exit();
  }
}

#ifdef UNIV_DEBUG
/** Now and then (as the stock copy_trx_ids() does), check that every id in
the global set belongs to an ACTIVE or PREPARED transaction. */
static void hybrid_check_ids_active() {
  if (ut::random_from_interval_fast(0, 99) != 0) {
    return;
  }
  hybrid_rw_trx_ids->for_each([](trx_id_t id) {
    while (trx_sys->latch_and_execute_with_active_trx(
        id,
        [](trx_t *trx) {
          if (trx == nullptr) {
            /* Added to the set, not yet to its shard: wait for it. */
            return true;
          }
          const auto state = trx->state.load(std::memory_order_relaxed);
          ut_ad(state == TRX_STATE_ACTIVE || state == TRX_STATE_PREPARED);
          return false;
        },
        UT_LOCATION_HERE)) {
      std::this_thread::sleep_for(std::chrono::microseconds(10));
    }
  });
}
#endif /* UNIV_DEBUG */

/* ReadView methods for the hybrid snapshot.  They mirror copy_trx_ids(),
copy_prepare() and copy_complete() in read0read.cc: the view holds every
active id but its creator's, and m_up_limit_id is the smallest of them. */

void ReadView::hybrid_copy_trx_ids() {
  ut_ad(trx_sys_mutex_own());
  ut_ad(m_creator_trx_id == 0 || hybrid_rw_trx_ids->contains(m_creator_trx_id));
  /* A pooled view allocates its snapshot once, here, as stock views grow
  their m_ids here. */
  hybrid::Hybrid_snapshot &snapshot = hybrid_snapshot_of(m_hybrid);
  snapshot.copy_from(*hybrid_rw_trx_ids, m_creator_trx_id);
  ut_ad(snapshot.empty() || snapshot.min_or(m_low_limit_id) < m_low_limit_id);
  ut_d(hybrid_check_ids_active());
}

void ReadView::hybrid_copy_prepare(const ReadView &other) {
  hybrid_snapshot_of(m_hybrid).copy_from(*other.m_hybrid);
}

void ReadView::hybrid_copy_complete() {
  if (m_creator_trx_id > 0) {
    m_hybrid->insert(m_creator_trx_id);
  }
  m_up_limit_id = m_hybrid->min_or(m_up_limit_id);
}
