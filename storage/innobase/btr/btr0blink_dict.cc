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
Which indexes are B-link: the switch and the COMMENTs that override it (M5),
the eligibility of tables and indexes (M4, F2), the tablespace flag that
marks them (M3), the ALTER TABLE that must rebuild them, and the checks of
IMPORT TABLESPACE.  The rules are in
btr/README.blink.md, "Which indexes are B-link" and "IMPORT and EXPORT". */

#include "btr0blink.h"
#include "btr0blink_reserve.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>
#include <string_view>

#include "btr0blink_split.h"

#include "dict0dd.h"
#include "dict0dict.h"
#include "fil0fil.h"
#include "fsp0fsp.h"
#include "ha_prototypes.h"
#include "mysqld_error.h"
#include "page0blink.h"
#include "page0page.h"
#include "sql/create_field.h"
#include "sql/current_thd.h"
#include "sql/dd/properties.h"
#include "sql/dd/types/tablespace.h"
#include "sql/debug_sync.h"
#include "sql/field.h"
#include "sql/handler.h"
#include "sql/sql_alter.h"
#include "sql/sql_error.h"
#include "sql/table.h"

bool srv_btree_blink = false;

namespace {

using Choice = Blink_choice_scope::Choice;

/** The scope of the CREATE TABLE or ALTER TABLE running on this thread. */
thread_local const Blink_choice_scope *t_choice_scope{nullptr};

/** M4: why this table may not have B-link indexes.
@return the reason, or nullptr if it may */
const char *table_not_eligible(const dict_table_t *table) {
  if (!dict_table_is_comp(table)) {
    return "ROW_FORMAT=REDUNDANT records have no status bits for a high key";
  }
  if (table->is_compressed()) {
    return "ROW_FORMAT=COMPRESSED pages have no encoding for a high key";
  }
  if (table->is_temporary() || table->is_intrinsic()) {
    return "temporary tables stay stock";
  }
  if (table->is_system_table || dict_table_is_sdi(table->id) ||
      table->is_fts_aux()) {
    return "system tables stay stock";
  }
  if (!DICT_TF2_FLAG_IS_SET(table, DICT_TF2_USE_FILE_PER_TABLE)) {
    return "B-link needs a file-per-table tablespace, not a shared one";
  }
  return nullptr;
}

/** M4: may this table have B-link indexes at all? */
bool table_eligible(const dict_table_t *table) {
  return table_not_eligible(table) == nullptr;
}

/** M4: why this index may not be B-link.
@return the reason, or nullptr if it may */
const char *index_not_eligible(const dict_index_t *index) {
  if (const char *why = table_not_eligible(index->table)) {
    return why;
  }
  if (dict_index_is_spatial(index)) {
    return "a SPATIAL index is an R-tree";
  }
  if (index->type & DICT_FTS) {
    return "a FULLTEXT index has no tree of its own";
  }
  if (index->type & DICT_IBUF) {
    return "the change buffer stays stock";
  }
  return nullptr;
}

/** F2: are the node pointers of the index short enough for B-link? */
bool node_ptrs_fit(const dict_index_t *index) {
  return blink_split::node_ptrs_fit(
      btr_blink_node_ptr_max_size(index), PAGE_DIR_SLOT_SIZE,
      page_get_free_space_of_empty(true),
      [](size_t n) { return page_dir_calc_reserved_space(n); });
}

/** M5: does a choice ask for B-link, the switch deciding for DEFAULT? */
bool wants_blink(Choice choice) {
  return choice == Choice::ON || (choice == Choice::DEFAULT && srv_btree_blink);
}

/** M5: the choice of a table's COMMENT, DEFAULT outside a scope. */
Choice table_choice(const dict_table_t *table) {
  const Blink_choice_scope *scope = Blink_choice_scope::current(table);
  return scope != nullptr ? scope->table_choice() : Choice::DEFAULT;
}

/** Why an index that is wanted B-link cannot be: M4, then M3, then F2.
Logs F2's case, which only the index's length decides.
@param[in]  index  index whose tree is being created
@param[out] buf    holds the returned reason if it had to be built
@return the reason, or nullptr if it can be B-link */
const char *index_not_blink(const dict_index_t *index, std::string *buf) {
  if (const char *why = index_not_eligible(index)) {
    return why;
  }
  /* M3: only in a tablespace that a stock server refuses to open. */
  const fil_space_t *space = fil_space_get(index->space);
  if (space == nullptr || !(space->flags & FSP_FLAGS_MASK_BLINK)) {
    return "its table is not B-link (its tablespace has no B-link flag,"
           " M3): ALTER TABLE ... COMMENT='BTREE_BLINK=ON' rebuilds it as one";
  }
  if (node_ptrs_fit(index)) {
    return nullptr;
  }
  /* F2 leaves only secondary indexes stock: a clustered index's node
  pointer is its key, at most the key length limit (768, 1536 or 3072
  bytes for 4, 8, 16 KiB pages and above) and a header, under a third of
  any page; so the tablespace flag says exactly whether the clustered
  index is B-link (M3, btr_blink_space_flags()). */
  ut_ad(!index->is_clustered());
  *buf = "its node pointers may take " +
         std::to_string(btr_blink_node_ptr_max_size(index)) +
         " bytes, more than a third of a page (F2)";
  ib::info() << "Index " << index->name() << " of table " << index->table->name
             << " is not B-link: " << *buf;
  return buf->c_str();
}

/** M5: tell the client that a COMMENT's BTREE_BLINK was not followed. */
void warn_choice_ignored(THD *thd, const dict_index_t *index, Choice asked,
                         const char *why) {
  push_warning_printf(thd, Sql_condition::SL_WARNING,
                      ER_ILLEGAL_HA_CREATE_OPTION,
                      "InnoDB: BTREE_BLINK=%s is ignored for index '%s': %s",
                      asked == Choice::ON ? "ON" : "OFF", index->name(), why);
}

}  // namespace

