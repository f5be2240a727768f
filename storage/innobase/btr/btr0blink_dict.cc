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

/** @file btr/btr0blink_dict.cc
Which indexes are B-link: the switch, the eligibility of tables and indexes
(M4, F2), the tablespace flag that marks them (M3), the ALTER TABLE that
must rebuild them, and the checks of IMPORT TABLESPACE.  The rules are in
btr/README.blink.md, "Which indexes are B-link" and "IMPORT and EXPORT". */

#include "btr0blink.h"
#include "btr0blink_reserve.h"

#include <string>

#include "btr0blink_split.h"

#include "dict0dict.h"
#include "fil0fil.h"
#include "fsp0fsp.h"
#include "ha_prototypes.h"
#include "mysqld_error.h"
#include "page0blink.h"
#include "page0page.h"
#include "sql/create_field.h"
#include "sql/debug_sync.h"
#include "sql/field.h"
#include "sql/handler.h"
#include "sql/sql_alter.h"

bool srv_btree_blink = false;

namespace {

/** M4: may this table have B-link indexes at all? */
bool table_eligible(const dict_table_t *table) {
  return dict_table_is_comp(table) && !table->is_compressed() &&
         !table->is_temporary() && !table->is_intrinsic() &&
         !table->is_system_table && !dict_table_is_sdi(table->id) &&
         !table->is_fts_aux() &&
         DICT_TF2_FLAG_IS_SET(table, DICT_TF2_USE_FILE_PER_TABLE);
}

/** M4: may this index be B-link? */
bool index_eligible(const dict_index_t *index) {
  return table_eligible(index->table) && !dict_index_is_spatial(index) &&
         !(index->type & (DICT_FTS | DICT_IBUF));
}

/** F2: are the node pointers of the index short enough for B-link? */
bool node_ptrs_fit(const dict_index_t *index) {
  return blink_split::node_ptrs_fit(
      btr_blink_node_ptr_max_size(index), PAGE_DIR_SLOT_SIZE,
      page_get_free_space_of_empty(true),
      [](size_t n) { return page_dir_calc_reserved_space(n); });
}

}  // namespace

uint32_t btr_blink_tablespace_flags(const dict_table_t *table) {
  return srv_btree_blink && table_eligible(table) ? FSP_FLAGS_MASK_BLINK : 0;
}

void btr_blink_decide(dict_index_t *index) {
  index->blink = false;
  /* M3: the clustered index follows its tablespace's flag, which the same
  CREATE TABLE or rebuild set from the switch a moment before: reading
  the switch again could straddle a SET GLOBAL and leave a flagged
  tablespace with a stock clustered index (whose export IMPORT would then
  refuse, btr_blink_import_space_ok()). */
  DEBUG_SYNC_C("blink_decide");
  if (!(srv_btree_blink || index->is_clustered()) || !index_eligible(index)) {
    return;
  }
  /* M3: only in a tablespace that a stock server refuses to open. */
  const fil_space_t *space = fil_space_get(index->space);
  if (space == nullptr || !(space->flags & FSP_FLAGS_MASK_BLINK)) {
    return;
  }
  if (!node_ptrs_fit(index)) {
    /* F2 leaves only secondary indexes stock: a clustered index's node
    pointer is its key, at most the key length limit (768, 1536 or 3072
    bytes for 4, 8, 16 KiB pages and above) and a header, under a third of
    any page; so the tablespace flag says exactly whether the clustered
    index is B-link (M3, btr_blink_space_flags()). */
    ut_ad(!index->is_clustered());
    ib::info() << "Index " << index->name() << " of table "
               << index->table->name << " is not B-link: its node pointers"
               << " may take " << btr_blink_node_ptr_max_size(index)
               << " bytes, more than a third of a page (F2)";
    return;
  }
  index->blink = true;
}

bool btr_blink_alter_needs_rebuild(const dict_table_t *table,
                                   const Alter_inplace_info *ha_alter_info) {
  if (!(ha_alter_info->handler_flags &
        Alter_inplace_info::ALTER_COLUMN_EQUAL_PACK_LENGTH) ||
      !btr_blink_table_has_index(table)) {
    return false;
  }
  for (const Create_field &column : ha_alter_info->alter_info->create_list) {
    const Field *old = column.field;
    if (old == nullptr || column.pack_length() <= old->pack_length()) {
      continue;
    }
    for (const dict_index_t *index : table->indexes) {
      if (!index->blink) {
        continue;
      }
      for (ulint i = 0; i < dict_index_get_n_unique_in_tree_nonleaf(index);
           ++i) {
        if (!innobase_strcasecmp(index->get_field(i)->name, old->field_name)) {
          return true;
        }
      }
    }
  }
  return false;
}

bool btr_blink_table_has_index(const dict_table_t *table) {
  for (const dict_index_t *index : table->indexes) {
    if (index->blink) {
      return true;
    }
  }
  return false;
}

uint32_t btr_blink_space_flags(const dict_table_t *table) {
  const dict_index_t *clust = table->first_index();
  return clust != nullptr && clust->blink ? FSP_FLAGS_MASK_BLINK : 0;
}

bool btr_blink_import_space_ok(const dict_table_t *table, uint32_t space_flags,
                               THD *thd) {
  const bool file_blink = space_flags & FSP_FLAGS_MASK_BLINK;
  const bool table_blink = btr_blink_space_flags(table) != 0;
  if (file_blink == table_blink) {
    return true;
  }
  ib_errf(thd, IB_LOG_LEVEL_ERROR, ER_TABLE_SCHEMA_MISMATCH,
          file_blink ? "The tablespace was exported from a table with B-link "
                       "indexes, but this table's indexes are not B-link: "
                       "create it with innodb_btree_blink=ON"
                     : "The tablespace was exported from a table without "
                       "B-link indexes, but this table's indexes are B-link: "
                       "create it with innodb_btree_blink=OFF");
  return false;
}

bool btr_blink_import_page_ok(const dict_index_t *index, const page_t *page,
                              ulint space_flags) {
  if (!(space_flags & FSP_FLAGS_MASK_BLINK) ||
      page_get_page_no(page) == dict_index_get_page(index)) {
    return true;
  }
  const page_no_t next = mach_read_from_4(page + FIL_PAGE_NEXT);
  const bool ok = index->blink
                      ? next == FIL_NULL ||
                            page_blink_get_hk(page, index).exists()
                      : !page_blink_stock_page_has_magic(page);
  if (!ok) {
    ib::error() << "IMPORT: page " << page_get_page_no(page) << " of index "
                << index->name() << " of table " << index->table->name
                << (index->blink ? " has a right sibling but no high key, "
                                   "while the index is B-link"
                                 : " has a B-link header, while the index is "
                                   "not B-link");
  }
  return ok;
}

bool btr_blink_import_validate(dict_index_t *index) {
  /* RV4: the file was replaced; its directory is read at the next refill. */
  btr_blink_reserve_forget(index->space);
  std::string violation;
  return !index->blink || btr_blink_validate_index(index, nullptr, &violation);
}

uint64_t btr_blink_n_cached_indexes() {
  uint64_t n = 0;
  dict_sys_mutex_enter();
  for (auto list : {&dict_sys->table_LRU, &dict_sys->table_non_LRU}) {
    for (const dict_table_t *table : *list) {
      for (const dict_index_t *index : table->indexes) {
        n += index->blink;
      }
    }
  }
  dict_sys_mutex_exit();
  return n;
}
