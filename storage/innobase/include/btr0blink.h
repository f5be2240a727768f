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

/** @file include/btr0blink.h
 B-link indexes: which indexes are B-link, their splits, merges and the
 validator.  The protocol is btr/README.blink.md; rules are cited by name
 (M1.., S1.., G1.., HK1..).

 Included by our own files, by the upstream files that call into it, and
 by one upstream header, lob0lob.h, whose debug check of a write of
 externally stored columns accepts EX1's. */

#ifndef btr0blink_h
#define btr0blink_h

#include <atomic>
#include <string>
#include <vector>

#include "univ.i"

#include "btr0types.h"
#include "db0err.h"
#include "dict0mem.h"
#include "dict0types.h"
#include "fsp0types.h"
#include "mem0mem.h"
#include "mtr0types.h"
#include "page0types.h"
#include "rem0types.h"
#include "trx0types.h"

struct big_rec_t;
struct dtuple_t;
struct dict_index_t;
struct que_thr_t;
struct dict_table_t;
struct buf_block_t;
struct trx_t;
struct upd_t;
class Alter_inplace_info;
class THD;
struct TABLE_SHARE;
namespace dd {
class Properties;
class Tablespace;
}  // namespace dd

/** innodb_btree_blink: index trees created while it is ON become B-link
(M1).  Never consulted for an existing index: its marker decides. */
extern bool srv_btree_blink;

#ifdef UNIV_DEBUG
/** innodb_btree_blink_validate_debug: setting it runs the validator on every
B-link index in the dictionary cache; a violation is an assertion failure. */
extern bool srv_btree_blink_validate_debug;
/** innodb_btree_blink_validate_online_debug: the same with the online
validator, which runs beside splits. */
extern bool srv_btree_blink_validate_online_debug;
#endif /* UNIV_DEBUG */

/** X1: why a structure change of a B-link index took the exclusive path,
one counter each (Innodb_btree_blink_exclusive_<reason>, README.blink.md,
"Exclusive paths"). */
enum class Blink_exclusive : uint8_t {
  /** no leveled attempt named a reason: callers that search with
  BTR_MODIFY_TREE directly (online DDL's log apply, IMPORT, debug splits) */
  OTHER,
  /** the root is the leaf: its split raises the tree */
  ROOT_LEAF,
  /** a split not yet published beside the change: a flagged leaf (IS3), or
  a delete's leaf or left neighbour that changed under its latches */
  INCOMPLETE_SPLIT,
  /** the index is being built or rebuilt online */
  ONLINE_DDL,
  /** externally stored columns that no leveled path writes or frees */
  EXTERNAL,
  /** LO4: no copy of the root's segment headers for the split */
  NO_SEGMENT_COPY,
  /** LO1: S refused (an X held or queued), no retry left */
  S_REFUSED,
  /** PD1: the emptied leaf is the last child of its parent or the rightmost
  of its level */
  LAST_CHILD,
  /** PD6: no room in the reserve's directory to list a deleted leaf */
  RESERVE_FULL,
  /** the buffer pool is running out (stock's update refuses then) */
  POOL_LOW,
  /** innodb_btree_blink_leveled_update, _leveled_external or _page_delete
  is OFF */
  SWITCH_OFF,
  N_REASONS
};

/** X1: name the reason of this thread's next exclusive paths on index,
until its next leveled attempt; a leveled attempt that refuses calls it
before its caller searches with BTR_MODIFY_TREE. */
void btr_blink_exclusive_reason(const dict_index_t *index,
                                Blink_exclusive reason);

/** Counters shown in SHOW GLOBAL STATUS as Innodb_btree_blink_*. */
struct btr_blink_stats_t {
  std::atomic<uint64_t> leaf_splits{0};
  std::atomic<uint64_t> nonleaf_splits{0};
  /** RS1: leaf inserts that went into the right sibling instead of a
  split. */
  std::atomic<uint64_t> sibling_inserts{0};
  /** RS2, RS3: of the inserts the right sibling had room for, those that
  split because the parent was latched, changed or full. */
  std::atomic<uint64_t> sibling_refused{0};
  /** D3: a descent found its key above a page's high key and moved to the
  right sibling. */
  std::atomic<uint64_t> move_rights{0};
  /** D5: a move-left found that the left neighbour had split and stepped
  right on its level. */
  std::atomic<uint64_t> move_left_steps{0};
  /** D4: a descent latched a page that was not of its index or level (a
  stale page number, a root raise), or D5 found its leaf or the leaf's left
  neighbour deleted (PD3), and started again from the root. */
  std::atomic<uint64_t> descent_restarts{0};
  /** G1, G2: a page of a B-link index merged into a sibling, or lifted
  into its parent (btr_compress()), under index->lock in X (G0). */
  std::atomic<uint64_t> merges{0};
  /** G3: a page of a B-link index discarded, the only page of its level
  included (btr_discard_page()), under index->lock in X (G0). */
  std::atomic<uint64_t> discards{0};
  /** SP1: leaf splits made under index->lock in S, published level by
  level. */
  std::atomic<uint64_t> leveled_splits{0};
  /** SP3, SP4: incomplete splits published by the thread that split. */
  std::atomic<uint64_t> splits_finished{0};
  /** FS1: incomplete splits finished by another thread: a writer, an
  exclusive path (X2) or CHECK TABLE; after a crash, all of them. */
  std::atomic<uint64_t> splits_finished_by_others{0};
  /** FS3: cascades stopped between two levels (KILL, no room in the
  tablespace); their flags stay for the next writer. */
  std::atomic<uint64_t> cascades_interrupted{0};
  /** X1: structure changes that took the exclusive path: a B-link
  BTR_MODIFY_TREE search, which holds index->lock in X. */
  std::atomic<uint64_t> exclusive_paths{0};
  /** X1: exclusive_paths by reason; they add up to it. */
  std::atomic<uint64_t>
      exclusive_by_reason[static_cast<size_t>(Blink_exclusive::N_REASONS)]{};
  /** LO1: row inserts, updates and rollbacks that waited for an X, or
  copied the root's segment headers (LO4), and tried the leaf again
  (btr_blink_insert_retry(), btr_blink_update_retry()). */
  std::atomic<uint64_t> insert_retries{0};
  /** X3: structure changes of an exclusive path that failed (as on a full
  tablespace) because X2 could not finish a split on their path. */
  std::atomic<uint64_t> changes_refused{0};
  /** X4: incomplete splits undone where X3 would have refused the
  discard of either emptied half. */
  std::atomic<uint64_t> splits_undone{0};
  /** PD2: leaves deleted from their levels under index->lock in S. */
  std::atomic<uint64_t> pages_deleted{0};
  /** PD8: of those, leaves whose records moved to their right siblings
  first. */
  std::atomic<uint64_t> pages_merged{0};
  /** PD3: descents that latched a deleted page and moved right. */
  std::atomic<uint64_t> deleted_passed{0};
  /** EX1, EX3: row inserts and updates that wrote externally stored
  columns under index->lock in S. */
  std::atomic<uint64_t> external_writes{0};
  /** EX2, EX4: deletes by purge or rollback of records with externally
  stored columns, and rollbacks of updates of such records, that ran under
  index->lock in S. */
  std::atomic<uint64_t> external_frees{0};
  /** LF1: descents that found an X holding or waiting for index->lock and
  took S (D1) instead of running without the lock. */
  std::atomic<uint64_t> locked_descents{0};
  /** LF2: X grants on the lock of a B-link index that waited for descents
  running without it. */
  std::atomic<uint64_t> exclusive_drains{0};
};
extern btr_blink_stats_t btr_blink_stats;

