package f64

import "github.com/aucopt/aucopt/internal/host"

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

// Gemv computes y = alpha·op(A)·x + beta·y with op(A) = A or Aᵀ, over the rows of a
// listed in rows (GemvRows), or all of them when rows is nil.
func Gemv(p *host.Pool, trans bool, alpha float64, a *host.Mat, rows []int32, x []float64, beta float64, y []float64) {
	r := a.Rows
	if rows != nil {
		r = len(rows)
	}
	j := host.GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Beta, j.Rows = a, x, y, alpha, beta, rows
	p.Do(gemvParts(trans, r, a.Cols, j), j)
	host.PutJob(j)
}

// gemvParts sets j.Run and j.N for a mat-vec over r rows of c columns and returns the
// number of parts.
func gemvParts(trans bool, r, c int, j *host.Job) int {
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

// gemvNPart computes y[i] = alpha·row(i)·x + beta·y[i] for the rows of part p.
func gemvNPart(j *host.Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	for i := lo; i < hi; i++ {
		t := j.Alpha * Dot(j.Row(i), j.X)
		if j.Beta != 0 {
			t += j.Beta * j.Y[i]
		}
		j.Y[i] = t
	}
}

// gemvTPart computes y[c] = alpha·Σ_i x[i]·row(i)[c] + beta·y[c] for the columns c of part p.
func gemvTPart(j *host.Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	y := j.Y[lo:hi]
	ScaleBeta(j.Beta, y)
	for i, xi := range j.X {
		Axpy(j.Alpha*xi, j.Row(i)[lo:hi], y)
	}
}

// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
//
// Each part takes a block of rows of equal upper-triangle area and accumulates its
// contribution to the whole of y in its own partial vector; the partials are summed in
// part order, so the result does not depend on the number of cores.
func Symv(p *host.Pool, alpha float64, a *host.Mat, x []float64, beta float64, y []float64) {
	n := len(x)
	parts := 1
	if n*n/2 >= parallelWork {
		parts = symvParts
	}
	j := host.GetJob()
	j.Run, j.A, j.X, j.N = symvPart, a, x, parts
	j.Partial = grow(j.Partial, parts*n)
	p.Do(parts, j)
	ScaleBeta(beta, y)
	for q := range parts {
		Axpy(alpha, j.Partial[q*n:(q+1)*n], y)
	}
	host.PutJob(j)
}

// symvPart accumulates rows [lo, hi) of the symmetric product into partial p.
func symvPart(j *host.Job, p int) {
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

// Ger computes the rank-1 update A += alpha·x·yᵀ (A is len(x)×len(y)).
func Ger(alpha float64, x, y []float64, a *host.Mat) {
	for i, xi := range x {
		Axpy(alpha*xi, y, a.Data[i*a.Stride:i*a.Stride+a.Cols])
	}
}

// Syr computes the upper triangle of A += alpha·x·xᵀ.
func Syr(alpha float64, x []float64, a *host.Mat) {
	for i, xi := range x {
		Axpy(alpha*xi, x[i:], a.Data[i*a.Stride+i:i*a.Stride+a.Cols])
	}
}
