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

/** @file btr/btr0blink_finish.cc
Splits of B-link indexes published one level at a time: the leaf split of
a row insert under index->lock in S (SP1), the levels above it, each in a
mini-transaction of its own (SP3, SP4), and the finishing of incomplete
splits by whoever meets them (FS1) or by an exclusive path (X2).  The rules
are in btr/README.blink.md: SP1-SP5 under "The split, one level at a time",
FS1-FS3 under "Finishing incomplete splits", X1-X2 under "Exclusive paths".
What an exclusive path does when a split cannot be finished (X3-X5) is in
btr0blink_unfinished.cc. */

#include "btr0blink.h"
#include "btr0blink_finish.h"
#include "btr0blink_chain.h"
#include "btr0blink_reserve.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>

#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0sea.h"
#include "buf0buf.h"
#include "buf0flu.h"
#include "buf0lru.h"
#include "dict0dict.h"
#include "fsp0fsp.h"
#include "lob0lob.h"
#include "lock0lock.h"
#include "log0buf.h"
#include "log0chkp.h"
#include "mtr0hold.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0cur.h"
#include "page0page.h"
#include "page0zip.h"
#include "que0que.h"
#include "row0upd.h"
#include "srv0srv.h"
#include "trx0trx.h"

page_no_t blink_finish::child_of(const rec_t *node_ptr,
                                 const dict_index_t *index) {
  Rec_offsets offsets;
  return btr_node_ptr_get_child_page_no(node_ptr,
                                        offsets.compute(node_ptr, index));
}

void blink_finish::set_child(rec_t *node_ptr, const dict_index_t *index,
                             page_no_t child, mtr_t *mtr) {
  Rec_offsets offsets;
  btr_node_ptr_set_child_page_no(node_ptr, nullptr,
                                 offsets.compute(node_ptr, index), child, mtr);
}

void blink_finish::clear_flag(buf_block_t *block, const dict_index_t *index,
                              mtr_t *mtr) {
  const page_t *page = buf_block_get_frame(block);
  page_blink_set_flags(
      block, page_blink_get_flags(page, index) & ~PAGE_BLINK_INCOMPLETE_SPLIT,
      mtr);
}

#ifndef NDEBUG
void blink_finish::crash_now() {
  log_buffer_flush_to_disk();
  DBUG_SUICIDE();
}
#endif /* !NDEBUG */

using blink_finish::child_of;
using blink_finish::clear_flag;
using blink_finish::is_flagged;
#ifndef NDEBUG
using blink_finish::crash_now;
#endif /* !NDEBUG */

namespace {

/** What this thread is doing to the splits of one index. */
struct Leveled_splits {
  /** The index whose splits are leveled now, or nullptr. */
  const dict_index_t *leveled{nullptr};
  /** The index of the pessimistic update btr_blink_update() runs. */
  const dict_index_t *updating{nullptr};
  /** Whether that update's caller writes the columns its new version
  stores externally (EX3). */
  bool updating_stores{false};
  /** The index whose externally stored columns this thread writes or frees
  under S (EX1..EX4). */
  const dict_index_t *external{nullptr};
  /** SP2: holds index->lock in S from the leaf split of a row insert to
  the end of its cascade; EX1: through a write of external columns but
  its waits for redo space. */
  mtr_t holder;
  dict_index_t *held{nullptr};
  /** A flagged page to publish, and whether this thread split it (the
  counters tell the splitter's publications from finishing, FS1). */
  struct Pending {
    page_no_t page_no;
    bool own;
    /** Reserves with FSP_CLEANING: a split found on the way (FS1, X2), or
    a parent split made while publishing one, which is part of finishing
    it. */
    bool cleaning;
  };
  /** Pages to publish, in the order they were split; the splits of others
  met on the way go in front. */
  std::deque<Pending> flagged;
  /** Pending::cleaning of the page publish_all() is publishing, which a
  parent split made meanwhile inherits (btr_blink_split_made()). */
  bool publishing_cleaning{false};
  /** FS1: flagged pages a row insert met without splitting them: the leaf
  it went to and a page its descent passed (moved right from or descended
  through). */
  dict_index_t *met_index{nullptr};
  page_no_t met_leaf{FIL_NULL};
  page_no_t met_passed{FIL_NULL};
  /** The last writer's descent of this thread, and the first flagged page
  it passed (FIL_NULL: none). */
  const dict_index_t *descended{nullptr};
  page_no_t descended_passed{FIL_NULL};
  /** FS3: the inserting transaction, whose KILL stops the cascade. */
  const trx_t *trx{nullptr};
  /** LO1: the index whose S this thread's leaf split could not take
  without waiting, or whose root's segment headers it could not copy
  (btr_blink_insert_retry()). */
  const dict_index_t *retry{nullptr};
  /** LO4: the index whose root's segment headers this row's retry copied
  with nothing latched, and the IMPORT count then (copy_root_segments());
  reset by btr_blink_insert_done(). */
  struct Root_copied {
    const dict_index_t *index{nullptr};
    uint64_t imports{0};
  } root_copied;
  /** IS3: the flagged leaf that this row's retry finishes first
  (btr_blink_insert_retry(); FIL_NULL: none). */
  page_no_t retry_finish{FIL_NULL};
  /** LO1, IS3: the retries this row has taken (note_retry()); reset by
  btr_blink_insert_done() once none is due. */
  struct Retried {
    /** for S, or for a copy of the root's segment headers (LO1, LO4) */
    bool waited{false};
    /** after finishing the flagged leaf the row met (IS3) */
    uint8_t finished{0};
    /** the last of those could not finish its split (FS3) */
    bool unfinished{false};
  } retried;
  /** X1: why this thread's last leveled attempt on index refused, for the
  exclusive paths its caller takes next (btr_blink_exclusive_reason());
  reset by the next attempt, and by btr_blink_insert_done() once an
  exclusive path counted it. */
  struct Exclusive_reason {
    const dict_index_t *index{nullptr};
    Blink_exclusive reason{Blink_exclusive::OTHER};
    bool counted{false};
  } exclusive;
  /** X2 is not needed for this index: every split of it was finished and
  no other thread writes it (IMPORT, Blink_finished_scope). */
  const dict_index_t *finished{nullptr};
  /** LO4: the root's segment headers (PAGE_BTR_SEG_LEAF, then _TOP) of
  the index of this thread's last writer's descent or level search, copied
  under the root's latch;
  the index's id too, in case another index takes its memory.  A leveled
  split uses them only after a descent of its own operation (SP1: the
  insert's; the cascade's and FS1's: btr_blink_search_level()), or after
  copy_root_segments(). */
  struct Segment_headers {
    const dict_index_t *index{nullptr};
    space_index_t index_id{0};
    byte bytes[2 * FSEG_HEADER_SIZE];
    bool of(const dict_index_t *i) const {
      return index == i && index_id == i->id;
    }
  } segments;
};
static_assert(PAGE_BTR_SEG_TOP == PAGE_BTR_SEG_LEAF + FSEG_HEADER_SIZE,
              "the two segment headers are copied as one");

thread_local Leveled_splits t_splits;

/** LO4: IMPORTs so far (btr_blink_segments_replaced()). */
std::atomic<uint64_t> imports{0};

#ifdef UNIV_DEBUG
/** LO4: whether this thread's copy of the root's segment headers is that
of index and equal to the root's (the root latched by the caller). */
bool segments_copied(const dict_index_t *index, const page_t *root) {
  const auto &segments = t_splits.segments;
  return segments.of(index) &&
         !memcmp(segments.bytes, root + PAGE_HEADER + PAGE_BTR_SEG_LEAF,
                 sizeof segments.bytes);
}
#endif /* UNIV_DEBUG */

/** Makes the splits of index leveled while in scope. */
class Leveled_scope {
 public:
  explicit Leveled_scope(const dict_index_t *index)
      : m_prev(t_splits.leveled) {
    t_splits.leveled = index;
  }
  ~Leveled_scope() { t_splits.leveled = m_prev; }
  Leveled_scope(const Leveled_scope &) = delete;
  Leveled_scope &operator=(const Leveled_scope &) = delete;

