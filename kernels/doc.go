// Package kernels is the small tensor interface every aucopt solver is written against.
//
// A Backend owns its tensors: Vec and Mat values are made by the Backend's NewVec and
// NewMat, live wherever the backend computes (host memory for the CPU backends, device
// memory for CUDA), and move to and from host slices only through Upload and Download.
// Sparse rows (Sparse) always stay on the host.
//
// The package holds the contract and nothing else: the pure-Go reference is in package
// fallback, the AVX2/AVX-512 kernels in package asm, the GPU backend in package cuda, and
// kernels/kerneltest is the conformance suite every backend must pass. What the backends
// share lives in internal/host (host tensors, the worker pool, the argument checks) and
// internal/f64 (the reference loops), so that no backend imports another.
//
// # Groups and capabilities
//
// Backend is the union of small groups, as gonum's blas.Float64 is: Memory (tensors and
// transfers), Level1 (vectors, dense and sparse), Level2 (matrix–vector), Level3
// (matrix–matrix) and Indexed (operations over host-held index lists). What a backend
// can do beyond computing is asked through optional interfaces, never guessed from its
// Name: Splitter (a copy with fewer workers), Describer (a one-line Detail of the
// instruction sets or device) and Concurrent (its Concurrency: Serial, Safe, or
// SafeDevicePanics when device failures panic on the calling goroutine).
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
//
// # Adding an operation
//
// An operation is added only when a solver needs it on resident tensors (host-side
// vector work in a solver uses gonum or internal/f64 instead). The places, in order:
//
//  1. kernels.go: the method, with its formula and aliasing rules, in its group;
//  2. internal/host/check.go: its argument check, if the existing ones do not fit;
//  3. internal/f64: its reference loop (split over a host.Pool when large, parts chosen
//     from the problem size alone);
//  4. fallback/backend.go: the method, the check then the loop;
//  5. asm: the method, in assembly (asm/_gen, then `cd asm/_gen && go generate`) or the
//     reference loop; race annotations (race.go) for what the assembly reads and writes;
//  6. cuda/mapping.go: the cuBLAS call or a PTX kernel (cuda/kernels, `go generate
//     ./cuda`), the device method (device.go, driver_linux.go and the fake device of
//     fake_test.go), and the alpha = 0 case on the host with internal/f64;
//  7. kerneltest: a reference in ref.go, a TestOp taking the narrow group (and its line
//     in Run), a Differential Op if it reduces, and at least one mutant in
//     kerneltest_test.go that the new test must catch;
//  8. benchmarks (bench/kernels_test.go) when the operation is on a hot path.
//
// # Adding a backend
//
// A backend is a package beside fallback, asm and cuda that imports kernels,
// internal/host and internal/f64 and no other backend. It implements every group (a
// host-memory backend embeds host.Memory and checks arguments with host's Check
// functions, so its panics read as every other backend's), states its Concurrency, and
// where it has one, its Detail and WithWorkers. Its test calls kerneltest.Run (while it
// is half built, the per-operation tests of the groups it has) and a fuzz target with
// kerneltest.Differential against fallback. It registers itself with package backends
// from an init function (name, priority for automatic selection, whether it is a device
// backend, its Open) and is linked by backends/all; nothing in the engine mentions it.
// A device backend's failures of the device match ErrDevice.
package kernels
