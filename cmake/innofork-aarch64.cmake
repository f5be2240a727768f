# CMake toolchain file: cross-build for aarch64 (arm64) on an x86-64 Debian
# host, with Debian's cross compilers (crossbuild-essential-arm64) and the
# multiarch :arm64 libraries installed beside the host's
# (scripts/test-arm.sh).  Used by `scripts/build.sh arm64` (`make test-arm`).
#
# Programs the build runs (gen_lex_hash, comp_sql, uca9dump, ...) and
# try_run() checks are aarch64 binaries: CMake runs them through the
# emulator below.  comp_err is the exception: MySQL does not build it when
# cross-compiling and calls it by name, so scripts/build.sh puts the host's
# comp_err (built from the same source) on PATH.  Its outputs (errmsg.sys,
# mysqld_error.h) are the same on both machines: both are little-endian and
# comp_err writes with int2store/int4store.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# qemu-user needs no -L: libc6:arm64 puts the aarch64 loader at
# /lib/ld-linux-aarch64.so.1 and the libraries in /usr/lib/aarch64-linux-gnu.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)

# Debian multiarch: the :arm64 libraries and their arch-specific headers
# are in /usr/lib/aarch64-linux-gnu and /usr/include/aarch64-linux-gnu,
# which CMake searches for CMAKE_LIBRARY_ARCHITECTURE (and the cross
# compiler searches by itself); programs (bison, protoc, rpcgen, perl) are
# the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)

# storage/innobase/innodb.cmake skips its CHECK_C_SOURCE_RUNS probes when
# cross-compiling, which would build InnoDB without futexes and without the
# fence builtins.  A native aarch64 Debian build finds all three (glibc and
# GCC provide them on every Linux architecture), so the cross-build says so.
set(HAVE_IB_GCC_SYNC_SYNCHRONISE 1 CACHE INTERNAL "")
set(HAVE_IB_GCC_ATOMIC_THREAD_FENCE 1 CACHE INTERNAL "")
set(HAVE_IB_LINUX_FUTEX 1 CACHE INTERNAL "")