Blink_choice_scope::Blink_choice_scope(THD *thd, const TABLE_SHARE *share)
    : m_thd(thd),
      m_share(share),
      m_table(parse(share->comment.str, share->comment.length, thd)),
      m_outer(t_choice_scope) {
  for (uint i = 0; i < share->keys; ++i) {
    const KEY &key = share->key_info[i];
    m_keys.push_back((key.flags & HA_USES_COMMENT)
                         ? parse(key.comment.str, key.comment.length, thd)
                         : Choice::DEFAULT);
  }
  t_choice_scope = this;
}

Blink_choice_scope::~Blink_choice_scope() {
  ut_ad(t_choice_scope == this);
  t_choice_scope = m_outer;
}

Choice Blink_choice_scope::parse(const char *comment, size_t length,
                                 THD *thd) {
  constexpr std::string_view label = "BTREE_BLINK";
  const auto same = [](char a, char b) {
    return std::toupper(static_cast<unsigned char>(a)) ==
           std::toupper(static_cast<unsigned char>(b));
  };
  const std::string_view text(comment == nullptr ? "" : comment,
                              comment == nullptr ? 0 : length);
  const auto found = std::search(text.begin(), text.end(), label.begin(),
                                 label.end(), same);
  if (found == text.end()) {
    return Choice::DEFAULT;
  }
  size_t pos = found - text.begin() + label.size();
  const auto skip_spaces = [&]() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos]))) {
      ++pos;
    }
  };
  skip_spaces();
  if (pos < text.size() && text[pos] == '=') {
    ++pos;
    skip_spaces();
    size_t end = pos;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) ||
            text[end] == '_')) {
      ++end;
    }
    const std::string_view value = text.substr(pos, end - pos);
    for (const auto &[word, choice] :
         {std::pair{std::string_view("ON"), Choice::ON},
          std::pair{std::string_view("OFF"), Choice::OFF}}) {
      if (value.size() == word.size() &&
          std::equal(value.begin(), value.end(), word.begin(), same)) {
        return choice;
      }
    }
  }
  if (thd != nullptr) {
    push_warning_printf(thd, Sql_condition::SL_WARNING,
                        ER_ILLEGAL_HA_CREATE_OPTION,
                        "InnoDB: Invalid value for BTREE_BLINK in the COMMENT"
                        " (ON or OFF). The value is ignored.");
  }
  return Choice::DEFAULT;
}

