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

/** @file btr/btr0blink_delete.cc
Page deletion of B-link indexes (btr/README.blink.md, "Page deletion",
PD1-PD8): the delete of the last record of a leaf takes the leaf out of its
level in the same mini-transaction, under index->lock in S, giving its key
range to its right sibling; a delete that leaves a leaf under-filled moves
its records, or its left neighbour's, to the right first (PD8); the page
that left waits in the index's reserve until no descent can reach it (PD5),
then a split reuses it. */

#include "btr0blink.h"
#include "btr0blink_chain.h"
#include "btr0blink_epoch.h"
#include "btr0blink_finish.h"
#include "btr0blink_reserve.h"

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0sea.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "lock0lock.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0cur.h"
#include "page0page.h"
#include "rem0rec.h"
#include "srv0mon.h"
#include "srv0srv.h"
#include "sync0rw.h"

#include <initializer_list>
#include <optional>
#include <thread>

using blink_finish::child_of;
using blink_finish::is_flagged;
using blink_finish::set_child;

bool srv_btree_blink_page_delete = true;

namespace {

/** PD5: never freed, since threads may end after static destructors. */
blink_epoch::Registry *const epochs = new blink_epoch::Registry;
thread_local blink_epoch::Thread_slot t_epoch_slot(*epochs);

/** PD2: what btr_blink_search_for_delete() latched for the delete that
follows in the same mini-transaction. */
struct Prepared {
  const dict_index_t *index{nullptr};
  const mtr_t *mtr{nullptr};
  /** the leaf, and its modify clock when prepared */
  buf_block_t *page{nullptr};
  uint64_t clock{0};
  /** set when a page leaves its level (leaving): the leaf, emptied by the
  delete or with its other records moved to its right sibling (merge, PD8),
  or its left neighbour, whose records move into the leaf (merge_left); the
  parent, on the leaving page's node pointer; the leaving page's left
  neighbour (or nullptr) and right sibling */
  buf_block_t *parent{nullptr};
  ulint node_ptr{0};
  buf_block_t *left{nullptr};
  buf_block_t *right{nullptr};
  buf_block_t *leaving{nullptr};
  /** EX2: the record has externally stored columns, which stock's
  pessimistic delete frees under S */
  bool external{false};
  /** PD8: the leaf keeps records, which move to its right sibling */
  bool merge{false};
  /** PD8: the leaf keeps its records, and its left neighbour's move into
  it */
  bool merge_left{false};
  /** PD6, PD8: a merge not done while the reserve has not read its
  directory since the startup: a plain delete, unless the directory can be
  read first and the merge tried again (btr_blink_search_for_delete()) */
  bool unread{false};
};
thread_local Prepared t_prepared;

/** The latches btr_blink_search_for_delete() took, released again when the
delete must take the exclusive path. */
class Delete_latches {
 public:
  Delete_latches(dict_index_t *index, mtr_t *mtr)
      : m_index(index),
        m_mtr(mtr),
        m_page_size(dict_table_page_size(index->table)) {}

  /** Latch a leaf by a page number read from a latched page.
  @return the block, or nullptr if it is not a live leaf of the index (D4,
  PD3) and was released */
  buf_block_t *leaf(page_no_t page_no, ulint rw_latch) {
    buf_block_t *block =
        btr_block_get(page_id_t(m_index->space, page_no), m_page_size,
                      rw_latch, UT_LOCATION_HERE, m_index, m_mtr);
    const page_t *page = buf_block_get_frame(block);
    if (!fil_page_index_page_check(page) ||
        btr_page_get_index_id(page) != m_index->id ||
        btr_page_get_level(page) != 0 ||
        btr_blink_page_deleted(page, m_index)) {
      release(block, rw_latch);
      return nullptr;
    }
    m_held.push_back({block, rw_latch});
    return block;
  }

  void hold(buf_block_t *block, ulint rw_latch) {
    m_held.push_back({block, rw_latch});
  }

