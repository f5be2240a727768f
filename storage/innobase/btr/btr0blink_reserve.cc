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

/** @file btr/btr0blink_reserve.cc
The page reserve of B-link indexes (btr/README.blink.md, "The page
reserve", RV1-RV9): a refill allocates pages to an index's leaf segment in
a mini-transaction of its own and lists them in its tablespace's reserve
directory; a leveled leaf split takes two (one for SP5's re-split) and
formats the one it uses as its right half, so it latches no tablespace, inode or descriptor page; after a crash
the directory tells which pages are still unused. */

#include "btr0blink_reserve.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "btr0blink.h"
#include "btr0blink_epoch.h"
#include "btr0blink_finish.h"
#include "btr0btr.h"
#include "btr0cur.h"
#include "buf0buf.h"
#include "dict0dict.h"
#include "fil0fil.h"
#include "fsp0fsp.h"
#include "mach0data.h"
#include "mtr0log.h"
#include "mtr0mtr.h"
#include "my_dbug.h"
#include "page0blink_format.h"
#include "page0page.h"

ulong srv_btree_blink_reserve_pages = 32;
btr_blink_reserve_stats_t btr_blink_reserve_stats;

namespace {

/** RV1: the directory page and the reserve pages are of type
FIL_PAGE_TYPE_UNKNOWN (no stock type fits; a page of type
FIL_PAGE_TYPE_ALLOCATED may not be written to disk, and the flush keeps
this one), told apart by a magic.  Page 0's FSP_NOT_USED holds the
directory's number; the directory lists (leaf segment id, page number)
pairs. */
constexpr uint32_t DIRECTORY_MAGIC = 0x424c5256; /* "BLRV" */
constexpr uint32_t RESERVE_MAGIC = 0x424c5250;   /* "BLRP" */
constexpr ulint MAGIC_OFFSET = FIL_PAGE_DATA;
constexpr ulint DIRECTORY_N_OFFSET = FIL_PAGE_DATA + 4;
constexpr ulint DIRECTORY_ENTRIES = FIL_PAGE_DATA + 8;
constexpr ulint ENTRY_SIZE = 12;
constexpr byte *directory_pointer(page_t *page0) {
  return page0 + FSP_HEADER_OFFSET + FSP_NOT_USED;
}

/** @return how many entries a directory page holds */
ulint directory_capacity(const page_size_t &page_size) {
  /* blink_reserve_full fills a directory with a few small indexes. */
  DBUG_EXECUTE_IF("blink_reserve_small_directory", return 6;);
  return (page_size.physical() - DIRECTORY_ENTRIES - FIL_PAGE_DATA_END) /
         ENTRY_SIZE;
}

/** PD6: directory entries kept free for the deletions that found room and
have not listed their page yet, each between its search and its delete: 64,
or a quarter of a small directory. */
ulint delete_margin(ulint capacity) {
  return std::min<ulint>(64, capacity / 4);
}

/** PD6: the entries a refill may fill: the capacity less the margin of
deletions while they may run. */
ulint refill_room(ulint capacity) {
  return capacity - (srv_btree_blink_page_delete ? delete_margin(capacity) : 0);
}

struct Entry {
  uint64_t segment;
  page_no_t page_no;
};

/** A leaf segment's reserve. */
struct Pool {
  /** unused reserve pages */
  std::vector<page_no_t> pages;
  /** RV1: the pages it is refilled to, set by its last refill */
  ulint target{0};
  /** RV2: a split's refill found no page (directory or tablespace full):
  splits allocate inside themselves until a refill allocates again. */
  bool dry{false};
  /** PD6: leaves deleted from the index's levels, with their stamps (PD5):
  listed, taken only once the horizon has passed the stamp. */
  std::vector<std::pair<page_no_t, uint64_t>> deleted;

  /** PD5: move the deleted pages no descent can reach any more into the
  pages a split may take. */
  void ripen() {
    if (deleted.empty()) {
      return;
    }
    const uint64_t horizon = btr_blink_epochs().horizon();
    auto ripe = std::partition(
        deleted.begin(), deleted.end(),
        [&](const auto &d) { return d.second >= horizon; });
    for (auto it = ripe; it != deleted.end(); ++it) {
      pages.push_back(it->first);
    }
    btr_blink_reserve_stats.deleted_ripe.fetch_add(
        deleted.end() - ripe, std::memory_order_relaxed);
    deleted.erase(ripe, deleted.end());
  }
};

/** RV4: a B-link index tree of the table, and its leaf segment. */
struct Tree {
  space_index_t index;
  uint64_t segment;
  /** a copy of the root's PAGE_BTR_SEG_LEAF (LO4) */
  byte header[FSEG_HEADER_SIZE];
};

/** What is known of the reserve of one tablespace. */
struct Space_reserve {
  /** RV3: the directory was read (or found missing) since startup. */
  bool loaded{false};
  /** RV5: a refill runs; others skip theirs. */
  bool refilling{false};
  /** RV2: the leaf segment whose pages a refill is allocating (in refill(),
  where it latches no page of a level), 0 for none (segment ids start at
  1); and how many such allocations have ended. */
  uint64_t allocating_for{0};
  uint64_t allocations_ended{0};
  /** Page 0 names a page that is not a directory (RV3), or another
  directory than the known one (disable()): no reserve here. */
  bool disabled{false};
  /** RV1: a refill found the directory full (logged once). */
  bool full_logged{false};
  page_no_t directory{FIL_NULL};
  /** RV4: the table's B-link index trees when they were last read:
  entries of other segments are dropped. */
  std::vector<Tree> live_trees;
  /** Reserves by leaf segment id. */
  std::unordered_map<uint64_t, Pool> pools;
  /** The leaf segment of each live tree (RV4). */
  std::unordered_map<space_index_t, uint64_t> segment_of;
  /** RV6: pages taken by splits that have not committed yet. */
  std::unordered_map<page_no_t, uint64_t> in_flight;
  /** RV3: pages the directory listed at the first refill, not yet checked
  (each refill of their index checks a few): still listed, never taken. */
  std::vector<Entry> unchecked;
  /** RV5: the pages of a refill batch whose directory is written but not
  committed: listed by any other writer of the directory (PD6), which
  latches it after the batch's commit and before they reach the pool. */
  std::vector<Entry> committing;

  bool live(uint64_t segment) const {
    return std::any_of(live_trees.begin(), live_trees.end(),
                       [&](const Tree &t) { return t.segment == segment; });
  }

  /** @return whether the segment has listed pages still to check */
  bool has_unchecked(uint64_t segment) const {
    return std::any_of(unchecked.begin(), unchecked.end(),
                       [&](const Entry &e) { return e.segment == segment; });
  }