const Blink_choice_scope *Blink_choice_scope::current(
    const dict_table_t *table) {
  return table->is_fts_aux() ? nullptr : t_choice_scope;
}

Choice Blink_choice_scope::index_choice(const dict_index_t *index) const {
  for (uint i = 0; i < m_share->keys; ++i) {
    if (!innobase_strcasecmp(m_share->key_info[i].name, index->name)) {
      return m_keys[i];
    }
  }
  return Choice::DEFAULT;
}

uint32_t btr_blink_tablespace_flags(const dict_table_t *table) {
  return wants_blink(table_choice(table)) && table_eligible(table)
             ? FSP_FLAGS_MASK_BLINK
             : 0;
}

void btr_blink_decide(dict_index_t *index) {
  index->blink = false;
  DEBUG_SYNC_C("blink_decide");
  const Blink_choice_scope *scope = Blink_choice_scope::current(index->table);
  const Choice own =
      scope != nullptr ? scope->index_choice(index) : Choice::DEFAULT;
  const Choice table = table_choice(index->table);
  /* M3: the clustered index follows its tablespace's flag, which the same
  CREATE TABLE or rebuild set from the table's COMMENT or the switch a
  moment before: reading the switch again could straddle a SET GLOBAL and
  leave a flagged tablespace with a stock clustered index, against M3. */
  const bool wanted = index->is_clustered() ||
                      wants_blink(own != Choice::DEFAULT ? own : table);
  std::string buf;
  const char *why = wanted ? index_not_blink(index, &buf) : nullptr;
  index->blink = wanted && why == nullptr;

  /* M5: the table's COMMENT speaks for its clustered index; a secondary
  index that follows it and cannot be B-link stays stock silently, as
  under the switch. */
  const Choice asked =
      own != Choice::DEFAULT || !index->is_clustered() ? own : table;
  if (asked == Choice::ON && !index->blink) {
    warn_choice_ignored(scope->thd(), index, asked, why);
  } else if (asked == Choice::OFF && index->blink) {
    warn_choice_ignored(scope->thd(), index, asked,
                        "the clustered index follows its table (M3): put"
                        " BTREE_BLINK in the table's COMMENT");
  }
}

namespace {

/** M5: does the ALTER give the table a COMMENT that asks for another format
than its tablespace has?  Only a new tablespace can change it (M3).  A table
that cannot be B-link gets the warning that says why instead. */
bool comment_changes_format(const dict_table_t *table,
                            const Alter_inplace_info *ha_alter_info) {
  const HA_CREATE_INFO *create_info = ha_alter_info->create_info;
  if (!(create_info->used_fields & HA_CREATE_USED_COMMENT)) {
    return false;
  }
  /* No warning about the value here: the scope of a rebuild parses the
  comment again and gives it. */
  const Choice choice = Blink_choice_scope::parse(
      create_info->comment.str, create_info->comment.length, nullptr);
  const bool blink = btr_blink_space_flags(table) != 0;
  if (choice != Choice::ON || blink) {
    return choice == Choice::OFF && blink;
  }
  if (const char *why = table_not_eligible(table)) {
    warn_choice_ignored(current_thd, table->first_index(), choice, why);
    return false;
  }
  return true;
}

}  // namespace

