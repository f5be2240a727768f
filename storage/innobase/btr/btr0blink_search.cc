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

/** @file btr/btr0blink_search.cc
The descent of a B-link index to its leaf level without latch coupling:
one page latched at a time on the way down, move-right by the high key,
move-left for the searches that latch the left neighbour too, and the
descents to the first and last leaf.  The rules are in btr/README.blink.md:
D1..D8 under "Descent with move-right", LF1..LF3 under "Descents without the
index lock", G0 under "Merges and discards", C1..C3 under "Corrupt pages". */

#include "btr0blink.h"

#include "btr0blink_chain.h"
#include "btr0blink_epoch.h"
#include "btr0btr.h"
#include "btr0cur.h"
#include "btr0sea.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "dict0mem.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0cur.h"
#include "page0page.h"
#include "rem0cmp.h"
#include "srv0srv.h"
#include "sync0rw.h"
#include "ut0rnd.h"

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <utility>

namespace {

/** D3: whether a search in mode for a tuple that compares cmp with a
page's high key goes right.  On a tuple equal to the high key, GE and L
stay (every record of the page is below the high key, and a prefix tuple
equal to a longer high key may match records of this page); G and LE go
right, where records equal to the high key are.  The stock descent's
non-leaf modes (L for GE, LE for G) give the same answers. */
bool goes_right(int cmp, page_cur_mode_t mode) {
  return cmp > 0 || (cmp == 0 && (mode == PAGE_CUR_G || mode == PAGE_CUR_LE));
}

/** Compare tuple with a record of index (a high key, or a record that a
debug check reads), from the first field.
@param[in,out] offsets  rec's offsets, reused
@param[in,out] heap     for offsets, created if needed
@param[out]    matched  fields of tuple that match rec
@return as cmp_dtuple_rec_with_match_low() */
int compare_with_rec(const dict_index_t *index, const rec_t *rec,
                     const dtuple_t *tuple, ulint **offsets, mem_heap_t **heap,
                     ulint *matched) {
  *offsets = rec_get_offsets(rec, index, *offsets, ULINT_UNDEFINED,
                             UT_LOCATION_HERE, heap);
  *matched = 0;
  return cmp_dtuple_rec_with_match_low(
      tuple, rec, index, *offsets, dtuple_get_n_fields_cmp(tuple), matched);
}

/** C3: the index that a search inside a Blink_corruption_scope of this
thread found corrupt, not marked yet (btr_blink_mark_found_corrupt()). */
thread_local dict_index_t *t_found_corrupt{nullptr};

/** C3: log a corrupt index once: not when it is marked already, or about
to be (a search of the same statement found it first).
@param[in] page_no  the page found wrong
@param[in] level    the level the search expected there
@param[in] why      what was wrong
@param[in] context  which search found it */
void log_corrupt(const dict_index_t *index, page_no_t page_no, ulint level,
                 const char *why, const std::string &context) {
  if (index->is_corrupted() || t_found_corrupt == index) {
    return;
  }
  ib::error() << "B-link index " << index->name() << " of table "
              << index->table->name << " is corrupt: page " << page_no
              << ", expected at level " << level << ": " << why << " ("
              << context << "). The index is marked corrupted; CHECK TABLE"
              << " names it, and rebuilding it (or the table, for the"
              << " clustered index) repairs it.";
}

/** C3 for a search that cannot return an error: mark the index corrupted,
so that after the restart statements that use it fail instead of meeting
it again, and stop the server, as stock does for a corrupt page.  The
mark is written under the search's latches: nothing runs after it. */
void mark_and_stop(dict_index_t *index) {
  dict_set_corrupted(index);
  ib::fatal(UT_LOCATION_HERE)
      << "B-link index " << index->name() << " of table "
      << index->table->name << " is corrupt and this search cannot"
      << " return an error; it is marked corrupted, so that after the"
      << " restart statements that use it fail instead";
}

#ifdef UNIV_DEBUG
/** Whether this thread holds a latch that C3's mark must not wait under:
an index's lock, a page's or the adaptive hash index's.  Debug builds
record the owners of every rw-lock (innodb_sync_debug does not track page
latches); the scan of them all is for the rare corruption path only. */
bool holds_tree_latch() {
  bool held = false;
  mutex_enter(&rw_lock_list_mutex);
  for (const rw_lock_t *lock : rw_lock_list) {
    switch (lock->get_id()) {
      case LATCH_ID_INDEX_TREE:
      case LATCH_ID_BUF_BLOCK_LOCK:
      case LATCH_ID_BTR_SEARCH:
        held = rw_lock_own_flagged(
            lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X);
        break;
      default:
        break;
    }
    if (held) {
      break;
    }
  }
  mutex_exit(&rw_lock_list_mutex);
  return held;
}
#endif /* UNIV_DEBUG */

/** A page latched by the descent and where its latch sits in the mtr. */
struct Latched {
  buf_block_t *block{nullptr};
  ulint savepoint{0};

