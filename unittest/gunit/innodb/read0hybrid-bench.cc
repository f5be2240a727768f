/* Copyright (c) 2026, the innofork authors.

   This program is free software; you can redistribute it and/or modify it
   under the terms of the GNU General Public License, version 2.0, as
   published by the Free Software Foundation.

   This program is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General
   Public License, version 2.0, for more details. */

/* Benchmark (not a test): the cost of opening a read view and of a
   visibility check, stock algorithm vs hybrid, for N active read-write
   transactions.

     read0hybrid-bench ALGO OP N ITERATIONS [REPEATS]
       ALGO  stock | hybrid | hybrid-counted
       OP    open | visible | critical
   prints one CSV line:
     algo,op,n_active,iterations,bytes_per_view,ns_median,ns_min,ns_max

   The measured loops are the functions bench_open(), bench_visible() and
   bench_critical(); benchmarks/readview/run.py counts their instructions
   with valgrind --tool=callgrind --toggle-collect=... and divides by the
   iteration count.

   "stock" is ReadView::copy_trx_ids() (copy the sorted vector, leaving out
   the creator) and changes_visible() (binary search) as in MySQL 9.7.2's
   read0read.cc and read0types.h, restated here without trx_sys.

   open      the copy of the active ids and the view's m_up_limit_id.
   visible   one changes_visible() of an id between the view's limits.
   critical  what MVCC::view_open() does between trx_sys_mutex_enter() and
             trx_sys_mutex_exit() when it reopens a view (read0read.cc of
             9.7.2): unlink the view from the view list, ReadView::prepare()
             (two atomic loads, the copy, the limits, m_closed.store(false))
             and link it first again.  (The hybrid set's status counters
             are part of its copy.)
   ALGO hybrid-counted is hybrid with what the visibility check did in an
   earlier version: increment an ib_counter_t<uint64_t, 64> (a slot chosen
   by the cycle counter, a plain add to shared memory), restated here. */

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "read0hybrid.h"

namespace {

/* A read-only creator (id 0), as for autocommit SELECTs at READ COMMITTED. */
constexpr trx_id_t CREATOR = 0;

/* The active set: N ids among the last 2N allocated (half of the recent
   transactions still running), deterministic. */
std::vector<trx_id_t> make_active(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<trx_id_t> all;
  const trx_id_t base = 1000000;
  for (trx_id_t id = base; id < base + 2 * n; ++id) all.push_back(id);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(n);
  std::sort(all.begin(), all.end());
  return all;
}

/* UT_LIST of MVCC::m_views, as far as view_open() uses it. */
template <typename View>
struct View_list {
  View *first = nullptr;
  View *last = nullptr;
  size_t count = 0;

  void remove(View *v) {
    (v->prev ? v->prev->next : first) = v->next;
    (v->next ? v->next->prev : last) = v->prev;
    v->prev = v->next = nullptr;
    --count;
  }
  void add_first(View *v) {
    v->prev = nullptr;
    v->next = first;
    (first ? first->prev : last) = v;
    first = v;
    ++count;
  }
};

/* trx_sys->serialisation_min_trx_no and next_trx_id_or_no. */
struct Trx_sys_counters {
  std::atomic<trx_id_t> serialisation_min_trx_no{0};
  std::atomic<trx_id_t> next_trx_id_or_no{0};
};

/* The fields of ReadView that prepare() sets besides the ids. */
struct View_common {
  trx_id_t up_limit = 0, low_limit = 0, creator = 0, low_limit_no = 0;
  std::atomic_bool closed{true};
};

struct Stock_view : View_common {
  std::vector<trx_id_t> ids;
  Stock_view *prev = nullptr, *next = nullptr;

