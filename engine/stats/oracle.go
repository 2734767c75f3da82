package stats

import (
	"context"
	"errors"
	"fmt"

	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/mat"
)

// ErrSingular: the oracle's system has no unique solution (λ = 0 and the pairwise
// second moment is singular, for instance a feature constant over both classes).
var ErrSingular = errors.New("stats: square-loss system is singular (use λ > 0)")

// ErrEmptyClass: a class has no example, so there are no pairs.
var ErrEmptyClass = errors.New("stats: a class has no example")

// Problem is the pairwise square-loss problem of two classes, in the closed form that
// needs only their moments: δ = m₊ − m₋ and A = S₊ + S₋ + δδᵀ.
type Problem struct {
	Delta []float64     // δ
	A     *mat.SymDense // S₊ + S₋ + δδᵀ
	b     kernels.Backend
}

// NewProblem builds the problem from the positive and the negative class's moments.
// Solve factorises on their backend.
func NewProblem(pos, neg *Moments) (*Problem, error) {
	if pos.d != neg.d {
		return nil, fmt.Errorf("stats: class dimensions %d and %d differ", pos.d, neg.d)
	}
	if pos.n == 0 || neg.n == 0 {
		return nil, fmt.Errorf("%w (%d positives, %d negatives)", ErrEmptyClass, pos.n, neg.n)
	}
	if !(pos.w > 0) || !(neg.w > 0) {
		return nil, fmt.Errorf("%w of positive weight (the positives' weights sum to %g, the negatives' to %g)", ErrEmptyClass, pos.w, neg.w)
	}
	d := pos.d
	mp, mn := pos.Mean(), neg.Mean()
	delta := make([]float64, d)
	for i := range delta {
		delta[i] = mp[i] - mn[i]
	}
	// A's upper triangle, S₊ + S₋ + δδᵀ with S = scatter/n as Cov computes it, in the
	// storage of a mat.SymDense (row-major d×d; the lower triangle unused).
	// S₋ comes down a band of rows at a time, so that no second d×d matrix is held.
	a := make([]float64, d*d)
	pos.b.Download(a, pos.scatter)
	const band = 256
	sn := make([]float64, min(band, d)*d)
	cp, cn := 1/pos.w, 1/neg.w // 1/n_c without weights
	for i0 := 0; i0 < d; i0 += band {
		i1 := min(i0+band, d)
		neg.b.Download(sn[:(i1-i0)*d], neg.scatter.Slice(i0, i1, 0, d))
		for i := i0; i < i1; i++ {
			row, rn := a[i*d+i:(i+1)*d], sn[(i-i0)*d+i:(i-i0+1)*d]
			for k := range row {
				row[k] = row[k]*cp + rn[k]*cn + delta[i]*delta[i+k]
			}
		}
	}
	return &Problem{Delta: delta, A: mat.NewSymDense(d, a), b: pos.b}, nil
}

// Loss returns L(w) = ½[1 − 2w·δ + wᵀAw] + (λ/2)‖w‖², the mean pairwise square loss
// (each pair's (1 − w·(x₊ − x₋))², halved) plus the ℓ2 penalty.
func (p *Problem) Loss(w []float64, lambda float64) float64 {
	d := len(p.Delta)
	if len(w) != d {
		panic(fmt.Sprintf("stats: Loss: w has %d elements, want %d", len(w), d))
	}
	wv := mat.NewVecDense(d, w)
	var aw mat.VecDense
	aw.MulVec(p.A, wv)
	wd := mat.Dot(wv, mat.NewVecDense(d, p.Delta))
	return 0.5*(1-2*wd+mat.Dot(wv, &aw)) + 0.5*lambda*mat.Dot(wv, wv)
}

// Solve returns the exact minimiser w* of Loss, the solution of (A + λI) w = δ, by a
// Cholesky factorisation (CholeskySolve, blocked on the moments' backend). It returns
// ErrSingular when A + λI is not positive definite or its condition number exceeds
// 10¹⁴, and ctx's error when ctx ends before the factorisation does.
func (p *Problem) Solve(ctx context.Context, lambda float64) ([]float64, error) {
	if lambda < 0 {
		return nil, fmt.Errorf("stats: λ = %g, want λ ≥ 0", lambda)
	}
	raw := p.A.RawSymmetric()
	d := raw.N
	a := make([]float64, d*d)
	for i := range d {
		copy(a[i*d+i:(i+1)*d], raw.Data[i*raw.Stride+i:i*raw.Stride+d])
	}
	w, c, err := CholeskySolve(ctx, p.b, a, d, lambda, p.Delta)
	if err != nil {
		return nil, err
	}
	if c > 1e14 {
		return nil, fmt.Errorf("%w: condition number %.3g", ErrSingular, c)
	}
	return w, nil
}

// Oracle returns the exact minimiser of the regularised pairwise square loss of two
// classes from their moments: NewProblem(pos, neg) then Solve(ctx, lambda).
func Oracle(ctx context.Context, pos, neg *Moments, lambda float64) ([]float64, error) {
	p, err := NewProblem(pos, neg)
	if err != nil {
		return nil, err
	}
	return p.Solve(ctx, lambda)
}
