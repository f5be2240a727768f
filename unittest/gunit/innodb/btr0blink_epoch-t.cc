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

/* PD5 (btr0blink_epoch.h, README.blink.md "Page deletion"): a page stamped after
its deletion is reused only when no thread that announced before the stamp
still announces; threads that announce after it do not hold it back; slots
are reused; and, with threads, no reader ever reaches a page that has been
reused (run plainly and under ThreadSanitizer).  LF1..LF3: an X never
overlaps a descent that runs without the lock. */

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "btr0blink_epoch.h"

namespace {

using blink_epoch::Guard;
using blink_epoch::Registry;
using blink_epoch::Thread_slot;

TEST(blink_epoch, quiescent_registry_lets_every_stamp_go) {
  Registry registry;
  const uint64_t stamp = registry.retire();
  EXPECT_GT(registry.horizon(), stamp);
  Thread_slot slot(registry);
  { Guard guard(slot); }
  EXPECT_GT(registry.horizon(), registry.retire());
}

TEST(blink_epoch, announcement_before_the_stamp_holds_it_back) {
  Registry registry;
  Thread_slot reader(registry);
  reader.enter();
  const uint64_t stamp = registry.retire();
  EXPECT_LE(registry.horizon(), stamp);
  /* Later stamps are held back too: the reader may have read any of them. */
  EXPECT_LE(registry.horizon(), registry.retire());
  reader.leave();
  EXPECT_GT(registry.horizon(), stamp);
}

TEST(blink_epoch, announcement_after_the_stamp_does_not) {
  Registry registry;
  const uint64_t stamp = registry.retire();
  Thread_slot reader(registry);
  Guard guard(reader);
  EXPECT_GT(registry.horizon(), stamp);
  const uint64_t later = registry.retire();
  EXPECT_LE(registry.horizon(), later);
}

TEST(blink_epoch, nested_announcements_keep_the_outermost_epoch) {
  Registry registry;
  Thread_slot reader(registry);
  Guard outer(reader);
  const uint64_t stamp = registry.retire();
  {
    Guard inner(reader);
    EXPECT_TRUE(reader.entered());
  }
  /* The inner guard's end must not end the outer announcement. */
  EXPECT_TRUE(reader.entered());
  EXPECT_LE(registry.horizon(), stamp);
}

TEST(blink_epoch, the_oldest_of_several_announcements_decides) {
  Registry registry;
  Thread_slot first(registry), second(registry);
  first.enter();
  const uint64_t stamp1 = registry.retire();
  second.enter();
  const uint64_t stamp2 = registry.retire();
  EXPECT_LE(registry.horizon(), stamp1);
  first.leave();
  EXPECT_GT(registry.horizon(), stamp1);
  EXPECT_LE(registry.horizon(), stamp2);
  second.leave();
  EXPECT_GT(registry.horizon(), stamp2);
}

TEST(blink_epoch, slots_are_unique_and_reused) {
  Registry registry;
  constexpr size_t N = 3 * Registry::CHUNK_SLOTS + 5;
  std::set<Registry::Slot *> slots;
  for (size_t i = 0; i < N; ++i) {
    EXPECT_TRUE(slots.insert(registry.acquire()).second);
  }
  const size_t capacity = registry.capacity();
  EXPECT_GE(capacity, N);
  for (Registry::Slot *slot : slots) {
    registry.release(slot);
  }
  for (size_t i = 0; i < N; ++i) {
    registry.acquire();
  }
  EXPECT_EQ(registry.capacity(), capacity);
}

/* Readers follow a pointer from a root to a page, as a descent reads a child
page number and latches the page later (the sequentially consistent load
stands for the latch); a deleter replaces the page, stamps the old one and
reuses it (poisons it) only behind the horizon.  A reader
that met a poisoned page would have reached a reused page. */
TEST(blink_epoch, no_reader_reaches_a_reused_page) {
  struct Page {
    std::atomic<bool> reused{false};
    uint64_t stamp{0};
  };
  Registry registry;
  std::atomic<Page *> root{new Page};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> reached_reused{0}, reads{0};

  auto reader = [&]() {
    Thread_slot slot(registry);
    while (!stop.load(std::memory_order_relaxed)) {
      Guard guard(slot);
      Page *page = root.load(std::memory_order_seq_cst);
      for (int i = 0; i < 8; ++i) {
        if (page->reused.load(std::memory_order_relaxed)) {
          reached_reused.fetch_add(1);
        }
      }
      reads.fetch_add(1, std::memory_order_relaxed);
    }
  };

  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i) {
    readers.emplace_back(reader);
  }
  std::vector<std::unique_ptr<Page>> limbo, reused;
  uint64_t recycled = 0;
  for (int round = 0; round < 20000; ++round) {
    std::unique_ptr<Page> old(root.exchange(new Page));
    old->stamp = registry.retire();
    limbo.push_back(std::move(old));
    const uint64_t horizon = registry.horizon();
    for (auto it = limbo.begin(); it != limbo.end();) {
      if ((*it)->stamp < horizon) {
        (*it)->reused.store(true, std::memory_order_relaxed);
        reused.push_back(std::move(*it));
        it = limbo.erase(it);
        ++recycled;
      } else {
        ++it;
      }
    }
  }
  stop = true;
  for (auto &t : readers) {
    t.join();
  }
  delete root.load();
  EXPECT_EQ(reached_reused.load(), 0u);
  EXPECT_GT(reads.load(), 0u);
  /* The horizon moves: pages are reused while readers run. */
  EXPECT_GT(recycled, 0u);
}