  /* copy_trx_ids(): one copy that leaves out the creator. */
  size_t copy(const std::vector<trx_id_t> &global, trx_id_t creator_id) {
    creator = creator_id;
    size_t size = global.size() - (creator > 0 ? 1 : 0);
    ids.resize(size);
    if (creator > 0) {
      auto it = std::lower_bound(global.begin(), global.end(), creator);
      size_t i = it - global.begin();
      memmove(ids.data(), global.data(), i * sizeof(trx_id_t));
      memmove(ids.data() + i, global.data() + i + 1,
              (global.size() - i - 1) * sizeof(trx_id_t));
    } else {
      memmove(ids.data(), global.data(), size * sizeof(trx_id_t));
    }
    up_limit = ids.empty() ? low_limit : ids.front();
    return size * sizeof(trx_id_t);
  }

  bool changes_visible(trx_id_t id) const {
    if (id < up_limit || id == creator) return true;
    if (id >= low_limit) return false;
    if (ids.empty()) return true;
    return !std::binary_search(ids.begin(), ids.end(), id);
  }
};

/* ib_counter_t<uint64_t, 64>::inc() with its default indexer: the slot is
   picked by my_timer_cycles() (out of line in mysys), one per cache line. */
struct Sharded_counter {
  alignas(64) uint64_t slots[(64 + 1) * 8] = {};

  [[gnu::noinline]] static uint64_t cycles() {
#if defined(__x86_64__)
    return __rdtsc();
#elif defined(__aarch64__)
    /* What my_timer_cycles() reads on aarch64: the virtual counter. */
    uint64_t ticks;
    asm volatile("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    return std::chrono::steady_clock::now().time_since_epoch().count();
#endif
  }
  void inc() { slots[(cycles() % 64 + 1) * 8] += 1; }
};
Sharded_counter by_bitmap, by_long_list;

template <bool counted>
struct Hybrid_view : View_common {
  hybrid::Hybrid_snapshot snap;
  Hybrid_view *prev = nullptr, *next = nullptr;

  size_t copy(hybrid::Active_rw_ids &global, trx_id_t creator_id) {
    creator = creator_id;
    size_t bytes = snap.copy_from(global, creator);
    up_limit = snap.min_or(low_limit);
    return bytes;
  }

  bool changes_visible(trx_id_t id) const {
    if (id < up_limit || id == creator) return true;
    if (id >= low_limit) return false;
    if (counted) {
      (snap.in_bitmap(id) ? by_bitmap : by_long_list).inc();
    }
    return !snap.contains(id);
  }
};

/* ReadView::prepare(), after trx_sys_mutex_enter() in view_open(). */
template <typename View, typename Global>
inline size_t prepare(View &v, Global &g, const Trx_sys_counters &sys,
                      trx_id_t creator) {
  v.creator = creator;
  v.low_limit_no = sys.serialisation_min_trx_no.load();
  v.low_limit = sys.next_trx_id_or_no.load();
  if (v.low_limit_no > v.low_limit) abort(); /* ut_a */
  const size_t bytes = v.copy(g, creator);
  if (v.up_limit > v.low_limit) abort(); /* ut_a */
  v.closed.store(false);
  return bytes;
}

/* The measured loops: noinline so callgrind can toggle on them. */
template <typename View, typename Global>
__attribute__((noinline)) size_t bench_open(View &v, Global &g,
                                            size_t iterations) {
  size_t bytes = 0;
  for (size_t i = 0; i < iterations; ++i) {
    bytes += v.copy(g, CREATOR);
    __asm__ __volatile__("" : : "r"(&v) : "memory");
  }
  return bytes;
}

template <typename View>
__attribute__((noinline)) size_t bench_visible(const View &v,
                                               const std::vector<trx_id_t> &q,
                                               size_t iterations) {
  size_t visible = 0;
  for (size_t i = 0; i < iterations; ++i) {
    visible += v.changes_visible(q[i % q.size()]);
  }
  return visible;
}

template <typename View, typename Global>
__attribute__((noinline)) size_t bench_critical(View &v, Global &g,
                                                View_list<View> &views,
                                                const Trx_sys_counters &sys,
                                                size_t iterations) {
  size_t bytes = 0;
  for (size_t i = 0; i < iterations; ++i) {
    views.remove(&v);
    bytes += prepare(v, g, sys, CREATOR);
    views.add_first(&v);
    __asm__ __volatile__("" : : "r"(&v) : "memory");
  }
  return bytes;
}

template <typename F>
void timed(F f, int repeats, size_t iterations, double out[3]) {
  std::vector<double> ns;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() /
                 iterations);
  }
  std::sort(ns.begin(), ns.end());
  out[0] = ns[ns.size() / 2];
  out[1] = ns.front();
  out[2] = ns.back();
}

