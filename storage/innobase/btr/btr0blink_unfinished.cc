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

/** @file btr/btr0blink_unfinished.cc
B-link indexes whose exclusive path met an incomplete split it could not
finish (no room in the tablespace): the structure changes on that path are
refused (X3), and a leaf emptied by purge or rollback leaves its level
without allocating and without changing a node pointer above its parent,
undoing the split it is a half of (X4) or given to a sibling (X5).  The
rules are in btr/README.blink.md, "Running out of space". */

#include "btr0blink.h"
#include "btr0blink_chain.h"
#include "btr0blink_finish.h"

#include <atomic>

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0sea.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "lock0lock.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0page.h"
#include "srv0mon.h"

using blink_finish::child_of;
using blink_finish::clear_flag;
using blink_finish::is_flagged;
using blink_finish::set_child;

namespace {

/** X3: the index whose exclusive path (this thread's X) met an incomplete
split it could not finish; its structure changes fail. */
thread_local const dict_index_t *t_unfinished{nullptr};

/** C2 on X3's move-right: the walk of this thread's exclusive path along
one level, which the stock descent makes one btr_blink_exclusive_moves_right()
call per page.  A call on the page the last step went to goes on with the
walk; any other starts one.  A walk left unfinished is harmless: a sound
level never leads back to a page of it. */
struct Exclusive_walk {
  /** the index walked, or nullptr */
  const dict_index_t *index{nullptr};
  /** the page the last step went to */
  page_no_t to{FIL_NULL};
  blink_chain::Cycle_check cycle{FIL_NULL};
};
thread_local Exclusive_walk t_walk;

}  // namespace

void blink_finish::set_unfinished(const dict_index_t *index) {
  t_unfinished = index;
}

