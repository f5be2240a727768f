#!/usr/bin/env bash
# Fetch and verify the pinned upstream source: MySQL 9.7.2 from Debian's
# mysql-9.7 source package 9.7.2-4 (experimental).  Prints the path of the
# verified orig tarball, or of an unpacked tree given by MYSQL_SOURCE_DIR.
#
#   MYSQL_TARBALL=/path/mysql-9.7.2.tar.gz   use a local tarball instead
#   MYSQL_SOURCE_DIR=/path/mysql-9.7.2       use an already unpacked tree
#   MYSQL_SKIP_SHA256=1                      accept a local tarball whose
#                                            checksum differs (e.g. the one
#                                            from dev.mysql.com)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

verify() {  # file -> dies unless size and sha256 match the pin
  local f=$1 size sum
  [ -f "$f" ] || die "source tarball $f does not exist"
  size=$(stat -c %s "$f")
  sum=$(sha256sum "$f" | cut -d' ' -f1)
  if [ "$sum" != "$ORIG_SHA256" ] || [ "$size" != "$ORIG_SIZE" ]; then
    if [ "${MYSQL_SKIP_SHA256:-0}" = 1 ] && [ -n "${MYSQL_TARBALL:-}" ]; then
      info "WARNING: $f is not the pinned tarball (sha256 $sum); using it because MYSQL_SKIP_SHA256=1"
      return
    fi
    local what="Delete it and run again to download it anew."
    [ -n "${MYSQL_TARBALL:-}" ] && what="Check MYSQL_TARBALL (MYSQL_SKIP_SHA256=1 accepts another MySQL $MYSQL_VERSION tarball)."
    die "checksum mismatch for $f
  expected sha256 $ORIG_SHA256, $ORIG_SIZE bytes
  got      sha256 $sum, $size bytes
  $what"
  fi
}

if [ -n "${MYSQL_SOURCE_DIR:-}" ]; then
  [ -f "$MYSQL_SOURCE_DIR/MYSQL_VERSION" ] && [ -d "$MYSQL_SOURCE_DIR/storage/innobase" ] \
    || die "MYSQL_SOURCE_DIR=$MYSQL_SOURCE_DIR is not a MySQL source tree (no MYSQL_VERSION or storage/innobase)"
  v=$(awk -F= '/^MYSQL_VERSION_(MAJOR|MINOR|PATCH)/{printf "%s%s", sep, $2; sep="."}' "$MYSQL_SOURCE_DIR/MYSQL_VERSION")
  [ "$v" = "$MYSQL_VERSION" ] || die "MYSQL_SOURCE_DIR holds MySQL $v, the fork is pinned to $MYSQL_VERSION"
  echo "$MYSQL_SOURCE_DIR"
  exit 0
fi

if [ -n "${MYSQL_TARBALL:-}" ]; then
  verify "$MYSQL_TARBALL"
  echo "$MYSQL_TARBALL"
  exit 0
fi

dl=$FORK_CACHE_DIR/downloads
tarball=$dl/$ORIG_TARBALL
if [ -f "$tarball" ]; then
  verify "$tarball"; echo "$tarball"; exit 0
fi

mkdir -p "$dl"
command -v apt-get >/dev/null || die "apt-get not found: download MySQL $MYSQL_VERSION yourself and set MYSQL_TARBALL"
[ -f /etc/apt/sources.list.d/innofork-mysql-src.sources ] \
  || die "no deb-src entry for $DEB_SRC_PKG: run scripts/deps.sh first (make deps)"
info "downloading Debian source package $DEB_SRC_PKG=$DEB_SRC_VERSION into $dl"
( cd "$dl" && apt-get source --download-only "$DEB_SRC_PKG=$DEB_SRC_VERSION" >&2 ) \
  || die "apt-get source $DEB_SRC_PKG=$DEB_SRC_VERSION failed.
  Check the network and the deb-src entry (make deps), or download MySQL $MYSQL_VERSION
  yourself and set MYSQL_TARBALL=/path/to/tarball (see README)."
verify "$tarball"
echo "$tarball"
