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

/** @file include/read0hybrid.h
 Hybrid set of active read-write transaction ids: a bitmap over the dense
 window of recent ("short") ids plus a sorted vector of the few old ("long")
 ones.

 Active_rw_ids is the global set (it stands in for trx_sys->rw_trx_ids when
 innodb_hybrid_read_view is ON); Hybrid_snapshot is its copy inside a
 ReadView (it stands in for ReadView::m_ids).  Neither knows about trx_sys:
 the caller provides the mutual exclusion (trx_sys->mutex), so both can be
 unit tested and benchmarked standalone (define INNOFORK_STANDALONE).

 Invariants (checked by validate() in debug builds)

 Active_rw_ids, with W = window_bits() (a power of two, at least 64):
   G1. Every long id is smaller than every short id; m_long is sorted and
       has no duplicates.
   G2. All short ids lie in [m_short_min, m_short_max] and
       m_short_max / 64 - m_short_min / 64 < W / 64: the short ids fit in
       one turn of the circular bitmap, so bit (id mod W) names id alone.
   G3. No bit is set outside the short ids: bits of ids that left the window
       (erased or demoted) are cleared when they leave.
   G4. m_short_min is the smallest short id (exact); m_short_max is only an
       upper bound (the largest short id inserted since the window was last
       empty), so erase never scans backwards.
   G5. m_n_short counts the set bits; when it reaches zero the window
       forgets its position and restarts at the next inserted id.

 Hybrid_snapshot, with B = BITS (compile-time) and reach R <= B:
   S1. Short ids lie in [m_short_min, m_short_max], which spans at most
       R / 64 words of the circular bitmap; bits outside that range are
       stale and never read: contains() tests the bounds first.
   S2. Long ids are sorted, distinct and lie outside [m_short_min,
       m_short_max].
   S3. m_short_min is exact, so min() is the smallest id in the snapshot
       (the view's m_up_limit_id).

 Costs: insert and erase of a short id are O(1) amortised (the scans that
 advance m_short_min or slide the window pass over each id once); a
 snapshot copies (m_short_max - m_short_min) / 8 bytes plus 8 bytes per
 long id; contains() is a range check and one bit test for short ids and a
 binary search over the long ids only. */

#ifndef read0hybrid_h
#define read0hybrid_h

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#ifdef INNOFORK_STANDALONE
#include <cassert>
using trx_id_t = uint64_t;
#define ut_a(e) assert(e)
#ifdef NDEBUG
#define ut_ad(e) ((void)0)
#else
#define ut_ad(e) assert(e)
#endif
template <typename T>
using hybrid_allocator = std::allocator<T>;
#else
#include "trx0types.h"
#include "univ.i"
#include "ut0new.h"
template <typename T>
using hybrid_allocator = ut::allocator<T>;
#endif /* INNOFORK_STANDALONE */

#ifndef HYBRID_VIEW_BITMAP_BYTES
/** Size of a read view's bitmap; overridable only to benchmark others. */
#define HYBRID_VIEW_BITMAP_BYTES 8192
#endif

namespace hybrid {

/** Bits in a bitmap word. */
constexpr uint64_t WORD_BITS = 64;

/** Sorted vector of transaction ids. */
using id_vector = std::vector<trx_id_t, hybrid_allocator<trx_id_t>>;

/** Bitmap words, circular: id lives in word (id / 64) mod the word count. */
using word_vector = std::vector<uint64_t, hybrid_allocator<uint64_t>>;

class Hybrid_snapshot;

/** The global set of active read-write transaction ids. */
class Active_rw_ids {
 public:
  /** Window of the global bitmap: 64 KiB, 524,288 ids. */
  static constexpr size_t DEFAULT_WINDOW_BITS = 64 * 1024 * 8;

  /** @param[in] window_bits  ids the bitmap covers; a power of two >= 64 */
  explicit Active_rw_ids(size_t window_bits = DEFAULT_WINDOW_BITS);

  /** Add an id that is not in the set.  Ids normally arrive in increasing
  order; an id older than the window goes to the long vector. */
  void insert(trx_id_t id);

  /** Remove an id that is in the set. */
  void erase(trx_id_t id);

  /** @return whether id is in the set */
  bool contains(trx_id_t id) const {
    if (in_short_range(id)) {
      return test(id);
    }
    return std::binary_search(m_long.begin(), m_long.end(), id);
  }

  /** @return number of ids in the set */
  size_t size() const { return m_long.size() + m_n_short; }

  bool empty() const { return size() == 0; }

  /** @return the smallest id; the set must not be empty */
  trx_id_t min() const {
    ut_ad(!empty());
    return m_long.empty() ? m_short_min : m_long.front();
  }

  /** Move every short id smaller than bound to the long vector. */
  void demote_below(trx_id_t bound);

  /** Call f(id) for each id, in increasing order. */
  template <typename F>
  void for_each(F f) const {
    for (trx_id_t id : m_long) f(id);
    if (m_n_short > 0) {
      for_each_bit(m_short_min, m_short_max, f);
    }
  }

  /** @return ids the bitmap window covers */
  size_t window_bits() const { return m_words.size() * WORD_BITS; }

  /** @return number of ids in the long vector */
  size_t n_long() const { return m_long.size(); }

  /** @return number of ids ever moved from the bitmap to the long vector */
  uint64_t n_demoted() const { return m_n_demoted; }

  /** @return true if the invariants G1..G5 hold (debug checks) */
  bool validate() const;

 private:
  friend class Hybrid_snapshot;

  bool in_short_range(trx_id_t id) const {
    return m_n_short > 0 && id >= m_short_min && id <= m_short_max;
  }

