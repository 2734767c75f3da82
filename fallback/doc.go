// Package fallback is the pure-Go kernels.Backend: the reference implementation of every
// operation, compiled on every platform and used where no faster backend is available.
//
// Level-1 and sparse operations are plain loops with four accumulators; Gemv, Symv and
// Syrk are cache-blocked and split across cores through a Pool when the work is large
// enough to pay for it. The split depends only on the problem's size and partial
// results are reduced in a fixed order, so every result is bit-identical whatever the
// number of cores.
package fallback
