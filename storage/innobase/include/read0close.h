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

/** @file include/read0close.h
 innodb_view_close_latch_free: closing the read view of a READ COMMITTED
 statement without trx_sys->mutex.  The correctness argument is in
 read/read0close.cc. */

#ifndef read0close_h
#define read0close_h

#include "trx0types.h"
#include "ut0counter.h"

/** innodb_view_close_latch_free: dynamic, global. */
extern bool srv_view_close_latch_free;

/** Counters behind SHOW GLOBAL STATUS LIKE 'Innodb_view_close%'. */
struct view_close_stats_t {
  /** Statement views closed without trx_sys->mutex. */
  ib_counter_t<uint64_t, 64> latch_free;
  /** Statement views closed under trx_sys->mutex (switch OFF). */
  ib_counter_t<uint64_t, 64> latched;
};
extern view_close_stats_t view_close_stats;

/** Values shown by SHOW GLOBAL STATUS, refreshed by
view_close_export_status(). */
struct view_close_export_t {
  uint64_t latch_free;
  uint64_t latched;
};
extern view_close_export_t view_close_export;

/** Close the read view of a transaction at READ COMMITTED or below at a
statement boundary (ha_innobase::external_lock() and store_lock()).
@param[in,out] trx  transaction whose view is active */
void trx_close_statement_view(trx_t *trx);

/** Refresh view_close_export (from srv_export_innodb_status). */
void view_close_export_status();

#endif /* read0close_h */