namespace blink_epoch {
class Registry;
class Thread_slot;
}  // namespace blink_epoch

/** PD5: the epochs announced by the descents of B-link indexes. */
blink_epoch::Registry &btr_blink_epochs();

/** PD5: this thread's slot in btr_blink_epochs(). */
blink_epoch::Thread_slot &btr_blink_epoch_slot();

/** innodb_btree_blink_unlocked_descents: whether a descent of a B-link
index runs without index->lock, announced in its thread's slot (LF1..LF3);
OFF, it holds the lock in S (D1). */
extern bool srv_btree_blink_unlocked_descents;

/** innodb_btree_blink_page_delete: whether purge and rollback delete the
leaves they empty, and merge under-filled leaves to the right, under
index->lock in S (PD1-PD8); OFF, stock's merges and discards run under X
(G0-G5). */
extern bool srv_btree_blink_page_delete;

/** innodb_btree_blink_leveled_update: whether an update that grows a row
of a B-link clustered index beyond its leaf splits the leaf under
index->lock in S (SP1, btr_blink_update()); OFF, under X (X1). */
extern bool srv_btree_blink_leveled_update;

/** innodb_btree_blink_leveled_external: whether a row insert writes the
externally stored columns of a B-link clustered index under index->lock in
S (EX1, Blink_external_write); OFF, under X (X1). */
extern bool srv_btree_blink_leveled_external;

/** @return whether index is B-link and innodb_btree_blink_page_delete is ON:
the deletes of this moment follow PD1-PD4.  Whatever it says, descents move
right from deleted pages (PD3) and the reserve reuses them (PD6). */
bool btr_blink_deletes_pages(const dict_index_t *index);

/** PD1, PD4, PD8: whether the delete of the cursor's record, of rec_size
bytes, empties a leaf other than the root or leaves it under its index's
MERGE_THRESHOLD (not during an online build): the deletes of a
page-deleting B-link index that the optimistic delete refuses, for the
pessimistic one, which deletes the leaf with its record (PD2) or merges
first (PD8), or else deletes the record in place. */
bool btr_blink_delete_changes_tree(const btr_cur_t *cursor, ulint rec_size);

/** PD2, PD8: the BTR_MODIFY_TREE search of a delete (purge, rollback) on a
B-link index, under index->lock in S: latches the parent, for a leaf that
keeps records its left neighbour's left neighbour, the leaf's left
neighbour, the leaf and, when the delete would empty the leaf or leave it
under-filled, its right sibling, and positions the cursor as the stock
search would.  Prepares the leaf's deletion, or a merge, for
btr_cur_pessimistic_delete(); for a plain delete only the leaf stays
latched.  Before any latch, a reserve that deletions filled gives pages
back to the segment (RV10, btr_blink_reserve_trim()).
@return false if the delete must take the exclusive path (PD1): nothing
latched, index->lock not held */
bool btr_blink_search_for_delete(dict_index_t *index, const dtuple_t *tuple,
                                 page_cur_mode_t mode, btr_cur_t *cursor,
                                 ut::Location location, mtr_t *mtr);

/** PD2, EX2: at the start of btr_cur_pessimistic_delete(), for the delete
that btr_blink_search_for_delete() prepared in this mini-transaction: the
record is deleted and, if it empties its leaf, the leaf with it, or the
merge it prepared is made (PD8) (done()); or, for a record with
externally stored columns in a leaf that keeps others, stock's pessimistic
delete goes on under index->lock in S, this
thread marked as freeing them (btr_blink_writes_external()) until the
scope ends.  Nothing for any other delete. */
class Blink_prepared_delete {
 public:
  Blink_prepared_delete(btr_cur_t *cursor, mtr_t *mtr);
  ~Blink_prepared_delete();
  Blink_prepared_delete(const Blink_prepared_delete &) = delete;
  Blink_prepared_delete &operator=(const Blink_prepared_delete &) = delete;

  /** @return whether the delete was done */
  bool done() const { return m_done; }

 private:
  bool m_done{false};
  /** Whether this thread is marked as freeing externally stored columns. */
  bool m_external{false};
};

/** PD2: forget a deletion btr_blink_search_for_delete() prepared and no
pessimistic delete took: a BTR_MODIFY_TREE search on the exclusive path
begins. */
void btr_blink_delete_forget();

/** @return whether a page of a B-link index left its level (PD2) */
bool btr_blink_page_deleted(const page_t *page, const dict_index_t *index);

/** @return whether this thread runs under a Blink_finished_scope of index
(IMPORT's purge, which restores its cursor with its leaf latched) */
bool btr_blink_in_finished_scope(const dict_index_t *index);

/** The bit of INFORMATION_SCHEMA.INNODB_INDEXES.TYPE that says an index is
B-link.  Above every DICT_* index type bit. */
constexpr ulint BLINK_INDEX_TYPE_BIT = 4096;

/** The key of the marker in the index's se_private_data (M2). */
constexpr const char *BLINK_DD_KEY = "blink";

/** The B-link choice of the CREATE TABLE or ALTER TABLE that runs on this
thread while the object lives: BTREE_BLINK=ON or OFF in the COMMENT of the
table and of its indexes (M5).  The tablespace and the index trees are
created inside stock code that knows nothing of the comments, before stock
parses MERGE_THRESHOLD from them; btr_blink_tablespace_flags() and
btr_blink_decide() read the choice from here.  The comments are parsed once,
when the scope starts, with a warning for a value that is neither ON nor
OFF.  Outside any scope, and for a table or index whose comment says
nothing, innodb_btree_blink decides. */
class Blink_choice_scope {
 public:
  /** What a comment asks for. */
  enum class Choice : uint8_t {
    /** nothing: innodb_btree_blink decides */
    DEFAULT,
    /** BTREE_BLINK=ON */
    ON,
    /** BTREE_BLINK=OFF */
    OFF
  };

  /** Parses the comments of the table being created or altered.
  @param[in] thd    the session, for warnings
  @param[in] share  the new definition of the table */
  Blink_choice_scope(THD *thd, const TABLE_SHARE *share);
  ~Blink_choice_scope();

  Blink_choice_scope(const Blink_choice_scope &) = delete;
  Blink_choice_scope &operator=(const Blink_choice_scope &) = delete;