/* Run op on one algorithm; out[] gets the median, min and max ns. */
template <typename View, typename Global>
size_t run(View &v, Global &g, const std::string &op,
           const std::vector<trx_id_t> &queries, size_t iterations, int repeats,
           double out[3]) {
  size_t sink = 0;
  View_list<View> views;
  Trx_sys_counters sys;
  sys.serialisation_min_trx_no = v.low_limit - 1;
  sys.next_trx_id_or_no = v.low_limit;
  views.add_first(&v);
  if (op == "open") {
    timed([&] { sink += bench_open(v, g, iterations); }, repeats,
          iterations, out);
  } else if (op == "visible") {
    timed([&] { sink += bench_visible(v, queries, iterations); }, repeats,
          iterations, out);
  } else {
    timed([&] { sink += bench_critical(v, g, views, sys, iterations); },
          repeats, iterations, out);
  }
  return sink;
}

/* @return whether the view answers every query as the stock algorithm does */
template <typename View>
bool agrees(const View &v, const std::vector<trx_id_t> &active,
            const std::vector<trx_id_t> &queries) {
  Stock_view ref;
  ref.low_limit = v.low_limit;
  ref.copy(active, CREATOR);
  for (trx_id_t q : queries) {
    if (ref.changes_visible(q) != v.changes_visible(q)) {
      fprintf(stderr, "mismatch at %llu\n", (unsigned long long)q);
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr,
            "usage: %s stock|hybrid|hybrid-counted open|visible|critical N "
            "ITERATIONS [REPEATS]\n",
            argv[0]);
    return 2;
  }
  const std::string algo = argv[1], op = argv[2];
  const size_t n = std::strtoul(argv[3], nullptr, 10);
  const size_t iterations = std::strtoul(argv[4], nullptr, 10);
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 1;
  if ((algo != "stock" && algo != "hybrid" && algo != "hybrid-counted") ||
      (op != "open" && op != "visible" && op != "critical") || n == 0 ||
      iterations == 0) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }

  const std::vector<trx_id_t> active = make_active(n);
  const trx_id_t low_limit = active.back() + 1;
  /* Queries: ids in [smallest active, low limit), the range where the set
     itself must answer; half of them active. */
  std::mt19937_64 rng(7);
  std::vector<trx_id_t> queries(4096);
  for (auto &q : queries) q = active.front() + rng() % (low_limit - active.front());

  Stock_view sv;
  Hybrid_view<false> hv;
  Hybrid_view<true> cv;
  sv.low_limit = hv.low_limit = cv.low_limit = low_limit;
  hybrid::Active_rw_ids global;
  for (trx_id_t id : active) global.insert(id);

  size_t bytes = 0, sink = 0;
  double t[3];
  /* Both algorithms must agree, or the comparison means nothing. */
  if (algo == "stock") {
    bytes = sv.copy(active, CREATOR);
    sink = run(sv, active, op, queries, iterations, repeats, t);
  } else if (algo == "hybrid") {
    bytes = hv.copy(global, CREATOR);
    if (!agrees(hv, active, queries)) return 1;
    sink = run(hv, global, op, queries, iterations, repeats, t);
  } else {
    bytes = cv.copy(global, CREATOR);
    if (!agrees(cv, active, queries)) return 1;
    sink = run(cv, global, op, queries, iterations, repeats, t);
  }
  printf("%s,%s,%zu,%zu,%zu,%.2f,%.2f,%.2f\n", algo.c_str(), op.c_str(), n,
         iterations, bytes, t[0], t[1], t[2]);
  return sink == 42 ? 3 : 0; /* keep sink alive */
}
