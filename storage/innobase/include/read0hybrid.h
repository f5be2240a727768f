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
   G4. m_short_min is the smallest short id (exact), NO_ID if there is
       none; m_short_max is only an
       upper bound (the largest short id inserted since the window was last
       empty), so erase never scans backwards.
   G5. m_n_short counts the set bits; when it reaches zero the window
       forgets its position and restarts at the next inserted id.
   G6. m_fast_words is m_short_max / 64 - m_short_min / 64 + 1 (0 when the
       set is empty) if m_long is empty and the window has two words or
       more, and ~0 otherwise.

 Hybrid_snapshot, with R = BITS (compile-time):
   S1. The bitmap covers [m_base, m_base + m_n_bits), m_base a multiple of
       64 and m_n_bits <= R; within it a bit is set exactly for the short
       ids.  A snapshot copies whole words of the global bitmap, which by
       G3 hold no other bits, so contains() needs no bounds but the
       covered range.
   S2. Long ids are sorted and distinct, and none has its bit set (one may
       lie in a covered word, below the smallest short id).
   S3. m_short_min is the smallest short id, NO_ID if there is none, so
       min_or() is the smallest id in the snapshot (the view's
       m_up_limit_id) with one comparison per part.

 Costs: insert and erase of a short id are O(1) amortised (the scans that
 advance m_short_min or slide the window pass over each id once); a
 snapshot copies the bitmap words from m_short_min to m_short_max plus 8
 bytes per long id; contains() is one range check and one bit test, and a
 binary search over the long ids only if there are any. */

#ifndef read0hybrid_h
#define read0hybrid_h

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
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

/** m_short_min of a set or snapshot without short ids: larger than any id,
so that min(m_short_min, x) needs no test. */
constexpr trx_id_t NO_ID = ~trx_id_t{0};

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

  /** @param[in] window_bits  ids the bitmap covers; a power of two >= 64
  @param[in] alloc        allocator (with the server's memory key) */
  explicit Active_rw_ids(
      size_t window_bits = DEFAULT_WINDOW_BITS,
      const hybrid_allocator<uint64_t> &alloc = hybrid_allocator<uint64_t>());

  /** Add an id that is not in the set.  Ids normally arrive in increasing
  order; an id older than the window goes to the long vector. */
  void insert(trx_id_t id) {
    insert_low(id);
    after_change();
  }

  /** Remove an id that is in the set. */
  void erase(trx_id_t id) {
    erase_low(id);
    after_change();
  }

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
  void demote_below(trx_id_t bound) {
    demote_low(bound);
    after_change();
  }

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

  /** @return number of snapshots ever taken */
  uint64_t n_snapshots() const { return m_n_snapshots; }

  /** @return number of snapshots ever taken that got long ids */
  uint64_t n_snapshots_with_long_ids() const {
    return m_n_snapshots_with_long_ids;
  }

  /** @return true if the invariants G1..G6 hold (debug checks) */
  bool validate() const;

 private:
  friend class Hybrid_snapshot;

  void insert_low(trx_id_t id);
  void erase_low(trx_id_t id);
  void demote_low(trx_id_t bound);

  /** @return what m_fast_words must be (G6) */
  uint64_t fast_words() const {
    return !m_long.empty() || m_word_mask == 0 ? ~uint64_t{0}
           : m_n_short == 0 ? 0
           : m_short_max / WORD_BITS - m_short_min / WORD_BITS + 1;
  }

  /** Restore G4 and G6 after a change. */
  void after_change() {
    if (m_n_short == 0) m_short_min = NO_ID;
    m_fast_words = fast_words();
  }

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
  trx_id_t m_short_min{NO_ID};
  /** Upper bound of the short ids (G4). */
  trx_id_t m_short_max{0};
  /** Number of short ids. */
  size_t m_n_short{0};
  /** Long ids, sorted. */
  id_vector m_long;
  /** Ids moved from the bitmap to m_long, ever. */
  uint64_t m_n_demoted{0};
  /** Snapshots taken, ever. */
  uint64_t m_n_snapshots{0};
  /** Snapshots that got long ids, ever (counted off the fast path). */
  uint64_t m_n_snapshots_with_long_ids{0};
  /** Bitmap words a snapshot copies (0 if the set is empty), or ~0 if
  there are long ids or the window is one word: lets a snapshot take its
  fast path after reading one member (G6). */
  uint64_t m_fast_words{0};
};

