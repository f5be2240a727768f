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

/** @file btr/btr0blink_sibling.cc
The insert into the right sibling (README.blink.md, RS1-RS4): a leaf insert
after the last record of a full page goes to the start of the page's right
sibling when that has room, instead of a split, as stock's
btr_insert_into_right_sibling() does.  The boundary between the two pages
moves down to the new record: key range moves right, which a B-link reader
follows.  The leaf, its right sibling and their parent change in one
mini-transaction; the parent is latched without waiting. */

#include "btr0blink.h"
#include "btr0blink_finish.h"

#include "btr0btr.h"
#include "btr0cur.h"
#include "buf0block_hint.h"
#include "dict0dict.h"
#include "ibuf0ibuf.h"
#include "lock0lock.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0cur.h"
#include "page0page.h"
#include "rem0cmp.h"

bool srv_btree_blink_sibling_insert = true;

namespace {

/** RS2: the page from which the last writer's descent of this thread took
its leaf's node pointer, as a persistent cursor remembers its page: the
block and its modify clock. */
struct Leaf_parent {
  const dict_index_t *index{nullptr};
  /** index->id: a dictionary object may be freed and another one take its
  address */
  space_index_t index_id{0};
  buf::Block_hint block;
  uint64_t modify_clock{0};
};

thread_local Leaf_parent t_leaf_parent;

/** RS2: X-latch the remembered parent without waiting.
@return the parent, or nullptr if the block holds another page now, its
modify clock moved (the page was freed, split or evicted since), its
tablespace was discarded since (the page is stale), or the latch is taken */
buf_block_t *latch_parent(const dict_index_t *index, mtr_t *mtr) {
  Leaf_parent &p = t_leaf_parent;
  if (p.index != index || p.index_id != index->id) {
    return nullptr;
  }
  const ulint savepoint = mtr_set_savepoint(mtr);
  buf_block_t *parent =
      p.block.run_with_hint([&](buf_block_t *hint) -> buf_block_t * {
        return hint != nullptr &&
                       buf_page_optimistic_get(RW_X_LATCH, hint,
                                               p.modify_clock,
                                               Page_fetch::NORMAL, __FILE__,
                                               __LINE__, mtr)
                   ? hint
                   : nullptr;
      });
  if (parent != nullptr && parent->page.was_stale()) {
    mtr_release_block_at_savepoint(mtr, savepoint, parent);
    return nullptr;
  }
  return parent;
}

/** RS2: whether the latched page is the parent of left_no and right_no:
a live page of the index on level 1 whose node pointer for the tuple points
to left_no and whose next node pointer points to right_no.  A live page's
node pointers are the tree's (DL1), so it is their only parent.
@param[out] cursor  on right_no's node pointer, if so */
bool is_parent(const dict_index_t *index, buf_block_t *parent,
               page_no_t left_no, page_no_t right_no, const dtuple_t *tuple,
               page_cur_t *cursor) {
  const page_t *page = buf_block_get_frame(parent);
  /* D4 for a page number read earlier; PD1 never deletes a page above the
  leaves, so the deleted flag is checked as the descents check it. */
  if (!fil_page_index_page_check(page) ||
      btr_page_get_index_id(page) != index->id ||
      btr_page_get_level(page) != 1 || btr_blink_page_deleted(page, index)) {
    return false;
  }
  page_cur_search(parent, index, tuple, PAGE_CUR_LE, cursor);
  const rec_t *left_ptr = page_cur_get_rec(cursor);
  if (!page_rec_is_user_rec(left_ptr) ||
      blink_finish::child_of(left_ptr, index) != left_no) {
    return false;
  }
  page_cur_move_to_next(cursor);
  const rec_t *right_ptr = page_cur_get_rec(cursor);
  return page_rec_is_user_rec(right_ptr) &&
         blink_finish::child_of(right_ptr, index) == right_no;
}

/** RS1: whether the right sibling, latched, takes the tuple at its start:
the leaf after the left page on its level, neither deleted nor flagged nor
empty, with room for the tuple and F1's room.
@param[in] max_size  page_get_max_insert_size_after_reorganize(right, 1) */
bool right_takes(const dict_index_t *index, const page_t *right,
                 page_no_t left_no, ulint max_size, ulint tuple_size,
                 mtr_t *mtr) {
  return btr_page_get_prev(right, mtr) == left_no && page_is_leaf(right) &&
         !page_is_empty(right) && page_blink_get_flags(right, index) == 0 &&
         btr_blink_max_insert_size(index, right, max_size) >= tuple_size;
}

}  // namespace

void btr_blink_note_leaf_parent(const dict_index_t *index,
                                buf_block_t *block) {
  Leaf_parent &p = t_leaf_parent;
  p.index = index;
  p.index_id = index->id;
  p.block.store(block);
  p.modify_clock = block->get_modify_clock(IF_DEBUG(false));
}