  const page_t *page() const { return buf_block_get_frame(block); }
  page_no_t page_no() const { return block->page.id.page_no(); }
};

/** D8: how many times a descent for a range estimate starts again rather
than move right; then it moves right as the other descents do. */
constexpr ulint ESTIMATE_RESTARTS = 3;

/** C1: more restarts than this mean a corrupt index.  Under D1 no page is
freed and a deleted page is not reused (PD5), so a page reached by an old
page number is what the descent expected except after a root raise, which
adds one level (at most one restart per level an index can have), or in D5
after a deletion of the leaf or its left neighbour between two of its
latches (one restart per such race, far fewer than the levels), plus D8's. */
constexpr ulint MAX_RESTARTS = BTR_MAX_LEVELS + ESTIMATE_RESTARTS;

/** What a descent found wrong last: the page, the level it expected there,
and why (C1..C3). */
struct Mismatch {
  page_no_t page_no{FIL_NULL};
  ulint level{0};
  const char *why{"too many restarts"};
};

/** Where a descent goes: to a search tuple, or to an end of the index. */
enum class Blink_target { KEY, FIRST, LAST };

/** One search of a B-link index down to its leaf level (README.blink.md,
D1..D8).  No X runs for its whole run: it holds index->lock in S (or the
caller does), or announces itself without the lock (LF1), so that no
exclusive merge or discard runs meanwhile (G0): the structure changes it can
meet are splits, inserts into a right sibling, deletions and merges to the
right, which move key ranges to the right only (S1, RS1, PD2, PD8). */
class Blink_descent {
 public:
  /** @param[in] target    KEY: the leaf for tuple and mode; FIRST, LAST:
                           the first or last leaf (D6), tuple nullptr
      @param[in] estimate  record the path for range estimates (D8)
      @param[in] level     the level to stop at: 0, or a non-leaf level
                           for the split cascade (SP3: KEY, PAGE_CUR_LE,
                           the page X-latched) */
  Blink_descent(Blink_target target, dict_index_t *index,
                const dtuple_t *tuple, page_cur_mode_t mode, ulint latch_mode,
                bool estimate, btr_cur_t *cursor, ut::Location location,
                mtr_t *mtr, ulint level = 0)
      : m_target(target),
        m_estimate(estimate),
        m_level(level),
        m_index(index),
        m_tuple(tuple),
        m_mode(mode),
        m_latch_mode(latch_mode),
        m_leaf_latch(level > 0 || latch_mode == BTR_MODIFY_LEAF ||
                             latch_mode == BTR_MODIFY_PREV
                         ? RW_X_LATCH
                         : RW_S_LATCH),
        m_with_left(latch_mode == BTR_SEARCH_PREV ||
                    latch_mode == BTR_MODIFY_PREV),
        m_writer(level == 0 && !estimate && m_leaf_latch == RW_X_LATCH),
        m_cursor(cursor),
        m_location(location),
        m_mtr(mtr),
        m_page_size(dict_table_page_size(index->table)) {
    /* As the stock search: no heap unless a record has many fields. */
    rec_offs_init(m_offsets_buf);
    m_offsets = m_offsets_buf;
  }

  ~Blink_descent() {
    if (m_heap != nullptr) {
      mem_heap_free(m_heap);
    }
  }

  Blink_descent(const Blink_descent &) = delete;
  Blink_descent &operator=(const Blink_descent &) = delete;

  /** Descend and position the cursor on the leaf level, the leaf latched
  in the mode asked for (and its left neighbour for the PREV modes), or on
  the level asked for.
  @return false if the index is corrupt (C1, C2, C3): no page is latched */
  bool run() {
    /* PD5: from the first page number read to the target's latch, no
    page this descent may reach is reused. */
    const blink_epoch::Guard epoch(btr_blink_epoch_slot());
    while (!descend()) {
      release_all();
      if (m_corrupt || m_restarts == MAX_RESTARTS) {
        return false;
      }
      btr_blink_stats.descent_restarts.fetch_add(1, std::memory_order_relaxed);
      ++m_restarts;
    }
    if (m_level == 0) {
      fill_leaf_cursor();
      if (m_writer) {
        btr_blink_writer_descended(m_index, m_flagged_passed);
      }
    }
    return true;
  }

  /** Report the corruption that made run() fail (C3): log it, mark the
  index corrupted, and leave the cursor on no page for the caller's
  Blink_corruption_scope, or stop the server if it has none.
  @param[in] may_return  false: stop the server even inside a scope */
  void report_corrupt(bool may_return = true);

 private:
  /** Remember l's page if it is the first page flagged as an incomplete
  split that this attempt passed: moved right from, or descended through
  (FS1). */
  void note_flagged(const Latched &l) {
    if (m_writer && m_flagged_passed == FIL_NULL &&
        (page_blink_get_flags(l.page(), m_index) &
         PAGE_BLINK_INCOMPLETE_SPLIT)) {
      m_flagged_passed = l.page_no();
    }
  }

  /** One attempt from the root.
  @return false if the descent must restart from the root (D4) */
  bool descend();

  /** The leaf phase of the PREV modes (D5).
  @return false if the descent must restart */
  bool latch_leaf_with_left(page_no_t leaf_no);

  /** PD3: whether a leaf that D5's walk did not find was deleted since:
  releases the walk's page and latches the leaf alone. */
  bool leaf_deleted(page_no_t leaf_no) {
    release(m_left);
    Latched leaf = latch(leaf_no, RW_S_LATCH, nullptr);
    const bool deleted = btr_blink_page_deleted(leaf.page(), m_index);
    release(leaf);
    return deleted;
  }

