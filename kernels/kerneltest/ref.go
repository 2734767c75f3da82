package kerneltest

import "math"

// The reference loops: plain Go on dense row-major slices, each returning the expected
// result and, element by element, the tolerance of the result from the magnitudes of its
// terms. They read a symmetric matrix in its upper triangle only, and do not read an
// output when beta is 0.

// refDot returns Σ x[i]·y[i] and its tolerance.
func refDot(x, y []float64) (want, tol float64) {
	var s, abs float64
	for i := range x {
		p := x[i] * y[i]
		s += p
		abs += math.Abs(p)
	}
	return s, tolerance(len(x), abs)
}

// refAxpy returns y + alpha·x.
func refAxpy(alpha float64, x, y []float64) (want, tol []float64) {
	want, tol = make([]float64, len(y)), make([]float64, len(y))
	for i := range y {
		p := alpha * x[i]
		want[i] = y[i] + p
		tol[i] = tolerance(1, math.Abs(y[i])+math.Abs(p))
	}
	return want, tol
}

// refScal returns alpha·x.
func refScal(alpha float64, x []float64) (want, tol []float64) {
	want, tol = make([]float64, len(x)), make([]float64, len(x))
	for i := range x {
		want[i] = alpha * x[i]
		tol[i] = tolerance(0, math.Abs(want[i]))
	}
	return want, tol
}

// refDotSparse returns Σ_k val[k]·y[idx[k]].
func refDotSparse(idx []int32, val, y []float64) (want, tol float64) {
	var s, abs float64
	for k, i := range idx {
		p := val[k] * y[i]
		s += p
		abs += math.Abs(p)
	}
	return s, tolerance(len(idx), abs)
}

// refAxpySparse returns y with y[idx[k]] += alpha·val[k]; elements not indexed must be
// unchanged (tolerance 0).
func refAxpySparse(alpha float64, idx []int32, val, y []float64) (want, tol []float64) {
	want, tol = append([]float64(nil), y...), make([]float64, len(y))
	for k, i := range idx {
		p := alpha * val[k]
		want[i] = y[i] + p
		tol[i] = tolerance(1, math.Abs(y[i])+math.Abs(p))
	}
	return want, tol
}

// accum is a running sum with the sum of its terms' magnitudes.
type accum struct{ s, abs float64 }

func (a *accum) add(p float64) {
	a.s += p
	a.abs += math.Abs(p)
}

// finish returns alpha·s + beta·y (alpha·s alone when beta is 0) and its tolerance for
// n terms.
func (a accum) finish(n int, alpha, beta, y float64) (want, tol float64) {
	want, abs := alpha*a.s, math.Abs(alpha)*a.abs
	if beta != 0 {
		want += beta * y
		abs += math.Abs(beta * y)
	}
	return want, tolerance(n, abs)
}

// refGemv returns alpha·A·x + beta·y, or alpha·Aᵀ·x + beta·y with trans, for an m×n A.
func refGemv(trans bool, alpha float64, a []float64, m, n int, x []float64, beta float64, y []float64) (want, tol []float64) {
	rows := make([]int32, m)
	for i := range rows {
		rows[i] = int32(i)
	}
	return refGemvRows(trans, alpha, a, n, rows, x, beta, y)
}

// refGemvRows is refGemv on the rows of A (n columns) listed in rows.
func refGemvRows(trans bool, alpha float64, a []float64, n int, rows []int32, x []float64, beta float64, y []float64) (want, tol []float64) {
	want, tol = make([]float64, len(y)), make([]float64, len(y))
	if !trans {
		for k, r := range rows {
			var acc accum
			for j := range n {
				acc.add(a[int(r)*n+j] * x[j])
			}
			want[k], tol[k] = acc.finish(n, alpha, beta, y[k])
		}
		return want, tol
	}
	acc := make([]accum, n)
	for k, r := range rows {
		for j := range n {
			acc[j].add(x[k] * a[int(r)*n+j])
		}
	}
	for j := range n {
		want[j], tol[j] = acc[j].finish(len(rows), alpha, beta, y[j])
	}
	return want, tol
}

