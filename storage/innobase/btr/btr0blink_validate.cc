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

/** @file btr/btr0blink_validate.cc
 The B-link validator, modelled on PostgreSQL amcheck's bt_index_parent_check
 (README.blink.md, "Validator"), with a count of the pages of the index's
 file segments against the pages its levels reach (A1).

 The walk
 --------
 The root is checked on its own (R1, and as any page).  Then the tree is
 walked top-down one pair of levels at a time: the parent level L from its
 leftmost page along its right links and, in lockstep, the child level L-1
 along its right links from its leftmost page, which is the first downlink
 of the leftmost parent.  For each parent page we S-latch it, copy its node
 pointers (child page number, key, minimum-record flag) and its high key,
 and release it; then, for each downlink, the next page of the child chain
 must be the downlink's child (DL1, L1), and it is checked on its own
 (check_page_alone(): order, HK1, HK2, F1, header, level), against its left
 neighbour (left link, HK4) and against what the parent says of it (HK3:
 its high key is the next downlink's key, or the parent's own high key for
 the parent's last child; its first record is not below its node pointer).
 The only pages of the child chain that come without a downlink are right
 siblings of pages flagged INCOMPLETE_SPLIT (DL1): such a page is checked
 in the place of the downlink it does not have yet, bounded below by the
 flagged page's high key and above by the flagged page's bound.
 Each level is walked twice, as the child level and then as the parent
 level; the second walk only copies node pointers (the pages were checked
 in the first one and cannot have changed since, see below).

 Cycles: a level of the index cannot have more pages than the tablespace
 has, so a walk of a level that reaches more pages than that is going round
 in circles (L1).  This replaces a set of every page number seen.

 Memory
 ------
 Nothing the walk keeps grows with the index.  It holds at any time:
 * the node pointers of one parent page, in one heap emptied for each
   parent page (m_parent_heap) and one vector (m_parent.ptrs): for each of
   the page's N records, a dtuple_t of n + 1 fields
   (n = dict_index_get_n_unique_in_tree_nonleaf(index)), its 4-byte child
   field, a copy of its key bytes, and a Node_ptr.  With key field lengths
   len_1..len_n that is, per node pointer,
     align8(DTUPLE_EST_ALLOC(n + 1)) + 8 + sum(align8(len_i))
     + (n + 2) * 2 * MEM_NO_MANS_LAND + sizeof(Node_ptr)
   bytes (MEM_NO_MANS_LAND is 0 in release builds, 16 in debug builds),
   plus the same for the parent's high key, plus the heap's block headers.
   The key bytes of the N records are less than one page, and N is less
   than UNIV_PAGE_SIZE / 9 (a node pointer has at least a 5-byte header and
   a 4-byte child), so this is one page of node-pointer keys and their
   descriptors, whatever the size of the index.  The vector keeps the
   capacity of the largest parent page seen;
 * per level, a constant: the last key of the previous page (HK4), the
   lower bound of the right half of an incomplete split, a page counter;
 * per page, the key and offsets of one record at a time (a scratch heap
   emptied per record).
 The debug-only modify clock observation (MC1, opt-in by DBUG keyword) is
 the exception: it remembers every page it is asked to record.

 Locking, and why the checks are exact
 -------------------------------------
 The index lock is held in X for the whole walk (stock CHECK TABLE's
 btr_validate_index(index, trx, false) holds SX, which B-link indexes raise
 to X too).  Every change of a non-leaf page, of a sibling link, of a high
 key or of a B-link flag is a structure change that holds the index lock:
 in S the splits published level by level (SP1..SP4), inserts into a right
 sibling (RS1), deletions and merges to the right (PD2, PD8); in X
 everything else: the exclusive path's splits (X1), root raises, merges
 and discards (G1..G3), separator changes (G4), lifts (G5).  X excludes
 them all.  So for the whole walk the non-leaf levels, every link, every high
 key and every flag are frozen: what the walk copied from a parent page in
 one mini-transaction is still true when the children are checked in
 later ones, and every check that involves only these is exact.  So are
 the page counts of the index's file segments that A1 compares with the
 pages the walk reached, with one exception: pages are allocated and freed
 by structure changes and by writes, rollbacks and purges of externally
 stored columns, all under the index lock, except the first pages of externally
 stored columns, which purge frees at the end of a batch without the index
 lock (purge_node_t::free_lob_pages()), and which stay allocated until
 then, after their record is gone.  So for a clustered index with columns
 that may be stored externally the leaf segment's count is only a lower
 bound.

 What changes concurrently is the records of leaves: optimistic inserts,
 delete-marks, updates, and optimistic deletes by purge and rollback run
 with the one leaf they change X-latched, announced (LF1) or under the
 index lock in S.  None of them can empty a leaf: the delete that would
 empty or under-fill a non-root leaf goes to the pessimistic path
 (btr_blink_delete_changes_tree(), stock's
 btr_cur_can_delete_without_compress()), BTR_MODIFY_TREE, which holds the
 index lock in S or X (PD2, X1) and so waits for the walk's X; nor can they
 change a leaf's links, high key or flags.  (A leaf
 reorganize inside an optimistic insert takes the high key off and puts it
 back in one mini-transaction, under the page's X latch, so no S-latched
 reader sees the difference.)

 Each page is checked while it is S-latched, in one mini-transaction, so
 all the checks of one page see one consistent state of it: they are exact
 even on leaves.  The checks of a leaf against the level above compare its
 current records with node pointers, which are frozen: exact too.  The one
 check that compares a leaf with what an earlier mini-transaction saw of
 another leaf is HK4 on the leaf level; check_page_in_tree() says why it
 gives no false positive, and that it may miss a violation, as amcheck's
 bt_index_check may. */

#include "btr0blink.h"
#include "btr0blink_finish.h"
#include "btr0blink_reserve.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "btr0btr.h"
#include "btr0cur.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "fil0fil.h"
#include "fsp0fsp.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink.h"
#include "page0page.h"
#include "rem0cmp.h"
#include "srv0srv.h"
#include "trx0trx.h"

#ifdef UNIV_DEBUG
#include "debug_sync.h"
#endif /* UNIV_DEBUG */

#ifdef UNIV_DEBUG
bool srv_btree_blink_validate_debug = false;
bool srv_btree_blink_validate_online_debug = false;
#endif /* UNIV_DEBUG */

