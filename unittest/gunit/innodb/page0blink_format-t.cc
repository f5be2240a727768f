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

/* H1 (page0blink_format.h, README.blink.md, "Page format"): a root's leaf
segment header lies where the B-link header of other pages does, and a space
id of 0xB11C0000-0xB11CFFFF spells the magic there.  The readers must then
find no high key and no flags on the root, of a B-link index or of a stock
one, since they decide by the index and the page's place, not by the bytes.
Before, such a root gained the phantom room of a high key of 2 + the inode's
offset bytes (btr_blink_max_insert_size()), and an odd space id flagged it
as an incomplete split. */

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "page0blink_format.h"

namespace {

/* The 9.7.2 layout the root image is made of. */
constexpr size_t PAGE_SIZE = 16384;
constexpr size_t FIL_PAGE_OFFSET = 4;     // fil0types.h
constexpr size_t FIL_PAGE_SPACE_ID = 34;  // fil0types.h
constexpr size_t PAGE_HEADER = 38;        // page0types.h, FSEG_PAGE_DATA
constexpr size_t PAGE_BTR_SEG_LEAF = 36;  // page0types.h
constexpr size_t PAGE_BTR_SEG_TOP = 46;   // page0types.h
constexpr size_t FSEG_HDR_SPACE = 0;      // fsp0types.h
constexpr size_t FSEG_HDR_PAGE_NO = 4;
constexpr size_t FSEG_HDR_OFFSET = 8;

/* The root's page number and its segments' inode page in a file-per-table
tablespace. */
constexpr uint32_t ROOT_NO = 4;
constexpr uint32_t INODE_PAGE = 2;
/* The inodes of the leaf and the non-leaf segment on a 16 KiB page. */
constexpr uint16_t LEAF_INODE_OFFSET = 626;
constexpr uint16_t TOP_INODE_OFFSET = 434;
constexpr uint32_t MAGIC_SPACE = 0xB11C0001;

using Page = std::vector<unsigned char>;

void write_4(unsigned char *p, uint32_t v) {
  p[0] = static_cast<unsigned char>(v >> 24);
  p[1] = static_cast<unsigned char>(v >> 16);
  p[2] = static_cast<unsigned char>(v >> 8);
  p[3] = static_cast<unsigned char>(v);
}

void write_fseg_header(unsigned char *p, uint32_t space, uint32_t page_no,
                       uint16_t offset) {
  write_4(p + FSEG_HDR_SPACE, space);
  write_4(p + FSEG_HDR_PAGE_NO, page_no);
  blink_format::write_2(p + FSEG_HDR_OFFSET, offset);
}

/** A root page as fseg_create() leaves it: both segment headers point at
their inodes in space_id's inode page. */
Page root_image(uint32_t space_id, uint32_t inode_page) {
  Page page(PAGE_SIZE, 0);
  write_4(&page[FIL_PAGE_OFFSET], ROOT_NO);
  write_4(&page[FIL_PAGE_SPACE_ID], space_id);
  write_fseg_header(&page[PAGE_HEADER + PAGE_BTR_SEG_LEAF], space_id,
                    inode_page, LEAF_INODE_OFFSET);
  write_fseg_header(&page[PAGE_HEADER + PAGE_BTR_SEG_TOP], space_id,
                    inode_page, TOP_INODE_OFFSET);
  return page;
}

/** The root, read by the readers of a B-link or a stock index. */
void expect_nothing_on_root(const Page &page) {
  for (const bool blink : {true, false}) {
    SCOPED_TRACE(blink ? "B-link index" : "stock index");
    const blink_format::Header h = blink_format::read(
        page.data(), blink_format::in_use(blink, ROOT_NO, ROOT_NO));
    EXPECT_EQ(h.flags, 0);
    EXPECT_EQ(blink_format::read_flags(
                  page.data(), blink_format::in_use(blink, ROOT_NO, ROOT_NO)),
              0);
    EXPECT_FALSE(h.has_hk());
    EXPECT_EQ(h.origin, 0);
    EXPECT_EQ(h.extra, 0);
    EXPECT_EQ(h.data, 0);
    EXPECT_EQ(h.hk_size(), 0u);
  }
}

TEST(page0blink_format, offsets) {
  /* The B-link header is exactly the root's leaf segment header. */
  EXPECT_EQ(blink_format::HEADER, PAGE_HEADER + PAGE_BTR_SEG_LEAF);
  EXPECT_EQ(blink_format::HEADER + blink_format::SIZE,
            PAGE_HEADER + PAGE_BTR_SEG_TOP);
}

TEST(page0blink_format, in_use) {
  EXPECT_TRUE(blink_format::in_use(true, 5, ROOT_NO));
  EXPECT_FALSE(blink_format::in_use(true, ROOT_NO, ROOT_NO));
  EXPECT_FALSE(blink_format::in_use(false, 5, ROOT_NO));
  EXPECT_FALSE(blink_format::in_use(false, ROOT_NO, ROOT_NO));
}

TEST(page0blink_format, root_whose_space_id_spells_the_magic) {
  const Page page = root_image(MAGIC_SPACE, INODE_PAGE);
  /* The image spells the magic where a B-link header would be. */
  ASSERT_TRUE(blink_format::magic_set(page.data()));

  expect_nothing_on_root(page);

  /* Control: the same bytes, taken as the header of a non-root page of a
  B-link index, say flagged, extra 2 (the inode page's low half) and data
  626 (the inode's offset).  So the root's answer above comes from its
  place, not from bytes that happen to mean nothing. */
  const blink_format::Header h =
      blink_format::read(page.data(), blink_format::in_use(true, 5, ROOT_NO));
  EXPECT_EQ(h.flags & blink_format::INCOMPLETE_SPLIT,
            blink_format::INCOMPLETE_SPLIT);
  EXPECT_EQ(h.origin, 0);
  EXPECT_EQ(h.extra, INODE_PAGE);
  EXPECT_EQ(h.data, LEAF_INODE_OFFSET);
}

TEST(page0blink_format, every_space_id_of_the_magic) {
  for (uint32_t low = 0; low <= 0xFFFF; low++) {
    const Page page = root_image(0xB11C0000 | low, INODE_PAGE);
    ASSERT_TRUE(blink_format::magic_set(page.data()));
    const blink_format::Header h = blink_format::read(
        page.data(), blink_format::in_use(true, ROOT_NO, ROOT_NO));
    ASSERT_EQ(h.flags, 0) << "space id low half " << low;
    ASSERT_EQ(h.hk_size(), 0u) << "space id low half " << low;
    ASSERT_FALSE(h.has_hk()) << "space id low half " << low;
    const blink_format::Header s = blink_format::read(
        page.data(), blink_format::in_use(false, ROOT_NO, ROOT_NO));
    ASSERT_EQ(s.flags, 0) << "space id low half " << low;
    ASSERT_EQ(s.hk_size(), 0u) << "space id low half " << low;
    /* Control: the flags a non-root reading would find. */
    ASSERT_EQ(blink_format::read(page.data(), true).flags, low);
  }
}

TEST(page0blink_format, inode_page_beyond_64k) {
  /* The inode page's high half becomes a high key's origin. */
  const Page page = root_image(MAGIC_SPACE, 0x10002);
  expect_nothing_on_root(page);

  const blink_format::Header h = blink_format::read(page.data(), true);
  EXPECT_TRUE(h.has_hk());
  EXPECT_EQ(h.origin, 1);
  EXPECT_EQ(h.extra, 2);
  EXPECT_EQ(h.data, LEAF_INODE_OFFSET);
  EXPECT_EQ(h.hk_size(), 2u + LEAF_INODE_OFFSET);
}

TEST(page0blink_format, writer_round_trips_on_a_non_root_page) {
  Page page(PAGE_SIZE, 0);
  write_4(&page[FIL_PAGE_OFFSET], 7);
  blink_format::Header w;
  w.flags = blink_format::INCOMPLETE_SPLIT;
  w.origin = 16000;
  w.extra = 5;
  w.data = 33;
  blink_format::write(page.data(), w);

  EXPECT_TRUE(blink_format::magic_set(page.data()));
  const blink_format::Header r =
      blink_format::read(page.data(), blink_format::in_use(true, 7, ROOT_NO));
  EXPECT_EQ(r.flags, w.flags);
  EXPECT_EQ(blink_format::read_flags(page.data(), true), w.flags);
  EXPECT_EQ(r.origin, w.origin);
  EXPECT_EQ(r.extra, w.extra);
  EXPECT_EQ(r.data, w.data);
  EXPECT_EQ(r.hk_size(), 38u);

  /* Nothing outside the header's ten bytes changed. */
  for (size_t i = 0; i < PAGE_SIZE; i++) {
    if (i == FIL_PAGE_OFFSET + 3 ||
        (i >= blink_format::HEADER &&
         i < blink_format::HEADER + blink_format::SIZE)) {
      continue;
    }
    ASSERT_EQ(page[i], 0) << "byte " << i;
  }

  /* Without a high key the size is 0, whatever extra and data held. */
  w.origin = 0;
  blink_format::write(page.data(), w);
  EXPECT_EQ(blink_format::read(page.data(), true).hk_size(), 0u);

  /* The same page under a stock index: nothing. */
  const blink_format::Header s =
      blink_format::read(page.data(), blink_format::in_use(false, 7, ROOT_NO));
  EXPECT_EQ(s.flags, 0);
  EXPECT_EQ(blink_format::read_flags(page.data(),
                                     blink_format::in_use(false, 7, ROOT_NO)),
            0);
  EXPECT_EQ(s.hk_size(), 0u);
}

}  // namespace