  std::vector<Entry> entries() const {
    std::vector<Entry> all(unchecked);
    all.insert(all.end(), committing.begin(), committing.end());
    for (const auto &[segment, pool] : pools) {
      for (const page_no_t page_no : pool.pages) {
        all.push_back({segment, page_no});
      }
      for (const auto &d : pool.deleted) {
        all.push_back({segment, d.first});
      }
    }
    for (const auto &[page_no, segment] : in_flight) {
      all.push_back({segment, page_no});
    }
    return all;
  }
};

/** RV6: one mutex for every tablespace's reserve.  It is held to pop or
push a page number or to copy the lists, never while a latch is waited
for. */
std::mutex reserve_mutex;
std::unordered_map<space_id_t, Space_reserve> reserves;
/** RV2: signalled when a refill's allocation ends. */
std::condition_variable allocation_ended;

/** The pages this thread took for the split of its current row insert. */
struct Taken {
  /** the index of the split that asked for a page, taken or not */
  const dict_index_t *index{nullptr};
  /** whether the split reserved extents (it took no page and its insert
  reserves them, btr_cur_pessimistic_insert()) */
  bool extents_reserved{false};
  /** the split's pages were asked for at a pessimistic update's
  reservation (btr_blink_reserve_take_for_update()) */
  bool for_update{false};
  space_id_t space{SPACE_UNKNOWN};
  uint64_t segment{0};
  std::vector<page_no_t> unused;
  std::vector<page_no_t> used;
#ifdef UNIV_DEBUG
  /** RV6: the mini-transaction of the split that used the pages */
  const mtr_t *mtr{nullptr};
#endif /* UNIV_DEBUG */
};
thread_local Taken t_taken;

/** RV9: the reserve pages this thread formatted for externally stored
columns, in flight until the mini-transactions that formatted them have
committed. */
struct Value_pages {
  const dict_index_t *index{nullptr};
  space_id_t space{SPACE_UNKNOWN};
  std::vector<page_no_t> pages;
#ifdef UNIV_DEBUG
  /** the mini-transaction that formatted the last of them */
  const mtr_t *mtr{nullptr};
#endif /* UNIV_DEBUG */
};
thread_local Value_pages t_values;

/** RV2: the pages a leaf split takes: its own, and one for SP5's re-split,
so that the re-split allocates nothing that no extent reservation covers.
A split takes these or none. */
constexpr size_t PAGES_PER_SPLIT = 2;

/** Pop PAGES_PER_SPLIT pages of the segment's pool into t_taken, in
flight (RV6).
@return whether there were that many */
bool pop_locked(Space_reserve &reserve, space_id_t space, uint64_t segment) {
  auto pool = reserve.pools.find(segment);
  if (reserve.disabled || pool == reserve.pools.end()) {
    return false;
  }
  pool->second.ripen();
  if (pool->second.pages.size() < PAGES_PER_SPLIT) {
    return false;
  }
  for (size_t i = 0; i < PAGES_PER_SPLIT; ++i) {
    const page_no_t page_no = pool->second.pages.back();
    pool->second.pages.pop_back();
    reserve.in_flight.emplace(page_no, segment);
    t_taken.unused.push_back(page_no);
  }
  t_taken.space = space;
  t_taken.segment = segment;
  return true;
}

/** RV9: the pages a pool keeps for leaf splits, which values do not take:
a quarter of its target, at least a split's (RV2).  A value takes a page
per 16 KiB or so, a split two; below this floor a split would wait for a
refill, or refill, holding its leaf (RV2). */
size_t value_floor(const Pool &pool) {
  return std::max<size_t>(PAGES_PER_SPLIT, pool.target / 4);
}

/** RV9: pop one page of the pool of index for a value, under
reserve_mutex, above the floor kept for splits (value_floor()).
@return the page, or FIL_NULL */
page_no_t pop_value_locked(const dict_index_t *index) {
  auto reserve = reserves.find(index->space);
  if (reserve == reserves.end() || reserve->second.disabled) {
    return FIL_NULL;
  }
  auto segment = reserve->second.segment_of.find(index->id);
  if (segment == reserve->second.segment_of.end()) {
    return FIL_NULL;
  }
  auto pool = reserve->second.pools.find(segment->second);
  if (pool == reserve->second.pools.end()) {
    return FIL_NULL;
  }
  pool->second.ripen();
  if (pool->second.pages.size() <= value_floor(pool->second)) {
    return FIL_NULL;
  }
  const page_no_t page_no = pool->second.pages.back();
  pool->second.pages.pop_back();
  reserve->second.in_flight.emplace(page_no, segment->second);
  return page_no;
}

/** Pop a split's pages from the pool of index, under reserve_mutex.
@return whether there were that many */
bool pop_for_locked(const dict_index_t *index) {
  auto reserve = reserves.find(index->space);
  if (reserve == reserves.end()) {
    return false;
  }
  auto segment = reserve->second.segment_of.find(index->id);
  return segment != reserve->second.segment_of.end() &&
         pop_locked(reserve->second, index->space, segment->second);
}

/** RV5: whether a pool is full enough that its index needs no refill:
at least a split's pages, and half its target. */
bool full_enough(const Pool &pool) {
  return pool.target > 0 && pool.pages.size() >= PAGES_PER_SPLIT &&
         2 * pool.pages.size() >=
             std::min<ulint>(pool.target, srv_btree_blink_reserve_pages);
}

/** @return whether a page carries a magic */
bool has_magic(const page_t *page, uint32_t magic) {
  return fil_page_get_type(page) == FIL_PAGE_TYPE_UNKNOWN &&
         mach_read_from_4(page + MAGIC_OFFSET) == magic;
}

/** PD7: whether a listed page is a leaf that left the levels of the index
(a non-root page, so its B-link header is in use, H1). */
bool is_deleted_leaf(const page_t *page, space_index_t index_id) {
  return fil_page_index_page_check(page) &&
         btr_page_get_index_id(page) == index_id &&
         btr_page_get_level(page) == 0 &&
         (blink_format::read(page, true).flags & blink_format::DELETED);
}

/** RV7, PD7: whether a listed page is still unused: marked, or a deleted
leaf of the index (no descent survives a restart, PD5).
@param[in] page      the page, latched
@param[in] index_id  the index whose leaf segment lists it */
bool unused(const page_t *page, space_index_t index_id) {
  return has_magic(page, RESERVE_MAGIC) || is_deleted_leaf(page, index_id);
}

/** RV7, PD7: unused() for a listed page read under an S latch of its own
mini-transaction (it may have been freed since). */
bool still_reserved(space_id_t space, page_no_t page_no,
                    const page_size_t &page_size, space_index_t index_id) {
  mtr_t mtr;
  mtr.start();
  const buf_block_t *block = buf_page_get_gen(
      page_id_t(space, page_no), page_size, RW_S_LATCH, nullptr,
      Page_fetch::POSSIBLY_FREED, UT_LOCATION_HERE, &mtr);
  const bool reserved = unused(buf_block_get_frame(block), index_id);
  mtr.commit();
  return reserved;
}

/** RV7: write a page's type and magic.  The type first: redo replay
checks that a page still of type FIL_PAGE_TYPE_ALLOCATED gets no other
write. */
void set_magic(buf_block_t *block, uint32_t magic, mtr_t *mtr) {
  page_t *page = buf_block_get_frame(block);
  mlog_write_ulint(page + FIL_PAGE_TYPE, FIL_PAGE_TYPE_UNKNOWN, MLOG_2BYTES,
                   mtr);
  mlog_write_ulint(page + MAGIC_OFFSET, magic, MLOG_4BYTES, mtr);
}

/** RV1: read the directory of a tablespace.
@param[out] named      the page page 0 names (0: none)
@param[out] directory  that page if it is a directory, else FIL_NULL
@return its entries */
std::vector<Entry> read_directory(space_id_t space,
                                  const page_size_t &page_size,
                                  page_no_t *named, page_no_t *directory) {
  std::vector<Entry> entries;
  mtr_t mtr;
  mtr.start();
  page_t *page0 =
      buf_block_get_frame(buf_page_get(page_id_t(space, 0), page_size,
                                       RW_S_LATCH, UT_LOCATION_HERE, &mtr));
  *named = mach_read_from_4(directory_pointer(page0));
  const page_no_t size =
      mach_read_from_4(page0 + FSP_HEADER_OFFSET + FSP_SIZE);
  *directory = FIL_NULL;
  if (*named != 0 && *named < size) {
    const page_t *page = buf_block_get_frame(
        buf_page_get_gen(page_id_t(space, *named), page_size, RW_S_LATCH,
                         nullptr, Page_fetch::POSSIBLY_FREED,
                         UT_LOCATION_HERE, &mtr));
    if (has_magic(page, DIRECTORY_MAGIC)) {
      *directory = *named;
      const ulint n =
          std::min<ulint>(mach_read_from_4(page + DIRECTORY_N_OFFSET),
                          directory_capacity(page_size));
      for (ulint i = 0; i < n; ++i) {
        const byte *e = page + DIRECTORY_ENTRIES + i * ENTRY_SIZE;
        const page_no_t listed = mach_read_from_4(e + 8);
        if (listed < size) {
          entries.push_back({mach_read_from_8(e), listed});
        }
      }
    }
  }
  mtr.commit();
  return entries;
}

/** @return the id of a file segment; the tablespace latch and the inode
page are latched in mtr */
uint64_t segment_id(space_id_t space, const page_size_t &page_size,
                    const fseg_header_t *header, mtr_t *mtr) {
  mtr_x_lock_space(fil_space_get(space), mtr);
  return mach_read_from_8(fseg_inode_get(header, space, page_size, mtr) +
                          FSEG_ID);
}

/** @return the table's B-link indexes that have a tree */
std::vector<const dict_index_t *> blink_trees(const dict_table_t *table) {
  std::vector<const dict_index_t *> trees;
  for (const dict_index_t *index : table->indexes) {
    if (index->blink && index->page != FIL_NULL) {
      trees.push_back(index);
    }
  }
  return trees;
}

/** @return the ids of the table's B-link index trees */
std::vector<space_index_t> blink_indexes(const dict_table_t *table) {
  std::vector<space_index_t> ids;
  for (const dict_index_t *index : blink_trees(table)) {
    ids.push_back(index->id);
  }
  return ids;
}

/** RV4: the table's B-link trees, each with its leaf segment read from
its root (S, alone) and its inode.  No latch may be held. */
std::vector<Tree> live_trees(const dict_table_t *table,
                             const page_size_t &page_size) {
  std::vector<Tree> trees;
  for (const dict_index_t *index : blink_trees(table)) {
    Tree tree;
    tree.index = index->id;
    mtr_t mtr;
    mtr.start();
    const page_t *root = buf_block_get_frame(
        buf_page_get(page_id_t(index->space, index->page), page_size,
                     RW_S_LATCH, UT_LOCATION_HERE, &mtr));
    memcpy(tree.header, root + PAGE_HEADER + PAGE_BTR_SEG_LEAF,
           sizeof tree.header);
    mtr.commit();
    mtr.start();
    tree.segment = segment_id(index->space, page_size, tree.header, &mtr);
    mtr.commit();
    trees.push_back(tree);
  }
  return trees;
}

/** @return whether trees are those of the indexes ids, in order */
bool same_indexes(const std::vector<Tree> &trees,
                  const std::vector<space_index_t> &ids) {
  return std::equal(trees.begin(), trees.end(), ids.begin(), ids.end(),
                    [](const Tree &t, space_index_t id) { return t.index == id; });
}

/** RV3: the directory's entries of live segments, each page once: a page
listed twice would be handed to two splits (check_listed() files a page
under the segment that owns it, whichever one it is listed for). */
std::vector<Entry> listed_once(std::vector<Entry> entries,
                               const std::vector<Tree> &trees) {
  const auto key = [](const Entry &e) {
    return std::make_pair(e.page_no, e.segment);
  };
  std::sort(entries.begin(), entries.end(),
            [&](const Entry &a, const Entry &b) { return key(a) < key(b); });
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const Entry &a, const Entry &b) {
                              return a.page_no == b.page_no;
                            }),
                entries.end());
  entries.erase(std::remove_if(entries.begin(), entries.end(),
                               [&](const Entry &e) {
                                 return std::none_of(
                                     trees.begin(), trees.end(),
                                     [&](const Tree &t) {
                                       return t.segment == e.segment;
                                     });
                               }),
                entries.end());
  return entries;
}