namespace {

/** A violation: ends the walk, carries the message. */
struct Violation {
  std::string msg;
};

/** The statement was killed: ends the walk, reports nothing (as stock
btr_validate_level() does). */
struct Interrupted {};

/** What a page must look like, known from its parent (or, for the root,
from nothing). */
struct Expected {
  page_no_t page_no;
  /** its node pointer's key: the page's lower bound (nullptr: none) */
  const dtuple_t *low;
  /** the high key it must have (nullptr: none, it is the rightmost) */
  const dtuple_t *high;
};

/** A node pointer of the parent page being walked, copied out of it. */
struct Node_ptr {
  /** the child page number */
  page_no_t child;
  /** the key, in Validator::m_parent_heap */
  const dtuple_t *key;
  /** whether the record has REC_INFO_MIN_REC_FLAG (the first node pointer
  of the leftmost page of a level): the child has no lower bound */
  bool min_rec;
};

/** A mini-transaction for one step of the walk: it holds the latches of
the pages of that step and releases them when it goes out of scope, also
when a check throws. */
class Scoped_mtr {
 public:
  Scoped_mtr() { m_mtr.start(); }
  ~Scoped_mtr() { m_mtr.commit(); }

  Scoped_mtr(const Scoped_mtr &) = delete;
  Scoped_mtr &operator=(const Scoped_mtr &) = delete;

  mtr_t *get() { return &m_mtr; }

 private:
  mtr_t m_mtr;
};

#ifdef UNIV_DEBUG
/** MC1 observed (README.blink.md): what a walk saw of a page. */
struct Page_seen {
  page_id_t page_id;
  /** the block the page was in: a page evicted and read again is in a
  block whose clock has nothing to do with the old one, so it is not
  compared */
  const buf_block_t *block;
  uint64_t modify_clock;
  page_no_t next;
  uint16_t flags;
  /** the bytes of the high key, empty if none */
  std::vector<byte> hk;
};

/** The pages seen by the last recording walk of each index, by (index id,
page number).  Debug builds only, filled only on request. */
std::map<std::pair<space_index_t, page_no_t>, Page_seen> pages_seen;
/** Protects pages_seen: walks of different indexes may run at once. */
std::mutex pages_seen_mutex;
#endif /* UNIV_DEBUG */

/** Frees a memory heap. */
struct Heap_free {
  void operator()(mem_heap_t *heap) const { mem_heap_free(heap); }
};
using Heap = std::unique_ptr<mem_heap_t, Heap_free>;

Heap new_heap() { return Heap(mem_heap_create(1024, UT_LOCATION_HERE)); }

/** Key of a record (leaf or node pointer, or a high key) as a tuple that
owns its data: the fields a node pointer built from it would carry. */
const dtuple_t *key_of(const dict_index_t *index, const rec_t *rec,
                       ulint level, mem_heap_t *heap) {
  return dict_index_build_node_ptr(index, rec, 0, heap, level);
}

/** Compare a key with a record: <0, 0, >0 as cmp_dtuple_rec(). */
int cmp_key(const dict_index_t *index, const dtuple_t *key, const rec_t *rec,
            mem_heap_t *heap) {
  ulint offsets_[REC_OFFS_NORMAL_SIZE];
  rec_offs_init(offsets_);
  const ulint *offsets = rec_get_offsets(rec, index, offsets_, ULINT_UNDEFINED,
                                         UT_LOCATION_HERE, &heap);
  return cmp_dtuple_rec(key, rec, index, offsets);
}

/** A page number for a message: FIL_NULL is "none". */
std::string page_str(page_no_t page_no) {
  return page_no == FIL_NULL ? std::string("none") : std::to_string(page_no);
}

/** The first and the last user record of a page, both nullptr if it has
none (only a root leaf may be empty). */
struct Records {
  const rec_t *first{nullptr};
  const rec_t *last{nullptr};
};

/** The checks both walks make, each proving one rule of README.blink.md,
"Invariants", with one message per violation.  A check fails by throwing
Violation; a walk's messages end with its suffix. */
class Page_checks {
 protected:
  /** @param[in] index   the index to check
  @param[in] trx     the statement, or nullptr
  @param[in] suffix  the end of every message of the walk */
  Page_checks(dict_index_t *index, const trx_t *trx, const char *suffix)
      : m_index(index),
        m_trx(trx),
        m_suffix(suffix),
        m_page_size(dict_table_page_size(index->table)),
        m_root_no(dict_index_get_page(index)) {
    read_max_pages();
  }

  /** Report a violation on a page: ends the walk. */
  [[noreturn]] void fail(page_no_t page_no, ulint level,
                         const std::string &what) const {
    std::ostringstream s;
    s << "B-link index " << m_index->name() << " of table "
      << m_index->table->name << ": page " << page_no << " (level " << level
      << "): " << what << m_suffix;
    throw Violation{s.str()};
  }

  /** Throw Interrupted if the statement was killed. */
  void check_interrupted() const {
    if (m_trx != nullptr && trx_is_interrupted(m_trx)) {
      throw Interrupted{};
    }
  }

  /** The high key of a page, or nullptr.  H1: a root's header bytes are
  its segment headers, never a B-link header (R1 holds by definition). */
  const rec_t *hk_of(const page_t *page) const {
    return page_blink_get_hk_rec(page, m_index);
  }

  /** The B-link flags of a page (0 on the root, H1). */
  uint16_t flags_of(const page_t *page) const {
    return page_blink_get_flags(page, m_index);
  }

  /** L1, the chain of a level ends: count a page of a level and fail if the
  level has more pages than the tablespace, which only a cycle in the right
  links can make.  The pages of a level are distinct pages of the
  tablespace; the online walk's splits may grow the file meanwhile, so its
  size is read again before a long level is called a cycle.
  @param[in]     page_no  the page about to be visited
  @param[in]     level    its level
  @param[in,out] n_pages  pages of the level visited so far */
  void check_level_chain_ends(page_no_t page_no, ulint level,
                              page_no_t *n_pages) {
    if (++*n_pages <= m_max_pages) {
      return;
    }
    read_max_pages();
    if (*n_pages > m_max_pages) {
      fail(page_no, level, "cycle in the right links (L1)");
    }
  }

  /** What one S-latched page proves alone, in one consistent state of it:
  an index page of this index on its level (L1), a consistent B-link header
  (README.blink.md, "Page format"), F1, HK1, no empty page but a root leaf,
  its records in order and HK2.
  @param[in] page   the page, S-latched
  @param[in] level  the level it must be on
  @return its first and last user records */
  Records check_page_alone(const page_t *page, ulint level) {
    const page_no_t page_no = page_get_page_no(page);
    if (!page_is_comp(page) || fil_page_get_type(page) != FIL_PAGE_INDEX ||
        btr_page_get_index_id(page) != m_index->id) {
      fail(page_no, level, "not an index page of this index");
    }
    check_page_level(page, level);
    ulint hk_size;
    if (!page_blink_validate_hk(page, m_index, &hk_size)) {
      fail(page_no, level, "inconsistent B-link header (see the error log)");
    }
    check_room_for_high_key(page, level);
    check_high_key_iff_sibling(page, level);
    /* PD2: a deleted page leaves its level in the mini-transaction that
    flags it; none is reachable along the links. */
    if (btr_blink_page_deleted(page, m_index)) {
      fail(page_no, level, "is in its level but flagged deleted (PD2)");
    }

    Records recs;
    recs.first = page_rec_get_next_const(page_get_infimum_rec(page));
    if (page_rec_is_supremum(recs.first)) {
      /* Only a root leaf may be empty: other pages leave their level with
      their last record, deleted (PD2, in one mini-transaction, which the
      walk's page latches see whole) or discarded under the index lock in X,
      which neither walk lets run (see the file comment). */
      if (level > 0 || page_no != m_root_no) {
        fail(page_no, level, "has no records");
      }
      return Records{};
    }
    recs.last = check_records_below_high_key(page, recs.first, level);
    return recs;
  }

