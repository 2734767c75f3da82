// Package all links every compute backend of aucopt into a program: imported for its
// side effect, it registers generic (package fallback), avx2 (package asm) and cuda
// (package cuda) with package backends.
//
//	import _ "github.com/aucopt/aucopt/backends/all"
//
// The engine imports no backend itself (see package backends); a command, the C API
// or an example that trains imports this package once, in its main package or at its
// top.
package all

import (
	_ "github.com/aucopt/aucopt/asm"      // avx2
	_ "github.com/aucopt/aucopt/cuda"     // cuda
	_ "github.com/aucopt/aucopt/fallback" // generic
)
