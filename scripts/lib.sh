# Shared helpers for the fork's scripts.  Sourced, not run.
# shellcheck shell=bash
FORK_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FORK_NAME=innofork

# The upstream pin.  Change these three together.
MYSQL_VERSION=9.7.2
DEB_SRC_PKG=mysql-9.7
DEB_SRC_VERSION=9.7.2-4
ORIG_TARBALL=mysql-9.7_9.7.2.orig.tar.gz
ORIG_SHA256=e5a676c7cb73738dc6ea33db2093806ebd512b629a139b897fcab68fcd81aaa4
ORIG_SIZE=429211578

# Where things go.  All overridable from the environment (see README).
FORK_BUILD_DIR=${FORK_BUILD_DIR:-$FORK_ROOT/build}
FORK_CACHE_DIR=${FORK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/innofork}

info() { printf '[%s] %s\n' "$FORK_NAME" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "$FORK_NAME" "$*" >&2; exit 1; }

# Source tree and build directory of a preset.  The layout keeps the path from
# a build directory to its source tree identical for all presets (../src), so
# ccache (with base_dir) shares the objects the fork and stock have in common.
preset_src()   { case $1 in stock) echo "$FORK_BUILD_DIR/stock/src";; *) echo "$FORK_BUILD_DIR/fork/src";; esac; }
preset_obj()   { case $1 in stock) echo "$FORK_BUILD_DIR/stock/release";; *) echo "$FORK_BUILD_DIR/fork/$1";; esac; }
check_preset() {
  case $1 in release|debug|stock) ;;
  *) die "unknown preset '$1': use release, debug or stock";;
  esac
}