  /** Parse BTREE_BLINK=ON|OFF in a comment: the label in any case, spaces
  around the '=' (as MERGE_THRESHOLD's atoi() skips those after it).
  @param[in] comment  the comment, or nullptr
  @param[in] length   its length
  @param[in] thd      the session, for the warning about a bad value, or
                      nullptr for none
  @return the choice; DEFAULT if the label is missing or its value bad */
  static Choice parse(const char *comment, size_t length, THD *thd);

  /** @return the scope running on this thread for table, or nullptr (FTS
  auxiliary tables, created inside the scope of their table, are not its
  table) */
  static const Blink_choice_scope *current(const dict_table_t *table);

  /** @return the session */
  THD *thd() const { return m_thd; }

  /** @return the choice of the table's COMMENT */
  Choice table_choice() const { return m_table; }

  /** @return the choice of the COMMENT of the index of the same name,
  DEFAULT if it has none */
  Choice index_choice(const dict_index_t *index) const;

 private:
  /** the session */
  THD *m_thd;
  /** the new definition of the table */
  const TABLE_SHARE *m_share;
  /** the choice of the table's COMMENT */
  Choice m_table;
  /** the choice of each key's COMMENT, by MySQL key number */
  std::vector<Choice> m_keys;
  /** the scope this one is nested in, or nullptr */
  const Blink_choice_scope *m_outer;
};

/** @return the tablespace flag to add to a new file-per-table tablespace of
table: FSP_FLAGS_MASK_BLINK when the table's COMMENT asks for B-link, or
says nothing and innodb_btree_blink is ON, and the table may have B-link
indexes (M3, M4, M5), else 0 */
uint32_t btr_blink_tablespace_flags(const dict_table_t *table);

/** Decide the protocol of an index whose tree is being created (M1, M4,
M5): sets index->blink.  A COMMENT that asks for B-link where it cannot be
gets a warning that says why.
@param[in,out] index  index, its table's tablespace already created */
void btr_blink_decide(dict_index_t *index);

/** In-place ALTER TABLE: whether the ALTER must rebuild the table for
B-link's sake.  M5: it gives the table a COMMENT whose BTREE_BLINK asks for
another format than the tablespace has (M3), which only a new tablespace
can change.  F1: it widens, without rebuilding, a column that node pointers
of a B-link index of the table carry (an in-place VARCHAR extension); pages
filled before it would keep only the room for the shorter high keys.
@param[in] table          the table being altered
@param[in] ha_alter_info  the ALTER
@return true if the table must be rebuilt */
bool btr_blink_alter_needs_rebuild(const dict_table_t *table,
                                   const Alter_inplace_info *ha_alter_info);

/** @return whether any index of table is B-link */
bool btr_blink_table_has_index(const dict_table_t *table);

/** The B-link bit of the tablespace flags of a table (M3):
FSP_FLAGS_MASK_BLINK if its clustered index is B-link, else 0.  For the code
that derives a tablespace's flags from its table (IMPORT). */
uint32_t btr_blink_space_flags(const dict_table_t *table);

/** IMPORT, Phase I: whether the .ibd can go into table as far as B-link is
concerned.  When the .ibd's flag (M3) and the table disagree, the table
takes the .ibd's format: its indexes become all stock, or B-link where
eligible (M4, F2), with a note in the error log and a warning to the client;
the data dictionary follows when IMPORT stores the table
(btr_blink_write_marker(), btr_blink_dd_space_follow()).  Refused, with
ER_TABLE_SCHEMA_MISMATCH saying why and what to do: a flagged .ibd into a
table that cannot be B-link, and any change of format of a partition.
@param[in,out] table        the table being imported into
@param[in]     space_flags  FSP flags of the .ibd
@param[in]     thd          the session, for the messages
@return true if the import can go on */
bool btr_blink_import_space_ok(dict_table_t *table, uint32_t space_flags,
                               THD *thd);

/** An IMPORT that failed after btr_blink_import_space_ok() gave the table
the tablespace's format: the discarded table takes back the format its
dictionary entry records (M3), so that a later DISCARD or IMPORT starts
from it. */
void btr_blink_import_failed(dict_table_t *table);

/** M2: write the marker of index into its se_private_data: set if the index
is B-link, removed if not (IMPORT may change an index's format).
@param[in,out] p      se_private_data of the dd::Index
@param[in]     index  the index */
void btr_blink_write_marker(dd::Properties &p, const dict_index_t *index);

/** M3: the data dictionary's copy of a tablespace's flags takes the B-link
bit of the open tablespace, which IMPORT may have changed.  Nothing if the
tablespace is not open (discarded).
@param[in,out] dd_space  the tablespace, acquired for modification */
void btr_blink_dd_space_follow(dd::Tablespace *dd_space);

/** IMPORT, Phase I: whether a page of a flagged .ibd agrees with the
protocol of the index it belongs to.  A page of a B-link index that has a
right sibling carries a high key (HK1); a page of a stock index has no
B-link header.  A flagged tablespace can hold stock indexes (CREATE INDEX
with the switch OFF) and the .cfg file does not say which indexes are
B-link, so the pages are the only witness.  Pages of an unflagged .ibd are
not looked at: stock does not clear the B-link header's bytes on non-root
pages, and btr_blink_import_space_ok() has made every index of the table
stock.  Neither are root pages (R1).  Logs a mismatch.
@param[in] index        the index of the table being imported into, whose
                        root page number is the .ibd's
@param[in] page         index page of the .ibd
@param[in] space_flags  FSP flags of the .ibd
@return true if they agree */
bool btr_blink_import_page_ok(const dict_index_t *index, const page_t *page,
                              ulint space_flags);

/** IMPORT, after the stock checks: the B-link validator on an imported
B-link index.
@return true if the index is not B-link or the validator found nothing */
bool btr_blink_import_validate(dict_index_t *index);

/** @return number of B-link indexes in the dictionary cache */
uint64_t btr_blink_n_cached_indexes();

/** The high key that bounds a page whose right neighbour starts with the
entry tuple (a leaf entry, or a node pointer of level), in heap.
@param[out] offsets  rec_get_offsets() of the result, from heap */
const rec_t *btr_blink_hk_from_tuple(const dict_index_t *index,
                                     const dtuple_t *tuple, ulint level,
                                     mem_heap_t *heap, ulint **offsets);

/** Insert a tuple at a page cursor, reorganizing the page if its free space
is too fragmented for it.
@return the inserted record, or nullptr if it does not fit */
rec_t *btr_blink_page_insert(page_cur_t *page_cursor, dict_index_t *index,
                             const dtuple_t *tuple, ulint **offsets,
                             mem_heap_t **heap, mtr_t *mtr);

/** innodb_btree_blink_sibling_insert: whether a leveled leaf split gives
way to an insert into the right sibling (RS1-RS4). */
extern bool srv_btree_blink_sibling_insert;

