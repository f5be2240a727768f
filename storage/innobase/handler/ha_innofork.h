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
#include "btr0blink_reserve.h"
#include "mtr0hold.h"
#include "read0close.h"
#include "sql/sql_parse.h"
#include "trx0hybrid.h"
#include "trx0throttle.h"

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

static MYSQL_SYSVAR_ULONG(
    btree_blink_reserve_pages, srv_btree_blink_reserve_pages,
    PLUGIN_VAR_RQCMDARG,
    "Pages each B-link index keeps allocated for its leaf splits, refilled "
    "after a row insert when half are used, so that a leaf split latches no "
    "tablespace page (innofork, btr/README.blink.md RV1). A split takes two; "
    "1 acts as 2. 0 allocates inside each split.",
    nullptr, nullptr, 32, 0, 256, 0);

static MYSQL_SYSVAR_BOOL(
    btree_blink_page_delete, srv_btree_blink_page_delete, PLUGIN_VAR_OPCMDARG,
    "On B-link indexes, purge and rollback that empty a leaf take it out of "
    "its level under the index lock in S, and no page is merged (innofork, "
    "btr/README.blink.md, Page deletion). OFF: they merge and discard pages "
    "under the index lock in X, which stops every reader of the index.",
    nullptr, nullptr, true);

static MYSQL_SYSVAR_BOOL(
    btree_blink_sibling_insert, srv_btree_blink_sibling_insert,
    PLUGIN_VAR_OPCMDARG,
    "On B-link indexes, a row insert after the last record of a full leaf "
    "goes to the start of the leaf's right sibling when that has room, "
    "instead of splitting the leaf, as stock InnoDB does (innofork, "
    "btr/README.blink.md, RS1). OFF: the leaf splits.",
    nullptr, nullptr, true);

static MYSQL_SYSVAR_BOOL(
    btree_blink_leveled_update, srv_btree_blink_leveled_update,
    PLUGIN_VAR_OPCMDARG,
    "On B-link indexes, an update that grows a row beyond its leaf, or the "
    "rollback of one that shortened it, splits the leaf under the index lock "
    "in S, as a row insert does (innofork, btr/README.blink.md, Updates). "
    "OFF: under the index lock in X, which stops every reader of the index. "
    "Rows with externally stored columns take X either way.",
    nullptr, nullptr, true);

static MYSQL_SYSVAR_BOOL(
    btree_blink_leveled_external, srv_btree_blink_leveled_external,
    PLUGIN_VAR_OPCMDARG,
    "On B-link indexes, a row insert writes the BLOB, TEXT and JSON values "
    "it stores off the page under the index lock in S, and so splits the "
    "leaf of such a row; purge and rollback free them under S when the "
    "leaf keeps other rows (innofork, btr/README.blink.md, Updates). OFF: "
    "under the index lock in X, which stops every reader of the index.",
    nullptr, nullptr, true);

static MYSQL_SYSVAR_BOOL(
    btree_blink_unlocked_descents, srv_btree_blink_unlocked_descents,
    PLUGIN_VAR_OPCMDARG,
    "On B-link indexes, a descent to the leaf level takes no index lock: it "
    "announces itself in a slot of its thread, and an X on the index lock "
    "waits for the descents announced (innofork, "
    "btr/README.blink.md, Descents without the index lock). OFF: every "
    "descent holds the index lock in S, as in stock.",
    nullptr, nullptr, true);

/** innodb_trx_throttling: the gate follows the variable. */
static void trx_throttling_update(THD *, SYS_VAR *, void *var_ptr,
                                  const void *save) {
  const ulong limit = *static_cast<const ulong *>(save);
  *static_cast<ulong *>(var_ptr) = limit;
  trx_gate.set_limit(limit);
}

static MYSQL_SYSVAR_ULONG(
    trx_throttling, srv_trx_throttling, PLUGIN_VAR_RQCMDARG,
    "The most user transactions active in InnoDB at once (innofork, "
    "trx/README.throttling.md): the first statement of a transaction waits "
    "for a slot, which the transaction keeps until it commits, rolls back or "
    "is XA PREPAREd. 0 (the default) is off.",
    nullptr, trx_throttling_update, 0, 0, 100000, 0);

static MYSQL_THDVAR_ULONG(
    trx_throttling_timeout, PLUGIN_VAR_RQCMDARG,
    "Seconds a transaction waits for a slot of innodb_trx_throttling before "
    "its statement fails with ER_TOO_MANY_CONCURRENT_TRXS (innofork); 0 "
    "fails at once.",
    nullptr, nullptr, 10, 0, 1024 * 1024 * 1024, 0);

