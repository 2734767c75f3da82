package solver

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// rowCoef maps row i and its score s = x_i·v to the coefficient the row is added
// with. A rowsPass may call it from several goroutines at once, each row once, in no
// fixed order: it may write state of row i only.
type rowCoef func(i int, s float64) float64

// rowsPass is the product of the solvers that run on the rows of a training set
// without forming a d×d matrix (B-LS-SVM's conjugate gradients, Uni-Log's Newton
// steps):
//
//	product:  av = Σ_i x_i·coef(i, x_i·v)
//	scores:   s_i = x_i·v
//	combine:  av = Σ_i c_i·x_i
//
// in one pass over the rows, as stored: dense rows a host backend views in place
// (fusedProduct), sparse ones below data.DenseAuto in fixed parts on all cores
// (sparseProduct), anything else by batchRows (the scores, then their combination: a
// device backend's resident copy). The bits do not depend on the number of cores.
type rowsPass struct {
	product func(v, av []float64, coef rowCoef)
	scores  func(v, s []float64)
	combine func(c, av []float64)
}

// newRowsPass makes the pass over ds's rows at dimension d (≥ ds.Dim).
func newRowsPass(b kernels.Backend, ds *data.Dataset, d int) *rowsPass {
	n := ds.Rows()
	viewer, view := b.(kernels.Viewer)
	switch {
	case view && ds.IsDense() && ds.Dim == d:
		return fusedProduct(b, viewer.ViewMat(n, d, ds.Dense), n)
	case view && !ds.IsDense() && ds.Density() < data.DenseAuto:
		return sparseProduct(b, ds, d)
	}
	rs := newBatchRows(b, ds, d)
	vv, gv := b.NewVec(d), b.NewVec(d)
	s := make([]float64, n)
	return &rowsPass{
		product: func(v, av []float64, coef rowCoef) {
			b.Upload(vv, v)
			rs.scores(1, vv, nil, s)
			for k, sk := range s {
				s[k] = coef(k, sk)
			}
			rs.combine(1, nil, s, 0, gv)
			b.Download(av, gv)
		},
		scores: func(v, out []float64) {
			b.Upload(vv, v)
			rs.scores(1, vv, nil, out)
		},
		combine: func(c, av []float64) {
			rs.combine(1, nil, c, 0, gv)
			b.Download(av, gv)
		},
	}
}

// Parts of sparseProduct: at most sparseMaxParts of at least sparsePartRows rows, and
// no more than the rows' values a quarter of the partial sums' (each part's is d long,
// cleared and added up at each product): hashed click-through data (8,192 features, 22
// values a row) gets 8, wide text (news20's 1,355,191 features) one.
const (
	sparseMaxParts = 8
	sparsePartRows = 2048
)

// sparseParts is the number of parts sparseProduct splits n rows of d features with
// nnz values into. It depends on the data alone, not on the cores, so that the sums'
// bits do not.
func sparseParts(n, d, nnz int) int {
	return max(1, min(sparseMaxParts, n/sparsePartRows, nnz/(4*max(d, 1))))
}

// runParts calls part(p) for p = 0 … parts−1 on workers goroutines (taking the next
// part as each finishes).
func runParts(parts, workers int, part func(p int)) {
	if workers <= 1 {
		for p := range parts {
			part(p)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for p := int(next.Add(1)) - 1; p < parts; p = int(next.Add(1)) - 1 {
				part(p)
			}
		})
	}
	wg.Wait()
}

