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
 G1..G5 and S1..S3 referred to below are stated in read0hybrid.h. */

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

Active_rw_ids::Active_rw_ids(size_t window_bits)
    : m_words(window_bits / WORD_BITS), m_word_mask(window_bits / WORD_BITS - 1) {
  ut_a(window_bits >= WORD_BITS);
  ut_a((window_bits & (window_bits - 1)) == 0);
}

trx_id_t Active_rw_ids::next_set(trx_id_t from, trx_id_t to) const {
  return circular_next_set(m_words.data(), m_word_mask, from, to);
}

void Active_rw_ids::insert(trx_id_t id) {
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
    demote_below((id / WORD_BITS - m_word_mask) * WORD_BITS);
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

void Active_rw_ids::erase(trx_id_t id) {
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

void Active_rw_ids::demote_below(trx_id_t bound) {
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
  if (m_n_short == 0) return true;
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

trx_id_t Hybrid_snapshot::next_set(trx_id_t from, trx_id_t to) const {
  return circular_next_set(m_words, WORDS - 1, from, to);
}

trx_id_t Hybrid_snapshot::prev_set(trx_id_t from, trx_id_t to) const {
  for (uint64_t w = to / WORD_BITS; from <= to; --w) {
    const uint64_t bits = word(w * WORD_BITS) & range_mask(w, from, to);
    if (bits != 0) {
      return w * WORD_BITS + (WORD_BITS - 1 - __builtin_clzll(bits));
    }
    if (w == from / WORD_BITS) break;
  }
  return from - 1;
}

size_t Hybrid_snapshot::copy_ids(const id_vector &long_ids, size_t n_short,
                                 trx_id_t short_min, trx_id_t short_max,
                                 const uint64_t *src, size_t src_words) {
  m_long.assign(long_ids.begin(), long_ids.end());
  size_t bytes = m_long.size() * sizeof(trx_id_t);
  m_n_short = n_short;
  if (n_short == 0) {
    return bytes;
  }
  m_short_min = short_min;
  m_short_max = short_max;
  ut_ad(short_max / WORD_BITS - short_min / WORD_BITS <
        std::min(src_words, WORDS)); /* S1 */
  uint64_t w = short_min / WORD_BITS;
  const uint64_t end = short_max / WORD_BITS + 1;
  while (w < end) {
    /* Copy the longest run that wraps in neither bitmap. */
    const size_t s = w & (src_words - 1);
    const size_t d = w % WORDS;
    const size_t n = std::min<uint64_t>({end - w, src_words - s, WORDS - d});
    memcpy(&m_words[d], &src[s], n * sizeof(uint64_t));
    bytes += n * sizeof(uint64_t);
    w += n;
  }
  return bytes;
}

size_t Hybrid_snapshot::copy_from(Active_rw_ids &global, trx_id_t creator) {
  if (global.m_n_short > 0 &&
      global.m_short_max / WORD_BITS - global.m_short_min / WORD_BITS >=
          WORDS) {
    /* Short ids out of the view's reach become long ones in the global set
    once, instead of being gathered by every later snapshot. */
    global.demote_below((global.m_short_max / WORD_BITS - WORDS + 1) *
                        WORD_BITS);
  }

  size_t bytes = copy_ids(global.m_long, global.m_n_short, global.m_short_min,
                          global.m_short_max, global.m_words.data(),
                          global.m_words.size());

  if (creator != 0) {
    remove(creator);
  }
  ut_ad(validate());
  return bytes;
}

size_t Hybrid_snapshot::copy_from(const Hybrid_snapshot &other) {
  ut_ad(&other != this);
  const size_t bytes =
      copy_ids(other.m_long, other.m_n_short, other.m_short_min,
               other.m_short_max, other.m_words, WORDS);
  ut_ad(validate());
  return bytes;
}

void Hybrid_snapshot::remove(trx_id_t id) {
  if (in_short_range(id)) {
    const uint64_t b = uint64_t{1} << (id % WORD_BITS);
    if ((word(id) & b) == 0) return;
    word(id) &= ~b;
    if (--m_n_short == 0) return;
    if (id == m_short_min) m_short_min = next_set(id + 1, m_short_max);
    if (id == m_short_max) m_short_max = prev_set(m_short_min, id - 1);
    return;
  }
  auto it = std::lower_bound(m_long.begin(), m_long.end(), id);
  if (it != m_long.end() && *it == id) m_long.erase(it);
}

void Hybrid_snapshot::insert(trx_id_t id) {
  ut_ad(!contains(id));
  if (in_short_range(id)) {
    word(id) |= uint64_t{1} << (id % WORD_BITS);
    ++m_n_short;
  } else {
    /* Outside the short range the bitmap words may be stale (S1): keep it
    in the long ids (S2). */
    m_long.insert(std::upper_bound(m_long.begin(), m_long.end(), id), id);
  }
}

bool Hybrid_snapshot::validate() const {
  if (!is_sorted_unique(m_long)) return false; /* S2 */
  if (m_n_short == 0) return true;
  if (m_short_max / WORD_BITS - m_short_min / WORD_BITS >= WORDS) /* S1 */
    return false;
  if (!contains(m_short_min)) return false; /* S3 */
  size_t n = 0;
  for (trx_id_t id = next_set(m_short_min, m_short_max); id <= m_short_max;
       id = next_set(id + 1, m_short_max)) {
    ++n;
  }
  if (n != m_n_short) return false;
  for (trx_id_t id : m_long) {
    if (id >= m_short_min && id <= m_short_max) return false; /* S2 */
  }
  return true;
}

}  // namespace hybrid