rec_t *btr_blink_insert_into_right_sibling(btr_cur_t *cursor, ulint **offsets,
                                           mem_heap_t **heap,
                                           const dtuple_t *tuple,
                                           mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  buf_block_t *block = btr_cur_get_block(cursor);
  const page_t *page = buf_block_get_frame(block);
  const page_no_t left_no = block->page.id.page_no();
  const page_no_t right_no = btr_page_get_next(page, mtr);

  /* RS1: an insert after the last record of a leaf that has a right
  sibling with a node pointer (IS1: the leaf is not flagged), and not the
  re-split of a half (SP5), whose right half has no node pointer yet. */
  if (!srv_btree_blink_sibling_insert || !page_is_leaf(page) ||
      page_is_empty(page) || right_no == FIL_NULL ||
      !page_rec_is_supremum(page_rec_get_next(btr_cur_get_rec(cursor))) ||
      page_blink_get_flags(page, index) != 0 ||
      btr_blink_splits_pending()) {
    return nullptr;
  }
  ut_ad(btr_blink_split_leveled(index));

  /* LO2: the right sibling after the leaf (the leveled split latched it
  already, SP1). */
  buf_block_t *right_block =
      btr_block_get(page_id_t(block->page.id.space(), right_no),
                    block->page.size, RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  const page_t *right = buf_block_get_frame(right_block);
  const ulint max_size = page_get_max_insert_size_after_reorganize(right, 1);
  if (!right_takes(index, right, left_no, max_size,
                   rec_get_converted_size(index, tuple), mtr)) {
    return nullptr;
  }

  /* RS2: the parent, latched above its children without waiting. */
  const ulint savepoint = mtr_set_savepoint(mtr);
  buf_block_t *parent = latch_parent(index, mtr);
  page_cur_t parent_cursor;
  if (parent == nullptr ||
      !is_parent(index, parent, left_no, right_no, tuple, &parent_cursor)) {
    if (parent != nullptr) {
      mtr_release_block_at_savepoint(mtr, savepoint, parent);
    }
    btr_blink_stats.sibling_refused.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  mem_heap_t *sibling_heap = mem_heap_create(1024, UT_LOCATION_HERE);
  ulint *hk_offsets;
  /* S3: the new boundary is the tuple's node pointer key. */
  const rec_t *hk =
      btr_blink_hk_from_tuple(index, tuple, 0, sibling_heap, &hk_offsets);
  const dtuple_t *node_ptr =
      dict_index_build_node_ptr(index, hk, right_no, sibling_heap, 1);
  const page_t *parent_page = buf_block_get_frame(parent);
  const ulint *ptr_offsets =
      rec_get_offsets(page_cur_get_rec(&parent_cursor), index, nullptr,
                      ULINT_UNDEFINED, UT_LOCATION_HERE, &sibling_heap);
  /* RS3: the parent takes the new node pointer in place of the old one,
  keeping F1's room. */
  if (btr_blink_max_insert_size(
          index, parent_page,
          page_get_max_insert_size_after_reorganize(parent_page, 1) +
              rec_offs_size(ptr_offsets)) <
      rec_get_converted_size(index, node_ptr)) {
    mtr_release_block_at_savepoint(mtr, savepoint, parent);
    mem_heap_free(sibling_heap);
    btr_blink_stats.sibling_refused.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
#ifdef UNIV_DEBUG
  /* RS1: the tuple sorts between the leaf's last record and the sibling's
  first (HK2, HK3: below the leaf's high key, the sibling's separator). */
  const rec_t *right_first =
      page_rec_get_next_const(page_get_infimum_rec(right));
  ut_ad(cmp_dtuple_rec(tuple, right_first, index,
                       rec_get_offsets(right_first, index, nullptr,
                                       ULINT_UNDEFINED, UT_LOCATION_HERE,
                                       &sibling_heap)) < 0);
#endif /* UNIV_DEBUG */

  /* RS3, in stock's order: the gap locks of the leaf's end go to the
  sibling's first record, then the record goes before it. */
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_split_point(right_block, block);
  }
  page_cur_t *page_cursor = btr_cur_get_page_cur(cursor);
  page_cur_set_before_first(right_block, page_cursor);
  rec_t *rec =
      btr_blink_page_insert(page_cursor, index, tuple, offsets, heap, mtr);
  /* RS1 proved the room. */
  ut_a(rec != nullptr);
  ut_ad(page_rec_is_infimum(page_cur_get_rec(page_cursor)));
  /* MC1: a cursor stored on the sibling's first record (a backward scan
  leaving it) must not restore optimistically and step left past the
  record. */
  buf_block_modify_clock_inc(right_block);

  /* HK3: the leaf's high key and the sibling's separator, both the
  tuple's key. */
  page_blink_remove_hk(block, mtr);
  ut_a(page_blink_set_hk(block, index, hk, hk_offsets, mtr));

  page_cur_delete_rec(&parent_cursor, index, ptr_offsets, mtr);
  page_cur_move_to_prev(&parent_cursor);
  ulint *new_ptr_offsets = nullptr;
  /* RS3 proved the room. */
  ut_a(btr_blink_page_insert(&parent_cursor, index, node_ptr,
                             &new_ptr_offsets, &sibling_heap, mtr) != nullptr);

  if (!index->is_clustered()) {
    ibuf_update_free_bits_if_full(right_block, max_size,
                                  rec_offs_size(*offsets) + PAGE_DIR_SLOT_SIZE);
  }
  btr_blink_stats.sibling_inserts.fetch_add(1, std::memory_order_relaxed);
  mem_heap_free(sibling_heap);
  /* RS4: a crash before the insert's commit leaves none of it. */
  DBUG_EXECUTE_IF("blink_crash_in_sibling_insert", blink_finish::crash_now(););
  return rec;
}