  /** Latch a page.  D2: the only page that may already be latched is the
  one whose right sibling this is (or, for the PREV modes, that page and
  its own left neighbour).
  @param[in] page_no   page number
  @param[in] rw_latch  RW_S_LATCH or RW_X_LATCH
  @param[in] left_of   the latched page whose right link is page_no, or
                       nullptr when no page of the index is latched */
  Latched latch(page_no_t page_no, ulint rw_latch, const Latched *left_of) {
    ut_ad(left_of == nullptr ? m_n_latched == 0
                             : btr_page_get_next(left_of->page(), m_mtr) ==
                                   page_no);
    Latched l;
    l.savepoint = mtr_set_savepoint(m_mtr);
    const bool root = page_no == dict_index_get_page(m_index);
    l.block = buf_page_get_gen(
        page_id_t(dict_index_get_space(m_index), page_no), m_page_size,
        rw_latch, root ? m_index->search_info->root_guess : nullptr,
        m_cursor->m_fetch_mode, m_location, m_mtr);
    buf_block_dbg_add_level(l.block, SYNC_TREE_NODE);
    if (root) {
      m_index->search_info->root_guess = l.block;
    }
    ++m_n_latched;
    return l;
  }

  void release(Latched &l) {
    ut_ad(m_n_latched > 0);
    mtr_release_block_at_savepoint(m_mtr, l.savepoint, l.block);
    l.block = nullptr;
    --m_n_latched;
  }

  void release_all() {
    for (Latched *l : {&m_cur, &m_left}) {
      if (l->block != nullptr) {
        release(*l);
      }
    }
    ut_ad(m_n_latched == 0);
  }

  /** D4: a page reached by a page number read earlier is an index page of
  this index at the expected level. */
  bool is_expected(const Latched &l, ulint level) const {
    const page_t *page = l.page();
    return fil_page_index_page_check(page) &&
           btr_page_get_index_id(page) == m_index->id &&
           btr_page_get_level(page) == level &&
           page_is_comp(page) == dict_table_is_comp(m_index->table);
  }

  /** is_expected(), remembering the page for report_corrupt() if not. */
  bool check(const Latched &l, ulint level) {
    if (is_expected(l, level)) {
      return true;
    }
    m_mismatch = {l.page_no(), level, "not an index page of this index at the"
                                      " level its page number was read for"};
    return false;
  }

  /** C2, C3: note a page whose links or records cannot be those of a sound
  index; the descent then fails without a restart. */
  bool corrupt(page_no_t page_no, ulint level, const char *why) {
    m_mismatch = {page_no, level, why};
    m_corrupt = true;
    return false;
  }

  /** D3: whether the tuple lies right of the page's key range; D6: whether
  the descent to the last leaf must move right (the page has a right
  sibling). */
  bool above_high_key(const Latched &l);

  /** D6: the page a descent to the first (last) leaf is on is the first
  (last) of its level. */
  bool at_end_of_level() const {
    return m_target == Blink_target::FIRST
               ? btr_page_get_prev(m_cur.page(), m_mtr) == FIL_NULL
               : btr_page_get_next(m_cur.page(), m_mtr) == FIL_NULL;
  }

  /** Non-leaf levels are searched with L for GE and LE for G, as in
  btr_cur_search_to_nth_level(). */
  page_cur_mode_t non_leaf_mode() const {
    return m_mode == PAGE_CUR_GE  ? PAGE_CUR_L
           : m_mode == PAGE_CUR_G ? PAGE_CUR_LE
                                  : m_mode;
  }

  /** Position the page cursor on the latched non-leaf page m_cur: on the
  node pointer to follow. */
  void search_node_ptr(page_cur_mode_t page_mode);

  /** Position the page cursor on m_cur, at level.
  @return whether a record of the page lies on the tuple's high side (the
  record after the cursor in L and LE, the cursor's in G and GE): then the
  tuple is not past the page's high key (HK2), with no need to compare
  them */
  bool search_page(ulint level);

  /** Record the page cursor's position for a range estimate (D8). */
  void add_path_info(ulint height) {
    if (m_estimate) {
      btr_cur_add_path_info(m_cursor, height, m_root_height);
    }
  }

  /** D3: latch m_cur's right sibling, then release m_cur (or keep it as
  m_left, the PREV modes, releasing the previous m_left).
  @param[in]     rw_latch   latch for the right page
  @param[in]     level      its level
  @param[in,out] cycle      the right links followed so far (C2)
  @return false if the descent must restart (D4, D8) or the index is
  corrupt (C2) */
  bool step_right(ulint rw_latch, ulint level, bool keep_left,
                  blink_chain::Cycle_check &cycle);

  /** D3: move right from m_cur while the tuple is above its high key,
  latching each right page before releasing the one left of it.
  @param[in] rw_latch   latch for the right pages
  @param[in] level      their level
  @param[in] keep_left  as step_right()
  @return false if a right page is not as expected (D4) */
  bool move_right(ulint rw_latch, ulint level, bool keep_left = false);

  /** Position the page cursor on the page of level that the descent has
  reached, moving right first where the tuple lies beyond a high key (D3).
  A key search searches the page first and compares the tuple with the
  high key only when no record of the page lies on its high side.
  @return as move_right() */
  bool settle(ulint rw_latch, ulint level, bool keep_left = false);

  /** Search the latched leaf with the caller's mode (or put the cursor at
  an end of it, D6). */
  void search_leaf_page();

  /** Fill the cursor's matched fields as the stock search does at the leaf
  level, once the leaf is settled. */
  void fill_leaf_cursor();

#ifdef UNIV_DEBUG
  /** D9: whether the leaf search left the cursor between the records
  that bound the tuple on its page, as the mode asks (L and LE on the
  last record of the low side, G and GE on the first of the high side;
  equal keys on the high side in L and GE, the low side in LE and G). */
  bool brackets(const page_cur_t *page_cursor);
#endif /* UNIV_DEBUG */

