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

/** @file trx/trx0throttle.cc
 innodb_trx_throttling: the admission gate (trx/README.throttling.md).

 Memory ordering.  Everything the gate decides is decided under m_mutex:
 the slots, the queue, each waiter's admitted flag.  The only reads without
 it are of m_limit (srv_trx_throttling's copy: a relaxed read that is only a
 fast path, rechecked under the mutex) and of the Stats counters by SHOW
 STATUS (relaxed, a statistic).  A waiter's condition variable and flag live
 on its own stack; it unlinks itself, or is unlinked by the one that admits
 it, under the mutex, and is notified under the mutex, so it cannot return
 and free them while another thread still reaches them.  No InnoDB latch is
 taken under m_mutex, and m_mutex is taken with none held but the caller's
 LOCK_thd_data in wake() (THD::awake), which nothing under m_mutex takes. */

#include "trx0throttle.h"

#include <algorithm>
#include <cassert>

namespace trx_throttle {

bool Trx_gate::take_free_slot() {
  /* T3: no newcomer overtakes a queued request. */
  if (m_head != nullptr || m_active >= m_limit.load(std::memory_order_relaxed)) {
    return false;
  }
  note_active(++m_active);
  m_stats.admitted.fetch_add(1, std::memory_order_relaxed);
  return true;
}

bool Trx_gate::try_enter() {
  std::lock_guard<std::mutex> lock(m_mutex);
  return take_free_slot();
}

Trx_gate::Result Trx_gate::enter(const void *key, uint64_t thread_id,
                                 Clock::time_point deadline,
                                 const std::function<bool()> &interrupted) {
  std::unique_lock<std::mutex> lock(m_mutex);

  if (m_limit.load(std::memory_order_relaxed) == 0) {
    return Result::OFF;
  }
  if (take_free_slot()) {
    return Result::ADMITTED;
  }

  const auto start = Clock::now();
  if (deadline <= start) {
    m_stats.timeouts.fetch_add(1, std::memory_order_relaxed);
    return Result::TIMED_OUT;
  }

  Waiter w;
  w.key = key;
  w.thread_id = thread_id;
  w.since = start;
  push_back(&w);
  m_stats.waits.fetch_add(1, std::memory_order_relaxed);

  Result result;
  for (;;) {
    if (w.admitted) {
      /* admit_queued() unlinked us and counted the slot. */
      result = Result::ADMITTED;
      break;
    }
    if (m_limit.load(std::memory_order_relaxed) == 0) {
      result = Result::OFF;
      break;
    }
    if (interrupted()) {
      result = Result::INTERRUPTED;
      m_stats.interrupted.fetch_add(1, std::memory_order_relaxed);
      break;
    }
    if (Clock::now() >= deadline) {
      result = Result::TIMED_OUT;
      m_stats.timeouts.fetch_add(1, std::memory_order_relaxed);
      break;
    }
    w.cv.wait_until(lock, deadline);
  }

  if (!w.admitted) {
    unlink(&w);
  }
  const auto waited = std::chrono::duration_cast<std::chrono::microseconds>(
      Clock::now() - start);
  m_stats.wait_time_us.fetch_add(waited.count(), std::memory_order_relaxed);
  assert(validate());
  return result;
}

void Trx_gate::leave() {
  std::lock_guard<std::mutex> lock(m_mutex);
  assert(m_active > 0);
  --m_active;
  admit_queued();
  m_stats.active.store(m_active, std::memory_order_relaxed);
  assert(validate());
}

void Trx_gate::set_limit(uint64_t limit) {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_limit.store(limit, std::memory_order_relaxed);
  if (limit == 0) {
    /* T7: every waiter goes on without a slot; each unlinks itself. */
    for (Waiter *w = m_head; w != nullptr; w = w->next) {
      w->cv.notify_one();
    }
  } else {
    admit_queued();
  }
}

void Trx_gate::wake(const void *key) {
  std::lock_guard<std::mutex> lock(m_mutex);
  for (Waiter *w = m_head; w != nullptr; w = w->next) {
    if (w->key == key) {
      w->cv.notify_one();
    }
  }
}

void Trx_gate::admit_queued() {
  const uint64_t limit = m_limit.load(std::memory_order_relaxed);
  while (m_head != nullptr && m_active < limit) {
    Waiter *w = m_head;
    unlink(w);
    w->admitted = true;
    ++m_active;
    m_stats.admitted.fetch_add(1, std::memory_order_relaxed);
    w->cv.notify_one();
  }
  note_active(m_active);
}

void Trx_gate::note_active(uint64_t active) {
  m_stats.active.store(active, std::memory_order_relaxed);
  if (active > m_stats.active_max.load(std::memory_order_relaxed)) {
    m_stats.active_max.store(active, std::memory_order_relaxed);
  }
}

void Trx_gate::push_back(Waiter *w) {
  w->prev = m_tail;
  w->next = nullptr;
  if (m_tail != nullptr) {
    m_tail->next = w;
  } else {
    m_head = w;
  }
  m_tail = w;
  m_stats.queued.fetch_add(1, std::memory_order_relaxed);
}

void Trx_gate::unlink(Waiter *w) {
  (w->prev != nullptr ? w->prev->next : m_head) = w->next;
  (w->next != nullptr ? w->next->prev : m_tail) = w->prev;
  w->prev = w->next = nullptr;
  m_stats.queued.fetch_sub(1, std::memory_order_relaxed);
}

bool Trx_gate::validate() const {
  /* Called with m_mutex held. */
  const uint64_t limit = m_limit.load(std::memory_order_relaxed);
  uint64_t n = 0;
  for (const Waiter *w = m_head; w != nullptr; w = w->next) {
    if (w->admitted || (w->next == nullptr) != (w == m_tail)) {
      return false;
    }
    ++n;
  }
  /* T3: a request queues only while every slot is taken. */
  return n == m_stats.queued.load(std::memory_order_relaxed) &&
         (n == 0 || limit == 0 || m_active >= limit);
}

void Trx_gate::print(FILE *file, size_t max_waiters) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  const auto now = Clock::now();
  fprintf(file,
          "Transaction throttling: limit %llu, %llu active (peak %llu), "
          "%llu waiting\n",
          static_cast<unsigned long long>(m_limit.load()),
          static_cast<unsigned long long>(m_active),
          static_cast<unsigned long long>(m_stats.active_max.load()),
          static_cast<unsigned long long>(m_stats.queued.load()));
  size_t n = 0;
  for (const Waiter *w = m_head; w != nullptr; w = w->next) {
    if (n++ == max_waiters) {
      fprintf(file, "...\n");
      break;
    }
    const auto waited =
        std::chrono::duration_cast<std::chrono::milliseconds>(now - w->since);
    fprintf(file, "waiting for a slot: thread %llu, for %.3f s\n",
            static_cast<unsigned long long>(w->thread_id),
            waited.count() / 1000.0);
  }
}

}  // namespace trx_throttle

#ifndef INNOFORK_STANDALONE
#include "trx0trx.h"

unsigned long srv_trx_throttling = 0;

trx_throttle::Trx_gate trx_gate;

void trx_throttle_leave(trx_t *trx) {
  if (trx->throttle_slot) {
    trx->throttle_slot = false;
    trx_gate.leave();
  }
}

void trx_throttle_print(FILE *file) {
  if (trx_gate.limit() != 0 ||
      trx_gate.stats().active.load(std::memory_order_relaxed) != 0) {
    trx_gate.print(file, 10);
  }
}
#endif /* !INNOFORK_STANDALONE */