/** RS2: remember the page a writer's descent read its leaf's node pointer
from, for btr_blink_insert_into_right_sibling().
@param[in] index  B-link index
@param[in] block  the leaf's parent, latched, level 1 */
void btr_blink_note_leaf_parent(const dict_index_t *index,
                                buf_block_t *block);

/** RS1-RS4: instead of a leveled split of a leaf, insert the tuple at the
start of its right sibling, when the cursor is on the leaf's last record,
the sibling has room and the parent that this thread's descent read the
leaf's node pointer from can be latched without waiting and still holds
the node pointers of both.  The leaf's high key and the sibling's separator
become the tuple's key, in this mini-transaction.
@return the inserted record, the cursor on the sibling's infimum (as
btr_page_split_and_insert() leaves it); nullptr if not done: nothing
changed, and only the sibling stays latched */
rec_t *btr_blink_insert_into_right_sibling(btr_cur_t *cursor, ulint **offsets,
                                           mem_heap_t **heap,
                                           const dtuple_t *tuple, mtr_t *mtr);

/** Split a page of a B-link index and insert a tuple (S1..S3).  In a
leveled split (btr_blink_split_leveled(): the leaf split of a row insert
under index->lock in S, SP1, or a parent split while a split is published,
SP3) only this page is split in this mini-transaction: the page is flagged
and its right half linked into its level without node pointer (IS1); the
level above is published later, in a mini-transaction of its own.  On an
exclusive path (index->lock in X, X1) the node pointer goes into the parent
in the same mini-transaction, as in stock.  Same contract as
btr_page_split_and_insert(), which calls it. */
rec_t *btr_blink_page_split_and_insert(uint32_t flags, btr_cur_t *cursor,
                                       ulint **offsets, mem_heap_t **heap,
                                       const dtuple_t *tuple, mtr_t *mtr);

/** Defined in btr0btr.cc, static there upstream: links a new right half
into its level and inserts its node pointer into the parent.  Declared here
for the B-link split. */
void btr_attach_half_pages(uint32_t flags, dict_index_t *index,
                           buf_block_t *block, const rec_t *split_rec,
                           buf_block_t *new_block, ulint direction,
                           mtr_t *mtr);

/** Defined in btr0btr.cc, static there upstream: unlinks a page from its
level, its neighbours X-latched in mtr; for a B-link index it moves the
modify clock of the left neighbour, whose right link changes (MC1).
Declared here for the leaves freed beside an unfinished split (X4, X5). */
void btr_level_list_remove(space_id_t space, const page_size_t &page_size,
                           page_t *page, const dict_index_t *index,
                           mtr_t *mtr);

/** Defined in btr0btr.cc, static there upstream: points a node pointer
record at another child.  Declared here for the leaves freed beside an
unfinished split (X5).
@param[in,out] rec       node pointer record
@param[in,out] page_zip  its compressed page, or nullptr
@param[in]     offsets   rec_get_offsets(rec)
@param[in]     page_no   the child's page number
@param[in,out] mtr       mini-transaction */
void btr_node_ptr_set_child_page_no(rec_t *rec, page_zip_des_t *page_zip,
                                    const ulint *offsets, page_no_t page_no,
                                    mtr_t *mtr);

/** F1: the room every page of a B-link index keeps for its high key: the
largest node pointer of the index plus a directory slot (0 for other
indexes).  A merge or a separator change may give a page any high key of
its index; with this room it always fits.  Kept in the index object
(dict_index_t::blink_hk_reserve) once computed: the inserts ask for it.
@param[in] index  index */
ulint btr_blink_hk_reserve(const dict_index_t *index);

/** The longest node pointer (and so high key) an index can have, as
dict_index_node_ptr_max_size() but with the null bitmap that node pointers
really carry: the nullable fields before any INSTANT ADD or DROP COLUMN
(rec_convert_dtuple_to_rec_comp()), which an instant ALTER does not change.
@param[in] index  index
@return bytes, record header included */
ulint btr_blink_node_ptr_max_size(const dict_index_t *index);

/** F1 as the validator checks it: whether a page of a B-link index can take
a high key of any length its index allows in place of its current one.
@param[in] index  B-link index
@param[in] page   a page of it, latched
@return true if page_get_max_insert_size_after_reorganize(page, 1) plus the
bytes of its current high key reach btr_blink_node_ptr_max_size(index) */
bool btr_blink_page_room_ok(const dict_index_t *index, const page_t *page);

/** btr_blink_max_insert_size() of a B-link index. */
ulint btr_blink_max_insert_size_low(const dict_index_t *index,
                                    const page_t *page, ulint max_size);

/** F1: how many bytes of records a page can still take while keeping room
for a high key of any length.  The one F1 room check of the insert, update
and merge paths of btr0cur.cc and btr0btr.cc.
@param[in] index     index
@param[in] page      its page
@param[in] max_size  what stock code would allow (bytes free after
                     reorganize, plus what the operation gives back)
@return for a B-link index, max_size less the room kept for the high key
(the page's current high key, at most the longest node pointer, counts as
part of that room), so never more than max_size; for others, max_size
(inline: the insert and update paths of stock indexes pay one test) */
inline ulint btr_blink_max_insert_size(const dict_index_t *index,
                                       const page_t *page, ulint max_size) {
  return index->blink ? btr_blink_max_insert_size_low(index, page, max_size)
                      : max_size;
}

/** btr_blink_entry_fits() of a B-link index. */
bool btr_blink_entry_fits_low(const dict_index_t *index, const page_t *page,
                              const dtuple_t *entry);

/** F1: whether an entry fits on a page, after a reorganize if need be,
with the room for a high key kept (btr_blink_max_insert_size()).
@param[in] index  index
@param[in] page   its page
@param[in] entry  a leaf entry or a node pointer of the page's level
@return true for an index that is not B-link, whose inserts stock checks */
inline bool btr_blink_entry_fits(const dict_index_t *index,
                                 const page_t *page, const dtuple_t *entry) {
  return !index->blink || btr_blink_entry_fits_low(index, page, entry);
}

/** Bulk load: write the high key of a full page (full up to
btr_blink_hk_reserve()) whose right sibling will start with next_first.
@param[in]     index       B-link index
@param[in,out] block       the full page, X-latched in mtr, finished
@param[in]     level       its level
@param[in]     next_first  the first entry of its right sibling
@param[in,out] mtr         the page's mini-transaction */
void btr_blink_bulk_set_hk(dict_index_t *index, buf_block_t *block,
                           size_t level, const dtuple_t *next_first,
                           mtr_t *mtr);

/** G1, G3: a page leaves its level and its left sibling takes over its key
range: give the left sibling the page's high key (it fits: F1).  May
reorganize the left sibling: callers call it after their last use of a
record pointer into it.
@param[in]     index       B-link index
@param[in]     page        the page that leaves (X-latched)
@param[in,out] left_block  its left sibling (X-latched)
@param[in,out] mtr         mini-transaction holding the index X (G0) */
void btr_blink_left_takes_range(dict_index_t *index, const page_t *page,
                                buf_block_t *left_block, mtr_t *mtr);

