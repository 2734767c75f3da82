//go:build !amd64 || noasm || purego

package asm

import (
	"errors"

	"github.com/aucopt/aucopt/kernels"
)

// New reports that the assembly backend is not part of this build.
func New() (kernels.Backend, error) {
	return nil, errors.New("asm: not built (noasm, purego or not amd64)")
}
