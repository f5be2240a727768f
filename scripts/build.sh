#!/usr/bin/env bash
# Build a preset: release (RelWithDebInfo fork), debug (Debug fork, what the
# tests use), stock (pristine MySQL, release options, no patches) or arm64
# (the debug fork cross-built for aarch64: `make test-arm`).
#
#   scripts/build.sh PRESET [--prepare-only] [ninja targets...]
#
#   FULL=1       build upstream's full plugin set instead of the trimmed one
#   DISCARD=1    let prepare overwrite edits made in the prepared tree
#   JOBS=N       ninja parallelism (default: cores + 1)
#   TARGETS="t…" ninja targets (e.g. all: every plugin and component too)
#   DEBUG_INFO=  debug info flags of the debug preset (default -g1)
#   DEBUG_CC=gcc build the debug preset with GCC and ld.bfd instead of
#                clang-19 and lld (docs/build.md)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

preset=${1:-}; shift || true
[ -n "$preset" ] || die "usage: scripts/build.sh release|debug|stock|arm64 [--prepare-only] [targets...]"
check_preset "$preset"
prepare_only=0
if [ "${1:-}" = --prepare-only ]; then prepare_only=1; shift; fi

unpack() {  # tarball-or-dir dest
  local from=$1 dest=$2 tmp
  [ -e "$dest/MYSQL_VERSION" ] && return
  rm -rf "$dest" "$dest.tmp"; mkdir -p "$dest.tmp"
  if [ -d "$from" ]; then
    info "copying $from to $dest"
    cp -a "$from/." "$dest.tmp/"
  else
    info "unpacking $(basename "$from") to $dest"
    tar xzf "$from" -C "$dest.tmp"
    tmp=$(find "$dest.tmp" -mindepth 1 -maxdepth 1 -type d)
    [ "$(echo "$tmp" | wc -l)" = 1 ] && [ -f "$tmp/MYSQL_VERSION" ] \
      || die "$from did not unpack to one MySQL source directory"
    mv "$tmp" "$dest"; rmdir "$dest.tmp"
    return
  fi
  mv "$dest.tmp" "$dest"
}

pristine=$(preset_src stock)
if [ ! -e "$pristine/MYSQL_VERSION" ] || [ ! -e "$(preset_src release)/MYSQL_VERSION" ]; then
  source=$("$FORK_ROOT/scripts/fetch-source.sh")
  unpack "$source" "$pristine"
  [ "$preset" = stock ] || unpack "$source" "$(preset_src release)"
fi
src=$(preset_src "$preset")
if [ "$preset" != stock ]; then
  python3 "$FORK_ROOT/scripts/tree.py" prepare "$pristine" "$src" ${DISCARD:+--discard}
fi
[ $prepare_only = 1 ] && exit 0

obj=$(preset_obj "$preset")
[ "${FULL:-0}" = 1 ] && obj=$obj-full
mkdir -p "$obj"

# ccache: relative paths (base_dir) so another clone of the repository, e.g.
# CI's, hits the same cache entries; and a cache large enough for all presets.
export CCACHE_BASEDIR=$FORK_BUILD_DIR CCACHE_NOHASHDIR=true
# Precompiled headers (cmake/innofork-pch.cmake) are cacheable only with these.
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-30G}
# Depend mode: a miss runs the compiler alone, without the preprocessor run
# that ccache's default mode makes to hash the input (36 sampled objects of
# the debug build: 101 s on an empty cache by default, 66 s in depend mode,
# 75 s without ccache; hits alike).
export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
ccache --max-size="$CCACHE_MAXSIZE" >/dev/null   # also for ccache runs without this environment

