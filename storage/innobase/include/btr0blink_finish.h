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

/** @file include/btr0blink_finish.h
Helpers shared by the B-link files that finish incomplete splits
(btr0blink_finish.cc), free leaves beside the ones they could not finish
(btr0blink_unfinished.cc) and keep the page reserve (btr0blink_reserve.cc).
Internal to those files. */

#ifndef btr0blink_finish_h
#define btr0blink_finish_h

#include "buf0buf.h"
#include "dict0mem.h"
#include "mtr0mtr.h"
#include "page0blink.h"
#include "rem0types.h"

namespace blink_finish {

/** Whether a page of index carries the flag of an incomplete split (IS1);
never a root (H1). */
inline bool is_flagged(const page_t *page, const dict_index_t *index) {
  return page_blink_get_flags(page, index) & PAGE_BLINK_INCOMPLETE_SPLIT;
}

/** The child page a node pointer record names. */
page_no_t child_of(const rec_t *node_ptr, const dict_index_t *index);

/** Points a node pointer record at another child, in place (its size does
not change; B-link pages are not compressed, M4). */
void set_child(rec_t *node_ptr, const dict_index_t *index, page_no_t child,
               mtr_t *mtr);

/** Clears the flag of an incomplete split (IS2). */
void clear_flag(buf_block_t *block, const dict_index_t *index, mtr_t *mtr);

/** Sets X3's mark: index (nullptr: none) is the index whose exclusive path
of this thread met an incomplete split it could not finish. */
void set_unfinished(const dict_index_t *index);

/** EX2: mark (index) or unmark (nullptr) this thread as freeing externally
stored columns of index under S: btr_page_free_low() then frees from the
copy of the root's segment headers (btr_blink_external_page_free()). */
void set_external(const dict_index_t *index);

#ifndef NDEBUG
/** Writes and flushes the redo log up to here, then dies: the crash points
of the leveled split and of the reserve (blink_split_crash*.test,
blink_reserve_crash.test).  What a mini-transaction still running has done
is lost, as in a real crash. */
void crash_now();
#endif /* !NDEBUG */

}  // namespace blink_finish

#endif /* btr0blink_finish_h */
