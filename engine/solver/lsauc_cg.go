package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// LSAUCDirectMax is the number of features up to which B-LS-SVM forms the class
// moments and solves the ORACLE system by Cholesky (O(d²) memory, O(n·d² + d³) time).
// Above it, where two d×d matrices would take gigabytes (8,192 features: 0.5 GB each)
// and the data are typically sparse text or hashed features, it solves the same system
// by conjugate gradients on the rows (fitCG): memory O(d + n), O(nnz) a step.
const LSAUCDirectMax = 8192

// lsaucCGTol is the relative residual ‖δ − (A + λI)w‖ ≤ lsaucCGTol·‖δ‖ at which fitCG
// stops: the ORACLE minimiser to about that relative accuracy.
const lsaucCGTol = 1e-8

// lsaucCGMaxIter bounds fitCG's steps; a system that needs more (a λ far too small for
// the data's conditioning) fails the fit rather than returning an unconverged iterate.
const lsaucCGMaxIter = 2000

// Costs of conjugate gradients first (cgFirstSteps), in multiply-adds of the direct
// solve's Syrk (about 42 GFMA/s on the development machine's two cores): a step of
// fusedProduct reads each dense value once at memory speed (16 multiply-adds' time a
// value: 0.039 s a step on 50,000 × 2,000); the two-pass product of sparse rows
// (DotSparse, then AxpySparse, a row at a time on one core, as stored) costs
// cgSparseValue a stored value and cgSparseRow a row (0.027 s a step on 300,000 hashed
// click-through rows of 22 values).
const (
	cgDenseValue  = 16
	cgSparseValue = 130
	cgSparseRow   = 1000
	// cgFirstMin is the fewest steps worth trying.
	cgFirstMin = 16
)

// cgFirstSteps is the number of conjugate-gradient steps B-LS-SVM tries on ds at d
// features before it forms the class moments (0: none): as many as cost half the
// moments' Syrk (n·d²/2 multiply-adds at the cores' arithmetic peak), when that is at
// least cgFirstMin. A well-conditioned system converges in them, and one that does not
// costs the direct solve about half again. The rows must be where a host backend reads
// them in place: dense rows it views (a step is one pass over them, fusedProduct; on
// the dense 50,000 × 2,000 set d/64 steps are tried and 11 needed), or sparse ones
// below data.DenseAuto (a step is O(nnz): on hashed click-through data, 8,192 buckets
// and 22 values a row, the Syrk densifies every row). A device backend keeps the direct
// solve: its Syrk is what the device is for.
func cgFirstSteps(b kernels.Backend, ds *data.Dataset, d int) int {
	return cgFirstStepsShape(b, ShapeOf(ds), d)
}

// Shape is what a batch learner's choice of method looks at in its training rows:
// their number, features, layout and stored values (ShapeOf), so that the choice can
// be made for rows not yet made (a scaled copy that a fit from the moments never
// makes: MomentsFit).
type Shape struct {
	Rows, Dim int
	Dense     bool
	Nnz       int64 // stored values (Rows·Dim when Dense)
}

// ShapeOf is ds's Shape.
func ShapeOf(ds *data.Dataset) Shape {
	return Shape{Rows: ds.Rows(), Dim: ds.Dim, Dense: ds.IsDense(), Nnz: int64(ds.Nnz())}
}

// cgFirstStepsShape is cgFirstSteps for rows of shape sh.
func cgFirstStepsShape(b kernels.Backend, sh Shape, d int) int {
	if _, view := b.(kernels.Viewer); !view || sh.Rows == 0 {
		return 0
	}
	n, fd := float64(sh.Rows), float64(d)
	density := 0.0 // as data.Dataset.Density
	if sh.Dim > 0 {
		density = float64(sh.Nnz) / (n * float64(sh.Dim))
	}
	var step float64
	switch {
	case sh.Dense && sh.Dim == d:
		step = cgDenseValue * n * fd
	case !sh.Dense && density < data.DenseAuto:
		step = cgSparseValue*float64(sh.Nnz) + cgSparseRow*n
	default:
		return 0
	}
	steps := n * fd * fd / 2 / (2 * step)
	if steps < cgFirstMin {
		return 0
	}
	return int(min(steps, lsaucCGMaxIter))
}

// wide reports whether the learner solves by conjugate gradients (more than
// LSAUCDirectMax features).
func (l *LSAUC) wide() bool { return l.dim > LSAUCDirectMax }

