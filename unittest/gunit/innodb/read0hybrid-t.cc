/* Copyright (c) 2026, the innofork authors.

   This program is free software; you can redistribute it and/or modify it
   under the terms of the GNU General Public License, version 2.0, as
   published by the Free Software Foundation.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General
   Public License, version 2.0, for more details. */

/* Unit tests of the hybrid active-id sets (read0hybrid.h), against a plain
   sorted model.  Built standalone by the repository's CMakeLists.txt (the
   fast tier); no server, no trx_sys. */

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "read0hybrid.h"

namespace {

using hybrid::Active_rw_ids;
using hybrid::Hybrid_snapshot;
using Model = std::set<trx_id_t>;

std::vector<trx_id_t> ids_of(const Active_rw_ids &s) {
  std::vector<trx_id_t> v;
  s.for_each([&](trx_id_t id) { v.push_back(id); });
  return v;
}

std::vector<trx_id_t> ids_of(const Hybrid_snapshot &s) {
  std::vector<trx_id_t> v;
  s.for_each([&](trx_id_t id) { v.push_back(id); });
  return v;
}

std::vector<trx_id_t> ids_of(const Model &m) { return {m.begin(), m.end()}; }

/* A snapshot as the stock ReadView takes it: the active set minus the
   creator. */
Model model_snapshot(const Model &active, trx_id_t creator) {
  Model m = active;
  m.erase(creator);
  return m;
}

TEST(ActiveRwIds, EmptySet) {
  Active_rw_ids s(128);
  EXPECT_TRUE(s.empty());
  EXPECT_FALSE(s.contains(1));
  EXPECT_TRUE(s.validate());
  Hybrid_snapshot v;
  EXPECT_LE(v.copy_from(s, 0), 16u);
  EXPECT_TRUE(v.empty());
  EXPECT_FALSE(v.contains(1));
  EXPECT_FALSE(v.contains(1000000));
}

TEST(ActiveRwIds, InsertEraseAtWordEdges) {
  Active_rw_ids s(128);
  for (trx_id_t id : {63, 64, 127, 128, 191}) s.insert(id);
  EXPECT_TRUE(s.validate());
  EXPECT_EQ(ids_of(s), (std::vector<trx_id_t>{63, 64, 127, 128, 191}));
  EXPECT_EQ(s.min(), 63u);
  /* 191 / 64 - 63 / 64 = 2 words > window of 2 words: 63 was demoted. */
  EXPECT_EQ(s.n_long(), 1u);
  EXPECT_EQ(s.n_demoted(), 1u);
  s.erase(64);
  s.erase(63);
  EXPECT_EQ(s.min(), 127u);
  EXPECT_TRUE(s.validate());
  s.erase(127);
  s.erase(128);
  s.erase(191);
  EXPECT_TRUE(s.empty());
  EXPECT_TRUE(s.validate());
}

TEST(ActiveRwIds, WindowSlidesAndDemotesOldest) {
  Active_rw_ids s(256); /* 4 words */
  s.insert(10);         /* a long-running transaction */
  for (trx_id_t id = 11; id < 1000; ++id) {
    s.insert(id);
    s.erase(id);
  }
  EXPECT_TRUE(s.contains(10));
  EXPECT_EQ(s.n_long(), 1u);
  EXPECT_EQ(s.n_demoted(), 1u);
  EXPECT_EQ(s.min(), 10u);
  /* Ids arrive past the window in one burst: all but the newest window
     are demoted, in order. */
  for (trx_id_t id = 1000; id < 1600; ++id) s.insert(id);
  EXPECT_TRUE(s.validate());
  EXPECT_EQ(s.size(), 601u);
  std::vector<trx_id_t> v = ids_of(s);
  EXPECT_TRUE(std::is_sorted(v.begin(), v.end()));
  EXPECT_EQ(v.front(), 10u);
  EXPECT_EQ(v.back(), 1599u);
  EXPECT_GE(s.n_long(), 600u - 256u);
}

TEST(ActiveRwIds, OutOfOrderInsertGoesLong) {
  Active_rw_ids s(128);
  s.insert(500);
  s.insert(20); /* resurrected at recovery, older than the window */
  s.insert(501);
  EXPECT_TRUE(s.validate());
  EXPECT_EQ(ids_of(s), (std::vector<trx_id_t>{20, 500, 501}));
  EXPECT_EQ(s.min(), 20u);
  s.erase(500);
  s.erase(501);
  s.insert(30); /* window empty but smaller than a long id: stays long */
  EXPECT_EQ(ids_of(s), (std::vector<trx_id_t>{20, 30}));
  EXPECT_TRUE(s.validate());
}

TEST(HybridSnapshot, ExcludesCreatorAndKeepsExactMinimum) {
  Active_rw_ids s;
  for (trx_id_t id = 100; id < 110; ++id) s.insert(id);
  Hybrid_snapshot v;
  v.copy_from(s, 100);
  EXPECT_FALSE(v.contains(100));
  EXPECT_EQ(v.min_or(hybrid::NO_ID), 101u);
  EXPECT_EQ(v.size(), 9u);
  v.copy_from(s, 109);
  EXPECT_FALSE(v.contains(109));
  EXPECT_TRUE(v.contains(108));
  EXPECT_TRUE(v.validate());
  /* Completing a clone puts the creator back. */
  v.insert(109);
  EXPECT_TRUE(v.contains(109));
  EXPECT_EQ(v.size(), 10u);
}

TEST(HybridSnapshot, CopiesSpanBytesNotIdBytes) {
  Active_rw_ids s;
  for (trx_id_t id = 1; id <= 1000; ++id) s.insert(id);
  Hybrid_snapshot v;
  size_t bytes = v.copy_from(s, 0);
  /* 1000 ids span 16 words: 128 bytes instead of 8000. */
  EXPECT_LE(bytes, 136u);
  EXPECT_GE(8000u / bytes, 10u);
}

TEST(HybridSnapshot, DemotesWhatTheViewCannotReach) {
  Active_rw_ids s; /* 524,288-id window */
  s.insert(1);
  const trx_id_t far = 1 + Hybrid_snapshot::BITS * 3;
  for (trx_id_t id = 2; id < far; ++id) {
    s.insert(id);
    s.erase(id);
  }
  s.insert(far);
  EXPECT_EQ(s.n_long(), 0u); /* fits the global window */
  Hybrid_snapshot v;
  size_t bytes = v.copy_from(s, 0);
  EXPECT_EQ(s.n_long(), 1u); /* but not the view's: demoted once */
  EXPECT_EQ(s.n_demoted(), 1u);
  EXPECT_TRUE(v.contains(1));
  EXPECT_TRUE(v.contains(far));
  EXPECT_FALSE(v.contains(far - 1));
  EXPECT_EQ(v.n_long(), 1u);
  EXPECT_LE(bytes, 16u);
  EXPECT_TRUE(s.validate());
  EXPECT_TRUE(v.validate());
}

TEST(HybridSnapshot, FastPathAtWordAndWindowEdges) {
  Active_rw_ids s(256); /* 4 words */
  Hybrid_snapshot v;
  /* One word, then two, then a span that wraps around the window's end
     (words 3 and 0 of the circular bitmap). */
  for (trx_id_t base : {64 * 4 + 10, 64 * 5 + 60, 64 * 7 + 62}) {
    s.insert(base);
    s.insert(base + 3);
    EXPECT_EQ(v.copy_from(s, 0), 16u);
    EXPECT_TRUE(v.validate());
    EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{base, base + 3}));
    EXPECT_FALSE(v.contains(base + 64));
    EXPECT_FALSE(v.contains(base - 64));
    EXPECT_EQ(v.min_or(hybrid::NO_ID), base);
    /* The creator is left out; the minimum moves past it. */
    v.copy_from(s, base);
    EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{base + 3}));
    EXPECT_EQ(v.min_or(hybrid::NO_ID), base + 3);
    s.erase(base);
    s.erase(base + 3);
  }
  /* Empty set: nothing is active, whatever the words held before. */
  v.copy_from(s, 0);
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.min_or(7), 7u);
  EXPECT_FALSE(v.contains(64 * 7 + 62));
}

