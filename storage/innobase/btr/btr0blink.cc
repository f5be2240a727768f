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

/** @file btr/btr0blink.cc
B-link indexes: the split of one page (S1-S3), the F1 room for high keys,
the high keys of bulk loads, and the hooks of stock merges and discards
(G0-G4).  The rules are in btr/README.blink.md ("The split of one page",
"Invariants", "Merges and discards"), and so is the table of what is read
without its writer's latch ("Memory ordering").  Which indexes are B-link,
and the checks of ALTER and IMPORT, are in btr0blink_dict.cc; the splits
published level by level in btr0blink_finish.cc; the validator in
btr0blink_validate.cc. */

#include "btr0blink.h"
#include "btr0blink_reserve.h"

#include <algorithm>
#include <vector>

#include "btr0blink_split.h"

#include "btr0btr.h"
#include "btr0cur.h"
#include "dict0dict.h"
#include "fsp0fsp.h"
#include "ibuf0ibuf.h"
#include "lock0lock.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0cur.h"
#include "page0page.h"
#include "rem0cmp.h"
#include "srv0mon.h"

btr_blink_stats_t btr_blink_stats;

namespace {

/** The tuple as a record, in heap. */
const rec_t *tuple_as_rec(const dict_index_t *index, const dtuple_t *tuple,
                          mem_heap_t *heap) {
  byte *buf = static_cast<byte *>(
      mem_heap_alloc(heap, rec_get_converted_size(index, tuple)));
  return rec_convert_dtuple_to_rec(buf, index, tuple);
}

/** The sizes of every record of the page being split, and the tuple as a
record placed after the cursor's record: what choose() reads when the
page's totals do not prove a split (choose_split()). */
struct Split_input {
  std::vector<size_t> sizes;
  /** number of records before the tuple */
  size_t tuple_pos{0};
  size_t tuple_size{0};
};

Split_input read_split_input(btr_cur_t *cursor, const dtuple_t *tuple,
                             mem_heap_t *heap) {
  Split_input in;
  const dict_index_t *index = cursor->index;
  const page_t *page = btr_cur_get_page(cursor);
  const rec_t *insert_after = btr_cur_get_rec(cursor);
  ulint *offsets = nullptr;
  for (const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
       !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, &heap);
    in.sizes.push_back(rec_offs_size(offsets));
    if (rec == insert_after) {
      in.tuple_pos = in.sizes.size();
    }
  }
  in.tuple_size = rec_get_converted_size(index, tuple);
  return in;
}

/** A split chosen and proven (S2), and where the tuple goes. */
struct Split_choice {
  blink_split::Plan plan;
  /** number of records before the tuple */
  size_t tuple_pos;

  /** Item i of the split sequence: the tuple (as tuple_rec), or the page's
  record that it stands for, found through the page directory. */
  const rec_t *item(const page_t *page, size_t i,
                    const rec_t *tuple_rec) const {
    if (plan.with_tuple && i == tuple_pos) {
      return tuple_rec;
    }
    const size_t j = plan.with_tuple && i > tuple_pos ? i - 1 : i;
    return page_rec_get_nth_const(page, j + 1);
  }
};

/** The split point of the stock heuristics for sequential inserts, upwards
(btr_page_get_split_rec_to_right) or downwards (..._to_left, whose new page
would be the left half: here the lower part stays and the upper part moves
right, S1), as an index into the sequence with the tuple; 0 if none. */
size_t heuristic_split_point(btr_cur_t *cursor, size_t tuple_pos) {
  rec_t *split_rec;
  if (!btr_page_get_split_rec_to_right(cursor, &split_rec) &&
      !btr_page_get_split_rec_to_left(cursor, &split_rec)) {
    return 0;
  }
  if (split_rec == nullptr) {
    return tuple_pos; /* the tuple starts the right page */
  }
  ut_ad(page_rec_is_user_rec(split_rec));
  const size_t j = page_rec_get_n_recs_before(split_rec) - 1;
  return j < tuple_pos ? j : j + 1;
}

