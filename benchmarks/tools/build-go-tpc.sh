#!/usr/bin/env bash
# Build go-tpc (TPC-C driver) into build/tools/go-tpc from the Go module
# proxy, at the version benchmarks/tools/go-tpc/go.mod pins and go.sum checks.
# A plain `go install github.com/pingcap/go-tpc/cmd/go-tpc@latest` does not
# work here (the proxy refuses version listing), so this small module
# requires a fixed version and builds the command from it.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

out=$FORK_BUILD_DIR/tools/go-tpc
mod=$FORK_ROOT/benchmarks/tools/go-tpc
command -v go >/dev/null || die "Go is needed for go-tpc (Go >= 1.21): install it from https://go.dev/dl/"
ver=$(go env GOVERSION | sed 's/^go//')
case $ver in 1.1[0-9]*|1.20*) die "Go $ver is too old for go-tpc: Go >= 1.21 is needed";; esac
if [ -x "$out" ] && [ "$out" -nt "$mod/go.mod" ] && [ "$out" -nt "$mod/go.sum" ]; then
  exit 0
fi
info "building go-tpc ($(grep 'pingcap/go-tpc ' "$mod/go.mod" | awk '{print $NF}')) into $out"
mkdir -p "$(dirname "$out")"
(cd "$mod" && go build -o "$out" github.com/pingcap/go-tpc/cmd/go-tpc) \
  || die "go build of go-tpc failed (network to the Go module proxy?)"