/** RV5: the pages a refill allocates in one mini-transaction, unless the
pool is too short for a split.  It releases the tablespace latch between
batches, for the splits that allocate inside themselves meanwhile, and each
batch can be taken once committed.  RV3: the listed pages a refill checks. */
constexpr ulint REFILL_BATCH = 4;

#ifdef UNIV_DEBUG
/** DBUG blink_reserve_segments_swapped: the entries of the first two
trees list each other's segment, as a directory that does not match its
segments would. */
void swap_segments(std::vector<Entry> &entries,
                   const std::vector<Tree> &trees) {
  if (trees.size() < 2) {
    return;
  }
  for (Entry &e : entries) {
    if (e.segment == trees[0].segment) {
      e.segment = trees[1].segment;
    } else if (e.segment == trees[1].segment) {
      e.segment = trees[0].segment;
    }
  }
}
#endif /* UNIV_DEBUG */

/** RV3, RV4: bring what is known of the tablespace up to date with the
table's indexes and, after a startup or an IMPORT, with its directory,
whose entries of live segments are kept to be checked (check_listed()).
No latch may be held. */
void update(const dict_table_t *table, space_id_t space,
            const page_size_t &page_size) {
  /* RV4: the table's segments are all the tablespace's (M4). */
  ut_ad(DICT_TF2_FLAG_IS_SET(table, DICT_TF2_USE_FILE_PER_TABLE));
  const std::vector<space_index_t> ids = blink_indexes(table);
  bool loaded;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    const Space_reserve &reserve = reserves[space];
    if (reserve.loaded && same_indexes(reserve.live_trees, ids)) {
      return;
    }
    loaded = reserve.loaded;
  }
  const std::vector<Tree> trees = live_trees(table, page_size);
  page_no_t named = 0;
  page_no_t directory = FIL_NULL;
  std::vector<Entry> entries;
  if (!loaded) {
    entries = listed_once(
        read_directory(space, page_size, &named, &directory), trees);
    if (named != 0 && directory == FIL_NULL) {
      ib::warn() << "B-link: page 0 of tablespace " << space << " names page "
                 << named << " as its reserve directory, which is not one;"
                 << " its indexes allocate inside their splits";
    }
  }
  std::lock_guard<std::mutex> guard(reserve_mutex);
  Space_reserve &reserve = reserves[space];
  reserve.live_trees = trees;
  reserve.segment_of.clear();
  for (const Tree &tree : trees) {
    reserve.segment_of[tree.index] = tree.segment;
  }
  for (auto it = reserve.pools.begin(); it != reserve.pools.end();) {
    it = reserve.live(it->first) ? std::next(it) : reserve.pools.erase(it);
  }
  reserve.unchecked.erase(
      std::remove_if(reserve.unchecked.begin(), reserve.unchecked.end(),
                     [&](const Entry &e) { return !reserve.live(e.segment); }),
      reserve.unchecked.end());
  if (!loaded) {
    /* RV3: the directory is read before any of its pages is in memory
    (only a refill, which reads it first, fills the pools). */
    ut_ad(reserve.in_flight.empty());
    ut_ad(std::all_of(reserve.pools.begin(), reserve.pools.end(),
                      [](const auto &pool) { return pool.second.pages.empty(); }));
    reserve.loaded = true;
    reserve.directory = directory;
    reserve.disabled = named != 0 && directory == FIL_NULL;
    DBUG_EXECUTE_IF("blink_reserve_segments_swapped",
                    swap_segments(entries, trees););
    reserve.unchecked = std::move(entries);
  }
}

/** RV3: a listed, marked page that no live segment of the table owns: it
is not used, and says so. */
void refuse(space_id_t space, const Entry &e) {
  btr_blink_reserve_stats.pages_refused.fetch_add(1,
                                                  std::memory_order_relaxed);
  ib::error() << "B-link: page " << e.page_no << " of tablespace " << space
              << " is listed in its reserve directory for leaf segment "
              << e.segment << ", and no leaf segment of the table owns it;"
              << " the page is not used"
              << " (Innodb_btree_blink_reserve_pages_refused)";
}

/** RV3: whether a leaf segment owns a page, by fseg_free_page_low()'s
tests: the page is not free in its extent descriptor, and the extent is the
segment's or the page is in the segment's fragment slots.  Latches the
tablespace, the inode, page 0 and the descriptor page.
@param[in] header  a copy of the segment header */
bool segment_owns(space_id_t space, const fseg_header_t *header,
                  page_no_t page_no, mtr_t *mtr) {
  fil_space_t *fil_space = fil_space_get(space);
  mtr_x_lock_space(fil_space, mtr);
  const page_size_t page_size(fil_space->flags);
  fseg_inode_t *inode = fseg_inode_get(header, space, page_size, mtr);
  const xdes_t *descr = xdes_get_descriptor(space, page_no, page_size, mtr);
  if (descr == nullptr ||
      xdes_mtr_get_bit(descr, XDES_FREE_BIT, page_no % FSP_EXTENT_SIZE, mtr)) {
    return false;
  }
  switch (xdes_get_state(descr, mtr)) {
    case XDES_FSEG:
    case XDES_FSEG_FRAG:
      return mach_read_from_8(descr + XDES_ID) ==
             mach_read_from_8(inode + FSEG_ID);
    case XDES_FREE_FRAG:
    case XDES_FULL_FRAG:
      for (ulint i = 0; i < FSEG_FRAG_ARR_N_SLOTS; ++i) {
        if (fseg_get_nth_frag_page_no(inode, i, mtr) == page_no) {
          return true;
        }
      }
      return false;
    default:
      return false;
  }
}