 private:
  const dict_index_t *m_prev;
};

#ifdef UNIV_DEBUG
/** Whether mtr holds a page latch (X2 needs a caller that holds none). */
bool latches_a_page(const mtr_t *mtr) {
  bool found = false;
  auto find = [&found](const mtr_buf_t::block_t *block) {
    const auto *slot =
        reinterpret_cast<const mtr_memo_slot_t *>(block->begin());
    const auto *end = reinterpret_cast<const mtr_memo_slot_t *>(block->end());
    for (; slot < end; ++slot) {
      if (slot->object != nullptr && (slot->type == MTR_MEMO_PAGE_S_FIX ||
                                      slot->type == MTR_MEMO_PAGE_SX_FIX ||
                                      slot->type == MTR_MEMO_PAGE_X_FIX)) {
        found = true;
        return false;
      }
    }
    return true;
  };
  mtr->get_memo()->for_each_block(find);
  return found;
}
#endif /* UNIV_DEBUG */

/** D4 for a page reached by a page number read earlier. */
bool is_page_of(const page_t *page, const dict_index_t *index) {
  return fil_page_index_page_check(page) &&
         btr_page_get_index_id(page) == index->id;
}

buf_block_t *latch_page(dict_index_t *index, page_no_t page_no,
                        ulint rw_latch, mtr_t *mtr,
                        Page_fetch fetch = Page_fetch::NORMAL) {
  /* LO3: no page latch after the tablespace latch (an allocation). */
  ut_ad(!mtr_memo_contains(mtr, fil_space_get_latch(index->space),
                           MTR_MEMO_X_LOCK));
  buf_block_t *block = buf_page_get_gen(
      page_id_t(dict_index_get_space(index), page_no),
      dict_table_page_size(index->table), rw_latch, nullptr, fetch,
      UT_LOCATION_HERE, mtr);
  buf_block_dbg_add_level(block, SYNC_TREE_NODE);
  return block;
}

/** A flagged page as read by the first step of SP3, to be checked again
under its X latch. */
struct Flagged {
  page_no_t page_no{FIL_NULL};
  ulint level{0};
  page_no_t right{FIL_NULL};
  page_no_t left{FIL_NULL};
  /** the node pointer of the right half: the page's high key (S3) and the
  right half's page number */
  dtuple_t *node_ptr{nullptr};
  /** the high key's bytes, to recognise the same split under X */
  std::vector<byte> hk;