/* LF1, LF2: an unlocked descent is announced by the lock it does not take,
in its thread's slot, until it ends. */
TEST(blink_epoch, unlocked_descents_are_announced_by_their_lock) {
  Registry registry;
  int lock_a = 0, lock_b = 0;
  Thread_slot slot(registry);
  EXPECT_EQ(slot.unlocked(), nullptr);
  slot.enter_unlocked(&lock_a);
  EXPECT_TRUE(registry.announced_unlocked(&lock_a));
  EXPECT_FALSE(registry.announced_unlocked(&lock_b));
  EXPECT_EQ(slot.unlocked(), &lock_a);
  slot.leave_unlocked();
  EXPECT_FALSE(registry.announced_unlocked(&lock_a));
  EXPECT_EQ(slot.unlocked(), nullptr);
}

/* LF3: an X that waits, once it holds the lock word, until no slot announces
the lock never overlaps a descent that announced itself and then found the
lock word free.  The X writes two words one after the other; a reader that
overlapped it would see them differ.  As in the server, the X scans the
slots only once the lock is marked, and the first descents mark it
(rw_lock_t::unlocked_readers): the lock starts unmarked. */
TEST(blink_epoch, no_unlocked_descent_overlaps_an_x) {
  Registry registry;
  std::atomic<int> lock_word{0};
  std::atomic<bool> marked{false};
  std::atomic<uint64_t> first{0}, second{0};
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> overlaps{0}, unlocked{0}, refused{0};

  auto reader = [&]() {
    Thread_slot slot(registry);
    while (!stop.load(std::memory_order_relaxed)) {
      if (!marked.load()) {
        marked.store(true);
      }
      slot.enter_unlocked(&lock_word);
      if (lock_word.load(std::memory_order_seq_cst) != 0) {
        /* An X holds or waits: a descent takes S instead, which waits. */
        slot.leave_unlocked();
        refused.fetch_add(1, std::memory_order_relaxed);
        while (lock_word.load(std::memory_order_seq_cst) != 0) {
          std::this_thread::yield();
        }
        continue;
      }
      const uint64_t a = first.load(std::memory_order_relaxed);
      std::this_thread::yield();
      const uint64_t b = second.load(std::memory_order_relaxed);
      slot.leave_unlocked();
      if (a != b) {
        overlaps.fetch_add(1);
      }
      unlocked.fetch_add(1, std::memory_order_relaxed);
    }
  };

  std::vector<std::thread> readers;
  for (int i = 0; i < 3; ++i) {
    readers.emplace_back(reader);
  }
  for (uint64_t round = 1; round <= 5000; ++round) {
    int free_word = 0;
    while (!lock_word.compare_exchange_strong(free_word, 1)) {
      free_word = 0;
    }
    while (marked.load() && registry.announced_unlocked(&lock_word)) {
      std::this_thread::yield();
    }
    first.store(round, std::memory_order_relaxed);
    std::this_thread::yield();
    second.store(round, std::memory_order_relaxed);
    lock_word.store(0, std::memory_order_seq_cst);
    /* Let a reader in between two X. */
    const uint64_t reads = unlocked.load();
    while (unlocked.load() == reads) {
      std::this_thread::yield();
    }
  }
  stop = true;
  for (auto &t : readers) {
    t.join();
  }
  EXPECT_EQ(overlaps.load(), 0u);
  EXPECT_GT(unlocked.load(), 0u);
}

}  // namespace