/** Choose the split and prove that it fits (S2), with the work of the stock
split: its point for sequential inserts, else the middle, proven from
the page's totals and the sizes of a few records (blink_split::prove()).
Only a page that does not keep F1's room (the records a root raise copied)
or whose point does not fit has every record read (blink_split::choose()). */
Split_choice choose_split(btr_cur_t *cursor, const dtuple_t *tuple,
                          mem_heap_t *heap) {
  const dict_index_t *index = cursor->index;
  const page_t *page = btr_cur_get_page(cursor);
  /* F1: both halves keep room for a high key of any length, whatever
  high key they get now, so that a later merge can replace it. */
  const size_t reserve = btr_blink_hk_reserve(index);
  auto fit = [](size_t bytes, size_t n) {
    return blink_split::fits(bytes, n, page_get_free_space_of_empty(true),
                             [](size_t m) { return page_dir_calc_reserved_space(m); });
  };
  const size_t tuple_pos =
      page_rec_get_n_recs_before(btr_cur_get_rec(cursor));
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  const blink_split::Shape shape{
      page_get_n_recs(page),
      page_get_data_size(page) - (hk.exists() ? hk.rec_size() : 0), tuple_pos,
      rec_get_converted_size(index, tuple), reserve};
  /* Record j's size, walking from the last one read where prove() asks
  for the next. */
  const rec_t *rec = nullptr;
  size_t rec_j = 0;
  ulint *offsets = nullptr;
  auto size_of = [&](size_t j) -> size_t {
    rec = rec != nullptr && j == rec_j + 1
              ? page_rec_get_next_const(rec)
              : page_rec_get_nth_const(page, j + 1);
    rec_j = j;
    offsets = rec_get_offsets(rec, index, offsets, ULINT_UNDEFINED,
                              UT_LOCATION_HERE, &heap);
    return rec_offs_size(offsets);
  };
  auto hk_size = [reserve](size_t, bool) -> size_t { return reserve; };
  const size_t preferred = heuristic_split_point(cursor, tuple_pos);
  const size_t middle =
      blink_split::middle_point(page_get_n_recs(page), tuple_pos);
  for (const size_t k : {preferred, middle}) {
    if (const auto plan = blink_split::prove(shape, k, size_of, fit)) {
#ifdef UNIV_DEBUG
      /* S2: the proof from the page's totals is sound: every record read,
      the split fits. */
      const Split_input all = read_split_input(cursor, tuple, heap);
      ut_ad(blink_split::plan_fits(
          blink_split::Items<decltype(hk_size)>(all.sizes, all.tuple_pos,
                                                all.tuple_size, reserve,
                                                hk_size),
          plan->k, true, fit));
#endif /* UNIV_DEBUG */
      return {*plan, tuple_pos};
    }
  }
  const Split_input in = read_split_input(cursor, tuple, heap);
  ut_ad(in.tuple_pos == tuple_pos);
  const blink_split::Items<decltype(hk_size)> items(
      in.sizes, in.tuple_pos, in.tuple_size, reserve, hk_size);
  const auto plan = blink_split::choose(items, preferred, fit);
  /* Records are at most half a page and the room for a high key less than
  a page minus two of them, so one of the splits without the tuple always
  fits (README.blink.md, S2; checked by btr0blink_split-t over random
  pages). */
  ut_a(plan.has_value());
  return {*plan, tuple_pos};
}

/** Insert the tuple at the cursor, which page_cur_search() has put on block,
the half the tuple belongs to.
@return the inserted record, or nullptr if it does not fit there (the cursor
stays on block, for the split that makes room) */
rec_t *insert_on_half(btr_cur_t *cursor, [[maybe_unused]] buf_block_t *block,
                      const dtuple_t *tuple, ulint **offsets,
                      mem_heap_t **heap, mtr_t *mtr) {
  ut_ad(page_cur_get_block(btr_cur_get_page_cur(cursor)) == block);
  return btr_blink_page_insert(btr_cur_get_page_cur(cursor), cursor->index,
                               tuple, offsets, heap, mtr);
}

