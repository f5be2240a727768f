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

/** @file read/read0hybrid.cc
 Hybrid bitmap-plus-vector sets of active transaction ids.  The invariants
 G1..G6 and S1..S3 referred to below are stated in read0hybrid.h.

 Memory-ordering table: these classes synchronize nothing themselves.

 Active_rw_ids (the global set)
   W  insert(), erase(), and Hybrid_snapshot::copy_from(Active_rw_ids &),
      which demotes ids and counts snapshots.
   R  contains(), for_each(), the counts.
   O  the caller's mutex (trx_sys->mutex).  Taking a snapshot writes the
      set, so snapshots may not run under a shared latch either.
 Hybrid_snapshot (a view's)
   W  copy_from() and insert(), by the view's owner.
   R  contains(), min_or(), for_each(), and copy_from(const
      Hybrid_snapshot &) by another thread: all const, and no member is
      mutable, so readers never race with each other.
   O  the owner's program order; for another thread's copy, the caller's
      mutex (trx0hybrid.cc's table). */

#include "read0hybrid.h"

namespace hybrid {

namespace {

/** @return mask of the bits of word w that hold ids in [from, to] */
uint64_t range_mask(uint64_t w, trx_id_t from, trx_id_t to) {
  uint64_t mask = ~uint64_t{0};
  if (from / WORD_BITS == w) mask &= ~uint64_t{0} << (from % WORD_BITS);
  if (to / WORD_BITS == w) mask &= ~uint64_t{0} >> (WORD_BITS - 1 - to % WORD_BITS);
  return mask;
}

/** Smallest set id in [from, to] of a circular bitmap, or to + 1.
@param[in] words  bitmap
@param[in] mask   word count - 1 (a power of two - 1) */
trx_id_t circular_next_set(const uint64_t *words, size_t mask, trx_id_t from,
                           trx_id_t to) {
  for (uint64_t w = from / WORD_BITS; from <= to && w <= to / WORD_BITS; ++w) {
    const uint64_t bits = words[w & mask] & range_mask(w, from, to);
    if (bits != 0) {
      return w * WORD_BITS + __builtin_ctzll(bits);
    }
  }
  return to + 1;
}

bool is_sorted_unique(const id_vector &v) {
  return std::adjacent_find(v.begin(), v.end(), [](trx_id_t a, trx_id_t b) {
           return a >= b;
         }) == v.end();
}

}  // namespace

/* ---------------------------------------------------------------------- */
/* Active_rw_ids                                                          */

Active_rw_ids::Active_rw_ids(size_t window_bits,
                             const hybrid_allocator<uint64_t> &alloc)
    : m_words(window_bits / WORD_BITS, 0, alloc),
      m_word_mask(window_bits / WORD_BITS - 1),
      m_long(alloc) {
  ut_a(window_bits >= WORD_BITS);
  ut_a((window_bits & (window_bits - 1)) == 0);
  after_change();
}

trx_id_t Active_rw_ids::next_set(trx_id_t from, trx_id_t to) const {
  return circular_next_set(m_words.data(), m_word_mask, from, to);
}

void Active_rw_ids::insert_low(trx_id_t id) {
  ut_ad(id > 0);
  ut_ad(!contains(id));

  if (m_n_short > 0 && id < m_short_min) {
    /* Older than every short id (e.g. transactions resurrected out of
    order): it belongs with the long ones (G1). */
    m_long.insert(std::upper_bound(m_long.begin(), m_long.end(), id), id);
    return;
  }

  if (m_n_short > 0 && id / WORD_BITS - m_short_min / WORD_BITS > m_word_mask) {
    /* The window must slide to reach id (G2): the oldest short ids become
    long ones. */
    demote_low((id / WORD_BITS - m_word_mask) * WORD_BITS);
  }

  if (m_n_short == 0) {
    if (!m_long.empty() && id < m_long.back()) {
      m_long.insert(std::upper_bound(m_long.begin(), m_long.end(), id), id);
      return;
    }
    /* The window restarts at id (G5). */
    m_short_min = m_short_max = id;
  }

  word(id) |= bit(id);
  ++m_n_short;
  m_short_max = std::max(m_short_max, id);
}

void Active_rw_ids::erase_low(trx_id_t id) {
  if (in_short_range(id) && test(id)) {
    word(id) &= ~bit(id);
    if (--m_n_short > 0 && id == m_short_min) {
      /* Keep m_short_min exact (G4).  The scan is amortised: the minimum
      only moves forward until the window empties. */
      m_short_min = next_set(id + 1, m_short_max);
    }
    return;
  }

  auto it = std::lower_bound(m_long.begin(), m_long.end(), id);
  ut_a(it != m_long.end() && *it == id);
  m_long.erase(it);
}

void Active_rw_ids::demote_low(trx_id_t bound) {
  if (m_n_short == 0 || bound <= m_short_min) {
    return;
  }
  const trx_id_t last = std::min(bound - 1, m_short_max);

  /* Ids move in increasing order and all are larger than the long ones
  (G1), so appending keeps m_long sorted. */
  for (uint64_t w = m_short_min / WORD_BITS; w <= last / WORD_BITS; ++w) {
    uint64_t &slot = m_words[w & m_word_mask];
    uint64_t bits = slot & range_mask(w, m_short_min, last);
    slot &= ~bits;
    while (bits != 0) {
      m_long.push_back(w * WORD_BITS + __builtin_ctzll(bits));
      bits &= bits - 1;
      --m_n_short;
      ++m_n_demoted;
    }
  }

  if (m_n_short > 0) {
    m_short_min = next_set(last + 1, m_short_max);
  }
}

bool Active_rw_ids::validate() const {
  if (!is_sorted_unique(m_long)) return false;                         /* G1 */
  size_t n = 0;
  for (uint64_t w : m_words) n += __builtin_popcountll(w);
  if (n != m_n_short) return false;                                    /* G3, G5 */
  if (m_fast_words != fast_words()) return false;                     /* G6 */
  if (m_n_short == 0) return m_short_min == NO_ID;                     /* G4 */
  if (!m_long.empty() && m_long.back() >= m_short_min) return false;   /* G1 */
  if (m_short_max / WORD_BITS - m_short_min / WORD_BITS > m_word_mask) /* G2 */
    return false;
  if (!test(m_short_min)) return false;                                /* G4 */
  size_t in_range = 0;
  for_each_bit(m_short_min, m_short_max, [&](trx_id_t) { ++in_range; });
  return in_range == m_n_short;                                        /* G2, G3 */
}

/* ---------------------------------------------------------------------- */
/* Hybrid_snapshot                                                        */

trx_id_t Hybrid_snapshot::next_set(trx_id_t from) const {
  for (uint64_t off = from - m_base; off < m_n_bits;
       off = (off / WORD_BITS + 1) * WORD_BITS) {
    const uint64_t bits = m_words[off / WORD_BITS] >> (off % WORD_BITS);
    if (bits != 0) {
      return m_base + off + __builtin_ctzll(bits);
    }
  }
  return NO_ID;
}

void Hybrid_snapshot::reserve_words(size_t n) {
  ut_ad(n <= WORDS);
  /* Grow by doubling, from one cache line: a view that once saw a wide
  span keeps the room for it (as stock views keep their m_ids). */
  size_t size = m_capacity;
  while (size < n) size *= 2;
  m_buf.resize(std::min(size, WORDS));
  m_words = m_buf.data();
  m_capacity = m_buf.size();
}

namespace {
/** Copy n words from a circular bitmap whose end is n1 words after word s.
Out of line, so that copy_short() needs no stack frame for its common case. */
[[gnu::noinline]] void copy_wrapped(uint64_t *dst, const uint64_t *src,
                                    size_t s, size_t n1, size_t n) {
  memcpy(dst, src + s, n1 * sizeof(uint64_t));
  memcpy(dst + n1, src, (n - n1) * sizeof(uint64_t));
}
}  // namespace

void Hybrid_snapshot::copy_short(const Active_rw_ids &global, size_t n) {
  ut_ad(n > 0 && n <= m_capacity && global.m_n_short > 0);
  ut_ad(n == global.m_short_max / WORD_BITS - global.m_short_min / WORD_BITS + 1);
  const trx_id_t short_min = global.m_short_min;
  const uint64_t first = short_min / WORD_BITS;
  const size_t s = first & global.m_word_mask;
  const size_t n1 = std::min(n, global.m_word_mask + 1 - s);
  m_base = first * WORD_BITS;
  m_n_bits = n * WORD_BITS;
  m_short_min = short_min;
  if (n1 < n) {
    /* The span wraps around the end of the circular bitmap. */
    copy_wrapped(m_words, global.m_words.data(), s, n1, n);
  } else {
    memcpy(m_words, &global.m_words[s], n * sizeof(uint64_t));
  }
}

size_t Hybrid_snapshot::copy_from_low(Active_rw_ids &global,
                                      trx_id_t creator) {
  if (global.m_n_short > 0 &&
      global.m_short_max / WORD_BITS - global.m_short_min / WORD_BITS >=
          WORDS) {
    /* Short ids out of the view's reach become long ones in the global set
    once, instead of being gathered by every later snapshot. */
    global.demote_below((global.m_short_max / WORD_BITS - WORDS + 1) *
                        WORD_BITS);
  }

  const trx_id_t *long_ids = global.m_long.data();
  assign_long(long_ids, long_ids + global.m_long.size());
  if (m_n_long > 0) {
    ++global.m_n_snapshots_with_long_ids;
  }

  size_t n = 0;
  if (global.m_n_short == 0) {
    m_short_min = NO_ID;
    m_n_bits = 0;
  } else {
    n = global.m_short_max / WORD_BITS - global.m_short_min / WORD_BITS + 1;
    if (n > m_capacity) {
      reserve_words(n);
    }
    copy_short(global, n);
  }

  if (creator != 0) {
    remove(creator);
  }
  ut_ad(validate());
  return (n + m_n_long) * sizeof(uint64_t);
}

size_t Hybrid_snapshot::copy_from(const Hybrid_snapshot &other) {
  ut_ad(&other != this);
  assign_long(other.long_begin(), other.long_end());
  m_short_min = other.m_short_min;
  m_base = other.m_base;
  m_n_bits = other.m_n_bits;
  const size_t n = m_n_bits / WORD_BITS;
  if (n > m_capacity) {
    reserve_words(n);
  }
  if (n > 0) {
    memcpy(m_words, other.m_words, n * sizeof(uint64_t));
  }
  ut_ad(validate());
  return (n + m_n_long) * sizeof(uint64_t);
}

void Hybrid_snapshot::remove(trx_id_t id) {
  if (in_bitmap(id)) {
    const uint64_t off = id - m_base;
    m_words[off / WORD_BITS] &= ~(uint64_t{1} << (off % WORD_BITS));
    if (id == m_short_min) {
      m_short_min = next_set(id + 1);
    }
    return;
  }
  m_long.resize(m_n_long);
  auto it = std::lower_bound(m_long.begin(), m_long.end(), id);
  if (it != m_long.end() && *it == id) m_long.erase(it);
  m_n_long = m_long.size();
}

void Hybrid_snapshot::insert(trx_id_t id) {
  ut_ad(!contains(id));
  const uint64_t off = id - m_base;
  if (off < m_n_bits) {
    m_words[off / WORD_BITS] |= uint64_t{1} << (off % WORD_BITS);
    m_short_min = std::min(m_short_min, id);
  } else {
    /* Outside the covered words there are no bits (S1): keep it with the
    long ids (S2). */
    m_long.resize(m_n_long);
    m_long.insert(std::upper_bound(m_long.begin(), m_long.end(), id), id);
    m_n_long = m_long.size();
  }
}

size_t Hybrid_snapshot::size() const {
  size_t n = m_n_long;
  for (uint64_t i = 0; i < m_n_bits / WORD_BITS; ++i) {
    n += __builtin_popcountll(m_words[i]);
  }
  return n;
}

bool Hybrid_snapshot::validate() const {
  if (m_n_long > m_long.size() ||                                /* S2 */
      std::adjacent_find(long_begin(), long_end(), std::greater_equal<>()) !=
          long_end())
    return false;
  if (m_base % WORD_BITS != 0 || m_n_bits % WORD_BITS != 0 ||    /* S1 */
      m_n_bits > BITS || m_n_bits > m_buf.size() * WORD_BITS)
    return false;
  if (m_short_min != next_set(m_base)) return false;             /* S3 */
  for (const trx_id_t *id = long_begin(); id != long_end(); ++id) {
    if (in_bitmap(*id)) return false;                              /* S2 */
  }
  return true;
}

}  // namespace hybrid