/** G2: a page was merged into its right sibling, whose key range grows
downwards: the merged records now precede the sibling's own.  None of the
sibling's records moved, so stock leaves its modify clock alone; MC1 moves
it, so that a cursor stored at the sibling's infimum (a backward scan
between two pages) does not restore there and skip the merged records.
@param[in]     index        B-link index
@param[in,out] right_block  the right sibling (X-latched) */
void btr_blink_right_takes_range(const dict_index_t *index,
                                 buf_block_t *right_block);

/** G4: the separator of a page in its parent was replaced by node_ptr: make
its left sibling's high key equal to the new separator.
@param[in]     index     B-link index
@param[in]     block     the page whose separator changed (X-latched)
@param[in]     node_ptr  its new node pointer
@param[in,out] mtr       mini-transaction holding the index X (G0) */
void btr_blink_separator_changed(dict_index_t *index, buf_block_t *block,
                                 const dtuple_t *node_ptr, mtr_t *mtr);

/** SP1 (README.blink.md, "The split, one level at a time"): a row insert into a leaf of a
B-link index whose optimistic insert found no room splits the leaf in its
own mini-transaction, without a second descent: index->lock is taken in S
(without waiting: if an X is held or waiting, btr_blink_insert_retry()
waits for it after the commit), the leaf is split into a flagged left page and a right half that
has no node pointer yet, and the tuple is inserted.  The levels above are
published by btr_blink_insert_done() after the caller has committed.
@param[in]     err              what btr_cur_optimistic_insert() returned
@param[in]     index_lock_free  the caller's mini-transaction holds no
                                latch on index->lock
@param[in]     flags            as btr_cur_pessimistic_insert()
@param[in,out] cursor           ... and the rest as there
@return err, unless err is DB_FAIL and the leaf could be split under S:
then what btr_cur_pessimistic_insert() returned.  DB_FAIL sends the caller
to its BTR_MODIFY_TREE retry, the exclusive path (X1). */
dberr_t btr_blink_insert(dberr_t err, bool index_lock_free, uint32_t flags,
                         btr_cur_t *cursor, ulint **offsets,
                         mem_heap_t **heap, dtuple_t *entry, rec_t **rec,
                         big_rec_t **big_rec, que_thr_t *thr, mtr_t *mtr);

/** SP1 for an update (README.blink.md, "Updates, rollbacks and externally
stored columns"): the optimistic update of a record of a B-link clustered
index returned DB_OVERFLOW, and its mini-transaction still holds the leaf:
run btr_cur_pessimistic_update() there under index->lock in S (taken
without waiting, as a row insert's leaf split takes it), the leaf split
leveled.  The caller commits, then calls btr_blink_insert_done().
The other parameters are btr_cur_pessimistic_update()'s.
@param[in,out] err      DB_OVERFLOW; what btr_cur_pessimistic_update()
                        returned if this returns true
@param[in,out] heap     the entry heap, created if nullptr
@param[out]    big_rec  the columns of the new version to store externally,
                        which the caller writes under a Blink_external_scope
                        (EX3); nullptr if the caller writes none
@param[in,out] pcur     the cursor of a rollback, which frees the columns
                        its update wrote (EX4)
@return false if the caller takes its BTR_MODIFY_TREE retry (X1): a root
that is a leaf, a flagged leaf, online DDL, externally stored columns with
innodb_btree_blink_leveled_external OFF, a rollback that undoes a change to
one in place, no copy of the root's segment headers (the root not in the
buffer pool or latched X) or S not free (btr_blink_update_retry() then
copies the one or waits for the other, once) */
bool btr_blink_update(dberr_t *err, ulint flags, btr_cur_t *cursor,
                      ulint **offsets, mem_heap_t **offsets_heap,
                      mem_heap_t **heap, big_rec_t **big_rec, upd_t *update,
                      ulint cmpl_info, que_thr_t *thr, trx_id_t trx_id,
                      undo_no_t undo_no, mtr_t *mtr,
                      btr_pcur_t *pcur = nullptr);

/** LO1 for btr_blink_update() (row_upd_clust_rec()): if its last attempt
was refused S or a copy of the root's segment headers (LO4), and the row's
update has not waited yet, commit, wait for S with nothing latched and take
the copy (btr_blink_insert_retry()), start the mini-transaction
again and restore the cursor on the record with BTR_MODIFY_LEAF, so that the
caller tries btr_blink_update() once more instead of taking the exclusive
path, whose X request would in turn refuse S to every concurrent update.
@param[in,out] offsets  the record's offsets, computed again
@param[in,out] heap     their heap
@return whether the caller tries again; if false, mtr is as it was */
bool btr_blink_update_retry(btr_pcur_t *pcur, ulint **offsets,
                            mem_heap_t **heap, mtr_t *mtr);

/** Whether this thread runs btr_cur_pessimistic_update() on index under
btr_blink_update(): the update takes no tablespace latch before the leaf
split's right sibling (LO3), and reserves with btr_blink_update_reserve(). */
bool btr_blink_leveled_update(const dict_index_t *index);

/** EX3: whether btr_cur_pessimistic_update() under btr_blink_update() must
refuse a new version that stores columns externally, before any change:
its caller writes none, or innodb_btree_blink_leveled_external is OFF. */
bool btr_blink_update_refuses_external(const dict_index_t *index);

/** EX3, EX4 (README.blink.md, "Updates, rollbacks and externally stored
columns"): around the write of the columns a leveled update's new version
stores externally (its caller's lob::btr_store_big_rec_extern_fields()), and
around the freeing of those a rolled-back update wrote
(btr_cur_pessimistic_update()), while this thread holds S for the update
(btr_blink_update()): mark the thread as Blink_external_write does, so that
pages are allocated and freed through its copy of the root's segment headers
and Blink_external_pause gives S up, after publishing the update's leaf
split.  Nothing on the exclusive path, nor inside a Blink_external_write. */
class Blink_external_scope {
 public:
  explicit Blink_external_scope(const dict_index_t *index);
  ~Blink_external_scope();
  Blink_external_scope(const Blink_external_scope &) = delete;
  Blink_external_scope &operator=(const Blink_external_scope &) = delete;

 private:
  /** The index, if the thread was marked here. */
  const dict_index_t *m_index{nullptr};
};

/** EX3 for an insert over a delete-marked record
(row_ins_clust_index_entry_by_modify()) whose btr_blink_update() made a
new version that stores columns externally: write them as stock's
pessimistic path does, under a Blink_external_scope, and free big_rec.
@return what lob::btr_store_big_rec_extern_fields() returned */
dberr_t btr_blink_write_by_modify(trx_t *trx, btr_pcur_t *pcur,
                                  const upd_t *update, ulint *offsets,
                                  big_rec_t *big_rec, mtr_t *mtr);