TEST(HybridSnapshot, ReusedViewShrinksAndGrows) {
  Active_rw_ids s;
  Hybrid_snapshot v;
  for (trx_id_t id = 1000; id < 3000; id += 2) s.insert(id);
  v.copy_from(s, 0); /* 32 words: the buffer grows */
  EXPECT_EQ(v.size(), 1000u);
  for (trx_id_t id = 1000; id < 2998; id += 2) s.erase(id);
  v.copy_from(s, 0); /* one id: the fast path, stale words beyond */
  EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{2998}));
  EXPECT_FALSE(v.contains(2000));
  EXPECT_TRUE(v.validate());
  s.insert(3001);
  s.erase(2998);
  s.insert(100000); /* a wide span again */
  v.copy_from(s, 3001);
  EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{100000}));
  EXPECT_EQ(v.min_or(hybrid::NO_ID), 100000u);
  EXPECT_TRUE(v.validate());
}

TEST(HybridSnapshot, LongIdsTakeTheGeneralPath) {
  Active_rw_ids s(128);
  s.insert(500);
  s.insert(20); /* long */
  Hybrid_snapshot v;
  v.copy_from(s, 0);
  EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{20, 500}));
  EXPECT_EQ(v.min_or(hybrid::NO_ID), 20u);
  s.erase(20); /* no long ids left: the set is fast again */
  v.copy_from(s, 0);
  EXPECT_EQ(ids_of(v), (std::vector<trx_id_t>{500}));
  EXPECT_FALSE(v.contains(20));
  EXPECT_TRUE(v.validate());
  EXPECT_TRUE(s.validate());
}