/** Copy of the page's high key in heap, or nullptr. */
rec_t *copy_hk(const dict_index_t *index, const page_t *page,
               mem_heap_t *heap, ulint **offsets) {
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  if (!hk.exists()) {
    return nullptr;
  }
  byte *buf = static_cast<byte *>(mem_heap_alloc(heap, hk.rec_size()));
  rec_t *rec = page_blink_copy_hk(page, index, buf);
  *offsets = rec_get_offsets(rec, index, nullptr, ULINT_UNDEFINED,
                             UT_LOCATION_HERE, &heap);
  return rec;
}

/** Give a page a new high key, or none (hk == nullptr).  F1 guarantees the
room, whatever the length. */
void replace_hk(buf_block_t *block, dict_index_t *index, const rec_t *hk,
                const ulint *offsets, mtr_t *mtr) {
  page_blink_remove_hk(block, mtr);
  if (hk != nullptr) {
    ut_a(page_blink_set_hk(block, index, hk, offsets, mtr));
  }
}

/** SP1: link the right half into its level as btr_attach_half_pages() does
for FSP_UP, but give the parent no node pointer: the state a leveled split
leaves until the level above is published (and debug tests of the flag
make on purpose).  The right sibling is X-latched already in a leveled
split (LO3). */
void link_without_downlink(dict_index_t *index, buf_block_t *block,
                           buf_block_t *new_block, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);
  const page_no_t next_no = btr_page_get_next(page, mtr);
  if (next_no != FIL_NULL) {
    buf_block_t *next_block =
        btr_block_get(page_id_t(block->page.id.space(), next_no),
                      block->page.size, RW_X_LATCH, UT_LOCATION_HERE, index,
                      mtr);
    btr_page_set_prev(buf_block_get_frame(next_block), nullptr,
                      new_block->page.id.page_no(), mtr);
  }
  page_t *new_page = buf_block_get_frame(new_block);
  btr_page_set_next(new_page, nullptr, next_no, mtr);
  btr_page_set_prev(new_page, nullptr, block->page.id.page_no(), mtr);
  btr_page_set_next(page, nullptr, new_block->page.id.page_no(), mtr);
}

#ifdef UNIV_DEBUG
/** IS3, asserted: the pages the outermost leveled split of this thread and
its re-splits (SP5) flagged, the only flagged pages they may split. */
thread_local std::vector<page_no_t> t_flagged_here;
thread_local int t_split_depth;

struct Split_depth {
  Split_depth() {
    if (t_split_depth++ == 0) {
      t_flagged_here.clear();
    }
  }
  ~Split_depth() { --t_split_depth; }
};

bool flagged_here(page_no_t page_no) {
  return std::find(t_flagged_here.begin(), t_flagged_here.end(), page_no) !=
         t_flagged_here.end();
}

/** Whether a test builds incomplete or corrupt splits on the exclusive
path and keeps them (blink_flags, blink_validator): only then may a split
under X find its page flagged (IS3, X2, X3). */
bool keeps_incomplete_splits() {
  return DBUG_EVALUATE_IF("blink_split_incomplete", true, false) ||
         DBUG_EVALUATE_IF("blink_corrupt_incomplete_flag", true, false) ||
         DBUG_EVALUATE_IF("blink_corrupt_no_downlink", true, false);
}
#endif /* UNIV_DEBUG */

}  // namespace

const rec_t *btr_blink_hk_from_tuple(const dict_index_t *index,
                                     const dtuple_t *tuple, ulint level,
                                     mem_heap_t *heap, ulint **offsets) {
  return page_blink_build_hk(index, tuple_as_rec(index, tuple, heap), level,
                             heap, offsets);
}

rec_t *btr_blink_page_insert(page_cur_t *page_cursor, dict_index_t *index,
                             const dtuple_t *tuple, ulint **offsets,
                             mem_heap_t **heap, mtr_t *mtr) {
  rec_t *rec =
      page_cur_tuple_insert(page_cursor, tuple, index, offsets, heap, mtr);
  if (rec == nullptr && btr_page_reorganize(page_cursor, index, mtr)) {
    rec = page_cur_tuple_insert(page_cursor, tuple, index, offsets, heap, mtr);
  }
  return rec;
}