bool btr_blink_path_unfinished(dict_index_t *index) {
  /* A leveled split (S) is never refused: it finishes what it meets
  itself (IS3); nor is a delete that frees externally stored columns under
  S (EX2), which changes no structure.  The mark may be left from an
  earlier exclusive path of this thread, which is cleared at the next one
  (X2). */
  const bool unfinished = t_unfinished == index &&
                          !btr_blink_split_leveled(index) &&
                          !btr_blink_writes_external(index);
  ut_ad(!unfinished || rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  return unfinished;
}

bool btr_blink_change_refused(dict_index_t *index) {
  const bool refused = btr_blink_path_unfinished(index);
  if (refused) {
    btr_blink_stats.changes_refused.fetch_add(1, std::memory_order_relaxed);
  }
  return refused;
}

namespace {

/** C1 on X4's and X5's pages: sibling links that disagree, or a sibling
that must exist and does not, are corruption.  The index is marked and the
server stops, as stock's father lookups stop it on a corrupt tree; a
ut_a would stop it too, and stop it again after the restart. */
void check_siblings(bool ok, dict_index_t *index, const page_t *page,
                    const char *why) {
  if (!ok) {
    btr_blink_corrupt_stop(index, page_get_page_no(page),
                           btr_page_get_level(page), why,
                           "freeing a page beside an unfinished split, X4/X5");
  }
}

/** X4: if the page (a leaf, or the parent of a leaf that is its only
child) is the right half of an incomplete split (its left sibling is
flagged, so no node pointer leads to it, IS2), undo the split: the left
page takes the page's high key and its flag (the page's own unpublished
right half, if any, becomes the left page's), the page leaves its level,
its record locks go to the left page's supremum as in btr_discard_page(),
and it is freed with its last record.  Nothing is allocated, so this goes
through where finishing the split found no room.  The key range of the
left page moves right, under X (G0).
@return whether the split was undone */
bool unsplit(dict_index_t *index, buf_block_t *block, mtr_t *mtr) {
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  page_t *page = buf_block_get_frame(block);
  const page_no_t left_no = btr_page_get_prev(page, mtr);
  if (left_no == FIL_NULL) {
    return false;
  }
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  /* The BTR_MODIFY_TREE descent latched a leaf's siblings already
  (btr_cur_latch_leaves(), also after X3's move-right): this latches them
  again in the same mini-transaction, as btr_discard_page() does.  A
  parent's left sibling is latched here, to the left of the parent, which
  LO2 allows only under X (G0): no descent runs, and the threads that
  latch pages without index->lock hold one and wait for no other. */
  buf_block_t *left = btr_block_get(page_id_t(space, left_no), page_size,
                                    RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  page_t *left_page = buf_block_get_frame(left);
  if (!is_flagged(left_page, index)) {
    return false;
  }
  check_siblings(btr_page_get_next(left_page, mtr) == block->page.id.page_no(),
                 index, page,
                 "its left sibling's right link names another page");

  btr_search_drop_page_hash_index(block);
  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  page_blink_remove_hk(left, mtr);
  if (hk.exists()) {
    rec_t *rec = page_blink_copy_hk(
        page, index,
        static_cast<byte *>(mem_heap_alloc(heap, hk.rec_size())));
    const ulint *offsets = rec_get_offsets(rec, index, nullptr,
                                           ULINT_UNDEFINED, UT_LOCATION_HERE,
                                           &heap);
    ut_a(page_blink_set_hk(left, index, rec, offsets, mtr));
  }
  mem_heap_free(heap);
  page_blink_set_flags(left,
                       (page_blink_get_flags(left_page, index) &
                        ~PAGE_BLINK_INCOMPLETE_SPLIT) |
                           (page_blink_get_flags(page, index) &
                            PAGE_BLINK_INCOMPLETE_SPLIT),
                       mtr);

  /* MC1: the left page's high key changes, and its right link;
  btr_level_list_remove() moves its modify clock. */
  btr_level_list_remove(index->space, dict_table_page_size(index->table),
                        buf_block_get_frame(block), index, mtr);
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_discard(left, PAGE_HEAP_NO_SUPREMUM, block);
  }
  /* A freed page carries no flag: a finisher that still names it must not
  take it for an incomplete split. */
  clear_flag(block, index, mtr);
  btr_page_free(index, block, mtr);
  return true;
}

/** The node pointer of a leaf whose left sibling is not flagged (so it has
one, IS1), searched as btr_page_get_father_block() does (the
mini-transaction holds the root already; under X3 the descent moves right,
so a parent without a node pointer of its own is reached) and checked by
page number.  The caller holds index->lock in X.
@param[out] father  on the node pointer, its page X-latched
@return whether it was found */
bool node_ptr_of(dict_index_t *index, buf_block_t *block, mtr_t *mtr,
                 btr_cur_t *father) {
  const page_t *page = buf_block_get_frame(block);
  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  const rec_t *first = page_rec_get_next_const(page_get_infimum_rec(page));
  const dtuple_t *tuple =
      dict_index_build_node_ptr(index, first, block->page.id.page_no(), heap,
                                btr_page_get_level(page));
  btr_cur_search_to_nth_level(index, btr_page_get_level(page) + 1, tuple,
                              PAGE_CUR_LE, BTR_CONT_MODIFY_TREE, father, 0,
                              __FILE__, __LINE__, mtr);
  mem_heap_free(heap);
  const rec_t *node_ptr = btr_cur_get_rec(father);
  const bool found = page_rec_is_user_rec(node_ptr) &&
                     child_of(node_ptr, index) == block->page.id.page_no();
  /* IS1: the validator checks it; a release build refuses the change. */
  ut_ad(found);
  return found;
}

/** Deletes a node pointer that is neither its page's first record nor its
only one (the delete hook lets it through, X5), as btr_node_ptr_delete()
does but without its merge of the parent (refused under X3 anyway). */
void delete_node_ptr(dict_index_t *index, rec_t *node_ptr, buf_block_t *parent,
                     mtr_t *mtr) {
  btr_cur_t cursor;
  btr_cur_position(index, node_ptr, parent, &cursor);
  dberr_t err;
  btr_cur_pessimistic_delete(&err, true, &cursor, BTR_CREATE_FLAG, false, 0, 0,
                             0, mtr, nullptr, nullptr);
  ut_a(err == DB_SUCCESS);
}

/** The leaf, emptied but for the record being deleted, goes the way stock's
merge into the right sibling goes (G2): the right sibling takes its key
range and its node pointer, which is pointed at it in place, the leaf
leaves its level, its record locks go to the right sibling's first record
as in btr_discard_page() without a left sibling, and it is freed with that
record, its flag cleared.  The right sibling keeps its high key and flag.
Its own node pointer, if it has one, is the record after the leaf's on the
same parent, and is deleted: neither that parent's first record nor its
only one.  Nothing is allocated and no separator above the parent
changes.  The right sibling's key range moves left, under X (G0).
@param[in] father         on the leaf's node pointer (node_ptr_of())
@param[in] right_has_ptr  whether the right sibling has a node pointer */
void right_takes_leaf(dict_index_t *index, buf_block_t *block,
                      const btr_cur_t &father, bool right_has_ptr,
                      mtr_t *mtr) {
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  const page_t *page = buf_block_get_frame(block);
  const page_no_t page_no = block->page.id.page_no();
  const page_no_t right_no = btr_page_get_next(page, mtr);
  check_siblings(right_no != FIL_NULL, index, page, "has no right sibling");
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  buf_block_t *right = btr_block_get(page_id_t(space, right_no), page_size,
                                     RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  check_siblings(btr_page_get_prev(buf_block_get_frame(right), mtr) == page_no,
                 index, page,
                 "its right sibling's left link names another page");

  btr_search_drop_page_hash_index(block);
  rec_t *node_ptr = btr_cur_get_rec(&father);
  ut_ad(buf_block_get_page_zip(father.page_cur.block) == nullptr);
  set_child(node_ptr, index, right_no, mtr);
  /* MC1: a record of the parent changed. */
  buf_block_modify_clock_inc(father.page_cur.block);
  /* IS1: a flagged leaf's right half has no node pointer (on the leaf's
  parent, where it would follow the leaf's). */
  ut_ad(right_has_ptr || !is_flagged(page, index) ||
        !page_rec_is_user_rec(page_rec_get_next(node_ptr)) ||
        child_of(page_rec_get_next(node_ptr), index) != right_no);
  if (right_has_ptr) {
    rec_t *right_ptr = page_rec_get_next(node_ptr);
    ut_a(page_rec_is_user_rec(right_ptr) &&
         child_of(right_ptr, index) == right_no);
    delete_node_ptr(index, right_ptr, father.page_cur.block, mtr);
  }
  btr_level_list_remove(index->space, dict_table_page_size(index->table),
                        buf_block_get_frame(block), index, mtr);
  /* MC1: the right sibling's range grew. */
  buf_block_modify_clock_inc(right);
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_discard(right, lock_get_min_heap_no(right), block);
  }
  clear_flag(block, index, mtr);
  btr_page_free(index, block, mtr);
}

/** The leaf, emptied but for the record being deleted and its parent's
last child, goes to its left sibling, as btr_discard_page() gives it (G3):
the left sibling takes its key range and high key, and its record locks go
to the left sibling's supremum.  Either the left sibling is a right half
without node pointer, and the leaf's node pointer is deleted (not the
parent's first record: the node pointer of the page whose split made the
left sibling, or of the first of a chain of such splits, is before it).
Stock's discard would do the same but stop the server in its debug check
of the left sibling's node pointer (btr_check_node_ptr()).  The left
sibling stays without node pointer, its left neighbour flagged (IS1, IS2):
a search for the leaf's keys reaches a page to its left and moves right.
Or the leaf was its parent's only child, and the parent, the right half of
an incomplete split, was freed with the node pointer (unsplit() one level
up): the left sibling is the last child of that split's left page.  The
left sibling's key range moves right.
@param[in] father  on the leaf's node pointer (node_ptr_of()), or nullptr
if its parent was freed */
void left_takes_leaf(dict_index_t *index, buf_block_t *block,
                     const btr_cur_t *father, mtr_t *mtr) {
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  const page_t *page = buf_block_get_frame(block);
  const page_no_t left_no = btr_page_get_prev(page, mtr);
  check_siblings(left_no != FIL_NULL, index, page, "has no left sibling");
  /* Latched already by the descent (btr_cur_latch_leaves()). */
  buf_block_t *left = btr_block_get(
      page_id_t(index->space, left_no), dict_table_page_size(index->table),
      RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  /* IS1: the left sibling is not flagged (its right sibling, the leaf, has
  a node pointer). */
  ut_ad(!is_flagged(buf_block_get_frame(left), index));

  btr_search_drop_page_hash_index(block);
  btr_blink_left_takes_range(index, page, left, mtr);
  if (father != nullptr) {
    rec_t *node_ptr = btr_cur_get_rec(father);
    /* The left sibling has no node pointer on the leaf's parent. */
    ut_ad(!page_rec_is_user_rec(page_rec_get_next(node_ptr)));
    ut_ad(child_of(page_rec_get_prev(node_ptr), index) != left_no);
    delete_node_ptr(index, node_ptr, father->page_cur.block, mtr);
  }
  btr_level_list_remove(index->space, dict_table_page_size(index->table),
                        buf_block_get_frame(block), index, mtr);
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_discard(left, PAGE_HEAP_NO_SUPREMUM, block);
  }
  btr_page_free(index, block, mtr);
}

enum class Leaf_freed { UNDONE, TO_RIGHT, TO_LEFT, STOCK, REFUSED };

/** How a leaf emptied under X3 leaves its level, when it is not the right
half of an incomplete split (unsplit() checked: its left sibling is not
flagged, so it has a node pointer, IS1).  No separator above the leaf's
parent changes (G4), nor does any node pointer above it, on a path whose
split could not be finished: the parent loses one record, not its first
nor its high key, or, a right half without node pointer, goes back into
its left page.
@return UNDONE: the leaf is flagged, its right half (without node pointer)
took it, undoing the split (X4); STOCK: the node pointer before the
leaf's is its left sibling's, so btr_discard_page() gives the leaf's range
to it (G3) and deletes one record of the parent (X5); TO_RIGHT: otherwise
(the leaf is its parent's first child, or its left sibling is a right
half without node pointer, whose father lookup in btr_discard_page()'s
debug check, btr_check_node_ptr(), would stop the server), if the next
node pointer is its right sibling's, that sibling took it (X5); TO_LEFT:
otherwise, if the leaf is not its parent's first child (so its left
sibling is a right half without node pointer), that sibling took it (X5);
UNDONE (also): the leaf is its parent's only child, the parent the right
half of an incomplete split, which was undone (X4 on the parent's level),
and the left sibling took the leaf (X5); REFUSED: the leaf is the only
child of a parent that is not such a right half */
Leaf_freed free_leaf(dict_index_t *index, buf_block_t *block, mtr_t *mtr) {
  const page_t *page = buf_block_get_frame(block);
  btr_cur_t father;
  if (!node_ptr_of(index, block, mtr, &father)) {
    return Leaf_freed::REFUSED;
  }
  if (is_flagged(page, index)) {
    right_takes_leaf(index, block, father, false, mtr);
    return Leaf_freed::UNDONE;
  }
  const rec_t *node_ptr = btr_cur_get_rec(&father);
  const rec_t *prev = page_rec_get_prev_const(node_ptr);
  if (page_rec_is_user_rec(prev) &&
      child_of(prev, index) == btr_page_get_prev(page, mtr)) {
    return Leaf_freed::STOCK;
  }
  const rec_t *next = page_rec_get_next_const(node_ptr);
  if (page_rec_is_user_rec(next) &&
      child_of(next, index) == btr_page_get_next(page, mtr)) {
    right_takes_leaf(index, block, father, true, mtr);
    return Leaf_freed::TO_RIGHT;
  }
  if (page_rec_is_user_rec(prev)) {
    left_takes_leaf(index, block, &father, mtr);
    return Leaf_freed::TO_LEFT;
  }
  if (page_rec_is_user_rec(next)) {
    /* IS1, IS2: a first child whose next node pointer is not its right
    sibling's is flagged, and went above.  Freeing the parent would
    orphan the other children. */
    ut_d(ut_error);
    return Leaf_freed::REFUSED;
  }
  /* The only child. */
  if (unsplit(index, father.page_cur.block, mtr)) {
    left_takes_leaf(index, block, nullptr, mtr);
    return Leaf_freed::UNDONE;
  }
  return Leaf_freed::REFUSED;
}

}  // namespace

btr_blink_delete_t btr_blink_delete_unfinished(btr_cur_t *cursor, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  if (!btr_blink_path_unfinished(index)) {
    return btr_blink_delete_t::GO_ON;
  }
  /* A record deleted from a leaf that keeps another, or from the root,
  changes no structure (the merge that may follow is skipped): purge and
  rollback go on.  A leaf emptied that is one of the unfinished split's
  halves undoes that split (X4); any other is discarded unless that would
  change a node pointer above its parent (X5, below).  A node pointer is
  deleted only inside such a discard (or freed with a parent whose split
  X5 undoes), or inside a merge or split, which X3 refused before it began
  (failing there, in btr_node_ptr_delete(), would leave it half done). */
  buf_block_t *block = btr_cur_get_block(cursor);
  const page_t *page = buf_block_get_frame(block);
  if (!page_is_leaf(page)) {
    /* The node pointer delete of a discard let through below (X5): not
    the parent's first record (G4 would insert above), nor its only one
    (the parent would be discarded). */
    ut_a(page_get_n_recs(page) >= 2);
    ut_a(btr_cur_get_rec(cursor) !=
         page_rec_get_next_const(page_get_infimum_rec(page)));
    return btr_blink_delete_t::GO_ON;
  }
  if (page_get_n_recs(page) >= 2 ||
      block->page.id.page_no() == dict_index_get_page(index)) {
    return btr_blink_delete_t::GO_ON;
  }
  const Leaf_freed how =
      unsplit(index, block, mtr) ? Leaf_freed::UNDONE
                                 : free_leaf(index, block, mtr);
  switch (how) {
    case Leaf_freed::STOCK:
      return btr_blink_delete_t::GO_ON;
    case Leaf_freed::REFUSED:
      btr_blink_stats.changes_refused.fetch_add(1, std::memory_order_relaxed);
      return btr_blink_delete_t::REFUSED;
    case Leaf_freed::UNDONE:
      btr_blink_stats.splits_undone.fetch_add(1, std::memory_order_relaxed);
      break;
    case Leaf_freed::TO_RIGHT:
    case Leaf_freed::TO_LEFT:
      break;
  }
  MONITOR_INC(MONITOR_INDEX_DISCARD);
  btr_blink_stats.discards.fetch_add(1, std::memory_order_relaxed);
  return btr_blink_delete_t::FREED;
}

bool btr_blink_exclusive_moves_right(dict_index_t *index,
                                     const page_t *page, const dtuple_t *tuple,
                                     page_cur_mode_t mode, mtr_t *mtr) {
  /* After a complete X2 the node pointers lead to the key: no page on the
  path lacks one. */
  if (t_unfinished != index || tuple == nullptr) {
    return false;
  }
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  if (!btr_blink_right_of_high_key(index, page, tuple, mode, mtr)) {
    t_walk.index = nullptr;
    return false;
  }
  const page_no_t page_no = page_get_page_no(page);
  if (t_walk.index != index || t_walk.to != page_no) {
    t_walk = {index, page_no, blink_chain::Cycle_check(page_no)};
  }
  page_no_t right_no = btr_page_get_next(page, mtr);
  DBUG_EXECUTE_IF("blink_exclusive_right_link_cycle", right_no = page_no;);
  if (t_walk.cycle.step(right_no)) {
    /* C2, C3: the stock descent cannot return an error, and under X a
    walk without end would stop every session on the table. */
    t_walk.index = nullptr;
    btr_blink_corrupt_stop(index, page_no, btr_page_get_level(page),
                           "its right links form a cycle",
                           "moving right on an exclusive path, X3");
  }
  t_walk.to = right_no;
  btr_blink_stats.move_rights.fetch_add(1, std::memory_order_relaxed);
  return true;
}
