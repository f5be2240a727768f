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

/* The admission gate of innodb_trx_throttling (trx/README.throttling.md),
without a server: the cap, FIFO hand-over, timeout, KILL, the limit changed
while requests wait, and many threads at once (built also under
ThreadSanitizer). */

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "trx0throttle.h"

using trx_throttle::Clock;
using trx_throttle::Trx_gate;
using Result = Trx_gate::Result;

namespace {

const auto never = Clock::time_point::max();
const auto not_interrupted = [] { return false; };

Result enter(Trx_gate &gate, const void *key = nullptr,
             Clock::time_point deadline = never) {
  return gate.enter(key, 0, deadline, not_interrupted);
}

/** Waits until n requests are queued (the order the test starts them in is
then the order they queued in). */
void await_queued(const Trx_gate &gate, uint64_t n) {
  while (gate.stats().queued.load() != n) {
    std::this_thread::yield();
  }
}

}  // namespace

TEST(trx_throttle, off_admits_nothing_and_counts_nothing) {
  Trx_gate gate;
  EXPECT_EQ(enter(gate), Result::OFF);
  EXPECT_EQ(gate.stats().admitted.load(), 0u);
  EXPECT_EQ(gate.stats().active.load(), 0u);
}

TEST(trx_throttle, cap_holds_and_a_full_gate_times_out_at_once) {
  Trx_gate gate;
  gate.set_limit(2);
  EXPECT_EQ(enter(gate), Result::ADMITTED);
  EXPECT_EQ(enter(gate), Result::ADMITTED);
  /* A deadline already past (innodb_trx_throttling_timeout = 0). */
  EXPECT_EQ(enter(gate, nullptr, Clock::now()), Result::TIMED_OUT);
  EXPECT_EQ(gate.stats().active.load(), 2u);
  EXPECT_EQ(gate.stats().active_max.load(), 2u);
  EXPECT_EQ(gate.stats().timeouts.load(), 1u);
  EXPECT_EQ(gate.stats().queued.load(), 0u);
  gate.leave();
  EXPECT_EQ(enter(gate), Result::ADMITTED);
  gate.leave();
  gate.leave();
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(gate.stats().admitted.load(), 3u);
}

TEST(trx_throttle, try_enter_takes_only_a_free_slot_nobody_waits_for) {
  Trx_gate gate;
  EXPECT_FALSE(gate.try_enter());
  gate.set_limit(1);
  EXPECT_TRUE(gate.try_enter());
  EXPECT_FALSE(gate.try_enter());
  std::thread waiter([&] {
    EXPECT_EQ(enter(gate), Result::ADMITTED);
    gate.leave();
  });
  await_queued(gate, 1);
  /* A slot freed by a raised limit goes to the waiter, not to try_enter(). */
  gate.set_limit(2);
  waiter.join();
  EXPECT_TRUE(gate.try_enter());
  gate.leave();
  gate.leave();
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(gate.stats().admitted.load(), 3u);
}

TEST(trx_throttle, a_leaving_holder_hands_its_slot_over_in_queue_order) {
  Trx_gate gate;
  gate.set_limit(1);
  ASSERT_EQ(enter(gate), Result::ADMITTED);

  std::mutex order_mutex;
  std::vector<int> order;
  std::vector<std::thread> waiters;
  for (int i = 0; i < 4; i++) {
    waiters.emplace_back([&, i] {
      EXPECT_EQ(enter(gate), Result::ADMITTED);
      {
        std::lock_guard<std::mutex> lock(order_mutex);
        order.push_back(i);
      }
      gate.leave();
    });
    await_queued(gate, i + 1);
  }
  /* A newcomer does not overtake the queue, even after a timeout. */
  EXPECT_EQ(enter(gate, nullptr, Clock::now()), Result::TIMED_OUT);
  gate.leave();
  for (auto &t : waiters) {
    t.join();
  }
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(gate.stats().waits.load(), 4u);
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(gate.stats().active_max.load(), 1u);
  EXPECT_EQ(gate.stats().queued.load(), 0u);
}

TEST(trx_throttle, a_waiter_times_out_and_leaves_no_trace) {
  Trx_gate gate;
  gate.set_limit(1);
  ASSERT_EQ(enter(gate), Result::ADMITTED);
  const auto start = Clock::now();
  EXPECT_EQ(enter(gate, nullptr, start + std::chrono::milliseconds(20)),
            Result::TIMED_OUT);
  EXPECT_GE(Clock::now(), start + std::chrono::milliseconds(20));
  EXPECT_EQ(gate.stats().queued.load(), 0u);
  EXPECT_EQ(gate.stats().timeouts.load(), 1u);
  EXPECT_GT(gate.stats().wait_time_us.load(), 0u);
  gate.leave();
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(enter(gate), Result::ADMITTED);
  gate.leave();
}

