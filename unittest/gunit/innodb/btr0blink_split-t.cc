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

/* Where a B-link page splits (btr0blink_split.h, README.blink.md S2): the
chosen split fits both halves with their high keys, and some split always
fits for InnoDB's limits on record and key size. */

#include <gtest/gtest.h>

#include <random>

#include "btr0blink_split.h"

namespace {

/* 16 KiB page, COMPACT: page_get_free_space_of_empty(true) and
page_dir_calc_reserved_space() of the 9.7.2 tree. */
constexpr size_t PAGE_SIZE = 16384;
constexpr size_t FREE_SPACE_OF_EMPTY = PAGE_SIZE - 120 - 8 - 4 - 4;
constexpr size_t MAX_REC = FREE_SPACE_OF_EMPTY / 2;  // page_get_free_space_of_empty / 2
constexpr size_t MAX_HK = 3072 + 4 + 5 + 2 * 4;      // key, child, header, lengths

size_t reserved(size_t n) { return (2 * n + 8 - 1) / 8; }

bool fit(size_t bytes, size_t n) {
  return blink_split::fits(bytes, n, FREE_SPACE_OF_EMPTY, reserved);
}

/* A page of random records that fits, a random tuple and insert point. */
struct Case {
  std::vector<size_t> recs;
  size_t p;
  size_t tuple;
  size_t old_hk;
  std::vector<size_t> hks;  // high key size of each record and of the tuple
};

Case random_case(std::mt19937 &rng, size_t max_rec, size_t max_hk) {
  std::uniform_int_distribution<size_t> rec_size(20, max_rec);
  Case c;
  size_t used = 0;
  for (;;) {
    const size_t s = rec_size(rng);
    if (!fit(used + s, c.recs.size() + 1) && !c.recs.empty()) break;
    c.recs.push_back(s);
    used += s;
  }
  c.p = std::uniform_int_distribution<size_t>(0, c.recs.size())(rng);
  c.tuple = rec_size(rng);
  std::uniform_int_distribution<size_t> hk_size(10, max_hk);
  c.old_hk = rng() % 2 ? hk_size(rng) : 0;
  for (size_t i = 0; i <= c.recs.size(); ++i) {
    c.hks.push_back(std::min(hk_size(rng), i < c.recs.size() ? c.recs[i] + 4
                                                            : c.tuple + 4));
  }
  return c;
}

void check_case(const Case &c, size_t preferred) {
  auto hk = [&](size_t k, bool with_tuple) {
    if (with_tuple) {
      return k == c.p ? c.hks.back() : c.hks[k < c.p ? k : k - 1];
    }
    return c.hks[k];
  };
  blink_split::Items<decltype(hk)> items(c.recs, c.p, c.tuple, c.old_hk, hk);
  const auto plan = blink_split::choose(items, preferred, fit);
  ASSERT_TRUE(plan.has_value()) << "no split fits " << c.recs.size()
                                << " records";
  const size_t n = items.n_items(plan->with_tuple);
  ASSERT_GE(plan->k, 1u);
  ASSERT_LT(plan->k, n);
  /* Recompute both halves independently of plan_fits(). */
  size_t left = hk(plan->k, plan->with_tuple), right = c.old_hk;
  for (size_t i = 0; i < n; ++i) {
    (i < plan->k ? left : right) += items.item_size(i, plan->with_tuple);
  }
  EXPECT_TRUE(fit(left, plan->k));
  EXPECT_TRUE(fit(right, n - plan->k));
  if (!plan->with_tuple) {
    /* Without the tuple only when no split can take it. */
    for (size_t k = 1; k <= c.recs.size(); ++k) {
      EXPECT_FALSE(blink_split::plan_fits(items, k, true, fit)) << k;
    }
  }
}

}  // namespace

/* Random pages of records up to half a page with keys up to InnoDB's
3072-byte limit: a split always fits. */
TEST(btr0blink_split, always_fits_at_the_limits) {
  std::mt19937 rng(42);
  for (int i = 0; i < 20000; ++i) {
    const Case c = random_case(rng, MAX_REC, MAX_HK);
    check_case(c, 0);
    if (HasFatalFailure()) return;
  }
}

TEST(btr0blink_split, small_records_balance) {
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const Case c = random_case(rng, 300, 40);
    auto hk = [&](size_t, bool) { return size_t{20}; };
    blink_split::Items<decltype(hk)> items(c.recs, c.p, c.tuple, c.old_hk, hk);
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
  std::vector<size_t> recs(40, 390);
  auto hk = [](size_t, bool) { return size_t{20}; };
  blink_split::Items<decltype(hk)> items(recs, 40, 390, 0, hk);
  const auto plan = blink_split::choose(items, 40, fit);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->k, 40u);
  EXPECT_TRUE(plan->with_tuple);
}

/* A preferred point that does not fit is not taken: the left page cannot
also hold a big high key. */
TEST(btr0blink_split, preferred_point_that_does_not_fit) {
  std::vector<size_t> recs(2, 8000);
  auto hk = [](size_t, bool) { return size_t{3000}; };
  blink_split::Items<decltype(hk)> items(recs, 2, 100, 0, hk);
  const auto plan = blink_split::choose(items, 2, fit);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->k, 1u);
}

/* Two records near half a page and a tuple as big: no split can take the
tuple, so the page is split without it. */
TEST(btr0blink_split, split_without_the_tuple) {
  std::vector<size_t> recs{8000, 8000};
  auto hk = [](size_t, bool) { return size_t{3000}; };
  blink_split::Items<decltype(hk)> items(recs, 1, 8000, 3000, hk);
  const auto plan = blink_split::choose(items, 0, fit);
  ASSERT_TRUE(plan);
  EXPECT_FALSE(plan->with_tuple);
  EXPECT_EQ(plan->k, 1u);
}
