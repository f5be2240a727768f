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
 ids, and the ReadView methods that snapshot it.  See trx0hybrid.h. */

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
hybrid_stats_t hybrid_stats;
hybrid_export_t hybrid_export;

void trx_sys_hybrid_create() {
  ut_ad(hybrid_rw_trx_ids == nullptr);
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
  hybrid_rw_trx_ids =
      ut::new_withkey<hybrid::Active_rw_ids>(UT_NEW_THIS_FILE_PSI_KEY, window);
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
  hybrid_export.views_opened = hybrid_stats.views_opened.load();
  hybrid_export.bytes_copied = hybrid_stats.bytes_copied.load();
  hybrid_export.visible_by_bitmap = hybrid_stats.by_bitmap;
  hybrid_export.visible_by_long_list = hybrid_stats.by_long_list;
  if (hybrid_rw_trx_ids != nullptr) {
    trx_sys_mutex_enter();
    hybrid_export.ids_demoted = hybrid_rw_trx_ids->n_demoted();
    hybrid_export.long_ids = hybrid_rw_trx_ids->n_long();
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
  const size_t bytes = m_hybrid.copy_from(*hybrid_rw_trx_ids, m_creator_trx_id);
  /* Relaxed load + store: both run under trx_sys->mutex. */
  hybrid_stats.views_opened.store(hybrid_stats.views_opened.load() + 1,
                                  std::memory_order_relaxed);
  hybrid_stats.bytes_copied.store(hybrid_stats.bytes_copied.load() + bytes,
                                  std::memory_order_relaxed);
  ut_ad(m_hybrid.empty() || m_hybrid.min() < m_low_limit_id);
  ut_d(hybrid_check_ids_active());
}

void ReadView::hybrid_copy_prepare(const ReadView &other) {
  m_hybrid.copy_from(other.m_hybrid);
}

void ReadView::hybrid_copy_complete() {
  if (m_creator_trx_id > 0) {
    m_hybrid.insert(m_creator_trx_id);
  }
  if (!m_hybrid.empty()) {
    m_up_limit_id = std::min(m_hybrid.min(), m_up_limit_id);
  }
}
