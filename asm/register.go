package asm

import (
	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/kernels"
)

// init registers the backend with package backends as "avx2", chosen by automatic
// selection before generic wherever the CPU has AVX2 and FMA3.
func init() {
	backends.Register(backends.Driver{
		Name:     "avx2",
		Priority: 20,
		Open: func() (kernels.Backend, error) {
			b, err := New()
			if err != nil {
				return nil, err
			}
			return b, nil
		},
	})
}
