# Copyright (c) 2026, the innofork authors.
#
# This program is free software; you can redistribute it and/or modify it
# under the terms of the GNU General Public License, version 2.0, as
# published by the Free Software Foundation.
#
# This program is distributed in the hope that it will be useful, but
# WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General
# Public License, version 2.0, for more details.

# Precompiled headers for the server's heaviest targets: build economy only.
#
# Most of a server translation unit's compile time at -O0 is parsing the
# same headers again (sql/sql_do.cc: 7.0 s of its 7.7 s is -fsyntax-only).
# One precompiled header per target, made of headers that most of its files
# include anyway, removes that.  Included after project() through
# CMAKE_PROJECT_INCLUDE (set in innofork-options.cmake), so no upstream
# CMakeLists.txt is edited and stock and fork builds are treated alike.
# -DINNOFORK_PCH=OFF turns it off.
#
# A force-included header comes before anything a source file defines, so a
# file that defines a macro before its first #include (LOG_COMPONENT_TAG,
# which log_builtins.h tests, LOCK_MODULE_IMPLEMENTATION, YYBISON) would
# silently see different headers: such files, and generated ones, are
# compiled without the precompiled header.  So are the files in
# INNOFORK_PCH_SKIP: they include a header that has no include guard and is
# also reached from the precompiled header (found by scanning the headers the
# precompiled headers pull in for missing guards).
#
# ccache caches these compiles only with -fpch-preprocess (GCC) or a
# precompiled header without timestamp (clang: -fno-pch-timestamp) and
# CCACHE_SLOPPINESS=pch_defines,time_macros,... (scripts/build.sh sets it),
# and hits after a .gch or .pch is rebuilt only if the old one is gone first
# (innofork-pch-launcher.sh says why).

if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR OR NOT INNOFORK_PCH
   OR INNOFORK_PCH_DEFERRED)
  return()
endif()
set(INNOFORK_PCH_DEFERRED ON)
set(INNOFORK_PCH_LAUNCHER
  sh ${CMAKE_CURRENT_LIST_DIR}/innofork-pch-launcher.sh ${CMAKE_CXX_COMPILER_LAUNCHER})

set(INNOFORK_PCH_SQL
  [["sql/sql_class.h"]] [["sql/sql_lex.h"]] [["sql/item_func.h"]])

# sql/engine_combination_tracker.h has no include guard; sql_class.h reaches it.
set(INNOFORK_PCH_SKIP sql/engine_combination_tracker.cc)

# target -> headers; targets absent from a build are skipped.
set(INNOFORK_PCH_TARGETS sql_main sql_dd sql_gis binlog rpl_replica
    mysql_server_component_services innobase perfschema)
set(INNOFORK_PCH_sql_main ${INNOFORK_PCH_SQL})
set(INNOFORK_PCH_binlog ${INNOFORK_PCH_SQL})
set(INNOFORK_PCH_rpl_replica ${INNOFORK_PCH_SQL})
set(INNOFORK_PCH_mysql_server_component_services [["sql/sql_class.h"]])
set(INNOFORK_PCH_sql_dd
  [["sql/sql_class.h"]] [["sql/dd/types/table.h"]]
  [["sql/dd/impl/types/weak_object_impl.h"]])
set(INNOFORK_PCH_sql_gis <boost/geometry.hpp>)
set(INNOFORK_PCH_innobase
  [["sql/handler.h"]] [["sql/table.h"]] [["ha_prototypes.h"]] [["srv0srv.h"]]
  [["fil0fil.h"]] [["buf0buf.h"]] [["dict0mem.h"]] [["trx0trx.h"]]
  [["btr0btr.h"]])
set(INNOFORK_PCH_perfschema
  [["sql/handler.h"]] [["sql/table.h"]] [["storage/perfschema/pfs_instr.h"]]
  [["storage/perfschema/table_helper.h"]])

# Sources of target that must not get the precompiled header: generated
# ones, those in INNOFORK_PCH_SKIP, and those whose first preprocessor line
# of interest is a #define.
function(innofork_pch_exclusions target out)
  get_target_property(dir ${target} SOURCE_DIR)
  get_target_property(sources ${target} SOURCES)
  set(skip)
  list(TRANSFORM INNOFORK_PCH_SKIP PREPEND "${CMAKE_SOURCE_DIR}/" OUTPUT_VARIABLE listed)
  foreach(src ${sources})
    if(NOT src MATCHES "\\.cc$")
      continue()
    endif()
    if(NOT IS_ABSOLUTE "${src}")
      set(src "${dir}/${src}")
    endif()
    if(NOT EXISTS "${src}" OR src IN_LIST listed)
      list(APPEND skip "${src}")
      continue()
    endif()
    file(STRINGS "${src}" first REGEX "^#[ \t]*(define|include)" LIMIT_COUNT 1)
    if(first MATCHES "^#[ \t]*define")
      list(APPEND skip "${src}")
    endif()
  endforeach()
  set(${out} "${skip}" PARENT_SCOPE)
endfunction()

function(innofork_add_pch)
  foreach(target ${INNOFORK_PCH_TARGETS})
    if(NOT TARGET ${target})
      continue()
    endif()
    target_precompile_headers(${target} PRIVATE ${INNOFORK_PCH_${target}})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
      target_compile_options(${target} PRIVATE -Xclang -fno-pch-timestamp)
    else()
      target_compile_options(${target} PRIVATE -fpch-preprocess)
    endif()
    set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER ${INNOFORK_PCH_LAUNCHER})
    innofork_pch_exclusions(${target} skip)
    if(skip)
      set_source_files_properties(${skip} TARGET_DIRECTORY ${target}
        PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
      list(LENGTH skip n)
      message(STATUS "innofork: ${target}: ${n} sources without the precompiled header")
    endif()
  endforeach()
endfunction()

cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL innofork_add_pch)