  /** L1: a page is on the level of its chain.
  @param[in] page   the page, S-latched
  @param[in] level  the level of the chain it was reached on */
  void check_page_level(const page_t *page, ulint level) const {
    if (btr_page_get_level(page) != level) {
      std::ostringstream s;
      s << "has PAGE_LEVEL " << btr_page_get_level(page) << " (L1)";
      fail(page_get_page_no(page), level, s.str());
    }
  }

  /** F1: room for the longest high key of the index, the current high key
  counting as part of it.  The root never has a high key (R1).
  @param[in] page   the page, S-latched
  @param[in] level  its level */
  void check_room_for_high_key(const page_t *page, ulint level) const {
    if (page_get_page_no(page) == m_root_no ||
        btr_blink_page_room_ok(m_index, page)) {
      return;
    }
    std::ostringstream s;
    s << "has room for a high key of "
      << page_get_max_insert_size_after_reorganize(page, 1) +
             page_blink_get_hk(page, m_index).rec_size()
      << " bytes, its index needs " << btr_blink_node_ptr_max_size(m_index)
      << " (F1)";
    fail(page_get_page_no(page), level, s.str());
  }

  /** HK1: a page has a high key if and only if it has a right sibling.
  @param[in] page   the page, S-latched
  @param[in] level  its level */
  void check_high_key_iff_sibling(const page_t *page, ulint level) const {
    const bool has_hk = hk_of(page) != nullptr;
    if (has_hk != (mach_read_from_4(page + FIL_PAGE_NEXT) != FIL_NULL)) {
      fail(page_get_page_no(page), level,
           has_hk ? "has a high key but no right sibling (HK1)"
                  : "has a right sibling but no high key (HK1)");
    }
  }

  /** HK2, and the records in order: every record is above the one before
  it and below the high key, at most equal to it on leaves.
  @param[in] page   the page, S-latched
  @param[in] rec    its first user record
  @param[in] level  its level
  @return its last user record */
  const rec_t *check_records_below_high_key(const page_t *page,
                                            const rec_t *rec, ulint level) {
    const rec_t *hk = hk_of(page);
    mem_heap_t *scratch = m_scratch.get();
    const rec_t *prev = nullptr;
    for (; !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
      mem_heap_empty(scratch);
      const dtuple_t *key = key_of(m_index, rec, level, scratch);
      if (prev != nullptr && cmp_key(m_index, key, prev, scratch) <= 0) {
        fail(page_get_page_no(page), level, "records out of order");
      }
      if (hk != nullptr) {
        const int c = cmp_key(m_index, key, hk, scratch);
        if (c > 0 || (c == 0 && level > 0)) {
          fail(page_get_page_no(page), level,
               "a record is above the high key (HK2)");
        }
      }
      prev = rec;
    }
    return prev;
  }

  /** L1: a page's left link is the page before it on its level.
  @param[in] page_no  the page
  @param[in] level    its level
  @param[in] prev     its left link
  @param[in] left_no  the page before it on the level, FIL_NULL if none */
  void check_left_link(page_no_t page_no, ulint level, page_no_t prev,
                       page_no_t left_no) const {
    if (prev != left_no) {
      std::ostringstream s;
      s << "left link is " << page_str(prev) << ", expected "
        << page_str(left_no) << " (L1)";
      fail(page_no, level, s.str());
    }
  }

  /** HK4: a page's first record is above the last record of the page
  before it on its level.  Does not empty m_scratch, which may hold
  left_last.
  @param[in] left_no    the page before it
  @param[in] left_last  the key of that page's last user record, or
                        nullptr if there is no page before it
  @param[in] first      the page's first user record
  @param[in] page_no    the page
  @param[in] level      its level */
  void check_siblings_in_order(page_no_t left_no, const dtuple_t *left_last,
                               const rec_t *first, page_no_t page_no,
                               ulint level) const {
    if (left_last != nullptr &&
        cmp_key(m_index, left_last, first, m_scratch.get()) >= 0) {
      std::ostringstream s;
      s << "first record is not above the last record of page " << left_no
        << " (HK4)";
      fail(page_no, level, s.str());
    }
  }

  /** HK3, the lower end of a page's range: its first record is not below
  its separator, or what stands for it.  Does not empty m_scratch, which
  may hold low.
  @param[in] low      the lower bound, or nullptr if there is none
  @param[in] low_is   what the lower bound is, for the message
  @param[in] first    the page's first user record
  @param[in] page_no  the page
  @param[in] level    its level */
  void check_first_record_in_range(const dtuple_t *low,
                                   const std::string &low_is,
                                   const rec_t *first, page_no_t page_no,
                                   ulint level) const {
    if (low != nullptr && cmp_key(m_index, low, first, m_scratch.get()) > 0) {
      fail(page_no, level, "first record is below " + low_is + " (HK3)");
    }
  }

  dict_index_t *m_index;
  const trx_t *m_trx;
  /** the end of every message */
  const char *m_suffix;
  page_size_t m_page_size;
  page_no_t m_root_no;
  /** more pages than this on a level are a cycle (L1) */
  page_no_t m_max_pages{FIL_NULL};
  /** temporaries of one record */
  Heap m_scratch{new_heap()};

 private:
  /** Set m_max_pages to the size of the tablespace; 0 means the size is
  unknown. */
  void read_max_pages() {
    const page_no_t size = fil_space_get_size(m_index->space);
    m_max_pages = size == 0 ? FIL_NULL : size;
  }
};

class Validator : private Page_checks {
 public:
  Validator(dict_index_t *index, const trx_t *trx)
      : Page_checks(index, trx, "") {
    for (ulint i = 0; m_index->is_clustered() && i < m_index->n_fields; ++i) {
      m_extern = m_extern || DATA_BIG_COL(m_index->get_col(i));
    }
#ifdef UNIV_DEBUG
    m_record_clocks =
        DBUG_EVALUATE_IF("blink_validate_record_clocks", true, false);
    m_check_clocks =
        DBUG_EVALUATE_IF("blink_validate_check_clocks", true, false);
#endif /* UNIV_DEBUG */
  }

  /** Walk the whole index, then compare the pages it reached with the
  pages its segments use (A1).  Throws Violation or Interrupted. */
  void run();