/** RV3: the live tree whose leaf segment owns a page, the one the page is
listed for first.  Latches the tablespace, an inode and a descriptor page
in mini-transactions of their own.
@return the tree, or nullptr if none owns it */
const Tree *owner_of(const std::vector<Tree> &trees, uint64_t listed,
                     space_id_t space, page_no_t page_no) {
  std::vector<const Tree *> order;
  for (const Tree &tree : trees) {
    order.insert(tree.segment == listed ? order.begin() : order.end(), &tree);
  }
  for (const Tree *tree : order) {
    mtr_t mtr;
    mtr.start();
    const bool owns =
        segment_owns(space, tree->header, page_no, &mtr) &&
        !DBUG_EVALUATE_IF("blink_reserve_owner_unknown", true, false);
    mtr.commit();
    if (owns) {
      return tree;
    }
  }
  return nullptr;
}

/** RV3: check a few of the pages listed for the tree's segment, each with
no other latch held (a page that a split used before the restart may be in
a level now): those still marked go back into the pool of the segment that
owns them, normally the one they are listed for; the others leave the list.
The first refills after a startup share the directory's reads, REFILL_BATCH
at a time.
@param[in] trees  the table's live trees, tree among them
@return whether the segment has listed pages left to check */
bool check_listed(const Tree &tree, const std::vector<Tree> &trees,
                  space_id_t space, const page_size_t &page_size) {
  /* The batch stays listed as unchecked while it is read, so that a
  deletion that writes the directory meanwhile (PD6) lists it too; one
  refill per tablespace runs at a time (RV5), so no other reads it. */
  std::vector<Entry> batch;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    for (const Entry &e : reserves[space].unchecked) {
      if (e.segment == tree.segment && batch.size() < REFILL_BATCH) {
        batch.push_back(e);
      }
    }
  }
  /* RV2: no split waits for this refill while it reads. */
  DEBUG_SYNC_C("blink_reserve_checking");
  std::vector<Entry> reclaimed;
  for (const Entry &e : batch) {
    if (!still_reserved(space, e.page_no, page_size, tree.index)) {
      continue;
    }
    if (const Tree *owner = owner_of(trees, e.segment, space, e.page_no)) {
      reclaimed.push_back({owner->segment, e.page_no});
    } else {
      refuse(space, e);
    }
  }
  std::lock_guard<std::mutex> guard(reserve_mutex);
  Space_reserve &reserve = reserves[space];
  auto &unchecked = reserve.unchecked;
  for (const Entry &e : batch) {
    auto it = std::find_if(unchecked.begin(), unchecked.end(),
                           [&](const Entry &u) {
                             return u.page_no == e.page_no &&
                                    u.segment == e.segment;
                           });
    if (it == unchecked.end()) {
      /* A deletion listed the page anew while it was read (PD6): it waits
      for the horizon there, not in the pool. */
      reclaimed.erase(std::remove_if(reclaimed.begin(), reclaimed.end(),
                                     [&](const Entry &r) {
                                       return r.page_no == e.page_no;
                                     }),
                      reclaimed.end());
      continue;
    }
    unchecked.erase(it);
  }
  for (const Entry &e : reclaimed) {
    reserve.pools[e.segment].pages.push_back(e.page_no);
  }
  btr_blink_reserve_stats.pages_reclaimed.fetch_add(
      reclaimed.size(), std::memory_order_relaxed);
  return reserve.has_unchecked(tree.segment);
}

/** RV4: page 0 names another directory than the one this server wrote:
the tablespace gets no reserve until the server restarts (RV3 then reads
what page 0 names).  The pages listed in the known directory stay
allocated and unused, and the validator counts them as leaked (A1). */
void disable(space_id_t space, page_no_t named, page_no_t known) {
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    reserve.disabled = true;
    reserve.pools.clear();
  }
  ib::error() << "B-link: page 0 of tablespace " << space << " names page "
              << named << " as its reserve directory, not page "
              << (known == FIL_NULL ? 0 : known)
              << "; the reserve of this tablespace is off until a restart,"
              << " its indexes allocate inside their splits";
}

/** RV1: write the directory: every unused and in-flight page of the
tablespace, and the new ones. */
void write_directory(buf_block_t *block, const std::vector<Entry> &entries,
                     mtr_t *mtr) {
  /* RV1: the refill wants no more pages than the directory holds. */
  ut_a(entries.size() <= directory_capacity(block->page.size));
  page_t *page = buf_block_get_frame(block);
  std::vector<byte> bytes(entries.size() * ENTRY_SIZE);
  for (size_t i = 0; i < entries.size(); ++i) {
    mach_write_to_8(&bytes[i * ENTRY_SIZE], entries[i].segment);
    mach_write_to_4(&bytes[i * ENTRY_SIZE + 8], entries[i].page_no);
  }
  mlog_write_ulint(page + DIRECTORY_N_OFFSET, entries.size(), MLOG_4BYTES,
                   mtr);
  if (!bytes.empty()) {
    mlog_write_string(page + DIRECTORY_ENTRIES, bytes.data(), bytes.size(),
                      mtr);
  }
}

/** RV1: the tablespace's directory page, created and named in page 0 if
there is none.  The tablespace latch is held.
@return the page X-latched, or nullptr if the tablespace is full */
buf_block_t *latch_directory(space_id_t space, const page_size_t &page_size,
                             page_no_t directory, page_t *page0, mtr_t *mtr) {
  if (directory != FIL_NULL) {
    return buf_page_get(page_id_t(space, directory), page_size, RW_X_LATCH,
                        UT_LOCATION_HERE, mtr);
  }
  buf_block_t *block = fsp_alloc_page_outside_segments(space, page_size, mtr);
  if (block == nullptr) {
    return nullptr;
  }
  set_magic(block, DIRECTORY_MAGIC, mtr);
  mlog_write_ulint(buf_block_get_frame(block) + DIRECTORY_N_OFFSET, 0,
                   MLOG_4BYTES, mtr);
  mlog_write_ulint(directory_pointer(page0), block->page.id.page_no(),
                   MLOG_4BYTES, mtr);
  return block;
}

/** RV1: the directory entries an index may have, its pool's and its splits'
in flight: the capacity divided among the table's B-link trees, so that
every index of the largest table has a reserve. */
ulint directory_share(const dict_index_t *index, ulint capacity) {
  return capacity / std::max<size_t>(1, blink_trees(index->table).size());
}

/** RV1: the pages a leaf segment's pool is refilled to: the setting,
capped at a sixteenth of the pages the segment uses, so that small indexes
keep small reserves (their disk space, and the leaf page counts of their
statistics), and at the index's share of the directory; never fewer than a
split takes.  Latches the inode. */
ulint reserve_target(const dict_index_t *index, const fseg_header_t *header,
                     ulint share, mtr_t *mtr) {
  ulint used;
  fseg_n_reserved_pages_in_space(index->space, header, &used, mtr);
  return std::max<ulint>(
      PAGES_PER_SPLIT,
      std::min<ulint>({srv_btree_blink_reserve_pages, used / 16, share}));
}

/** Clears Space_reserve::refilling when the refill ends. */
class Refilling {
 public:
  explicit Refilling(space_id_t space) : m_space(space) {}
  ~Refilling() {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    auto reserve = reserves.find(m_space);
    if (reserve != reserves.end()) {
      reserve->second.refilling = false;
    }
  }
  Refilling(const Refilling &) = delete;
  Refilling &operator=(const Refilling &) = delete;

 private:
  const space_id_t m_space;
};

