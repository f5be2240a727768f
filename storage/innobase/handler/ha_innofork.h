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

/** @file handler/ha_innofork.h
 The fork's system and status variables.  Included once, by ha_innodb.cc,
 which lists INNOFORK_SYSTEM_VARIABLES and INNOFORK_STATUS_VARIABLES in its
 arrays: MYSQL_SYSVAR() objects must live in the plugin's own file. */

#ifndef ha_innofork_h
#define ha_innofork_h

#include "read0close.h"
#include "trx0hybrid.h"

static MYSQL_SYSVAR_BOOL(
    hybrid_read_view, srv_hybrid_read_view,
    PLUGIN_VAR_OPCMDARG | PLUGIN_VAR_READONLY,
    "Keep the active read-write transaction ids as a bitmap over the recent "
    "ones plus a sorted vector of the few long-running ones, in trx_sys and "
    "in every read view (innofork). OFF runs the stock sorted-vector code.",
    nullptr, nullptr, false);

static MYSQL_SYSVAR_BOOL(
    view_close_latch_free, srv_view_close_latch_free, PLUGIN_VAR_OPCMDARG,
    "At READ COMMITTED and below, close a statement's read view without "
    "trx_sys->mutex; the next statement reopens it under the mutex it takes "
    "anyway (innofork). OFF closes it under the mutex, as stock InnoDB does.",
    nullptr, nullptr, false);

#ifdef UNIV_DEBUG
static MYSQL_SYSVAR_ULONG(
    hybrid_read_view_window_debug, srv_hybrid_read_view_window_debug,
    PLUGIN_VAR_RQCMDARG | PLUGIN_VAR_READONLY,
    "Debug: number of ids the global bitmap window of innodb_hybrid_read_view "
    "covers, rounded up to a power of two (0 = 524288).",
    nullptr, nullptr, 0, 0, hybrid::Active_rw_ids::DEFAULT_WINDOW_BITS, 0);
#define INNOFORK_DEBUG_SYSTEM_VARIABLES MYSQL_SYSVAR(hybrid_read_view_window_debug),
#else
#define INNOFORK_DEBUG_SYSTEM_VARIABLES
#endif /* UNIV_DEBUG */

#define INNOFORK_SYSTEM_VARIABLES                              \
  MYSQL_SYSVAR(hybrid_read_view), MYSQL_SYSVAR(view_close_latch_free), \
      INNOFORK_DEBUG_SYSTEM_VARIABLES

#define INNOFORK_STATUS_VARIABLES                                          \
  {"hybrid_views_opened", (char *)&hybrid_export.views_opened,             \
   SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                      \
      {"hybrid_view_bytes_copied", (char *)&hybrid_export.bytes_copied,    \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"hybrid_visible_by_bitmap", (char *)&hybrid_export.visible_by_bitmap, \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"hybrid_visible_by_long_list",                                      \
       (char *)&hybrid_export.visible_by_long_list, SHOW_LONGLONG,         \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"hybrid_ids_demoted", (char *)&hybrid_export.ids_demoted,           \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"hybrid_long_ids", (char *)&hybrid_export.long_ids, SHOW_LONGLONG,  \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"view_close_latch_free", (char *)&view_close_export.latch_free,     \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"view_close_latched", (char *)&view_close_export.latched,           \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},

#endif /* ha_innofork_h */
