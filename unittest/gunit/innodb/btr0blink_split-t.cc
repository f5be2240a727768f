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

/* Where a B-link page splits (btr0blink_split.h, README.blink.md S2, F1,
F2): for every page size, with the longest node pointer that F2 admits, the
chosen split fits both halves with their high keys, some split always fits
on leaf and non-leaf pages, and a page holding one node pointer takes a
second one (the new root of a root raise).  The bounds are derived from the
9.7.2 limits below, never typed in. */

#include <gtest/gtest.h>

#include <random>

#include "btr0blink_split.h"

namespace {

/* The 9.7.2 constants the server's sizes come from. */
constexpr size_t PAGE_NEW_SUPREMUM_END = 120;  // page0page.h
constexpr size_t PAGE_DIR = 8;                 // FIL_PAGE_DATA_END
constexpr size_t PAGE_DIR_SLOT_SIZE = 2;
constexpr size_t PAGE_DIR_SLOT_MIN_N_OWNED = 4;
constexpr size_t REC_MAX_DATA_SIZE = 16384;  // rem0rec.h
constexpr size_t UNIV_PAGE_SIZE_MAX = 65536;
/* A node pointer: 5 header bytes, the child page number, and the byte
dict_index_node_ptr_max_size() counts for it. */
constexpr size_t NODE_PTR_OVERHEAD = 5 + 4 + 1;
/* At most 16 fields in a key (MAX_REF_PARTS), 2 length bytes each. */
constexpr size_t MAX_KEY_LENGTH_BYTES = 16 * 2;
/* The null bitmap of a clustered index of 1017 nullable columns. */
constexpr size_t MAX_NULL_BITMAP = (1017 + 7) / 8;

constexpr size_t PAGE_SIZES[] = {4096, 8192, 16384, 32768, 65536};

/* page_get_free_space_of_empty(true) */
constexpr size_t free_space_of_empty(size_t page_size) {
  return page_size - PAGE_NEW_SUPREMUM_END - PAGE_DIR - 2 * PAGE_DIR_SLOT_SIZE;
}

/* The longest leaf record: get_permissible_max_size() (dict0dict.cc). */
constexpr size_t leaf_rec_max(size_t page_size) {
  return page_size == UNIV_PAGE_SIZE_MAX ? REC_MAX_DATA_SIZE - 1
                                         : free_space_of_empty(page_size) / 2;
}

/* The longest key: ha_innobase::max_supported_key_length(), capped by
MySQL's MAX_KEY_LENGTH (3072). */
constexpr size_t max_key_length(size_t page_size) {
  return page_size == 4096 ? 768 : page_size == 8192 ? 1536 : 3072;
}

/* page_dir_calc_reserved_space() */
size_t reserved(size_t n) {
  return (PAGE_DIR_SLOT_SIZE * n + PAGE_DIR_SLOT_MIN_N_OWNED - 1) /
         PAGE_DIR_SLOT_MIN_N_OWNED;
}

/* The longest node pointer F2 admits on a page size. */
size_t node_ptr_limit(size_t page_size) {
  size_t m = 0;
  while (blink_split::node_ptrs_fit(m + 1, PAGE_DIR_SLOT_SIZE,
                                    free_space_of_empty(page_size), reserved)) {
    ++m;
  }
  return m;
}

/* A page size and level, with F1's room for the longest node pointer. */
struct Level {
  size_t page_size;
  size_t rec_max;   // records: leaf records, or node pointers
  size_t hk_room;   // btr_blink_hk_reserve()

  bool fit(size_t bytes, size_t n) const {
    return blink_split::fits(bytes, n, free_space_of_empty(page_size),
                             reserved);
  }