/** RV1: a refill of index found its tablespace's directory full: count
it, and say so once per tablespace, since the index's leaf splits now
allocate inside the split as without a reserve. */
void note_directory_full(const dict_index_t *index, ulint capacity) {
  btr_blink_reserve_stats.directory_full.fetch_add(1,
                                                   std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    bool &logged = reserves[index->space].full_logged;
    if (logged) {
      return;
    }
    logged = true;
  }
  ib::warn() << "B-link: the page reserve of tablespace " << index->space
             << " lists " << capacity << " pages, all its directory holds;"
             << " index " << index->name() << " of table "
             << index->table->name << " and the others that find their"
             << " reserve short allocate inside their leaf splits, as with"
             << " innodb_btree_blink_reserve_pages=0"
             << " (Innodb_btree_blink_reserve_directory_full counts them)";
}

/** RV5: one mini-transaction of a refill.
@param[in]     segment  the id of the leaf segment
@param[in,out] hint     where to allocate from
@return the pages allocated: 0 if the reserve is full, or the directory,
or the tablespace */
ulint refill_batch(const dict_index_t *index, const fseg_header_t *leaf_seg,
                   uint64_t segment, bool by_split, page_no_t *hint) {
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  /* RV5: one refill per tablespace, under index->lock in S (A1). */
  ut_ad(rw_lock_own(dict_index_get_lock(const_cast<dict_index_t *>(index)),
                    RW_LOCK_S));
  ut_d(std::unique_lock<std::mutex> check(reserve_mutex));
  ut_ad(reserves[space].refilling);
  ut_d(check.unlock());

  mtr_t mtr;
  mtr.start();
  /* RV5: the tablespace latch first, then the inode, page 0, the
  directory, the descriptor pages and the new pages: nothing a splitter
  waits for while it holds a page of a level. */
  const ulint capacity = directory_capacity(page_size);
  const ulint share = directory_share(index, capacity);
  const ulint target = reserve_target(index, leaf_seg, share, &mtr);
  /* The target exceeds the share only at a split's pages. */
  const ulint may_list = std::max(target, share);
  page_t *page0 =
      fsp_get_space_header(space, page_size, &mtr) - FSP_HEADER_OFFSET;
  page_no_t directory;
  ulint n_entries;
  ulint have;
  ulint listed;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    directory = reserve.directory;
    n_entries = reserve.entries().size();
    /* RV1: the target is the pool's; the pages in flight are the splits',
    and count only against what the index may list. */
    have = reserve.pools[segment].pages.size();
    /* PD6: deleted pages waiting for the horizon count against the share,
    not the target. */
    listed = have + reserve.pools[segment].deleted.size() +
             std::count_if(reserve.in_flight.begin(),
                                  reserve.in_flight.end(), [&](const auto &f) {
                                    return f.second == segment;
                                  });
  }
  /* Only IMPORT replaces the file under a tablespace id (TRUNCATE makes a
  new one), and it forgets what was known (RV4): page 0 names the known
  directory unless something wrote it behind this code's back. */
  page_no_t named = mach_read_from_4(directory_pointer(page0));
  DBUG_EXECUTE_IF("blink_reserve_directory_moved", ++named;);
  if (named != (directory == FIL_NULL ? 0 : directory)) {
    mtr.commit();
    disable(space, named, directory);
    return 0;
  }
  const ulint room = refill_room(capacity);
  if (n_entries >= room && have < target) {
    note_directory_full(index, capacity);
  }
  /* RV5: a pool too short for a split fills up in one batch: its splits
  allocate inside themselves meanwhile, holding the tablespace latch to
  their commit, and a refill that queued behind them for every
  REFILL_BATCH pages would fall further behind. */
  const ulint batch =
      have < PAGES_PER_SPLIT && !by_split ? target : REFILL_BATCH;
  ulint want = std::min({batch, target - std::min(target, have),
                         may_list - std::min(may_list, listed),
                         room - std::min(room, n_entries)});
  if (!by_split) {
    /* blink_reserve_delete_race: a deletion lists its page here. */
    DEBUG_SYNC_C("blink_reserve_batch_sized");
  }
  buf_block_t *dir_block =
      want == 0 ? nullptr
                : latch_directory(space, page_size, directory, page0, &mtr);
  if (dir_block != nullptr) {
    /* PD6: deletions that listed their pages before the directory latch
    took entries counted free above; none lists one until this commit. */
    std::lock_guard<std::mutex> guard(reserve_mutex);
    n_entries = reserves[space].entries().size();
    want = std::min(want, room - std::min(room, n_entries));
  }
  if (dir_block == nullptr || want == 0) {
    mtr.commit();
    std::lock_guard<std::mutex> guard(reserve_mutex);
    reserves[space].pools[segment].target = target;
    return 0;
  }

  std::vector<page_no_t> fresh;
  while (fresh.size() < want) {
    /* FSP_NO_DIR: a page of an extent the segment has, a new extent only
    when it has none (FSP_UP would take a new extent at every refill). */
    buf_block_t *block = fseg_alloc_free_page_in_space(
        space, leaf_seg, *hint, FSP_NO_DIR, false, &mtr, &mtr);
    if (block == nullptr) {
      break;
    }
    /* RV7: marked until a split formats it. */
    set_magic(block, RESERVE_MAGIC, &mtr);
    fresh.push_back(block->page.id.page_no());
    *hint = fresh.back() + 1;
  }

  std::vector<Entry> entries;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    /* RV3: a listed page not checked yet that this batch allocated was
    free, so its entry is stale: one entry per page. */
    reserve.unchecked.erase(
        std::remove_if(reserve.unchecked.begin(), reserve.unchecked.end(),
                       [&](const Entry &e) {
                         return std::find(fresh.begin(), fresh.end(),
                                          e.page_no) != fresh.end();
                       }),
        reserve.unchecked.end());
    for (const page_no_t page_no : fresh) {
      reserve.committing.push_back({segment, page_no});
    }
    entries = reserve.entries();
  }
  /* PD6: deletions list a page only under the directory latch held here,
  so the margin left to them is still free. */
  ut_ad(entries.size() <= room);
  write_directory(dir_block, entries, &mtr);
  DBUG_EXECUTE_IF("blink_crash_in_refill", blink_finish::crash_now(););
  mtr.commit();
  DBUG_EXECUTE_IF("blink_crash_after_refill", blink_finish::crash_now(););

  /* RV1: no more than the target (the spares of splits in flight may
  come back on top of it), nor than the index's share of the directory. */
  ut_ad(fresh.size() <= want && have + fresh.size() <= target &&
        listed + fresh.size() <= may_list);
  /* RV5: the pages become takeable once their batch has committed. */
  std::lock_guard<std::mutex> guard(reserve_mutex);
  Space_reserve &reserve = reserves[space];
  reserve.directory = dir_block->page.id.page_no();
  reserve.committing.clear();
  Pool &pool = reserve.pools[segment];
  pool.target = target;
  pool.dry = pool.dry && fresh.empty();
  pool.pages.insert(pool.pages.end(), fresh.begin(), fresh.end());
  return fresh.size();
}

/** RV5: the refill itself, under index->lock in S and Refilling: batches
until the reserve is at its target, no more batches than that takes when
splits take no page meanwhile; a split's own refill, one batch of
REFILL_BATCH pages (RV2).
@return the pages it allocated */
ulint refill(const dict_index_t *index, const fseg_header_t *leaf_seg,
             bool by_split) {
  const space_id_t space = index->space;
  uint64_t segment;
  {
    mtr_t mtr;
    mtr.start();
    segment = segment_id(space, dict_table_page_size(index->table), leaf_seg,
                         &mtr);
    mtr.commit();
  }
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    reserves[space].allocating_for = segment;
  }
  DEBUG_SYNC_C("blink_reserve_refilling");
  page_no_t hint = 0;
  ulint allocated = 0;
  const ulint max_batches =
      by_split ? 1 : srv_btree_blink_reserve_pages / REFILL_BATCH + 1;
  for (ulint i = 0; i < max_batches; ++i) {
    const ulint n = refill_batch(index, leaf_seg, segment, by_split, &hint);
    if (n == 0) {
      break;
    }
    allocated += n;
    if (DBUG_EVALUATE_IF("blink_reserve_refill_one_batch", true, false)) {
      break;
    }
  }
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    reserve.allocating_for = 0;
    ++reserve.allocations_ended;
  }
  allocation_ended.notify_all();
  if (allocated > 0) {
    btr_blink_reserve_stats.refills.fetch_add(1, std::memory_order_relaxed);
    btr_blink_reserve_stats.pages_allocated.fetch_add(
        allocated, std::memory_order_relaxed);
  }
  return allocated;
}