  void release(buf_block_t *block, ulint rw_latch) {
    m_mtr->memo_release(block, rw_latch == RW_X_LATCH ? MTR_MEMO_PAGE_X_FIX
                                                      : MTR_MEMO_PAGE_S_FIX);
    m_held.erase(std::remove_if(m_held.begin(), m_held.end(),
                                [&](const auto &h) { return h.first == block; }),
                 m_held.end());
  }

  /** Release every page latched and index->lock: the exclusive path
  starts afresh in the same mini-transaction. */
  void release_all() {
    while (!m_held.empty()) {
      release(m_held.back().first, m_held.back().second);
    }
    m_mtr->memo_release(dict_index_get_lock(m_index), MTR_MEMO_S_LOCK);
  }

 private:
  dict_index_t *const m_index;
  mtr_t *const m_mtr;
  const page_size_t m_page_size;
  std::vector<std::pair<buf_block_t *, ulint>> m_held;
};

/** PD8, EX2: a delete that changes no structure needs only its leaf: the
other pages the search latched go now. */
void keep_leaf_only(Delete_latches &latches,
                    std::initializer_list<buf_block_t *> blocks) {
  for (buf_block_t *block : blocks) {
    if (block != nullptr) {
      latches.release(block, RW_X_LATCH);
    }
  }
}

/** PD2: latch the leaf's left neighbour, moving right from the page its
left link named while that page's right link is not the leaf (it split
meanwhile).
@return the left neighbour X-latched, nullptr if the leaf has none, or
false in *failed */
buf_block_t *latch_left(Delete_latches &latches, page_no_t left_no,
                        page_no_t leaf_no, mtr_t *mtr, bool *failed) {
  *failed = false;
  if (left_no == FIL_NULL) {
    return nullptr;
  }
  buf_block_t *left = latches.leaf(left_no, RW_X_LATCH);
  blink_chain::Cycle_check cycle(left_no);
  while (left != nullptr) {
    const page_no_t next =
        btr_page_get_next(buf_block_get_frame(left), mtr);
    if (next == leaf_no) {
      return left;
    }
    if (next == FIL_NULL || cycle.step(next)) {
      latches.release(left, RW_X_LATCH);
      break;
    }
    buf_block_t *right = latches.leaf(next, RW_X_LATCH);
    latches.release(left, RW_X_LATCH);
    left = right;
  }
  *failed = true;
  return nullptr;
}

/** Whether this thread holds the lock in SX or X, by the test that
rw_lock_x_lock_func() makes for recursion.  A rollback of a secondary
index entry takes index->lock in SX before its search, and the reserve's
refill takes the index lock once per thread (LO1). */
bool holds_sx_or_x(const rw_lock_t *lock) {
  return lock->recursive.load(std::memory_order_acquire) &&
         lock->writer_thread.load(std::memory_order_relaxed) ==
             std::this_thread::get_id();
}

/** Position the cursor on the leaf as the stock search does. */
void search_leaf(dict_index_t *index, const dtuple_t *tuple,
                 page_cur_mode_t mode, buf_block_t *block, btr_cur_t *cursor) {
  ulint up_match = 0;
  ulint low_match = 0;
  page_cur_search_with_match(block, index, tuple, mode, &up_match, &low_match,
                             btr_cur_get_page_cur(cursor), nullptr);
  cursor->index = index;
  cursor->flag = BTR_CUR_BINARY;
  cursor->up_match = up_match;
  cursor->low_match = low_match;
  cursor->up_bytes = 0;
  cursor->low_bytes = 0;
  cursor->left_block = nullptr;
}

/** PD8: whether the delete of a record of rec_size bytes leaves a leaf
that keeps records under its index's MERGE_THRESHOLD, as stock's
btr_cur_can_delete_without_compress() decides; not while the index is built
or rebuilt online, whose log apply would take the exclusive path for it. */
bool merge_wanted(const dict_index_t *index, const page_t *page,
                  ulint rec_size) {
  const ulint hk_size = page_blink_get_hk(page, index).rec_size();
  return !dict_index_is_online_ddl(index) &&
         page_get_data_size(page) - hk_size - rec_size <
             BTR_CUR_PAGE_COMPRESS_LIMIT(index);
}

/** PD1, PD8: whether the leaf may leave its level: its range goes to its
right sibling under the same parent (latched X here), neither the leaf nor
its left neighbour is flagged, the reserve has room to list the leaf (PD6)
and, for a merge, the right sibling has room for the leaf's records that
remain after the delete.
@param[in] merge_rec_size  bytes of the record the merge deletes; 0 for a
                           delete that empties the leaf
@param[out] right  the right sibling, X-latched
@return why not, or nothing */
std::optional<Blink_exclusive> leave_level(dict_index_t *index,
                                           Delete_latches &latches,
                                           const rec_t *node_ptr,
                                           buf_block_t *left, buf_block_t *leaf,
                                           ulint merge_rec_size, mtr_t *mtr,
                                           buf_block_t **right) {
  const page_t *page = buf_block_get_frame(leaf);
  const rec_t *right_ptr = page_rec_get_next_const(node_ptr);
  const page_no_t right_no = btr_page_get_next(page, mtr);
  if (is_flagged(page, index) ||
      (left != nullptr && is_flagged(buf_block_get_frame(left), index))) {
    return Blink_exclusive::INCOMPLETE_SPLIT;
  }
  if (right_no == FIL_NULL || !page_rec_is_user_rec(right_ptr)) {
    return Blink_exclusive::LAST_CHILD;
  }
  if (child_of(right_ptr, index) != right_no) {
    /* The right sibling has no node pointer yet: its split is
    incomplete. */
    return Blink_exclusive::INCOMPLETE_SPLIT;
  }
  *right = latches.leaf(right_no, RW_X_LATCH);
  if (*right == nullptr || btr_page_get_prev(buf_block_get_frame(*right),
                                             mtr) != leaf->page.id.page_no()) {
    return Blink_exclusive::INCOMPLETE_SPLIT;
  }
  if (merge_rec_size > 0) {
    /* F1 on the right sibling, as btr_compress() checks a merge. */
    const page_t *right_page = buf_block_get_frame(*right);
    const ulint n_recs = page_get_n_recs(page) - 1;
    const ulint data_size = page_get_data_size(page) -
                            page_blink_get_hk(page, index).rec_size() -
                            merge_rec_size;
    if (btr_blink_max_insert_size(
            index, right_page,
            page_get_max_insert_size_after_reorganize(right_page, n_recs)) <
        data_size) {
      return Blink_exclusive::OTHER;
    }
  }
  /* PD6: room to list the page; the directory is latched by the delete. */
  if (!btr_blink_reserve_room_for_delete(index)) {
    return Blink_exclusive::RESERVE_FULL;
  }
  return std::nullopt;
}

/** PD8: whether the leaf's left neighbour may move its records into the
leaf and leave its level, where the leaf cannot merge to its right: the left
neighbour's node pointer is the one before the leaf's in the parent, neither
it nor its own left neighbour is flagged, the leaf has room for its records
with F1's room, and the reserve has room to list it (PD6).
@param[in] node_ptr    the leaf's node pointer
@param[in] left_left   the left neighbour's left neighbour, or nullptr */
bool left_merge_possible(const dict_index_t *index, const rec_t *node_ptr,
                         const buf_block_t *left_left, const buf_block_t *left,
                         const buf_block_t *leaf, mtr_t *mtr) {
  const page_t *left_page = buf_block_get_frame(left);
  const rec_t *left_ptr = page_rec_get_prev_const(node_ptr);
  if (!page_rec_is_user_rec(left_ptr) ||
      child_of(left_ptr, index) != left->page.id.page_no() ||
      is_flagged(left_page, index) ||
      (left_left != nullptr &&
       is_flagged(buf_block_get_frame(left_left), index)) ||
      btr_page_get_prev(left_page, mtr) !=
          (left_left == nullptr ? FIL_NULL : left_left->page.id.page_no())) {
    return false;
  }
  const page_t *page = buf_block_get_frame(leaf);
  const ulint data_size = page_get_data_size(left_page) -
                          page_blink_get_hk(left_page, index).rec_size();
  return btr_blink_max_insert_size(
             index, page,
             page_get_max_insert_size_after_reorganize(
                 page, page_get_n_recs(left_page))) >= data_size &&
         btr_blink_reserve_room_for_delete(index);
}

/** PD1, PD2: latch what the delete of the cursor's record needs, under
index->lock in S.
@return false if the delete must take the exclusive path */
bool prepare(dict_index_t *index, const dtuple_t *tuple, page_cur_mode_t mode,
             btr_cur_t *cursor, ut::Location location, mtr_t *mtr,
             Delete_latches &latches) {
  /* X1: the exclusive path's reason, noted with each refusal. */
  const auto refuse = [index](Blink_exclusive reason) {
    btr_blink_exclusive_reason(index, reason);
    return false;
  };
  if (btr_height_get(index, mtr) == 0) {
    /* The root is the leaf: stock deletes its last record in place. */
    return refuse(Blink_exclusive::ROOT_LEAF);
  }
  btr_cur_t parent;
  btr_blink_search_level(index, 1, tuple, &parent, location, mtr);
  buf_block_t *parent_block = btr_cur_get_block(&parent);
  latches.hold(parent_block, RW_X_LATCH);
  const rec_t *node_ptr = btr_cur_get_rec(&parent);
  if (!page_rec_is_user_rec(node_ptr)) {
    return refuse(Blink_exclusive::INCOMPLETE_SPLIT);
  }
  const page_no_t leaf_no = child_of(node_ptr, index);

  /* The leaf's left link, under a latch of its own: a split of the left
  neighbour changes it without the parent. */
  buf_block_t *leaf = latches.leaf(leaf_no, RW_S_LATCH);
  if (leaf == nullptr) {
    return refuse(Blink_exclusive::INCOMPLETE_SPLIT);
  }
  const page_no_t left_no = btr_page_get_prev(buf_block_get_frame(leaf), mtr);
  /* PD8: a leaf that keeps records may take its left neighbour's, which
  leaves its level then: that page's left neighbour is latched first
  (LO2), found as the leaf's is below. */
  const rec_t *left_ptr = page_rec_get_prev_const(node_ptr);
  const bool may_merge_left = page_get_n_recs(buf_block_get_frame(leaf)) > 1 &&
                              page_rec_is_user_rec(left_ptr) &&
                              child_of(left_ptr, index) == left_no;
  latches.release(leaf, RW_S_LATCH);
  DEBUG_SYNC_C("blink_delete_left_named");

  bool failed;
  buf_block_t *left_left = nullptr;
  bool left_left_found = false;
  if (may_merge_left) {
    if (buf_block_t *named = latches.leaf(left_no, RW_S_LATCH)) {
      const page_no_t left_left_no =
          btr_page_get_prev(buf_block_get_frame(named), mtr);
      latches.release(named, RW_S_LATCH);
      left_left = latch_left(latches, left_left_no, left_no, mtr, &failed);
      left_left_found = !failed;
    }
  }
  buf_block_t *left = latch_left(latches, left_no, leaf_no, mtr, &failed);
  if (failed) {
    return refuse(Blink_exclusive::INCOMPLETE_SPLIT);
  }
  leaf = latches.leaf(leaf_no, RW_X_LATCH);
  if (leaf == nullptr) {
    return refuse(Blink_exclusive::INCOMPLETE_SPLIT);
  }
  const page_t *page = buf_block_get_frame(leaf);
  /* The left neighbour's split, or the leaf's (its records above the high
  key now on a right half that has no node pointer yet): the exclusive
  path finishes it first (X2). */
  if (btr_page_get_prev(page, mtr) !=
          (left == nullptr ? FIL_NULL : left->page.id.page_no()) ||
      btr_blink_right_of_high_key(index, page, tuple, mode, mtr)) {
    return refuse(Blink_exclusive::INCOMPLETE_SPLIT);
  }
  search_leaf(index, tuple, mode, leaf, cursor);
  const rec_t *rec = btr_cur_get_rec(cursor);
  if (!page_rec_is_user_rec(rec)) {
    return refuse(Blink_exclusive::OTHER);
  }
  t_prepared = {index, mtr, leaf, leaf->get_modify_clock(IF_DEBUG(true))};
  Rec_offsets offsets;
  const ulint *rec_offsets = offsets.compute(rec, index);
  if (rec_offs_any_extern(rec_offsets)) {
    /* EX2: freed under S from the copy of the segment headers the level
    search took (LO4), in a leaf that keeps other records; the exclusive
    path (X1) frees them otherwise. */
    if (!srv_btree_blink_leveled_external) {
      return refuse(Blink_exclusive::SWITCH_OFF);
    }
    if (dict_index_is_online_ddl(index)) {
      return refuse(Blink_exclusive::ONLINE_DDL);
    }
    if (page_get_n_recs(page) < 2) {
      return refuse(Blink_exclusive::EXTERNAL);
    }
    if (btr_blink_leaf_segment(index) == nullptr) {
      return refuse(Blink_exclusive::NO_SEGMENT_COPY);
    }
    /* Only the leaf is needed while the columns are freed. */
    keep_leaf_only(latches, {parent_block, left, left_left});
    t_prepared.external = true;
    return true;
  }
  const bool merge = page_get_n_recs(page) > 1;
  if (merge && !merge_wanted(index, page, rec_offs_size(rec_offsets))) {
    /* The leaf keeps enough records: a plain delete. */
    keep_leaf_only(latches, {parent_block, left, left_left});
    return true;
  }
  buf_block_t *right = nullptr;
  if (merge) {
    /* Counted as stock's btr_compress() counts its attempts (twice for a
    merge tried again after reading the reserve's directory, PD6). */
    MONITOR_INC(MONITOR_INDEX_MERGE_ATTEMPTS);
  }
  if (const auto reason =
          leave_level(index, latches, node_ptr, left, leaf,
                      merge ? rec_offs_size(rec_offsets) : 0, mtr, &right)) {
    if (!merge) {
      return refuse(*reason);
    }
    if (left_left_found && left != nullptr &&
        left_merge_possible(index, node_ptr, left_left, left, leaf, mtr)) {
      t_prepared.parent = parent_block;
      t_prepared.node_ptr = page_offset(page_rec_get_prev_const(node_ptr));
      t_prepared.left = left_left;
      t_prepared.right = leaf;
      t_prepared.leaving = left;
      t_prepared.merge_left = true;
      /* Latched by leave_level(), not needed: the merge ends at the leaf. */
      keep_leaf_only(latches, {right});
      return true;
    }
    /* PD8: a merge that cannot be done is not one: a plain delete.  Either
    merge may have been refused for the reserve's directory, unread since
    the startup: it is read first if it can be (PD6). */
    t_prepared.unread = !btr_blink_reserve_loaded(index);
    keep_leaf_only(latches, {parent_block, left, left_left, right});
    return true;
  }
  t_prepared.parent = parent_block;
  t_prepared.node_ptr = page_offset(node_ptr);
  t_prepared.left = left;
  t_prepared.right = right;
  t_prepared.leaving = leaf;
  t_prepared.merge = merge;
  return true;
}

/** PD2: the leaf, empty now, leaves its level: its range goes to its right
sibling, which took its record locks. */
void unlink_leaf(const Prepared &prepared, dict_index_t *index, mtr_t *mtr) {
  buf_block_t *block = prepared.leaving;
  page_t *page = buf_block_get_frame(block);
  buf_block_t *right = prepared.right;
  const page_no_t right_no = right->page.id.page_no();
  ut_ad(page_is_empty(page));
  ut_ad(btr_page_get_next(page, mtr) == right_no);

  /* The parent: the leaf's node pointer names the right sibling, whose own
  node pointer, the next record, goes. */
  buf_block_t *parent = prepared.parent;
  rec_t *node_ptr = buf_block_get_frame(parent) + prepared.node_ptr;
  ut_ad(child_of(node_ptr, index) == block->page.id.page_no());
  page_cur_t right_cur;
  page_cur_position(page_rec_get_next(node_ptr), parent, &right_cur);
  ut_a(child_of(page_cur_get_rec(&right_cur), index) == right_no);
  set_child(node_ptr, index, right_no, mtr);
  Rec_offsets ptr_offsets;
  page_cur_delete_rec(&right_cur, index,
                      ptr_offsets.compute(page_cur_get_rec(&right_cur), index),
                      mtr);
  /* MC1: a record of the parent changed; the right sibling's range grew. */
  buf_block_modify_clock_inc(parent);
  buf_block_modify_clock_inc(right);

  /* The level: the left neighbour's right link and the right sibling's
  left link skip the leaf, which keeps its own (PD3). */
  btr_level_list_remove(index->space, dict_table_page_size(index->table), page,
                        index, mtr);
  page_blink_set_flags(
      block, page_blink_get_flags(page, index) | PAGE_BLINK_DELETED, mtr);

  /* PD5: every latch of the deletion is still held. */
  const uint64_t stamp = btr_blink_epochs().retire();
  btr_blink_reserve_list_deleted(index, block->page.id.page_no(), stamp, mtr);
  btr_blink_stats.pages_deleted.fetch_add(1, std::memory_order_relaxed);
  DBUG_EXECUTE_IF("blink_crash_in_delete", blink_finish::crash_now(););
}

/** PD2: the leaf, emptied but for the cursor's record, leaves its level. */
void delete_leaf(const Prepared &prepared, btr_cur_t *cursor, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  buf_block_t *block = prepared.page;
  buf_block_t *right = prepared.right;
  ut_ad(page_get_n_recs(buf_block_get_frame(block)) == 1);

  /* Its record locks go with its range, to the right sibling's first
  record, as btr_discard_page() sends those of a page without a left
  sibling: an insert into the range checks that record's locks. */
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_discard(right, lock_get_min_heap_no(right), block);
  }
  btr_search_drop_page_hash_index(block);
  Rec_offsets offsets;
  page_cur_delete_rec(btr_cur_get_page_cur(cursor), index,
                      offsets.compute(btr_cur_get_rec(cursor), index), mtr);
  unlink_leaf(prepared, index, mtr);
}

