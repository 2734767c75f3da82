//go:build !amd64 || noasm || purego

package asm

import "github.com/aucopt/aucopt/kernels"

// NewPath returns New's error: the backend is not built.
func NewPath(bool) (kernels.Backend, error) { return New() }