  bool same_split(const page_t *page, const dict_index_t *index) const {
    if (!is_flagged(page, index) ||
        mach_read_from_4(page + FIL_PAGE_NEXT) != right) {
      return false;
    }
    const page_blink_hk_t now = page_blink_get_hk(page, index);
    return now.exists() && now.rec_size() == hk.size() &&
           memcmp(page + now.start(), hk.data(), hk.size()) == 0;
  }
};

/** The outcome of one step of SP3. */
enum class Step {
  /** the page is not flagged: nothing to do */
  NOT_FLAGGED,
  /** published one level up (a parent that had to split is flagged and
  queued by its split) */
  PUBLISHED,
  /** the page changed between the two reads (FS2): read it again */
  AGAIN,
  /** the page has no node pointer: finish its left neighbour first (IS3) */
  LEFT_FIRST,
  /** the parent is flagged and full: finish the parent first (IS3) */
  PARENT_FIRST,
  /** no room in the tablespace: the flag stays (FS3) */
  NO_SPACE,
};

/** Read a flagged page (first step of SP3).
@return false if the page is not flagged */
bool read_flagged(dict_index_t *index, page_no_t page_no, mem_heap_t *heap,
                  Flagged *f) {
  mtr_t mtr;
  mtr.start();
  /* FS1: the page number may have been read before index->lock was taken
  (an insert's descent, before its commit): an exclusive path may have
  finished the split and freed the page meanwhile (G0), or a deletion
  taken it from its level (PD2) and a split reused it (PD6).  A freed page
  is read as it was left: without the flag (X2 finishes a split before its
  page is merged, X4 frees a half without it), or no longer of this
  index; a deleted one carries no flag (PD1), and a reused one that does
  is a split of its own (FS2). */
  buf_block_t *block =
      latch_page(index, page_no, RW_S_LATCH, &mtr, Page_fetch::POSSIBLY_FREED);
  const page_t *page = buf_block_get_frame(block);
  /* R1: the root is never flagged; a page that is no longer of this index
  has been merged away, its split with it. */
  if (page_no == dict_index_get_page(index) || !is_page_of(page, index) ||
      !is_flagged(page, index)) {
    mtr.commit();
    return false;
  }
  /* IS1: a flagged page has a right sibling and a high key (HK1). */
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  page_no_t next = btr_page_get_next(page, &mtr);
  DBUG_EXECUTE_IF("blink_flagged_without_right", next = FIL_NULL;);
  if (!hk.exists() || next == FIL_NULL) {
    const ulint level = btr_page_get_level(page);
    mtr.commit();
    btr_blink_corrupt_stop(index, page_no, level,
                           "is flagged as an incomplete split but has no"
                           " high key or no right sibling (IS1)",
                           "finishing a split");
  }

  f->page_no = page_no;
  f->level = btr_page_get_level(page);
  f->right = next;
  f->left = btr_page_get_prev(page, &mtr);
  f->hk.assign(page + hk.start(), page + hk.start() + hk.rec_size());
  mtr.commit();

  const rec_t *hk_rec = f->hk.data() + hk.extra;
  f->node_ptr =
      dict_index_build_node_ptr(index, hk_rec, f->right, heap, f->level + 1);
  return true;
}

/** Insert a node pointer on a page that has room for it, after the
cursor's record (reorganizing the page if needed). */
void insert_node_ptr(btr_cur_t *cursor, const dtuple_t *node_ptr,
                     mem_heap_t **heap, mtr_t *mtr) {
  ulint *offsets = nullptr;
  ut_a(btr_blink_page_insert(btr_cur_get_page_cur(cursor), cursor->index,
                             node_ptr, &offsets, heap, mtr) != nullptr);
}

constexpr uint32_t NODE_PTR_INSERT_FLAGS =
    BTR_NO_LOCKING_FLAG | BTR_KEEP_SYS_FLAG | BTR_NO_UNDO_LOG_FLAG;

/** SP4: the root is full.  Raise it, keeping its page number: its records
move to a new page Q, which a leveled split divides (Q flagged, the node
pointer inserted on its half); the root, now with the one node pointer to
Q, gets the node pointer of Q's right half and Q's flag is cleared, all in
this mini-transaction (F2: the root has room for the second one).
@return false if the tablespace had no page (the file could not be
extended): the flag stays (FS3), as for a split of a parent that finds
none */
bool raise_root(btr_cur_t *cursor, const dtuple_t *node_ptr, mem_heap_t **heap,
                mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  buf_block_t *root = btr_cur_get_block(cursor);
  ulint *offsets = nullptr;
  /* LO4: the copy of the segment headers this level search took is the
  root's, and the raise keeps them. */
  ut_ad(segments_copied(index, buf_block_get_frame(root)));
  if (DBUG_EVALUATE_IF("blink_root_raise_no_page", true, false) ||
      btr_root_raise_and_insert(NODE_PTR_INSERT_FLAGS, cursor, &offsets, heap,
                                node_ptr, mtr) == nullptr) {
    /* No page for Q: nothing changed.  Or the root was raised and Q's
    split found no page, which it looks for before it moves a record: the
    tree is whole, one level higher, and Q is not flagged. */
    return false;
  }
  ut_ad(segments_copied(index, buf_block_get_frame(root)));

  const page_t *root_page = buf_block_get_frame(root);
  const rec_t *first = page_rec_get_next_const(page_get_infimum_rec(root_page));
  const page_no_t q_no = child_of(first, index);
  /* Q was allocated, after the tablespace latch, by this mini-transaction,
  which holds its X latch already: not latch_page(), whose LO3 check is for
  pages latched anew. */
  buf_block_t *q = btr_block_get(page_id_t(dict_index_get_space(index), q_no),
                                 dict_table_page_size(index->table),
                                 RW_X_LATCH, UT_LOCATION_HERE, index, mtr);
  const page_t *q_page = buf_block_get_frame(q);
  ut_a(is_flagged(q_page, index));

  const page_blink_hk_t hk = page_blink_get_hk(q_page, index);
  byte *buf = static_cast<byte *>(mem_heap_alloc(*heap, hk.rec_size()));
  const rec_t *hk_rec = page_blink_copy_hk(q_page, index, buf);
  const dtuple_t *q_right_ptr = dict_index_build_node_ptr(
      index, hk_rec, btr_page_get_next(q_page, mtr), *heap,
      btr_page_get_level(q_page) + 1);

  page_cur_t *page_cursor = btr_cur_get_page_cur(cursor);
  page_cur_position(first, root, page_cursor);
  insert_node_ptr(cursor, q_right_ptr, heap, mtr);
  clear_flag(q, index, mtr);

  /* Q was queued by the split: it is published already. */
  auto &flagged = t_splits.flagged;
  const auto it =
      std::find_if(flagged.begin(), flagged.end(),
                   [q_no](const auto &p) { return p.page_no == q_no; });
  ut_ad(it != flagged.end());
  if (it != flagged.end()) {
    flagged.erase(it);
  }
  return true;
}

/** SP3: publish the split of a flagged page one level up, in one
mini-transaction: the node pointer of its right half into the parent and
the flag cleared (IS2); the parent split first if it is full.
@param[out] parent_split  set if the parent (not the root) was split */
Step publish_one_level(dict_index_t *index, page_no_t page_no,
                       fsp_reserve_t alloc_type, page_no_t *other,
                       bool *parent_split) {
  mem_heap_t *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  Flagged f;
  if (!read_flagged(index, page_no, heap, &f)) {
    mem_heap_free(heap);
    return Step::NOT_FLAGGED;
  }

  /* No latch held (blink_external_root.test). */
  DEBUG_SYNC_C("blink_publish_flag_read");
  mtr_t mtr;
  mtr.start();
  btr_cur_t cursor;
  btr_blink_search_level(index, f.level + 1, f.node_ptr, &cursor,
                         UT_LOCATION_HERE, &mtr);
  buf_block_t *parent = btr_cur_get_block(&cursor);
  const page_t *parent_page = buf_block_get_frame(parent);
  const rec_t *rec = btr_cur_get_rec(&cursor);

  /* The separator lies in the page's range, so the page's node pointer is
  the one the search stops at, unless the page has none: it is the right
  half of a split that is itself incomplete. */
  bool found = page_rec_is_user_rec(rec) && child_of(rec, index) == page_no;
  if (!found) {
    /* FS2: the split read above may have been published meanwhile (the
    search then stops at the right half's node pointer) and the page split
    again; only a page that still carries that split lacks its node
    pointer, and then its left neighbour is flagged (IS1, IS3). */
    const bool same = f.same_split(
        buf_block_get_frame(latch_page(index, page_no, RW_S_LATCH, &mtr)),
        index);
    mtr.commit();
    mem_heap_free(heap);
    if (!same) {
      return Step::AGAIN;
    }
    if (f.left == FIL_NULL) {
      btr_blink_corrupt_stop(index, page_no, f.level,
                             "has no node pointer in its parent and no left"
                             " sibling (IS1)",
                             "finishing a split");
    }
    *other = f.left;
    return Step::LEFT_FIRST;
  }

  const bool root = parent->page.id.page_no() == dict_index_get_page(index);
  const bool fits = btr_blink_entry_fits(index, parent_page, f.node_ptr);
  if (!fits && !root && is_flagged(parent_page, index)) {
    /* IS3: a flagged page is not split again. */
    *other = parent->page.id.page_no();
    mtr.commit();
    mem_heap_free(heap);
    return Step::PARENT_FIRST;
  }

  /* LO2: the parent's right sibling before the child (a level lower). */
  if (!fits && !root && btr_page_get_next(parent_page, &mtr) != FIL_NULL) {
    latch_page(index, btr_page_get_next(parent_page, &mtr), RW_X_LATCH, &mtr);
  }
  /* The parent is latched X, the child not yet (blink_external_root.test). */
  DEBUG_SYNC_C("blink_publish_parent_latched");
  buf_block_t *child = latch_page(index, page_no, RW_X_LATCH, &mtr);
  if (!f.same_split(buf_block_get_frame(child), index)) {
    /* FS2: finished meanwhile (and perhaps split again: the next read sees
    that split). */
    mtr.commit();
    mem_heap_free(heap);
    return Step::AGAIN;
  }

  if (fits) {
    insert_node_ptr(&cursor, f.node_ptr, &heap, &mtr);
    clear_flag(child, index, &mtr);
    mtr.commit();
    mem_heap_free(heap);
    return Step::PUBLISHED;
  }

  /* LO3: the extent reservation and the allocation come last. */
  ulint n_reserved = 0;
  if (!fsp_reserve_free_extents(&n_reserved, index->space,
                                cursor.tree_height / 16 + 3, alloc_type,
                                &mtr)) {
    mtr.commit();
    mem_heap_free(heap);
    return Step::NO_SPACE;
  }

  bool split = true;
  {
    const Leveled_scope leveled(index);
    if (root) {
      split = raise_root(&cursor, f.node_ptr, &heap, &mtr);
      /* The raise's redo is still in this mini-transaction: recovery
      finds the root as it was, full, and the child flagged. */
      DBUG_EXECUTE_IF("blink_crash_in_root_raise", crash_now(););
    } else {
      /* A split that finds no page changes nothing (the allocation comes
      first); the flag stays, as for a failed reservation. */
      ulint *offsets = nullptr;
      split = btr_page_split_and_insert(NODE_PTR_INSERT_FLAGS, &cursor,
                                        &offsets, &heap, f.node_ptr,
                                        &mtr) != nullptr;
      *parent_split = split;
    }
  }
  if (split) {
    clear_flag(child, index, &mtr);
  }
  if (n_reserved > 0) {
    fil_space_release_free_extents(index->space, n_reserved);
  }
  mtr.commit();
  mem_heap_free(heap);
  return split ? Step::PUBLISHED : Step::NO_SPACE;
}

/** Whether the inserting transaction was killed (FS3). */
bool interrupted() {
  return t_splits.trx != nullptr && trx_is_interrupted(t_splits.trx);
}

/** Publish every page in t_splits.flagged, and whatever they lead to
(SP3, IS3, FS2).  The caller holds index->lock in S or X.
@return whether every split is published */
bool publish_all(dict_index_t *index) {
  auto &queue = t_splits.flagged;
  /* Set when this thread's split of a parent (not the root) committed
  and that parent's level above is not yet touched. */
  [[maybe_unused]] bool nonleaf_split_made = false;
  /* Each step publishes a level or finds an older split to finish first;
  a bound turns a protocol violation into a message instead of a hang. */
  for (ulint steps = 0; !queue.empty(); ++steps) {
    /* Crash points between the levels of a split, no page latched
    (blink_split_crash*.test). */
    DBUG_EXECUTE_IF("blink_crash_flush_pages", buf_flush_sync_all_buf_pools(););
    DBUG_EXECUTE_IF("blink_crash_after_leaf_split",
                    if (steps == 0 && queue.front().own) crash_now(););
    DBUG_EXECUTE_IF("blink_crash_after_nonleaf_split",
                    if (nonleaf_split_made) crash_now(););
    if (steps > 100000 || interrupted()) {
      btr_blink_stats.cascades_interrupted.fetch_add(1,
                                                     std::memory_order_relaxed);
      if (steps > 100000) {
        ib::error() << "B-link index " << index->name() << " of table "
                    << index->table->name << ": the split of page "
                    << queue.front().page_no
                    << " could not be published; it stays flagged";
      }
      queue.clear();
      return false;
    }
    const auto [page_no, own, cleaning] = queue.front();
    page_no_t other = FIL_NULL;
    bool parent_split = false;
    /* Finishing a split found on the way (FS1, X2) may use the room
    stock keeps for deletes: a purge or rollback that must finish one
    first must not fail where stock's would not. */
    t_splits.publishing_cleaning = cleaning;
    /* Tests (blink_split_no_space): finishing the split of another finds
    no room for its parent split, as on a full tablespace (FS3, X3). */
    const Step step =
        !own && DBUG_EVALUATE_IF("blink_finish_no_space", true, false)
            ? Step::NO_SPACE
            : publish_one_level(index, page_no,
                                cleaning ? FSP_CLEANING : FSP_NORMAL, &other,
                                &parent_split);
    t_splits.publishing_cleaning = false;
    DEBUG_SYNC_C("blink_split_level_published");
    switch (step) {
      case Step::NOT_FLAGGED:
        queue.pop_front();
        break;
      case Step::PUBLISHED:
        /* A parent split made here went to the back of the queue. */
        ut_ad(queue.front().page_no == page_no);
        queue.pop_front();
        nonleaf_split_made = own && parent_split;
        (own ? btr_blink_stats.splits_finished
             : btr_blink_stats.splits_finished_by_others)
            .fetch_add(1, std::memory_order_relaxed);
        break;
      case Step::AGAIN:
        break;
      case Step::LEFT_FIRST:
      case Step::PARENT_FIRST: {
        /* A split this thread made and has not published yet (a parent
        split of this cascade, an SP5 right half) moves to the front and
        stays its own; any other is finished as another's (FS1). */
        const auto made_here = std::find_if(
            queue.begin(), queue.end(),
            [other](const auto &p) { return p.page_no == other; });
        Leveled_splits::Pending first{other, false, true};
        if (made_here != queue.end()) {
          first = *made_here;
          queue.erase(made_here);
        }
        queue.push_front(first);
        break;
      }
      case Step::NO_SPACE:
        btr_blink_stats.cascades_interrupted.fetch_add(
            1, std::memory_order_relaxed);
        queue.clear();
        return false;
    }
  }
  return true;
}

/** Finish the incomplete split of a page found by someone who did not make
it (FS1, X2).  The caller holds index->lock in S or X and no page latch.
@return false if it could not be finished (no room in the tablespace) */
bool finish_split(dict_index_t *index, page_no_t page_no) {
  ut_ad(t_splits.flagged.empty());
  t_splits.flagged.push_back({page_no, false, true});
  return publish_all(index);
}

/** X3's message, at most once a minute: purge retries a refused change
every 50 ms (BTR_CUR_RETRY_SLEEP_TIME_MS). */
void warn_unfinished(const dict_index_t *index, page_no_t page_no) {
  static std::atomic<int64_t> last_s{INT64_MIN / 2};
  const int64_t now_s = std::chrono::duration_cast<std::chrono::seconds>(
                            std::chrono::steady_clock::now().time_since_epoch())
                            .count();
  int64_t last = last_s.load(std::memory_order_relaxed);
  if (now_s - last < 60 ||
      !last_s.compare_exchange_strong(last, now_s, std::memory_order_relaxed)) {
    return;
  }
  ib::warn() << "B-link index " << index->name() << " of table "
             << index->table->name << ": the incomplete split of page "
             << page_no << " could not be finished (no room in the"
             << " tablespace); structure changes on its path fail until it"
             << " is (Innodb_btree_blink_changes_refused counts them; this"
             << " message is printed at most once a minute)";
}

/** LO3: latch the right sibling of a leveled split's page before the
tablespace: a page latch after the tablespace latch could wait for a
thread that holds the page and waits for the tablespace. */
void latch_right(btr_cur_t *cursor, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  ut_ad(!mtr_memo_contains(mtr, fil_space_get_latch(index->space),
                           MTR_MEMO_X_LOCK));
  const page_no_t right = btr_page_get_next(btr_cur_get_page(cursor), mtr);
  if (right != FIL_NULL) {
    latch_page(index, right, RW_X_LATCH, mtr);
  }
}

/** SP2: take index->lock in S for a leaf split and hold it in
t_splits.holder until its cascade ends (btr_blink_insert_done()).  LO1: the
caller holds the leaf latch, so it must not wait for index->lock: a waiting
X request (an exclusive path, X1) refuses it, and the row waits with no latch
held and tries again (LO1) before it takes the exclusive path.  EX1 waits,
with no latch held.
@return whether S was free */
bool hold_s(dict_index_t *index, que_thr_t *thr, bool wait) {
  ut_ad(t_splits.held == nullptr);
  rw_lock_t *lock = dict_index_get_lock(index);
  /* LO1: taken once per thread. */
  ut_ad(!rw_lock_own_flagged(
      lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  if (wait) {
    rw_lock_s_lock(lock, UT_LOCATION_HERE);
  } else if (!rw_lock_s_lock_nowait(lock, UT_LOCATION_HERE)) {
    return false;
  }
  t_splits.holder.start();
  t_splits.holder.memo_push(lock, MTR_MEMO_S_LOCK);
  t_splits.held = index;
  t_splits.trx = thr != nullptr ? thr_get_trx(thr) : nullptr;
  return true;
}

/** LO4 for btr_blink_update(), whose cursor a reader's descent or a
restored position may have placed: copy the root's segment headers under an
S latch taken without waiting (the caller holds the leaf).
@return false if the root is not in the buffer pool, is being read or is
latched X */
bool note_root_nowait(const dict_index_t *index) {
  /* blink_root_copy.test: as if a cascade held the root X. */
  if (DBUG_EVALUATE_IF("blink_root_nowait_fails", true, false)) {
    return false;
  }
  mtr_t mtr;
  mtr.start();
  const buf_block_t *root = buf_page_try_get(
      page_id_t(index->space, dict_index_get_page(index)), UT_LOCATION_HERE,
      &mtr);
  if (root != nullptr) {
    btr_blink_note_root(index, buf_block_get_frame(root));
  }
  mtr.commit();
  return root != nullptr;
}

/** IS3: how many times a row may finish a flagged leaf it met and try
again.  A flag met again is a split that another writer made since: a
second meeting is rare (one in about 30,000 transactions of a disk-bound
oltp_write_only at 32 threads) and a fifth was never seen; the bound keeps
a row's attempts finite. */
constexpr uint8_t FINISH_RETRIES = 4;

/** LO1, IS3: let this row try its leaf once more after a refusal: once
after waiting for S (or copying the root's segment headers, LO4) with
nothing latched, and after finishing the flagged leaf it met, up to
FINISH_RETRIES times while each finishing finished its split.  So a row's
attempts are bounded; a refusal past them takes the exclusive path.
@param[in] finish  the flagged leaf to finish first, or FIL_NULL
@return whether the retry is due (btr_blink_insert_retry()) */
bool note_retry(const dict_index_t *index, page_no_t finish) {
  auto &retried = t_splits.retried;
  if (finish == FIL_NULL ? std::exchange(retried.waited, true)
                         : retried.unfinished ||
                               retried.finished == FINISH_RETRIES) {
    return false;
  }
  if (finish != FIL_NULL) {
    ++retried.finished;
  }
  t_splits.retry = index;
  t_splits.retry_finish = finish;
  return true;
}

/** LO4: a copy of the root's segment headers for a split whose cursor no
descent of this operation placed (the adaptive hash index's, a restored
position's): taken under the root's S latch tried without waiting, as the
caller holds the leaf, or the one that this row's retry took with nothing
latched.  If neither is there, the caller may try again once: the retry
copies it first (btr_blink_insert_retry()).  A row that never came back
after its retry (a duplicate key found) leaves its copy to a later one: an
IMPORT since then, which gives the index other segments, voids it.
@return whether the copy is there */
bool copy_root_segments(const dict_index_t *index) {
  const auto copied = std::exchange(t_splits.root_copied, {});
  if ((copied.index == index && t_splits.segments.of(index) &&
       copied.imports == imports.load(std::memory_order_acquire)) ||
      note_root_nowait(index)) {
    return true;
  }
  note_retry(index, FIL_NULL);
  return false;
}

/** Whether a DBUG keyword asks for the split of the exclusive path, one
mini-transaction under X: the validator's tests build incomplete and broken
splits with it, and keep them (blink_flags, blink_validator). */
bool debug_split() {
  bool debug = false;
  DBUG_EXECUTE_IF("blink_split_incomplete", debug = true;);
  DBUG_EXECUTE_IF("blink_corrupt_no_downlink", debug = true;);
  DBUG_EXECUTE_IF("blink_corrupt_incomplete_flag", debug = true;);
  DBUG_EXECUTE_IF("blink_corrupt_high_key", debug = true;);
  DBUG_EXECUTE_IF("blink_corrupt_sibling_link", debug = true;);
  DBUG_EXECUTE_IF("blink_leak_page", debug = true;);
  return debug;
}

/** X1: the refusals that the leaf split of a row insert and of an update
share: a root that is a leaf (its raise changes the only page of the tree),
a flagged leaf (IS3: its split is finished there first, X2), online DDL (its
log apply runs under the index lock), a debug split.
@return the reason, or nothing */
std::optional<Blink_exclusive> leaf_refusal(const dict_index_t *index,
                                            bool root, bool flagged) {
  if (root) {
    return Blink_exclusive::ROOT_LEAF;
  }
  if (flagged) {
    return Blink_exclusive::INCOMPLETE_SPLIT;
  }
  if (dict_index_is_online_ddl(index)) {
    return Blink_exclusive::ONLINE_DDL;
  }
  if (debug_split()) {
    return Blink_exclusive::OTHER;
  }
  return std::nullopt;
}

/** X1: why a row insert's leaf split cannot be leveled: leaf_refusal(),
with innodb_btree_blink_leveled_external OFF a row with externally stored
columns (EX1 writes them after the split is published), and a cursor that
the adaptive hash index placed, for which no copy of the root's segment
headers can be taken (LO4: the split allocates from a copy taken by the
insert's descent, or else by copy_root_segments()).
@return the reason, or nothing if the split may be leveled */
std::optional<Blink_exclusive> insert_refusal(const dict_index_t *index,
                                              bool root, bool flagged,
                                              bool descended,
                                              const dtuple_t *entry) {
  if (const auto reason = leaf_refusal(index, root, flagged)) {
    return reason;
  }
  if (!srv_btree_blink_leveled_external &&
      page_zip_rec_needs_ext(rec_get_converted_size(index, entry),
                             dict_table_is_comp(index->table),
                             dtuple_get_n_fields(entry),
                             dict_table_page_size(index->table))) {
    return Blink_exclusive::SWITCH_OFF;
  }
  if (!descended && !copy_root_segments(index)) {
    return Blink_exclusive::NO_SEGMENT_COPY;
  }
  return std::nullopt;
}

/** X1: why an update's or rollback's leaf split cannot be leveled:
leaf_refusal(), externally stored columns with
innodb_btree_blink_leveled_external OFF or that only the exclusive path
frees, the buffer pool running out (the caller's stock path refuses then,
DB_LOCK_TABLE_FULL), and no copy of the root's segment headers (LO4,
copy_root_segments()).
@param[in] page  the leaf
@param[in] any_extern  the record has externally stored columns
@param[in] frees_elsewhere  they would be freed where EX4 does not
@return the reason, or nothing if the split may be leveled */
std::optional<Blink_exclusive> update_refusal(const dict_index_t *index,
                                              const page_t *page,
                                              bool any_extern,
                                              bool frees_elsewhere) {
  if (const auto reason = leaf_refusal(
          index, page_get_page_no(page) == dict_index_get_page(index),
          is_flagged(page, index))) {
    return reason;
  }
  if (any_extern && !srv_btree_blink_leveled_external) {
    return Blink_exclusive::SWITCH_OFF;
  }
  if (any_extern && frees_elsewhere) {
    return Blink_exclusive::EXTERNAL;
  }
  if (buf_LRU_buf_pool_running_out()) {
    return Blink_exclusive::POOL_LOW;
  }
  if (!copy_root_segments(index)) {
    return Blink_exclusive::NO_SEGMENT_COPY;
  }
  return std::nullopt;
}

void release_holder() {
  /* SP2: S is held until this thread's splits are published. */
  ut_ad(t_splits.flagged.empty());
  if (t_splits.held != nullptr) {
    t_splits.holder.commit();
    t_splits.held = nullptr;
  }
  t_splits.trx = nullptr;
}

}  // namespace

void btr_blink_writer_descended(const dict_index_t *index,
                                page_no_t flagged_passed) {
  /* LO1, X1: a refusal left by an earlier insert is not this one's. */
  t_splits.retry = nullptr;
  t_splits.exclusive = {};
  t_splits.descended = index;
  t_splits.descended_passed = flagged_passed;
}

void btr_blink_exclusive_reason(const dict_index_t *index,
                                Blink_exclusive reason) {
  t_splits.exclusive = {index, reason, false};
}

bool btr_blink_splits_pending() { return !t_splits.flagged.empty(); }

bool btr_blink_split_leveled(const dict_index_t *index) {
  return t_splits.leveled == index;
}

void btr_blink_split_made(const dict_index_t *index, page_no_t page_no) {
  ut_ad(btr_blink_split_leveled(index));
  t_splits.flagged.push_back({page_no, true, t_splits.publishing_cleaning});
}

dberr_t btr_blink_insert(dberr_t err, bool index_lock_free, uint32_t flags,
                         btr_cur_t *cursor, ulint **offsets,
                         mem_heap_t **heap, dtuple_t *entry, rec_t **rec,
                         big_rec_t **big_rec, que_thr_t *thr, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  /* LO1, X1: set below if this attempt is refused. */
  t_splits.retry = nullptr;
  t_splits.exclusive = {};
  if (!index->blink || (err != DB_SUCCESS && err != DB_FAIL)) {
    return err;
  }
  if (!index_lock_free) {
    /* The caller holds S for an index that DDL builds or rebuilds
    (row_ins_clust_index_entry_low(), row_ins_sec_index_entry_low()). */
    if (err == DB_FAIL) {
      btr_blink_exclusive_reason(index, Blink_exclusive::ONLINE_DDL);
    }
    return err;
  }
  const buf_block_t *block = btr_cur_get_block(cursor);
  const page_no_t page_no = block->page.id.page_no();
  const bool root = page_no == dict_index_get_page(index);
  const bool flagged = !root && is_flagged(buf_block_get_frame(block), index);

  const bool split_for_debug = debug_split();

  /* FS1: what the insert met is finished after the commit.  A cursor the
  adaptive hash index placed had no descent: what an older one passed
  is not this insert's. */
  const bool descended =
      t_splits.descended == index && cursor->flag != BTR_CUR_HASH;
  const page_no_t passed = descended ? t_splits.descended_passed : FIL_NULL;
  t_splits.descended = nullptr;
  if (!split_for_debug &&
      (passed != FIL_NULL || (flagged && err == DB_SUCCESS))) {
    t_splits.met_index = index;
    t_splits.met_passed = passed;
    t_splits.met_leaf = flagged && err == DB_SUCCESS ? page_no : FIL_NULL;
  }
  if (err == DB_SUCCESS) {
    return err;
  }

  if (const auto reason =
          insert_refusal(index, root, flagged, descended, entry)) {
    btr_blink_exclusive_reason(index, *reason);
    if (*reason == Blink_exclusive::INCOMPLETE_SPLIT && !split_for_debug) {
      /* IS3: finished under S with nothing latched, then tried again; the
      validator's tests split flagged pages on purpose. */
      note_retry(index, page_no);
    }
    return DB_FAIL;
  }

  DEBUG_SYNC_C("blink_insert_split");
  if (!hold_s(index, thr, false)) {
    note_retry(index, FIL_NULL);
    btr_blink_exclusive_reason(index, Blink_exclusive::S_REFUSED);
    return DB_FAIL;
  }

  {
    const Leveled_scope leveled(index);
    err = btr_cur_pessimistic_insert(flags, cursor, offsets, heap, entry, rec,
                                     big_rec, thr, mtr);
  }
  /* A row that needs external storage: after the commit, the caller's
  Blink_external_write publishes this split, then writes the columns
  (EX1). */
  if (err == DB_SUCCESS && !t_splits.flagged.empty()) {
    /* Not an insert into the right sibling (RS1). */
    btr_blink_stats.leveled_splits.fetch_add(1, std::memory_order_relaxed);
  }
  return err;
}

bool srv_btree_blink_leveled_update = true;

bool btr_blink_update(dberr_t *err, ulint flags, btr_cur_t *cursor,
                      ulint **offsets, mem_heap_t **offsets_heap,
                      mem_heap_t **heap, big_rec_t **big_rec, upd_t *update,
                      ulint cmpl_info, que_thr_t *thr, trx_id_t trx_id,
                      undo_no_t undo_no, mtr_t *mtr, btr_pcur_t *pcur) {
  dict_index_t *index = cursor->index;
  /* LO1, X1: set below if this attempt is refused. */
  t_splits.retry = nullptr;
  t_splits.exclusive = {};
  if (!index->blink || (*err != DB_OVERFLOW && *err != DB_UNDERFLOW)) {
    return false;
  }
  /* An underflow only with innodb_btree_blink_page_delete OFF (PD4). */
  if (*err == DB_UNDERFLOW || !srv_btree_blink_leveled_update) {
    btr_blink_exclusive_reason(index, Blink_exclusive::SWITCH_OFF);
    return false;
  }
  const page_t *page = btr_cur_get_page(cursor);
  /* A rollback frees the columns its update wrote (EX4), through the
  caller's persistent cursor, as stock's. */
  const bool frees =
      (flags & BTR_NO_UNDO_LOG_FLAG) && !index->table->is_intrinsic();
  /* EX4: a small change to a column is undone in place, in this
  mini-transaction, which then holds the column's pages when it latches the
  split's right sibling; purge's freeing of replaced columns, under SX, may
  hold an undo page that a holder of that sibling waits for, and wait for
  the column's first page. */
  const bool undoes_in_place =
      frees && std::any_of(update->fields, update->fields + update->n_fields,
                           [](const upd_field_t &field) {
                             return field.lob_diffs != nullptr &&
                                    !field.lob_diffs->empty();
                           });
  if (const auto reason =
          update_refusal(index, page, rec_offs_any_extern(*offsets),
                         (frees && pcur == nullptr) || undoes_in_place)) {
    btr_blink_exclusive_reason(index, *reason);
    if (*reason == Blink_exclusive::INCOMPLETE_SPLIT && !debug_split()) {
      /* IS3, as for a row insert. */
      note_retry(index, page_get_page_no(page));
    }
    return false;
  }
  DEBUG_SYNC_C("blink_update_split");
  if (!hold_s(index, thr, false)) {
    /* LO1: the caller may wait for S with no latch held and try once more
    (btr_blink_update_retry(), or btr_blink_insert_retry() for an insert
    over a delete-marked record and for a rollback). */
    note_retry(index, FIL_NULL);
    btr_blink_exclusive_reason(index, Blink_exclusive::S_REFUSED);
    return false;
  }
  if (*heap == nullptr) {
    *heap = mem_heap_create(1024, UT_LOCATION_HERE);
  }
  ut_ad(t_splits.flagged.empty());
  /* A caller that cannot write a new version's columns passes none. */
  big_rec_t *unstored = nullptr;
  {
    const Leveled_scope leveled(index);
    t_splits.updating = index;
    t_splits.updating_stores =
        big_rec != nullptr && srv_btree_blink_leveled_external;
    *err = btr_cur_pessimistic_update(
        flags, cursor, offsets, offsets_heap, *heap,
        big_rec != nullptr ? big_rec : &unstored, update, cmpl_info, thr,
        trx_id, undo_no, mtr, frees ? pcur : nullptr);
    t_splits.updating = nullptr;
    t_splits.updating_stores = false;
  }
  ut_a(unstored == nullptr);
  if (*err == DB_FAIL) {
    /* Refused before any change: the new row needs external storage that
    the caller does not write under S. */
    release_holder();
    *err = DB_OVERFLOW;
    btr_blink_exclusive_reason(index, srv_btree_blink_leveled_external
                                          ? Blink_exclusive::EXTERNAL
                                          : Blink_exclusive::SWITCH_OFF);
    return false;
  }
  if (!t_splits.flagged.empty()) {
    btr_blink_stats.leveled_splits.fetch_add(1, std::memory_order_relaxed);
  }
  return true;
}

bool btr_blink_update_retry(btr_pcur_t *pcur, ulint **offsets,
                            mem_heap_t **heap, mtr_t *mtr) {
  dict_index_t *index = pcur->index();
  if (t_splits.retry != index) {
    return false;
  }
  mtr->commit();
  btr_blink_insert_retry(index);
  mtr->start();
  /* The transaction holds the record's lock, as for the caller's own
  restore on the exclusive path. */
  ut_a(pcur->restore_position(BTR_MODIFY_LEAF, mtr, UT_LOCATION_HERE));
  *offsets = rec_get_offsets(pcur->get_rec(), index, *offsets, ULINT_UNDEFINED,
                             UT_LOCATION_HERE, heap);
  return true;
}

bool btr_blink_leveled_update(const dict_index_t *index) {
  return t_splits.updating == index;
}

bool btr_blink_update_refuses_external(const dict_index_t *index) {
  return btr_blink_leveled_update(index) && !t_splits.updating_stores;
}

bool btr_blink_update_reserve(btr_cur_t *cursor, ulint flags,
                              ulint n_extents, ulint *n_reserved, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  ut_ad(btr_blink_leveled_update(index));
  latch_right(cursor, mtr);
  /* A rollback may use the extents kept for cleaning, as in stock. */
  return btr_blink_reserve_take_for_update(cursor) ||
         fsp_reserve_free_extents(
             n_reserved, index->space, n_extents,
             flags & BTR_NO_UNDO_LOG_FLAG ? FSP_CLEANING : FSP_NORMAL, mtr);
}

bool srv_btree_blink_leveled_external = true;

Blink_external_write::Blink_external_write(dict_index_t *index) {
  if (t_splits.held == index) {
    /* The row's leaf split (SP1) is published first: its S could not be
    given up while the write waits for redo space (Blink_external_pause).
    The row's mini-transaction has committed and nothing is latched. */
    btr_blink_insert_done();
  }
  if (!index->blink || index->table->is_intrinsic()) {
    return;
  }
  if (!srv_btree_blink_leveled_external || dict_index_is_online_ddl(index)) {
    btr_blink_exclusive_reason(index, srv_btree_blink_leveled_external
                                          ? Blink_exclusive::ONLINE_DDL
                                          : Blink_exclusive::SWITCH_OFF);
    return;
  }
  ut_ad(index->is_clustered());
  ut_ad(t_splits.external == nullptr);
  /* The row, and its leaf split if it made one, committed
  (blink_external.test). */
  DBUG_EXECUTE_IF("blink_crash_before_external_write", crash_now(););
  /* LO1: no latch is held (the caller's mini-transaction has latched
  nothing yet), so S may be waited for. */
  hold_s(index, nullptr, true);
  /* LO4: the copy the allocations use.  Taken here, not left to the search
  for the record, which the adaptive hash index may place; with S held and
  no page latched the root may be waited for (LO1, LO2). */
  mtr_t mtr;
  mtr.start();
  btr_blink_note_root(
      index, buf_block_get_frame(btr_root_block_get(index, RW_S_LATCH, &mtr)));
  mtr.commit();
  t_splits.external = index;
  m_index = index;
  btr_blink_stats.external_writes.fetch_add(1, std::memory_order_relaxed);
}

Blink_external_write::~Blink_external_write() {
  if (m_index == nullptr) {
    return;
  }
  t_splits.external = nullptr;
  /* The caller has committed: no page is latched. */
  release_holder();
  /* The columns are written; the row's transaction has not committed
  (blink_external.test). */
  DBUG_EXECUTE_IF("blink_crash_after_external_write", crash_now(););
  /* RV9, RV5: the pages the values took from the reserve are formatted by
  committed mini-transactions; the pool is refilled through the write's
  copy of the segment headers (LO4). */
  btr_blink_insert_done();
}

Blink_external_pause::Blink_external_pause(const dict_index_t *index) {
  if (t_splits.external != index) {
    return;
  }
  /* No page is latched: the write is between two mini-transactions.  An
  update's leaf split (EX3) is published before S is given up (SP2), unmarked:
  its parent splits and a root raise allocate pages of the index's levels
  from their own copy of the segment headers, not pages of the column. */
  ut_ad(t_splits.held == index);
  t_splits.external = nullptr;
  btr_blink_insert_done();
  t_splits.external = index;
  /* An update's split is published; no value is written yet
  (blink_external_update.test). */
  DBUG_EXECUTE_IF("blink_crash_before_external_write", crash_now(););
  m_index = const_cast<dict_index_t *>(index);
}

Blink_external_pause::~Blink_external_pause() {
  if (m_index != nullptr) {
    /* LO1: still no latch held. */
    hold_s(m_index, nullptr, true);
  }
}

ulint Blink_external_write::latch_mode() const {
  return m_index != nullptr ? BTR_MODIFY_LEAF : BTR_MODIFY_TREE;
}

Blink_external_scope::Blink_external_scope(const dict_index_t *index) {
  if (t_splits.held != index || t_splits.external != nullptr) {
    return;
  }
  ut_ad(t_splits.segments.of(index));
  t_splits.external = index;
  m_index = index;
  /* btr_cur_pessimistic_update() frees a rolled-back update's columns
  (EX4); its caller writes a new version's (EX3). */
  if (btr_blink_leveled_update(index)) {
    btr_blink_stats.external_frees.fetch_add(1, std::memory_order_relaxed);
    /* The leaf is held (blink_external_root.test). */
    DEBUG_SYNC_C("blink_external_free");
  } else {
    btr_blink_stats.external_writes.fetch_add(1, std::memory_order_relaxed);
  }
}

Blink_external_scope::~Blink_external_scope() {
  if (m_index == nullptr) {
    return;
  }
  t_splits.external = nullptr;
  /* The update's columns are written or freed; its leaf is still latched
  and S held, until the caller's commit (blink_external_update.test). */
  DBUG_EXECUTE_IF("blink_crash_after_external_update",
                  if (!btr_blink_leveled_update(m_index)) crash_now(););
}

dberr_t btr_blink_write_by_modify(trx_t *trx, btr_pcur_t *pcur,
                                  const upd_t *update, ulint *offsets,
                                  big_rec_t *big_rec, mtr_t *mtr) {
  const Blink_external_scope blink(pcur->index());
  const dberr_t err = lob::btr_store_big_rec_extern_fields(
      trx, pcur, update, offsets, big_rec, mtr, lob::OPCODE_INSERT_UPDATE);
  dtuple_big_rec_free(big_rec);
  return err;
}

bool btr_blink_writes_external(const dict_index_t *index) {
  return t_splits.external == index;
}

void blink_finish::set_external(const dict_index_t *index) {
  ut_ad((index == nullptr) != (t_splits.external == nullptr));
  t_splits.external = index;
}

void btr_blink_external_page_free(dict_index_t *index, buf_block_t *block,
                                  ulint level, mtr_t *mtr) {
  ut_ad(btr_blink_writes_external(index));
  ut_a(level == 0 || level == ULINT_UNDEFINED);
  const auto &segments = t_splits.segments;
  ut_a(segments.of(index));
  /* fseg_free_page() reads the inode's address from the header; it writes
  nothing there. */
  fseg_header_t leaf_segment[FSEG_HEADER_SIZE];
  memcpy(leaf_segment, segments.bytes, sizeof leaf_segment);
  fseg_free_page(leaf_segment, block->page.id.space(),
                 block->page.id.page_no(), level != ULINT_UNDEFINED, mtr);
}

bool btr_blink_holds_s(const dict_index_t *index) {
  return t_splits.held == index;
}

buf_block_t *btr_blink_external_page_alloc(dict_index_t *index,
                                           page_no_t hint, byte direction,
                                           ulint level, mtr_t *mtr,
                                           mtr_t *init_mtr) {
  ut_ad(btr_blink_writes_external(index));
  /* Pages of externally stored columns belong to the leaf segment. */
  ut_a(level == 0);
  const auto &segments = t_splits.segments;
  ut_a(segments.of(index));
  const space_id_t space = dict_index_get_space(index);
  /* As btr_page_alloc_low(): alloc_lob_page() reserved the extents. */
  return fseg_alloc_free_page_in_space(
      space, segments.bytes, hint, direction,
      fil_space_get_n_reserved_extents(space) > 0, mtr, init_mtr);
}

bool btr_blink_insert_retry(const dict_index_t *index) {
  if (std::exchange(t_splits.retry, nullptr) != index) {
    return false;
  }
  rw_lock_t *lock = dict_index_get_lock(const_cast<dict_index_t *>(index));
  /* LO1: no latch is held; S waits behind the X that refused it. */
  ut_ad(!rw_lock_own_flagged(
      lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  DEBUG_SYNC_C("blink_insert_retry");
  rw_lock_s_lock(lock, UT_LOCATION_HERE);
  /* IS3: the flagged leaf that refused the split; if it cannot be finished
  (FS3), the next attempt meets the flag again and takes the exclusive path,
  whose X2 finishes it. */
  const page_no_t finish = std::exchange(t_splits.retry_finish, FIL_NULL);
  if (finish != FIL_NULL) {
    t_splits.retried.unfinished =
        DBUG_EVALUATE_IF("blink_retry_not_finished", true, false) ||
        !finish_split(const_cast<dict_index_t *>(index), finish);
  }
  /* LO4, for a retry whose cursor no descent will place: with S held and
  no page latched the root may be waited for (LO1, LO2), as by
  Blink_external_write. */
  mtr_t mtr;
  mtr.start();
  btr_blink_note_root(index, buf_block_get_frame(btr_root_block_get(
                                 index, RW_S_LATCH, &mtr)));
  mtr.commit();
  t_splits.root_copied = {index, imports.load(std::memory_order_acquire)};
  rw_lock_s_unlock(lock);
  DEBUG_SYNC_C("blink_insert_retried");
  btr_blink_stats.insert_retries.fetch_add(1, std::memory_order_relaxed);
  /* As before every attempt of a row insert. */
  log_free_check();
  return true;
}

void btr_blink_insert_done() {
  /* C3: the insert's search found its index corrupt. */
  btr_blink_mark_found_corrupt();
  /* RV6: the insert's mini-transaction, the leaf split's, has committed. */
  const dict_index_t *split_index = btr_blink_reserve_after_commit();
  dict_index_t *index = t_splits.held;
  if (index != nullptr) {
    /* SP2: the S taken before the leaf split is still held. */
    DEBUG_SYNC_C("blink_leaf_split_committed");
    publish_all(index);
    release_holder();
  }
  t_splits.descended = nullptr;
  if (t_splits.retry == nullptr) {
    /* LO1, IS3: no retry is due; the row's attempts are over. */
    t_splits.retried = {};
  }
  t_splits.root_copied = {};
  /* X1: the row's change is over; a reason it did not use yet is still
  for its caller's BTR_MODIFY_TREE search (row_ins_clust_index_entry()). */
  if (t_splits.exclusive.counted) {
    t_splits.exclusive = {};
  }

  dict_index_t *met_index = t_splits.met_index;
  if (met_index != nullptr) {
    const page_no_t met[] = {t_splits.met_leaf, t_splits.met_passed};
    t_splits.met_index = nullptr;
    t_splits.met_leaf = t_splits.met_passed = FIL_NULL;
    /* FS1: no latch is held here; the finishing takes S without waiting
    behind an exclusive path, which finishes it anyway (X2). */
    DEBUG_SYNC_C("blink_insert_done_met");
    rw_lock_t *lock = dict_index_get_lock(met_index);
    ut_ad(!rw_lock_own_flagged(
        lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
    if (rw_lock_s_lock_nowait(lock, UT_LOCATION_HERE)) {
      for (const page_no_t page_no : met) {
        if (page_no != FIL_NULL && !finish_split(met_index, page_no)) {
          break;
        }
      }
      rw_lock_s_unlock(lock);
    }
  }
  ut_ad(t_splits.flagged.empty());

  /* RV5: no latch is held; the segment header is the copy this insert's
  descent took (LO4). */
  if (split_index != nullptr && t_splits.segments.of(split_index)) {
    btr_blink_reserve_refill(split_index, t_splits.segments.bytes);
  }
}

void btr_blink_finish_splits(dict_index_t *index,
                             const std::vector<page_no_t> &pages) {
  if (pages.empty()) {
    return;
  }
  rw_lock_t *lock = dict_index_get_lock(index);
  /* FS1: no latch is held; a page freed or finished since it was noted is
  passed over (FS2). */
  ut_ad(!rw_lock_own_flagged(
      lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  rw_lock_s_lock(lock, UT_LOCATION_HERE);
  for (const page_no_t page_no : pages) {
    if (!finish_split(index, page_no)) {
      break;
    }
  }
  rw_lock_s_unlock(lock);
}

void btr_blink_latch_right(btr_cur_t *cursor, mtr_t *mtr) {
  dict_index_t *index = cursor->index;
  /* btr_blink_update_reserve() latched it before the reservation. */
  if (!index->blink || !btr_blink_split_leveled(index) ||
      btr_blink_leveled_update(index)) {
    return;
  }
  latch_right(cursor, mtr);
}

void btr_blink_segments_replaced() {
  imports.fetch_add(1, std::memory_order_acq_rel);
}

void btr_blink_note_root(const dict_index_t *index, const page_t *root) {
  /* Copied at every writer's descent and level search, not once per
  index: IMPORT gives an
  index (the same object, the same id) another root and other segments. */
  auto &segments = t_splits.segments;
  ut_ad(page_get_page_no(root) == dict_index_get_page(index));
  memcpy(segments.bytes, root + PAGE_HEADER + PAGE_BTR_SEG_LEAF,
         sizeof segments.bytes);
  segments.index = index;
  segments.index_id = index->id;
}

const fseg_header_t *btr_blink_leaf_segment(const dict_index_t *index) {
  return t_splits.segments.of(index) ? t_splits.segments.bytes : nullptr;
}

buf_block_t *btr_blink_page_alloc(dict_index_t *index, page_no_t hint,
                                  ulint level, mtr_t *mtr) {
  ut_ad(btr_blink_split_leveled(index));
  /* LO4: the segment headers on the root are written when the index is
  created (fseg_create()) and never again on a B-link index (a root raise
  keeps them; compressed pages, whose raise rewrites them, are never
  B-link, M4), so the copy this thread's descent took under the root's
  latch is the root's.  Fetching the root here, even with no latch,
  could wait: for an S latch on it while it is read back from disk
  (buf_wait_for_read()), with the leaf and its right sibling held. */
  if (level == 0) {
    /* RV2: the reserve's page, if this split took one. */
    if (buf_block_t *block = btr_blink_reserve_use(index, mtr)) {
      return block;
    }
  }
  const auto &segments = t_splits.segments;
  ut_a(segments.of(index));
  const fseg_header_t *seg_header =
      segments.bytes + (level == 0 ? 0 : FSEG_HEADER_SIZE);
  const space_id_t space = dict_index_get_space(index);
  /* Extents were reserved by this split's insert, unless it took pages
  from the reserve (RV2: two, for SP5) or is a secondary index's (no undo
  log: btr_cur_pessimistic_insert() reserves none), and by the cascade
  for every parent split (publish_one_level()). */
  const bool reserved = level > 0 || btr_blink_reserve_extents_reserved();
  /* blink_reserve_resplit: a tablespace whose free extents are all held by
  reservations, where only a reserved allocation succeeds. */
  if (!reserved &&
      DBUG_EVALUATE_IF("blink_alloc_unreserved_fails", true, false)) {
    return nullptr;
  }
  buf_block_t *block = fseg_alloc_free_page_in_space(
      space, seg_header, hint, FSP_UP, reserved, mtr, mtr);
  if (block != nullptr) {
    buf_block_dbg_add_level(block, SYNC_TREE_NODE_NEW);
  }
  return block;
}

/** C2: a walk down the tree meets each level once: a child that is not one
level below its parent (a node pointer that leads up or sideways) would
make the walk endless.  Stops the server after marking the index, as the
exclusive path cannot return an error. */
static void check_below_parent(dict_index_t *index, page_no_t page_no,
                               ulint level, ulint parent_level, mtr_t *mtr) {
  if (parent_level != ULINT_UNDEFINED && level + 1 != parent_level) {
    mtr->commit();
    btr_blink_corrupt_stop(index, page_no, parent_level - 1,
                           "is not one level below its parent",
                           "descending an exclusive path, X2");
  }
}

/** C1 for a page an exclusive walk reached by a sibling link: a page of
the index on the level of the page that named it, or the server stops, as
stock's father lookups stop it on a corrupt tree.  A page of another index
that happens to carry the flag bit would otherwise be "finished" by
finish_split(), which does not see it as this index's (read_flagged()),
and read again without end. */
static void check_on_level(dict_index_t *index, page_no_t page_no,
                           const page_t *page, ulint level, mtr_t *mtr,
                           const char *context) {
  if (!is_page_of(page, index) || btr_page_get_level(page) != level) {
    mtr->commit();
    btr_blink_corrupt_stop(index, page_no, level,
                           "is not a page of its index on the level of the"
                           " page that links to it",
                           context);
  }
}

void btr_blink_finish_path(dict_index_t *index, const dtuple_t *tuple,
                           bool from_left) {
  ut_ad(index->blink);
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  btr_blink_stats.exclusive_paths.fetch_add(1, std::memory_order_relaxed);
  /* Kept until the next leveled attempt or the end of the change: its
  later exclusive paths (the cursor restores of a value's write) count with
  it. */
  auto &noted = t_splits.exclusive;
  const Blink_exclusive reason =
      noted.index == index ? noted.reason : Blink_exclusive::OTHER;
  noted.counted = noted.counted || noted.index == index;
  btr_blink_stats.exclusive_by_reason[static_cast<size_t>(reason)].fetch_add(
      1, std::memory_order_relaxed);
  if (t_splits.finished == index) {
    /* btr_blink_finish_all() of the scope set X3's mark. */
    return;
  }
  blink_finish::set_unfinished(nullptr);
  const space_id_t space = dict_index_get_space(index);
  const page_size_t page_size = dict_table_page_size(index->table);

  /* Down the path one page at a time; on each level the page and its two
  siblings, each latched alone.  Under X no split runs, so a flag found
  stays until this thread finishes it; after each finish the path may
  have changed, and the walk starts again from the root. */
  for (bool restart = true; restart;) {
    restart = false;
    mtr_t mtr;
    mtr.start();
    page_no_t page_no = dict_index_get_page(index);
    ulint parent_level = ULINT_UNDEFINED;
    for (;;) {
      buf_block_t *block =
          btr_block_get(page_id_t(space, page_no), page_size, RW_S_LATCH,
                        UT_LOCATION_HERE, index, &mtr);
      const page_t *page = buf_block_get_frame(block);
      const ulint level = btr_page_get_level(page);
      check_below_parent(index, page_no, level, parent_level, &mtr);
      parent_level = level;
      const page_no_t siblings[] = {btr_page_get_prev(page, &mtr), page_no,
                                    btr_page_get_next(page, &mtr)};
      page_no_t child = FIL_NULL;
      if (level > 0) {
        page_cur_t page_cursor;
        if (tuple != nullptr) {
          page_cur_search(block, index, tuple, PAGE_CUR_LE, &page_cursor);
        } else if (from_left) {
          page_cur_set_before_first(block, &page_cursor);
          page_cur_move_to_next(&page_cursor);
        } else {
          page_cur_set_after_last(block, &page_cursor);
          page_cur_move_to_prev(&page_cursor);
        }
        const rec_t *rec = page_cur_get_rec(&page_cursor);
        if (page_rec_is_user_rec(rec)) {
          child = child_of(rec, index);
          DBUG_EXECUTE_IF("blink_finish_path_child_up",
                          child = dict_index_get_page(index););
        }
      }
      mtr.commit();

      /* The page and its siblings, then the left sibling's left
      neighbour: if that one is flagged, the left sibling has no node
      pointer, and a merge into it would look its father up
      (btr_check_node_ptr()). */
      page_no_t candidates[] = {siblings[0], siblings[1], siblings[2],
                                FIL_NULL /* set below, read after */};
      for (const page_no_t candidate : candidates) {
        if (candidate == FIL_NULL || candidate == dict_index_get_page(index)) {
          continue;
        }
        mtr.start();
        const page_t *candidate_page = buf_block_get_frame(
            latch_page(index, candidate, RW_S_LATCH, &mtr));
        check_on_level(index, candidate, candidate_page, level, &mtr,
                       "finishing the splits beside an exclusive path, X2");
        const bool flagged = is_flagged(candidate_page, index);
        if (candidate == siblings[0]) {
          candidates[3] = btr_page_get_prev(candidate_page, &mtr);
        }
        mtr.commit();
        if (flagged) {
          if (!finish_split(index, candidate)) {
            /* X3: no room to finish it (FS3); the structure change that
            follows fails as on a full tablespace. */
            blink_finish::set_unfinished(index);
            warn_unfinished(index, candidate);
            return;
          }
          restart = true;
          break;
        }
      }
      if (restart || child == FIL_NULL) {
        break;
      }
      mtr.start();
      page_no = child;
    }
  }
}

void btr_blink_lock_exclusive(dict_index_t *index, const dtuple_t *tuple,
                              bool from_left, mtr_t *mtr) {
  /* LO1: an S of this thread's would wait for this X forever (an SX, which
  rollback takes first, may become X); X2: its mini-transactions would
  wait for a page this one holds (IMPORT's purge holds its leaf, under
  Blink_finished_scope, where X2 does nothing). */
  ut_ad(!rw_lock_own(dict_index_get_lock(index), RW_LOCK_S));
  ut_ad(t_splits.finished == index || !latches_a_page(mtr));
  /* A pessimistic delete under X is not the one PD2 prepared. */
  btr_blink_delete_forget();
  mtr_x_lock(dict_index_get_lock(index), mtr, UT_LOCATION_HERE);
  /* X2's finishing is part of what the exclusive path holds X for. */
  latch_hold_index(index, mtr);
  btr_blink_finish_path(index, tuple, from_left);
}

ulint btr_blink_finish_all(dict_index_t *index) {
  ut_ad(index->blink);
  ut_ad(rw_lock_own(dict_index_get_lock(index), RW_LOCK_X));
  ulint n = 0;
  blink_finish::set_unfinished(nullptr);
  mtr_t mtr;
  mtr.start();
  const page_t *root = buf_block_get_frame(
      latch_page(index, dict_index_get_page(index), RW_S_LATCH, &mtr));
  const ulint height = btr_page_get_level(root);
  mtr.commit();

  /* From the leaves up: finishing a leaf split may split and flag pages
  of the levels above, which are walked later. */
  for (ulint level = 0; level < height; ++level) {
    /* The first page of the level: down the leftmost node pointers. */
    mtr.start();
    page_no_t page_no = dict_index_get_page(index);
    ulint parent_level = ULINT_UNDEFINED;
    for (;;) {
      buf_block_t *block = latch_page(index, page_no, RW_S_LATCH, &mtr);
      const page_t *page = buf_block_get_frame(block);
      check_below_parent(index, page_no, btr_page_get_level(page),
                         parent_level, &mtr);
      parent_level = btr_page_get_level(page);
      if (parent_level == level) {
        break;
      }
      page_no = child_of(page_rec_get_next_const(page_get_infimum_rec(page)),
                         index);
      mtr.commit();
      mtr.start();
    }
    mtr.commit();

    blink_chain::Cycle_check cycle(page_no);
    while (page_no != FIL_NULL) {
      mtr.start();
      const page_t *page = buf_block_get_frame(
          latch_page(index, page_no, RW_S_LATCH, &mtr));
      check_on_level(index, page_no, page, level, &mtr,
                     "finishing every split, X2");
      const bool flagged = is_flagged(page, index);
      page_no_t next = btr_page_get_next(page, &mtr);
      DBUG_EXECUTE_IF("blink_finish_all_link_cycle", next = page_no;);
      DBUG_EXECUTE_IF("blink_finish_all_foreign_link", next = 0;);
      mtr.commit();
      if (flagged) {
        if (finish_split(index, page_no)) {
          ++n;
          /* The page and its right half are complete now; the walk goes
          on from the page, whose right link may name a new page. */
          continue;
        }
        /* One that could not be finished (FS3) is left to the checks;
        the structure changes of a Blink_finished_scope fail (X3). */
        blink_finish::set_unfinished(index);
      }
      /* C2: under X nothing frees a page, so a page met twice closes a
      cycle of right links. */
      if (next != FIL_NULL && cycle.step(next)) {
        btr_blink_corrupt_stop(index, next, level,
                               "closes a cycle of right links",
                               "finishing every split, X2");
      }
      page_no = next;
    }
  }
  return n;
}

Blink_finished_scope::Blink_finished_scope(dict_index_t *index)
    : m_prev(t_splits.finished) {
  if (!index->blink) {
    return;
  }
  mtr_t mtr;
  mtr.start();
  mtr_x_lock(dict_index_get_lock(index), &mtr, UT_LOCATION_HERE);
  btr_blink_finish_all(index);
  mtr.commit();
  t_splits.finished = index;
}

Blink_finished_scope::~Blink_finished_scope() { t_splits.finished = m_prev; }

bool btr_blink_in_finished_scope(const dict_index_t *index) {
  return t_splits.finished == index;
}
