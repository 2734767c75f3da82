package stats

import (
	"errors"
	"fmt"

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
}

// NewProblem builds the problem from the positive and the negative class's moments.
func NewProblem(pos, neg *Moments) (*Problem, error) {
	if pos.d != neg.d {
		return nil, fmt.Errorf("stats: class dimensions %d and %d differ", pos.d, neg.d)
	}
	if pos.n == 0 || neg.n == 0 {
		return nil, fmt.Errorf("%w (%d positives, %d negatives)", ErrEmptyClass, pos.n, neg.n)
	}
	d := pos.d
	mp, mn := pos.Mean(), neg.Mean()
	delta := make([]float64, d)
	for i := range delta {
		delta[i] = mp[i] - mn[i]
	}
	sp, sn := pos.Cov(), neg.Cov()
	a := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			a.SetSym(i, j, sp[i*d+j]+sn[i*d+j]+delta[i]*delta[j])
		}
	}
	return &Problem{Delta: delta, A: a}, nil
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
// Cholesky factorisation. It returns ErrSingular when A + λI is not positive definite.
func (p *Problem) Solve(lambda float64) ([]float64, error) {
	if lambda < 0 {
		return nil, fmt.Errorf("stats: λ = %g, want λ ≥ 0", lambda)
	}
	d := len(p.Delta)
	a := mat.NewSymDense(d, nil)
	a.CopySym(p.A)
	for i := range d {
		a.SetSym(i, i, a.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if ok := ch.Factorize(a); !ok {
		return nil, ErrSingular
	}
	if c := ch.Cond(); c > 1e14 {
		return nil, fmt.Errorf("%w: condition number %.3g", ErrSingular, c)
	}
	w := mat.NewVecDense(d, nil)
	if err := ch.SolveVecTo(w, mat.NewVecDense(d, p.Delta)); err != nil {
		return nil, fmt.Errorf("stats: solving the square-loss system: %w", err)
	}
	return w.RawVector().Data, nil
}

// Oracle returns the exact minimiser of the regularised pairwise square loss of two
// classes from their moments: NewProblem(pos, neg) then Solve(lambda).
func Oracle(pos, neg *Moments, lambda float64) ([]float64, error) {
	p, err := NewProblem(pos, neg)
	if err != nil {
		return nil, err
	}
	return p.Solve(lambda)
}