  const Blink_target m_target;
  const bool m_estimate;
  /** The level the descent stops at. */
  const ulint m_level;
  dict_index_t *const m_index;
  const dtuple_t *const m_tuple;
  const page_cur_mode_t m_mode;
  const ulint m_latch_mode;
  /** The latch the caller wants on the leaf (and its left neighbour). */
  const ulint m_leaf_latch;
  /** BTR_SEARCH_PREV or BTR_MODIFY_PREV: the left neighbour is latched
  too, left before right. */
  const bool m_with_left;
  /** A writer's descent to the leaves: it notes flagged pages (FS1). */
  const bool m_writer;
  btr_cur_t *const m_cursor;
  const ut::Location m_location;
  mtr_t *const m_mtr;
  const page_size_t m_page_size;

  /** The page the descent is on, and its left neighbour (PREV modes). */
  Latched m_cur;
  Latched m_left;
  ulint m_n_latched{0};
  ulint m_restarts{0};
  /** The last page found wrong, and whether it proves corruption at once
  (C2, C3) rather than after C1's restarts. */
  Mismatch m_mismatch;
  bool m_corrupt{false};
  /** The level of the root when the descent latched it. */
  ulint m_root_height{0};
  /** The first page flagged as an incomplete split that this attempt
  passed (FS1 for writers), or FIL_NULL. */
  page_no_t m_flagged_passed{FIL_NULL};

  /** Fields of the tuple that match the lower and upper bounds of the
  current page's keys: carried from level to level as the stock search
  does, replaced by the match with the high key when the page has one
  (above_high_key()).  The lower one is set aside while the child is
  searched (D9). */
  ulint m_up_match{0};
  ulint m_low_match{0};
  /** The leaf search's byte prefixes, for the adaptive hash index. */
  ulint m_up_bytes{0};
  ulint m_low_bytes{0};
  /** D9: the parent's lower bound, for a leaf search that finds no record
  of the leaf at or below the tuple. */
  ulint m_parent_low_match{0};