/** PD8: the records of the page that leaves its level move to the start
of its right sibling, in the order of stock's merge to the right
(btr_compress()): the records with their locks and adaptive hash index
entries (page_copy_rec_list_end()), then the locks of the page's supremum
(lock_update_merge_right()); the page is emptied and leaves its level
(unlink_leaf()).  All in the delete's mini-transaction, with both pages
X-latched, so that no reader sees the records in two places or in neither.
@return false if the sibling could not be reorganized (stock's merge gives
up then, btr_can_merge_with_page()): nothing moved */
bool move_right_and_unlink(const Prepared &prepared, dict_index_t *index,
                           mtr_t *mtr) {
  buf_block_t *block = prepared.leaving;
  page_t *page = buf_block_get_frame(block);
  buf_block_t *right = prepared.right;
  /* The room was checked after a reorganize, which page_copy_rec_list_end()
  does not make (btr_compress()). */
  const page_t *right_page = buf_block_get_frame(right);
  if (page_get_data_size(page) - page_blink_get_hk(page, index).rec_size() >
      page_get_max_insert_size(right_page, page_get_n_recs(page))) {
    page_cur_t right_cur;
    page_cur_set_before_first(right, &right_cur);
    /* Fails only on a page whose header totals disagree with its records,
    which btr_page_reorganize() reports. */
    if (!btr_page_reorganize(&right_cur, index, mtr)) {
      return false;
    }
  }
  const rec_t *orig_succ = page_copy_rec_list_end(
      right, block, page_get_infimum_rec(page), index, mtr);
  ut_a(orig_succ != nullptr);
  btr_search_drop_page_hash_index(block);
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_merge_right(right, orig_succ, block);
  }
  /* The page keeps its high key and flags (page_create_empty()). */
  page_delete_rec_list_end(page_rec_get_next(page_get_infimum_rec(page)),
                           block, index, ULINT_UNDEFINED, ULINT_UNDEFINED, mtr);
  DBUG_EXECUTE_IF("blink_crash_in_merge", blink_finish::crash_now(););
  if (prepared.merge_left) {
    DBUG_EXECUTE_IF("blink_crash_in_left_merge", blink_finish::crash_now(););
  }
  unlink_leaf(prepared, index, mtr);
  btr_blink_stats.pages_merged.fetch_add(1, std::memory_order_relaxed);
  return true;
}