  /* Whether an insert may bring a page to n records of bytes in all: the
  arithmetic of btr_blink_max_insert_size() over
  page_get_max_insert_size_after_reorganize(page, 1), written out apart
  from fits() so that the two are checked against each other. */
  bool insert_fits(size_t bytes, size_t n) const {
    return bytes + hk_room + reserved(n) <= free_space_of_empty(page_size);
  }
};

Level leaf(size_t page_size) {
  return {page_size, leaf_rec_max(page_size),
          blink_split::hk_reserve(node_ptr_limit(page_size),
                                  PAGE_DIR_SLOT_SIZE)};
}

Level non_leaf(size_t page_size) {
  const size_t m = node_ptr_limit(page_size);
  return {page_size, m, blink_split::hk_reserve(m, PAGE_DIR_SLOT_SIZE)};
}

/* A page of random records that keeps F1's room as inserts keep it (as
every page of a B-link index does), a random tuple and insert point. */
struct Case {
  std::vector<size_t> recs;
  size_t p;
  size_t tuple;
};

Case random_case(std::mt19937 &rng, const Level &l, size_t min_rec) {
  std::uniform_int_distribution<size_t> rec_size(min_rec, l.rec_max);
  Case c;
  size_t used = 0;
  for (;;) {
    const size_t s = rec_size(rng);
    if (!l.insert_fits(used + s, c.recs.size() + 1)) break;
    c.recs.push_back(s);
    used += s;
  }
  c.p = std::uniform_int_distribution<size_t>(0, c.recs.size())(rng);
  c.tuple = rec_size(rng);
  return c;
}

/* The split the server chooses (btr0blink.cc, choose_split()): both halves
keep F1's room, whatever high key they get. */
void check_case(const Level &l, const Case &c, size_t preferred) {
  auto hk = [&](size_t, bool) { return l.hk_room; };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  blink_split::Items<decltype(hk)> items(c.recs, c.p, c.tuple, l.hk_room, hk);
  const auto plan = blink_split::choose(items, preferred, fit);
  ASSERT_TRUE(plan.has_value())
      << "page size " << l.page_size << ": no split fits " << c.recs.size()
      << " records";
  const size_t n = items.n_items(plan->with_tuple);
  ASSERT_GE(plan->k, 1u);
  ASSERT_LT(plan->k, n);
  /* Recompute both halves independently of plan_fits(). */
  size_t left = l.hk_room, right = l.hk_room;
  for (size_t i = 0; i < n; ++i) {
    (i < plan->k ? left : right) += items.item_size(i, plan->with_tuple);
  }
  EXPECT_TRUE(l.fit(left, plan->k));
  EXPECT_TRUE(l.fit(right, n - plan->k));
  if (!plan->with_tuple) {
    /* Without the tuple only when no split can take it. */
    for (size_t k = 1; k <= c.recs.size(); ++k) {
      EXPECT_FALSE(blink_split::plan_fits(items, k, true, fit)) << k;
    }
  }
}

}  // namespace

/* F2 at every page size: the limit is about a third of a page, and every
clustered index of a COMPACT or DYNAMIC table is within it even with the
longest key and the widest null bitmap.  A secondary index's node pointer
also holds the primary key; on 32 KiB and 64 KiB pages every one fits, on
smaller pages the longest ones stay stock. */
TEST(btr0blink_split, node_ptr_limit_per_page_size) {
  for (size_t page_size : PAGE_SIZES) {
    const size_t f = free_space_of_empty(page_size);
    const size_t m = node_ptr_limit(page_size);
    EXPECT_LE(3 * m, f) << page_size;
    EXPECT_LT(f, 3 * m + 8) << page_size;

    const size_t clustered =
        max_key_length(page_size) + MAX_KEY_LENGTH_BYTES + NODE_PTR_OVERHEAD +
        MAX_NULL_BITMAP;
    EXPECT_LE(clustered, m) << page_size;

    const size_t secondary = 2 * max_key_length(page_size) +
                             2 * MAX_KEY_LENGTH_BYTES + NODE_PTR_OVERHEAD +
                             MAX_NULL_BITMAP;
    EXPECT_EQ(secondary <= m, page_size >= 32768) << page_size;
  }
}

/* The root raise of defect 1 (README.blink.md, F2): the new root holds one
node pointer and must take the second without raising again.  The
arithmetic of btr_cur_optimistic_insert() with btr_blink_max_insert_size(). */
TEST(btr0blink_split, one_node_ptr_takes_a_second) {
  for (size_t page_size : PAGE_SIZES) {
    const Level l = non_leaf(page_size);
    const size_t max_insert =
        free_space_of_empty(page_size) - l.rec_max - reserved(1 + 1);
    ASSERT_GE(max_insert, l.hk_room) << page_size;
    EXPECT_GE(max_insert - l.hk_room, l.rec_max) << page_size;
  }
}

