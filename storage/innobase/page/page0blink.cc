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

/** @file page/page0blink.cc
 The high key of B-link pages: where it lives, how it is written, removed,
 carried through a page reorganize and counted by page_validate().

 Format and invariants: btr/README.blink.md, "Page format".  Every change
 to a page made here is logged physically (MLOG_WRITE_STRING of the bytes
 that changed), except inside page reorganize, whose redo record replays
 the whole function. */

#include "page0blink.h"

#include <memory>

#include "btr0btr.h"
#include "buf0buf.h"
#include "my_dbug.h"
#include "dict0dict.h"
#include "mtr0log.h"
#include "page0cur.h"
#include "page0page.h"
#include "rem0rec.h"

/* The header's format, tested without a server, is stock's leaf segment
header of a root: the same place and size. */
static_assert(blink_format::PAGE_HEADER == PAGE_HEADER);
static_assert(blink_format::SEG_LEAF == PAGE_BTR_SEG_LEAF);
static_assert(blink_format::SEG_LEAF + blink_format::SIZE == PAGE_BTR_SEG_TOP);
static_assert(blink_format::SIZE == FSEG_HEADER_SIZE);

namespace {

byte *blink_header(page_t *page) { return page + blink_format::HEADER; }

/** The high key's place; all zero without a high key, so that its
rec_size() is 0 then. */
page_blink_hk_t to_hk(const blink_format::Header &h) {
  page_blink_hk_t hk;
  if (!h.has_hk()) {
    return hk;
  }
  hk.origin = h.origin;
  hk.extra = h.extra;
  hk.data = h.data;
  return hk;
}

/** The high key of a page known to be in use (H1): for the writers, which
are given such pages, and for readers that asked page_blink_in_use(). */
page_blink_hk_t raw_hk(const page_t *page) {
  return to_hk(blink_format::read(page, true));
}

/** The flags of a page known to be in use (H1), see raw_hk(). */
uint16_t raw_flags(const page_t *page) {
  return blink_format::read(page, true).flags;
}

/** Write the whole B-link header (magic included), unlogged. */
void write_header(page_t *page, uint16_t flags, const page_blink_hk_t &hk) {
  blink_format::Header h;
  h.flags = flags;
  h.origin = static_cast<uint16_t>(hk.origin);
  h.extra = static_cast<uint16_t>(hk.extra);
  h.data = static_cast<uint16_t>(hk.data);
  blink_format::write(page, h);
}

/** Write and log the B-link header.  MC1: a change of the high key or of
the flags moves the block's modify clock, so that a cursor stored on the
page cannot restore optimistically across it. */
void write_header(buf_block_t *block, uint16_t flags,
                  const page_blink_hk_t &hk, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);
  write_header(page, flags, hk);
  mlog_log_string(blink_header(page), PAGE_BLINK_HEADER_SIZE, mtr);
  buf_block_modify_clock_inc(block);
}

/** Place a copy of rec_size bytes starting at src at the heap top, with the
record header fields that an unlinked record must have.  Unlogged.
@return where the high key now is */
page_blink_hk_t place_at_heap_top(page_t *page, const byte *src,
                                  const page_blink_hk_t &from) {
  byte *top = page_header_get_ptr(page, PAGE_HEAP_TOP);
  memcpy(top, src, from.rec_size());

  rec_t *rec = top + from.extra;
  /* Not in the record list, not in the directory, no heap number: every
  reader of the list stops at the supremum without seeing it. */
  rec_set_next_offs_new(rec, 0);
  rec_set_n_owned_new(rec, nullptr, 0);
  rec_set_heap_no_new(rec, 0);
  rec_set_info_bits_new(rec, 0);
  rec_set_status(rec, REC_STATUS_NODE_PTR);

  page_header_set_ptr(page, nullptr, PAGE_HEAP_TOP, top + from.rec_size());

  page_blink_hk_t to;
  to.origin = page_offset(rec);
  to.extra = from.extra;
  to.data = from.data;
  return to;
}

}  // namespace

bool page_blink_stock_page_has_magic(const page_t *page) {
  return blink_format::magic_set(page);
}

page_blink_hk_t page_blink_get_hk(const page_t *page,
                                  const dict_index_t *index) {
  return to_hk(blink_format::read(page, page_blink_in_use(page, index)));
}

