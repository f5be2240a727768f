#!/usr/bin/env bash
# Install the Debian packages the build, the test run and the benchmarks need,
# and the deb-src entry for Debian's experimental suite that holds mysql-9.7.
# Idempotent: installs only what is missing.  Needs root (or sudo).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(build-essential cmake ninja-build ccache bison pkgconf dpkg-dev clang-19 lld-19
      libssl-dev libncurses-dev libaio-dev libnuma-dev libzstd-dev liblz4-dev
      zlib1g-dev libicu-dev libprotobuf-dev protobuf-compiler libprotoc-dev
      libtirpc-dev rpcsvc-proto numactl sysbench libgtest-dev
      perl libjson-perl libdigest-sha-perl xz-utils rsync python3-matplotlib
      python3-pymysql)

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# deb-src entry for the suites that have carried mysql-9.7 9.7.2-4: it was
# uploaded to experimental and has since moved to unstable.  Only source
# indices are added (no binary packages change), and the exact version plus
# the tarball's sha256 pin what gets built, whichever suite serves it.
SRC_LIST=/etc/apt/sources.list.d/innofork-mysql-src.sources
updated=0
if [ ! -f "$SRC_LIST" ]; then
  mirror=$(grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+/debian/?' /etc/apt/sources.list.d/*.sources \
             /etc/apt/sources.list 2>/dev/null | grep -v security | head -1 | awk '{print $2}' || true)
  mirror=${mirror:-http://deb.debian.org/debian}
  info "adding deb-src entry for Debian experimental and unstable ($mirror) in $SRC_LIST"
  printf 'Types: deb-src\nURIs: %s\nSuites: experimental unstable\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" | $SUDO tee "$SRC_LIST" >/dev/null
  $SUDO apt-get update -qq || die "apt-get update failed: check the network and $SRC_LIST"
  updated=1
fi

if [ ${#missing[@]} -gt 0 ]; then
  info "installing Debian packages: ${missing[*]}"
  [ $updated = 1 ] || $SUDO apt-get update -qq || die "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" \
    || die "apt-get install failed for: ${missing[*]}"
fi
info "build dependencies present"
