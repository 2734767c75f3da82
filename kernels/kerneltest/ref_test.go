package kerneltest

import (
	"fmt"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// naive is a Backend whose operations are the suite's own reference loops, on the host
// tensors of package fallback (which it uses for allocation and transfers only). The
// suite must pass it, and it is the reference the differential fuzz test compares
// fallback with: its summation order differs from fallback's, as a SIMD backend's does.
type naive struct{ *fallback.Backend }

var _ kernels.Backend = naive{}

func (naive) Name() string { return "naive" }

func check(ok bool, format string, args ...any) {
	if !ok {
		panic("kernels: " + fmt.Sprintf(format, args...))
	}
}

// dense returns a row-major copy of m.
func dense(m *host.Mat) []float64 {
	d := make([]float64, 0, m.Rows*m.Cols)
	for i := range m.Rows {
		d = append(d, m.Data[i*m.Stride:i*m.Stride+m.Cols]...)
	}
	return d
}

// store writes the row-major d into m, only its upper triangle with upper.
func store(m *host.Mat, d []float64, upper bool) {
	for i := range m.Rows {
		for j := range m.Cols {
			if !upper || i <= j {
				m.Data[i*m.Stride+j] = d[i*m.Cols+j]
			}
		}
	}
}

func (naive) Dot(x, y kernels.Vec) float64 {
	xs, ys := host.VecData(x), host.VecData(y)
	check(len(xs) == len(ys), "Dot: lengths %d and %d", len(xs), len(ys))
	s, _ := refDot(xs, ys)
	return s
}

func (naive) Axpy(alpha float64, x, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	check(len(xs) == len(ys), "Axpy: lengths %d and %d", len(xs), len(ys))
	w, _ := refAxpy(alpha, xs, ys)
	copy(ys, w)
}

func (naive) Scal(alpha float64, x kernels.Vec) {
	xs := host.VecData(x)
	w, _ := refScal(alpha, xs)
	copy(xs, w)
}

func (naive) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := host.VecData(y)
	host.CheckSparse("DotSparse", x, len(ys))
	s, _ := refDotSparse(x.Idx, x.Val, ys)
	return s
}

func (naive) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := host.VecData(y)
	host.CheckSparse("AxpySparse", x, len(ys))
	w, _ := refAxpySparse(alpha, x.Idx, x.Val, ys)
	copy(ys, w)
}

func (b naive) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m := host.MatOf(a)
	rows := make([]int32, m.Rows)
	for i := range rows {
		rows[i] = int32(i)
	}
	b.GemvRows(trans, alpha, a, rows, x, beta, y)
}

func (naive) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	nx, ny := gemvLens(trans, len(rows), m.Cols)
	check(len(xs) == nx && len(ys) == ny, "GemvRows: lengths")
	for _, r := range rows {
		check(r >= 0 && int(r) < m.Rows, "GemvRows: row %d", r)
	}
	w, _ := refGemvRows(trans, alpha, dense(m), m.Cols, rows, xs, beta, ys)
	copy(ys, w)
}

func (naive) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	n := len(xs)
	check(m.Rows == n && m.Cols == n && len(ys) == n, "Symv: dimensions")
	w, _ := refSymv(alpha, dense(m), n, xs, beta, ys)
	copy(ys, w)
}

func (naive) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	xs, m := host.VecData(x), host.MatOf(a)
	check(m.Rows == len(xs) && m.Cols == len(xs), "Syr: dimensions")
	w, _ := refSyr(alpha, xs, dense(m))
	store(m, w, true)
}

func (naive) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	xs, ys, m := host.VecData(x), host.VecData(y), host.MatOf(a)
	check(m.Rows == len(xs) && m.Cols == len(ys), "Ger: dimensions")
	w, _ := refGer(alpha, xs, ys, dense(m))
	store(m, w, false)
}

func (naive) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	am, cm := host.MatOf(a), host.MatOf(c)
	d := am.Cols
	check(cm.Rows == d && cm.Cols == d, "Syrk: dimensions")
	w, _ := refSyrk(alpha, dense(am), am.Rows, d, beta, dense(cm))
	store(cm, w, true)
}

func (naive) Symm(alpha float64, a kernels.Mat, b kernels.Mat, beta float64, c kernels.Mat) {
	am, bm, cm := host.MatOf(a), host.MatOf(b), host.MatOf(c)
	d, k := am.Cols, bm.Rows
	check(am.Rows == d && bm.Cols == d && cm.Rows == k && cm.Cols == d, "Symm: dimensions")
	w, _ := refSymm(alpha, dense(am), d, dense(bm), k, beta, dense(cm))
	store(cm, w, false)
}

func (naive) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	am, om := host.MatOf(a), host.MatOf(out)
	check(len(pos) == len(neg) && om.Rows == len(pos) && om.Cols == am.Cols, "RowDiff: dimensions")
	for _, rows := range [][]int32{pos, neg} {
		for _, r := range rows {
			check(r >= 0 && int(r) < am.Rows, "RowDiff: row %d out of range", r)
		}
	}
	store(om, refRowDiff(dense(am), am.Cols, pos, neg), false)
}

func (naive) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	xs, outs := host.VecData(x), host.VecData(out)
	check(len(outs) == len(idx), "Gather: %d indices, out of %d", len(idx), len(outs))
	for _, i := range idx {
		check(i >= 0 && int(i) < len(xs), "Gather: index %d out of range", i)
	}
	copy(outs, refGather(xs, idx))
}

func (naive) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	check(len(xs) == len(idx), "ScatterAdd: %d indices, x of %d", len(idx), len(xs))
	seen := map[int32]bool{}
	for _, i := range idx {
		check(i >= 0 && int(i) < len(ys), "ScatterAdd: index %d out of range", i)
		check(!seen[i], "ScatterAdd: index %d repeated", i)
		seen[i] = true
	}
	w, _ := refScatterAdd(alpha, xs, idx, ys)
	copy(ys, w)
}
