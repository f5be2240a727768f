/* Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.

   What one descent costs the index's shared cache lines, with S on the
   index lock (README.blink.md D1) and with an announcement (LF1), measured
   with the same atomic operations as the server and no server: T threads
   run "descents" of an empty body in a loop for a few seconds.

     locked     a compare-and-swap on a shared lock word (rw_lock_s_lock()'s
                rw_lock_lock_word_decr()), then a fetch_add on it
                (rw_lock_s_unlock()): two read-modify-writes of one line
                that every thread writes;
     unlocked   a sequentially consistent store to the thread's own slot,
                a load of the shared lock word (written by nobody while no
                X runs), a release store to the slot.

   Prints nanoseconds per descent for each, per thread and in total.  With
   T threads on T cores the locked loop measures the lock word's line moving
   between cores: its total rate is the ceiling that S puts on the descents
   of one index, on any number of cores (benchmarks/doc/blink/README.md,
   "Descents without the index lock").

     c++ -O2 -std=c++17 -pthread lock_word.cc -o lock_word
     ./lock_word [threads (2)] [seconds per mode (3)] */

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int32_t UNLOCKED = 0x20000000; /* X_LOCK_DECR */

struct alignas(64) Line {
  std::atomic<int32_t> word{UNLOCKED};
};

struct alignas(64) Slot {
  std::atomic<const void *> lock{nullptr};
};

Line lock_word;

void locked_descent() {
  int32_t word = lock_word.word.load(std::memory_order_relaxed);
  while (word > 0 && !lock_word.word.compare_exchange_strong(word, word - 1)) {
  }
  lock_word.word.fetch_add(1);
}

void unlocked_descent(Slot &slot) {
  slot.lock.store(&lock_word, std::memory_order_seq_cst);
  if (lock_word.word.load(std::memory_order_seq_cst) <= 0) {
    std::abort(); /* no X in this benchmark */
  }
  slot.lock.store(nullptr, std::memory_order_release);
}

/* @return descents per second over all threads */
double run(int threads, double seconds, bool locked) {
  std::atomic<bool> stop{false};
  std::vector<Slot> slots(threads);
  std::vector<uint64_t> counts(threads * 8, 0);
  std::vector<std::thread> workers;
  for (int i = 0; i < threads; ++i) {
    workers.emplace_back([&, i]() {
      uint64_t n = 0;
      while (!stop.load(std::memory_order_relaxed)) {
        for (int k = 0; k < 1000; ++k) {
          if (locked) {
            locked_descent();
          } else {
            unlocked_descent(slots[i]);
          }
        }
        n += 1000;
      }
      counts[i * 8] = n;
    });
  }
  const auto start = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  stop = true;
  for (auto &w : workers) {
    w.join();
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  uint64_t total = 0;
  for (int i = 0; i < threads; ++i) {
    total += counts[i * 8];
  }
  return total / elapsed;
}

}  // namespace

int main(int argc, char **argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : 2;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 3;
  std::printf("%-9s %7s %14s %16s\n", "mode", "threads", "descents/s",
              "ns/descent/thread");
  for (const bool locked : {true, false}) {
    const double rate = run(threads, seconds, locked);
    std::printf("%-9s %7d %14.0f %16.1f\n", locked ? "locked" : "unlocked",
                threads, rate, 1e9 * threads / rate);
  }
  return 0;
}
