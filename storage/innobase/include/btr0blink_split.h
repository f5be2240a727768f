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

/** @file include/btr0blink_split.h
 Where a B-link page splits (README.blink.md, S2): the choice of the split
 point, proven to fit before anything changes.  Pure arithmetic over record
 sizes, so that the fast tier tests it without a server
 (unittest/gunit/innodb/btr0blink_split-t.cc).

 The page's user records r[0..n-1] and the tuple T, which goes after
 r[p-1], form the sequence S = r[0..p-1], T, r[p..n-1].  Splitting at k
 keeps S[0..k-1] on the left page, which gets a high key built from S[k],
 and moves S[k..n] to the new right page, which inherits the left page's old
 high key.  When no k fits, the page is split without the tuple (S is then
 r[0..n-1]) and the insert starts over on the half the tuple belongs to. */

#ifndef btr0blink_split_h
#define btr0blink_split_h

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace blink_split {

/** A split: k items stay on the left page. */
struct Plan {
  size_t k;
  /** whether the tuple is one of the items */
  bool with_tuple;
};

/** Sizes of the items of a split.
@tparam HkSize  callable (size_t k, bool with_tuple) -> bytes of the high
                key that item k would give the left page */
template <typename HkSize>
class Items {
 public:
  /** @param[in] rec_sizes    bytes of each user record, in order
  @param[in] tuple_pos     number of records before the tuple
  @param[in] tuple_size    bytes of the tuple as a record
  @param[in] old_hk_size   bytes of the page's high key (0: none)
  @param[in] hk_size       see HkSize */
  Items(std::vector<size_t> rec_sizes, size_t tuple_pos, size_t tuple_size,
        size_t old_hk_size, HkSize hk_size)
      : m_recs(std::move(rec_sizes)),
        m_p(tuple_pos),
        m_tuple(tuple_size),
        m_old_hk(old_hk_size),
        m_hk_size(std::move(hk_size)) {}

  size_t n_recs() const { return m_recs.size(); }
  size_t n_items(bool with_tuple) const { return n_recs() + with_tuple; }
  size_t tuple_pos() const { return m_p; }
  size_t old_hk_size() const { return m_old_hk; }

  /** Is item i of the sequence the tuple? */
  bool is_tuple(size_t i, bool with_tuple) const {
    return with_tuple && i == m_p;
  }
  /** Index of record j in the sequence with the tuple. */
  size_t position_of_rec(size_t j) const { return j < m_p ? j : j + 1; }
  /** Index into the records of item i (not the tuple). */
  size_t rec_of(size_t i, bool with_tuple) const {
    return with_tuple && i > m_p ? i - 1 : i;
  }

  size_t item_size(size_t i, bool with_tuple) const {
    return is_tuple(i, with_tuple) ? m_tuple : m_recs[rec_of(i, with_tuple)];
  }
  size_t hk_size(size_t k, bool with_tuple) const {
    return m_hk_size(k, with_tuple);
  }

 private:
  std::vector<size_t> m_recs;
  size_t m_p;
  size_t m_tuple;
  size_t m_old_hk;
  HkSize m_hk_size;
};

/** The split point for inserts that are not sequential (choose_split()),
as the number of items (records and the tuple) that stay left: stock's.
Its right half starts at page_get_middle_rec(), record m, and the tuple goes
to the side it sorts on.  Inserts that climb through a page in key order
then fill the half after the tuple, the smaller one, before it splits
again; the middle of the records and the tuple would give that half more
and split it again sooner (benchmarks/doc/blink: split points). */
constexpr size_t middle_point(size_t n_recs, size_t tuple_pos) {
  const size_t m = (n_recs + 2) / 2 - 1;
  const size_t k = tuple_pos <= m ? m + 1 : m;
  return k > 0 ? k : 1; /* one record: the tuple goes right */
}

/** Whether a page can hold n records and F1's room, bytes in all: the
condition the insert path keeps (btr_blink_max_insert_size() of
page_get_max_insert_size_after_reorganize()), so that a page an insert
filled holds all its records again after a split.  The high key takes no
directory slot; F1's room holds one (hk_reserve()).
@param[in] free_space_of_empty  page_get_free_space_of_empty()
@param[in] reserved  callable (n) -> page_dir_calc_reserved_space(n) */
template <typename Reserved>
bool fits(size_t bytes, size_t n, size_t free_space_of_empty,
          Reserved reserved) {
  return bytes + reserved(n) <= free_space_of_empty;
}

/** F1: the room a page keeps for a high key: the longest node pointer of
its index plus the directory slot that page_get_max_insert_size() sets
aside for one more record. */
constexpr size_t hk_reserve(size_t node_ptr_max, size_t slot_size) {
  return node_ptr_max + slot_size;
}

/** F2 (README.blink.md; part of eligibility, M4): an empty page holds two
node pointers of the index's greatest length and F1's room.  A page with
one node pointer can then always take a second one, which the new root of a
root raise must (else it raises again, without end); and with records of at
most a third of a page a split of a non-leaf page always fits (S2).
@param[in] node_ptr_max         the index's longest node pointer
@param[in] slot_size            PAGE_DIR_SLOT_SIZE
@param[in] free_space_of_empty  page_get_free_space_of_empty()
@param[in] reserved  callable (n) -> page_dir_calc_reserved_space(n) */
template <typename Reserved>
bool node_ptrs_fit(size_t node_ptr_max, size_t slot_size,
                   size_t free_space_of_empty, Reserved reserved) {
  return fits(2 * node_ptr_max + hk_reserve(node_ptr_max, slot_size), 2,
              free_space_of_empty, reserved);
}

/** Whether splitting at k fits both halves, high keys included. */
template <typename I, typename Fits>
bool plan_fits(const I &items, size_t k, bool with_tuple, Fits fit) {
  const size_t n = items.n_items(with_tuple);
  size_t left = 0;
  size_t right = items.old_hk_size();
  for (size_t i = 0; i < n; ++i) {
    (i < k ? left : right) += items.item_size(i, with_tuple);
  }
  return fit(left + items.hk_size(k, with_tuple), k) && fit(right, n - k);
}

/** A page being split, without the sizes of its records: what the split
knows from the page header (README.blink.md, S2). */
struct Shape {
  /** user records */
  size_t n_recs;
  /** their bytes: page_get_data_size() less the high key's */
  size_t recs_bytes;
  /** number of records before the tuple */
  size_t tuple_pos;
  /** bytes of the tuple as a record */
  size_t tuple_size;
  /** F1's room, for the high key each half gets (hk_reserve()) */
  size_t reserve;
};

/** Prove the split at k with the tuple (S2) at the cost of the stock
split, which reads the sizes of a few records only
(btr_page_insert_fits()).  The half without the tuple holds some of the
page's records: it fits if all of them fit with its number of records and
F1's room, which every page of a B-link index keeps (README.blink.md, F1).
The half with the tuple is summed when it holds fewer records than half the
other; else it is bounded by every byte of the page and the tuple, less
the records of the other half read in order until the bound fits.  Where
F1 holds the answer is plan_fits()'s; a page without F1's room may be
refused where plan_fits() would accept, and the caller then tries its next
point, and choose() last.
@param[in] shape    the page
@param[in] k        items kept on the left page, 1 to shape.n_recs
@param[in] size_of  callable (j) -> bytes of record j; called with
                    increasing j from the first record of one half
@param[in] fit      callable (bytes, n_recs) -> whether they fit on a page
@return the plan, or nothing if it is not proven */
template <typename SizeOf, typename Fits>
std::optional<Plan> prove(const Shape &shape, size_t k, SizeOf size_of,
                          Fits fit) {
  if (k == 0 || k > shape.n_recs) {
    return std::nullopt;
  }
  const bool tuple_left = shape.tuple_pos < k;
  /* The first record of the right half. */
  const size_t split = tuple_left ? k - 1 : k;
  const size_t tuple_first = tuple_left ? 0 : split;
  const size_t tuple_end = tuple_left ? split : shape.n_recs;
  const size_t other_first = tuple_left ? split : 0;
  const size_t other_end = tuple_left ? shape.n_recs : split;
  const size_t n_tuple_side = tuple_end - tuple_first + 1;
  const size_t n_other = other_end - other_first;
  if (!fit(shape.recs_bytes + shape.reserve, n_other)) {
    return std::nullopt;
  }
  if (n_tuple_side - 1 < n_other / 2) {
    size_t bytes = shape.tuple_size + shape.reserve;
    for (size_t j = tuple_first; j < tuple_end; ++j) {
      bytes += size_of(j);
    }
    return fit(bytes, n_tuple_side) ? std::optional<Plan>(Plan{k, true})
                                    : std::nullopt;
  }
  size_t bound = shape.recs_bytes + shape.tuple_size + shape.reserve;
  for (size_t j = other_first;; ++j) {
    if (fit(bound, n_tuple_side)) {
      return Plan{k, true};
    }
    if (j == other_end) {
      return std::nullopt;
    }
    bound -= std::min(bound, size_of(j));
  }
}

/** Choose the split (S2): the preferred point first (the stock heuristics
for sequential inserts, 0 for none), then the points that balance the bytes
best, with the tuple, then without it.  The first one that fits wins.
@param[in] fit  callable (bytes, n_recs) -> whether they fit on a page
@return the plan, or nothing if no split fits (which README.blink.md S2
argues cannot happen for InnoDB's record and key size limits) */
template <typename I, typename Fits>
std::optional<Plan> choose(const I &items, size_t preferred_k, Fits fit) {
  if (preferred_k > 0 && preferred_k <= items.n_recs() &&
      plan_fits(items, preferred_k, true, fit)) {
    return Plan{preferred_k, true};
  }
  for (bool with_tuple : {true, false}) {
    const size_t n = items.n_items(with_tuple);
    size_t total = 0;
    for (size_t i = 0; i < n; ++i) total += items.item_size(i, with_tuple);

    std::vector<std::pair<size_t, size_t>> candidates;  // (imbalance, k)
    size_t left = 0;
    for (size_t k = 1; k < n; ++k) {
      left += items.item_size(k - 1, with_tuple);
      const size_t right = total - left;
      candidates.emplace_back(left > right ? left - right : right - left, k);
    }
    std::sort(candidates.begin(), candidates.end());
    for (const auto &c : candidates) {
      if (plan_fits(items, c.second, with_tuple, fit)) {
        return Plan{c.second, with_tuple};
      }
    }
  }
  return std::nullopt;
}

}  // namespace blink_split

#endif /* btr0blink_split_h */