/** RV3, RV4: after the table's trees are known again (update()), check a
batch of the pages listed for the index's segment before the startup
(check_listed()).  No latch may be held; the caller has set
Space_reserve::refilling.
@return whether none is left to check, the reserve on and the index a
tree: a refill may allocate, a trim free */
bool listed_checked(const dict_index_t *index) {
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  update(index->table, space, page_size);
  Tree tree;
  std::vector<Tree> trees;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    const Space_reserve &reserve = reserves[space];
    auto it = std::find_if(
        reserve.live_trees.begin(), reserve.live_trees.end(),
        [&](const Tree &t) { return t.index == index->id; });
    if (reserve.disabled || it == reserve.live_trees.end()) {
      /* Off, or the index has no tree (yet). */
      return false;
    }
    trees = reserve.live_trees;
    tree = *it;
  }
  return !check_listed(tree, trees, space, page_size);
}

/** RV10: the pool size above which deletions give pages back to the
segment: twice the target, so that neither a pool a refill has just filled
nor one that a burst of purge topped up and the next splits will empty is
trimmed; the setting stands for the target of a pool not refilled since
the startup. */
size_t trim_above(const Pool &pool) {
  const size_t target =
      pool.target > 0 ? pool.target : srv_btree_blink_reserve_pages;
  return 2 * std::max<size_t>(target, PAGES_PER_SPLIT);
}

/** RV10: whether a pool holds more than trim_above() takeable pages
(those the horizon has passed among its deleted leaves counted). */
bool trim_wanted(Pool &pool) {
  if (pool.pages.size() + pool.deleted.size() <= trim_above(pool)) {
    return false;
  }
  pool.ripen();
  return pool.pages.size() > trim_above(pool);
}

/** RV10: one mini-transaction of a trim: up to REFILL_BATCH of the pool's
pages above its target leave the directory and go back to the leaf
segment, under a refill's latches in a refill's order (RV5).
@param[in] leaf_seg  the root's PAGE_BTR_SEG_LEAF, copied: fseg_free_page()
                     reads the inode's address from it and writes nothing
@return the pages freed */
ulint trim_batch(const dict_index_t *index, fseg_header_t *leaf_seg,
                 uint64_t segment) {
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  /* A1: under index->lock in S, as a refill. */
  ut_ad(rw_lock_own(dict_index_get_lock(const_cast<dict_index_t *>(index)),
                    RW_LOCK_S));
  mtr_t mtr;
  mtr.start();
  const ulint target = reserve_target(
      index, leaf_seg,
      directory_share(index, directory_capacity(page_size)), &mtr);
  page_t *page0 =
      fsp_get_space_header(space, page_size, &mtr) - FSP_HEADER_OFFSET;
  page_no_t directory;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    directory = reserves[space].directory;
  }
  /* A directory that moved is the next refill's to report (RV4). */
  if (directory == FIL_NULL ||
      mach_read_from_4(directory_pointer(page0)) != directory) {
    mtr.commit();
    return 0;
  }
  buf_block_t *dir_block =
      latch_directory(space, page_size, directory, page0, &mtr);
  std::vector<page_no_t> freed;
  std::vector<Entry> entries;
  {
    /* Under the directory latch: no deletion lists a page (PD6) and no
    refill runs until this commit, and splits pop only what stays. */
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    Pool &pool = reserve.pools[segment];
    pool.ripen();
    pool.target = target;
    size_t n = std::min<size_t>(
        REFILL_BATCH, pool.pages.size() - std::min(pool.pages.size(), target));
    /* RV1: deletions that raced past their margin may have listed more
    than the directory holds (btr_blink_reserve_list_deleted() keeps them
    in memory); nothing is written until splits have taken enough. */
    if (reserve.entries().size() - n > directory_capacity(page_size)) {
      n = 0;
    }
    /* The oldest: splits take the newest (pop_locked()), likelier to be in
    the buffer pool. */
    freed.assign(pool.pages.begin(), pool.pages.begin() + n);
    pool.pages.erase(pool.pages.begin(), pool.pages.begin() + n);
    entries = reserve.entries();
  }
  /* RV10: what is freed leaves the directory in the same commit. */
  ut_ad(std::none_of(entries.begin(), entries.end(), [&](const Entry &e) {
    return std::find(freed.begin(), freed.end(), e.page_no) != freed.end();
  }));
  if (freed.empty()) {
    mtr.commit();
    return 0;
  }
  for (const page_no_t page_no : freed) {
    /* RV10: a pool holds only unused pages (marked, or deleted leaves). */
    ut_ad(still_reserved(space, page_no, page_size, index->id));
    /* No adaptive hash index entry: a marked page never had records, and a
    deleted leaf's entries went with its deletion (PD2). */
    fseg_free_page(leaf_seg, space, page_no, false, &mtr);
  }
  write_directory(dir_block, entries, &mtr);
  DBUG_EXECUTE_IF("blink_crash_in_trim", blink_finish::crash_now(););
  mtr.commit();
  DBUG_EXECUTE_IF("blink_crash_after_trim", blink_finish::crash_now(););
  btr_blink_reserve_stats.pages_freed.fetch_add(freed.size(),
                                                std::memory_order_relaxed);
  return freed.size();
}

/** RV2: a leaf split whose pool is short waits for a refill that is
allocating its segment's pages, or refills the pool itself (one batch) if
no refill runs, then takes its pages.  It holds the leaf, its right
sibling and S (LO1), but no tablespace page yet (LO3).  A refill that
allocates waits for no page of a level (RV5); one that reads listed pages
(RV3) may wait for the split's, so the split does not wait for that.
@return whether it took its pages */
bool take_after_refill(const dict_index_t *index) {
  const space_id_t space = index->space;
  const fseg_header_t *leaf_seg = btr_blink_leaf_segment(index);
  if (leaf_seg == nullptr) {
    return false;
  }
  const std::vector<space_index_t> ids = blink_indexes(index->table);
  std::unique_lock<std::mutex> guard(reserve_mutex);
  for (bool waited = false;; waited = true) {
    auto reserve = reserves.find(space);
    if (reserve == reserves.end()) {
      return false;
    }
    Space_reserve &r = reserve->second;
    auto segment = r.segment_of.find(index->id);
    /* RV3, RV4: what only btr_blink_reserve_refill() does (it reads pages
    with no latch held) is left to it. */
    if (r.disabled || !r.loaded || segment == r.segment_of.end() ||
        !same_indexes(r.live_trees, ids) || r.has_unchecked(segment->second)) {
      return false;
    }
    auto pool = r.pools.find(segment->second);
    if (pool != r.pools.end() && pool->second.dry) {
      return false;
    }
    if (pop_locked(r, space, segment->second)) {
      return true;
    }
    if (!r.refilling) {
      r.refilling = true;
      break;
    }
    if (waited || r.allocating_for != segment->second) {
      return false;
    }
    btr_blink_reserve_stats.split_waits.fetch_add(1,
                                                  std::memory_order_relaxed);
    const uint64_t ended = r.allocations_ended;
    allocation_ended.wait(guard, [&] {
      auto it = reserves.find(space);
      return it == reserves.end() || it->second.allocations_ended != ended;
    });
  }
  guard.unlock();
  btr_blink_reserve_stats.split_refills.fetch_add(1,
                                                  std::memory_order_relaxed);
  ulint allocated;
  {
    const Refilling refilling(space);
    allocated = refill(index, leaf_seg, true);
  }
  guard.lock();
  auto reserve = reserves.find(space);
  if (reserve == reserves.end()) {
    return false;
  }
  auto segment = reserve->second.segment_of.find(index->id);
  if (segment == reserve->second.segment_of.end()) {
    return false;
  }
  const bool taken = pop_locked(reserve->second, space, segment->second);
  if (!taken && allocated == 0) {
    reserve->second.pools[segment->second].dry = true;
  }
  return taken;
}

}  // namespace

bool btr_blink_reserve_loaded(const dict_index_t *index) {
  std::lock_guard<std::mutex> guard(reserve_mutex);
  auto reserve = reserves.find(index->space);
  return reserve != reserves.end() && reserve->second.loaded;
}

