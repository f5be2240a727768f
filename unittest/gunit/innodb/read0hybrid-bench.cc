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
       ALGO  stock | hybrid
       OP    open | visible
   prints one CSV line:
     algo,op,n_active,iterations,bytes_per_view,ns_median,ns_min,ns_max

   The measured loops are the functions bench_open() and bench_visible();
   benchmarks/readview/run.sh counts their instructions with
   valgrind --tool=callgrind --toggle-collect=... and divides by the
   iteration count.

   "stock" is ReadView::copy_trx_ids() (copy the sorted vector, leaving out
   the creator) and changes_visible() (binary search) as in MySQL 9.7.2's
   read0read.cc and read0types.h, restated here without trx_sys. */

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "read0hybrid.h"

namespace {

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

struct Stock_view {
  std::vector<trx_id_t> ids;
  trx_id_t up_limit = 0, low_limit = 0, creator = 0;

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

struct Hybrid_view {
  hybrid::Hybrid_snapshot snap;
  trx_id_t up_limit = 0, low_limit = 0, creator = 0;

  size_t copy(hybrid::Active_rw_ids &global, trx_id_t creator_id) {
    creator = creator_id;
    size_t bytes = snap.copy_from(global, creator);
    up_limit = snap.empty() ? low_limit : snap.min();
    return bytes;
  }

  bool changes_visible(trx_id_t id) const {
    if (id < up_limit || id == creator) return true;
    if (id >= low_limit) return false;
    return !snap.contains(id);
  }
};

/* The measured loops: noinline so callgrind can toggle on them. */
template <typename View, typename Global>
__attribute__((noinline)) size_t bench_open(View &v, Global &g, trx_id_t creator,
                                            size_t iterations) {
  size_t bytes = 0;
  for (size_t i = 0; i < iterations; ++i) {
    bytes += v.copy(g, creator);
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

}  // namespace

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s stock|hybrid open|visible N ITERATIONS [REPEATS]\n",
            argv[0]);
    return 2;
  }
  const std::string algo = argv[1], op = argv[2];
  const size_t n = std::strtoul(argv[3], nullptr, 10);
  const size_t iterations = std::strtoul(argv[4], nullptr, 10);
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 1;
  if ((algo != "stock" && algo != "hybrid") || (op != "open" && op != "visible") ||
      n == 0 || iterations == 0) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }

  const std::vector<trx_id_t> active = make_active(n);
  const trx_id_t low_limit = active.back() + 1;
  /* A read-only creator (id 0), as for autocommit SELECTs at READ COMMITTED. */
  const trx_id_t creator = 0;

  /* Queries: ids in [smallest active, low limit), the range where the set
     itself must answer; half of them active. */
  std::mt19937_64 rng(7);
  std::vector<trx_id_t> queries(4096);
  for (auto &q : queries) q = active.front() + rng() % (low_limit - active.front());

  Stock_view sv;
  Hybrid_view hv;
  sv.low_limit = hv.low_limit = low_limit;
  hybrid::Active_rw_ids global;
  for (trx_id_t id : active) global.insert(id);

  size_t bytes = 0, sink = 0;
  double t[3];
  if (algo == "stock") {
    bytes = sv.copy(active, creator);
    if (op == "open") {
      timed([&] { sink += bench_open(sv, active, creator, iterations); }, repeats,
            iterations, t);
    } else {
      timed([&] { sink += bench_visible(sv, queries, iterations); }, repeats,
            iterations, t);
    }
  } else {
    bytes = hv.copy(global, creator);
    if (op == "open") {
      timed([&] { sink += bench_open(hv, global, creator, iterations); }, repeats,
            iterations, t);
    } else {
      timed([&] { sink += bench_visible(hv, queries, iterations); }, repeats,
            iterations, t);
    }
  }
  /* Both algorithms must agree, or the comparison means nothing. */
  if (algo == "hybrid") {
    Stock_view ref;
    ref.low_limit = low_limit;
    ref.copy(active, creator);
    for (trx_id_t q : queries) {
      if (ref.changes_visible(q) != hv.changes_visible(q)) {
        fprintf(stderr, "mismatch at %llu\n", (unsigned long long)q);
        return 1;
      }
    }
  }
  printf("%s,%s,%zu,%zu,%zu,%.2f,%.2f,%.2f\n", algo.c_str(), op.c_str(), n,
         iterations, bytes, t[0], t[1], t[2]);
  return sink == 42 ? 3 : 0; /* keep sink alive */
}