 private:
  /** The page before the current one on the level being walked. */
  struct Left {
    page_no_t page_no{FIL_NULL};
    /** key of its last user record, in m_left_heap */
    const dtuple_t *last{nullptr};
  };

  /** The parent page being walked, copied out of it. */
  struct Parent {
    /** its right sibling */
    page_no_t next{FIL_NULL};
    /** its high key, in m_parent_heap (nullptr: none) */
    const dtuple_t *high{nullptr};
    /** its node pointers, in order */
    std::vector<Node_ptr> ptrs;
  };

  /** S-latch a page of the index.
  @param[in]     page_no  page number
  @param[in,out] mtr      mini-transaction that holds the latch
  @return the page frame */
  const page_t *latch(page_no_t page_no, mtr_t *mtr);

  /** R1: the root has no sibling.  Its high key and flag are not read: its
  header bytes are its segment headers (H1).
  @param[in] root   the root, S-latched
  @param[in] level  its level
  @param[in] mtr    the mini-transaction that holds its latch */
  void check_root_plain(const page_t *root, ulint level, mtr_t *mtr) const;

  /** Walk the level below the parent level, both in lockstep, checking
  each page of it.
  @param[in] parent_no  the leftmost page of the parent level
  @param[in] level      the level below it
  @return the leftmost page of the level */
  page_no_t walk_level(page_no_t parent_no, ulint level);

  /** Copy the node pointers and the high key of a parent page into
  m_parent, emptying m_parent_heap first.
  @param[in] page_no  the parent page, checked already
  @param[in] level    its level */
  void load_parent(page_no_t page_no, ulint level);

  /** @return the child of the first node pointer of a parent page, checked
  already
  @param[in] page_no  the parent page
  @param[in] level    its level */
  page_no_t first_child(page_no_t page_no, ulint level);

  /** Visit the child of a downlink and, if it is the left half of an
  incomplete split, the right halves that follow it without a downlink.
  @param[in]     e              what the parent says of the child
  @param[in]     next_expected  the child of the next downlink of the level
                                above (FIL_NULL after the last one)
  @param[in]     level          the child's level
  @param[in,out] left           the previous page of the level
  @param[in,out] n_pages        pages of the level visited so far */
  void walk_downlink(const Expected &e, page_no_t next_expected, ulint level,
                     Left *left, page_no_t *n_pages);

  /** Visit one page, S-latched in its own mini-transaction, and check it.
  If it is the left half of an incomplete split, set *unlinked to what its
  right sibling, which has no downlink, must be. */
  void visit_page(const Expected &e, page_no_t next_expected, ulint level,
                  Left *left, std::optional<Expected> *unlinked);

  /** Check one page in its place in the tree: what it proves alone
  (check_page_alone()), then against its left neighbour (L1, HK4) and the
  level above (DL1, HK3).  Remember its last key in *left. */
  void check_page_in_tree(const page_t *page, const Expected &e,
                          page_no_t next_expected, ulint level, Left *left,
                          std::optional<Expected> *unlinked, mtr_t *mtr);

  /** DL1, with L1: the children of the level above, in order, are the
  chain of this level, but for the right half of an incomplete split, which
  follows its flagged left half and has no downlink.
  @param[in] page           the page, S-latched
  @param[in] next           its right link
  @param[in] next_expected  the child of the next downlink of the level
                            above (FIL_NULL after the last one)
  @param[in] level          its level
  @return whether the page is flagged as an incomplete split */
  bool check_downlinks(const page_t *page, page_no_t next,
                       page_no_t next_expected, ulint level) const;

  /** HK3, the upper end of a page's range: its high key is the separator
  of its right sibling in the level above; for the left half of an
  incomplete split, whose right sibling has no separator yet, it is below
  the separator that will bound the right sibling.
  @param[in] page     the page, S-latched
  @param[in] e        what the parent says of it
  @param[in] next     its right link
  @param[in] flagged  whether it is flagged as an incomplete split
  @param[in] level    its level */
  void check_high_key_is_separator(const page_t *page, const Expected &e,
                                   page_no_t next, bool flagged,
                                   ulint level) const;

  /** A1: the pages the walk reached are the pages the index's two file
  segments use, no more (a page allocated and not linked: leaked) and no
  fewer.  The non-leaf segment holds the root and the pages above the
  leaves; the leaf segment the other leaves and the pages of externally
  stored columns, which the walk does not count and purge frees late (see
  the file comment): for a clustered index with a column that may be
  stored externally, the leaf segment must only hold at least the leaves.
  @param[in] height  the root's level */
  void check_no_page_leaked(ulint height);

#ifdef UNIV_DEBUG
  /** MC1: record what a page looks like, or check that its high key, flags
  and right link did not change since it was recorded without a change of
  its modify clock, as the DBUG keywords blink_validate_record_clocks and
  blink_validate_check_clocks ask. */
  void check_modify_clock(const buf_block_t *block) const;
#endif /* UNIV_DEBUG */