bool btr_blink_reserve_room_for_delete(const dict_index_t *index) {
  const ulint capacity =
      directory_capacity(dict_table_page_size(index->table));
  const ulint share = directory_share(index, capacity);
  std::lock_guard<std::mutex> guard(reserve_mutex);
  auto reserve = reserves.find(index->space);
  /* The directory on disk is known only once the first refill read it
  (RV3); before that a write would drop what it lists. */
  if (reserve == reserves.end() || !reserve->second.loaded ||
      reserve->second.disabled || reserve->second.directory == FIL_NULL) {
    return false;
  }
  Space_reserve &r = reserve->second;
  auto segment = r.segment_of.find(index->id);
  if (segment == r.segment_of.end()) {
    return false;
  }
  const Pool &pool = r.pools[segment->second];
  const ulint listed =
      pool.pages.size() + pool.deleted.size() +
      std::count_if(r.in_flight.begin(), r.in_flight.end(),
                    [&](const auto &f) { return f.second == segment->second; });
  return r.entries().size() + delete_margin(capacity) < capacity &&
         listed < std::max<ulint>(share, pool.target);
}

void btr_blink_reserve_list_deleted(const dict_index_t *index,
                                    page_no_t page_no, uint64_t stamp,
                                    mtr_t *mtr) {
  const page_size_t page_size = dict_table_page_size(index->table);
  page_no_t directory;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    directory = reserves[index->space].directory;
  }
  /* PD2: the last latch of the deletion, taken in the delete itself, not
  in its search: purge and rollback look up the clustered index between
  the two, and a refill or another deletion of the tablespace waits for
  the directory with pages of that index latched. */
  buf_block_t *block =
      directory == FIL_NULL
          ? nullptr
          : buf_page_get(page_id_t(index->space, directory), page_size,
                         RW_X_LATCH, UT_LOCATION_HERE, mtr);
  std::vector<Entry> entries;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[index->space];
    /* A listing from before the restart names a page that was in a level
    since (RV3 would drop it): one entry per page. */
    reserve.unchecked.erase(
        std::remove_if(reserve.unchecked.begin(), reserve.unchecked.end(),
                       [&](const Entry &e) { return e.page_no == page_no; }),
        reserve.unchecked.end());
    reserve.pools[reserve.segment_of[index->id]].deleted.emplace_back(page_no,
                                                                      stamp);
    entries = reserve.entries();
  }
  if (block != nullptr && has_magic(buf_block_get_frame(block), DIRECTORY_MAGIC) &&
      entries.size() <= directory_capacity(page_size)) {
    write_directory(block, entries, mtr);
    return;
  }
  /* More deletions raced than delete_margin() allows for, or the reserve was
  turned off (RV4) since the search: the page is reused from memory, and a
  crash before a later directory write would leave it unlisted (A1). */
  ib::warn() << "B-link: the reserve directory of tablespace " << index->space
             << " could not list deleted page " << page_no << " of index "
             << index->name() << " of table " << index->table->name;
}

bool btr_blink_reserve_owns_page(const byte *page) {
  return has_magic(page, DIRECTORY_MAGIC) || has_magic(page, RESERVE_MAGIC);
}

bool btr_blink_reserve_take(const btr_cur_t *cursor, ulint flags) {
  const dict_index_t *index = cursor->index;
  if (!index->blink || !btr_blink_split_leveled(index) ||
      !page_is_leaf(buf_block_get_frame(cursor->page_cur.block))) {
    return false;
  }
  /* The leaf split of a pessimistic update asked at the update's
  reservation, before any tablespace latch. */
  if (t_taken.for_update) {
    return false;
  }
  ut_ad(t_taken.unused.empty() && t_taken.used.empty());
  /* What btr_cur_pessimistic_insert() does when no page is taken. */
  const bool insert_reserves =
      !(flags & BTR_NO_UNDO_LOG_FLAG) || index->table->is_intrinsic();
  t_taken.extents_reserved = insert_reserves;
  if (srv_btree_blink_reserve_pages == 0) {
    return false;
  }
  t_taken.index = index;
  bool taken = false;
  if (!DBUG_EVALUATE_IF("blink_reserve_empty", true, false)) {
    {
      std::lock_guard<std::mutex> guard(reserve_mutex);
      taken = pop_for_locked(index);
    }
    taken = taken || take_after_refill(index);
  }
  if (taken) {
    /* Under the leaf's latch, its two pages in flight (RV6). */
    DEBUG_SYNC_C("blink_reserve_taken");
  } else {
    btr_blink_reserve_stats.empty.fetch_add(1, std::memory_order_relaxed);
  }
  t_taken.extents_reserved = !taken && insert_reserves;
  return taken;
}

bool btr_blink_reserve_take_for_update(const btr_cur_t *cursor) {
  ut_ad(btr_blink_leveled_update(cursor->index));
  /* As a row insert's leaf split asks (flags 0: it reserves extents). */
  const bool taken = btr_blink_reserve_take(cursor, 0);
  t_taken.for_update = true;
  return taken;
}

bool btr_blink_reserve_extents_reserved() { return t_taken.extents_reserved; }

namespace {

/** RV2, RV9: latch a page this thread took from the reserve and format it
as an allocation does (fsp_init_file_page()): its mark goes in the
mini-transaction that uses it (RV7).  A split's page that still carries
the mark is as its refill's allocation initialized it (RV7: untouched
since), and btr_page_create() rewrites what the mark changed (the page type,
and the magic in the page header, which page_create() clears) and zeroes
the body again: it is not zeroed twice.  The allocation's redo record is
written all the same, so that recovery can rebuild the page from the log
alone (a torn first write without the doublewrite buffer).
@param[in] index_page  the caller creates an index page on it
@return the page, X-latched in mtr */
buf_block_t *format_taken(const dict_index_t *index, page_no_t page_no,
                          latch_level_t level, bool index_page, mtr_t *mtr) {
  /* RV2: no one else latches a reserve page (it is in no level, and only
  this thread took it), so waiting for it is safe under LO2 and LO3. */
  buf_block_t *block =
      buf_page_get(page_id_t(index->space, page_no),
                   dict_table_page_size(index->table), RW_X_LATCH,
                   UT_LOCATION_HERE, mtr);
  /* RV7: a reserve page is untouched until it is used; PD6: a deleted leaf
  keeps its flag until then. */
  ut_a(unused(buf_block_get_frame(block), index->id));
  buf_block_dbg_add_level(block, level);
  static_assert(MAGIC_OFFSET == PAGE_HEADER,
                "page_create() clears the reserve's mark");
  if (index_page && has_magic(buf_block_get_frame(block), RESERVE_MAGIC)) {
    /* What fsp_init_file_page_low() does besides zeroing. */
    memset(buf_block_get_frame(block) + FIL_PAGE_LSN, 0, 8);
  } else {
    fsp_init_file_page_low(block);
  }
  mlog_write_initial_log_record(buf_block_get_frame(block),
                                MLOG_INIT_FILE_PAGE2, mtr);
  return block;
}

/** RV9: the pages this thread formatted for values leave the in-flight
set, once their mini-transactions have committed.
@return the index whose values asked for pages, or nullptr */
const dict_index_t *values_committed() {
  const dict_index_t *index = std::exchange(t_values.index, nullptr);
  if (index == nullptr) {
    return nullptr;
  }
  ut_ad(t_values.mtr == nullptr || !t_values.mtr->is_active());
  ut_d(t_values.mtr = nullptr);
  if (!t_values.pages.empty()) {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    auto reserve = reserves.find(t_values.space);
    if (reserve != reserves.end()) {
      for (const page_no_t page_no : t_values.pages) {
        reserve->second.in_flight.erase(page_no);
      }
    }
  }
  t_values.pages.clear();
  return index;
}

}  // namespace