rec_t *btr_blink_page_split_and_insert(uint32_t flags, btr_cur_t *cursor,
                                       ulint **offsets, mem_heap_t **heap,
                                       const dtuple_t *tuple, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  buf_block_t *block = btr_cur_get_block(cursor);
  page_t *page = buf_block_get_frame(block);

  /* SP1, SP3: under index->lock in S (or the X of an exclusive path that
  finishes a split), one level in this mini-transaction; else the split of
  every level in one mini-transaction, under X (X1). */
  const bool leveled = btr_blink_split_leveled(index);

  ut_ad(index->blink);
  ut_ad(!buf_block_get_page_zip(block));
  /* X1: SX no longer keeps out the leveled splits, which hold S. */
  ut_ad(leveled ||
        mtr_memo_contains_flagged(mtr, dict_index_get_lock(index),
                                  MTR_MEMO_X_LOCK));
  ut_ad(mtr_is_block_fix(mtr, block, MTR_MEMO_PAGE_X_FIX, index->table));
  ut_ad(!page_is_empty(page));
  /* R1: a root is raised, never split. */
  ut_ad(block->page.id.page_no() != dict_index_get_page(index));
  /* IS3: a flagged page is split again only by the split that flagged it
  (SP5); others finish its split first (FS1, PARENT_FIRST, X2). */
  ut_d(Split_depth depth);
  ut_ad(!(page_blink_get_flags(page, index) & PAGE_BLINK_INCOMPLETE_SPLIT) ||
        (leveled ? flagged_here(block->page.id.page_no())
                 : keeps_incomplete_splits()));

  if (*heap == nullptr) {
    *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  }
  const ulint level = btr_page_get_level(page);
  if (leveled && level == 0) {
    /* RS1: no split if the right sibling takes the tuple. */
    if (rec_t *rec = btr_blink_insert_into_right_sibling(cursor, offsets, heap,
                                                         tuple, mtr)) {
      return rec;
    }
  }
  mem_heap_t *split_heap = mem_heap_create(4096, UT_LOCATION_HERE);

  const Split_choice choice = choose_split(cursor, tuple, split_heap);
  const blink_split::Plan plan = choice.plan;
  const bool with_tuple = plan.with_tuple;
  const rec_t *tuple_rec =
      with_tuple ? tuple_as_rec(index, tuple, split_heap) : nullptr;

  /* S3: the right page starts with S[k]; the left page's new high key and
  the parent's new separator are both its node pointer key.  Both are built
  now, while S[k] is still where it was. */
  const rec_t *first_rec = choice.item(page, plan.k, tuple_rec);
  ulint *left_hk_offsets;
  const rec_t *left_hk = page_blink_build_hk(index, first_rec, level,
                                             split_heap, &left_hk_offsets);
  /* Tests of the validator: a high key that is not the separator. */
  DBUG_EXECUTE_IF("blink_corrupt_high_key",
                  left_hk = page_blink_build_hk(
                      index, choice.item(page, plan.k - 1, tuple_rec), level,
                      split_heap, &left_hk_offsets););
  ulint *old_hk_offsets = nullptr;
  const rec_t *old_hk = copy_hk(index, page, split_heap, &old_hk_offsets);

  /* The first record that moves: S[k] unless it is the tuple, then the
  record after the tuple's place. */
  rec_t *move_limit;
  if (with_tuple && plan.k == choice.tuple_pos) {
    move_limit = page_rec_get_next(btr_cur_get_rec(cursor));
  } else {
    move_limit = const_cast<rec_t *>(first_rec);
  }
  const bool insert_left = with_tuple && choice.tuple_pos < plan.k;

  /* IS1: a flagged page keeps its flag while split again in a leveled
  split (the re-split of SP5), and its right half inherits it: both right
  neighbours lack their node pointers. */
  const uint16_t old_flags = page_blink_get_flags(page, index);

  /* S1: the new page is the right half. */
  buf_block_t *new_block =
      leveled ? btr_blink_page_alloc(index, block->page.id.page_no() + 1,
                                     level, mtr)
              : btr_page_alloc(index, block->page.id.page_no() + 1, FSP_UP,
                               level, mtr, mtr);
  if (new_block == nullptr) {
    mem_heap_free(split_heap);
    return nullptr;
  }
  btr_page_create(new_block, nullptr, index, level, mtr);
  /* Tests of the validator: a page allocated and linked nowhere (A1). */
  DBUG_EXECUTE_IF("blink_leak_page", {
    /* A valid empty page, so that the page cleaner may write it. */
    buf_block_t *leaked = btr_page_alloc(
        index, block->page.id.page_no() + 2, FSP_UP, level, mtr, mtr);
    btr_page_create(leaked, nullptr, index, level, mtr);
  });

  page_blink_remove_hk(block, mtr);
  /* Tests: blink_split_incomplete leaves the split as a leveled split does
  between its mini-transactions (no downlink, left half flagged);
  blink_corrupt_no_downlink does the same without the flag, and
  blink_corrupt_incomplete_flag flags a complete split. */
  const bool downlink =
      !leveled && !DBUG_EVALUATE_IF("blink_split_incomplete", true, false) &&
      !DBUG_EVALUATE_IF("blink_corrupt_no_downlink", true, false);
  if (downlink) {
    btr_attach_half_pages(flags, index, block, first_rec, new_block, FSP_UP,
                          mtr);
  } else {
    link_without_downlink(index, block, new_block, mtr);
  }

  /* Tests of the validator: a right half whose left link is wrong. */
  DBUG_EXECUTE_IF("blink_corrupt_sibling_link",
                  btr_page_set_prev(buf_block_get_frame(new_block), nullptr,
                                    FIL_NULL, mtr););

  ut_a(page_move_rec_list_end(new_block, block, move_limit, index, mtr));
  if (!dict_table_is_locking_disabled(index->table)) {
    lock_update_split_right(new_block, block);
  }

  if (old_hk != nullptr) {
    ut_a(page_blink_set_hk(new_block, index, old_hk, old_hk_offsets, mtr));
  }
  ut_a(page_blink_set_hk(block, index, left_hk, left_hk_offsets, mtr));
  if (leveled) {
    /* IS1 */
    page_blink_set_flags(new_block, old_flags, mtr);
    page_blink_set_flags(block, old_flags | PAGE_BLINK_INCOMPLETE_SPLIT, mtr);
    btr_blink_split_made(index, block->page.id.page_no());
    ut_d(t_flagged_here.push_back(block->page.id.page_no()));
    if (old_flags & PAGE_BLINK_INCOMPLETE_SPLIT) {
      /* SP5: a flagged page split again; its new right half inherited the
      flag and is published after it. */
      btr_blink_split_made(index, new_block->page.id.page_no());
      ut_d(t_flagged_here.push_back(new_block->page.id.page_no()));
    }
  } else if (DBUG_EVALUATE_IF("blink_split_incomplete", true, false) ||
             DBUG_EVALUATE_IF("blink_corrupt_incomplete_flag", true, false)) {
    page_blink_set_flags(block, PAGE_BLINK_INCOMPLETE_SPLIT, mtr);
  }

  (level == 0 ? btr_blink_stats.leaf_splits : btr_blink_stats.nonleaf_splits)
      .fetch_add(1, std::memory_order_relaxed);
  MONITOR_INC(MONITOR_INDEX_SPLIT);

  rec_t *rec;
  page_cur_t *page_cursor = btr_cur_get_page_cur(cursor);
  if (with_tuple) {
    page_cur_search(insert_left ? block : new_block, index, tuple,
                    page_cursor);
    rec = insert_on_half(cursor, insert_left ? block : new_block, tuple,
                         offsets, heap, mtr);
    /* S2 proved that it fits. */
    ut_a(rec != nullptr);
  } else {
    /* The split made room without the tuple: insert it on its half, which
    is split again if it is still too full (each split proven on its own,
    like the iterations of the stock split). */
    buf_block_t *half = cmp_dtuple_rec(tuple, left_hk, index,
                                       left_hk_offsets) < 0
                            ? block
                            : new_block;
    /* The cursor goes to the half first: if the tuple does not fit there,
    the split below splits that half at this position. */
    page_cur_search(half, index, tuple, page_cursor);
    /* F1 as btr_cur_optimistic_insert() keeps it: the half must keep
    its room for a high key with the tuple on it. */
    const page_t *half_page = buf_block_get_frame(half);
    rec = btr_blink_max_insert_size(
              index, half_page,
              page_get_max_insert_size_after_reorganize(half_page, 1)) <
                  rec_get_converted_size(index, tuple)
              ? nullptr
              : insert_on_half(cursor, half, tuple, offsets, heap, mtr);
    if (rec == nullptr) {
      mem_heap_free(split_heap);
      return btr_blink_page_split_and_insert(flags, cursor, offsets, heap,
                                             tuple, mtr);
    }
  }

  if (!index->is_clustered() && !index->table->is_temporary() && level == 0) {
    ibuf_update_free_bits_for_two_pages_low(block, new_block, mtr);
  }

  ut_ad(page_validate(page, index));
  ut_ad(page_validate(buf_block_get_frame(new_block), index));
  mem_heap_free(split_heap);
  return rec;
}