/** A ReadView's copy of the active read-write transaction ids.  Its bitmap
starts at one cache line and grows to the widest span the view has copied,
at most BITS ids.  A view of a server with the switch OFF has none (see
trx0hybrid.h). */
class Hybrid_snapshot {
 public:
  /** Reach of a view's bitmap in ids (see storage/innobase/read/README.hybrid.md
  for the 2 KiB vs 8 KiB measurement).  A snapshot allocates and copies only
  the words its span covers, so this bounds memory, not the copy cost. */
  static constexpr size_t BITS = HYBRID_VIEW_BITMAP_BYTES * 8;

  /** @param[in] alloc  allocator of the bitmap and the long ids (it carries
  the performance_schema memory key in the server) */
  explicit Hybrid_snapshot(
      const hybrid_allocator<uint64_t> &alloc = hybrid_allocator<uint64_t>())
      : m_buf(8, 0, alloc),
        m_words(m_buf.data()),
        m_capacity(m_buf.size()),
        m_long(alloc) {}
  Hybrid_snapshot(const Hybrid_snapshot &) = delete;
  Hybrid_snapshot &operator=(const Hybrid_snapshot &) = delete;

  /** Take a snapshot of the global set, leaving out the creator's own id.
  Short ids the view's bitmap cannot reach are first demoted in the global
  set, once, so later snapshots copy only bitmap words.
  @param[in,out] global   the global set (its owner's mutex is held)
  @param[in]     creator  id of the creating transaction, or 0
  @return bytes copied */
  size_t copy_from(Active_rw_ids &global, trx_id_t creator) {
    ++global.m_n_snapshots;
    const uint64_t n = global.m_fast_words;
    if (n <= 2) {
      copy_two_words(global);
    } else if (n <= m_capacity) {
      m_n_long = 0;
      copy_short(global, n);
    } else {
      return copy_from_low(global, creator);
    }
    if (creator != 0) {
      remove(creator);
    }
    ut_ad(validate());
    return std::max<uint64_t>(n, 2) * sizeof(uint64_t);
  }

  /** Copy another snapshot (purge cloning the oldest view).
  @return bytes copied */
  size_t copy_from(const Hybrid_snapshot &other);

  /** Add an id that is not in the snapshot (the creator, when purge
  completes a clone). */
  void insert(trx_id_t id);

  /** @return whether id was active when the snapshot was taken; the
  caller has already answered ids below the smallest or at/above the high
  water mark.  A set bit is exact (S1); a clear one may still be a long id
  that shares a word with the short ones (S2). */
  bool contains(trx_id_t id) const {
    return in_bitmap(id) ||
           (m_n_long > 0 && std::binary_search(long_begin(), long_end(), id));
  }

  /** @return whether id is a short id (its bit is set) */
  bool in_bitmap(trx_id_t id) const {
    /* Ids below m_base wrap around to a huge offset. */
    const uint64_t off = id - m_base;
    return off < m_n_bits && ((m_words[off / WORD_BITS] >> (off % WORD_BITS)) & 1);
  }

  /** @return number of ids */
  size_t size() const;

  bool empty() const { return m_short_min == NO_ID && m_n_long == 0; }

  /** @return the smallest of the ids and bound (the view's m_low_limit_id
  when it is prepared) */
  trx_id_t min_or(trx_id_t bound) const {
    const trx_id_t m = std::min(m_short_min, bound); /* S3: NO_ID if none */
    return m_n_long == 0 ? m : std::min(m, m_long[0]);
  }