const rec_t *page_blink_get_hk_rec(const page_t *page,
                                   const dict_index_t *index) {
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  return hk.exists() ? page + hk.origin : nullptr;
}

bool page_blink_set_hk(buf_block_t *block, dict_index_t *index,
                       const rec_t *hk, const ulint *offsets, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);

  ut_ad(page_is_comp(page));
  ut_ad(!buf_block_get_page_zip(block));
  ut_ad(page_blink_in_use(page, index));
  ut_ad(!raw_hk(page).exists());
  ut_ad(rec_get_status(hk) == REC_STATUS_NODE_PTR);
  ut_ad(rec_offs_validate(hk, index, offsets));

  page_blink_hk_t from;
  from.extra = rec_offs_extra_size(offsets);
  from.data = rec_offs_data_size(offsets);

  if (page_get_max_insert_size(page, 1) < from.rec_size()) {
    page_cur_t cur;
    page_cur_set_before_first(block, &cur);
    if (!btr_page_reorganize(&cur, index, mtr) ||
        page_get_max_insert_size(page, 1) < from.rec_size()) {
      return false;
    }
  }

  const page_blink_hk_t to =
      place_at_heap_top(page, rec_get_start(hk, offsets), from);

  mlog_log_string(page + to.start(), to.rec_size(), mtr);
  mlog_log_string(page + PAGE_HEADER + PAGE_HEAP_TOP, 2, mtr);
  write_header(block, raw_flags(page), to, mtr);
  return true;
}

void page_blink_remove_hk(buf_block_t *block, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);
  const page_blink_hk_t hk = raw_hk(page);
  if (!hk.exists()) {
    return;
  }
  ut_ad(!buf_block_get_page_zip(block));

  /* The bytes stay where they are until the next reorganize, like the
  bytes of a deleted record; they are garbage from now on. */
  const ulint garbage = page_header_get_field(page, PAGE_GARBAGE);
  page_header_set_field(page, nullptr, PAGE_GARBAGE, garbage + hk.rec_size());
  mlog_log_string(page + PAGE_HEADER + PAGE_GARBAGE, 2, mtr);

  write_header(block, raw_flags(page), page_blink_hk_t{}, mtr);
}

void page_blink_set_flags(buf_block_t *block, uint16_t flags, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);
  ut_ad(!(flags & ~PAGE_BLINK_KNOWN_FLAGS));
  write_header(block, flags, raw_hk(page), mtr);
}

rec_t *page_blink_copy_hk(const page_t *page, const dict_index_t *index,
                          byte *buf) {
  const page_blink_hk_t hk = page_blink_get_hk(page, index);
  ut_a(hk.exists());
  memcpy(buf, page + hk.start(), hk.rec_size());
  return buf + hk.extra;
}

rec_t *page_blink_build_hk(const dict_index_t *index, const rec_t *rec,
                           ulint level, mem_heap_t *heap, ulint **offsets) {
  dtuple_t *key = dict_index_build_node_ptr(index, rec, FIL_NULL, heap, level);
  /* No minimum-record or delete mark: a high key bounds, it is no row. */
  dtuple_set_info_bits(key, REC_STATUS_NODE_PTR);

  byte *buf =
      static_cast<byte *>(mem_heap_alloc(heap, rec_get_converted_size(index, key)));
  rec_t *hk = rec_convert_dtuple_to_rec(buf, index, key);
  *offsets = rec_get_offsets(hk, index, nullptr, ULINT_UNDEFINED,
                             UT_LOCATION_HERE, &heap);
  return hk;
}

bool page_blink_is_blink_page(const buf_block_t *block,
                              const dict_index_t *index) {
  return page_blink_in_use(buf_block_get_frame(block), index);
}

void page_blink_init(buf_block_t *block, mtr_t *mtr) {
  write_header(block, 0, page_blink_hk_t{}, mtr);
}