/** PD8: delete the cursor's record in place, as an optimistic delete does
(btr_cur_optimistic_delete(), whose test would refuse a leaf under its
MERGE_THRESHOLD, and reads innodb_btree_blink_page_delete again); the
change buffer is not used for B-link indexes. */
void delete_in_place(btr_cur_t *cursor, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  rec_t *rec = btr_cur_get_rec(cursor);
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_delete(btr_cur_get_block(cursor), rec);
  }
  btr_search_update_hash_on_delete(cursor);
  Rec_offsets offsets;
  page_cur_delete_rec(btr_cur_get_page_cur(cursor), index,
                      offsets.compute(rec, index), mtr);
}

/** PD2: the prepared delete of a record without externally stored
columns.
@return whether it was done */
bool delete_prepared(const Prepared &prepared, btr_cur_t *cursor,
                     mtr_t *mtr) {
  if (prepared.merge || prepared.merge_left) {
    /* The record first: the leaf moves its other records to its right
    sibling (merge), or takes its left neighbour's (merge_left). */
    delete_in_place(cursor, mtr);
    if (move_right_and_unlink(prepared, cursor->index, mtr)) {
      MONITOR_INC(MONITOR_INDEX_MERGE_SUCCESSFUL);
    }
    return true;
  }
  if (prepared.parent == nullptr) {
    /* The leaf keeps records, under-filled if no merge was possible
    (PD8). */
    delete_in_place(cursor, mtr);
    return true;
  }
  delete_leaf(prepared, cursor, mtr);
  /* An emptied page, counted as stock's btr_discard_page() counts it. */
  MONITOR_INC(MONITOR_INDEX_DISCARD);
  return true;
}

}  // namespace