# The debug preset keeps line tables only (-g1): a cold `make test` must fit
# CI's time (docs/build.md).  DEBUG_INFO=-g for full debug info.
# It is compiled with clang-19 and linked with lld: clang's precompiled
# headers instantiate their templates once (-fpch-instantiate-templates), and
# a sample of 36 of the debug build's objects compiled in 36 s against GCC's
# 146 s.  Release and stock stay with Debian's GCC, the compiler the
# benchmarks compare them with.
dbg=${DEBUG_INFO:--g1}
debug_cc=()
[ "${DEBUG_CC:-clang}" = gcc ] || debug_cc=(-DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DWITH_LD=lld)
case $preset in
  release) type=RelWithDebInfo; extra=(-DMYSQL_SERVER_SUFFIX=-$FORK_NAME);;
  debug)   type=Debug;          extra=(-DWITH_DEBUG=ON -DMYSQL_SERVER_SUFFIX=-$FORK_NAME
                                       "-DCMAKE_C_FLAGS_DEBUG=$dbg" "-DCMAKE_CXX_FLAGS_DEBUG=$dbg"
                                       "${debug_cc[@]}");;
  stock)   type=RelWithDebInfo; extra=();;
  arm64)   type=Debug;          extra=(-DWITH_DEBUG=ON -DMYSQL_SERVER_SUFFIX=-$FORK_NAME
                                       "-DCMAKE_C_FLAGS_DEBUG=$dbg" "-DCMAKE_CXX_FLAGS_DEBUG=$dbg"
                                       "-DCMAKE_TOOLCHAIN_FILE=$FORK_ROOT/cmake/innofork-aarch64.cmake")
           # MySQL does not build comp_err when cross-compiling and runs it
           # by name (cmake/innofork-aarch64.cmake): the host's, on PATH.
           host_tools=$FORK_BUILD_DIR/fork/arm64-host-tools
           host_comp_err=$(preset_obj debug)/runtime_output_directory/comp_err
           [ -x "$host_comp_err" ] || FULL=0 "$0" debug comp_err
           mkdir -p "$host_tools" && ln -sf "$host_comp_err" "$host_tools/comp_err"
           export PATH=$host_tools:$PATH;;
esac
if [ "${FULL:-0}" = 1 ]; then
  opts=(-C "$FORK_ROOT/cmake/innofork-system-libs.cmake")
else
  opts=(-C "$FORK_ROOT/cmake/innofork-options.cmake")
fi
cache_files=("${opts[1]}" "$FORK_ROOT/cmake/innofork-system-libs.cmake")
[ "$preset" = arm64 ] && cache_files+=("$FORK_ROOT/cmake/innofork-aarch64.cmake")
args="${opts[*]} -DCMAKE_BUILD_TYPE=$type ${extra[*]} $(cat "${cache_files[@]}" | sha1sum)"
if [ ! -f "$obj/build.ninja" ] || [ "$(cat "$obj/innofork-cmake-args" 2>/dev/null)" != "$args" ]; then
  info "configuring $preset in $obj"
  rm -f "$obj/CMakeCache.txt"   # another compiler cannot reuse the cache
  (cd "$obj" && cmake -G Ninja "${opts[@]}" -DCMAKE_BUILD_TYPE=$type "${extra[@]}" ../src \
     > cmake.log 2>&1) || { tail -30 "$obj/cmake.log"; rm -f "$obj/build.ninja"; die "cmake failed for $preset: see $obj/cmake.log"; }
  echo "$args" > "$obj/innofork-cmake-args"
fi

# Default targets.  debug: what mysql-test-run needs to start (mysqld and the
# client and test tools it checks for); tests that need a plugin or
# component are skipped unless TARGETS=all.  release/stock: the server and
# the clients a user needs.
if [ $# -eq 0 ]; then
  if [ -n "${TARGETS:-}" ]; then
    set -- $TARGETS
  else
    case $preset in
      debug|arm64) set -- mysqld mysqltest mysql mysqladmin mysqldump mysqlbinlog mysqlcheck \
                    mysqlimport mysqlshow mysqlslap mysql_config_editor mysql_migrate_keyring \
                    mysql_keyring_encryption_test my_print_defaults innochecksum ibd2sdi \
                    myisamchk myisampack perror mysql_tzinfo_to_sql mysqltest_safe_process \
                    component_reference_cache;;
      *)     set -- mysqld mysql mysqladmin mysqldump mysqlcheck mysqlslap;;
    esac
  fi
fi
info "building $preset: ninja $*  (log: $obj/ninja.log)"
start=$(date +%s)
if ! ninja -C "$obj" -j "${JOBS:-$(( $(nproc) + 1 ))}" "$@" > "$obj/ninja.log" 2>&1; then
  grep -E -B2 -A12 'FAILED:|error:' "$obj/ninja.log" | head -60 >&2
  die "build of $preset failed: see $obj/ninja.log"
fi
info "built $preset in $(( $(date +%s) - start )) s"
