package engine

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/kernels"
)

// Limits of the span reduction: it is tried up to spanMaxDim features (the covariance
// and its eigendecomposition are d×d) and used when it removes at least spanMinCut of
// the coordinates (a rotational learner's per-example cost is d², so 5% fewer
// coordinates save about 10%).
const (
	spanMaxDim = 2048
	spanMinCut = 0.05
	// spanTol is the relative size below which an eigenvalue of the covariance counts
	// as zero: exact linear dependencies among the features (one-hot groups) leave
	// eigenvalues at rounding level, about d·ε·λ_max.
	spanTol = 1e-12
)

// span is an orthonormal basis Q (d×r) of the span of a training part's centred rows,
// and their mean x̄. A rotational learner (solver.Spec.Rotational) trained on the
// coordinates Qᵀ(x − x̄) scores every row as one trained on x does, up to a constant.
type span struct {
	d, r int
	q    kernels.Mat // d×r on the backend
	mean []float64
}

// selectionData returns the rows a grid search of spec trains on: train itself, or for
// a rotational algorithm (solver.Spec.Rotational) the coordinates of train's rows in
// an orthonormal basis of their centred span, when that has at least 5% fewer
// dimensions (a9a's one-hot groups: 107 of 123). The learner then gives the same
// validation scores up to a constant, so the same AUCs, for less work.
func selectionData(b kernels.Backend, spec solver.Spec, train *data.Dataset) (*data.Dataset, error) {
	if !spec.Rotational {
		return train, nil
	}
	s, err := fitSpan(b, train)
	if err != nil || s == nil {
		return train, err
	}
	return s.apply(b, train)
}

// fitSpan returns the span of train's centred rows, or nil when it would not cut at
// least spanMinCut of the coordinates (or d is over spanMaxDim).
func fitSpan(b kernels.Backend, train *data.Dataset) (*span, error) {
	d := train.Dim
	if d > spanMaxDim || train.Rows() < 2 {
		return nil, nil
	}
	mo := stats.NewMoments(b, d)
	const block = 512
	buf := make([]float64, block*d)
	x := b.NewMat(block, d)
	for i0 := 0; i0 < train.Rows(); i0 += block {
		k := min(block, train.Rows()-i0)
		denseRows(train, i0, k, buf)
		xb := x.Slice(0, k, 0, d)
		b.Upload(xb, buf[:k*d])
		mo.AddBlock(xb)
	}
	cov := mo.Cov()
	var eig mat.EigenSym
	if !eig.Factorize(mat.NewSymDense(d, cov), true) {
		return nil, fmt.Errorf("span of the training rows: eigendecomposition of the %d×%d covariance did not converge", d, d)
	}
	vals := eig.Values(nil)
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
	}
	var keep []int
	for k, v := range vals {
		if v > spanTol*top {
			keep = append(keep, k)
		}
	}
	r := len(keep)
	if r == 0 || float64(r) > (1-spanMinCut)*float64(d) {
		return nil, nil
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	qh := make([]float64, d*r)
	for i := range d {
		for c, k := range keep {
			qh[i*r+c] = vecs.At(i, k)
		}
	}
	s := &span{d: d, r: r, q: b.NewMat(d, r), mean: mo.Mean()}
	b.Upload(s.q, qh)
	return s, nil
}

// apply returns ds in the span's coordinates Qᵀ(x − x̄): a dense dataset of r features
// with ds's labels, computed by one transposed Gemv per row (rows uploaded in blocks).
// Each coordinate vector is Σ_l (x − x̄)[l]·Q[l,:] summed over l in order, as the
// general matrix product the backends used to offer computed it, so the coordinates are
// the same bits as before.
func (s *span) apply(b kernels.Backend, ds *data.Dataset) (*data.Dataset, error) {
	d, r := s.d, s.r
	dense := make([]float64, ds.Rows()*r)
	const block = 512
	buf := make([]float64, block*d)
	x, y := b.NewMat(block, d), b.NewMat(block, r)
	for i0 := 0; i0 < ds.Rows(); i0 += block {
		k := min(block, ds.Rows()-i0)
		denseRows(ds, i0, k, buf)
		for i := range k {
			row := buf[i*d : (i+1)*d]
			for j, m := range s.mean {
				row[j] -= m
			}
		}
		xb, yb := x.Slice(0, k, 0, d), y.Slice(0, k, 0, r)
		b.Upload(xb, buf[:k*d])
		for i := range k {
			b.Gemv(true, 1, s.q, xb.Row(i), 0, yb.Row(i))
		}
		b.Download(dense[i0*r:(i0+k)*r], yb)
	}
	return data.NewDense(ds.Name, r, ds.Y, dense)
}

// denseRows writes rows [i0, i0+k) of ds into buf, row-major k×ds.Dim.
func denseRows(ds *data.Dataset, i0, k int, buf []float64) {
	d := ds.Dim
	clear(buf[:k*d])
	for i := range k {
		row := ds.Row(i0 + i)
		for n, j := range row.Idx {
			buf[i*d+int(j)] = row.Val[n]
		}
	}
}