/* Randomized differential test: random interleavings of begin, commit,
   snapshot, clone and visibility queries; every answer must match the
   model. */
struct DiffParams {
  size_t window_bits;
  unsigned seed;
  unsigned long_pct;  /* percent of transactions that stay open long */
  unsigned burst_max; /* largest burst of begins */
  int steps;
};

class Differential : public ::testing::TestWithParam<DiffParams> {};

TEST_P(Differential, AgreesWithSortedModel) {
  const DiffParams p = GetParam();
  std::mt19937_64 rng(p.seed);
  auto pct = [&](unsigned n) { return rng() % 100 < n; };

  Active_rw_ids set(p.window_bits);
  Model active;
  std::vector<trx_id_t> short_open;
  std::vector<trx_id_t> long_open;
  trx_id_t next_id = 1 + rng() % 1000;

  struct Snap {
    std::unique_ptr<Hybrid_snapshot> view;
    Model model;
    trx_id_t low_limit;
  };
  std::vector<Snap> snaps;
  size_t queries = 0;

  auto commit = [&](std::vector<trx_id_t> &pool, size_t i) {
    trx_id_t id = pool[i];
    pool[i] = pool.back();
    pool.pop_back();
    set.erase(id);
    active.erase(id);
  };

  /* Keep the model small enough to copy for every snapshot: past this many
     open short transactions, commits outnumber begins. */
  const size_t cap = std::max<size_t>(300, p.burst_max);

  for (int step = 0; step < p.steps; ++step) {
    const unsigned op = rng() % 100;
    if (op < 35 && short_open.size() < cap) { /* begin, sometimes a burst larger than the window */
      unsigned n = pct(2) ? 1 + rng() % p.burst_max : 1;
      for (unsigned i = 0; i < n; ++i) {
        trx_id_t id = next_id++;
        set.insert(id);
        active.insert(id);
        (pct(p.long_pct) ? long_open : short_open).push_back(id);
      }
      next_id += pct(10) ? rng() % 8 : 0; /* ids used by read-only trx */
    } else if (op < 65 && !short_open.empty()) {
      size_t n = short_open.size() >= cap ? short_open.size() / 2 : 1;
      while (n-- > 0) commit(short_open, rng() % short_open.size());
    } else if (op < 67 && !long_open.empty()) {
      commit(long_open, rng() % long_open.size());
    } else if (op < 75) { /* snapshot, with or without a creator */
      trx_id_t creator = 0;
      if (!active.empty() && pct(50)) {
        auto it = active.begin();
        std::advance(it, rng() % active.size());
        creator = *it;
      }
      /* Views are pooled: half the time reuse one, with the words and
         long ids of its last snapshot still in it. */
      std::unique_ptr<Hybrid_snapshot> view;
      if (!snaps.empty() && pct(50)) {
        const size_t i = rng() % snaps.size();
        view = std::move(snaps[i].view);
        snaps.erase(snaps.begin() + i);
      } else {
        view = std::make_unique<Hybrid_snapshot>();
      }
      Snap s{std::move(view), model_snapshot(active, creator), next_id};
      s.view->copy_from(set, creator);
      ASSERT_EQ(ids_of(*s.view), ids_of(s.model));
      ASSERT_EQ(s.view->size(), s.model.size());
      if (!s.model.empty()) {
        ASSERT_EQ(s.view->min_or(hybrid::NO_ID), *s.model.begin());
      } else {
        ASSERT_EQ(s.view->min_or(next_id), next_id);
      }
      snaps.push_back(std::move(s));
      if (snaps.size() > 8) snaps.erase(snaps.begin() + rng() % snaps.size());
    } else if (op < 77 && !snaps.empty()) { /* purge clones a view */
      Snap &o = snaps[rng() % snaps.size()];
      Snap s{std::make_unique<Hybrid_snapshot>(), o.model, o.low_limit};
      s.view->copy_from(*o.view);
      trx_id_t extra = o.low_limit - 1 - rng() % 3;
      if (extra > 0 && !s.model.count(extra) && pct(50)) {
        s.view->insert(extra);
        s.model.insert(extra);
      }
      ASSERT_EQ(ids_of(*s.view), ids_of(s.model));
      snaps.push_back(std::move(s));
    } else if (!snaps.empty()) { /* visibility queries */
      Snap &s = snaps[rng() % snaps.size()];
      trx_id_t lo = s.model.empty() ? s.low_limit : *s.model.begin();
      for (int q = 0; q < 8; ++q) {
        trx_id_t id = lo + rng() % (s.low_limit - lo + 2);
        if (id == 0) continue;
        ASSERT_EQ(s.view->contains(id), s.model.count(id) == 1)
            << "id " << id << " step " << step;
        ++queries;
      }
    }
    if (step % 997 == 0) {
      ASSERT_TRUE(set.validate()) << "step " << step;
      ASSERT_EQ(ids_of(set), ids_of(active)) << "step " << step;
    }
    if (!active.empty()) {
      ASSERT_EQ(set.min(), *active.begin());
    }
    ASSERT_EQ(set.size(), active.size());
  }
  EXPECT_GT(queries, static_cast<size_t>(p.steps));
  /* Every snapshot still answers correctly after the set moved on. */
  for (const Snap &s : snaps) {
    ASSERT_TRUE(s.view->validate());
    ASSERT_EQ(ids_of(*s.view), ids_of(s.model));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Windows, Differential,
    ::testing::Values(
        DiffParams{64, 1, 5, 200, 20000},  /* window of one word */
        DiffParams{128, 2, 2, 300, 20000}, /* bursts > window */
        DiffParams{1024, 3, 1, 2000, 20000},
        DiffParams{256, 6, 20, 100, 20000}, /* many long trx */
        /* the real window; bursts beyond a view's reach */
        DiffParams{Active_rw_ids::DEFAULT_WINDOW_BITS, 4, 1, 5000, 10000},
        DiffParams{Active_rw_ids::DEFAULT_WINDOW_BITS, 5, 0, 20000, 2000}));

}  // namespace
