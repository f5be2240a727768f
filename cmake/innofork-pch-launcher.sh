#!/bin/sh
# Copyright (c) 2026, the innofork authors.  GPLv2 (see LICENSE).
#
# Compiler launcher of the targets that get a precompiled header
# (innofork-pch.cmake): removes the old .gch (.pch with clang) before the
# compile that rebuilds it, then runs the rest of the command line (ccache
# and the compiler).
#
# Why: the .gch compile force-includes the header the .gch is made from, so
# ccache finds the old .gch next to it and hashes it into the new one's key.
# GCC's .gch bytes are not reproducible, so every rebuild of a .gch (after a
# touch, a checkout, `ccache -C`) got a key never seen before, missed, and
# made every object of the target miss as well, with no header changed.
prev=
for arg do
  if [ "$prev" = -o ]; then
    case $arg in *.gch|*.pch) rm -f "$arg";; esac
  fi
  prev=$arg
done
exec "$@"
