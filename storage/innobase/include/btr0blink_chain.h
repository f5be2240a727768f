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

/** @file include/btr0blink_chain.h
 The cycle check that turns a loop of sibling links into an error instead of
 an endless walk (README.blink.md, "Corrupt pages", C2).  Header-only,
 so that the fast tier tests it without a server
 (unittest/gunit/innodb/btr0blink_chain-t.cc). */

#ifndef btr0blink_chain_h
#define btr0blink_chain_h

#include <cstdint>

namespace blink_chain {

/** C2: a walk along the sibling links of one level meets no page twice,
since no page it can reach is reused while it runs (PD5; under X, G0); a
page met twice is a cycle of links, which would make the walk endless.
Brent's algorithm finds it with two words of state and no false alarm: it
saves the page reached after 1, 2, 4, ... steps and reports the first step
that comes back to the saved page, at most twice the cycle's length plus its
lead-in after entering it. */
class Cycle_check {
 public:
  /** @param[in] start  the page the walk starts from */
  explicit Cycle_check(uint32_t start) : m_saved(start) {}

  /** Note one step of the walk.
  @param[in] page_no  the page the step goes to
  @return true if page_no closes a cycle */
  bool step(uint32_t page_no) {
    if (page_no == m_saved) {
      return true;
    }
    if (++m_steps == m_power) {
      m_saved = page_no;
      m_power *= 2;
      m_steps = 0;
    }
    return false;
  }

 private:
  uint32_t m_saved;
  uint64_t m_power{1};
  uint64_t m_steps{0};
};

}  // namespace blink_chain

#endif /* btr0blink_chain_h */
