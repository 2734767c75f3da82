package solver

import (
	"cmp"
	"context"
	"fmt"
	"math"

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

// fitCG solves (S₊ + S₋ + δδᵀ + λI) w = δ without forming a d×d matrix: Jacobi-
// preconditioned conjugate gradients whose product with the matrix is two passes over
// the rows,
//
//	(S₊ + S₋ + δδᵀ + λI) v = Σ_i x_i (x_i·v)/n_{c(i)} − m₊(m₊·v) − m₋(m₋·v) + δ(δ·v) + λv,
//
// the rows taken in order (nil: as stored), so that fitCG(ds, order) is fitCG of
// ds.Subset(order) bit for bit. The preconditioner is the matrix's diagonal, from one
// pass. It fails (ErrDiverged) when CG does not reach lsaucCGTol in lsaucCGMaxIter
// steps.
func (l *LSAUC) fitCG(ctx context.Context, ds *data.Dataset, order []int) error {
	d, b := l.dim, l.b
	var rows []int32
	if order != nil {
		rows = make([]int32, len(order))
		for k, i := range order {
			rows[k] = int32(i)
		}
	}
	at := func(k int) int {
		if order != nil {
			return order[k]
		}
		return k
	}
	n := ds.Rows()
	pos, neg := ds.Counts()
	cw := [2]float64{1 / float64(neg), 1 / float64(pos)} // [class] 1/n_c
	coef := make([]float64, n)                           // per row in order: 1/n_c, then the products' coefficients
	class := make([]int8, n)
	for k := range n {
		if ds.Y[at(k)] == 1 {
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
		x := ds.Row(at(k))
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
	stop := lsaucCGTol * math.Sqrt(hostDot(delta, delta))
	maxIter := cmp.Or(l.cgMaxIter, lsaucCGMaxIter)
	for it := 1; ; it++ {
		if math.Sqrt(hostDot(r, r)) <= stop {
			break
		}
		if it > maxIter {
			return fmt.Errorf("ls-auc: %w: conjugate gradients left a relative residual of %.2g after %d steps (λ = %g is too small for the data; a larger λ converges faster)",
				ErrDiverged, math.Sqrt(hostDot(r, r))/math.Sqrt(hostDot(delta, delta)), maxIter, l.p.Lambda)
		}
		if it%16 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		apply(p)
		pap := hostDot(p, av)
		if !(pap > 0) {
			break // p is in the matrix's null space (λ = 0): w is the solution in its range
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
	if !finite(w) {
		return fmt.Errorf("ls-auc: %w: the solution of the square-loss system is not finite", ErrDiverged)
	}
	l.w = w
	return nil
}