/** LO3, RV2 for btr_blink_update(): at the reservation of
btr_cur_pessimistic_update(), latch the right sibling, then take pages of
the reserve as a row insert's leaf split does, or reserve extents as the
stock update does (flags: its own).
@return false if the tablespace has no room */
bool btr_blink_update_reserve(btr_cur_t *cursor, ulint flags,
                              ulint n_extents, ulint *n_reserved, mtr_t *mtr);

/** EX1 (README.blink.md, "Updates, rollbacks and externally stored
columns"): the write of a row insert's externally stored columns,
row_ins_index_entry_big_rec(), whose mini-transaction is started and has
latched nothing.  The row's own leaf split, if it made one, is published
first (btr_blink_insert_done()).  On a B-link clustered index the scope
then holds index->lock in S, taken waiting; the record is searched with
BTR_MODIFY_LEAF, and the pages of the columns are allocated from this
thread's copy of the root's segment headers (LO4,
btr_blink_external_page_alloc()).  S is given up while the write waits for
redo space between its mini-transactions (Blink_external_pause) and
released when the scope ends, after the caller's commit.  Nothing on the
exclusive path (X1): an index that is not B-link,
innodb_btree_blink_leveled_external OFF, online DDL. */
class Blink_external_write {
 public:
  explicit Blink_external_write(dict_index_t *index);
  ~Blink_external_write();
  Blink_external_write(const Blink_external_write &) = delete;
  Blink_external_write &operator=(const Blink_external_write &) = delete;

  /** @return the latch mode of the search for the record */
  ulint latch_mode() const;

 private:
  /** The index, if the write runs under S. */
  const dict_index_t *m_index{nullptr};
};

/** EX1, EX3: around log_free_check() between two mini-transactions of a
Blink_external_write or Blink_external_scope, with no page latched: publish
the split of an update's leaf, release S and take it again, so that no wait
for a checkpoint holds index->lock (a thread that holds a dirty page may be
waiting for S behind a waiting X).  Nothing for any other index or
thread. */
class Blink_external_pause {
 public:
  explicit Blink_external_pause(const dict_index_t *index);
  ~Blink_external_pause();
  Blink_external_pause(const Blink_external_pause &) = delete;
  Blink_external_pause &operator=(const Blink_external_pause &) = delete;

 private:
  dict_index_t *m_index{nullptr};
};

/** EX1..EX4: whether this thread writes or frees externally stored columns
of index under S (Blink_external_write, Blink_prepared_delete,
Blink_external_scope). */
bool btr_blink_writes_external(const dict_index_t *index);

/** EX2, LO4: btr_page_free_low() under btr_blink_writes_external(): free a
page of the leaf segment (a leaf, or a page of an externally stored column:
level ULINT_UNDEFINED) through this thread's copy of the root's segment
headers, without latching the root. */
void btr_blink_external_page_free(dict_index_t *index, buf_block_t *block,
                                  ulint level, mtr_t *mtr);

/** EX1, LO4: btr_page_alloc() under a Blink_external_write: allocate a page
of the leaf segment (level 0) from this thread's copy of the root's segment
headers, without latching or fixing the root, which a cascade may hold X
while it waits for the leaf this thread holds (LO2).
@return the new page, X-latched, or nullptr */
buf_block_t *btr_blink_external_page_alloc(dict_index_t *index,
                                           page_no_t hint, byte direction,
                                           ulint level, mtr_t *mtr,
                                           mtr_t *init_mtr);

/** LO1: whether this thread holds index->lock in S for a leaf split (SP2)
or a write of externally stored columns (EX1), so that its descents of
index take no more (a second S would wait behind a waiting X). */
bool btr_blink_holds_s(const dict_index_t *index);

/** SP2..SP4, FS1: called by the row insert after it committed its
mini-transaction: publish the splits btr_blink_insert() made, level by
level, each in a mini-transaction of its own, under the index->lock S it
took; or finish the incomplete splits the insert met (FS1: the leaf it
went to, a page its descent passed).  Then release index->lock.  First,
btr_blink_mark_found_corrupt() (C3): an insert whose search found its index
corrupt calls this after its commit too. */
void btr_blink_insert_done();

/** LO4: IMPORT gave indexes (the same objects, the same ids) other roots
and segments: a copy of segment headers that a retry took before is void
(copy_root_segments()). */
void btr_blink_segments_replaced();

/** LO1: after a row insert's BTR_MODIFY_LEAF attempt returned DB_FAIL (or a
rollback's failed) and committed: if its leaf split found index->lock held
or asked for in X, wait for that X with no latch held, so that the caller
tries the leaf again, once, instead of queueing an exclusive path of its own
behind it; or if it could not copy the root's segment headers (LO4: the
root latched X).  Either way copy them, with S held and no page latched.
@return whether to try BTR_MODIFY_LEAF again */
bool btr_blink_insert_retry(const dict_index_t *index);

/** FS1: a descent for a writer (BTR_MODIFY_LEAF, BTR_MODIFY_PREV) reached
the leaf level of index; flagged_passed is the first page flagged as an
incomplete split that it moved right from or descended through (FIL_NULL:
none).  A row insert that follows finishes that split after its commit, as
it does for a flagged leaf it inserts into. */
void btr_blink_writer_descended(const dict_index_t *index,
                                page_no_t flagged_passed);

/** Whether this thread splits pages of index level by level now (a split
under btr_blink_insert(), or a split of a parent while publishing one):
the new page is allocated without the root's latch (LO4), the left page
flagged, and no node pointer inserted above. */
bool btr_blink_split_leveled(const dict_index_t *index);

/** Whether this thread has split pages it has not published yet (SP2):
the leaf split of the insert in progress, an SP5 re-split among them. */
bool btr_blink_splits_pending();

/** Called by btr_blink_page_split_and_insert() when it split the page
page_no level by level: the page is flagged until its right half's node
pointer is in. */
void btr_blink_split_made(const dict_index_t *index, page_no_t page_no);

/** LO3: latch the right sibling of the cursor's page in X before the
extent reservation of btr_cur_pessimistic_insert() (which latches the
tablespace in X), when the split is leveled.  Nothing otherwise. */
void btr_blink_latch_right(btr_cur_t *cursor, mtr_t *mtr);

/** LO4: allocate a page for a leveled split without latching or fixing
the root: from the copy of the root's segment headers this thread took in
its descent (btr_blink_note_root()).
@return the new page, X-latched, or nullptr */
buf_block_t *btr_blink_page_alloc(dict_index_t *index, page_no_t hint,
                                  ulint level, mtr_t *mtr);

/** LO4: a writer's descent or a level search of index latched its root
(readers do not call this): copy the root's segment
headers for this thread's leveled splits (written when the index is
created, or imported, and never changed while the index is in use). */
void btr_blink_note_root(const dict_index_t *index, const page_t *root);

/** LO4: this thread's copy of the root's PAGE_BTR_SEG_LEAF.
@return the copy, or nullptr if its last descent was of another index */
const fseg_header_t *btr_blink_leaf_segment(const dict_index_t *index);

