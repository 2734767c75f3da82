//go:build amd64 && !noasm && !purego

package asm

import "github.com/aucopt/aucopt/kernels"

// NewPath returns the backend with the AVX-512 kernels (when the CPU has them) or, with
// noAVX512, the AVX2 kernels only.
func NewPath(noAVX512 bool) (kernels.Backend, error) {
	return newBackend(opts{noAVX512: noAVX512})
}