/* Random leaf pages with records up to the longest leaf record, and
random non-leaf pages with node pointers up to F2's limit, at every page
size: a split always fits. */
TEST(btr0blink_split, always_fits_at_the_limits) {
  std::mt19937 rng(42);
  for (size_t page_size : PAGE_SIZES) {
    for (const Level &l : {leaf(page_size), non_leaf(page_size)}) {
      for (int i = 0; i < 5000; ++i) {
        check_case(l, random_case(rng, l, 20), 0);
        if (HasFatalFailure()) return;
      }
      /* Only records near the limit: the pages hold one or two. */
      for (int i = 0; i < 2000; ++i) {
        check_case(l, random_case(rng, l, l.rec_max * 9 / 10), 0);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(btr0blink_split, small_records_balance) {
  std::mt19937 rng(7);
  const Level l{16384, 300, 20};
  for (int i = 0; i < 2000; ++i) {
    const Case c = random_case(rng, l, 20);
    auto hk = [&](size_t, bool) { return l.hk_room; };
    auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
    blink_split::Items<decltype(hk)> items(c.recs, c.p, c.tuple, 0, hk);
    const auto plan = blink_split::choose(items, 0, fit);
    ASSERT_TRUE(plan && plan->with_tuple);
    size_t left = 0, total = 0;
    for (size_t j = 0; j < items.n_items(true); ++j) {
      total += items.item_size(j, true);
      if (j < plan->k) left += items.item_size(j, true);
    }
    /* The best balance is within one record of the middle. */
    EXPECT_LE(left > total - left ? 2 * left - total : total - 2 * left, 300u);
  }
}

/* The preferred point (sequential inserts) wins when it fits: the tuple
alone on the new page, the left page kept full. */
TEST(btr0blink_split, preferred_point_when_it_fits) {
  const Level l{16384, 390, 20};
  std::vector<size_t> recs(40, 390);
  auto hk = [](size_t, bool) { return size_t{20}; };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  blink_split::Items<decltype(hk)> items(recs, 40, 390, 0, hk);
  const auto plan = blink_split::choose(items, 40, fit);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->k, 40u);
  EXPECT_TRUE(plan->with_tuple);
}

/* A preferred point that does not fit is not taken: the left page cannot
also hold a big high key. */
TEST(btr0blink_split, preferred_point_that_does_not_fit) {
  const Level l = leaf(16384);
  std::vector<size_t> recs(2, 5000);
  auto hk = [](size_t, bool) { return size_t{6500}; };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  blink_split::Items<decltype(hk)> items(recs, 2, 6000, 0, hk);
  const auto plan = blink_split::choose(items, 2, fit);
  ASSERT_TRUE(plan);
  EXPECT_NE(plan->k, 2u);
}

/* Two records near half a page and a tuple as big: no split can take the
tuple, so the page is split without it. */
TEST(btr0blink_split, split_without_the_tuple) {
  const Level l = leaf(16384);
  std::vector<size_t> recs{6000, 6000};
  auto hk = [](size_t, bool) { return size_t{3000}; };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  blink_split::Items<decltype(hk)> items(recs, 1, 8000, 3000, hk);
  const auto plan = blink_split::choose(items, 0, fit);
  ASSERT_TRUE(plan);
  EXPECT_FALSE(plan->with_tuple);
  EXPECT_EQ(plan->k, 1u);
}

namespace {

/* prove() over a Case, counting the records whose size it read and
checking that it reads them in order from the first record of one half. */
struct Proof {
  std::optional<blink_split::Plan> plan;
  size_t reads{0};
  bool in_order{true};
};

Proof prove_case(const Level &l, const Case &c, size_t k) {
  size_t total = 0;
  for (size_t s : c.recs) total += s;
  const blink_split::Shape shape{c.recs.size(), total, c.p, c.tuple,
                                 l.hk_room};
  Proof proof;
  size_t last = 0;
  auto size_of = [&](size_t j) {
    if (proof.reads > 0 && j != last + 1) proof.in_order = false;
    last = j;
    ++proof.reads;
    return c.recs.at(j);
  };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  proof.plan = blink_split::prove(shape, k, size_of, fit);
  return proof;
}

bool fits_exactly(const Level &l, const Case &c, size_t k) {
  auto hk = [&](size_t, bool) { return l.hk_room; };
  auto fit = [&](size_t bytes, size_t n) { return l.fit(bytes, n); };
  blink_split::Items<decltype(hk)> items(c.recs, c.p, c.tuple, l.hk_room, hk);
  return blink_split::plan_fits(items, k, true, fit);
}

/* The point choose_split() tries for inserts that are not sequential. */
size_t middle_k(const Case &c) {
  return blink_split::middle_point(c.recs.size(), c.p);
}

}  // namespace

/* On pages that keep F1's room, the proof from the page's totals accepts
exactly the splits that fit (plan_fits(), which reads every record), at
every page size, on leaf and non-leaf levels, for the middle point and
for random ones; it reads records in page order. */
TEST(btr0blink_split, proof_agrees_with_every_record) {
  std::mt19937 rng(11);
  for (size_t page_size : PAGE_SIZES) {
    for (const Level &l : {leaf(page_size), non_leaf(page_size)}) {
      for (size_t min_rec : {size_t{20}, l.rec_max / 3, l.rec_max * 9 / 10}) {
        for (int i = 0; i < 2000; ++i) {
          const Case c = random_case(rng, l, min_rec);
          if (c.recs.empty()) continue;
          const size_t any_k =
              std::uniform_int_distribution<size_t>(1, c.recs.size())(rng);
          for (size_t k : {middle_k(c), any_k}) {
            const Proof proof = prove_case(l, c, k);
            ASSERT_EQ(proof.plan.has_value(), fits_exactly(l, c, k))
                << "page size " << page_size << ", " << c.recs.size()
                << " records, k " << k << ", tuple at " << c.p;
            EXPECT_TRUE(proof.in_order);
            /* The records of one half at most: the tuple's side holds k - 1
            or n - k of them, the other n - k + 1 or k. */
            EXPECT_LE(proof.reads, std::max(k, c.recs.size() - k + 1));
          }
        }
      }
    }
  }
}

/* The work of the stock split: a full page of equal records split in the
middle reads at most two of their sizes (the page overflows by one
record); the tuple alone on the new page (sequential inserts) reads none. */
TEST(btr0blink_split, proof_reads_few_records) {
  for (size_t page_size : PAGE_SIZES) {
    const Level l = leaf(page_size);
    for (size_t rec : {size_t{30}, size_t{200}, l.rec_max / 4}) {
      Case c;
      size_t used = 0;
      while (l.insert_fits(used + rec, c.recs.size() + 1)) {
        c.recs.push_back(rec);
        used += rec;
      }
      c.tuple = rec;
      for (size_t p : {size_t{0}, c.recs.size() / 3, c.recs.size()}) {
        c.p = p;
        const Proof middle = prove_case(l, c, middle_k(c));
        ASSERT_TRUE(middle.plan.has_value()) << page_size << " " << rec;
        EXPECT_LE(middle.reads, 2u) << page_size << " " << rec << " " << p;
      }
      c.p = c.recs.size();
      const Proof append = prove_case(l, c, c.recs.size());
      ASSERT_TRUE(append.plan.has_value());
      EXPECT_EQ(append.reads, 0u);
    }
  }
}

/* Equal records appended in key order until the insert path refuses the
next one (F1 as btr_blink_max_insert_size() keeps it): the append point,
the tuple alone on the new page, is proven, at every page size, for every
record size up to 200 bytes and every room F1 may keep for such short keys
(a secondary index's entries, or node pointers).  Refused, the page would
split in the middle at each append and its level stay half full. */
TEST(btr0blink_split, append_point_on_a_page_inserts_filled) {
  for (size_t page_size : PAGE_SIZES) {
    for (size_t rec = 5; rec <= 200; ++rec) {
      for (size_t hk_room = 12; hk_room <= 60; ++hk_room) {
        const Level l{page_size, rec, hk_room};
        Case c;
        size_t used = 0;
        while (l.insert_fits(used + rec, c.recs.size() + 1)) {
          c.recs.push_back(rec);
          used += rec;
        }
        c.tuple = rec;
        c.p = c.recs.size();
        const Proof append = prove_case(l, c, c.recs.size());
        ASSERT_TRUE(append.plan.has_value())
            << page_size << " " << rec << " " << hk_room;
        ASSERT_TRUE(fits_exactly(l, c, c.recs.size()));
        EXPECT_EQ(append.reads, 0u);
      }
    }
  }
}

/* The middle point is stock's: page_get_middle_rec() leaves
(n + PAGE_HEAP_NO_USER_LOW) / 2 records behind, the infimum counted, and
the tuple goes to the side it sorts on; both halves keep an item. */
TEST(btr0blink_split, middle_point_is_stock) {
  constexpr size_t PAGE_HEAP_NO_USER_LOW = 2;  // rem0rec.h
  for (size_t n = 1; n <= 600; ++n) {
    const size_t left_behind = (n + PAGE_HEAP_NO_USER_LOW) / 2 - 1;
    for (size_t p = 0; p <= n; ++p) {
      const size_t k = blink_split::middle_point(n, p);
      ASSERT_GE(k, 1u) << n << " " << p;
      ASSERT_LE(k, n) << n << " " << p;
      const size_t recs_left = p < k ? k - 1 : k;
      if (n > 1) {
        EXPECT_EQ(recs_left, left_behind) << n << " " << p;
      }
    }
  }
}

/* A page without F1's room (a root's records, copied by a raise) may be
refused although the split fits: its caller then reads every record
(choose()). */
TEST(btr0blink_split, proof_refuses_without_room) {
  const Level l = leaf(16384);
  Case c;
  c.recs.assign(2, 5000);
  c.recs.push_back(6000);
  c.p = 0;
  c.tuple = 100;
  size_t total = 0;
  for (size_t s : c.recs) total += s;
  ASSERT_FALSE(l.fit(total + l.hk_room, c.recs.size()));
  /* k 3: the tuple and both records of 5,000 bytes on the left. */
  EXPECT_TRUE(fits_exactly(l, c, 3));
  EXPECT_FALSE(prove_case(l, c, 3).plan.has_value());
}