// fitCG fits by conjugate gradients: Steps of them when Steps > 0 (early stopping),
// else to the relative residual lsaucCGTol (the exact minimiser). It fails
// (ErrDiverged) when an exact solve does not converge in lsaucCGMaxIter steps.
func (l *LSAUC) fitCG(ctx context.Context, ds *data.Dataset) error {
	var steps []int
	if l.p.Steps > 0 {
		steps = []int{l.p.Steps}
	}
	err := l.cgPath(ctx, ds, steps, l.p.Steps == 0, cmp.Or(l.cgMaxIter, lsaucCGMaxIter), func(_ int, w []float64) { l.w = w })
	var nc *cgUnconverged
	if errors.As(err, &nc) {
		return fmt.Errorf("ls-auc: %w: conjugate gradients left a relative residual of %.2g after %d steps (λ = %g is too small for the data; a larger λ converges faster)",
			ErrDiverged, nc.resid, nc.steps, l.p.Lambda)
	}
	return err
}

// cgUnconverged is squareOp.cg's error when an exact solve has not reached lsaucCGTol in
// the steps it was allowed.
type cgUnconverged struct {
	resid float64 // the relative residual left
	steps int
}

func (e *cgUnconverged) Error() string {
	return fmt.Sprintf("conjugate gradients left a relative residual of %.2g after %d steps", e.resid, e.steps)
}

// cgPath solves (S₊ + S₋ + δδᵀ + λI) w = δ without forming a d×d matrix: squareOp.cg
// on ds's rows (as stored, whatever order a fit is asked to take them in: newSquareOp).
func (l *LSAUC) cgPath(ctx context.Context, ds *data.Dataset, steps []int, exact bool, maxIter int, at func(k int, w []float64)) error {
	err := newSquareOp(l.b, ds, l.dim, l.p.Lambda).cg(ctx, steps, exact, maxIter, at)
	if errors.Is(err, ErrDiverged) {
		return fmt.Errorf("ls-auc: %w", err)
	}
	return err
}

// cg runs Jacobi-preconditioned conjugate gradients on (A + λI) w = δ from w = 0. It
// calls at(k, w) with a copy of the iterate after k steps for each k of steps
// (ascending, positive; an iterate that converged earlier is the solution), and
// at(0, w) with the solution at the relative residual lsaucCGTol when exact is set (a
// *cgUnconverged error when that takes more than maxIter steps); it stops when nothing
// more is wanted. An iterate does not depend on the steps asked after it.
func (op *squareOp) cg(ctx context.Context, steps []int, exact bool, maxIter int, at func(k int, w []float64)) error {
	delta, diag := op.delta, op.diag
	d := len(delta)
	av := make([]float64, d)
	w := make([]float64, d)
	r := append([]float64(nil), delta...)
	z, p := make([]float64, d), make([]float64, d)
	for j := range z {
		z[j] = r[j] / diag[j]
	}
	copy(p, z)
	rz := hostDot(r, z)
	norm := math.Sqrt(hostDot(delta, delta))
	emit := func(k int) error {
		if !finite(w) {
			return fmt.Errorf("%w: the solution of the square-loss system is not finite", ErrDiverged)
		}
		at(k, slices.Clone(w))
		return nil
	}
	next := 0 // the next of steps to emit
	for it := 0; ; it++ {
		for next < len(steps) && steps[next] == it {
			if err := emit(it); err != nil {
				return err
			}
			next++
		}
		converged := math.Sqrt(hostDot(r, r)) <= lsaucCGTol*norm
		if converged {
			for ; next < len(steps); next++ {
				if err := emit(steps[next]); err != nil { // converged before: the solution
					return err
				}
			}
			if exact {
				return emit(0)
			}
			return nil
		}
		if next == len(steps) && !exact {
			return nil
		}
		if exact && it >= maxIter {
			return &cgUnconverged{resid: math.Sqrt(hostDot(r, r)) / norm, steps: it}
		}
		if it%16 == 15 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		op.apply(p, av)
		pap := hostDot(p, av)
		if !(pap > 0) {
			// p is in the matrix's null space (λ = 0): w is the solution in its range.
			clear(r)
			continue
		}
		alpha := rz / pap
		for j := range w {
			w[j] += alpha * p[j]
			r[j] -= alpha * av[j]
			z[j] = r[j] / diag[j]
		}
		rz1 := hostDot(r, z)
		beta := rz1 / rz
		rz = rz1
		for j := range p {
			p[j] = z[j] + beta*p[j]
		}
	}
}

