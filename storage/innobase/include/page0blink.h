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

/** @file include/page0blink.h
 The page format of B-link indexes: the high key and the B-link header.

 The protocol, its invariants (HK1..HK4, R1, ...) and why the high key is
 kept outside the record list are in btr/README.blink.md.  In short: the
 high key is a node-pointer-format record in the page heap that no record
 points to; the B-link header at PAGE_HEADER + PAGE_BTR_SEG_LEAF (unused on
 non-root pages) says where it is.  Readers of the record list never see it.

 This header is included by page0page.cc, btr0btr.cc and our own files
 only. */

#ifndef page0blink_h
#define page0blink_h

#include <memory>
#include <vector>

#include "dict0dict.h"
#include "mtr0types.h"
#include "page0blink_format.h"
#include "page0page.h"
#include "page0types.h"
#include "rem0types.h"

struct dict_index_t;
struct dtuple_t;
struct buf_block_t;
struct mem_block_info_t;
typedef mem_block_info_t mem_heap_t;

/** @name The B-link header, at PAGE_HEADER + PAGE_BLINK_HEADER; its fields
and their decoding are in page0blink_format.h */
/** @{ */
/** Offset of the B-link header in the page header: the leaf segment header
of a root page, unused on every other page. */
constexpr uint32_t PAGE_BLINK_HEADER = blink_format::SEG_LEAF;
/** Bytes of the B-link header. */
constexpr uint32_t PAGE_BLINK_HEADER_SIZE = blink_format::SIZE;

/** The magic value, written on every non-root page of a B-link index when
the page is created (page_blink_init()).  A sanity mark only: on a root
these bytes are the leaf segment header, whose space id may start with the
same two bytes, and on stock pages they are unused and may hold anything,
so whether the header is in use is decided by the page's index and place
(H1, page_blink_in_use()). */
constexpr uint16_t PAGE_BLINK_MAGIC_VALUE = blink_format::MAGIC_VALUE;

/** Flag: the page was split and its parent does not have the downlink of
its right half yet (IS1; README.blink.md, "The flag"). */
constexpr uint16_t PAGE_BLINK_INCOMPLETE_SPLIT =
    blink_format::INCOMPLETE_SPLIT;
/** Flag: the page left its level and waits to be reused; a descent that
meets it moves right (PD2, PD3; README.blink.md, "Page deletion"). */
constexpr uint16_t PAGE_BLINK_DELETED = blink_format::DELETED;
/** All flags this version knows. */
constexpr uint16_t PAGE_BLINK_KNOWN_FLAGS =
    PAGE_BLINK_INCOMPLETE_SPLIT | PAGE_BLINK_DELETED;
/** @} */

/** Where a page's high key is.  A high key is a node-pointer-format record
of rec_size() bytes whose origin is at page + origin. */
struct page_blink_hk_t {
  /** offset of the origin in the page, 0 if the page has no high key */
  ulint origin{0};
  /** bytes before the origin */
  ulint extra{0};
  /** bytes from the origin */
  ulint data{0};

  bool exists() const { return origin != 0; }
  ulint rec_size() const { return extra + data; }
  /** Offset of the first byte of the record. */
  ulint start() const { return origin - extra; }
};

/** H1: whether a page's B-link header is in use: the page belongs to a
B-link index and is not its root (README.blink.md, "Page format").  The
readers below answer from the header only then; the magic alone is never
trusted, since a root's leaf segment header may spell it.
@param[in] page   index page
@param[in] index  its index (during recovery a dummy, never B-link) */
inline bool page_blink_in_use(const page_t *page, const dict_index_t *index) {
  return blink_format::in_use(index->blink, page_get_page_no(page),
                              dict_index_get_page(index));
}

/** Read the B-link header of a page.
@param[in] page   index page
@param[in] index  its index
@return the high key's place; origin, extra and data are 0 if the page has
none, and on every page whose header is not in use (page_blink_in_use()),
so that rec_size() is 0 there.  Whether the page should have one (HK1: it
has a right sibling) is the validator's business, not this function's: a
page that lost its right sibling keeps its high key until
page_blink_remove_hk(). */
page_blink_hk_t page_blink_get_hk(const page_t *page,
                                  const dict_index_t *index);

/** @return the high key of a page, or nullptr if it has none or its header
is not in use (page_blink_in_use()) */
const rec_t *page_blink_get_hk_rec(const page_t *page,
                                   const dict_index_t *index);

/** @return the PAGE_BLINK_* flags of a page; 0 if its header is not in use
(page_blink_in_use()).  Inline: a descent reads them on every page. */
inline uint16_t page_blink_get_flags(const page_t *page,
                                     const dict_index_t *index) {
  return blink_format::read_flags(page, page_blink_in_use(page, index));
}

/** Whether a page of a stock index carries B-link header bytes: the magic
at the header's place.  The one reader that looks at the bytes whatever the
index: IMPORT's witness of a B-link page under a stock index
(btr_blink_import_page_ok()).  Everything else asks page_blink_in_use().
@param[in] page  index page, not a root
@return whether the magic is there */
bool page_blink_stock_page_has_magic(const page_t *page);

