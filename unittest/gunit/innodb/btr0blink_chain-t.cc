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

/* C2 (btr0blink_chain.h, README.blink.md "Corrupt pages"): the cycle check of
a walk along sibling links never fires on a chain without a cycle, and fires
on every cycle, whatever its length and lead-in, within the bound Brent's
algorithm gives. */

#include <gtest/gtest.h>

#include <vector>

#include "btr0blink_chain.h"

namespace {

using blink_chain::Cycle_check;

/** Walk a level whose right links are next[] from page 0, as the descent
does; return the number of steps taken when the check fires, or 0 if the
walk reached the end (a page without a right link, next[p] == p_end). */
size_t walk(const std::vector<uint32_t> &next, uint32_t p_end) {
  Cycle_check check(0);
  uint32_t page = 0;
  for (size_t steps = 1;; ++steps) {
    page = next[page];
    if (page == p_end) {
      return 0;
    }
    if (check.step(page)) {
      return steps;
    }
  }
}

TEST(blink_chain, chain_without_cycle_never_fires) {
  for (uint32_t n = 1; n < 3000; n += 7) {
    std::vector<uint32_t> next(n);
    for (uint32_t p = 0; p < n; ++p) {
      next[p] = p + 1;
    }
    EXPECT_EQ(walk(next, n), 0u) << n;
  }
}

TEST(blink_chain, every_cycle_fires_within_the_bound) {
  constexpr uint32_t END = 1u << 30;
  for (uint32_t lead = 0; lead < 70; ++lead) {
    for (uint32_t len = 1; len < 300; len += (len < 20 ? 1 : 13)) {
      /* pages 0..lead-1 lead into the cycle lead..lead+len-1 */
      std::vector<uint32_t> next(lead + len);
      for (uint32_t p = 0; p + 1 < lead + len; ++p) {
        next[p] = p + 1;
      }
      next[lead + len - 1] = lead;
      const size_t steps = walk(next, END);
      ASSERT_GT(steps, 0u) << lead << " " << len;
      /* Brent: the saved page is in the cycle once the power of two
      passes the lead-in, and the cycle closes within one more power of
      two not below its length. */
      size_t bound = 1;
      while (bound < lead + 1 || bound < len) {
        bound *= 2;
      }
      EXPECT_LE(steps, 2 * bound + len) << lead << " " << len;
    }
  }
}

TEST(blink_chain, a_right_link_to_the_page_itself_fires_at_once) {
  Cycle_check check(42);
  EXPECT_TRUE(check.step(42));
}

}  // namespace