// squareOp is the matrix S₊ + S₋ + δδᵀ + λI of a training set's rows as conjugate
// gradients use it, without forming it: the class means m₋, m₊ and δ = m₊ − m₋, its
// diagonal (the Jacobi preconditioner) and its product
//
//	(S₊ + S₋ + δδᵀ + λI) v = Σ_i x_i (x_i·v)/n_{c(i)} − m₊(m₊·v) − m₋(m₋·v) + δ(δ·v) + λv.
type squareOp struct {
	mean   [2][]float64 // [class] the means (0: negatives)
	delta  []float64
	diag   []float64 // the diagonal, 1 where it is not positive (a feature no row has, λ = 0)
	lambda float64
	// rowsProduct sets av = Σ_i x_i (x_i·v)/n_{c(i)}.
	rowsProduct func(v, av []float64)
}

// newSquareOp makes the operator of ds's rows at dimension d: from one pass over the
// rows for the means and the diagonal, and a product of one pass (dense rows the
// backend can view in place: fusedProduct) or two (batchRows: the scores, then their
// combination). It reads the rows as stored: the operator is a sum over all of them,
// which no order changes but for rounding, and a shuffled order made each sparse row a
// cache miss (300,000 hashed click-through rows: 0.20 against 0.025 s a product). So a
// fit by conjugate gradients is the same whatever order FitOrdered is given.
func newSquareOp(b kernels.Backend, ds *data.Dataset, d int, lambda float64) *squareOp {
	n := ds.Rows()
	pos, neg := ds.WeightSums()
	cw := [2]float64{1 / neg, 1 / pos} // [class] 1/n_c (1/W_c, the class's summed sample weights)
	sw := sampleWeights(ds)            // nil: every row weighs 1 (the unweighted bits)
	rowW := func(i int, c int8) float64 {
		if sw == nil {
			return cw[c]
		}
		return sw[i] * cw[c]
	}
	class := make([]int8, n)
	for i, y := range ds.Y {
		if y == 1 {
			class[i] = 1
		}
	}
	op := &squareOp{lambda: lambda}
	// The class means, and the diagonal of S₊ + S₋: Σ_i x_ij²/n_c − m_cj².
	sq := [2][]float64{make([]float64, d), make([]float64, d)}
	for c := range op.mean {
		op.mean[c] = make([]float64, d)
	}
	_, view := b.(kernels.Viewer)
	fused := view && ds.IsDense() && ds.Dim == d
	if fused {
		denseClassSums(ds, class, rowW, op.mean, sq)
	} else {
		for i := range n {
			c := class[i]
			wi := rowW(i, c)
			x := ds.Row(i)
			for q, j := range x.Idx {
				v := x.Val[q]
				op.mean[c][j] += v * wi
				sq[c][j] += v * v * wi
			}
		}
	}
	op.delta, op.diag = make([]float64, d), make([]float64, d)
	for j := range d {
		op.delta[j] = op.mean[1][j] - op.mean[0][j]
		op.diag[j] = sq[0][j] - op.mean[0][j]*op.mean[0][j] + sq[1][j] - op.mean[1][j]*op.mean[1][j] + op.delta[j]*op.delta[j] + lambda
		if !(op.diag[j] > 0) {
			op.diag[j] = 1 // a feature no row has (and λ = 0): its weight stays 0
		}
	}
	pass := newRowsPass(b, ds, d)
	scale := func(i int, s float64) float64 { return s * rowW(i, class[i]) }
	op.rowsProduct = func(v, av []float64) { pass.product(v, av, scale) }
	return op
}

// apply sets av = (S₊ + S₋ + δδᵀ + λI) v.
func (op *squareOp) apply(v, av []float64) {
	op.rowsProduct(v, av)
	mp, mn, dv := hostDot(op.mean[1], v), hostDot(op.mean[0], v), hostDot(op.delta, v)
	for j := range av {
		av[j] += -op.mean[1][j]*mp - op.mean[0][j]*mn + op.delta[j]*dv + op.lambda*v[j]
	}
}

// denseClassSums adds Σ_i x_ij·rowW(i, c) to mean[c][j] and Σ_i x_ij²·rowW(i, c) to
// sq[c][j] over ds's dense rows i of class c = class[i], in order: the sums of newSquareOp's general loop,
// bit for bit (each column in row order), on all cores, each taking a range of columns.
func denseClassSums(ds *data.Dataset, class []int8, rowW func(i int, c int8) float64, mean, sq [2][]float64) {
	d := ds.Dim
	parts := max(1, min(runtime.GOMAXPROCS(0), d/256))
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*d/parts, (p+1)*d/parts
		wg.Go(func() {
			for i, c := range class {
				x := ds.Dense[i*d+lo : i*d+hi]
				m, s, w := mean[c][lo:hi], sq[c][lo:hi], rowW(i, c)
				m, s = m[:len(x)], s[:len(x)]
				for j, v := range x {
					m[j] += v * w
					s[j] += v * v * w
				}
			}
		})
	}
	wg.Wait()
}