  /** pages checked on the leaf level and on the levels above it */
  ulint m_leaf_pages{0};
  ulint m_upper_pages{0};
  /** whether the index has a column that may be stored externally */
  bool m_extern{false};
  /** the parent page being walked */
  Parent m_parent;
  /** the keys of m_parent: one page's worth */
  Heap m_parent_heap{new_heap()};
  /** the lower bound of the page being checked, if it is the right half
  of an incomplete split */
  Heap m_bound_heap{new_heap()};
  /** the lower bound of the next page, if that is the right half of an
  incomplete split; swapped with m_bound_heap after each page */
  Heap m_next_bound_heap{new_heap()};
  /** the key of Left::last */
  Heap m_left_heap{new_heap()};
#ifdef UNIV_DEBUG
  bool m_record_clocks{false};
  bool m_check_clocks{false};
#endif /* UNIV_DEBUG */
};

void Validator::run() {
#ifdef UNIV_DEBUG
  if (m_record_clocks) {
    /* A recording walk starts afresh for its index. */
    std::lock_guard<std::mutex> guard(pages_seen_mutex);
    pages_seen.erase(pages_seen.lower_bound({m_index->id, 0}),
                     pages_seen.upper_bound({m_index->id, FIL_NULL}));
  }
#endif /* UNIV_DEBUG */

  ulint height;
  {
    Scoped_mtr mtr;
    const page_t *root = latch(m_root_no, mtr.get());
    height = btr_page_get_level(root);
    check_root_plain(root, height, mtr.get());
  }

  /* The root alone: the level above it is empty, so it has no left
  neighbour and no next downlink. */
  Left left;
  std::optional<Expected> unlinked;
  visit_page(Expected{m_root_no, nullptr, nullptr}, FIL_NULL, height, &left,
             &unlinked);
  ut_ad(!unlinked.has_value());

  page_no_t leftmost = m_root_no;
  for (ulint level = height; level > 0; --level) {
    leftmost = walk_level(leftmost, level - 1);
  }
  check_no_page_leaked(height);
}

void Validator::check_root_plain(const page_t *root, ulint level,
                                 mtr_t *mtr) const {
  if (btr_page_get_prev(root, mtr) != FIL_NULL ||
      btr_page_get_next(root, mtr) != FIL_NULL) {
    std::ostringstream s;
    s << "the root has a sibling: left link "
      << page_str(btr_page_get_prev(root, mtr)) << ", right link "
      << page_str(btr_page_get_next(root, mtr)) << " (R1)";
    fail(m_root_no, level, s.str());
  }
}

void Validator::check_no_page_leaked(ulint height) {
  /* The root is in the non-leaf segment even when it is the only leaf. */
  const ulint upper = m_upper_pages + (height == 0 ? 1 : 0);
  /* RV1: the leaf segment also holds the unused pages of the reserve. */
  const ulint reserved = btr_blink_reserve_count(m_index);
  const ulint leaves = m_leaf_pages - (height == 0 ? 1 : 0) + reserved;
  ulint upper_used;
  ulint leaf_used;
  {
    Scoped_mtr mtr;
    page_t *root = btr_root_get(m_index, mtr.get());
    fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_TOP, &upper_used,
                          mtr.get());
    fseg_n_reserved_pages(root + PAGE_HEADER + PAGE_BTR_SEG_LEAF, &leaf_used,
                          mtr.get());
  }
  std::ostringstream s;
  if (upper_used != upper) {
    s << "the non-leaf segment uses " << upper_used << " pages, the root and "
      << "the levels above the leaves have " << upper
      << " (A1: a page leaked, or lost from its level)";
  } else if (m_extern ? leaf_used < leaves : leaf_used != leaves) {
    s << "the leaf segment uses " << leaf_used << " pages, the leaf level has "
      << leaves - reserved << " and the reserve " << reserved
      << " (A1: a page leaked, or lost from its level)";
  } else {
    return;
  }
  fail(m_root_no, height, s.str());
}

const page_t *Validator::latch(page_no_t page_no, mtr_t *mtr) {
  buf_block_t *block =
      btr_block_get(page_id_t(m_index->space, page_no), m_page_size,
                    RW_S_LATCH, UT_LOCATION_HERE, m_index, mtr);
  ut_d(check_modify_clock(block));
  return buf_block_get_frame(block);
}

page_no_t Validator::walk_level(page_no_t parent_no, ulint level) {
  const ulint parent_level = level + 1;
  Left left;
  page_no_t leftmost = FIL_NULL;
  page_no_t n_parents = 0;
  page_no_t n_pages = 0;

  /* The parent level was checked as the child level of the previous
  round (or is the root), and non-leaf levels are frozen while we hold the
  index lock: its chain of right links ends, its pages are not empty. */
  while (parent_no != FIL_NULL) {
    check_interrupted();
    check_level_chain_ends(parent_no, parent_level, &n_parents);
    load_parent(parent_no, parent_level);

    /* The last child of this parent is followed by the first child of the
    next parent (DL1 holds across parents). */
    const page_no_t after_last =
        m_parent.next == FIL_NULL ? FIL_NULL
                                  : first_child(m_parent.next, parent_level);
    if (leftmost == FIL_NULL) {
      leftmost = m_parent.ptrs.front().child;
    }

    const size_t n = m_parent.ptrs.size();
    for (size_t i = 0; i < n; ++i) {
      const Node_ptr &ptr = m_parent.ptrs[i];
      const bool last = i + 1 == n;
      /* HK3: a child's range ends where the next child's begins, and the
      last child's where its parent's ends. */
      const Expected e{ptr.child, ptr.min_rec ? nullptr : ptr.key,
                       last ? m_parent.high : m_parent.ptrs[i + 1].key};
      walk_downlink(e, last ? after_last : m_parent.ptrs[i + 1].child, level,
                    &left, &n_pages);
    }
    parent_no = m_parent.next;
  }
  return leftmost;
}

void Validator::load_parent(page_no_t page_no, ulint level) {
  mem_heap_t *heap = m_parent_heap.get();
  mem_heap_empty(heap);
  m_parent.ptrs.clear();

  Scoped_mtr mtr;
  const page_t *page = latch(page_no, mtr.get());
  ut_ad(btr_page_get_level(page) == level);

  Rec_offsets offsets;
  for (const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
       !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
    const bool min_rec =
        rec_get_info_bits(rec, true) & REC_INFO_MIN_REC_FLAG;
    m_parent.ptrs.push_back(Node_ptr{
        btr_node_ptr_get_child_page_no(rec, offsets.compute(rec, m_index)),
        key_of(m_index, rec, level, heap), min_rec});
  }
  if (m_parent.ptrs.empty()) {
    /* Not reached: the page was checked as a child already. */
    ut_d(ut_error);
    fail(page_no, level, "has no records");
  }

  const rec_t *hk = hk_of(page);
  m_parent.high = hk != nullptr ? key_of(m_index, hk, 1, heap) : nullptr;
  m_parent.next = btr_page_get_next(page, mtr.get());
}

page_no_t Validator::first_child(page_no_t page_no, ulint level) {
  Scoped_mtr mtr;
  const page_t *page = latch(page_no, mtr.get());
  const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
  if (page_rec_is_supremum(rec)) {
    /* Not reached: the page was checked as a child already. */
    ut_d(ut_error);
    fail(page_no, level, "has no records");
  }
  Rec_offsets offsets;
  return btr_node_ptr_get_child_page_no(rec, offsets.compute(rec, m_index));
}

void Validator::walk_downlink(const Expected &e, page_no_t next_expected,
                              ulint level, Left *left, page_no_t *n_pages) {
  std::optional<Expected> page = e;
  do {
    check_interrupted();
    check_level_chain_ends(page->page_no, level, n_pages);
    std::optional<Expected> unlinked;
    visit_page(*page, next_expected, level, left, &unlinked);
    /* The right half of an incomplete split has no downlink: it comes
    between this downlink and the next one, which it must link to, as the
    flagged page would have. */
    page = unlinked;
  } while (page.has_value());
}

void Validator::visit_page(const Expected &e, page_no_t next_expected,
                           ulint level, Left *left,
                           std::optional<Expected> *unlinked) {
  {
    Scoped_mtr mtr;
    const page_t *page = latch(e.page_no, mtr.get());
    check_page_in_tree(page, e, next_expected, level, left, unlinked,
                       mtr.get());
  }
  /* e.low may be in m_bound_heap, which we no longer need; the lower bound
  of the next page, if any, is in m_next_bound_heap. */
  std::swap(m_bound_heap, m_next_bound_heap);
  mem_heap_empty(m_next_bound_heap.get());
}

