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

#include <atomic>
#include <memory>

#include "read0hybrid.h"
#include "trx0types.h"

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

/** Memory of the global set and of the views' snapshots, in
performance_schema as memory/innodb/hybrid_read_view. */
extern PSI_memory_key hybrid_memory_key;

/** Values shown by SHOW GLOBAL STATUS LIKE 'Innodb_hybrid%', copied from
hybrid_rw_trx_ids by hybrid_export_status(): the set counts under
trx_sys->mutex, and nothing is counted on a visibility check. */
struct hybrid_export_t {
  uint64_t views_opened;
  /** Views that got long ids: their visibility checks may binary-search
  them. */
  uint64_t views_with_long_ids;
  uint64_t ids_demoted;
  uint64_t long_ids;
};
extern hybrid_export_t hybrid_export;

/** Frees a view's snapshot (ReadView::m_hybrid), so that ReadView needs no
destructor of its own. */
struct hybrid_snapshot_deleter {
  void operator()(hybrid::Hybrid_snapshot *snapshot) const;
};

/** A ReadView's snapshot: allocated the first time the view is prepared with
the switch ON, so with it OFF a ReadView holds only this null pointer, in
room its padding had (see the hunk in read0types.h). */
using hybrid_snapshot_ptr =
    std::unique_ptr<hybrid::Hybrid_snapshot, hybrid_snapshot_deleter>;

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

#endif /* trx0hybrid_h */
