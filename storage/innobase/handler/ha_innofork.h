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

#include "btr0blink.h"
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

static MYSQL_SYSVAR_BOOL(
    btree_blink, srv_btree_blink, PLUGIN_VAR_OPCMDARG,
    "Create new index trees in the B-link format (innofork): indexes of "
    "tables created or rebuilt while ON get high keys and right links "
    "(btr/README.blink.md). Existing indexes keep their format; rebuild a "
    "table with this OFF to go back to the stock format.",
    nullptr, nullptr, false);

#ifdef UNIV_DEBUG
/** Runs the B-link validator (online: the online one) on every B-link index
in the dictionary cache when innodb_btree_blink_validate_debug (or
_online_debug) is set; the SET fails, with the first violation as a
warning, if one is found. */
static int blink_validate_check(THD *thd, void *save,
                                struct st_mysql_value *value, bool online) {
  long long on = 0;
  if (value->value_type(value) == MYSQL_VALUE_TYPE_STRING) {
    char buf[8];
    int len = sizeof(buf);
    const char *str = value->val_str(value, buf, &len);
    if (str == nullptr) {
      return 1;
    }
    if (!my_strcasecmp(system_charset_info, str, "ON") ||
        !my_strcasecmp(system_charset_info, str, "TRUE") ||
        !strcmp(str, "1")) {
      on = 1;
    } else if (my_strcasecmp(system_charset_info, str, "OFF") &&
               my_strcasecmp(system_charset_info, str, "FALSE") &&
               strcmp(str, "0")) {
      return 1;
    }
  } else {
    value->val_int(value, &on);
  }
  *static_cast<bool *>(save) = on != 0;
  if (on == 0) {
    return 0;
  }
  std::string msg;
  if (btr_blink_validate_all(&msg, online) == 0) {
    return 0;
  }
  push_warning_printf(thd, Sql_condition::SL_WARNING, ER_NOT_KEYFILE,
                      "InnoDB: %s", msg.c_str());
  return 1;
}

static int blink_validate_debug_check(THD *thd, SYS_VAR *, void *save,
                                      struct st_mysql_value *value) {
  return blink_validate_check(thd, save, value, false);
}

static int blink_validate_online_debug_check(THD *thd, SYS_VAR *, void *save,
                                             struct st_mysql_value *value) {
  return blink_validate_check(thd, save, value, true);
}

static MYSQL_SYSVAR_BOOL(
    btree_blink_validate_debug, srv_btree_blink_validate_debug,
    PLUGIN_VAR_OPCMDARG | PLUGIN_VAR_NOPERSIST,
    "Debug: SET it to ON to run the B-link validator on every B-link index "
    "in the dictionary cache; the SET fails if one is not valid.",
    blink_validate_debug_check, nullptr, false);

static MYSQL_SYSVAR_BOOL(
    btree_blink_validate_online_debug, srv_btree_blink_validate_online_debug,
    PLUGIN_VAR_OPCMDARG | PLUGIN_VAR_NOPERSIST,
    "Debug: SET it to ON to run the online B-link validator, which lets "
    "splits run, on every B-link index in the dictionary cache; the SET "
    "fails if one is not valid.",
    blink_validate_online_debug_check, nullptr, false);

static MYSQL_SYSVAR_ULONG(
    hybrid_read_view_window_debug, srv_hybrid_read_view_window_debug,
    PLUGIN_VAR_RQCMDARG | PLUGIN_VAR_READONLY,
    "Debug: number of ids the global bitmap window of innodb_hybrid_read_view "
    "covers, rounded up to a power of two (0 = 524288).",
    nullptr, nullptr, 0, 0, hybrid::Active_rw_ids::DEFAULT_WINDOW_BITS, 0);
#define INNOFORK_DEBUG_SYSTEM_VARIABLES                \
  MYSQL_SYSVAR(hybrid_read_view_window_debug),          \
      MYSQL_SYSVAR(btree_blink_validate_debug),         \
      MYSQL_SYSVAR(btree_blink_validate_online_debug),
#else
#define INNOFORK_DEBUG_SYSTEM_VARIABLES
#endif /* UNIV_DEBUG */

#define INNOFORK_SYSTEM_VARIABLES                              \
  MYSQL_SYSVAR(hybrid_read_view), MYSQL_SYSVAR(view_close_latch_free), \
      MYSQL_SYSVAR(btree_blink), INNOFORK_DEBUG_SYSTEM_VARIABLES

/** SHOW STATUS: Innodb_btree_blink_indexes, counted on demand. */
static int show_btree_blink_indexes(THD *, SHOW_VAR *var, char *buff) {
  var->type = SHOW_LONGLONG;
  var->value = buff;
  *reinterpret_cast<longlong *>(buff) =
      static_cast<longlong>(btr_blink_n_cached_indexes());
  return 0;
}

/* The split counters are shown by address, as SHOW_LONGLONG. */
static_assert(sizeof(std::atomic<uint64_t>) == sizeof(longlong) &&
              std::atomic<uint64_t>::is_always_lock_free);

#define INNOFORK_STATUS_VARIABLES                                          \
  {"hybrid_views_opened", (char *)&hybrid_export.views_opened,             \
   SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                      \
      {"hybrid_views_with_long_ids",                                       \
       (char *)&hybrid_export.views_with_long_ids, SHOW_LONGLONG,          \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"hybrid_ids_demoted", (char *)&hybrid_export.ids_demoted,           \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"hybrid_long_ids", (char *)&hybrid_export.long_ids, SHOW_LONGLONG,  \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"view_close_latch_free", (char *)&view_close_export.latch_free,     \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"view_close_latched", (char *)&view_close_export.latched,           \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"btree_blink_indexes", (char *)&show_btree_blink_indexes, SHOW_FUNC, \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_leaf_splits", (char *)&btr_blink_stats.leaf_splits,    \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"btree_blink_nonleaf_splits",                                       \
       (char *)&btr_blink_stats.nonleaf_splits, SHOW_LONGLONG,             \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_move_rights", (char *)&btr_blink_stats.move_rights,    \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"btree_blink_move_left_steps",                                      \
       (char *)&btr_blink_stats.move_left_steps, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_descent_restarts",                                     \
       (char *)&btr_blink_stats.descent_restarts, SHOW_LONGLONG,           \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_merges", (char *)&btr_blink_stats.merges,              \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"btree_blink_discards", (char *)&btr_blink_stats.discards,          \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                  \
      {"btree_blink_leveled_splits",                                       \
       (char *)&btr_blink_stats.leveled_splits, SHOW_LONGLONG,             \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_splits_finished",                                      \
       (char *)&btr_blink_stats.splits_finished, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_splits_finished_by_others",                            \
       (char *)&btr_blink_stats.splits_finished_by_others, SHOW_LONGLONG,  \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_cascades_interrupted",                                 \
       (char *)&btr_blink_stats.cascades_interrupted, SHOW_LONGLONG,       \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_exclusive_paths",                                      \
       (char *)&btr_blink_stats.exclusive_paths, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},

#endif /* ha_innofork_h */
