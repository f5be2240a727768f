# Initial CMake cache for every preset (release, debug, stock): the trimmed
# option set.  Loaded with `cmake -C`; scripts/build.sh adds the build type,
# debug switch and server suffix per preset.  Keep stock and fork identical
# here: the benchmarks compare them.
set(WITH_NDB OFF CACHE BOOL "")
set(WITH_NDBCLUSTER_STORAGE_ENGINE OFF CACHE BOOL "")
set(WITHOUT_NDBCLUSTER_STORAGE_ENGINE ON CACHE BOOL "")
set(WITH_ROUTER OFF CACHE BOOL "")
set(WITH_MYSQLX OFF CACHE BOOL "")
set(WITHOUT_GROUP_REPLICATION ON CACHE BOOL "")
set(WITH_UNIT_TESTS OFF CACHE BOOL "")
set(WITH_AUTHENTICATION_LDAP OFF CACHE BOOL "")
set(WITH_AUTHENTICATION_KERBEROS OFF CACHE BOOL "")
set(WITH_FIDO none CACHE STRING "")
set(WITH_CURL 0 CACHE STRING "")
include(${CMAKE_CURRENT_LIST_DIR}/innofork-system-libs.cmake)

# Precompiled headers for the heaviest server targets (build time only).
set(INNOFORK_PCH ON CACHE BOOL "Precompiled headers for sql, innobase, perfschema")
set(CMAKE_PROJECT_INCLUDE ${CMAKE_CURRENT_LIST_DIR}/innofork-pch.cmake CACHE FILEPATH "")
