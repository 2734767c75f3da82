//go:build amd64 && !noasm && !purego

package asm

import (
	"math"

	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// Sizes at which a level-2 operation is split into parts. They depend on the problem
// only, so the split (and every rounding) is the same on any number of cores.
const (
	// gemvParallelWork is the number of elements of A below which a mat-vec runs as
	// one part: smaller ones take less time than waking a worker.
	gemvParallelWork = 1 << 17
	// gemvPartWork is about the number of elements of A in one part of a mat-vec
	// without transpose (a multiple of 4 rows).
	gemvPartWork = 1 << 15
	// gemvColChunk is the width of one part of a transposed mat-vec: a slice of y that
	// stays in L1 while every row of A is added to it.
	gemvColChunk = 512
	// symvParallelWork is the number of upper-triangle elements below which Symv runs
	// as one part.
	symvParallelWork = 1 << 17
	// symvParts is the number of row blocks of a large Symv, each with its own partial
	// result.
	symvParts = 8
)

// Gemv computes y = alpha·A·x + beta·y, or y = alpha·Aᵀ·x + beta·y when trans is true.
// Without trans each part takes a block of rows, four at a time (dot4); with trans each
// part takes a block of columns and adds four scaled rows at a time (axpy4).
func (b *Backend) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	host.CheckGemv("Gemv", trans, m.Rows, m.Cols, len(xs), len(ys))
	raceReadMat(m)
	raceRead(xs)
	raceWrite(ys)
	j := host.GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Beta, j.Rows = m, xs, ys, alpha, beta, nil
	b.pool.Do(gemvParts(trans, m.Rows, m.Cols, j), j)
	host.PutJob(j)
}

// GemvRows is the mini-batch mat-vec over the rows of A listed in rows: without trans
//
//	y[k] = alpha·A[rows[k],:]·x + beta·y[k]
//
// and with trans
//
//	y = alpha·Σ_k x[k]·A[rows[k],:] + beta·y
func (b *Backend) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	host.CheckGemv("GemvRows", trans, len(rows), m.Cols, len(xs), len(ys))
	host.CheckRows(rows, m.Rows)
	raceReadRows(m, rows)
	raceRead(xs)
	raceWrite(ys)
	j := host.GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Beta, j.Rows = m, xs, ys, alpha, beta, rows
	b.pool.Do(gemvParts(trans, len(rows), m.Cols, j), j)
	host.PutJob(j)
}

// gemvParts sets j.Run and j.N for a mat-vec over r rows of c columns and returns the
// number of parts: blocks of j.N rows (a multiple of 4) without trans, blocks of j.N
// columns with trans.
func gemvParts(trans bool, r, c int, j *host.Job) int {
	parallel := r*c >= gemvParallelWork
	if trans {
		j.Run = gemvTPart
		j.N = max(c, 1)
		if parallel {
			j.N = gemvColChunk
		}
		return (c + j.N - 1) / j.N
	}
	j.Run = gemvNPart
	j.N = max(r, 1)
	if parallel {
		j.N = max(16, gemvPartWork/max(c, 1)+3) &^ 3
	}
	return (r + j.N - 1) / j.N
}

// row returns columns [lo, hi) of row i of j.A, or of row j.Rows[i] when the job lists
// rows.
func row(j *host.Job, i, lo, hi int) []float64 {
	if j.Rows != nil {
		i = int(j.Rows[i])
	}
	s := i * j.A.Stride
	return j.A.Data[s+lo : s+hi : s+hi]
}

// gemvNPart computes y[i] = alpha·row(i)·x + beta·y[i] for the rows of part p.
func gemvNPart(j *host.Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	n := len(j.X)
	x, y := j.X, j.Y
	var out [4]float64
	i := lo
	for ; i+4 <= hi; i += 4 {
		dot4AVX2(row(j, i, 0, n), row(j, i+1, 0, n), row(j, i+2, 0, n), row(j, i+3, 0, n), x, &out)
		for r, s := range out {
			y[i+r] = axpby(j.Alpha, s, j.Beta, y[i+r])
		}
	}
	for ; i < hi; i++ {
		y[i] = axpby(j.Alpha, dotAVX2(row(j, i, 0, n), x), j.Beta, y[i])
	}
}

// axpby returns alpha·s + beta·y, ignoring y when beta is 0.
func axpby(alpha, s, beta, y float64) float64 {
	if beta == 0 {
		return alpha * s
	}
	return alpha*s + beta*y
}

