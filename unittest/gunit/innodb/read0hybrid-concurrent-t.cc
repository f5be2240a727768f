/* Copyright (c) 2026, the innofork authors.

   This program is free software; you can redistribute it and/or modify it
   under the terms of the GNU General Public License, version 2.0, as
   published by the Free Software Foundation.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General
   Public License, version 2.0, for more details. */

/* The hybrid sets used the way the server uses them, by several threads at
   once (read0hybrid.h, trx0hybrid.cc, read0close.cc), on a model of
   trx_sys that keeps only what they touch:

   - writers start and commit read-write transactions: the id is taken and
     added to the global set, and later erased, under trx_sys->mutex;
   - view owners open a view under the mutex (copy the global set, as
     ReadView::hybrid_copy_trx_ids() does), check visibility through it with
     no latch, and close it with no latch by storing m_closed = true
     (innodb_view_close_latch_free, read0close.cc C2);
   - purge clones the first open view under the mutex
     (MVCC::clone_oldest_view(): ReadView::hybrid_copy_prepare()), skipping
     closed ones, and reads its clone with no latch.

   Every answer is checked against a sorted model copied under the same
   mutex.  The assertions run on the main thread after the joins.  Built
   twice by CMakeLists.txt: plainly, and with -fsanitize=thread, where
   ThreadSanitizer checks the same run against the C++ memory model (a data
   race fails the test whatever the host's ordering; see the ordering tables
   in read0close.cc and trx0hybrid.h). */

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <vector>

#include "read0hybrid.h"

