//go:build amd64 && !noasm && !purego

package asm_test

import (
	"encoding/binary"
	"os"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"github.com/aucopt/aucopt/kernels/kerneltest"
)

// fuzzBackends returns the asm backend (AVX-512 kernels where the CPU has them), the
// asm backend with the AVX2 kernels forced when that is a different path, and fallback
// as the reference. It skips the fuzz test when asm is unavailable.
func fuzzBackends(f *testing.F) (paths []kernels.Backend, ref kernels.Backend) {
	f.Helper()
	b, err := asm.New()
	if err != nil {
		f.Skipf("asm backend unavailable: %v", err)
	}
	f.Cleanup(func() { b.Close() })
	paths = append(paths, b)
	if os.Getenv(asm.EnvNoAVX512) != "1" {
		os.Setenv(asm.EnvNoAVX512, "1")
		b2, err := asm.New()
		os.Unsetenv(asm.EnvNoAVX512)
		if err != nil {
			f.Fatalf("asm backend with AVX2 forced: %v", err)
		}
		f.Cleanup(func() { b2.Close() })
		if b2.Detail() != b.Detail() {
			paths = append(paths, b2)
		}
	}
	r := fallback.New()
	f.Cleanup(func() { r.Close() })
	return paths, r
}

// fuzzSeeds are inputs for kerneltest.Differential (see its documentation for the
// encoding): the empty input (sizes and values from the generator), zero sizes, and
// sizes around the kernels' block widths with specials (NaN, +Inf, 0) among the values.
func fuzzSeeds() [][]byte {
	seeds := [][]byte{nil, {0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 1, 0, 1, 0}}
	for _, n := range []uint16{3, 7, 8, 9, 13, 17, 25, 33, 64, 65, 129, 255, 300, 513, 601} {
		s := appendSize(nil, n)
		s = appendSize(s, n/2+1)
		s = appendSize(s, n%7)
		s = append(s, byte(n), byte(n>>1), 0xff, 0, 4, 0xff, 1, 0x40, 0x21, 0xff, 3)
		seeds = append(seeds, s)
	}
	return seeds
}

// fuzzOp fuzzes op: every input is decoded by kerneltest.Differential and run on each
// asm path and on fallback, whose results must agree.
func fuzzOp(f *testing.F, op kerneltest.Op) {
	paths, ref := fuzzBackends(f)
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range paths {
			kerneltest.Differential(t, b, ref, op, data)
		}
	})
}

func FuzzDot(f *testing.F)        { fuzzOp(f, kerneltest.OpDot) }
func FuzzAxpy(f *testing.F)       { fuzzOp(f, kerneltest.OpAxpy) }
func FuzzScal(f *testing.F)       { fuzzOp(f, kerneltest.OpScal) }
func FuzzDotSparse(f *testing.F)  { fuzzOp(f, kerneltest.OpDotSparse) }
func FuzzAxpySparse(f *testing.F) { fuzzOp(f, kerneltest.OpAxpySparse) }
func FuzzGemv(f *testing.F)       { fuzzOp(f, kerneltest.OpGemv) }
func FuzzGemvRows(f *testing.F)   { fuzzOp(f, kerneltest.OpGemvRows) }
func FuzzSymv(f *testing.F)       { fuzzOp(f, kerneltest.OpSymv) }
func FuzzSyr(f *testing.F)        { fuzzOp(f, kerneltest.OpSyr) }
func FuzzGer(f *testing.F)        { fuzzOp(f, kerneltest.OpGer) }
func FuzzSyrk(f *testing.F)       { fuzzOp(f, kerneltest.OpSyrk) }
func FuzzSymm(f *testing.F)       { fuzzOp(f, kerneltest.OpSymm) }

// appendSize appends the encoding of size n for kerneltest.Differential.
func appendSize(s []byte, n uint16) []byte {
	if n <= 70 {
		return binary.LittleEndian.AppendUint16(s, n<<2|1)
	}
	return binary.LittleEndian.AppendUint16(s, n<<2)
}