ulint btr_blink_node_ptr_max_size(const dict_index_t *index) {
  /* dict_index_node_ptr_max_size() counts a null bitmap of every nullable
  field of the index, which grows with INSTANT ADD COLUMN; node pointers
  carry the bitmap of the fields there were before the first instant
  ALTER, which never changes (F1 must not grow under pages that are
  already full). */
  return dict_index_node_ptr_max_size(index) -
         UT_BITS_IN_BYTES(index->n_nullable) +
         UT_BITS_IN_BYTES(index->get_nullable_before_instant_add_drop());
}

ulint btr_blink_hk_reserve(const dict_index_t *index) {
  if (!index->blink) {
    return 0;
  }
  /* The node pointer's fields do not change while the index object lives:
  an ALTER that would lengthen them rebuilds a B-link table (F1), and
  INSTANT ADD COLUMN leaves their null bitmap as it was. */
  const auto computed = [index] {
    return blink_split::hk_reserve(btr_blink_node_ptr_max_size(index),
                                   PAGE_DIR_SLOT_SIZE);
  };
  ulint reserve = index->blink_hk_reserve.load(std::memory_order_relaxed);
  if (reserve == 0) {
    reserve = computed();
    index->blink_hk_reserve.store(reserve, std::memory_order_relaxed);
  }
  ut_ad(reserve == computed());
  return reserve;
}

