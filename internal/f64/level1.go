package f64

import "github.com/aucopt/aucopt/kernels"

// Dot returns Σ x[i]·y[i] for slices of equal length, summing with four accumulators in
// a fixed order.
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Axpy computes y[i] += alpha·x[i] for slices of equal length.
func Axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// Scal computes x[i] *= alpha (alpha = 0 multiplies: 0·NaN = NaN).
func Scal(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

// ScaleBeta sets y = beta·y, or y = 0 without reading y when beta is 0.
func ScaleBeta(beta float64, y []float64) {
	switch beta {
	case 0:
		clear(y)
	case 1:
	default:
		Scal(beta, y)
	}
}

// DotSparse returns the gather Σ_k x.Val[k]·y[x.Idx[k]], with two accumulators.
func DotSparse(x kernels.Sparse, y []float64) float64 {
	var s0, s1 float64
	idx := x.Idx
	n := len(idx)
	val := x.Val[:n]
	k := 0
	for ; k+2 <= n; k += 2 {
		s0 += val[k] * y[idx[k]]
		s1 += val[k+1] * y[idx[k+1]]
	}
	if k < n {
		s0 += val[k] * y[idx[k]]
	}
	return s0 + s1
}

// AxpySparse computes the scatter y[x.Idx[k]] += alpha·x.Val[k].
func AxpySparse(alpha float64, x kernels.Sparse, y []float64) {
	idx, val := x.Idx, x.Val[:len(x.Idx)]
	for k, i := range idx {
		y[i] += alpha * val[k]
	}
}

// Gather sets out[k] = x[idx[k]].
func Gather(x []float64, idx []int32, out []float64) {
	for k, i := range idx {
		out[k] = x[i]
	}
}

// ScatterAdd computes y[idx[k]] += alpha·x[k].
func ScatterAdd(alpha float64, x []float64, idx []int32, y []float64) {
	for k, i := range idx {
		y[i] += alpha * x[k]
	}
}
