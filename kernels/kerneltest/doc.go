// Package kerneltest is the conformance suite of kernels.Backend: every backend's own
// test calls Run, and a half-built backend can call the per-operation tests (TestDot,
// TestGemv, …) one by one.
//
// The suite checks a backend against plain reference loops of its own (it imports no
// backend), on deterministic pseudo-random data of mixed sign and magnitude:
//
//   - every length 0..300 of the level-1 and sparse operations and of Gather's and
//     ScatterAdd's index lists (the loop tails of any unroll factor; indices repeated,
//     shuffled, descending and spread out), lengths around power-of-two block sizes and
//     a few large ones;
//   - every matrix shape the operations accept, 0×n, n×0, 1×n and n×1 included, up to
//     about 600×600 (Syrk up to k = 600 rows of d = 300 and k = 300 of d = 1000, Symm
//     up to k = 299 rows of d = 300, k = 40 of d = 1000 and k = 1000 of d = 64);
//   - views: vectors sliced out of larger ones at odd offsets and matrices sliced out of
//     larger ones, so that rows have a stride larger than their length and start off any
//     32-byte boundary;
//   - guards: every operand is a view inside a larger parent, inputs padded with NaN (a
//     read outside a view poisons the result) and outputs with a finite sentinel (a write
//     outside a view changes it); after each operation the whole parent is downloaded and
//     checked, inputs must be unchanged bit for bit, and the strictly lower triangle of a
//     symmetric operand is neither read (Symv, Symm: it holds NaN) nor written (Syr,
//     Syrk);
//   - NaN and Inf propagation as IEEE arithmetic says, beta = 0 ignoring NaN in the
//     output, Scal by 0 multiplying, Axpy with x == y;
//   - panics, prefixed "kernels:" or with the backend's name, on length mismatches, sparse
//     or row indices out of range and tensors of another backend, without writing
//     outside the operands (Gather and ScatterAdd, also on a repeated ScatterAdd index:
//     without writing at all).
//
// Results are compared with a tolerance derived from the terms, not from the answer:
//
//	|got − want| ≤ 4·(n+2)·ε·Σ|terms|
//
// where n is the number of terms summed into one result (the inner length of a dot
// product or mat-vec) and the terms include the beta part; NaN matches NaN and an
// infinite result must match exactly.
//
// Differential compares two backends on inputs decoded from fuzz bytes, for fuzz targets
// such as asm's FuzzDotSparse (asm against fallback).
package kerneltest
