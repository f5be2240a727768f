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

/** @file mtr/mtr0hold.cc
Hold times of the latches that serialise structure changes (mtr0hold.h). */

#include "mtr0hold.h"

#include <chrono>

#include "dict0dict.h"
#include "fil0fil.h"
#include "sync0rw.h"

latch_hold_stats_t latch_hold_stats;

namespace {

using hold_clock = std::chrono::steady_clock;

/** One clock per latch_hold_t: the mini-transaction it belongs to (nullptr
when stopped), the latch it times and when it started. */
struct Clock {
  const mtr_t *mtr{nullptr};
  const void *latch{nullptr};
  hold_clock::time_point start;
};

thread_local Clock t_clocks[static_cast<unsigned>(latch_hold_t::N)];

/** Whether a clock of this thread runs: most mini-transactions take
neither latch, and their commit reads this one flag. */
thread_local bool t_running{false};

void start(latch_hold_t kind, const mtr_t *mtr, const void *latch) {
  Clock &clock = t_clocks[static_cast<unsigned>(kind)];
  if (clock.mtr != nullptr) {
    return;
  }
  clock = {mtr, latch, hold_clock::now()};
  t_running = true;
}

/** Adds the time of one clock to the totals and stops it. */
void stop(unsigned kind, hold_clock::time_point now) {
  Clock &clock = t_clocks[kind];
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(now - clock.start)
          .count();
  latch_hold_stats.holds[kind].fetch_add(1, std::memory_order_relaxed);
  latch_hold_stats.ns[kind].fetch_add(ns, std::memory_order_relaxed);
  clock.mtr = nullptr;
}

/** Stops the clocks of mtr that time latch, or all of mtr's if latch is
nullptr. */
void stop_matching(const mtr_t *mtr, const void *latch) {
  const auto now = hold_clock::now();
  bool running = false;
  for (unsigned kind = 0; kind < static_cast<unsigned>(latch_hold_t::N);
       ++kind) {
    const Clock &clock = t_clocks[kind];
    if (clock.mtr == mtr && (latch == nullptr || clock.latch == latch)) {
      stop(kind, now);
    } else {
      running |= clock.mtr != nullptr;
    }
  }
  t_running = running;
}

/** Whether the latches of a tablespace are timed: user tablespaces only,
so that the server's own background writes of the data dictionary (dynamic
metadata, the DDL log) do not count as structure changes of user tables. */
bool timed_space(space_id_t space_id) {
  return space_id != TRX_SYS_SPACE && !dict_sys_t::is_reserved(space_id);
}

}  // namespace

void latch_hold_index(dict_index_t *index, const mtr_t *mtr) {
  if (!timed_space(index->space)) {
    return;
  }
  rw_lock_t *lock = dict_index_get_lock(index);
  start(rw_lock_get_writer(lock) == RW_LOCK_X ? latch_hold_t::INDEX_X
                                              : latch_hold_t::INDEX_SX,
        mtr, lock);
}

void latch_hold_space(const fil_space_t *space, const mtr_t *mtr) {
  if (timed_space(space->id)) {
    start(latch_hold_t::SPACE_X, mtr, &space->latch);
  }
}

void latch_hold_release(const mtr_t *mtr, const void *latch) {
  if (t_running) {
    stop_matching(mtr, latch);
  }
}

void latch_hold_end(const mtr_t *mtr) {
  if (t_running) {
    stop_matching(mtr, nullptr);
  }
}