  mem_heap_t *m_heap{nullptr};
  ulint m_offsets_buf[REC_OFFS_NORMAL_SIZE];
  ulint *m_offsets{nullptr};
};

bool Blink_descent::above_high_key(const Latched &l) {
  const page_t *page = l.page();
  if (btr_blink_page_deleted(page, m_index)) {
    /* PD3: the page's range is its right sibling's now, whatever the
    target; PD1 never deletes the last page of a level. */
    if (btr_page_get_next(page, m_mtr) == FIL_NULL) {
      return corrupt(l.page_no(), btr_page_get_level(page),
                     "it left its level but has no right sibling (PD1)");
    }
    btr_blink_stats.deleted_passed.fetch_add(1, std::memory_order_relaxed);
    /* The right sibling's range begins where the parent's bound said this
    page's did; its upper bound is not known yet. */
    m_up_match = 0;
    return true;
  }
  if (btr_page_get_next(page, m_mtr) == FIL_NULL) {
    /* The rightmost page of its level: no upper bound. */
    return false;
  }
  switch (m_target) {
    case Blink_target::FIRST:
      /* The first page of a level keeps its lower end: splits put the
      new page on the right (S1), what moves range left waits for the
      descent (G0), and a deleted first page was handled above (PD3). */
      return false;
    case Blink_target::LAST:
      return true;
    case Blink_target::KEY:
      break;
  }
  /* HK1: a page with a right sibling has a high key; the root never has a
  right sibling (R1), so the B-link header is in use here (H1).  Without
  it the descent could stay left of its key and miss rows (C1). */
  const rec_t *hk = page_blink_get_hk_rec(page, m_index);
  DBUG_EXECUTE_IF("blink_descent_no_high_key", hk = nullptr;);
  if (hk == nullptr) {
    return corrupt(l.page_no(), btr_page_get_level(page),
                   "it has a right sibling but no high key (HK1)");
  }
  ulint matched;
  const int cmp =
      compare_with_rec(m_index, hk, m_tuple, &m_offsets, &m_heap, &matched);
  const bool right = goes_right(cmp, m_mode);
  /* The high key bounds the page's keys from above and the right
  sibling's from below (HK2, HK3): it replaces the bound the parent gave.
  Callers read the matched fields as matches with the records around the
  cursor, on this page or the next (row_ins_sec_index_entry_low() checks
  for duplicates when up_match reaches the unique fields), and a record
  beyond the high key matches no more fields of the tuple than the high
  key does. */
  if (right) {
    m_low_match = matched;
    m_up_match = 0;
  } else {
    m_up_match = matched;
  }
  return right;
}

bool Blink_descent::step_right(ulint rw_latch, ulint level, bool keep_left,
                               blink_chain::Cycle_check &cycle) {
  if (m_estimate && m_restarts < ESTIMATE_RESTARTS) {
    /* D8: a path that moved right disagrees with its parent's position,
    which the estimate would read as adjacent pages; a new descent reads
    the parents as the split left them. */
    return false;
  }
  /* FS1: a flagged page left for its right half, which lacks its node
  pointer (or has it, and the flag is about to be cleared). */
  note_flagged(m_cur);
  page_no_t right_no = btr_page_get_next(m_cur.page(), m_mtr);
  DBUG_EXECUTE_IF("blink_right_link_cycle", right_no = m_cur.page_no(););
  if (cycle.step(right_no)) {
    return corrupt(m_cur.page_no(), level, "its right links form a cycle");
  }
  Latched right = latch(right_no, rw_latch, &m_cur);
  if (!check(right, level)) {
    release(right);
    return false;
  }
  if (!keep_left) {
    release(m_cur);
  } else {
    if (m_left.block != nullptr) {
      release(m_left);
    }
    m_left = m_cur;
  }
  m_cur = right;
  btr_blink_stats.move_rights.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool Blink_descent::move_right(ulint rw_latch, ulint level, bool keep_left) {
  blink_chain::Cycle_check cycle(m_cur.page_no());
  while (above_high_key(m_cur)) {
    if (!step_right(rw_latch, level, keep_left, cycle)) {
      return false;
    }
  }
  return !m_corrupt;
}

bool Blink_descent::settle(ulint rw_latch, ulint level, bool keep_left) {
  if (m_target != Blink_target::KEY || keep_left) {
    /* The ends of a level (D6) and the PREV modes' leaf (D5). */
    if (!move_right(rw_latch, level, keep_left)) {
      return false;
    }
    search_page(level);
    return true;
  }
  blink_chain::Cycle_check cycle(m_cur.page_no());
  for (;;) {
    /* A deleted page has no records and its range is its right
    sibling's (PD3): above_high_key() moves on from it. */
    if (!btr_blink_page_deleted(m_cur.page(), m_index) && search_page(level)) {
      return true;
    }
    /* The tuple is above every record of the page: above the high key
    too, or it stays, its upper match now the high key's. */
    if (!above_high_key(m_cur)) {
      return !m_corrupt;
    }
    if (!step_right(rw_latch, level, false, cycle)) {
      return false;
    }
  }
}

bool Blink_descent::descend() {
  m_up_match = 0;
  m_low_match = 0;
  m_parent_low_match = 0;
  m_flagged_passed = FIL_NULL;

  const page_no_t root_no = dict_index_get_page(m_index);

  m_cur = latch(root_no, RW_S_LATCH, nullptr);
  /* C1: the root's page number comes from the dictionary, never stale. */
  if (!is_expected(m_cur, btr_page_get_level(m_cur.page())) ||
      btr_page_get_level(m_cur.page()) >= BTR_MAX_LEVELS) {
    return corrupt(root_no, btr_page_get_level(m_cur.page()),
                   "the root is not a root page of this index");
  }
  if (m_writer || m_level > 0) {
    /* LO4: only a writer's or the cascade's descent may be followed by a
    leveled split. */
    btr_blink_note_root(m_index, m_cur.page());
  }
  ulint height = btr_page_get_level(m_cur.page());
  m_cursor->tree_height = height + 1;
  m_root_height = height;

  ut_ad(height >= m_level);
  if (height == m_level) {
    /* The root is the page looked for. */
    if (m_leaf_latch != RW_S_LATCH) {
      release(m_cur);
      m_cur = latch(root_no, m_leaf_latch, nullptr);
      /* D4: a root raise between the two latches. */
      if (btr_page_get_level(m_cur.page()) != m_level) {
        return false;
      }
    }
    return settle(m_leaf_latch, m_level);
  }

  for (;;) {
    ut_ad(is_expected(m_cur, height));
    if (!settle(RW_S_LATCH, height)) {
      return false;
    }
    /* FS1: the page descended through (step_right() notes the ones it
    leaves). */
    note_flagged(m_cur);
    add_path_info(height);
    const rec_t *node_ptr = btr_cur_get_rec(m_cursor);
    /* The page's key range starts at its first node pointer's key (the
    separator it was reached by, S3, G4) or it is the leftmost page, whose
    first node pointer is the minimum record. */
    if (!page_rec_is_user_rec(node_ptr)) {
      return corrupt(m_cur.page_no(), height, "a non-leaf page has no record");
    }
    m_offsets = rec_get_offsets(node_ptr, m_index, m_offsets, ULINT_UNDEFINED,
                                UT_LOCATION_HERE, &m_heap);
    page_no_t child_no = btr_node_ptr_get_child_page_no(node_ptr, m_offsets);
    DBUG_EXECUTE_IF("blink_descent_stale_child", if (m_restarts == 0 &&
                                                     height == 1) {
      child_no = root_no;
    });
    DBUG_EXECUTE_IF("blink_descent_corrupt_child", if (height == 1) {
      child_no = root_no;
    });
    DBUG_EXECUTE_IF("blink_descent_corrupt_secondary",
                    if (height == 1 && !m_index->is_clustered()) {
                      child_no = root_no;
                    });

    if (m_writer && height == 1) {
      /* RS2: the leaf's parent, for an insert into its right sibling. */
      btr_blink_note_leaf_parent(m_index, m_cur.block);
    }
    /* D2: the parent is released before the child is latched. */
    release(m_cur);
    /* D9: meanwhile the child may take records from the left. */
    m_parent_low_match = std::exchange(m_low_match, 0);
    --height;
    /* blink_stress widens the window in which the child may split. */
    DBUG_EXECUTE_IF("blink_descent_yield", std::this_thread::yield(););

    if (height == m_level) {
      if (m_estimate) {
        DEBUG_SYNC_C("blink_estimate_leaf_named");
      } else if (m_level == 0) {
        DEBUG_SYNC_C("blink_descent_leaf_named");
      }
      if (m_with_left) {
        return latch_leaf_with_left(child_no);
      }
      m_cur = latch(child_no, m_leaf_latch, nullptr);
      return check(m_cur, m_level) && settle(m_leaf_latch, m_level);
    }

    m_cur = latch(child_no, RW_S_LATCH, nullptr);
    if (!check(m_cur, height)) {
      return false;
    }
  }
}

void Blink_descent::search_node_ptr(page_cur_mode_t page_mode) {
  page_cur_t *page_cursor = btr_cur_get_page_cur(m_cursor);
  switch (m_target) {
    case Blink_target::KEY:
      page_cur_search_with_match(m_cur.block, m_index, m_tuple, page_mode,
                                 &m_up_match, &m_low_match, page_cursor,
                                 nullptr);
      return;
    case Blink_target::FIRST:
      ut_ad(at_end_of_level());
      page_cur_set_before_first(m_cur.block, page_cursor);
      page_cur_move_to_next(page_cursor);
      return;
    case Blink_target::LAST:
      ut_ad(at_end_of_level());
      page_cur_set_after_last(m_cur.block, page_cursor);
      page_cur_move_to_prev(page_cursor);
      return;
  }
}

bool Blink_descent::latch_leaf_with_left(page_no_t leaf_no) {
  /* Find the leaf and read its left link, alone. */
  m_cur = latch(leaf_no, RW_S_LATCH, nullptr);
  if (!check(m_cur, 0) || !move_right(RW_S_LATCH, 0)) {
    return false;
  }
  leaf_no = m_cur.page_no();
  const page_no_t left_no = btr_page_get_prev(m_cur.page(), m_mtr);
  /* PD3: the walk below passes this page only if the leaf left its level
  meanwhile; it stops there instead of walking the rest of the level. */
  const page_no_t leaf_right = btr_page_get_next(m_cur.page(), m_mtr);
  release(m_cur);
  DEBUG_SYNC_C("blink_descent_left_named");

  if (left_no != FIL_NULL) {
    /* D5: latch the left neighbour; if it split since, its right link
    names a half of it: move right until the right link is the leaf. */
    m_left = latch(left_no, m_leaf_latch, nullptr);
    /* PD3: a left neighbour deleted since its number was read: read the
    leaf's left link again. */
    if (!check(m_left, 0) || btr_blink_page_deleted(m_left.page(), m_index)) {
      return false;
    }
    blink_chain::Cycle_check cycle(left_no);
    for (;;) {
      const page_no_t next = btr_page_get_next(m_left.page(), m_mtr);
      if (next == leaf_no) {
        break;
      }
      /* Under D1 the walk ends at the leaf: the pages between are halves
      of splits of the old left neighbour; unless the leaf was deleted
      since (PD3), and the walk reaches the leaf's right sibling (PD5: not
      reused meanwhile) or the end of the level: then start again. */
      if (next == FIL_NULL || next == leaf_right || cycle.step(next)) {
        return !leaf_deleted(leaf_no) &&
               corrupt(m_left.page_no(), 0,
                       "the right links from the left neighbour of a leaf"
                       " do not lead to the leaf");
      }
      Latched right = latch(next, m_leaf_latch, &m_left);
      if (!check(right, 0)) {
        release(right);
        return false;
      }
      release(m_left);
      m_left = right;
      btr_blink_stats.move_left_steps.fetch_add(1, std::memory_order_relaxed);
    }
  }

  m_cur = latch(leaf_no, m_leaf_latch, left_no == FIL_NULL ? nullptr : &m_left);
  /* The latched left neighbour cannot split, and no page is ever put to
  the left of the leftmost one, so the leaf's left link is the page we
  hold (or still none). */
  ut_ad(btr_page_get_prev(m_cur.page(), m_mtr) ==
        (m_left.block == nullptr ? FIL_NULL : m_left.page_no()));

  /* The leaf may have split while nothing was latched: move right, the
  leaf becoming the left neighbour. */
  return settle(m_leaf_latch, 0, true);
}

bool Blink_descent::search_page(ulint level) {
  const page_cur_mode_t mode = level > 0 ? non_leaf_mode() : m_mode;
  if (level > 0) {
    search_node_ptr(mode);
  } else {
    search_leaf_page();
  }
  const rec_t *rec = btr_cur_get_page_cur(m_cursor)->rec;
  return page_rec_is_user_rec(mode == PAGE_CUR_L || mode == PAGE_CUR_LE
                                  ? page_rec_get_next_const(rec)
                                  : rec);
}

void Blink_descent::search_leaf_page() {
  page_cur_t *page_cursor = btr_cur_get_page_cur(m_cursor);

  if (m_target != Blink_target::KEY) {
    ut_ad(at_end_of_level());
    if (m_target == Blink_target::FIRST) {
      page_cur_set_before_first(m_cur.block, page_cursor);
    } else {
      page_cur_set_after_last(m_cur.block, page_cursor);
    }
    return;
  }

  m_up_bytes = 0;
  m_low_bytes = 0;
  if (btr_search_enabled) {
    /* The byte prefixes serve the adaptive hash index only. */
    page_cur_search_with_match_bytes(m_cur.block, m_index, m_tuple, m_mode,
                                     &m_up_match, &m_up_bytes, &m_low_match,
                                     &m_low_bytes, page_cursor);
  } else {
    page_cur_search_with_match(m_cur.block, m_index, m_tuple, m_mode,
                               &m_up_match, &m_low_match, page_cursor,
                               nullptr);
  }
}

void Blink_descent::fill_leaf_cursor() {
  btr_cur_t *cursor = m_cursor;
  page_cur_t *page_cursor = btr_cur_get_page_cur(cursor);

  if (m_target != Blink_target::KEY) {
    /* As btr_cur_open_at_index_side(): no matched fields, no AHI. */
    add_path_info(0);
    return;
  }

  if (page_rec_is_infimum(page_cur_get_rec(page_cursor))) {
    /* D9: the record before the cursor is on a page to the left, below
    the parent's lower bound: it matches no more fields than that. */
    m_low_match = std::max(m_low_match, m_parent_low_match);
  }
  ut_ad(brackets(page_cursor));
  cursor->low_match = m_low_match;
  cursor->low_bytes = m_low_bytes;
  cursor->up_match = m_up_match;
  cursor->up_bytes = m_up_bytes;
  cursor->left_block = m_left.block;
  add_path_info(0);

  if (btr_search_enabled && !m_index->disable_ahi) {
    btr_search_info_update(cursor);
  }
  ut_ad(cursor->up_match != ULINT_UNDEFINED || m_mode != PAGE_CUR_GE);
  ut_ad(cursor->up_match != ULINT_UNDEFINED || m_mode != PAGE_CUR_LE);
  ut_ad(cursor->low_match != ULINT_UNDEFINED || m_mode != PAGE_CUR_LE);
}

#ifdef UNIV_DEBUG
bool Blink_descent::brackets(const page_cur_t *page_cursor) {
  const rec_t *rec = page_cursor->rec;
  const bool on_low_side = m_mode == PAGE_CUR_L || m_mode == PAGE_CUR_LE;
  const bool equal_high = m_mode == PAGE_CUR_L || m_mode == PAGE_CUR_GE;
  if (!on_low_side && m_mode != PAGE_CUR_G && m_mode != PAGE_CUR_GE) {
    return true;
  }
  const rec_t *low = on_low_side ? rec : page_rec_get_prev_const(rec);
  const rec_t *high = on_low_side ? page_rec_get_next_const(rec) : rec;
  ulint matched;
  if (page_rec_is_user_rec(low)) {
    const int cmp = compare_with_rec(m_index, low, m_tuple, &m_offsets,
                                     &m_heap, &matched);
    if (equal_high ? cmp <= 0 : cmp < 0) {
      return false;
    }
  }
  if (page_rec_is_user_rec(high)) {
    const int cmp = compare_with_rec(m_index, high, m_tuple, &m_offsets,
                                     &m_heap, &matched);
    if (equal_high ? cmp > 0 : cmp >= 0) {
      return false;
    }
  }
  return true;
}
#endif /* UNIV_DEBUG */

void Blink_descent::report_corrupt(bool may_return) {
  ut_ad(m_n_latched == 0);
  m_cursor->page_cur.block = nullptr;
  m_cursor->page_cur.rec = nullptr;
  log_corrupt(m_index, m_mismatch.page_no, m_mismatch.level, m_mismatch.why,
              "after " + std::to_string(m_restarts) +
                  " restarts of the descent");
  if (may_return && Blink_corruption_scope::report()) {
    /* C3: the caller may still hold latches in its mini-transaction
    (index->lock in S for online DDL, a secondary leaf for the clustered
    lookup), and the mark waits for a redo flush: it is written after the
    caller's commit, before the error leaves the caller. */
    ut_ad(t_found_corrupt == nullptr || t_found_corrupt == m_index);
    t_found_corrupt = m_index;
    return;
  }
  mark_and_stop(m_index);
}

/** LF1: announce a descent of index without its lock, unless an X holds or
has reserved the lock; the caller then takes S (D1).
@return whether the descent is announced */
bool announce_unlocked(dict_index_t *index) {
  rw_lock_t *lock = dict_index_get_lock(index);
  /* LF3: marked before the announcement, which the X's load of the mark
  then follows in the single total order, or the X is seen below. */
  if (!lock->unlocked_readers.load()) {
    lock->unlocked_readers.store(true);
  }
  blink_epoch::Thread_slot &slot = btr_blink_epoch_slot();
  slot.enter_unlocked(lock);
  /* An X granted, or reserved while it waits for S holders to leave. */
  if (lock->lock_word.load() > 0) {
    return true;
  }
  slot.leave_unlocked();
  btr_blink_stats.locked_descents.fetch_add(1, std::memory_order_relaxed);
  return false;
}

/** Run a descent without index->lock (LF1) or under it in S (D1), unless
the caller or this thread's holder (LO1: SP2, EX1) holds the lock, and
release the lock once the leaf is latched, as the stock leaf searches do;
report a corrupt index (C3) once the lock is released. */
void run_under_s_lock(Blink_descent &descent, dict_index_t *index,
                      bool s_latch_by_caller, mtr_t *mtr) {
  const bool take_lock = !s_latch_by_caller && !srv_read_only_mode &&
                         !btr_blink_holds_s(index);
  bool found;
  if (take_lock && srv_btree_blink_unlocked_descents &&
      announce_unlocked(index)) {
    blink_epoch::Thread_slot &slot = btr_blink_epoch_slot();
    const blink_epoch::Unlocked_guard unlocked(slot);
    ut_ad(slot.unlocked() == dict_index_get_lock(index));
    DEBUG_SYNC_C("blink_descent_unlocked");
    found = descent.run();
  } else {
    const ulint savepoint = mtr_set_savepoint(mtr);
    if (take_lock) {
      mtr_s_lock(dict_index_get_lock(index), mtr, UT_LOCATION_HERE);
    }
    ut_ad(srv_read_only_mode ||
          rw_lock_own_flagged(dict_index_get_lock(index),
                              RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX |
                                  RW_LOCK_FLAG_X));
    found = descent.run();
    if (take_lock) {
      mtr_release_s_latch_at_savepoint(mtr, savepoint,
                                       dict_index_get_lock(index));
    }
  }
  if (!found) {
    descent.report_corrupt();
  }
}

}  // namespace

bool srv_btree_blink_unlocked_descents = true;

void btr_blink_wait_for_unlocked_descents(const rw_lock_t *lock) {
  const blink_epoch::Registry &epochs = btr_blink_epochs();
  /* A thread never asks for X inside its own unlocked descent: it would
  wait for itself. */
  ut_ad(btr_blink_epoch_slot().unlocked() != lock);
  if (!epochs.announced_unlocked(lock)) {
    return;
  }
  btr_blink_stats.exclusive_drains.fetch_add(1, std::memory_order_relaxed);
  /* A descent latches a page or two at a time and may wait for a page
  read: spin as for a lock, yield, then sleep. */
  constexpr ulint YIELDS = 100;
  const auto start = std::chrono::steady_clock::now();
  bool warned = false;
  for (ulint i = 0; epochs.announced_unlocked(lock); ++i) {
    if (i < srv_n_spin_wait_rounds) {
      ut_delay(ut::random_from_interval_fast(0, srv_spin_wait_delay));
    } else if (i < srv_n_spin_wait_rounds + YIELDS) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      if (!warned &&
          std::chrono::steady_clock::now() - start > std::chrono::seconds(1)) {
        /* Not in the sync array: the semaphore monitor does not see it. */
        ib::warn() << "An X on the lock of a B-link index has waited 1 s"
                   << " for descents that run without the lock"
                   << " (btr/README.blink.md LF2)";
        warned = true;
      }
    }
  }
}

