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
 The B-link validator, modelled on amcheck's bt_index_parent_check
 (README.blink.md, "Validator").

 Locking: the index lock in X for the whole walk (as stock CHECK TABLE's
 btr_validate_index takes it), so no other thread descends the index or
 changes any of its pages while we look; pages are S-latched one or two at a
 time in short mini-transactions.  Every check is therefore exact: none of
 them can report a false positive caused by a concurrent change.

 The walk goes level by level from the root.  On every level each page is
 checked on its own (order, high key present and bounding), against its left
 neighbour (links, HK4, lower bound), and, for non-leaf pages, against each
 of its children (the child is the next page of the level below, HK3, the
 child's first key respects its node pointer).  Because the children of all
 node pointers of a level, in order, must form exactly the sibling chain of
 the level below, a page without a downlink or a downlink out of order is
 found as a break in that chain (D1); the one allowed break is the right
 sibling of a page flagged INCOMPLETE_SPLIT, which is checked in the place
 of the downlink it does not have yet. */

#include "btr0blink.h"

#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "btr0btr.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "mtr0mtr.h"
#include "page0blink.h"
#include "page0page.h"
#include "rem0cmp.h"
#include "trx0trx.h"

#ifdef UNIV_DEBUG
bool srv_btree_blink_validate_debug = false;
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

class Validator {
 public:
  Validator(dict_index_t *index, const trx_t *trx)
      : m_index(index),
        m_trx(trx),
        m_page_size(dict_table_page_size(index->table)) {}

  /** Walk the whole index.  Throws Violation. */
  void run();

 private:
  /** The page before the current one on the level being walked. */
  struct Left {
    page_no_t page_no{FIL_NULL};
    /** key of its last user record */
    const dtuple_t *last{nullptr};
  };

  [[noreturn]] void fail(page_no_t page_no, ulint level,
                         const std::string &what) const;

  /** Check one level, whose pages are expected[] in order; fill children
  with what the level below must be (if level > 0). */
  void check_level(const std::vector<Expected> &expected, ulint level,
                   mem_heap_t *heap, std::vector<Expected> *children);

  /** Check one page.  If it is the left half of an incomplete split, set
  *unlinked to what its right sibling, which has no downlink, must be. */
  void check_page(const page_t *page, const Expected &e, page_no_t next_expected,
                  ulint level, Left *left, mem_heap_t *heap,
                  std::vector<Expected> *children,
                  std::optional<Expected> *unlinked, mtr_t *mtr);

  /** Check the right links and the high key of a page against the level
  above (L1, D1, HK1, HK3, and the incomplete-split flag). */
  void check_links(const page_t *page, const Expected &e,
                   page_no_t next_expected, ulint level, const Left &left,
                   mem_heap_t *heap, std::optional<Expected> *unlinked,
                   mtr_t *mtr);

  void check_records(const page_t *page, const Expected &e, ulint level,
                     Left *left, mem_heap_t *heap,
                     std::vector<Expected> *children);

  /** Frees a memory heap. */
  struct Heap_free {
    void operator()(mem_heap_t *heap) const { mem_heap_free(heap); }
  };
  using Heap = std::unique_ptr<mem_heap_t, Heap_free>;

  static Heap new_heap() {
    return Heap(mem_heap_create(4096, UT_LOCATION_HERE));
  }

  dict_index_t *m_index;
  const trx_t *m_trx;
  page_size_t m_page_size;
  /** pages already reached */
  std::set<page_no_t> m_seen;
  /** temporaries of one page */
  Heap m_scratch{new_heap()};
  /** the key of Left::last */
  Heap m_left_heap{new_heap()};
};

void Validator::fail(page_no_t page_no, ulint level,
                     const std::string &what) const {
  std::ostringstream s;
  s << "B-link index " << m_index->name() << " of table "
    << m_index->table->name << ": page " << page_no << " (level " << level
    << "): " << what;
  throw Violation{s.str()};
}

/** Key of a record (leaf or node pointer, or a high key) as a tuple that
owns its data: the fields a node pointer built from it would carry. */
const dtuple_t *key_of(const dict_index_t *index, const rec_t *rec,
                       ulint level, mem_heap_t *heap) {
  return dict_index_build_node_ptr(index, rec, 0, heap, level);
}

/** Compare a key with a record: <0, 0, >0 as cmp_dtuple_rec(). */
int cmp_key(const dict_index_t *index, const dtuple_t *key, const rec_t *rec,
            mem_heap_t *heap) {
  const ulint *offsets = rec_get_offsets(rec, index, nullptr, ULINT_UNDEFINED,
                                         UT_LOCATION_HERE, &heap);
  return cmp_dtuple_rec(key, rec, index, offsets);
}

void Validator::run() {
  mtr_t mtr;
  mtr.start();
  const page_no_t root_no = dict_index_get_page(m_index);
  buf_block_t *root_block =
      btr_block_get(page_id_t(m_index->space, root_no), m_page_size,
                    RW_S_LATCH, UT_LOCATION_HERE, m_index, &mtr);
  const page_t *root = buf_block_get_frame(root_block);
  ulint level = btr_page_get_level(root);
  /* R1: the root's B-link header bytes are its segment headers. */
  const bool root_has_header = page_blink_has_header(root);
  mtr.commit();
  if (root_has_header) {
    fail(root_no, level, "the root carries a B-link header (R1)");
  }

  std::vector<Expected> expected{{root_no, nullptr, nullptr}};
  mem_heap_t *heap = mem_heap_create(4096, UT_LOCATION_HERE);
  for (;;) {
    /* The keys in expected[] live in heap; those of the level below go to
    a new heap, and heap is freed once this level is done. */
    mem_heap_t *child_heap = mem_heap_create(4096, UT_LOCATION_HERE);
    std::vector<Expected> children;
    try {
      check_level(expected, level, child_heap,
                  level > 0 ? &children : nullptr);
    } catch (...) {
      mem_heap_free(child_heap);
      mem_heap_free(heap);
      throw;
    }
    mem_heap_free(heap);
    heap = child_heap;
    if (level == 0) {
      break;
    }
    expected.swap(children);
    --level;
  }
  mem_heap_free(heap);
}

void Validator::check_level(const std::vector<Expected> &expected, ulint level,
                            mem_heap_t *heap, std::vector<Expected> *children) {
  Left left;
  /* The right half of an incomplete split: it comes between two downlinks
  of the level above. */
  std::optional<Expected> unlinked;
  for (size_t i = 0; unlinked.has_value() || i < expected.size();) {
    if (m_trx != nullptr && trx_is_interrupted(m_trx)) {
      throw Interrupted{};
    }
    const Expected e = unlinked.has_value() ? *unlinked : expected[i++];
    unlinked.reset();
    if (!m_seen.insert(e.page_no).second) {
      fail(e.page_no, level, "reached twice (L1, D1)");
    }
    const page_no_t next_expected =
        i < expected.size() ? expected[i].page_no : FIL_NULL;

    mtr_t mtr;
    mtr.start();
    buf_block_t *block =
        btr_block_get(page_id_t(m_index->space, e.page_no), m_page_size,
                      RW_S_LATCH, UT_LOCATION_HERE, m_index, &mtr);
    try {
      check_page(buf_block_get_frame(block), e, next_expected, level, &left,
                 heap, children, &unlinked, &mtr);
    } catch (...) {
      mtr.commit();
      throw;
    }
    mtr.commit();
  }
}

void Validator::check_page(const page_t *page, const Expected &e,
                           page_no_t next_expected, ulint level, Left *left,
                           mem_heap_t *heap, std::vector<Expected> *children,
                           std::optional<Expected> *unlinked, mtr_t *mtr) {
  const page_no_t page_no = e.page_no;
  std::ostringstream s;

  if (!page_is_comp(page) || fil_page_get_type(page) != FIL_PAGE_INDEX ||
      btr_page_get_index_id(page) != m_index->id) {
    fail(page_no, level, "not an index page of this index");
  }
  if (btr_page_get_level(page) != level) {
    s << "has level " << btr_page_get_level(page) << ", its parent says "
      << level;
    fail(page_no, level, s.str());
  }

  ulint hk_size;
  if (!page_blink_validate_hk(page, &hk_size)) {
    fail(page_no, level, "inconsistent B-link header (see the error log)");
  }
  check_links(page, e, next_expected, level, *left, heap, unlinked, mtr);
  check_records(page, e, level, left, heap, children);
  left->page_no = page_no;
}

void Validator::check_links(const page_t *page, const Expected &e,
                            page_no_t next_expected, ulint level,
                            const Left &left, mem_heap_t *heap,
                            std::optional<Expected> *unlinked, mtr_t *mtr) {
  const page_no_t page_no = e.page_no;
  const page_no_t prev = btr_page_get_prev(page, mtr);
  const page_no_t next = btr_page_get_next(page, mtr);
  const rec_t *hk = page_blink_get_hk_rec(page);
  std::ostringstream s;

  if (prev != left.page_no) {
    s << "left link is " << prev << ", expected " << left.page_no << " (L1)";
    fail(page_no, level, s.str());
  }
  if ((hk != nullptr) != (next != FIL_NULL)) {
    fail(page_no, level,
         hk != nullptr ? "has a high key but no right sibling (HK1)"
                       : "has a right sibling but no high key (HK1)");
  }

  if (page_blink_get_flags(page) & PAGE_BLINK_INCOMPLETE_SPLIT) {
    /* D1's exception: the right sibling is the right half of a split whose
    downlink the level above does not have yet.  It holds the keys from
    this page's high key up to where this page's range used to end. */
    if (next == FIL_NULL || next == next_expected) {
      s << "is flagged as an incomplete split, but its right sibling "
        << (next == FIL_NULL ? "does not exist" : "has a downlink");
      fail(page_no, level, s.str());
    }
    if (e.high != nullptr && cmp_key(m_index, e.high, hk, m_scratch.get()) <= 0) {
      fail(page_no, level,
           "high key of an incomplete split is not below the separator of "
           "the level above (HK3)");
    }
    *unlinked = Expected{next, key_of(m_index, hk, 1, heap), e.high};
    return;
  }

  /* L1 and D1: the children of the level above, in order, are the sibling
  chain of this level. */
  if (next != next_expected) {
    s << "right link is " << next << ", but the next downlink of the level "
      << "above is " << next_expected
      << " (L1, D1: a page without downlink, or downlinks out of order)";
    fail(page_no, level, s.str());
  }
  if (hk != nullptr &&
      (e.high == nullptr || cmp_key(m_index, e.high, hk, m_scratch.get()) != 0)) {
    s << "high key differs from the separator of page " << next
      << " in the level above (HK3)";
    fail(page_no, level, s.str());
  }
}

void Validator::check_records(const page_t *page, const Expected &e,
                              ulint level, Left *left, mem_heap_t *heap,
                              std::vector<Expected> *children) {
  const page_no_t page_no = e.page_no;
  const rec_t *hk = page_blink_get_hk_rec(page);
  const rec_t *rec = page_rec_get_next_const(page_get_infimum_rec(page));
  mem_heap_t *scratch = m_scratch.get();
  mem_heap_empty(scratch);

  if (page_rec_is_supremum(rec)) {
    /* Only a root leaf may be empty: other pages are discarded when their
    last record goes. */
    if (level > 0 || page_no != dict_index_get_page(m_index)) {
      fail(page_no, level, "has no records");
    }
    return;
  }

  /* The first record against the left neighbour and the parent. */
  if (left->last != nullptr &&
      cmp_key(m_index, left->last, rec, scratch) >= 0) {
    std::ostringstream s;
    s << "first record is not above the last record of page "
      << left->page_no << " (HK4)";
    fail(page_no, level, s.str());
  }
  if (e.low != nullptr && cmp_key(m_index, e.low, rec, scratch) > 0) {
    fail(page_no, level, "first record is below its node pointer (HK3)");
  }

  const size_t first_child = children ? children->size() : 0;
  const dtuple_t *prev_key = nullptr;
  const rec_t *last = nullptr;
  for (; !page_rec_is_supremum(rec); rec = page_rec_get_next_const(rec)) {
    const dtuple_t *key = key_of(m_index, rec, level, scratch);
    if (prev_key != nullptr && cmp_key(m_index, prev_key, rec, scratch) >= 0) {
      fail(page_no, level, "records out of order");
    }
    /* HK2: every record is below the high key (at most equal on leaves). */
    if (hk != nullptr) {
      const int c = cmp_key(m_index, key, hk, scratch);
      if (c > 0 || (c == 0 && level > 0)) {
        fail(page_no, level, "a record is above the high key (HK2)");
      }
    }
    if (children != nullptr) {
      const ulint *offsets = rec_get_offsets(rec, m_index, nullptr,
                                             ULINT_UNDEFINED, UT_LOCATION_HERE,
                                             &scratch);
      const bool min_rec = rec_get_info_bits(rec, true) & REC_INFO_MIN_REC_FLAG;
      const dtuple_t *kept = key_of(m_index, rec, level, heap);
      if (children->size() > first_child) {
        /* The previous child of this page ends where this one starts. */
        children->back().high = kept;
      }
      children->push_back(Expected{btr_node_ptr_get_child_page_no(rec, offsets),
                                   min_rec ? nullptr : kept, nullptr});
    }
    prev_key = key;
    last = rec;
  }
  if (children != nullptr && hk != nullptr) {
    /* The last child of this page ends where this page ends. */
    children->back().high = key_of(m_index, hk, 1, heap);
  }
  mem_heap_empty(m_left_heap.get());
  left->last = key_of(m_index, last, level, m_left_heap.get());
}

}  // namespace

bool btr_blink_validate_index(dict_index_t *index, const trx_t *trx,
                              std::string *msg) {
  ut_ad(index->blink);
  mtr_t lock_mtr;
  lock_mtr.start();
  mtr_x_lock(dict_index_get_lock(index), &lock_mtr, UT_LOCATION_HERE);
  bool ok = true;
  try {
    Validator(index, trx).run();
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

ulint btr_blink_validate_all(std::string *msg) {
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
          !btr_blink_validate_index(index, nullptr, &violation)) {
        if (n_bad++ == 0) {
          *msg = violation;
        }
      }
    }
    dict_table_close(table, false, false);
  }
  return n_bad;
}
