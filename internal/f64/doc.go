// Package f64 holds aucopt's reference loops: the pure-Go arithmetic of every kernels
// operation on host slices and matrices, with a fixed order of additions, so that the
// results are bit-identical whatever the number of cores. Package fallback is these
// loops behind the kernels.Backend contract; asm uses them for what its assembly does
// not accelerate; cuda for the alpha = 0 calls that cuBLAS would skip; solvers for
// host-side vector work (Dot). It is internal, as gonum's internal/asm/f64, so that no
// backend imports another.
//
// The functions do not check their arguments (the callers do, with package host's
// checks); the level-2 and level-3 ones split large problems across a host.Pool (nil:
// run on the caller) into parts chosen from the problem size alone.
package f64