bool btr_blink_page_room_ok(const dict_index_t *index, const page_t *page) {
  ut_ad(index->blink);
  return page_get_max_insert_size_after_reorganize(page, 1) +
             page_blink_get_hk(page, index).rec_size() >=
         btr_blink_node_ptr_max_size(index);
}

ulint btr_blink_max_insert_size_low(const dict_index_t *index,
                                    const page_t *page, ulint max_size) {
  ut_ad(index->blink);
  /* H1: a root has no high key, whatever its segment header spells. */
  const ulint hk_size = page_blink_get_hk(page, index).rec_size();
  const ulint reserve = btr_blink_hk_reserve(index);
  /* F1: a high key is never longer than the room kept for it, so the
  result never exceeds max_size; the merge check relies on that alone. */
  ut_ad(hk_size <= reserve);
  return std::min(max_size, max_size + hk_size > reserve
                                ? max_size + hk_size - reserve
                                : 0);
}

bool btr_blink_entry_fits_low(const dict_index_t *index, const page_t *page,
                              const dtuple_t *entry) {
  return btr_blink_max_insert_size_low(
             index, page, page_get_max_insert_size_after_reorganize(page, 1)) >=
         rec_get_converted_size(index, entry);
}

void btr_blink_bulk_set_hk(dict_index_t *index, buf_block_t *block,
                           size_t level, const dtuple_t *next_first,
                           mtr_t *mtr) {
  ut_ad(index->blink);
  ut_ad(!page_blink_get_hk(buf_block_get_frame(block), index).exists());
  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  ulint *offsets;
  const rec_t *hk =
      btr_blink_hk_from_tuple(index, next_first, level, heap, &offsets);
  /* F1: the loader kept btr_blink_hk_reserve() free. */
  replace_hk(block, index, hk, offsets, mtr);
  mem_heap_free(heap);
}