namespace {

using hybrid::Active_rw_ids;
using hybrid::Hybrid_snapshot;
using Model = std::set<trx_id_t>;

/** A small window, so that ids are demoted to the long vector and views
take the general copy path as well as the fast one. */
constexpr size_t WINDOW_BITS = 256;
constexpr int WRITERS = 2;
constexpr int OWNERS = 2;
constexpr int TRX_PER_WRITER = 20000;
constexpr int OPENS_PER_OWNER = 3000;
/** Every LONG_EVERY-th transaction of a writer stays active until the
writer ends, so it falls out of the window. */
constexpr int LONG_EVERY = 997;

/** A read view: written by its owner under the mutex; read by the owner
with no latch, and by purge under the mutex while it is open. */
struct View {
  Hybrid_snapshot snapshot;
  Model expected;
  trx_id_t low_limit = 0;
  /** ReadView::m_closed */
  std::atomic_bool closed{true};
  /** Times purge cloned this view (the test's own, not ReadView's). */
  std::atomic_int clones{0};
};

/** The part of trx_sys the hybrid sets live in. */
struct Trx_sys {
  std::mutex mutex;
  Active_rw_ids active{WINDOW_BITS};
  Model model;
  trx_id_t next_id = 1;
  /** MVCC::m_views */
  std::list<View *> views;
};

/** Ids in [from, to) on which the snapshot and the model disagree, as a
visibility check sees them: below the minimum nothing is active. */
int disagreements(const Hybrid_snapshot &s, const Model &m, trx_id_t to) {
  const trx_id_t from = s.min_or(to);
  int bad = (!m.empty() && *m.begin() < from) ? 1 : 0;
  for (trx_id_t id = from; id < to && id < from + 4 * WINDOW_BITS; ++id) {
    bad += s.contains(id) != (m.count(id) != 0);
  }
  return bad;
}

void writer(Trx_sys &sys, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::deque<trx_id_t> active;
  std::deque<trx_id_t> long_running;
  auto commit = [&](trx_id_t id) {
    std::lock_guard<std::mutex> g(sys.mutex);
    sys.active.erase(id);
    sys.model.erase(id);
  };
  for (int i = 0; i < TRX_PER_WRITER; ++i) {
    trx_id_t id;
    {
      std::lock_guard<std::mutex> g(sys.mutex);
      id = sys.next_id++;
      sys.active.insert(id);
      sys.model.insert(id);
    }
    (i % LONG_EVERY == 0 ? long_running : active).push_back(id);
    /* Commits mostly in start order, now and then a younger one first. */
    while (active.size() > rng() % 8) {
      if (rng() % 4 == 0) {
        commit(active.back());
        active.pop_back();
      } else {
        commit(active.front());
        active.pop_front();
      }
    }
  }
  for (trx_id_t id : active) commit(id);
  for (trx_id_t id : long_running) commit(id);
}

void view_owner(Trx_sys &sys, View &view, unsigned seed, int &bad) {
  std::mt19937_64 rng(seed);
  {
    std::lock_guard<std::mutex> g(sys.mutex);
    sys.views.push_back(&view);
  }
  int clones_at_open = 0;
  for (int i = 0; i < OPENS_PER_OWNER; ++i) {
    {
      /* MVCC::view_open(): prepare under the mutex, leaving out the
      creator (here an id some writer has active, or none). */
      std::lock_guard<std::mutex> g(sys.mutex);
      trx_id_t creator = 0;
      if (!sys.model.empty() && rng() % 2 == 0) {
        creator = *sys.model.rbegin();
      }
      view.snapshot.copy_from(sys.active, creator);
      view.expected = sys.model;
      view.expected.erase(creator);
      view.low_limit = sys.next_id;
      view.closed.store(false);
      clones_at_open = view.clones.load();
    }
    /* Visibility checks: no latch. */
    bad += disagreements(view.snapshot, view.expected, view.low_limit);
    /* Every fourth view stays open until purge has cloned it, so that
    purge's reads meet the owner's in every run, without timing. */
    while (i % 4 == 0 && view.clones.load() == clones_at_open) {
      std::this_thread::yield();
    }
    /* trx_close_statement_view() with the switch ON: no latch. */
    view.closed.store(true);
  }
  std::lock_guard<std::mutex> g(sys.mutex);
  sys.views.remove(&view);
}

void purge(Trx_sys &sys, const std::atomic_bool &done,
           std::atomic_int &clones, int &bad) {
  Hybrid_snapshot clone;
  Model expected;
  while (!done.load()) {
    trx_id_t low_limit = 0;
    {
      /* MVCC::clone_oldest_view(): the first view not closed. */
      std::lock_guard<std::mutex> g(sys.mutex);
      for (View *v : sys.views) {
        if (!v->closed.load()) {
          clone.copy_from(v->snapshot);
          expected = v->expected;
          low_limit = v->low_limit;
          ++clones;
          ++v->clones;
          break;
        }
      }
    }
    if (low_limit != 0) {
      bad += disagreements(clone, expected, low_limit);
    }
    std::this_thread::yield();
  }
}

TEST(HybridConcurrent, ViewsWritersAndPurgeAgreeWithTheModel) {
  Trx_sys sys;
  std::vector<std::unique_ptr<View>> views;
  std::vector<int> owner_bad(OWNERS, 0);
  std::atomic_int purge_clones{0};
  int purge_bad = 0;
  std::atomic_bool done{false};

  std::thread purge_thread(purge, std::ref(sys), std::cref(done),
                           std::ref(purge_clones), std::ref(purge_bad));
  std::vector<std::thread> threads;
  for (int w = 0; w < WRITERS; ++w) {
    threads.emplace_back(writer, std::ref(sys), 1000u + w);
  }
  for (int o = 0; o < OWNERS; ++o) {
    views.push_back(std::make_unique<View>());
    threads.emplace_back(view_owner, std::ref(sys), std::ref(*views.back()),
                         2000u + o, std::ref(owner_bad[o]));
  }
  for (auto &t : threads) t.join();
  done.store(true);
  purge_thread.join();

  for (int o = 0; o < OWNERS; ++o) EXPECT_EQ(owner_bad[o], 0) << "owner " << o;
  EXPECT_EQ(purge_bad, 0);
  EXPECT_GE(purge_clones.load(), OWNERS * OPENS_PER_OWNER / 4);
  /* Every transaction committed: the set is empty, and the long ones went
  through the long vector. */
  EXPECT_TRUE(sys.active.empty());
  EXPECT_TRUE(sys.active.validate());
  EXPECT_GT(sys.active.n_demoted(), 0u);
  EXPECT_EQ(sys.active.n_snapshots(), uint64_t{OWNERS} * OPENS_PER_OWNER);
}

}  // namespace