void btr_blink_mark_found_corrupt() {
  dict_index_t *index = t_found_corrupt;
  if (index == nullptr) {
    return;
  }
  t_found_corrupt = nullptr;
  /* C3: the caller has committed; the redo flush of the mark holds up no
  other thread. */
  ut_ad(!holds_tree_latch());
  dict_set_corrupted(index);
}

void btr_blink_corrupt_stop(dict_index_t *index, page_no_t page_no,
                            ulint level, const char *why,
                            const char *context) {
  log_corrupt(index, page_no, level, why, context);
  mark_and_stop(index);
}

bool btr_blink_search_leaf(dict_index_t *index, const dtuple_t *tuple,
                           page_cur_mode_t mode, ulint latch_mode,
                           bool estimate, bool s_latch_by_caller,
                           btr_cur_t *cursor, ut::Location location,
                           mtr_t *mtr) {
  ut_ad(index->blink);
  switch (latch_mode) {
    case BTR_SEARCH_LEAF:
    case BTR_MODIFY_LEAF:
    case BTR_SEARCH_PREV:
    case BTR_MODIFY_PREV:
      break;
    default:
      return false;
  }
  ut_ad(mode == PAGE_CUR_GE || mode == PAGE_CUR_G || mode == PAGE_CUR_LE ||
        mode == PAGE_CUR_L);

  Blink_descent descent(Blink_target::KEY, index, tuple, mode, latch_mode,
                        estimate, cursor, location, mtr);
  run_under_s_lock(descent, index, s_latch_by_caller, mtr);
  return true;
}