// gemvTPart computes y[c] = alpha·Σ_i x[i]·row(i)[c] + beta·y[c] for the columns c of
// part p.
func gemvTPart(j *host.Job, p int) {
	lo, hi := p*j.N, min((p+1)*j.N, len(j.Y))
	y := j.Y[lo:hi]
	scaleBeta(j.Beta, y)
	x := j.X
	var c [4]float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		for r := range c {
			c[r] = j.Alpha * x[i+r]
		}
		axpy4AVX2(row(j, i, lo, hi), row(j, i+1, lo, hi), row(j, i+2, lo, hi), row(j, i+3, lo, hi), &c, y)
	}
	for ; i < len(x); i++ {
		axpyAVX2(j.Alpha*x[i], row(j, i, lo, hi), y)
	}
}

// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
//
// Each part takes a block of rows of about equal upper-triangle area and accumulates its
// contribution to the whole of y in its own partial vector, reading each element of A
// once for both its row and its mirror column (symv4); the partials are added to y in
// part order, so the result does not depend on the number of cores.
func (b *Backend) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	n := len(xs)
	host.CheckSquare("Symv", m, n)
	host.CheckLen("Symv", n, len(ys))
	raceReadUpper(m)
	raceRead(xs)
	raceWrite(ys)
	b.symv(alpha, m, xs, beta, ys)
}

// symv is Symv on host operands whose sizes are checked.
func (b *Backend) symv(alpha float64, m *host.Mat, xs []float64, beta float64, ys []float64) {
	n := len(xs)
	parts := 1
	if n*(n+1)/2 >= symvParallelWork {
		parts = symvParts
	}
	j := host.GetJob()
	j.Run, j.A, j.X, j.N = symvPart, m, xs, parts
	j.Partial = grow(j.Partial, parts*n)
	b.pool.Do(parts, j)
	scaleBeta(beta, ys)
	for p := range parts {
		lo := symvRow(n, parts, p)
		axpyAVX2(alpha, j.Partial[p*n+lo:(p+1)*n], ys[lo:])
	}
	host.PutJob(j)
}

// symvRow is the first row of part p when the upper triangle of an n×n matrix is cut
// into parts blocks of rows of about equal area, each starting at a multiple of 4.
// Rows [0, r) hold r·n − r(r−1)/2 elements, a fraction 1 − (1 − r/n)² of the total.
func symvRow(n, parts, p int) int {
	if p >= parts {
		return n
	}
	r := float64(n) * (1 - math.Sqrt(1-float64(p)/float64(parts)))
	return min(int(r)&^3, n)
}

// symvPart accumulates rows [lo, hi) of the symmetric product into partial p:
//
//	z[i] += Σ_{c≥i} A[i][c]·x[c]    and    z[c] += A[i][c]·x[i] for c > i.
func symvPart(j *host.Job, p int) {
	n := len(j.X)
	lo, hi := symvRow(n, j.N, p), symvRow(n, j.N, p+1)
	z := j.Partial[p*n : (p+1)*n]
	clear(z[lo:])
	a, x := j.A, j.X
	var c, out [4]float64
	i := lo
	s := a.Stride
	for ; i+4 <= hi; i += 4 {
		// The 4×4 block on the diagonal, unrolled (its upper triangle, read once).
		d0, d1 := a.Data[i*s+i:i*s+i+4], a.Data[(i+1)*s+i+1:(i+1)*s+i+4]
		d2, d3 := a.Data[(i+2)*s+i+2:(i+2)*s+i+4], a.Data[(i+3)*s+i+3]
		xb := x[i : i+4]
		x0, x1, x2, x3 := xb[0], xb[1], xb[2], xb[3]
		z0 := d0[0]*x0 + d0[1]*x1 + d0[2]*x2 + d0[3]*x3
		z1 := d0[1]*x0 + d1[0]*x1 + d1[1]*x2 + d1[2]*x3
		z2 := d0[2]*x0 + d1[1]*x1 + d2[0]*x2 + d2[1]*x3
		z3 := d0[3]*x0 + d1[2]*x1 + d2[1]*x2 + d3*x3
		if i+4 < n {
			// The rest of the four rows, each element used for its row and its column.
			copy(c[:], xb)
			symv4AVX2(a.Data[i*s+i+4:i*s+n], a.Data[(i+1)*s+i+4:(i+1)*s+n],
				a.Data[(i+2)*s+i+4:(i+2)*s+n], a.Data[(i+3)*s+i+4:(i+3)*s+n],
				x[i+4:], z[i+4:], &c, &out)
			z0, z1, z2, z3 = z0+out[0], z1+out[1], z2+out[2], z3+out[3]
		}
		zb := z[i : i+4]
		zb[0] += z0
		zb[1] += z1
		zb[2] += z2
		zb[3] += z3
	}
	// The last n mod 4 rows (only in the last part): a triangle of at most 3×3.
	for ; i < hi; i++ {
		d := a.Data[i*a.Stride+i : i*a.Stride+n]
		z[i] += d[0] * x[i]
		for k := 1; k < len(d); k++ {
			z[i] += d[k] * x[i+k]
			z[i+k] += d[k] * x[i]
		}
	}
}