void Validator::check_page_in_tree(const page_t *page, const Expected &e,
                                   page_no_t next_expected, ulint level,
                                   Left *left,
                                   std::optional<Expected> *unlinked,
                                   mtr_t *mtr) {
  const page_no_t page_no = e.page_no;
  const Records recs = check_page_alone(page, level);

  /* Links and high keys are frozen under our X (see the file comment),
  so these checks against the left neighbour and the level above, which
  were read in other mini-transactions, are exact. */
  check_left_link(page_no, level, btr_page_get_prev(page, mtr),
                  left->page_no);
  const page_no_t next = btr_page_get_next(page, mtr);
  const bool flagged = check_downlinks(page, next, next_expected, level);
  check_high_key_is_separator(page, e, next, flagged, level);
  if (flagged) {
    /* The right sibling holds the keys from this page's high key up to
    where this page's range used to end. */
    *unlinked = Expected{
        next, key_of(m_index, hk_of(page), 1, m_next_bound_heap.get()),
        e.high};
  }

  if (recs.first != nullptr) {
    /* HK4: the first record against the last one of the left neighbour.

    On non-leaf levels both pages are frozen: exact.  On the leaf level,
    left->last was copied when the left page was visited, in an earlier
    mini-transaction, and leaf records may have changed since, so we
    compare a possibly stale last key of the left page with the current
    first record of this one.  That gives no false positive.  The stale key
    was <= the left page's high key when it was copied (HK2, checked then
    under the left page's latch); that high key is the separator of this
    page, e.low (HK3, checked on the left page, and stable: high keys and
    node pointers only change in structure changes, which our X excludes);
    and this page's first record is, now, not below e.low (checked below,
    under this page's latch).  For the right half of an incomplete split
    e.low is the flagged left page's high key itself.  For the first child
    of a parent, the left page's high key is its parent's high key (HK3),
    which is the separator of this page's parent (HK3 one level up), which
    is not above that parent's first node pointer, e.low (checked on the
    parent level): <= instead of =, which is all we need.  So stale last
    <= e.low <= current first, and a report means that all three are
    equal: the left page held a key equal to its own high key, outside its
    range [separator, high key) since keys are unique in the tree
    (README.blink.md, HK2), a corruption too.  (If the current first record
    is below e.low, the index is corrupt anyway; this check, made before
    the one against e.low, may then report it as HK4.)

    It may miss a violation that appears after the left page was visited
    (a record at or above its high key inserted into the left page, say):
    the left page is not looked at again.  amcheck's bt_index_check, which
    runs concurrently with writers, has the same property. */
    mem_heap_empty(m_scratch.get());
    check_siblings_in_order(left->page_no, left->last, recs.first, page_no,
                            level);
    check_first_record_in_range(e.low, "its node pointer",
                                recs.first, page_no, level);
    mem_heap_empty(m_left_heap.get());
    left->last = key_of(m_index, recs.last, level, m_left_heap.get());
  }
  left->page_no = page_no;
  ++(level == 0 ? m_leaf_pages : m_upper_pages);
}

bool Validator::check_downlinks(const page_t *page, page_no_t next,
                                page_no_t next_expected, ulint level) const {
  const page_no_t page_no = page_get_page_no(page);
  std::ostringstream s;
  if (flags_of(page) & PAGE_BLINK_INCOMPLETE_SPLIT) {
    /* The strict form, for tests that have finished every split (FS4). */
    if (DBUG_EVALUATE_IF("blink_validate_strict", true, false)) {
      fail(page_no, level, "is flagged as an incomplete split (strict form)");
    }
    /* DL1's exception: the right sibling is the right half of a split
    whose downlink the level above does not have yet. */
    if (next == FIL_NULL || next == next_expected) {
      s << "is flagged as an incomplete split, but its right sibling "
        << (next == FIL_NULL ? "does not exist" : "has a downlink")
        << " (DL1)";
      fail(page_no, level, s.str());
    }
    return true;
  }
  if (next != next_expected) {
    s << "right link is " << page_str(next)
      << ", but the next downlink of the level above is "
      << page_str(next_expected)
      << " (L1, DL1: a page without downlink, or downlinks out of order)";
    fail(page_no, level, s.str());
  }
  return false;
}

void Validator::check_high_key_is_separator(const page_t *page,
                                            const Expected &e, page_no_t next,
                                            bool flagged, ulint level) const {
  const rec_t *hk = hk_of(page);
  mem_heap_t *scratch = m_scratch.get();
  mem_heap_empty(scratch);
  if (flagged) {
    /* HK1 was checked: a flagged page has a right sibling, so a high key. */
    if (e.high != nullptr && cmp_key(m_index, e.high, hk, scratch) <= 0) {
      fail(page_get_page_no(page), level,
           "high key of an incomplete split is not below the separator of "
           "the level above (HK3)");
    }
    return;
  }
  if (hk != nullptr &&
      (e.high == nullptr || cmp_key(m_index, e.high, hk, scratch) != 0)) {
    std::ostringstream s;
    s << "high key differs from the separator of page " << next
      << " in the level above (HK3)";
    fail(page_get_page_no(page), level, s.str());
  }
}

#ifdef UNIV_DEBUG
void Validator::check_modify_clock(const buf_block_t *block) const {
  if (!m_record_clocks && !m_check_clocks) {
    return;
  }
  const page_t *page = buf_block_get_frame(block);
  /* H1: a root's B-link header bytes are its segment headers, which the
  readers do not decode. */
  const page_blink_hk_t hk = page_blink_get_hk(page, m_index);
  Page_seen now{block->page.id,
                block,
                /* We hold the S latch on the block. */
                block->get_modify_clock(false),
                mach_read_from_4(page + FIL_PAGE_NEXT),
                page_blink_get_flags(page, m_index),
                {}};
  /* The walk has not checked the header yet: copy only from inside the
  page. */
  if (hk.exists() && hk.origin >= hk.extra &&
      hk.start() + hk.rec_size() <= m_page_size.physical()) {
    now.hk.assign(page + hk.start(), page + hk.start() + hk.rec_size());
  }
  const std::pair<space_index_t, page_no_t> key{m_index->id,
                                                block->page.id.page_no()};

  bool changed = false;
  {
    std::lock_guard<std::mutex> guard(pages_seen_mutex);
    if (m_check_clocks) {
      /* Pages not recorded, and pages that moved to another block, have
      nothing to be compared with. */
      const auto it = pages_seen.find(key);
      changed = it != pages_seen.end() && it->second.block == block &&
                it->second.modify_clock == now.modify_clock &&
                (it->second.next != now.next ||
                 it->second.flags != now.flags || it->second.hk != now.hk);
    }
    if (m_record_clocks && !changed) {
      pages_seen.insert_or_assign(key, std::move(now));
    }
  }
  if (changed) {
    fail(key.second, btr_page_get_level(page),
         "high key, flags or right link changed without a modify clock "
         "change (MC1)");
  }
}
#endif /* UNIV_DEBUG */

