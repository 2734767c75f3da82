// Package host is what the backends whose tensors live in host memory share, and what
// every backend shares for checking its arguments: the host tensors (Vec, Mat) and
// their tensors-and-memory operations (Memory), the worker pool that splits large
// operations across cores (Pool, Job), and the argument checks whose "kernels:" panic
// messages the kernels contract promises (Check*).
//
// It is internal so that no backend has to import another: fallback, asm and cuda each
// import host (and the reference loops of package internal/f64) instead, as gonum's
// BLAS implementations share internal/asm/f64. Nothing here is a kernels.Backend.
package host
