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

/** @file include/mtr0hold.h
How long a mini-transaction holds the latches that serialise the structure
changes of one index or tablespace: index->lock in SX or X, taken by a
BTR_MODIFY_TREE search or a B-link exclusive path, and the latch of a user
tablespace in X (page allocation, extent reservation, a B-link reserve
refill).  Only user tablespaces are timed: the indexes and latches of the
system, undo, temporary and data dictionary tablespaces are not, so the
server's background writes of its dictionary do not show up as structure
changes of user tables.  Every holder of one of them makes every other would-be holder of
the same latch wait, so their hold time per split is the serial fraction
that bounds splits per second on any number of cores
(benchmarks/doc/blink/README.md, "The many-core projection").

Each is timed from its first acquisition by a mini-transaction to its
release: mtr_t::memo_release() of that latch (a stock leaf split lets
index->lock go once the insert is known to fit) or the mini-transaction's
commit.  Only the first such mini-transaction of a thread is timed for each
latch; a nested one that takes the same latch again takes nothing new.
Shown as Innodb_*_hold_ns and Innodb_*_holds in SHOW GLOBAL STATUS. */

#ifndef mtr0hold_h
#define mtr0hold_h

#include <atomic>
#include <cstdint>

struct dict_index_t;
struct fil_space_t;
struct mtr_t;

/** The latches timed. */
enum class latch_hold_t : unsigned {
  /** index->lock in SX: stock's tree changes. */
  INDEX_SX,
  /** index->lock in X: B-link's exclusive path (X1), stock's spatial and
  purge-under-pressure tree changes. */
  INDEX_X,
  /** The latch of a user tablespace (fil_space_t::latch) in X. */
  SPACE_X,
  N
};

/** Totals since startup, per latch_hold_t. */
struct latch_hold_stats_t {
  std::atomic<uint64_t> holds[static_cast<unsigned>(latch_hold_t::N)]{};
  std::atomic<uint64_t> ns[static_cast<unsigned>(latch_hold_t::N)]{};
};
extern latch_hold_stats_t latch_hold_stats;

/** Starts the clock of the index->lock that mtr has just taken, in SX or
X, for a structure change.
@param[in]  index  the index whose lock mtr holds
@param[in]  mtr    the mini-transaction that holds it */
void latch_hold_index(dict_index_t *index, const mtr_t *mtr);

/** Starts the clock of a tablespace latch that mtr has just taken in X,
if the tablespace is a user tablespace.
@param[in]  space  the tablespace
@param[in]  mtr    the mini-transaction that holds its latch */
void latch_hold_space(const fil_space_t *space, const mtr_t *mtr);

/** Stops the clock of a latch that mtr releases before its commit: called
by mtr_t::memo_release().
@param[in]  mtr    the mini-transaction
@param[in]  latch  the object it releases */
void latch_hold_release(const mtr_t *mtr, const void *latch);

/** Stops the clocks that mtr started: called by mtr_t::commit() once its
latches are released.
@param[in]  mtr  the mini-transaction that commits */
void latch_hold_end(const mtr_t *mtr);

#endif /* mtr0hold_h */
