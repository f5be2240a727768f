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

/** @file include/btr0blink_epoch.h
 When a page that left its level can be used again (README.blink.md,
 "Page deletion", PD5): an epoch scheme in the manner of nbtree's safexid,
 counted in page deletions instead of transaction ids.  Header-only, so that
 the fast tier tests it without a server
 (unittest/gunit/innodb/btr0blink_epoch-t.cc).

 A thread announces in its own slot, for as long as it may hold the number of
 a page it has not latched, the epoch in which it started; a deletion takes a
 stamp while it still holds the latches of its mini-transaction (README.blink.md
 PD5); a page stamped s may be
 reused once the *horizon* (the oldest epoch announced, or the current one if
 none) is above s.  No read-modify-write on a shared word in the announcing
 thread: a load of the epoch and a store to its own cache line.

 The same slots carry the announcements of descents that run without their
 index's lock (README.blink.md, LF1..LF3): an X on the lock waits until no
 slot names it. */

#ifndef btr0blink_epoch_h
#define btr0blink_epoch_h

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace blink_epoch {

/** A slot's value while its thread announces nothing. */
inline constexpr uint64_t QUIESCENT = 0;

/** The epochs announced by all threads.  Slots are allocated in chunks that
live as long as the registry; a thread that ends gives its slot back for the
next one. */
class Registry {
 public:
  /** One thread's announcement, alone on its cache line. */
  struct alignas(64) Slot {
    /** The epoch the thread started in, or QUIESCENT */
    std::atomic<uint64_t> epoch{QUIESCENT};
    /** LF1: the lock of the tree the thread descends without taking it, or
    nullptr */
    std::atomic<const void *> unlocked{nullptr};
    /** Whether a thread owns the slot */
    std::atomic<bool> taken{false};
  };

  Registry() = default;
  Registry(const Registry &) = delete;
  Registry &operator=(const Registry &) = delete;

  ~Registry() {
    for (Chunk *chunk = m_chunks.load(std::memory_order_relaxed);
         chunk != nullptr;) {
      Chunk *next = chunk->next;
      delete chunk;
      chunk = next;
    }
  }

  /** @return a slot for the calling thread, quiescent */
  Slot *acquire() {
    for (;;) {
      for (Chunk *chunk = m_chunks.load(std::memory_order_acquire);
           chunk != nullptr; chunk = chunk->next) {
        for (Slot &slot : chunk->slots) {
          if (!slot.taken.load(std::memory_order_relaxed) &&
              !slot.taken.exchange(true, std::memory_order_acquire)) {
            return &slot;
          }
        }
      }
      grow();
    }
  }

  /** Give a quiescent slot back. */
  void release(Slot *slot) {
    slot->epoch.store(QUIESCENT, std::memory_order_relaxed);
    slot->taken.store(false, std::memory_order_release);
  }

  /** Announce the current epoch in slot.  Every page number the thread
  reads after this returns is covered.  The store is sequentially consistent,
  and so is every page latch acquisition and release (rw_lock_t's
  compare-and-swap and fetch_add, README.blink.md "Memory ordering"): if
  horizon()'s load of the slot comes before this store in their single total
  order, the thread's later page latches come after the release of the
  deletion's latches, and it sees the page unlinked.  (A stale epoch only
  holds pages back longer.)
  @param[in,out] slot  the calling thread's slot */
  void enter(Slot *slot) {
    slot->epoch.store(m_epoch.load(std::memory_order_seq_cst),
                      std::memory_order_seq_cst);
  }

  /** End the announcement: the thread holds no unlatched page number. */
  void leave(Slot *slot) {
    slot->epoch.store(QUIESCENT, std::memory_order_release);
  }

  /** Stamp pages that leave their levels in a mini-transaction that still
  holds their latches (and their neighbours' and parent's, PD5).
  @return the stamp: the pages may be reused once horizon() > stamp */
  uint64_t retire() { return m_epoch.fetch_add(1, std::memory_order_seq_cst); }

  /** @return the oldest epoch any thread announces, or the current epoch if
  none does: a page stamped below it is reachable by no thread that
  announced */
  uint64_t horizon() const {
    uint64_t oldest = m_epoch.load(std::memory_order_seq_cst);
    for (Chunk *chunk = m_chunks.load(std::memory_order_acquire);
         chunk != nullptr; chunk = chunk->next) {
      for (const Slot &slot : chunk->slots) {
        const uint64_t epoch = slot.epoch.load(std::memory_order_seq_cst);
        if (epoch != QUIESCENT && epoch < oldest) {
          oldest = epoch;
        }
      }
    }
    return oldest;
  }

  /** LF1: announce in slot a descent of the tree whose lock is lock, without
  the lock.  Sequentially consistent, before the caller's load of the lock's
  state: either that load sees an X that came first, or the X's
  announced_unlocked() sees this store (README.blink.md, LF3). */
  void enter_unlocked(Slot *slot, const void *lock) {
    slot->unlocked.store(lock, std::memory_order_seq_cst);
  }

  /** LF1: end the announcement of an unlocked descent; what the descent
  did happens before the return of an announced_unlocked() that sees it. */
  void leave_unlocked(Slot *slot) {
    slot->unlocked.store(nullptr, std::memory_order_release);
  }

  /** LF2: whether any thread announces an unlocked descent of the tree whose
  lock is lock */
  bool announced_unlocked(const void *lock) const {
    /* Sequentially consistent, as grow()'s store: a chunk added by the
    announcing thread is seen (LF3 holds for a slot in a new chunk). */
    for (Chunk *chunk = m_chunks.load(std::memory_order_seq_cst);
         chunk != nullptr; chunk = chunk->next) {
      for (const Slot &slot : chunk->slots) {
        if (slot.unlocked.load(std::memory_order_seq_cst) == lock) {
          return true;
        }
      }
    }
    return false;
  }

  /** @return the slots allocated so far */
  size_t capacity() const {
    size_t n = 0;
    for (Chunk *chunk = m_chunks.load(std::memory_order_acquire);
         chunk != nullptr; chunk = chunk->next) {
      n += CHUNK_SLOTS;
    }
    return n;
  }

  /** Slots per chunk */
  static constexpr size_t CHUNK_SLOTS = 64;

 private:
  struct Chunk {
    Slot slots[CHUNK_SLOTS];
    Chunk *next{nullptr};
  };

  /** Add a chunk at the head, unless another thread just did. */
  void grow() {
    std::lock_guard<std::mutex> guard(m_grow_mutex);
    Chunk *head = m_chunks.load(std::memory_order_relaxed);
    for (Chunk *chunk = head; chunk != nullptr; chunk = chunk->next) {
      for (Slot &slot : chunk->slots) {
        if (!slot.taken.load(std::memory_order_relaxed)) {
          return;
        }
      }
    }
    Chunk *chunk = new Chunk;
    chunk->next = head;
    m_chunks.store(chunk, std::memory_order_seq_cst);
  }

  /** The current epoch; starts above QUIESCENT */
  std::atomic<uint64_t> m_epoch{QUIESCENT + 1};
  /** The chunks, newest first */
  std::atomic<Chunk *> m_chunks{nullptr};
  /** Serializes grow() */
  std::mutex m_grow_mutex;
};

/** A thread's slot in one registry, taken on first use, nested
announcements counted: only the outermost enters and leaves. */
class Thread_slot {
 public:
  explicit Thread_slot(Registry &registry) : m_registry(registry) {}
  Thread_slot(const Thread_slot &) = delete;
  Thread_slot &operator=(const Thread_slot &) = delete;
  ~Thread_slot() {
    if (m_slot != nullptr) {
      m_registry.release(m_slot);
    }
  }

  void enter() {
    if (m_depth++ == 0) {
      if (m_slot == nullptr) {
        m_slot = m_registry.acquire();
      }
      m_registry.enter(m_slot);
    }
  }

  void leave() {
    if (--m_depth == 0) {
      m_registry.leave(m_slot);
    }
  }

  /** @return whether the thread announces an epoch */
  bool entered() const { return m_depth > 0; }

  /** LF1: announce an unlocked descent of the tree whose lock is lock; a
  thread runs one descent at a time. */
  void enter_unlocked(const void *lock) {
    if (m_slot == nullptr) {
      m_slot = m_registry.acquire();
    }
    m_registry.enter_unlocked(m_slot, lock);
  }

  void leave_unlocked() { m_registry.leave_unlocked(m_slot); }

  /** @return the lock of the tree the thread descends without it, or
  nullptr */
  const void *unlocked() const {
    return m_slot == nullptr
               ? nullptr
               : m_slot->unlocked.load(std::memory_order_relaxed);
  }

 private:
  Registry &m_registry;
  Registry::Slot *m_slot{nullptr};
  unsigned m_depth{0};
};

/** LF1: ends an announced unlocked descent when it goes out of scope. */
class Unlocked_guard {
 public:
  /** @param[in] slot  a slot that announces an unlocked descent */
  explicit Unlocked_guard(Thread_slot &slot) : m_slot(slot) {}
  Unlocked_guard(const Unlocked_guard &) = delete;
  Unlocked_guard &operator=(const Unlocked_guard &) = delete;
  ~Unlocked_guard() { m_slot.leave_unlocked(); }

 private:
  Thread_slot &m_slot;
};

/** Announces for its lifetime. */
class Guard {
 public:
  explicit Guard(Thread_slot &slot) : m_slot(slot) { m_slot.enter(); }
  Guard(const Guard &) = delete;
  Guard &operator=(const Guard &) = delete;
  ~Guard() { m_slot.leave(); }

 private:
  Thread_slot &m_slot;
};

}  // namespace blink_epoch

#endif /* btr0blink_epoch_h */
