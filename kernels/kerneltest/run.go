package kerneltest

import (
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// The groups of kernels.Backend that the per-operation tests take, each with the
// tensors to test it on, so that a half-built backend can be tested group by group and
// operation by operation.
type (
	// Tensors is what every test needs: the backend's name (a checked panic may be
	// prefixed with it) and its tensors-and-memory group.
	Tensors interface {
		Name() string
		kernels.Memory
	}
	// Level1 is the vector group with the tensors to test it on.
	Level1 interface {
		Tensors
		kernels.Level1
	}
	// Level2 is the matrix–vector group with the tensors to test it on.
	Level2 interface {
		Tensors
		kernels.Level2
	}
	// Level3 is the matrix–matrix group with the tensors to test it on.
	Level3 interface {
		Tensors
		kernels.Level3
	}
	// Indexed is the gather/scatter group with the tensors to test it on.
	Indexed interface {
		Tensors
		kernels.Indexed
	}
)

// Run runs the whole conformance suite against b, one subtest per operation of each
// group of Backend: UploadDownload (NewVec, NewMat, Upload, Download and views) and
// Copy; Dot, Axpy, Scal, DotSparse and AxpySparse; Gemv, Symv, Syr and Ger; Syrk and
// Symm; GemvRows, RowDiff, Gather and ScatterAdd. It does not close b.
func Run(t *testing.T, b kernels.Backend) {
	for _, c := range []struct {
		name string
		test func(*testing.T)
	}{
		{"UploadDownload", func(t *testing.T) { TestUploadDownload(t, b) }},
		{"Copy", func(t *testing.T) { TestCopy(t, b) }},
		{"Dot", func(t *testing.T) { TestDot(t, b) }},
		{"Axpy", func(t *testing.T) { TestAxpy(t, b) }},
		{"Scal", func(t *testing.T) { TestScal(t, b) }},
		{"DotSparse", func(t *testing.T) { TestDotSparse(t, b) }},
		{"AxpySparse", func(t *testing.T) { TestAxpySparse(t, b) }},
		{"Gemv", func(t *testing.T) { TestGemv(t, b) }},
		{"Symv", func(t *testing.T) { TestSymv(t, b) }},
		{"Syr", func(t *testing.T) { TestSyr(t, b) }},
		{"Ger", func(t *testing.T) { TestGer(t, b) }},
		{"Syrk", func(t *testing.T) { TestSyrk(t, b) }},
		{"Symm", func(t *testing.T) { TestSymm(t, b) }},
		{"GemvRows", func(t *testing.T) { TestGemvRows(t, b) }},
		{"RowDiff", func(t *testing.T) { TestRowDiff(t, b) }},
		{"Gather", func(t *testing.T) { TestGather(t, b) }},
		{"ScatterAdd", func(t *testing.T) { TestScatterAdd(t, b) }},
	} {
		t.Run(c.name, c.test)
	}
}
