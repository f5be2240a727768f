// Copyright (c) 2026, the innofork authors.  GPLv2, see LICENSE.

//go:build tools

// Package tools pins go-tpc as a dependency of this module, so that
// `go build github.com/pingcap/go-tpc/cmd/go-tpc` builds it from the Go
// module proxy at the version go.mod names, checked against go.sum.
package tools

import _ "github.com/pingcap/go-tpc/cmd/go-tpc"