/** PROCESSLIST's State, and performance_schema's stage, of a waiter. */
static PSI_stage_info trx_throttling_stage = {
    0, "waiting for an InnoDB transaction slot", 0, PSI_DOCUMENT_ME};

/** What the fork sets up at InnoDB's plugin initialization. */
static void innofork_init() {
#ifdef HAVE_PSI_STAGE_INTERFACE
  PSI_stage_info *stages[] = {&trx_throttling_stage};
  mysql_stage_register("innodb", stages, 1);
#endif /* HAVE_PSI_STAGE_INTERFACE */
  trx_gate.set_limit(srv_trx_throttling);
}

/** innodb_trx_throttling T2: whose statements never ask for a slot.
System threads (replication appliers, the event scheduler and its events,
the server's own sessions), attachable transactions (data dictionary reads,
the GTID table), the GTID table written in the user's session at commit,
the data dictionary's tables, and statements that commit at their end (DDL
and administration: their transaction is their own). */
static bool trx_throttle_exempt(THD *thd, const dict_table_t *table) {
  return thd->system_thread != NON_SYSTEM_THREAD ||
         thd->is_attachable_transaction_active() ||
         thd->is_operating_gtid_table_implicitly ||
         thd->is_operating_substatement_implicitly || table->is_dd_table ||
         stmt_causes_implicit_commit(thd, CF_IMPLICIT_COMMIT_END);
}

/** innodb_trx_throttling T1: whether trx may wait for a slot: it holds
none, and no InnoDB lock or undo.  A transaction not started qualifies, and
so does one started without a slot (by an exempt statement's data
dictionary read, or by START TRANSACTION WITH CONSISTENT SNAPSHOT) while it
is read-only and holds no lock: a read view at most, which nothing waits
for. */
static bool trx_throttle_may_wait(const trx_t *trx) {
  if (trx->throttle_slot) {
    return false;
  }
  /* The owner may test the lock list for emptiness without a latch
  (trx_t::lock::trx_locks); a trx without undo gains no lock from others. */
  return !trx_is_started(trx) ||
         (trx->id == 0 && UT_LIST_GET_LEN(trx->lock.trx_locks) == 0);
}

/** innodb_trx_throttling T1: a transaction takes a slot when a statement
first locks one of its InnoDB tables (external_lock, start_stmt) while it
may wait (trx_throttle_may_wait()), waiting if none is free.
@return DB_SUCCESS (admitted, or nothing to admit), DB_TOO_MANY_CONCURRENT_TRXS
at innodb_trx_throttling_timeout, DB_INTERRUPTED if the session was killed */
static dberr_t trx_throttle_admit(THD *thd, trx_t *trx,
                                  const dict_table_t *table) {
  if (trx_gate.limit() == 0 || !trx_throttle_may_wait(trx) ||
      trx_throttle_exempt(thd, table)) {
    return DB_SUCCESS;
  }
  if (trx_gate.try_enter()) {
    trx->throttle_slot = true;
    return DB_SUCCESS;
  }
  /* T6: no thread waits for a slot inside innodb_thread_concurrency. */
  if (trx->declared_to_be_inside_innodb) {
    srv_conc_force_exit_innodb(trx);
  }
  const ulong timeout = THDVAR(thd, trx_throttling_timeout);
  PSI_stage_info old_stage;
  thd->enter_stage(&trx_throttling_stage, &old_stage, __func__, __FILE__,
                   __LINE__);
  thd_wait_begin(thd, THD_WAIT_USER_LOCK);
  const auto result = trx_gate.enter(
      trx, thd_get_thread_id(thd),
      trx_throttle::Clock::now() + std::chrono::seconds(timeout),
      [thd] { return thd_killed(thd) != 0; });
  thd_wait_end(thd);
  thd->enter_stage(&old_stage, nullptr, __func__, __FILE__, __LINE__);

  switch (result) {
    case trx_throttle::Trx_gate::Result::ADMITTED:
      trx->throttle_slot = true;
      [[fallthrough]];
    case trx_throttle::Trx_gate::Result::OFF:
      return DB_SUCCESS;
    case trx_throttle::Trx_gate::Result::TIMED_OUT:
      push_warning_printf(
          thd, Sql_condition::SL_WARNING, ER_TOO_MANY_CONCURRENT_TRXS,
          "InnoDB: no transaction slot free within "
          "innodb_trx_throttling_timeout (%lu s); innodb_trx_throttling is %lu",
          timeout, srv_trx_throttling);
      return DB_TOO_MANY_CONCURRENT_TRXS;
    case trx_throttle::Trx_gate::Result::INTERRUPTED:
      break;
  }
  return DB_INTERRUPTED;
}

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