  uint64_t &word(trx_id_t id) { return m_words[(id / WORD_BITS) & m_word_mask]; }
  uint64_t word(trx_id_t id) const {
    return m_words[(id / WORD_BITS) & m_word_mask];
  }
  static uint64_t bit(trx_id_t id) { return uint64_t{1} << (id % WORD_BITS); }
  bool test(trx_id_t id) const { return (word(id) & bit(id)) != 0; }

  /** @return the smallest set id in [from, to], or to + 1 if none */
  trx_id_t next_set(trx_id_t from, trx_id_t to) const;

  template <typename F>
  void for_each_bit(trx_id_t from, trx_id_t to, F f) const {
    for (trx_id_t id = next_set(from, to); id <= to; id = next_set(id + 1, to)) {
      f(id);
    }
  }

  /** Bitmap words, a power of two of them. */
  word_vector m_words;
  /** m_words.size() - 1 */
  size_t m_word_mask;
  /** Smallest short id, exact (G4). */
  trx_id_t m_short_min{0};
  /** Upper bound of the short ids (G4). */
  trx_id_t m_short_max{0};
  /** Number of short ids. */
  size_t m_n_short{0};
  /** Long ids, sorted. */
  id_vector m_long;
  /** Ids moved from the bitmap to m_long, ever. */
  uint64_t m_n_demoted{0};
};

/** A ReadView's copy of the active read-write transaction ids. */
class Hybrid_snapshot {
 public:
  /** Bits of a view's bitmap (see storage/innobase/read/README.hybrid.md
  for the 2 KiB vs 8 KiB measurement).  A snapshot copies only the words
  its span covers, so the size sets the reach, not the copy cost. */
  static constexpr size_t BITS = HYBRID_VIEW_BITMAP_BYTES * 8;

  Hybrid_snapshot() = default;
  Hybrid_snapshot(const Hybrid_snapshot &) = delete;
  Hybrid_snapshot &operator=(const Hybrid_snapshot &) = delete;

  /** Take a snapshot of the global set, leaving out the creator's own id.
  Short ids the view's bitmap cannot reach are first demoted in the global
  set, once, so later snapshots copy only bitmap words.
  @param[in,out] global   the global set (its owner's mutex is held)
  @param[in]     creator  id of the creating transaction, or 0
  @return bytes copied */
  size_t copy_from(Active_rw_ids &global, trx_id_t creator);

  /** Copy another snapshot (purge cloning the oldest view).
  @return bytes copied */
  size_t copy_from(const Hybrid_snapshot &other);

  /** Add an id that is not in the snapshot (the creator, when purge
  completes a clone). */
  void insert(trx_id_t id);

  /** Forget all ids. */
  void clear() {
    m_n_short = 0;
    m_long.clear();
  }

  /** @return whether id was active when the snapshot was taken; the
  caller has already answered ids below the smallest or at/above the high
  water mark. */
  bool contains(trx_id_t id) const {
    if (in_short_range(id)) {
      return (word(id) & (uint64_t{1} << (id % WORD_BITS))) != 0;
    }
    return !m_long.empty() && std::binary_search(m_long.begin(), m_long.end(), id);
  }

  /** @return whether contains(id) is answered by the bitmap */
  bool in_short_range(trx_id_t id) const {
    return m_n_short > 0 && id >= m_short_min && id <= m_short_max;
  }

  /** @return number of ids */
  size_t size() const { return m_n_short + m_long.size(); }

  bool empty() const { return size() == 0; }

  /** @return the smallest id; the snapshot must not be empty */
  trx_id_t min() const {
    ut_ad(!empty());
    if (m_n_short == 0) return m_long.front();
    if (m_long.empty()) return m_short_min;
    return std::min(m_short_min, m_long.front());
  }

  /** Call f(id) for each id, in increasing order. */
  template <typename F>
  void for_each(F f) const {
    auto it = m_long.begin();
    for (; it != m_long.end() && (m_n_short == 0 || *it < m_short_min); ++it) f(*it);
    for (trx_id_t id = m_short_min; m_n_short > 0 && id <= m_short_max; ++id) {
      id = next_set(id, m_short_max);
      if (id <= m_short_max) f(id);
    }
    for (; it != m_long.end(); ++it) f(*it);
  }

  /** @return number of long ids */
  size_t n_long() const { return m_long.size(); }

  /** @return true if the invariants S1..S3 hold (debug checks) */
  bool validate() const;

 private:
  static constexpr size_t WORDS = BITS / WORD_BITS;

  uint64_t &word(trx_id_t id) { return m_words[(id / WORD_BITS) % WORDS]; }
  uint64_t word(trx_id_t id) const { return m_words[(id / WORD_BITS) % WORDS]; }

  /** Take long_ids, and the bitmap words covering [short_min, short_max]
  from a circular bitmap of src_words words (a power of two).
  @return bytes copied */
  size_t copy_ids(const id_vector &long_ids, size_t n_short, trx_id_t short_min,
                  trx_id_t short_max, const uint64_t *src, size_t src_words);

  /** Remove one id (the creator) from the snapshot. */
  void remove(trx_id_t id);

  /** @return the smallest set id in [from, to], or to + 1 if none */
  trx_id_t next_set(trx_id_t from, trx_id_t to) const;

  /** @return the largest set id in [from, to], or from - 1 if none */
  trx_id_t prev_set(trx_id_t from, trx_id_t to) const;

  /** Circular bitmap of the short ids. */
  uint64_t m_words[WORDS];
  /** Smallest short id (exact). */
  trx_id_t m_short_min{0};
  /** Upper bound of the short ids. */
  trx_id_t m_short_max{0};
  /** Number of short ids. */
  size_t m_n_short{0};
  /** Long ids, sorted, outside [m_short_min, m_short_max]. */
  id_vector m_long;
};

}  // namespace hybrid

#endif /* read0hybrid_h */
