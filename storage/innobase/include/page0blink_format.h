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

/** @file include/page0blink_format.h
 The bytes of the B-link header (README.blink.md, "Page format"): where they
 are, how they are read and written, and when they mean anything (H1).
 Header-only and free of the server's types, so that the fast tier tests it
 without a server (unittest/gunit/innodb/page0blink_format-t.cc);
 page/page0blink.cc ties its offsets to the server's page format with
 static_asserts and builds its readers and writers on it.

 The header lies where a root keeps its leaf segment header (the space id,
 the inode's page number and its byte offset).  So the bytes alone never
 say whether a page has a B-link header: a root's space id may begin with
 the magic.  Only the index and the page's place do (H1): in_use(). */

#ifndef page0blink_format_h
#define page0blink_format_h

#include <cstdint>

namespace blink_format {

/** Offset of the index page header in a page (stock's PAGE_HEADER). */
constexpr uint32_t PAGE_HEADER = 38;
/** Offset of the root's leaf segment header in the index page header
(stock's PAGE_BTR_SEG_LEAF), where the B-link header lies. */
constexpr uint32_t SEG_LEAF = 36;
/** Bytes of the B-link header: exactly one file segment header, so that it
ends where the root's non-leaf segment header (PAGE_BTR_SEG_TOP) begins. */
constexpr uint32_t SIZE = 10;
/** Offset of the B-link header in the page. */
constexpr uint32_t HEADER = PAGE_HEADER + SEG_LEAF;

/** @name Fields, as offsets inside the B-link header; 2 bytes each,
big-endian */
/** @{ */
/** PAGE_BLINK_MAGIC_VALUE while the header is in use */
constexpr uint32_t MAGIC = 0;
/** the PAGE_BLINK_* flags */
constexpr uint32_t FLAGS = 2;
/** page offset of the high key's origin, 0 if none */
constexpr uint32_t HK_ORIGIN = 4;
/** bytes of the high key before its origin */
constexpr uint32_t HK_EXTRA = 6;
/** bytes of the high key from its origin */
constexpr uint32_t HK_DATA = 8;
/** @} */

/** The magic: a sanity mark, written on every non-root page of a B-link
index when the page is created, never a proof that the header is in use. */
constexpr uint16_t MAGIC_VALUE = 0xB11C;

/** Flag: an incomplete split (IS1). */
constexpr uint16_t INCOMPLETE_SPLIT = 1;

/** Flag: the page left its level (PD2) and waits to be reused (PD5). */
constexpr uint16_t DELETED = 2;

/** A decoded B-link header, field by field. */
struct Header {
  uint16_t flags{0};
  /** offset of the high key's origin, 0: no high key */
  uint16_t origin{0};
  /** bytes before the origin; meaningless without a high key */
  uint16_t extra{0};
  /** bytes from the origin; meaningless without a high key */
  uint16_t data{0};

  bool has_hk() const { return origin != 0; }
  /** Bytes of the high key: 0 without one, whatever extra and data say. */
  uint32_t hk_size() const { return has_hk() ? uint32_t{extra} + data : 0; }
};

/** H1: whether a page's B-link header is in use: its index is B-link and
the page is not the index's root (a root has no high key, R1).
@param[in] blink    whether the page's index is B-link
@param[in] page_no  the page's number
@param[in] root_no  the page number of the index's root */
constexpr bool in_use(bool blink, uint32_t page_no, uint32_t root_no) {
  return blink && page_no != root_no;
}

/** @return the big-endian 2-byte value at p */
inline uint16_t read_2(const unsigned char *p) {
  return static_cast<uint16_t>((p[0] << 8) | p[1]);
}

/** Write v big-endian at p. */
inline void write_2(unsigned char *p, uint16_t v) {
  p[0] = static_cast<unsigned char>(v >> 8);
  p[1] = static_cast<unsigned char>(v);
}

/** @return whether the bytes of the header begin with the magic, whatever
the page and its index are.  Only a writer's sanity check, or a witness
of leftovers on a page known to be stock, may ask this. */
inline bool magic_set(const unsigned char *page) {
  return read_2(page + HEADER + MAGIC) == MAGIC_VALUE;
}

/** Decode a page's B-link header.
@param[in] page    the page frame
@param[in] in_use  in_use() of the page: the caller's knowledge of the
                   page's index and place, never guessed from the bytes
@return the header's fields as written; all zero unless in_use and the
magic is set */
inline Header read(const unsigned char *page, bool in_use) {
  Header h;
  if (!in_use || !magic_set(page)) {
    return h;
  }
  const unsigned char *p = page + HEADER;
  h.flags = read_2(p + FLAGS);
  h.origin = read_2(p + HK_ORIGIN);
  h.extra = read_2(p + HK_EXTRA);
  h.data = read_2(p + HK_DATA);
  return h;
}

/** @return the header's flags alone, as read() gives them: 0 unless in_use
and the magic is set.  The descent's test of a page, kept to two loads. */
inline uint16_t read_flags(const unsigned char *page, bool in_use) {
  return in_use && magic_set(page) ? read_2(page + HEADER + FLAGS) : 0;
}

/** Write a whole B-link header, magic included, on a page whose header is
in use.  Unlogged: the caller logs the SIZE bytes at page + HEADER. */
inline void write(unsigned char *page, const Header &h) {
  unsigned char *p = page + HEADER;
  write_2(p + MAGIC, MAGIC_VALUE);
  write_2(p + FLAGS, h.flags);
  write_2(p + HK_ORIGIN, h.origin);
  write_2(p + HK_EXTRA, h.extra);
  write_2(p + HK_DATA, h.data);
}

}  // namespace blink_format

#endif /* page0blink_format_h */