/** fseg_alloc_free_page_general() with the tablespace given, for a segment
header that is not on its page (LO4's copy).  Defined in fsp/fsp0fsp.cc
(patch 0003); declared here, not in fsp0fsp.h, which most of InnoDB
includes. */
buf_block_t *fseg_alloc_free_page_in_space(space_id_t space_id,
                                           const fseg_header_t *seg_header,
                                           page_no_t hint, byte direction,
                                           bool has_done_reservation,
                                           mtr_t *mtr, mtr_t *init_mtr);

/** X2: an exclusive path (index->lock in X) finishes the incomplete splits
it could meet before it latches any page: of every page on the path to
tuple (to the first leaf if tuple is nullptr and from_left, to the last if
not), of their left and right siblings.
@param[in] index  B-link index, its lock held in X by this thread, and no
                  page latched by it (except under Blink_finished_scope)
@param[in] tuple  search tuple, or nullptr
@param[in] from_left  for tuple == nullptr: the leftmost path */
void btr_blink_finish_path(dict_index_t *index, const dtuple_t *tuple,
                           bool from_left);

/** X1, X2: what a BTR_MODIFY_TREE search of a B-link index does first:
take index->lock in X in mtr, then btr_blink_finish_path(). */
void btr_blink_lock_exclusive(dict_index_t *index, const dtuple_t *tuple,
                              bool from_left, mtr_t *mtr);

/** X3: whether this thread's exclusive path on index met an incomplete
split that X2 could not finish (no room in the tablespace for the parent
split, FS3).  Its structure changes then fail as on a full tablespace,
where stock's extent reservation would: going on could split the flagged
page (IS3) or merge or discard it, orphaning its right half.  Merges are
skipped (btr_blink_merge_allowed()).
@return false for a leveled split, whatever an earlier path left */
bool btr_blink_path_unfinished(dict_index_t *index);

/** X3: btr_blink_path_unfinished(), counted: btr_cur_pessimistic_insert()
and _update() return DB_OUT_OF_FILE_SPACE. */
bool btr_blink_change_refused(dict_index_t *index);

/** What btr_cur_pessimistic_delete() does under X3. */
enum class btr_blink_delete_t {
  /** what stock does: no split on the path is unfinished, the delete
  changes no structure, or the leaf's discard changes one record of its
  parent, not the first (X5) */
  GO_ON,
  /** refused (DB_OUT_OF_FILE_SPACE, counted): the leaf's discard would
  change more than its parent's records */
  REFUSED,
  /** done: the leaf was freed with its record, its split undone (X4), or
  a sibling taking its range (X5) */
  FREED
};

/** X3 for btr_cur_pessimistic_delete() of the record at the cursor: a
record deleted from a leaf that keeps others changes no structure, so purge
and rollback go on; the leaf emptied by the delete of its last one is
freed, unless that would change more than its parent's records (X4, X5). */
btr_blink_delete_t btr_blink_delete_unfinished(btr_cur_t *cursor, mtr_t *mtr);

/** X3: whether the stock descent of this thread's exclusive path
(BTR_MODIFY_TREE, index->lock in X) must move right from page for tuple:
only after X2 left a split on the path unfinished, when the key may lie
in a right half that has no node pointer.  Non-leaf pages may be read
unlatched (under X only this thread changes them); a leaf must be
latched.  A walk whose right links come back to a page it met (C2) marks
the index corrupted and stops the server: the stock descent cannot return
an error (C3).
@param[in] mode  the search mode (D3) */
bool btr_blink_exclusive_moves_right(dict_index_t *index,
                                     const page_t *page, const dtuple_t *tuple,
                                     page_cur_mode_t mode, mtr_t *mtr);

/** D3: whether a search in mode for tuple goes right of page, which has a
right sibling and so a high key (the caller latched the page, or holds
index->lock in X for a non-leaf page).
@return false for the rightmost page of a level */
bool btr_blink_right_of_high_key(const dict_index_t *index, const page_t *page,
                                 const dtuple_t *tuple, page_cur_mode_t mode,
                                 mtr_t *mtr);

/** CHECK TABLE: finish every incomplete split of the index, level by
level (caller holds index->lock in X).
@return the number of splits finished */
ulint btr_blink_finish_all(dict_index_t *index);

/** IMPORT's purge restores its cursor for a pessimistic delete in the
mini-transaction that holds its leaf, where X2's pass, which latches pages
in mini-transactions of its own, would wait for that leaf.  This scope
finishes every split of the index first (under index->lock in X taken and
released here; nothing for an index that is not B-link) and lets the
searches of the thread skip the pass until it ends. */
class Blink_finished_scope {
 public:
  explicit Blink_finished_scope(dict_index_t *index);
  ~Blink_finished_scope();
  Blink_finished_scope(const Blink_finished_scope &) = delete;
  Blink_finished_scope &operator=(const Blink_finished_scope &) = delete;

 private:
  const dict_index_t *m_prev;
};

/** SP3: descend to a non-leaf level with move-right and X-latch the page
whose key range holds tuple, the cursor on its PAGE_CUR_LE record.  The
caller holds index->lock in S or X. */
void btr_blink_search_level(dict_index_t *index, ulint level,
                            const dtuple_t *tuple, btr_cur_t *cursor,
                            ut::Location location, mtr_t *mtr);

/** PD1, G0: whether a page of index may be merged into a sibling or lifted
now (btr_cur_compress_if_useful()): never on a B-link index that deletes
pages (btr_blink_deletes_pages()); otherwise only under index->lock in X,
which every BTR_MODIFY_TREE search of a B-link index takes (X1), so a caller
that holds only SX leaves the page under-filled until a later delete merges
it.  The caller holds index->lock in SX or X.
@return true for a stock index */
bool btr_blink_merge_allowed(dict_index_t *index);

/** A caller that turns a corrupt B-link index met by its leaf search into
an error (README.blink.md, "Corrupt pages", C3).  Inside a scope, a
btr_blink_search_leaf() or btr_blink_open_at_side() that finds the index
corrupt logs it and returns with no page latched and the cursor on no page,
and found() says so; the caller commits its mini-transaction and calls
btr_blink_mark_found_corrupt() before it returns the error.  Outside any
scope the search marks the index and stops the server, as stock does for a
corrupt page.  Scopes nest; the innermost one of the thread takes the
report. */
class Blink_corruption_scope {
 public:
  Blink_corruption_scope() : m_outer(s_innermost) { s_innermost = this; }
  ~Blink_corruption_scope() { s_innermost = m_outer; }

  Blink_corruption_scope(const Blink_corruption_scope &) = delete;
  Blink_corruption_scope &operator=(const Blink_corruption_scope &) = delete;

  /** @return whether a search in this scope found its index corrupt */
  bool found() const { return m_found; }