buf_block_t *btr_blink_reserve_use(const dict_index_t *index, mtr_t *mtr) {
  if (t_taken.unused.empty()) {
    return nullptr;
  }
  ut_ad(t_taken.space == index->space);
  /* RV2: a split with a page of the reserve latches no tablespace page. */
  ut_ad(!mtr_memo_contains(mtr, fil_space_get_latch(index->space),
                           MTR_MEMO_X_LOCK));
  ut_d(t_taken.mtr = mtr);
  const page_no_t page_no = t_taken.unused.back();
  t_taken.unused.pop_back();
  t_taken.used.push_back(page_no);
  btr_blink_reserve_stats.pages_taken.fetch_add(1, std::memory_order_relaxed);
  buf_block_t *block =
      format_taken(index, page_no, SYNC_TREE_NODE_NEW, true, mtr);
  /* The split's mini-transaction, which formats the page, is lost: the
  page stays listed and unused (RV3). */
  DBUG_EXECUTE_IF("blink_crash_reserve_taken", blink_finish::crash_now(););
  return block;
}

buf_block_t *btr_blink_reserve_take_for_value(const dict_index_t *index,
                                              mtr_t *mtr) {
  if (!btr_blink_writes_external(index) || srv_btree_blink_reserve_pages == 0 ||
      (t_values.index != nullptr && t_values.index != index)) {
    return nullptr;
  }
  /* RV5: the write refills the pool after its commit, taken or not. */
  t_values.index = index;
  t_values.space = index->space;
  page_no_t page_no;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    page_no = pop_value_locked(index);
  }
  if (page_no == FIL_NULL) {
    btr_blink_reserve_stats.value_empty.fetch_add(1,
                                                  std::memory_order_relaxed);
    return nullptr;
  }
  t_values.pages.push_back(page_no);
  ut_d(t_values.mtr = mtr);
  btr_blink_reserve_stats.value_pages.fetch_add(1, std::memory_order_relaxed);
  buf_block_t *block =
      format_taken(index, page_no, SYNC_EXTERN_STORAGE, false, mtr);
  /* The value's mini-transaction is lost: the page stays listed and
  unused (RV3). */
  DBUG_EXECUTE_IF("blink_crash_value_page_taken",
                  blink_finish::crash_now(););
  return block;
}

const dict_index_t *btr_blink_reserve_after_commit() {
  const dict_index_t *values_index = values_committed();
  const dict_index_t *index =
      t_taken.index != nullptr ? t_taken.index : values_index;
  t_taken.index = nullptr;
  t_taken.extents_reserved = false;
  t_taken.for_update = false;
  if (t_taken.unused.empty() && t_taken.used.empty()) {
    return index;
  }
  /* RV6: the split has committed; the directory on disk still lists its
  page, formatted now. */
  ut_ad(t_taken.mtr == nullptr || !t_taken.mtr->is_active());
  ut_d(t_taken.mtr = nullptr);
  DBUG_EXECUTE_IF("blink_crash_after_reserved_split",
                  if (!t_taken.used.empty()) blink_finish::crash_now(););
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[t_taken.space];
    for (const page_no_t page_no : t_taken.used) {
      reserve.in_flight.erase(page_no);
    }
    for (const page_no_t page_no : t_taken.unused) {
      reserve.in_flight.erase(page_no);
      if (!reserve.disabled) {
        reserve.pools[t_taken.segment].pages.push_back(page_no);
      }
    }
  }
  t_taken.unused.clear();
  t_taken.used.clear();
  return index;
}

void btr_blink_reserve_refill(const dict_index_t *index,
                              const fseg_header_t *leaf_seg) {
  if (srv_btree_blink_reserve_pages == 0 || !index->blink) {
    return;
  }
  const space_id_t space = index->space;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    Space_reserve &reserve = reserves[space];
    auto segment = reserve.segment_of.find(index->id);
    if (reserve.refilling || reserve.disabled ||
        (segment != reserve.segment_of.end() &&
         full_enough(reserve.pools[segment->second]))) {
      return;
    }
    reserve.refilling = true;
  }
  const Refilling refilling(space);
  /* RV3: the pages listed before a restart first; no allocation while
  some of them may still be unused. */
  if (!listed_checked(index)) {
    return;
  }
  /* A1: the validator, under X, counts the leaf segment's pages against the
  directory; a refill between the two would be taken for a leak.  No latch
  is held here (LO1), but an exclusive path waiting for X goes first. */
  rw_lock_t *lock = dict_index_get_lock(const_cast<dict_index_t *>(index));
  /* LO1: taken once per thread. */
  ut_ad(!rw_lock_own_flagged(
      lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  if (!rw_lock_s_lock_nowait(lock, UT_LOCATION_HERE)) {
    return;
  }
  refill(index, leaf_seg, false);
  rw_lock_s_unlock(lock);
}

void btr_blink_reserve_trim(const dict_index_t *index) {
  const space_id_t space = index->space;
  uint64_t segment;
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    auto reserve = reserves.find(space);
    if (reserve == reserves.end() || !reserve->second.loaded ||
        reserve->second.disabled || reserve->second.refilling) {
      return;
    }
    auto seg = reserve->second.segment_of.find(index->id);
    if (seg == reserve->second.segment_of.end()) {
      return;
    }
    Pool &pool = reserve->second.pools[seg->second];
    /* RV3: pages listed before the startup are checked here too: in a
    table that only shrinks no refill would. */
    if (!reserve->second.has_unchecked(seg->second) && !trim_wanted(pool)) {
      return;
    }
    /* RV5: one refill or trim per tablespace at a time. */
    reserve->second.refilling = true;
    segment = seg->second;
  }
  const Refilling refilling(space);
  if (!listed_checked(index)) {
    return;
  }
  {
    std::lock_guard<std::mutex> guard(reserve_mutex);
    if (!trim_wanted(reserves[space].pools[segment])) {
      return;
    }
  }
  /* The segment header from the root, with no other latch held (LO4: the
  tablespace's pages are latched after it, in the batches). */
  fseg_header_t leaf_seg[FSEG_HEADER_SIZE];
  {
    mtr_t mtr;
    mtr.start();
    const page_t *root =
        buf_block_get_frame(btr_root_block_get(index, RW_S_LATCH, &mtr));
    memcpy(leaf_seg, root + PAGE_HEADER + PAGE_BTR_SEG_LEAF, sizeof leaf_seg);
    mtr.commit();
  }
  rw_lock_t *lock = dict_index_get_lock(const_cast<dict_index_t *>(index));
  /* LO1: taken once per thread; an exclusive path waiting goes first. */
  ut_ad(!rw_lock_own_flagged(
      lock, RW_LOCK_FLAG_S | RW_LOCK_FLAG_SX | RW_LOCK_FLAG_X));
  if (!rw_lock_s_lock_nowait(lock, UT_LOCATION_HERE)) {
    return;
  }
  /* One batch: each deletion gives back up to REFILL_BATCH pages and lists
  at most one, so the pool comes down within a few deletions, and no
  deletion writes more redo than a refill's batch. */
  trim_batch(index, leaf_seg, segment);
  rw_lock_s_unlock(lock);
}

void btr_blink_reserve_forget(space_id_t space_id) {
  std::lock_guard<std::mutex> guard(reserve_mutex);
  if (reserves.erase(space_id) > 0) {
    btr_blink_reserve_stats.spaces_forgotten.fetch_add(
        1, std::memory_order_relaxed);
  }
}

ulint btr_blink_reserve_count(const dict_index_t *index) {
  const space_id_t space = index->space;
  const page_size_t page_size = dict_table_page_size(index->table);
  uint64_t segment;
  byte header[FSEG_HEADER_SIZE];
  {
    mtr_t mtr;
    mtr.start();
    const page_t *root = btr_root_get(index, &mtr);
    memcpy(header, root + PAGE_HEADER + PAGE_BTR_SEG_LEAF, sizeof header);
    mtr.commit();
    mtr.start();
    segment = segment_id(space, page_size, header, &mtr);
    mtr.commit();
  }
  page_no_t named;
  page_no_t directory;
  ulint n = 0;
  for (const Entry &e : read_directory(space, page_size, &named, &directory)) {
    if (e.segment == segment &&
        still_reserved(space, e.page_no, page_size, index->id)) {
      mtr_t mtr;
      mtr.start();
      n += segment_owns(space, header, e.page_no, &mtr);
      mtr.commit();
    }
  }
  return n;
}