// FitGrid fits every point of an ls-auc grid whose points differ in lambda and steps:
// the points of one λ with Steps > 0 share one run of conjugate gradients (cgPath),
// each taking its iterate, as independent fits would bit for bit; those with Steps 0
// are fitted exactly (Fit) on their own. A grid of exact points alone, on data Fit
// solves from the class moments, shares one accumulation of the moments (the n·d²
// part), each point then solving its own system: the same bits as independent fits
// (fashion-mnist's 7-point λ grid: 3.7 s of fits, each accumulating the moments
// again). Otherwise, with no point stopping early, it declines (ok = false), so that
// the exact fits go on all cores (gridBatch).
func (l *LSAUC) FitGrid(ctx context.Context, ds *data.Dataset, params []Params) ([][]float64, []error, bool, error) {
	ps := make([]LSAUCParams, len(params))
	early := false
	for g, p := range params {
		pp, ok := p.ptr.(*LSAUCParams)
		if !ok {
			return nil, nil, false, nil
		}
		ps[g] = *pp
		early = early || pp.Steps > 0
	}
	if !early {
		if l.wide() || cgFirstSteps(l.b, ds, l.dim) > 0 {
			return nil, nil, false, nil
		}
		return l.fitLambdas(ctx, ds, ps)
	}
	if _, _, err := batchClasses("ls-auc", ds, l.dim); err != nil {
		return nil, nil, true, err
	}
	ws, errs := make([][]float64, len(params)), make([]error, len(params))
	done := make([]bool, len(params))
	for g := range ps {
		if done[g] {
			continue
		}
		if ps[g].Steps == 0 {
			one, err := NewLSAUC(l.b, l.dim, ps[g], 0)
			if err == nil {
				err = one.Fit(ctx, ds)
			}
			if ctx.Err() != nil {
				return nil, nil, true, ctx.Err()
			}
			if errs[g] = err; err == nil {
				ws[g] = one.Weights()
			}
			done[g] = true
			continue
		}
		// Every early-stopped point of this λ, from one path.
		lam := ps[g].Lambda
		var group, steps []int
		for h := range ps {
			if !done[h] && ps[h].Steps > 0 && ps[h].Lambda == lam {
				group, steps = append(group, h), append(steps, ps[h].Steps)
			}
		}
		slices.Sort(steps)
		steps = slices.Compact(steps)
		path, err := NewLSAUC(l.b, l.dim, LSAUCParams{Lambda: lam}, 0)
		if err != nil {
			return nil, nil, true, err
		}
		at := map[int][]float64{}
		err = path.cgPath(ctx, ds, steps, false, 0, func(k int, w []float64) { at[k] = w })
		if ctx.Err() != nil {
			return nil, nil, true, ctx.Err()
		}
		for _, h := range group {
			ws[h], errs[h], done[h] = at[ps[h].Steps], err, true
			if err != nil {
				ws[h] = nil
			}
		}
	}
	return ws, errs, true, nil
}

// fitLambdas is FitGrid for exact points on data solved from the class moments: the
// moments once, then each point's system (FitMoments), as Fit would solve it.
func (l *LSAUC) fitLambdas(ctx context.Context, ds *data.Dataset, ps []LSAUCParams) ([][]float64, []error, bool, error) {
	if _, _, err := batchClasses("ls-auc", ds, l.dim); err != nil {
		return nil, nil, true, err
	}
	pos, neg, err := classMoments(ctx, l.b, ds, nil, l.dim)
	if err != nil {
		return nil, nil, true, err
	}
	ws, errs := make([][]float64, len(ps)), make([]error, len(ps))
	for g, p := range ps {
		one, err := NewLSAUC(l.b, l.dim, p, 0)
		if err == nil {
			err = one.FitMoments(ctx, pos, neg)
		}
		if ctx.Err() != nil {
			return nil, nil, true, ctx.Err()
		}
		if errs[g] = err; err == nil {
			ws[g] = one.Weights()
		}
	}
	return ws, errs, true, nil
}

var _ GridFitter = (*LSAUC)(nil)