bool btr_blink_alter_needs_rebuild(const dict_table_t *table,
                                   const Alter_inplace_info *ha_alter_info) {
  if (comment_changes_format(table, ha_alter_info)) {
    return true;
  }
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

namespace {

/** IMPORT: why table cannot take the format of a .ibd, whose flag says
file_blink, in place of its own.
@return the reason and the way out, or nullptr if it can */
const char *import_refusal(const dict_table_t *table, bool file_blink) {
  if (dict_table_is_partition(table)) {
    return file_blink ? "IMPORT converts no partition: create the table with"
                        " COMMENT='BTREE_BLINK=ON'"
                      : "IMPORT converts no partition: create the table with"
                        " COMMENT='BTREE_BLINK=OFF'";
  }
  /* Stock's checks refuse another row format first, and only a table in its
  own tablespace can IMPORT: kept so that no table breaks M4. */
  if (file_blink && !table_eligible(table)) {
    return "this table cannot have B-link indexes: create it ROW_FORMAT="
           "DYNAMIC or COMPACT in its own tablespace, or export the source"
           " after ALTER TABLE ... COMMENT='BTREE_BLINK=OFF'";
  }
  return nullptr;
}

/** IMPORT: the indexes of table take the protocol of the .ibd (M3): all
stock, or B-link where eligible, as if the table had been created with the
switch ON (M4, F2); btr_blink_import_page_ok() checks every page against
the result. */
/** The formats the indexes of the table being imported by this thread had
before import_take_format(), for btr_blink_import_failed(). */
thread_local struct {
  table_id_t table_id{0};
  std::vector<bool> blink;
} t_import_before;

void import_take_format(dict_table_t *table, bool file_blink) {
  t_import_before.table_id = table->id;
  t_import_before.blink.clear();
  for (const dict_index_t *index : table->indexes) {
    t_import_before.blink.push_back(index->blink);
  }
  for (dict_index_t *index : table->indexes) {
    index->blink = file_blink && index_not_eligible(index) == nullptr &&
                   (index->is_clustered() || node_ptrs_fit(index));
  }
}

}  // namespace

void btr_blink_import_failed(dict_table_t *table) {
  if (t_import_before.table_id != table->id) {
    return;
  }
  t_import_before.table_id = 0;
  size_t i = 0;
  for (dict_index_t *index : table->indexes) {
    if (i < t_import_before.blink.size()) {
      index->blink = t_import_before.blink[i++];
    }
  }
}

bool btr_blink_import_space_ok(dict_table_t *table, uint32_t space_flags,
                               THD *thd) {
  t_import_before.table_id = 0;
  const bool file_blink = space_flags & FSP_FLAGS_MASK_BLINK;
  if (file_blink == (btr_blink_space_flags(table) != 0)) {
    return true;
  }
  if (const char *why = import_refusal(table, file_blink)) {
    ib_errf(thd, IB_LOG_LEVEL_ERROR, ER_TABLE_SCHEMA_MISMATCH,
            "The tablespace was exported from a table %s B-link indexes, and"
            " this table's are %s: %s",
            file_blink ? "with" : "without", file_blink ? "not" : "B-link",
            why);
    return false;
  }
  import_take_format(table, file_blink);
  ut_ad(file_blink == (btr_blink_space_flags(table) != 0));
  const char *format = file_blink ? "B-link" : "stock";
  ib::info() << "IMPORT: table " << table->name
             << " takes the format of the tablespace: its indexes are "
             << format << " now";
  ib_errf(thd, IB_LOG_LEVEL_WARN, ER_TABLE_SCHEMA_MISMATCH,
          "The tablespace was exported from a table %s B-link indexes: this"
          " table's indexes take its format and are %s now",
          file_blink ? "with" : "without", format);
  return true;
}

void btr_blink_write_marker(dd::Properties &p, const dict_index_t *index) {
  if (index->blink) {
    p.set(BLINK_DD_KEY, 1U);
  } else if (p.exists(BLINK_DD_KEY)) {
    p.remove(BLINK_DD_KEY);
  }
}

void btr_blink_dd_space_follow(dd::Tablespace *dd_space) {
  dd::Properties &p = dd_space->se_private_data();
  space_id_t space_id = SPACE_UNKNOWN;
  uint32_t flags = 0;
  if (p.get(dd_space_key_strings[DD_SPACE_ID], &space_id) ||
      p.get(dd_space_key_strings[DD_SPACE_FLAGS], &flags)) {
    return;
  }
  const fil_space_t *space = fil_space_get(space_id);
  if (space == nullptr) {
    return;
  }
  p.set(dd_space_key_strings[DD_SPACE_FLAGS],
        (flags & ~FSP_FLAGS_MASK_BLINK) | (space->flags & FSP_FLAGS_MASK_BLINK));
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
  /* RV4: the file was replaced; its directory is read at the next refill.
  LO4: so were the index's segments. */
  btr_blink_reserve_forget(index->space);
  btr_blink_segments_replaced();
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