/** The online walk (README.blink.md, "Validator, online"), amcheck's
bt_index_check.  Splits, deletions and merges to the right run while it
walks: the index lock in S lets them and keeps the exclusive paths out (G0),
and it latches every page while it holds the page that named it, which a
deletion would latch in X (PD2), so no page it walks to is deleted (the
descent that resumes it after a pause moves right from one, PD3); but
levels change to the right and high keys and links change as it goes.  It
checks only what a page proves alone (check_page_alone(): HK1, HK2, F1, its
header, its level and its records' order; and stock's page_validate()) and
what a page and its right sibling prove when both are latched, the page
first (LO2): the sibling's left link (L1), the page's last record below the
sibling's first (HK4), and the page's high key not above the sibling's first
record (HK3 without the parent).  Each level is reached from the root by
first node pointers, latch-coupled top-down, and walked along its right
links, latch-coupled left to right; a root raise meanwhile only adds a level
above the ones walked.  On the leaf level the walk gives way every
YIELD_PAGES pages: it releases its latches and the index lock, so that an
exclusive path waiting for X, and the searches queued behind that request,
need not wait for the whole walk; then it takes S again and resumes on the
leaf that holds the high key of the last page it checked (a descent, D3).
Merges and deletions meanwhile may move that key's range onto a page already
checked or onto the right sibling, never past a page still to check.  The
pair across a pause is not compared. */
class Online_validator : private Page_checks {
 public:
  /** Releases the index lock and takes it again in S. */
  using Give_way = std::function<void()>;

  /** @param[out] flagged   if not nullptr, the pages flagged as incomplete
                           splits that the walk met, at most MAX_FLAGGED
  @param[in]  give_way  if set, called with no page latched to let X in */
  Online_validator(dict_index_t *index, const trx_t *trx,
                   std::vector<page_no_t> *flagged = nullptr,
                   Give_way give_way = nullptr)
      : Page_checks(index, trx, " (online check)"),
        m_flagged(flagged),
        m_give_way(std::move(give_way)) {}

  /** The leaf pages the walk checks between two pauses: a pause costs a
  descent, a few page latches. */
  static constexpr page_no_t YIELD_PAGES = 256;

  /** The most flagged pages a walk notes for finishing: CHECK TABLE
  finishes them after the walk (btr_blink_check_table()); writers finish
  the others as they meet them (FS1). */
  static constexpr size_t MAX_FLAGGED = 1024;

  /** Walk every level.  Throws Violation or Interrupted. */
  void run() {
    ulint height;
    {
      Scoped_mtr mtr;
      height = btr_page_get_level(latch(m_root_no, mtr.get()));
    }
    for (ulint level = height + 1; level-- > 0;) {
      walk_level(level);
#ifdef UNIV_DEBUG
      if (level == 1) {
        /* No page latch held, the index lock in S: tests split leaves
        here, before the leaf level is walked. */
        DEBUG_SYNC_C("blink_validate_online_parked");
      }
#endif /* UNIV_DEBUG */
    }
  }

 private:
  using Mtr = std::unique_ptr<Scoped_mtr>;

  const page_t *latch(page_no_t page_no, mtr_t *mtr) const {
    return buf_block_get_frame(btr_block_get(
        page_id_t(m_index->space, page_no), m_page_size, RW_S_LATCH,
        UT_LOCATION_HERE, m_index, mtr));
  }

  /** The leftmost page of a level, S-latched in the returned
  mini-transaction: from the root down the first node pointers, each child
  latched before its parent is released. */
  Mtr leftmost(ulint level, const page_t **page) const {
    Mtr mtr = std::make_unique<Scoped_mtr>();
    *page = latch(m_root_no, mtr->get());
    while (btr_page_get_level(*page) > level) {
      const rec_t *rec =
          page_rec_get_next_const(page_get_infimum_rec(*page));
      if (page_rec_is_supremum(rec)) {
        fail(page_get_page_no(*page), btr_page_get_level(*page),
             "has no records");
      }
      Rec_offsets offsets;
      const page_no_t child =
          btr_node_ptr_get_child_page_no(rec, offsets.compute(rec, m_index));
      Mtr below = std::make_unique<Scoped_mtr>();
      *page = latch(child, below->get());
      mtr = std::move(below);
    }
    return mtr;
  }

  /** check_page_alone(), stock's page_validate() (directory and record
  heap), and the flagged page noted.
  @return the page's records */
  Records check_alone(const page_t *page, ulint level) {
    const Records recs = check_page_alone(page, level);
    if (!page_validate(page, m_index)) {
      fail(page_get_page_no(page), level,
           "page_validate() failed: its directory or record heap is corrupt");
    }
    note_flagged(page);
    return recs;
  }

  void note_flagged(const page_t *page) {
    if (m_flagged != nullptr && m_flagged->size() < MAX_FLAGGED &&
        page_get_page_no(page) != m_root_no &&
        blink_finish::is_flagged(page, m_index)) {
      m_flagged->push_back(page_get_page_no(page));
    }
  }

  /** @return whether the walk gives way before the page after the
  n-th of the leaf level */
  bool gives_way(ulint level, page_no_t n_pages) const {
    return level == 0 && m_give_way != nullptr &&
           (n_pages % YIELD_PAGES == 0 ||
            DBUG_EVALUATE_IF("blink_validate_yield_every_page", true, false));
  }

  /** Give way (see the class comment) after the leaf page, which has a
  right sibling and so a high key (HK1, checked).
  @return the leaf that holds the high key now, S-latched in the returned
  mini-transaction */
  Mtr give_way(Mtr mtr, const page_t **page) {
    Heap heap = new_heap();
    const dtuple_t *hk = key_of(m_index, hk_of(*page), 1, heap.get());
    mtr.reset();
    m_give_way();
    mtr = std::make_unique<Scoped_mtr>();
    btr_cur_t cursor;
    cursor.flag = BTR_CUR_BINARY;
    cursor.index = m_index;
    Blink_corruption_scope corruption;
    /* PAGE_CUR_G: the descent moves right on a high key equal to hk (D3),
    to the page whose range starts there.  The index lock is held in S, by
    the walk's own mini-transaction. */
    btr_blink_search_leaf(m_index, hk, PAGE_CUR_G, BTR_SEARCH_LEAF, false,
                          true, &cursor, UT_LOCATION_HERE, mtr->get());
    if (corruption.found()) {
      fail(FIL_NULL, 0, "is corrupt: the descent after a pause failed (C3)");
    }
    *page = buf_block_get_frame(btr_cur_get_block(&cursor));
    return mtr;
  }

