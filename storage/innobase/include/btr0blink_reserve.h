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

/** @file include/btr0blink_reserve.h
The page reserve of B-link indexes: pages allocated to an index's leaf
segment ahead of its leaf splits, in mini-transactions of their own, and
listed in the tablespace's reserve directory, so that a leaf split latches
no tablespace, inode or extent descriptor page (btr/README.blink.md, "The
page reserve", RV1-RV9). */

#ifndef btr0blink_reserve_h
#define btr0blink_reserve_h

#include <atomic>
#include <cstdint>

#include "buf0types.h"
#include "dict0types.h"
#include "fsp0types.h"
#include "mtr0types.h"
#include "page0size.h"

struct btr_cur_t;
struct dict_index_t;
struct buf_block_t;
struct mtr_t;

/** innodb_btree_blink_reserve_pages: the pages each B-link index keeps
allocated for its leaf splits (RV1); 0 turns the reserve off. */
extern ulong srv_btree_blink_reserve_pages;

/** Counters shown in SHOW GLOBAL STATUS as Innodb_btree_blink_reserve_*. */
struct btr_blink_reserve_stats_t {
  /** RV2: reserve pages that leaf splits formatted (SP5's second page
  included). */
  std::atomic<uint64_t> pages_taken{0};
  /** RV2: leaf splits that found fewer than a split's two pages in the
  reserve and allocated inside the split, as without a reserve. */
  std::atomic<uint64_t> empty{0};
  /** RV2: leaf splits that found their pool short and waited for the
  refill that ran, and those that refilled it themselves. */
  std::atomic<uint64_t> split_waits{0};
  std::atomic<uint64_t> split_refills{0};
  /** RV5: refills, and the pages they allocated. */
  std::atomic<uint64_t> refills{0};
  std::atomic<uint64_t> pages_allocated{0};
  /** RV3: pages found in a directory after a restart (or IMPORT) that were
  still unused, and so went back into their index's reserve. */
  std::atomic<uint64_t> pages_reclaimed{0};
  /** RV3: pages found so, but not owned by the segment they are listed
  for, and so not used. */
  std::atomic<uint64_t> pages_refused{0};
  /** RV4: tablespaces whose reserve the server forgot: dropped,
  discarded or imported. */
  std::atomic<uint64_t> spaces_forgotten{0};
  /** RV1: refills that found the tablespace's directory full, so that
  their index's reserve stays below its target. */
  std::atomic<uint64_t> directory_full{0};
  /** PD5, PD6: leaves deleted from their levels that became takeable, the
  horizon past their stamps. */
  std::atomic<uint64_t> deleted_ripe{0};
  /** RV10: reserve pages given back to their leaf segments, the pool above
  twice its target. */
  std::atomic<uint64_t> pages_freed{0};
  /** RV9: reserve pages that writes of externally stored columns took,
  and the pages they allocated from the tablespace instead (the pool at its
  floor for splits, or not loaded). */
  std::atomic<uint64_t> value_pages{0};
  std::atomic<uint64_t> value_empty{0};
};
extern btr_blink_reserve_stats_t btr_blink_reserve_stats;

/** RV2: at the extent reservation of a leveled leaf split (LO3's place,
after every page latch but the new page's): take a page from the index's
reserve.
@param[in] cursor  the insert's cursor, on the leaf to split
@param[in] flags   btr_cur_pessimistic_insert()'s flags
@return whether a page was taken: the split reserves no extents */
bool btr_blink_reserve_take(const btr_cur_t *cursor, ulint flags);

/** RV2 for the leaf split of btr_blink_update(): take the pages at the
pessimistic update's reservation, before its tablespace latch; the split's
own btr_blink_reserve_take() then takes nothing.
@return whether pages were taken: the update reserves no extents */
bool btr_blink_reserve_take_for_update(const btr_cur_t *cursor);

/** @return whether this thread's leveled leaf split reserved extents
(it took no page from the reserve and its insert reserves them) */
bool btr_blink_reserve_extents_reserved();

/** RV2: the new page of a leveled leaf split (or of SP5's re-split), from
the pages this thread took, X-latched in mtr and formatted as an allocation
formats it, but for a marked page's body, which the caller's
btr_page_create() in the same mini-transaction zeroes (format_taken()).
@return the block, or nullptr if it took none or has used both: allocate */
buf_block_t *btr_blink_reserve_use(const dict_index_t *index, mtr_t *mtr);

