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

/** @file include/trx0throttle.h
 innodb_trx_throttling: at most N user transactions active in InnoDB at once.

 The protocol, what counts, where a transaction is admitted and why nothing
 deadlocks are in trx/README.throttling.md (T1-T8, cited below).  The gate
 itself (Trx_gate) uses only the standard library, so that the fast tier
 tests it without a server (define INNOFORK_STANDALONE). */

#ifndef trx0throttle_h
#define trx0throttle_h

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>

namespace trx_throttle {

using Clock = std::chrono::steady_clock;

/** Counters shown as Innodb_trx_throttling_* in SHOW GLOBAL STATUS.
Written under the gate's mutex, read without it (relaxed). */
struct Stats {
  /** Admissions: immediate ones and those after a wait. */
  std::atomic<uint64_t> admitted{0};
  /** Admission requests that found no free slot and queued. */
  std::atomic<uint64_t> waits{0};
  /** Time spent queued, by every request that queued, in microseconds. */
  std::atomic<uint64_t> wait_time_us{0};
  /** Requests that gave up at innodb_trx_throttling_timeout (T7). */
  std::atomic<uint64_t> timeouts{0};
  /** Requests that left the queue because their session was killed. */
  std::atomic<uint64_t> interrupted{0};
  /** Slots held now, and the most ever held at once. */
  std::atomic<uint64_t> active{0};
  std::atomic<uint64_t> active_max{0};
  /** Requests queued now. */
  std::atomic<uint64_t> queued{0};
};

/** FIFO admission to at most limit() slots (T3).  A holder that leaves hands
its slot to the oldest waiter directly, so that a newcomer never overtakes a
queued request, and a waiter woken for any other reason rechecks. */
class Trx_gate {
 public:
  enum class Result {
    /** The caller holds a slot and must call leave() once. */
    ADMITTED,
    /** The limit is 0: the caller holds no slot. */
    OFF,
    /** The deadline passed: no slot, nothing left queued. */
    TIMED_OUT,
    /** interrupted() returned true: no slot, nothing left queued. */
    INTERRUPTED
  };

  Trx_gate() = default;
  Trx_gate(const Trx_gate &) = delete;
  Trx_gate &operator=(const Trx_gate &) = delete;

  /** Takes a slot if one is free and nobody is queued, without waiting.
  @return true if the caller holds a slot and must call leave() once */
  bool try_enter();

  /** Waits for a slot.
  @param[in] key          identifies the waiter to wake() (the trx)
  @param[in] thread_id    shown by print()
  @param[in] deadline     give up then (now or earlier: do not queue)
  @param[in] interrupted  asked under the gate's mutex whenever the waiter
                          wakes; must not block
  @return what happened */
  Result enter(const void *key, uint64_t thread_id, Clock::time_point deadline,
               const std::function<bool()> &interrupted);

  /** Gives back a slot that enter() granted. */
  void leave();

  /** Changes the limit: a higher one admits queued requests in order, 0
  sends every waiter away with OFF; a lower one takes effect as holders
  leave. */
  void set_limit(uint64_t limit);

  uint64_t limit() const { return m_limit.load(std::memory_order_relaxed); }

  /** Wakes the waiter of this key, if it is queued, to ask interrupted()
  again (KILL). */
  void wake(const void *key);

  const Stats &stats() const { return m_stats; }

  /** Prints the limit, the slots and the queue, oldest first, at most
  max_waiters of them (SHOW ENGINE INNODB STATUS). */
  void print(FILE *file, size_t max_waiters) const;

 private:
  struct Waiter {
    const void *key;
    uint64_t thread_id;
    Clock::time_point since;
    std::condition_variable cv;
    /** Set by a leaving holder (or a raised limit): the slot is ours. */
    bool admitted{false};
    Waiter *prev{nullptr};
    Waiter *next{nullptr};
  };

  /** Takes a slot if one is free and nobody is queued.  Caller holds
  m_mutex. */
  bool take_free_slot();

  /** Admits queued requests in order while a slot is free.  Caller holds
  m_mutex. */
  void admit_queued();

  void push_back(Waiter *w);
  void unlink(Waiter *w);
  void note_active(uint64_t active);

  /** T3's bookkeeping: the queue is well linked, its length is
  Stats::queued, and a request is queued only while every slot is taken.
  Caller holds m_mutex. */
  bool validate() const;

  mutable std::mutex m_mutex;
  std::atomic<uint64_t> m_limit{0};
  /** Slots granted and not yet given back.  Protected by m_mutex. */
  uint64_t m_active{0};
  /** The queue, oldest first.  Protected by m_mutex. */
  Waiter *m_head{nullptr};
  Waiter *m_tail{nullptr};
  Stats m_stats;
};

}  // namespace trx_throttle

#ifndef INNOFORK_STANDALONE
struct trx_t;

/** innodb_trx_throttling: the most user transactions active at once; 0 is
off. */
extern unsigned long srv_trx_throttling;

/** The server's gate. */
extern trx_throttle::Trx_gate trx_gate;

/** Gives back the slot of trx, if it holds one (T4).  Called where a
transaction ends for the server: commit, rollback, XA PREPARE, and the end
of the session. */
void trx_throttle_leave(trx_t *trx);

/** SHOW ENGINE INNODB STATUS: the gate's limit, slots and queue. */
void trx_throttle_print(FILE *file);
#endif /* !INNOFORK_STANDALONE */

#endif /* trx0throttle_h */