/** Write a high key onto a page that has none: the record is placed at the
top of the heap (the page is reorganized first if the heap has no room) and
the B-link header is written.  Logged physically.
@param[in,out] block   page, X-latched, with no high key, uncompressed
@param[in]     index   its index
@param[in]     hk      high key record (node-pointer format), not on block
@param[in]     offsets rec_get_offsets(hk, index)
@param[in,out] mtr     mini-transaction
@return whether it was written; false only if the high key does not fit
even after reorganization (callers prove the fit beforehand) */
bool page_blink_set_hk(buf_block_t *block, dict_index_t *index,
                       const rec_t *hk, const ulint *offsets, mtr_t *mtr);

/** Remove a page's high key: its bytes become garbage, the B-link header
says there is none.  Nothing happens if the page has no high key.  Logged.
@param[in,out] block  page, X-latched
@param[in,out] mtr    mini-transaction */
void page_blink_remove_hk(buf_block_t *block, mtr_t *mtr);

/** Set a page's PAGE_BLINK_* flags.  Logged.
@param[in,out] block  page, X-latched, not a root (R1)
@param[in]     flags  the new flags
@param[in,out] mtr    mini-transaction */
void page_blink_set_flags(buf_block_t *block, uint16_t flags, mtr_t *mtr);

/** Copy a page's high key into a buffer.
@param[in]  page   page with a high key
@param[in]  index  its index, whose non-root pages carry the header (H1)
@param[out] buf    at least page_blink_get_hk(page, index).rec_size() bytes
@return the copy's origin, inside buf */
rec_t *page_blink_copy_hk(const page_t *page, const dict_index_t *index,
                          byte *buf);

/** Build the high key record that bounds a page whose right neighbour
starts with rec: the node pointer key of rec with child FIL_NULL, no info
bits.  This is the separator the parent gets for the right page (S3).
@param[in]  index  B-link index
@param[in]  rec    first record of the right neighbour (a node pointer on
                   non-leaf levels), or a converted tuple
@param[in]  level  level of the pages
@param[in]  heap   memory heap for the result
@param[out] offsets  rec_get_offsets() of the result, allocated from heap
@return the high key record, in heap */
rec_t *page_blink_build_hk(const dict_index_t *index, const rec_t *rec,
                           ulint level, mem_heap_t *heap, ulint **offsets);

/** page_blink_in_use() of a block.  Everything that reads or writes the
header asks this first, with the index in hand.  Redo replay needs no
answer: every change to the header and the high key is logged physically,
around the logical records of page creation and reorganize
(Page_blink_keeper).
@param[in] block  index page
@param[in] index  its index (during recovery a dummy, never B-link) */
bool page_blink_is_blink_page(const buf_block_t *block,
                              const dict_index_t *index);

/** Write the B-link header of a new page of a B-link index (no high key, no
flags), so that no leftover bytes of an earlier use of the page remain.
Logged.
@param[in,out] block  the page, just created, not a root
@param[in,out] mtr    mini-transaction */
void page_blink_init(buf_block_t *block, mtr_t *mtr);

#ifdef UNIV_DEBUG
class Page_blink_fake_header;
#endif /* UNIV_DEBUG */

/** Carries a page's B-link flags and high key across an operation that
recreates the page: page reorganize (btr_page_reorganize_low()) and
page_create_empty().  The constructor takes the high key off the page
(logged: its bytes become garbage), the destructor puts it back at the heap
top with the flags (logged).  So the logical redo records of the operation
in between, which recovery replays with a dummy index that is never B-link,
see a page without high key, exactly as the runtime did.  Does nothing on
pages whose header is not in use (H1). */
class Page_blink_keeper {
 public:
  /** Take the high key off the page, if it is a B-link page with one.
  @param[in,out] block  page, X-latched
  @param[in]     index  its index
  @param[in,out] mtr    mini-transaction */
  Page_blink_keeper(buf_block_t *block, const dict_index_t *index,
                    mtr_t *mtr);

  /** Put the high key and the flags back onto the page. */
  ~Page_blink_keeper();

  Page_blink_keeper(const Page_blink_keeper &) = delete;
  Page_blink_keeper &operator=(const Page_blink_keeper &) = delete;

 private:
  buf_block_t *m_block;
  mtr_t *m_mtr;
  bool m_active{false};
  uint16_t m_flags{0};
  page_blink_hk_t m_hk;
  std::vector<byte> m_bytes;
#ifdef UNIV_DEBUG
  std::unique_ptr<Page_blink_fake_header> m_fake;
#endif /* UNIV_DEBUG */
};

/** page_validate() hook: the bytes of the high key, which are in the data
size but in no list.  Also checks that the high key lies inside the heap.
@param[in] page  index page
@param[in] index its index: pages whose header is not in use (H1) have none
@param[out] size bytes the high key takes (0 if none)
@return false if the B-link header is inconsistent (reported) */
bool page_blink_validate_hk(const page_t *page, const dict_index_t *index,
                            ulint *size);

#endif /* page0blink_h */