/** RV9: a page of an externally stored column of index, written under S
(btr_blink_writes_external()), from the index's reserve: no tablespace
latch while the write holds its leaf.  The pool keeps its floor for
splits (value_floor()).
@param[in] index  the clustered index
@param[in] mtr    the mini-transaction that writes the page
@return the page, X-latched and formatted as alloc_lob_page() returns it,
or nullptr: allocate */
buf_block_t *btr_blink_reserve_take_for_value(const dict_index_t *index,
                                              mtr_t *mtr);

/** RV6, RV9: after the mini-transaction of a leaf split that asked for
pages has committed: the pages it used leave the in-flight set, those it
did not use go back into the reserve; so do the pages this thread took for
values, whose mini-transactions have all committed.
@return the index whose split asked or whose values asked for pages (to
refill), or nullptr */
const dict_index_t *btr_blink_reserve_after_commit();

/** RV5: refill the reserve of an index if it is below half its target.
Runs after a row insert's commit, no latch held.
@param[in] index     B-link index
@param[in] leaf_seg  a copy of the root's PAGE_BTR_SEG_LEAF taken under the
                     root's latch by this thread's descent (LO4) */
void btr_blink_reserve_refill(const dict_index_t *index,
                              const fseg_header_t *leaf_seg);

/** RV10: give the pages of the reserve of an index above its target back
to its leaf segment, if deletions took the pool above twice its target.
Runs before a deletion's search, no latch held.
@param[in] index  B-link index */
void btr_blink_reserve_trim(const dict_index_t *index);

/** @return whether the reserve of the tablespace of index has read its
directory since the startup (RV3) */
bool btr_blink_reserve_loaded(const dict_index_t *index);

/** PD6: whether the reserve of index can list one more leaf deleted from
its levels: its directory is known (RV3) and has room. */
bool btr_blink_reserve_room_for_delete(const dict_index_t *index);

/** PD6: list a leaf deleted from the levels of index in its reserve, in
the deletion's mini-transaction, its directory X-latched as the deletion's
last latch; a split takes it once the horizon has passed its stamp (PD5).
@param[in] page_no  the deleted leaf
@param[in] stamp    its stamp */
void btr_blink_reserve_list_deleted(const dict_index_t *index,
                                    page_no_t page_no, uint64_t stamp,
                                    mtr_t *mtr);

/** RV4: forget what is known of a tablespace's reserve: it was dropped
(fil_delete_tablespace()), or IMPORT replaced the file and the next refill
reads its directory. */
void btr_blink_reserve_forget(space_id_t space_id);

/** A1: the pages of the index's reserve, as its tablespace's directory on
disk lists them (unused pages of its leaf segment), for the validator.
@param[in] index  B-link index, the caller holding index->lock
@return number of pages */
ulint btr_blink_reserve_count(const dict_index_t *index);

/** @return whether a page read by IMPORT is the reserve's directory or an
unused reserve page (RV4) */
bool btr_blink_reserve_owns_page(const byte *page);

/** A page of the tablespace in no file segment (the reserve's directory):
fsp_alloc_free_page() for callers outside fsp0fsp.cc.
@return the page, X-latched and initialized, or nullptr if the tablespace
is full */
buf_block_t *fsp_alloc_page_outside_segments(space_id_t space_id,
                                             const page_size_t &page_size,
                                             mtr_t *mtr);

/** Stock helpers of fsp0fsp.cc, made non-static by patch 0003 for the
ownership test of RV3 (fseg_free_page_low()'s tests). */
xdes_t *xdes_get_descriptor(space_id_t space_id, page_no_t offset,
                            const page_size_t &page_size, mtr_t *mtr);
bool xdes_mtr_get_bit(const xdes_t *descr, ulint bit, page_no_t offset,
                      mtr_t *mtr);
page_no_t fseg_get_nth_frag_page_no(fseg_inode_t *inode, ulint n, mtr_t *mtr);

/** fseg_n_reserved_pages() with the tablespace given, for a copy of a
segment header (LO4).
@param[in]  space_id  tablespace
@param[in]  header    segment header
@param[out] used      pages used
@param[in,out] mtr    mini-transaction
@return pages reserved */
ulint fseg_n_reserved_pages_in_space(space_id_t space_id,
                                     const fseg_header_t *header, ulint *used,
                                     mtr_t *mtr);

#endif /* btr0blink_reserve_h */
