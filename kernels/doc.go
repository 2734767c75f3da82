// Package kernels is the small tensor interface every aucopt solver is written against.
//
// A Backend owns its tensors: Vec and Mat values are made by the Backend's NewVec and
// NewMat, live wherever the backend computes (host memory for the CPU backends, device
// memory for CUDA), and move to and from host slices only through Upload and Download.
// Sparse rows (Sparse) always stay on the host.
//
// The package holds the contract and nothing else: the pure-Go reference is in package
// fallback, the AVX2/AVX-512 kernels in package asm, the GPU backend in package cuda, and
// kernels/kerneltest is the conformance suite every backend must pass.
//
// # Conventions
//
// Matrices are row-major. A Mat may be a view with a row stride larger than its column
// count (Mat.Slice). Symmetric matrices are stored in, and read from, their upper
// triangle only (elements A[i][j] with i ≤ j); the strictly lower part is neither read
// nor written by Syr, Syrk, Symv or Symm.
//
// Following the reference BLAS, when a beta argument is 0 the output is overwritten and
// its previous contents (NaN included) are not read; otherwise NaN and Inf propagate
// through every operation as IEEE arithmetic says. Unlike the reference BLAS, alpha = 0
// is not a quick return: a NaN or Inf in x or A still makes the result NaN, so that a
// diverging solver is noticed (a GPU backend must not take cuBLAS's shortcut). Scal by 0
// multiplies (0·NaN = NaN).
//
// Argument errors that only a programmer can make (length mismatches, a tensor from
// another backend, a sparse index, a GemvRows or RowDiff row or a Gather or ScatterAdd
// index out of range, a ScatterAdd index repeated) panic with a message prefixed
// "kernels:" or the backend's name, never a Go runtime error; nothing a user's data can
// cause reaches a kernel unchecked. A length mismatch is detected before any output is
// written; after an index panic the output view may be partly updated, but nothing
// outside it is (Gather and ScatterAdd check every index first and write nothing).
//
// Unless an operation says otherwise, its output must not alias any of its inputs.
// Axpy with x == y is allowed (y becomes (1+alpha)·y).
package kernels