  /** Tell the innermost scope of this thread that its search found the
  index corrupt.
  @return false if the thread is in no scope */
  static bool report() {
    if (s_innermost == nullptr) {
      return false;
    }
    s_innermost->m_found = true;
    return true;
  }

 private:
  static inline thread_local Blink_corruption_scope *s_innermost{nullptr};
  Blink_corruption_scope *const m_outer;
  bool m_found{false};
};

/** C3: mark corrupted (dict_set_corrupted(), a redo write and flush) the
index that a search inside a Blink_corruption_scope of this thread found
corrupt, if one did since the last call.  The scope's caller calls it after
its mini-transaction has committed and before it returns the error
(btr_blink_insert_done() for the row inserts, row_search_mvcc() on its
exit): no latch of the index, a page or the adaptive hash index is held
then, and nothing of this thread uses the index before it is marked. */
void btr_blink_mark_found_corrupt();

/** C3 for a walk of a B-link index that cannot return an error: log the
corrupt index (once), mark it corrupted and stop the server, as stock does
for a corrupt page.
@param[in] page_no  the page found wrong
@param[in] level    its level
@param[in] why      what was wrong
@param[in] context  which walk found it */
void btr_blink_corrupt_stop(dict_index_t *index, page_no_t page_no,
                            ulint level, const char *why, const char *context);

/** The descent of a B-link index to its leaf level for the leaf latch
modes (README.blink.md, "Descent with move-right", D1..D5): one page
latched at a time, move-right by the high key, move-left for the PREV
modes.  Called by btr_cur_search_to_nth_level() for level 0 in place of the
latch-coupled descent.
@param[in]     index              B-link index
@param[in]     tuple              search tuple
@param[in]     mode               PAGE_CUR_GE, PAGE_CUR_G, PAGE_CUR_LE or PAGE_CUR_L
@param[in]     latch_mode         latch mode without flags
@param[in]     estimate           record the path in cursor->path_arr for
                                  btr_estimate_n_rows_in_range() (D8)
@param[in]     s_latch_by_caller  the caller holds index->lock (S or SX)
@param[in,out] cursor             tree cursor, positioned on the leaf (its
                                  left_block set for the PREV modes), or on
                                  no page if the index is corrupt (C3,
                                  Blink_corruption_scope)
@param[in]     location           caller, for the page latches
@param[in,out] mtr                mini-transaction
@return false (nothing done) if latch_mode is not BTR_SEARCH_LEAF,
BTR_MODIFY_LEAF, BTR_SEARCH_PREV or BTR_MODIFY_PREV */
bool btr_blink_search_leaf(dict_index_t *index, const dtuple_t *tuple,
                           page_cur_mode_t mode, ulint latch_mode,
                           bool estimate, bool s_latch_by_caller,
                           btr_cur_t *cursor, ut::Location location,
                           mtr_t *mtr);

/** The descent of a B-link index to the first or last leaf (README.blink.md,
D6): as btr_blink_search_leaf(), the leftmost descent follows the first node
pointer of each level (no page is ever put left of the leftmost one, S1),
moving right only from a deleted page (PD3), the
rightmost descent moves right on each level until the right link is FIL_NULL.
Called by btr_cur_open_at_index_side() for level 0.
@param[in]     from_left          true: before the first record of the first
                                  leaf; false: after the last of the last
@param[in]     index              B-link index
@param[in]     latch_mode         BTR_SEARCH_LEAF or BTR_MODIFY_LEAF (other
                                  modes: nothing done)
@param[in]     estimate           record the path (D8)
@param[in]     s_latch_by_caller  the caller holds index->lock (S or SX)
@param[in,out] cursor             tree cursor
@param[in]     location           caller, for the page latches
@param[in,out] mtr                mini-transaction
@return false (nothing done) for a latch mode other than BTR_SEARCH_LEAF or
BTR_MODIFY_LEAF */
bool btr_blink_open_at_side(bool from_left, dict_index_t *index,
                            ulint latch_mode, bool estimate,
                            bool s_latch_by_caller, btr_cur_t *cursor,
                            ut::Location location, mtr_t *mtr);

/** Adds path information to the cursor for the current page, for which
the binary search has been performed (defined in btr0cur.cc, stock).
@param[in,out] cursor       cursor positioned on a page
@param[in]     height       height of the page in the tree; 0 means leaf
@param[in]     root_height  root node height in the tree */
void btr_cur_add_path_info(btr_cur_t *cursor, ulint height, ulint root_height);

/** Check a B-link index (README.blink.md, "Validator").  Takes the index
lock in X for the whole walk, as CHECK TABLE's btr_validate_index() does
for B-link indexes: no split or merge runs concurrently (leveled splits
hold S); leaf records may change, and the
checks stay exact (see btr0blink_validate.cc).
@param[in] index  B-link index
@param[in] trx    transaction (for interrupt checks), or nullptr
@param[out] msg   the first violation, with index name and page numbers
@return true if no violation was found */
bool btr_blink_validate_index(dict_index_t *index, const trx_t *trx,
                              std::string *msg);

/** Check a B-link index while structure changes run (README.blink.md,
"Validator, online"; amcheck's bt_index_check): each level from its
leftmost page along the right links, each page and its right sibling
latched together, no check between levels.  Holds the index lock in S,
which lets splits, deletions and merges to the right run and keeps the
exclusive paths out.
@param[in] index  B-link index
@param[in] trx    transaction (for interrupt checks), or nullptr
@param[out] msg   the first violation, with index name and page numbers
@return true if no violation was found */
bool btr_blink_validate_index_online(dict_index_t *index, const trx_t *trx,
                                     std::string *msg);

/** CHECK TABLE's check of an index.  A B-link index (README.blink.md,
"Validator, online"): the online walk under index->lock in S, which lets the
reads and the row inserts of the index go on, then, with no latch held, the
finishing of the incomplete splits the walk met, as writers finish them
(FS1).  CHECK TABLE ... EXTENDED, and any stock index: stock's
btr_validate_index(), then for a B-link index the full walk.
@param[in,out] index     index
@param[in]     trx       the checking transaction, for interruption
@param[in]     extended  CHECK TABLE ... EXTENDED
@param[out]    msg       the first B-link violation, if any
@return true if no violation was found */
bool btr_blink_check_table(dict_index_t *index, const trx_t *trx,
                           bool extended, std::string *msg);

/** Finish the incomplete splits of the pages of index flagged when they
were noted (FS1, FS2), taking index->lock in S; the caller holds no latch.
Stops at the first that cannot be finished (no room in the tablespace). */
void btr_blink_finish_splits(dict_index_t *index,
                             const std::vector<page_no_t> &pages);

/** Run the validator on every B-link index in the dictionary cache.
@param[out] msg     the first violation
@param[in]  online  btr_blink_validate_index_online() instead of
                    btr_blink_validate_index()
@return number of B-link indexes with a violation */
ulint btr_blink_validate_all(std::string *msg, bool online = false);

#endif /* btr0blink_h */