// sparseProduct returns the pass over ds's sparse rows: for the product, each row's
// score, then the row times its coefficient added to its part's partial sum while the
// row is in cache (DotSparse, AxpySparse). The parts (sparseParts, fixed ranges of
// rows) run on all cores when the backend is safe for concurrent calls, and their sums
// are added in part order, so the bits do not depend on the cores.
func sparseProduct(b kernels.Backend, ds *data.Dataset, d int) *rowsPass {
	n := ds.Rows()
	parts := sparseParts(n, d, ds.Nnz())
	workers := 1
	if kernels.ConcurrencyOf(b) == kernels.Safe {
		workers = min(parts, runtime.GOMAXPROCS(0))
	}
	vv, g := b.NewVec(d), b.NewVec(d)
	partial := make([]kernels.Vec, parts)
	for p := range partial {
		partial[p] = b.NewVec(d)
	}
	zeros := make([]float64, d)
	run := func(part func(p int)) { runParts(parts, workers, part) }
	sum := func(av []float64) {
		b.Upload(g, zeros)
		for _, gp := range partial {
			b.Axpy(1, gp, g)
		}
		b.Download(av, g)
	}
	return &rowsPass{
		product: func(v, av []float64, coef rowCoef) {
			b.Upload(vv, v)
			run(func(p int) {
				gp := partial[p]
				b.Upload(gp, zeros)
				for i := p * n / parts; i < (p+1)*n/parts; i++ {
					x := ds.Row(i)
					if c := coef(i, b.DotSparse(x, vv)); c != 0 {
						b.AxpySparse(c, x, gp)
					}
				}
			})
			sum(av)
		},
		combine: func(c, av []float64) {
			run(func(p int) {
				gp := partial[p]
				b.Upload(gp, zeros)
				for i := p * n / parts; i < (p+1)*n/parts; i++ {
					if c[i] != 0 {
						b.AxpySparse(c[i], ds.Row(i), gp)
					}
				}
			})
			sum(av)
		},
		scores: func(v, s []float64) {
			b.Upload(vv, v)
			run(func(p int) {
				for i := p * n / parts; i < (p+1)*n/parts; i++ {
					s[i] = b.DotSparse(ds.Row(i), vv)
				}
			})
		},
	}
}

// fusedBlockWork is the number of values in a block of rows of fusedProduct: enough
// for the backend to split each mat-vec over its cores, few enough (2 MB) that the
// block is still in cache for its second product.
const fusedBlockWork = 1 << 18

// fusedProduct returns the pass over the n rows of x (n×d, in place): for the product,
// block by block, the scores of a block of rows and then their combination, while the
// block is in cache. The block size is a multiple of four rows, so that a host backend
// groups the rows as one mat-vec over all of them would.
func fusedProduct(b kernels.Backend, x kernels.Mat, n int) *rowsPass {
	_, d := x.Dims()
	bs := min(max(4, (fusedBlockWork/d+3)&^3), n)
	vv, g := b.NewVec(d), b.NewVec(d)
	sv, tv := b.NewVec(bs), b.NewVec(bs)
	s := make([]float64, bs)
	var all kernels.Vec // n scores or coefficients, made at the first call of scores or combine
	whole := func() kernels.Vec {
		if all == nil {
			all = b.NewVec(n)
		}
		return all
	}
	return &rowsPass{
		product: func(v, av []float64, coef rowCoef) {
			b.Upload(vv, v)
			for lo := 0; lo < n; lo += bs {
				hi := min(lo+bs, n)
				xb, sk, tk, t := x.Slice(lo, hi, 0, d), sv.Slice(0, hi-lo), tv.Slice(0, hi-lo), s[:hi-lo]
				b.Gemv(false, 1, xb, vv, 0, sk)
				b.Download(t, sk)
				for q := range t {
					t[q] = coef(lo+q, t[q])
				}
				b.Upload(tk, t)
				beta := 1.0
				if lo == 0 {
					beta = 0
				}
				b.Gemv(true, 1, xb, tk, beta, g)
			}
			b.Download(av, g)
		},
		scores: func(v, out []float64) {
			b.Upload(vv, v)
			b.Gemv(false, 1, x, vv, 0, whole())
			b.Download(out, all)
		},
		combine: func(c, av []float64) {
			b.Upload(whole(), c)
			b.Gemv(true, 1, x, all, 0, g)
			b.Download(av, g)
		},
	}
}
