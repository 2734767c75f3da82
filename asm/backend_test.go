package asm_test

import (
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/kernels"
	"github.com/aucopt/aucopt/kernels/kerneltest"
)

// paths are the kernel sets a test runs: the default (AVX-512 where the CPU has it) and
// AVX2 forced.
var paths = []struct {
	name     string
	noAVX512 bool
}{
	{"default", false},
	{"avx2", true},
}

// newPath returns the backend of one path, skipping the test with the reason when it is
// not available here (no AVX2/FMA, or a noasm, purego or non-amd64 build).
func newPath(t testing.TB, noAVX512 bool) kernels.Backend {
	t.Helper()
	b, err := asm.NewPath(noAVX512)
	if err != nil {
		t.Skipf("asm backend unavailable: %v", err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestConformance(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			b := newPath(t, p.noAVX512)
			if d, ok := b.(kernels.Describer); ok {
				t.Logf("ISA: %s", d.Detail())
			}
			kerneltest.Run(t, b)
		})
	}
}
