package solver

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/aucopt/aucopt/engine/data"
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

// wide reports whether the learner solves by conjugate gradients (more than
// LSAUCDirectMax features).
func (l *LSAUC) wide() bool { return l.dim > LSAUCDirectMax }

// fitCG fits by conjugate gradients: Steps of them when Steps > 0 (early stopping),
// else to the relative residual lsaucCGTol (the exact minimiser). It fails
// (ErrDiverged) when an exact solve does not converge in lsaucCGMaxIter steps.
func (l *LSAUC) fitCG(ctx context.Context, ds *data.Dataset, order []int) error {
	var steps []int
	if l.p.Steps > 0 {
		steps = []int{l.p.Steps}
	}
	return l.cgPath(ctx, ds, order, steps, l.p.Steps == 0, func(_ int, w []float64) { l.w = w })
}

// cgPath solves (S₊ + S₋ + δδᵀ + λI) w = δ without forming a d×d matrix: Jacobi-
// preconditioned conjugate gradients from w = 0, whose product with the matrix is two
// passes over the rows,
//
//	(S₊ + S₋ + δδᵀ + λI) v = Σ_i x_i (x_i·v)/n_{c(i)} − m₊(m₊·v) − m₋(m₋·v) + δ(δ·v) + λv,
//
// the rows taken in order (nil: as stored), so that a path over ds in order is the
// path over ds.Subset(order) bit for bit. The preconditioner is the matrix's diagonal,
// from one pass. It calls at(k, w) with a copy of the iterate after k steps for each
// k of steps (ascending, positive; an iterate that converged earlier is the solution),
// and at(0, w) with the solution at the relative residual lsaucCGTol when exact is set
// (ErrDiverged when that takes more than lsaucCGMaxIter steps); it stops when
// nothing more is wanted. An iterate does not depend on the steps asked after it.
func (l *LSAUC) cgPath(ctx context.Context, ds *data.Dataset, order []int, steps []int, exact bool, at func(k int, w []float64)) error {
	d, b := l.dim, l.b
	var rows []int32
	if order != nil {
		rows = make([]int32, len(order))
		for k, i := range order {
			rows[k] = int32(i)
		}
	}
	row := func(k int) int {
		if order != nil {
			return order[k]
		}
		return k
	}
	n := ds.Rows()
	pos, neg := ds.Counts()
	cw := [2]float64{1 / float64(neg), 1 / float64(pos)} // [class] 1/n_c
	coef := make([]float64, n)
	class := make([]int8, n)
	for k := range n {
		if ds.Y[row(k)] == 1 {
			class[k] = 1
		}
	}
	// The class means, and the diagonal of S₊ + S₋: Σ_i x_ij²/n_c − m_cj².
	var mean [2][]float64
	sq := [2][]float64{make([]float64, d), make([]float64, d)}
	for c := range mean {
		mean[c] = make([]float64, d)
	}
	for k := range n {
		c := class[k]
		x := ds.Row(row(k))
		for q, j := range x.Idx {
			v := x.Val[q]
			mean[c][j] += v * cw[c]
			sq[c][j] += v * v * cw[c]
		}
	}
	delta, diag := make([]float64, d), make([]float64, d)
	for j := range d {
		delta[j] = mean[1][j] - mean[0][j]
		diag[j] = sq[0][j] - mean[0][j]*mean[0][j] + sq[1][j] - mean[1][j]*mean[1][j] + delta[j]*delta[j] + l.p.Lambda
		if !(diag[j] > 0) {
			diag[j] = 1 // a feature no row has (and λ = 0): its weight stays 0
		}
	}
	rs := newBatchRows(b, ds, d)
	vv, gv := b.NewVec(d), b.NewVec(d)
	s := make([]float64, n)
	av := make([]float64, d)
	// apply sets av = (S₊ + S₋ + δδᵀ + λI) v.
	apply := func(v []float64) {
		b.Upload(vv, v)
		rs.scores(1, vv, rows, s)
		for k, sk := range s {
			coef[k] = sk * cw[class[k]]
		}
		rs.combine(1, rows, coef, 0, gv)
		b.Download(av, gv)
		mp, mn, dv := hostDot(mean[1], v), hostDot(mean[0], v), hostDot(delta, v)
		for j := range av {
			av[j] += -mean[1][j]*mp - mean[0][j]*mn + delta[j]*dv + l.p.Lambda*v[j]
		}
	}
	w := make([]float64, d)
	r := append([]float64(nil), delta...)
	z, p := make([]float64, d), make([]float64, d)
	for j := range z {
		z[j] = r[j] / diag[j]
	}
	copy(p, z)
	rz := hostDot(r, z)
	norm := math.Sqrt(hostDot(delta, delta))
	maxIter := cmp.Or(l.cgMaxIter, lsaucCGMaxIter)
	emit := func(k int) error {
		if !finite(w) {
			return fmt.Errorf("ls-auc: %w: the solution of the square-loss system is not finite", ErrDiverged)
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
			return fmt.Errorf("ls-auc: %w: conjugate gradients left a relative residual of %.2g after %d steps (λ = %g is too small for the data; a larger λ converges faster)",
				ErrDiverged, math.Sqrt(hostDot(r, r))/norm, maxIter, l.p.Lambda)
		}
		if it%16 == 15 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		apply(p)
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

// FitGrid fits every point of an ls-auc grid whose points differ in lambda and steps:
// the points of one λ with Steps > 0 share one run of conjugate gradients (cgPath),
// each taking its iterate, as independent fits would bit for bit; those with Steps 0
// are fitted exactly (Fit) on their own. It declines (ok = false) when no point stops
// early, so that the exact fits go on all cores (gridBatch).
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
		return nil, nil, false, nil
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
		err = path.cgPath(ctx, ds, nil, steps, false, func(k int, w []float64) { at[k] = w })
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

var _ GridFitter = (*LSAUC)(nil)