  /** Call f(id) for each id, in increasing order. */
  template <typename F>
  void for_each(F f) const {
    const trx_id_t *it = long_begin();
    for (uint64_t off = 0; off < m_n_bits; ++off) {
      if (!in_bitmap(m_base + off)) continue;
      for (; it != long_end() && *it < m_base + off; ++it) f(*it);
      f(m_base + off);
    }
    for (; it != long_end(); ++it) f(*it);
  }

  /** @return number of long ids */
  size_t n_long() const { return m_n_long; }

  /** @return true if the invariants S1..S3 hold (debug checks) */
  bool validate() const;

 private:
  static constexpr size_t WORDS = BITS / WORD_BITS;
  static_assert(WORDS >= 8, "the buffer starts at one cache line");

  /** The fast path of copy_from(): no long ids and the short ids within two
  words.  Copies two words: if the span is one word the next one is copied
  too, which by G3 has no bit set and, the window being two words or more
  (G6), is not the first word again. */
  void copy_two_words(const Active_rw_ids &global) {
    /* Everything is read before anything is written, which the compiler
    cannot know it may reorder. */
    const trx_id_t short_min = global.m_short_min;
    const size_t mask = global.m_word_mask;
    const uint64_t *src = global.m_words.data();
    const trx_id_t first = short_min / WORD_BITS;
    const uint64_t w0 = src[first & mask];
    const uint64_t w1 = src[(first + 1) & mask];
    m_words[0] = w0;
    m_words[1] = w1;
    /* If the set is empty, short_min is NO_ID (G4) and m_base wraps around
    to cover ids 0 to 63 with zero bits (G3): the snapshot is empty too. */
    m_base = first * WORD_BITS;
    m_n_bits = 2 * WORD_BITS;
    m_short_min = short_min;
    m_n_long = 0;
  }

  /** Copy the n words (n <= m_capacity) of the global set's short ids:
  the copy_from() of a span over two words.  By G3 the words hold no bits
  but theirs (S1). */
  void copy_short(const Active_rw_ids &global, size_t n);

  /** copy_from(global, creator) with long ids or a span wider than m_buf. */
  size_t copy_from_low(Active_rw_ids &global, trx_id_t creator);

  /** Make room for n bitmap words (n <= WORDS). */
  void reserve_words(size_t n);

  /** Remove one id (the creator) from the snapshot. */
  void remove(trx_id_t id);

  /** @return the smallest short id >= from, or NO_ID if none */
  trx_id_t next_set(trx_id_t from) const;

  /** Bitmap words: m_words[i] holds ids m_base + 64 i ... m_base + 64 i + 63
  for i < m_n_bits / 64.  m_words is m_buf.data(), at least 8 words. */
  word_vector m_buf;
  uint64_t *m_words;
  /** m_buf.size(), in words */
  size_t m_capacity;
  /** First id of m_words[0], a multiple of 64. */
  trx_id_t m_base{0};
  /** Ids the bitmap covers now (a multiple of 64, at most BITS). */
  uint64_t m_n_bits{0};
  /** Smallest short id, NO_ID if there is none (S3). */
  trx_id_t m_short_min{NO_ID};
  /** Long ids: the first m_n_long elements of m_long, sorted; none has its
  bit set (S2).  The fast path forgets them with one store. */
  id_vector m_long;
  size_t m_n_long{0};

  const trx_id_t *long_begin() const { return m_long.data(); }
  const trx_id_t *long_end() const { return m_long.data() + m_n_long; }

  /** Replace the long ids with [first, last). */
  void assign_long(const trx_id_t *first, const trx_id_t *last) {
    m_long.assign(first, last);
    m_n_long = m_long.size();
  }
};

}  // namespace hybrid

#endif /* read0hybrid_h */
