package kerneltest

import (
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// Run runs the whole conformance suite against b, one subtest per group of Backend
// methods: UploadDownload (NewVec, NewMat, Upload, Download and views), Copy, Dot, Axpy,
// Scal, DotSparse, AxpySparse, Gemv, GemvRows, Symv, Syr, Ger, Syrk, Symm, Gemm,
// RowDiff, Gather and ScatterAdd. It does not close b.
func Run(t *testing.T, b kernels.Backend) {
	for _, c := range []struct {
		name string
		test func(*testing.T, kernels.Backend)
	}{
		{"UploadDownload", TestUploadDownload},
		{"Copy", TestCopy},
		{"Dot", TestDot},
		{"Axpy", TestAxpy},
		{"Scal", TestScal},
		{"DotSparse", TestDotSparse},
		{"AxpySparse", TestAxpySparse},
		{"Gemv", TestGemv},
		{"GemvRows", TestGemvRows},
		{"Symv", TestSymv},
		{"Syr", TestSyr},
		{"Ger", TestGer},
		{"Syrk", TestSyrk},
		{"Symm", TestSymm},
		{"Gemm", TestGemm},
		{"RowDiff", TestRowDiff},
		{"Gather", TestGather},
		{"ScatterAdd", TestScatterAdd},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, b) })
	}
}