void btr_blink_left_takes_range(dict_index_t *index, const page_t *page,
                                buf_block_t *left_block, mtr_t *mtr) {
  ut_ad(index->blink);
  /* G0: key range moves left, no descent may be running. */
  ut_ad(mtr_memo_contains_flagged(mtr, dict_index_get_lock(index),
                                  MTR_MEMO_X_LOCK));
  /* Before or after the page was unlinked from its level. */
  ut_ad(btr_page_get_next(buf_block_get_frame(left_block), mtr) ==
            page_get_page_no(page) ||
        btr_page_get_next(buf_block_get_frame(left_block), mtr) ==
            btr_page_get_next(page, mtr));

  /* X2: a flagged page merged away would orphan its right half. */
  ut_ad(!(page_blink_get_flags(page, index) & PAGE_BLINK_INCOMPLETE_SPLIT));
  ut_ad(!(page_blink_get_flags(buf_block_get_frame(left_block), index) &
          PAGE_BLINK_INCOMPLETE_SPLIT));

  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  ulint *offsets = nullptr;
  const rec_t *hk = copy_hk(index, page, heap, &offsets);
  replace_hk(left_block, index, hk, offsets, mtr);
  mem_heap_free(heap);
}

void btr_blink_right_takes_range(const dict_index_t *index,
                                 buf_block_t *right_block) {
  ut_ad(index->blink);
  /* X2 */
  ut_ad(!(page_blink_get_flags(buf_block_get_frame(right_block), index) &
          PAGE_BLINK_INCOMPLETE_SPLIT));
  buf_block_modify_clock_inc(right_block);
}

bool btr_blink_merge_allowed(dict_index_t *index) {
  if (!index->blink) {
    return true;
  }
  /* PD1, PD8: stock's merges never run; the delete itself merges an
  under-filled leaf to the right, or deletes an emptied one (PD2, or X1's
  discard). */
  if (btr_blink_deletes_pages(index)) {
    return false;
  }
  /* X3: not after X2 left a split unfinished. */
  const bool allowed =
      rw_lock_get_writer(dict_index_get_lock(index)) == RW_LOCK_X &&
      !btr_blink_path_unfinished(index);
  /* G0: the X is the merging thread's own (X1). */
  ut_ad(!allowed || rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  return allowed;
}

void btr_blink_separator_changed(dict_index_t *index, buf_block_t *block,
                                 const dtuple_t *node_ptr, mtr_t *mtr) {
  ut_ad(index->blink);
  /* G0: key range moves left, no descent may be running. */
  ut_ad(mtr_memo_contains_flagged(mtr, dict_index_get_lock(index),
                                  MTR_MEMO_X_LOCK));
  const page_t *page = buf_block_get_frame(block);
  const page_no_t left_no = btr_page_get_prev(page, mtr);
  if (left_no == FIL_NULL) {
    return;
  }
  buf_block_t *left_block =
      btr_block_get(page_id_t(block->page.id.space(), left_no),
                    block->page.size, RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  /* C1: the left link was read from the page; a neighbour that does not
  link back would be given a high key of another part of the tree. */
  const page_t *left = buf_block_get_frame(left_block);
  if (!fil_page_index_page_check(left) ||
      btr_page_get_index_id(left) != index->id ||
      btr_page_get_level(left) != btr_page_get_level(page) ||
      btr_page_get_next(left, mtr) != page_get_page_no(page)) {
    btr_blink_corrupt_stop(index, left_no, btr_page_get_level(page),
                           "is not the left neighbour of the page whose"
                           " separator changed",
                           "changing a separator on an exclusive path, G4");
  }
  /* X2: the boundary moves between two pages whose splits are complete. */
  ut_ad(!(page_blink_get_flags(buf_block_get_frame(left_block), index) &
          PAGE_BLINK_INCOMPLETE_SPLIT));

  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  ulint *offsets;
  /* node_ptr lives in the parent, one level up. */
  const rec_t *hk = btr_blink_hk_from_tuple(
      index, node_ptr, btr_page_get_level(page) + 1, heap, &offsets);
  replace_hk(left_block, index, hk, offsets, mtr);
  mem_heap_free(heap);
}