void btr_blink_search_level(dict_index_t *index, ulint level,
                            const dtuple_t *tuple, btr_cur_t *cursor,
                            ut::Location location, mtr_t *mtr) {
  ut_ad(index->blink);
  ut_ad(level > 0);
  ut_ad(rw_lock_own_flagged(dict_index_get_lock(index),
                            RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  cursor->index = index;
  Blink_descent descent(Blink_target::KEY, index, tuple, PAGE_CUR_LE,
                        BTR_MODIFY_LEAF, false, cursor, location, mtr, level);
  if (!descent.run()) {
    /* A split half published cannot be taken back (SP3). */
    descent.report_corrupt(false);
  }
}

bool btr_blink_open_at_side(bool from_left, dict_index_t *index,
                            ulint latch_mode, bool estimate,
                            bool s_latch_by_caller, btr_cur_t *cursor,
                            ut::Location location, mtr_t *mtr) {
  ut_ad(index->blink);
  if (latch_mode != BTR_SEARCH_LEAF && latch_mode != BTR_MODIFY_LEAF) {
    return false;
  }
  cursor->index = index;
  Blink_descent descent(from_left ? Blink_target::FIRST : Blink_target::LAST,
                        index, nullptr, PAGE_CUR_GE, latch_mode, estimate,
                        cursor, location, mtr);
  run_under_s_lock(descent, index, s_latch_by_caller, mtr);
  return true;
}

bool btr_blink_right_of_high_key(const dict_index_t *index, const page_t *page,
                                 const dtuple_t *tuple, page_cur_mode_t mode,
                                 mtr_t *mtr) {
  if (btr_page_get_next(page, mtr) == FIL_NULL) {
    return false;
  }
  const rec_t *hk = page_blink_get_hk_rec(page, index);
  /* HK1: a page with a right sibling has a high key. */
  ut_ad(hk != nullptr);
  if (hk == nullptr) {
    return false;
  }
  mem_heap_t *heap = nullptr;
  ulint offsets_[REC_OFFS_NORMAL_SIZE];
  rec_offs_init(offsets_);
  ulint *offsets = offsets_;
  ulint matched;
  const int cmp =
      compare_with_rec(index, hk, tuple, &offsets, &heap, &matched);
  if (heap != nullptr) {
    mem_heap_free(heap);
  }
  return goes_right(cmp, mode);
}