// refSymv returns alpha·A·x + beta·y for the symmetric n×n A stored in its upper
// triangle.
func refSymv(alpha float64, a []float64, n int, x []float64, beta float64, y []float64) (want, tol []float64) {
	want, tol = make([]float64, n), make([]float64, n)
	for i := range n {
		var acc accum
		for j := range n {
			aij := a[min(i, j)*n+max(i, j)]
			acc.add(aij * x[j])
		}
		want[i], tol[i] = acc.finish(n, alpha, beta, y[i])
	}
	return want, tol
}

// refGer returns A + alpha·x·yᵀ for the len(x)×len(y) A.
func refGer(alpha float64, x, y, a []float64) (want, tol []float64) {
	n := len(y)
	want, tol = make([]float64, len(a)), make([]float64, len(a))
	for i := range x {
		for j := range n {
			p := alpha * x[i] * y[j]
			want[i*n+j] = a[i*n+j] + p
			tol[i*n+j] = tolerance(1, math.Abs(a[i*n+j])+math.Abs(p))
		}
	}
	return want, tol
}

// refSyr returns the upper triangle of A + alpha·x·xᵀ; the lower triangle of the result
// is A's (the check ignores it: it must be unchanged).
func refSyr(alpha float64, x, a []float64) (want, tol []float64) {
	n := len(x)
	want, tol = append([]float64(nil), a...), make([]float64, len(a))
	for i := range n {
		for j := i; j < n; j++ {
			p := alpha * x[i] * x[j]
			want[i*n+j] = a[i*n+j] + p
			tol[i*n+j] = tolerance(1, math.Abs(a[i*n+j])+math.Abs(p))
		}
	}
	return want, tol
}

// refSyrk returns the upper triangle of alpha·AᵀA + beta·C for the k×d A and d×d C.
func refSyrk(alpha float64, a []float64, k, d int, beta float64, c []float64) (want, tol []float64) {
	acc := make([]accum, d*d)
	for l := range k {
		row := a[l*d : (l+1)*d]
		for i := range d {
			ai := row[i]
			for j := i; j < d; j++ {
				acc[i*d+j].add(ai * row[j])
			}
		}
	}
	want, tol = append([]float64(nil), c...), make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			want[i*d+j], tol[i*d+j] = acc[i*d+j].finish(k, alpha, beta, c[i*d+j])
		}
	}
	return want, tol
}

// refSymm returns alpha·B·A + beta·C for the symmetric d×d A stored in its upper
// triangle and the k×d B and C: row i is alpha·A·B[i,:] + beta·C[i,:]. It mirrors the
// upper triangle into a full matrix first, then takes dot products of contiguous rows.
func refSymm(alpha float64, a []float64, d int, b []float64, k int, beta float64, c []float64) (want, tol []float64) {
	full := make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			full[i*d+j], full[j*d+i] = a[i*d+j], a[i*d+j]
		}
	}
	want, tol = make([]float64, k*d), make([]float64, k*d)
	for i := range k {
		bi := b[i*d : (i+1)*d]
		for j := range d {
			var acc accum
			for l, v := range full[j*d : (j+1)*d] {
				acc.add(bi[l] * v)
			}
			want[i*d+j], tol[i*d+j] = acc.finish(d, alpha, beta, c[i*d+j])
		}
	}
	return want, tol
}

// refRowDiff returns the rows A[pos[k],:] − A[neg[k],:] of the n×d A, exactly.
func refRowDiff(a []float64, d int, pos, neg []int32) []float64 {
	out := make([]float64, len(pos)*d)
	for k := range pos {
		for j := range d {
			out[k*d+j] = a[int(pos[k])*d+j] - a[int(neg[k])*d+j]
		}
	}
	return out
}

// refGather returns x[idx[k]] for each k, exactly.
func refGather(x []float64, idx []int32) []float64 {
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = x[i]
	}
	return out
}

// refScatterAdd returns y with y[idx[k]] += alpha·x[k] for distinct indices in any
// order; elements not indexed must be unchanged (tolerance 0).
func refScatterAdd(alpha float64, x []float64, idx []int32, y []float64) (want, tol []float64) {
	return refAxpySparse(alpha, idx, x, y)
}