#define INNOFORK_SYSTEM_VARIABLES                                      \
  MYSQL_SYSVAR(hybrid_read_view), MYSQL_SYSVAR(view_close_latch_free),  \
      MYSQL_SYSVAR(btree_blink), MYSQL_SYSVAR(btree_blink_reserve_pages), \
      MYSQL_SYSVAR(btree_blink_page_delete),                            \
      MYSQL_SYSVAR(btree_blink_sibling_insert),                         \
      MYSQL_SYSVAR(btree_blink_leveled_update),                         \
      MYSQL_SYSVAR(btree_blink_leveled_external),                       \
      MYSQL_SYSVAR(btree_blink_unlocked_descents),                      \
      MYSQL_SYSVAR(trx_throttling),                                     \
      MYSQL_SYSVAR(trx_throttling_timeout), INNOFORK_DEBUG_SYSTEM_VARIABLES

/** SHOW STATUS: Innodb_btree_blink_indexes, counted on demand. */
static int show_btree_blink_indexes(THD *, SHOW_VAR *var, char *buff) {
  var->type = SHOW_LONGLONG;
  var->value = buff;
  *reinterpret_cast<longlong *>(buff) =
      static_cast<longlong>(btr_blink_n_cached_indexes());
  return 0;
}

/** SHOW STATUS: Innodb_trx_active_rw_ids, the read-write transaction ids
every read view copies (the hybrid set's size with innodb_hybrid_read_view,
else trx_sys->rw_trx_ids'), under trx_sys->mutex. */
static int show_trx_active_rw_ids(THD *, SHOW_VAR *var, char *buff) {
  var->type = SHOW_LONGLONG;
  var->value = buff;
  trx_sys_mutex_enter();
  const size_t n = hybrid_rw_trx_ids != nullptr ? hybrid_rw_trx_ids->size()
                                                : trx_sys->rw_trx_ids.size();
  trx_sys_mutex_exit();
  *reinterpret_cast<longlong *>(buff) = static_cast<longlong>(n);
  return 0;
}

/* The split and throttling counters are shown by address, as
SHOW_LONGLONG. */
static_assert(sizeof(std::atomic<uint64_t>) == sizeof(longlong) &&
              std::atomic<uint64_t>::is_always_lock_free);

#define INNOFORK_RESERVE_STATUS(name)                                    \
  {"btree_blink_reserve_" #name, (char *)&btr_blink_reserve_stats.name,   \
   SHOW_LONGLONG, SHOW_SCOPE_GLOBAL}

/* X1: Innodb_btree_blink_exclusive_<reason>. */
#define INNOFORK_EXCLUSIVE_STATUS(name, reason)                          \
  {"btree_blink_exclusive_" name,                                        \
   (char *)&btr_blink_stats.exclusive_by_reason[static_cast<size_t>(     \
       Blink_exclusive::reason)],                                         \
   SHOW_LONGLONG, SHOW_SCOPE_GLOBAL}

/* mtr0hold.h: Innodb_<latch>_holds and Innodb_<latch>_hold_ns. */
#define INNOFORK_HOLD_STATUS(name, kind)                                 \
  {name "_holds",                                                        \
   (char *)&latch_hold_stats.holds[static_cast<unsigned>(kind)],         \
   SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},                                    \
  {                                                                      \
    name "_hold_ns",                                                     \
        (char *)&latch_hold_stats.ns[static_cast<unsigned>(kind)],       \
        SHOW_LONGLONG, SHOW_SCOPE_GLOBAL                                 \
  }