blink_epoch::Registry &btr_blink_epochs() { return *epochs; }

blink_epoch::Thread_slot &btr_blink_epoch_slot() { return t_epoch_slot; }

bool btr_blink_deletes_pages(const dict_index_t *index) {
  return index->blink && srv_btree_blink_page_delete;
}

bool btr_blink_delete_changes_tree(const btr_cur_t *cursor, ulint rec_size) {
  const page_t *page = btr_cur_get_page(const_cast<btr_cur_t *>(cursor));
  if (page_get_page_no(page) == dict_index_get_page(cursor->index)) {
    return false;
  }
  return page_get_n_recs(page) < 2 ||
         merge_wanted(cursor->index, page, rec_size);
}

bool btr_blink_page_deleted(const page_t *page, const dict_index_t *index) {
  return page_blink_get_flags(page, index) & PAGE_BLINK_DELETED;
}

bool btr_blink_search_for_delete(dict_index_t *index, const dtuple_t *tuple,
                                 page_cur_mode_t mode, btr_cur_t *cursor,
                                 ut::Location location, mtr_t *mtr) {
  t_prepared = Prepared{};
  /* IMPORT's purge restores its cursor with its leaf latched. */
  if (!btr_blink_deletes_pages(index) || srv_read_only_mode ||
      btr_blink_in_finished_scope(index)) {
    btr_blink_exclusive_reason(index, srv_btree_blink_page_delete
                                          ? Blink_exclusive::OTHER
                                          : Blink_exclusive::SWITCH_OFF);
    return false;
  }
  /* RV10: before any latch, a pool that deletions filled gives pages back
  to the segment (the search's latches come later, in this
  mini-transaction: none is held yet). */
  if (mtr->get_savepoint() == 0 &&
      !holds_sx_or_x(dict_index_get_lock(index))) {
    btr_blink_reserve_trim(index);
  }
  for (bool first = true;; first = false) {
    /* X1: a refusal of prepare() names its reason; the first attempt's is
    not the second's. */
    btr_blink_exclusive_reason(index, Blink_exclusive::OTHER);
    /* LO1: no index lock held; the delete holds S to its commit, as a
    leveled split does. */
    mtr_s_lock(dict_index_get_lock(index), mtr, UT_LOCATION_HERE);
    Delete_latches latches(index, mtr);
    const bool prepared =
        prepare(index, tuple, mode, cursor, location, mtr, latches);
    if (prepared && !t_prepared.unread) {
      return true;
    }
    const fseg_header_t *leaf_seg = btr_blink_leaf_segment(index);
    if (!first || leaf_seg == nullptr || btr_blink_reserve_loaded(index) ||
        holds_sx_or_x(dict_index_get_lock(index))) {
      if (!prepared) {
        t_prepared = Prepared{};
        latches.release_all();
      }
      return prepared;
    }
    t_prepared = Prepared{};
    latches.release_all();
    /* PD6: a deletion, or a merge (PD8), lists its page in a directory the
    reserve has read (RV3); after a restart, before any split, it reads it
    here, with no latch held, from the segment header the level search
    copied (LO4). */
    btr_blink_reserve_refill(index, leaf_seg);
  }
}