TEST(trx_throttle, wake_makes_a_killed_waiter_leave_the_queue) {
  Trx_gate gate;
  gate.set_limit(1);
  ASSERT_EQ(enter(gate), Result::ADMITTED);
  std::atomic<bool> killed{false};
  int keys[2];
  std::thread killed_one([&] {
    EXPECT_EQ(gate.enter(&keys[0], 1, never, [&] { return killed.load(); }),
              Result::INTERRUPTED);
  });
  await_queued(gate, 1);
  std::thread next_one([&] {
    EXPECT_EQ(enter(gate, &keys[1]), Result::ADMITTED);
    gate.leave();
  });
  await_queued(gate, 2);
  /* As THD::awake(): the flag first, then the wake-up. */
  killed = true;
  gate.wake(&keys[0]);
  killed_one.join();
  EXPECT_EQ(gate.stats().interrupted.load(), 1u);
  EXPECT_EQ(gate.stats().queued.load(), 1u);
  gate.leave();
  next_one.join();
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(gate.stats().queued.load(), 0u);
}

TEST(trx_throttle, switching_off_sends_waiters_on_without_a_slot) {
  Trx_gate gate;
  gate.set_limit(1);
  ASSERT_EQ(enter(gate), Result::ADMITTED);
  std::vector<std::thread> waiters;
  for (int i = 0; i < 3; i++) {
    waiters.emplace_back([&] { EXPECT_EQ(enter(gate), Result::OFF); });
  }
  await_queued(gate, 3);
  gate.set_limit(0);
  for (auto &t : waiters) {
    t.join();
  }
  EXPECT_EQ(gate.stats().queued.load(), 0u);
  /* The holder admitted while ON still gives its slot back. */
  EXPECT_EQ(gate.stats().active.load(), 1u);
  gate.leave();
  EXPECT_EQ(gate.stats().active.load(), 0u);
}

TEST(trx_throttle, a_raised_limit_admits_waiters_a_lowered_one_waits) {
  Trx_gate gate;
  gate.set_limit(3);
  for (int i = 0; i < 3; i++) {
    ASSERT_EQ(enter(gate), Result::ADMITTED);
  }
  gate.set_limit(1);
  std::atomic<int> admitted{0};
  std::vector<std::thread> waiters;
  for (int i = 0; i < 2; i++) {
    waiters.emplace_back([&] {
      EXPECT_EQ(enter(gate), Result::ADMITTED);
      ++admitted;
    });
  }
  await_queued(gate, 2);
  /* 3 active over a limit of 1: two leave, still no slot is free. */
  gate.leave();
  gate.leave();
  EXPECT_EQ(gate.stats().queued.load(), 2u);
  EXPECT_EQ(admitted.load(), 0);
  /* Raised to 3 with 1 active: both queued requests get in. */
  gate.set_limit(3);
  for (auto &t : waiters) {
    t.join();
  }
  EXPECT_EQ(admitted.load(), 2);
  EXPECT_EQ(gate.stats().active.load(), 3u);
  for (int i = 0; i < 3; i++) {
    gate.leave();
  }
  EXPECT_EQ(gate.stats().active.load(), 0u);
}

TEST(trx_throttle, many_threads_never_exceed_the_cap) {
  const uint64_t limit = 3;
  const int n_threads = 12;
  const int n_rounds = 2000;
  Trx_gate gate;
  gate.set_limit(limit);
  std::atomic<uint64_t> inside{0};
  std::atomic<uint64_t> most_inside{0};
  std::atomic<int> timeouts{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < n_threads; t++) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < n_rounds; i++) {
        /* Every 97th request of one thread gives up at once, so that
        timeouts interleave with hand-overs. */
        const bool hasty = t == 0 && i % 97 == 0;
        const Result r =
            enter(gate, &t, hasty ? Clock::now() : Clock::time_point::max());
        if (r == Result::TIMED_OUT) {
          ++timeouts;
          continue;
        }
        ASSERT_EQ(r, Result::ADMITTED);
        const uint64_t now = ++inside;
        uint64_t seen = most_inside.load();
        while (now > seen && !most_inside.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();
        --inside;
        gate.leave();
      }
    });
  }
  for (auto &t : threads) {
    t.join();
  }
  EXPECT_LE(most_inside.load(), limit);
  EXPECT_LE(gate.stats().active_max.load(), limit);
  EXPECT_EQ(gate.stats().active.load(), 0u);
  EXPECT_EQ(gate.stats().queued.load(), 0u);
  EXPECT_EQ(gate.stats().admitted.load() + timeouts.load(),
            uint64_t{n_threads} * n_rounds);
  EXPECT_EQ(gate.stats().timeouts.load(), uint64_t(timeouts.load()));
}