#define INNOFORK_THROTTLING_STATUS(name)                            \
  {"trx_throttling_" #name, (char *)&trx_gate.stats().name, SHOW_LONGLONG, \
   SHOW_SCOPE_GLOBAL}

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
      {"btree_blink_sibling_inserts",                                      \
       (char *)&btr_blink_stats.sibling_inserts, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_sibling_refused",                                      \
       (char *)&btr_blink_stats.sibling_refused, SHOW_LONGLONG,            \
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
       SHOW_SCOPE_GLOBAL},                                                 \
      INNOFORK_EXCLUSIVE_STATUS("root_leaf", ROOT_LEAF),                  \
      INNOFORK_EXCLUSIVE_STATUS("incomplete_split", INCOMPLETE_SPLIT),    \
      INNOFORK_EXCLUSIVE_STATUS("online_ddl", ONLINE_DDL),                \
      INNOFORK_EXCLUSIVE_STATUS("external", EXTERNAL),                    \
      INNOFORK_EXCLUSIVE_STATUS("no_segment_copy", NO_SEGMENT_COPY),      \
      INNOFORK_EXCLUSIVE_STATUS("s_refused", S_REFUSED),                  \
      INNOFORK_EXCLUSIVE_STATUS("last_child", LAST_CHILD),                \
      INNOFORK_EXCLUSIVE_STATUS("reserve_full", RESERVE_FULL),            \
      INNOFORK_EXCLUSIVE_STATUS("pool_low", POOL_LOW),                    \
      INNOFORK_EXCLUSIVE_STATUS("switch_off", SWITCH_OFF),                \
      INNOFORK_EXCLUSIVE_STATUS("other", OTHER),                          \
      {"btree_blink_insert_retries",                                       \
       (char *)&btr_blink_stats.insert_retries, SHOW_LONGLONG,             \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_changes_refused",                                      \
       (char *)&btr_blink_stats.changes_refused, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_splits_undone",                                        \
       (char *)&btr_blink_stats.splits_undone, SHOW_LONGLONG,              \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_pages_deleted",                                        \
       (char *)&btr_blink_stats.pages_deleted, SHOW_LONGLONG,              \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_pages_merged",                                         \
       (char *)&btr_blink_stats.pages_merged, SHOW_LONGLONG,               \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_deleted_passed",                                       \
       (char *)&btr_blink_stats.deleted_passed, SHOW_LONGLONG,             \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_external_writes",                                      \
       (char *)&btr_blink_stats.external_writes, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_external_frees",                                       \
       (char *)&btr_blink_stats.external_frees, SHOW_LONGLONG,             \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_locked_descents",                                      \
       (char *)&btr_blink_stats.locked_descents, SHOW_LONGLONG,            \
       SHOW_SCOPE_GLOBAL},                                                 \
      {"btree_blink_exclusive_drains",                                     \
       (char *)&btr_blink_stats.exclusive_drains, SHOW_LONGLONG,           \
       SHOW_SCOPE_GLOBAL},                                                 \
      INNOFORK_RESERVE_STATUS(pages_taken),                               \
      INNOFORK_RESERVE_STATUS(empty),                                     \
      INNOFORK_RESERVE_STATUS(refills),                                   \
      INNOFORK_RESERVE_STATUS(pages_allocated),                           \
      INNOFORK_RESERVE_STATUS(pages_reclaimed),                           \
      INNOFORK_RESERVE_STATUS(pages_refused),                             \
      INNOFORK_RESERVE_STATUS(spaces_forgotten),                          \
      INNOFORK_RESERVE_STATUS(directory_full),                            \
      INNOFORK_RESERVE_STATUS(deleted_ripe),                              \
      INNOFORK_RESERVE_STATUS(pages_freed),                               \
      INNOFORK_RESERVE_STATUS(split_waits),                               \
      INNOFORK_RESERVE_STATUS(split_refills),                             \
      INNOFORK_RESERVE_STATUS(value_pages),                               \
      INNOFORK_RESERVE_STATUS(value_empty),                               \
      INNOFORK_HOLD_STATUS("index_lock_sx", latch_hold_t::INDEX_SX),      \
      INNOFORK_HOLD_STATUS("index_lock_x", latch_hold_t::INDEX_X),        \
      INNOFORK_HOLD_STATUS("tablespace_latch_x", latch_hold_t::SPACE_X),  \
      {"trx_active_rw_ids", (char *)&show_trx_active_rw_ids, SHOW_FUNC,    \
       SHOW_SCOPE_GLOBAL},                                                 \
      INNOFORK_THROTTLING_STATUS(admitted),                                \
      INNOFORK_THROTTLING_STATUS(waits),                                   \
      INNOFORK_THROTTLING_STATUS(wait_time_us),                            \
      INNOFORK_THROTTLING_STATUS(timeouts),                                \
      INNOFORK_THROTTLING_STATUS(interrupted),                             \
      INNOFORK_THROTTLING_STATUS(active),                                  \
      INNOFORK_THROTTLING_STATUS(active_max),                              \
      {"trx_throttling_waiting", (char *)&trx_gate.stats().queued,         \
       SHOW_LONGLONG, SHOW_SCOPE_GLOBAL},

#endif /* ha_innofork_h */
