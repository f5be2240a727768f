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

/** @file include/trx0hybrid.h
 innodb_hybrid_read_view: where trx_sys and ReadView meet the hybrid
 active-id sets of read0hybrid.h.

 With the switch ON, the global set hybrid_rw_trx_ids stands in for
 trx_sys->rw_trx_ids, which then stays empty; with it OFF, hybrid_rw_trx_ids
 is never allocated and the stock vector code runs.  The set is logically a
 member of trx_sys_t and, like rw_trx_ids, is protected by trx_sys->mutex;
 it lives here so that the upstream headers only gain calls. */

#ifndef trx0hybrid_h
#define trx0hybrid_h

#include "read0hybrid.h"
#include "trx0types.h"
#include "ut0counter.h"

/** innodb_hybrid_read_view: startup option, read-only at runtime. */
extern bool srv_hybrid_read_view;

#ifdef UNIV_DEBUG
/** innodb_hybrid_read_view_window_debug: ids the global bitmap covers, to
let tests slide the window at small scale; 0 means the default. */
extern ulong srv_hybrid_read_view_window_debug;
#endif /* UNIV_DEBUG */

/** The global set of active read-write trx ids, when the switch is ON.
Protected by trx_sys->mutex. */
extern hybrid::Active_rw_ids *hybrid_rw_trx_ids;

/** Counters behind SHOW GLOBAL STATUS LIKE 'Innodb_hybrid%'. */
struct hybrid_stats_t {
  /** Views prepared from the global set (under trx_sys->mutex). */
  std::atomic<uint64_t> views_opened{0};
  /** Bytes copied into views: bitmap words plus long ids. */
  std::atomic<uint64_t> bytes_copied{0};
  /** Visibility checks answered by one bit test. */
  ib_counter_t<uint64_t, 64> by_bitmap;
  /** Visibility checks answered by the long ids. */
  ib_counter_t<uint64_t, 64> by_long_list;
};
extern hybrid_stats_t hybrid_stats;

/** Values shown by SHOW GLOBAL STATUS, refreshed by hybrid_export_status(). */
struct hybrid_export_t {
  uint64_t views_opened;
  uint64_t bytes_copied;
  uint64_t visible_by_bitmap;
  uint64_t visible_by_long_list;
  uint64_t ids_demoted;
  uint64_t long_ids;
};
extern hybrid_export_t hybrid_export;

/** Allocate the global set if the switch is ON (from trx_sys_create). */
void trx_sys_hybrid_create();

/** Free the global set (from trx_sys_close). */
void trx_sys_hybrid_free();

/** Add an active read-write trx id: stands in for
trx_sys->rw_trx_ids.push_back().  Caller holds trx_sys->mutex, or is crash
recovery at startup. */
void trx_sys_rw_trx_id_add(trx_id_t id);

/** Remove a trx id: stands in for erasing from trx_sys->rw_trx_ids.
Caller holds trx_sys->mutex. */
void trx_sys_rw_trx_id_erase(trx_id_t id);

/** Refresh hybrid_export (from srv_export_innodb_status). */
void hybrid_export_status();

/** Visibility test of a view's hybrid snapshot, counted for SHOW STATUS.
@return whether id was active when the snapshot was taken */
inline bool hybrid_view_contains(const hybrid::Hybrid_snapshot &s,
                                 trx_id_t id) {
  if (s.in_short_range(id)) {
    hybrid_stats.by_bitmap.inc();
  } else {
    hybrid_stats.by_long_list.inc();
  }
  return s.contains(id);
}

#endif /* trx0hybrid_h */
