package stats

import (
	"context"
	"math"
	"runtime"
	"sync"

	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// potrfBlock is the column block of Potrf: the trailing updates (rank-256 Syrks) run
// near the backend's peak, and the panels' triangular solves stay a small share.
const potrfBlock = 256

// Potrf overwrites the upper triangle of the d×d row-major a with U, a = UᵀU, and
// reports whether a is positive definite (the lower triangle is neither read nor
// written). Blocked, right-looking: each diagonal block is factorised by LAPACK's
// potrf and its panel solved by trsm (gonum, on the host), and the trailing matrix
// updated as A₂₂ −= U₁₂ᵀU₁₂ by b's Syrk on views of a (kernels.Viewer): nearly all of
// the d³/3 flops, on the kernels that accumulate the moments (d = 8,192: 42 s CPU with
// gonum's potrf, BLAS in pure Go; d = 2,000: 0.40 → 0.05 s). A backend without views (a
// device), or none, leaves the whole factorisation to potrf. ctx is checked before each
// column block (d = 8,192: 32 blocks of about 0.1 s each), so a deadline stops the
// factorisation within one block; it then returns ctx's error and a is left part-way.
func Potrf(ctx context.Context, b kernels.Backend, a []float64, d int) (bool, error) {
	v, ok := b.(kernels.Viewer)
	nb := potrfBlock
	if !ok {
		nb = d
	}
	var view kernels.Mat
	for k := 0; k < d; k += nb {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		kb := min(nb, d-k)
		u11, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Upper, N: kb, Stride: d, Data: a[k*d+k:]})
		if !ok {
			return false, nil
		}
		if k+kb == d {
			break
		}
		panelSolve(u11, a[k*d+k+kb:], kb, d-k-kb, d)
		if view == nil {
			view = v.ViewMat(d, d, a)
		}
		b.Syrk(-1, view.Slice(k, k+kb, k+kb, d), 1, view.Slice(k+kb, d, k+kb, d))
	}
	return true, nil
}

// panelSolve overwrites the kb × n panel p (row stride d) with U₁₁⁻ᵀp, by gonum's trsm
// on column stripes of p on every core: each column is solved alone, so the stripes give
// the whole call's bits (d = 8,192: 0.96 s of a single core's time in 31 panels).
func panelSolve(u11 blas64.Triangular, p []float64, kb, n, d int) {
	workers := min(runtime.GOMAXPROCS(0), n/panelStripe)
	if workers <= 1 {
		blas64.Trsm(blas.Left, blas.Trans, 1, u11, blas64.General{Rows: kb, Cols: n, Stride: d, Data: p})
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		c0, c1 := w*n/workers, (w+1)*n/workers
		wg.Go(func() {
			blas64.Trsm(blas.Left, blas.Trans, 1, u11, blas64.General{Rows: kb, Cols: c1 - c0, Stride: d, Data: p[c0:]})
		})
	}
	wg.Wait()
}

// panelStripe is the fewest columns of a panel worth a core of their own.
const panelStripe = 128

// CholeskySolve solves (A + λI) w = rhs for the symmetric d×d matrix A whose upper
// triangle the row-major a holds (a is overwritten: A + λI, then its factor U), by
// Potrf on b and two triangular solves. It returns ErrSingular when A + λI is not
// positive definite and ctx's error when ctx ends first; else w and the 1-norm condition
// number as LAPACK estimates it (pocon; what gonum's mat.Cholesky.Cond returns), for the
// caller to judge.
func CholeskySolve(ctx context.Context, b kernels.Backend, a []float64, d int, lambda float64, rhs []float64) (w []float64, cond float64, err error) {
	for i := range d {
		a[i*d+i] += lambda
	}
	sym := blas64.Symmetric{Uplo: blas.Upper, N: d, Stride: d, Data: a}
	anorm := lapack64.Lansy(mat.CondNorm, sym, make([]float64, d))
	if ok, err := Potrf(ctx, b, a, d); err != nil {
		return nil, 0, err
	} else if !ok {
		return nil, 0, ErrSingular
	}
	// The condition estimate (about ten triangular solves, each a pass over U) and the
	// solution's two run side by side: both only read U.
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: d, Stride: d, Data: a}
	var inv float64
	var wg sync.WaitGroup
	wg.Go(func() { inv = invNorm1(u) })
	w = append([]float64(nil), rhs...)
	x := blas64.Vector{N: d, Inc: 1, Data: w}
	blas64.Trsv(blas.Trans, u, x) // Uᵀy = rhs
	blas64.Trsv(blas.NoTrans, u, x)
	wg.Wait()
	cond = anorm * inv
	if math.IsNaN(cond) {
		cond = math.Inf(1)
	}
	return w, cond, nil
}