void btr_blink_delete_forget() { t_prepared = Prepared{}; }

Blink_prepared_delete::Blink_prepared_delete(btr_cur_t *cursor, mtr_t *mtr) {
  if (!cursor->index->blink) {
    return;
  }
  const Prepared prepared = t_prepared;
  t_prepared = Prepared{};
  /* Every BTR_MODIFY_TREE search of a B-link index forgets what an earlier
  one prepared (btr_blink_search_for_delete(), btr_blink_lock_exclusive()),
  so a match is this mini-transaction's own preparation. */
  if (prepared.index != cursor->index || prepared.mtr != mtr ||
      prepared.page != btr_cur_get_block(cursor) ||
      prepared.clock != prepared.page->get_modify_clock(IF_DEBUG(true))) {
    return;
  }
  ut_ad(mtr_memo_contains(mtr, dict_index_get_lock(cursor->index),
                          MTR_MEMO_S_LOCK));
  if (prepared.external) {
    /* EX2: the caller frees the columns and deletes the record. */
    blink_finish::set_external(cursor->index);
    m_external = true;
    btr_blink_stats.external_frees.fetch_add(1, std::memory_order_relaxed);
    /* The leaf alone is latched (blink_external_root.test). */
    DEBUG_SYNC_C("blink_external_free");
    return;
  }
  m_done = delete_prepared(prepared, cursor, mtr);
}

Blink_prepared_delete::~Blink_prepared_delete() {
  if (m_external) {
    blink_finish::set_external(nullptr);
  }
}