  /** Walk one level from its leftmost page along its right links, each
  page checked alone and with its left neighbour. */
  void walk_level(ulint level) {
    const page_t *page;
    Mtr mtr = leftmost(level, &page);
    check_left_link(page_get_page_no(page), level,
                    btr_page_get_prev(page, mtr->get()), FIL_NULL);
    Records recs = check_alone(page, level);
    page_no_t n_pages = 1;
    for (page_no_t next = btr_page_get_next(page, mtr->get());
         next != FIL_NULL;) {
      check_interrupted();
      check_level_chain_ends(next, level, &n_pages);
      if (gives_way(level, n_pages)) {
        mtr = give_way(std::move(mtr), &page);
        recs = check_alone(page, level);
        next = btr_page_get_next(page, mtr->get());
        continue;
      }
      Mtr right_mtr = std::make_unique<Scoped_mtr>();
      const page_t *right = latch(next, right_mtr->get());
      const Records right_recs = check_alone(right, level);
      check_with_left_sibling(page, recs, right, right_recs, level,
                              right_mtr->get());
      mtr = std::move(right_mtr);
      page = right;
      recs = right_recs;
      next = btr_page_get_next(page, mtr->get());
    }
  }

  /** What a page and its right sibling prove, both latched: L1, HK4, and
  HK3 without the parent (the left page's high key is the right page's
  separator, so the right page's records are not below it).
  @param[in] page        the left page
  @param[in] recs        its records, as check_page_alone() found them
  @param[in] right       its right sibling
  @param[in] right_recs  the right sibling's records
  @param[in] level       their level
  @param[in] mtr         the mini-transaction that latches right */
  void check_with_left_sibling(const page_t *page, const Records &recs,
                               const page_t *right, const Records &right_recs,
                               ulint level, mtr_t *mtr) {
    const page_no_t page_no = page_get_page_no(page);
    const page_no_t right_no = page_get_page_no(right);
    check_left_link(right_no, level, btr_page_get_prev(right, mtr), page_no);
    /* Only a root leaf is empty, and only a corrupt root has a sibling
    (R1): nothing to compare then. */
    if (recs.last == nullptr || right_recs.first == nullptr) {
      return;
    }
    mem_heap_t *scratch = m_scratch.get();
    mem_heap_empty(scratch);
    check_siblings_in_order(page_no, key_of(m_index, recs.last, level, scratch),
                            right_recs.first, right_no, level);
    /* HK1 was checked on page: it has a right sibling, so a high key, but
    for a corrupt root (H1). */
    const rec_t *hk = hk_of(page);
    check_first_record_in_range(
        hk == nullptr ? nullptr : key_of(m_index, hk, 1, scratch),
        "the high key of page " + std::to_string(page_no), right_recs.first,
        right_no, level);
  }

  std::vector<page_no_t> *const m_flagged;
  const Give_way m_give_way;
};

}  // namespace

namespace {
/** Run a walk under the index lock, S for the online one, X otherwise,
and report its first violation.
@param[in] walk  constructs and runs the walk; throws Violation or
                 Interrupted */
template <typename Walk>
bool run_walk(dict_index_t *index, std::string *msg, bool online,
              Walk walk) {
  ut_ad(index->blink);
  mtr_t lock_mtr;
  lock_mtr.start();
  if (online) {
    mtr_s_lock(dict_index_get_lock(index), &lock_mtr, UT_LOCATION_HERE);
  } else {
    mtr_x_lock(dict_index_get_lock(index), &lock_mtr, UT_LOCATION_HERE);
  }
  /* The online walk's pauses (Online_validator::give_way()). */
  const auto give_way = [&] {
    ut_ad(online);
    lock_mtr.commit();
    /* An X request that waits gets the lock before this thread's S. */
#ifdef UNIV_DEBUG
    /* No page latched, the index lock not held: tests let X in here. */
    DEBUG_SYNC_C("blink_validate_online_gave_way");
#endif /* UNIV_DEBUG */
    lock_mtr.start();
    mtr_s_lock(dict_index_get_lock(index), &lock_mtr, UT_LOCATION_HERE);
  };
  bool ok = true;
  try {
    walk(give_way);
  } catch (const Violation &v) {
    *msg = v.msg;
    ok = false;
  } catch (const Interrupted &) {
    /* Nothing found before the kill: CHECK TABLE reports the kill. */
  }
  lock_mtr.commit();
  if (!ok) {
    ib::error() << *msg;
  }
  return ok;
}
}  // namespace

bool btr_blink_validate_index(dict_index_t *index, const trx_t *trx,
                              std::string *msg) {
  /* X: no structure change runs during the walk, leaf records may change
  (see the comment at the top of this file). */
  return run_walk(index, msg, false,
                  [&](const auto &) { Validator(index, trx).run(); });
}

bool btr_blink_validate_index_online(dict_index_t *index, const trx_t *trx,
                                     std::string *msg) {
  /* S: splits, deletions and merges to the right run during the walk; the
  exclusive paths do not (G0). */
  return run_walk(index, msg, true, [&](const auto &give_way) {
    Online_validator(index, trx, nullptr, give_way).run();
  });
}

bool btr_blink_check_table(dict_index_t *index, const trx_t *trx,
                           bool extended, std::string *msg) {
  if (!index->blink || extended) {
    return btr_validate_index(index, trx, false) &&
           (!index->blink || btr_blink_validate_index(index, trx, msg));
  }
  std::vector<page_no_t> flagged;
  const bool ok = run_walk(index, msg, true, [&](const auto &give_way) {
    Online_validator(index, trx, &flagged, give_way).run();
  });
  /* Finishing writes pages: not in read-only mode, nor while recovery is
  forced (innodb_force_recovery), where CHECK TABLE changes nothing. */
  if (ok && !srv_read_only_mode && srv_force_recovery == 0) {
    btr_blink_finish_splits(index, flagged);
  }
  return ok;
}

ulint btr_blink_validate_all(std::string *msg, bool online) {
  /* Pin the tables so that none is evicted while it is checked without
  the dictionary mutex, which must not be held while index latches are
  taken. */
  std::vector<dict_table_t *> tables;
  dict_sys_mutex_enter();
  for (auto list : {&dict_sys->table_LRU, &dict_sys->table_non_LRU}) {
    for (dict_table_t *table : *list) {
      /* A discarded or missing tablespace has no pages to read. */
      if (btr_blink_table_has_index(table) && !table->ibd_file_missing &&
          !dict_table_is_discarded(table) && !table->is_corrupted()) {
        table->acquire();
        tables.push_back(table);
      }
    }
  }
  dict_sys_mutex_exit();

  ulint n_bad = 0;
  for (dict_table_t *table : tables) {
    for (dict_index_t *index : table->indexes) {
      std::string violation;
      if (index->blink && index->is_committed() && !index->is_corrupted() &&
          !(online ? btr_blink_validate_index_online(index, nullptr, &violation)
                   : btr_blink_validate_index(index, nullptr, &violation))) {
        if (n_bad++ == 0) {
          *msg = violation;
        }
      }
    }
    dict_table_close(table, false, false);
  }
  return n_bad;
}
