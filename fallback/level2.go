package fallback

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Sizes at which an operation is split into parts. They depend on the problem only, so
// the split (and every rounding) is the same on any number of cores.
const (
	// parallelWork is the number of multiply-adds below which an operation runs as one part.
	parallelWork = 1 << 16
	// gemvColChunk is the width of one part of a transposed mat-vec.
	gemvColChunk = 256
	// symvParts is the number of row blocks of a large Symv, each with its own partial result.
	symvParts = 8
)

// Gemv computes y = alpha·op(A)·x + beta·y with op(A) = A or Aᵀ.
func (b *Backend) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := HostMat(a), HostVec(x), HostVec(y)
	CheckGemv("Gemv", trans, m.Rows, m.Cols, len(xs), len(ys))
	j := GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Beta, j.Rows = m, xs, ys, alpha, beta, nil
	b.pool.Do(gemvParts(trans, m.Rows, m.Cols, j), j)
	PutJob(j)
}

// GemvRows is Gemv over the rows of A listed in rows.
func (b *Backend) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := HostMat(a), HostVec(x), HostVec(y)
	CheckGemv("GemvRows", trans, len(rows), m.Cols, len(xs), len(ys))
	for k, r := range rows {
		if uint(r) >= uint(m.Rows) {
			panic(fmt.Sprintf("kernels: GemvRows: row %d (element %d) out of range [0, %d)", r, k, m.Rows))
		}
	}
	j := GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Beta, j.Rows = m, xs, ys, alpha, beta, rows
	b.pool.Do(gemvParts(trans, len(rows), m.Cols, j), j)
	PutJob(j)
}

// gemvParts sets j.Run and j.N for a mat-vec over r rows of c columns and returns the
// number of parts.
func gemvParts(trans bool, r, c int, j *Job) int {
	if trans {
		j.Run = gemvTPart
		j.N = gemvColChunk
		if r*c < parallelWork {
			j.N = max(c, 1)
		}
		return (c + j.N - 1) / j.N
	}
	j.Run = gemvNPart
	j.N = r
	if r*c >= parallelWork {
		j.N = max(16, parallelWork/max(c, 1))
	}
	return (r + j.N - 1) / max(j.N, 1)
}

// row returns row i of j.A, or row j.Rows[i] when the job lists rows.
func (j *Job) row(i int) []float64 {
	if j.Rows != nil {
		i = int(j.Rows[i])
	}
	s := i * j.A.Stride
	return j.A.Data[s : s+j.A.Cols]
}

// gemvNPart computes y[i] = alpha·row(i)·x + beta·y[i] for the rows of part p.
func gemvNPart(j *Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	for i := lo; i < hi; i++ {
		t := j.Alpha * Dot(j.row(i), j.X)
		if j.Beta != 0 {
			t += j.Beta * j.Y[i]
		}
		j.Y[i] = t
	}
}

// gemvTPart computes y[c] = alpha·Σ_i x[i]·row(i)[c] + beta·y[c] for the columns c of part p.
func gemvTPart(j *Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	y := j.Y[lo:hi]
	scaleBeta(j.Beta, y)
	for i, xi := range j.X {
		Axpy(j.Alpha*xi, j.row(i)[lo:hi], y)
	}
}

// scaleBeta sets y = beta·y, or y = 0 without reading y when beta is 0.
func scaleBeta(beta float64, y []float64) {
	switch beta {
	case 0:
		clear(y)
	case 1:
	default:
		for i := range y {
			y[i] *= beta
		}
	}
}

// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
//
// Each part takes a block of rows of equal upper-triangle area and accumulates its
// contribution to the whole of y in its own partial vector; the partials are summed in
// part order, so the result does not depend on the number of cores.
func (b *Backend) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := HostMat(a), HostVec(x), HostVec(y)
	n := len(xs)
	CheckSquare("Symv", m, n)
	CheckLen("Symv", n, len(ys))
	parts := 1
	if n*n/2 >= parallelWork {
		parts = symvParts
	}
	j := GetJob()
	j.Run, j.A, j.X, j.N = symvPart, m, xs, parts
	j.Partial = grow(j.Partial, parts*n)
	b.pool.Do(parts, j)
	scaleBeta(beta, ys)
	for p := range parts {
		Axpy(alpha, j.Partial[p*n:(p+1)*n], ys)
	}
	PutJob(j)
}

// symvPart accumulates rows [lo, hi) of the symmetric product into partial p.
func symvPart(j *Job, p int) {
	n := len(j.X)
	z := j.Partial[p*n : (p+1)*n]
	clear(z)
	lo, hi := triangleRows(n, j.N, p), triangleRows(n, j.N, p+1)
	for i := lo; i < hi; i++ {
		r := j.A.Data[i*j.A.Stride+i : i*j.A.Stride+n]
		xi := j.X[i]
		z[i] += r[0]*xi + Dot(r[1:], j.X[i+1:])
		Axpy(xi, r[1:], z[i+1:])
	}
}

// triangleRows is the first row of part p when the upper triangle of an n×n matrix is
// cut into parts blocks of rows of about equal area.
func triangleRows(n, parts, p int) int {
	if p >= parts {
		return n
	}
	total := n * (n + 1) / 2
	want := total * p / parts
	// Rows [0, r) cover Σ_{i<r} (n−i) = r·n − r(r−1)/2 elements; find the first r reaching want.
	r := 0
	for r < n && r*n-r*(r-1)/2 < want {
		r++
	}
	return r
}

// grow returns s with length n, reusing its capacity.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// CheckGemv panics unless x and y have the lengths a mat-vec over r×c (transposed
// when trans) needs.
func CheckGemv(op string, trans bool, r, c, nx, ny int) {
	wantX, wantY := c, r
	if trans {
		wantX, wantY = r, c
	}
	if nx != wantX || ny != wantY {
		panic(fmt.Sprintf("kernels: %s(trans=%t): A is %d×%d but x has %d and y %d elements", op, trans, r, c, nx, ny))
	}
}