#ifdef UNIV_DEBUG
/** Tests of H1 (blink_header_owner): B-link header bytes on a page
that is not a non-root page of a B-link index, as a root whose space id
starts with the magic or a stock page with leftover bytes would carry.
Written unlogged before a reorganize or page_create_empty() and taken away
after it, checking that nothing read or changed them. */
class Page_blink_fake_header {
 public:
  explicit Page_blink_fake_header(buf_block_t *block) : m_block(block) {
    page_t *page = buf_block_get_frame(block);
    memcpy(m_saved, blink_header(page), sizeof m_saved);
    page_blink_hk_t hk;
    hk.origin = PAGE_NEW_SUPREMUM_END + REC_N_NEW_EXTRA_BYTES;
    hk.extra = REC_N_NEW_EXTRA_BYTES;
    hk.data = 40;
    write_header(page, PAGE_BLINK_INCOMPLETE_SPLIT, hk);
    memcpy(m_fake, blink_header(page), sizeof m_fake);
  }
  ~Page_blink_fake_header() {
    byte *h = blink_header(buf_block_get_frame(m_block));
    ut_a(!memcmp(h, m_fake, sizeof m_fake));
    memcpy(h, m_saved, sizeof m_saved);
  }

 private:
  buf_block_t *m_block;
  byte m_saved[PAGE_BLINK_HEADER_SIZE];
  byte m_fake[PAGE_BLINK_HEADER_SIZE];
};
#endif /* UNIV_DEBUG */

Page_blink_keeper::Page_blink_keeper(buf_block_t *block,
                                     const dict_index_t *index, mtr_t *mtr)
    : m_block(block), m_mtr(mtr) {
  const bool in_use = page_blink_is_blink_page(block, index);
  /* The fake goes in before the decision below, which must not look at
  it. */
  ut_d(if (!in_use && DBUG_EVALUATE_IF("blink_fake_header", true, false)) {
    m_fake = std::make_unique<Page_blink_fake_header>(block);
  });
  if (!in_use) {
    /* H1: the bytes are a root's segment headers, or unused. */
    return;
  }
  const page_t *page = buf_block_get_frame(block);
  m_active = true;
  m_flags = raw_flags(page);
  m_hk = raw_hk(page);
  if (m_hk.exists()) {
    m_bytes.assign(page + m_hk.start(), page + m_hk.start() + m_hk.rec_size());
    /* Logged, so that redo replay of what follows (a reorganize, which
    replay runs with a dummy index, or a page creation) meets a page
    without high key, as the runtime did. */
    page_blink_remove_hk(block, mtr);
  }
}

Page_blink_keeper::~Page_blink_keeper() {
  if (!m_active) {
    return;
  }
  page_t *page = buf_block_get_frame(m_block);
  page_blink_hk_t to;
  if (m_hk.exists()) {
    /* The page holds what it held before in no more room (reorganize), or
    is empty: the high key fits at the heap top. */
    ut_a(page_get_max_insert_size(page, 1) >= m_hk.rec_size());
    to = place_at_heap_top(page, m_bytes.data(), m_hk);
    mlog_log_string(page + to.start(), to.rec_size(), m_mtr);
    mlog_log_string(page + PAGE_HEADER + PAGE_HEAP_TOP, 2, m_mtr);
  }
  write_header(m_block, m_flags, to, m_mtr);
}

bool page_blink_validate_hk(const page_t *page, const dict_index_t *index,
                            ulint *size) {
  *size = 0;
  if (!page_blink_in_use(page, index)) {
    return true;
  }
  const uint16_t flags = raw_flags(page);
  if (flags & ~PAGE_BLINK_KNOWN_FLAGS) {
    ib::error() << "B-link page " << page_get_page_no(page)
                << " has unknown flags " << flags;
    return false;
  }
  const page_blink_hk_t hk = raw_hk(page);
  if (!hk.exists()) {
    return true;
  }
  const ulint heap_top = page_header_get_field(page, PAGE_HEAP_TOP);
  if (hk.start() < PAGE_NEW_SUPREMUM_END || hk.origin + hk.data > heap_top ||
      hk.extra < REC_N_NEW_EXTRA_BYTES || hk.data < REC_NODE_PTR_SIZE ||
      rec_get_status(page + hk.origin) != REC_STATUS_NODE_PTR ||
      rec_get_info_bits(page + hk.origin, true) != 0 ||
      mach_read_from_4(page + hk.origin + hk.data - REC_NODE_PTR_SIZE) !=
          FIL_NULL) {
    ib::error() << "B-link page " << page_get_page_no(page)
                << ": high key header points outside the heap or at no "
                   "node pointer record with child FIL_NULL (origin "
                << hk.origin << ", extra " << hk.extra << ", data " << hk.data
                << ", heap top " << heap_top << ")";
    return false;
  }
  *size = hk.rec_size();
  return true;
}
