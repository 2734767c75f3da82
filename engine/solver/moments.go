package solver

import (
	"context"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine/stats"
)

// MomentsLearner is a batch learner whose fit depends on the training set only through
// the per-class moments (count, mean, scatter): B-LS-SVM, and MBA with every pair. Such
// a learner trains from moments accumulated anywhere — streamed from a file larger
// than memory, or merged from shards on many machines (stats.ClassMoments).
type MomentsLearner interface {
	Batch
	// MomentsOnly reports whether the learner, with its parameters, needs only the
	// class moments; FitMoments fails when it does not.
	MomentsOnly() bool
	// FitMoments fits from the moments of the positive and of the negative class (of
	// dimension at most the learner's; missing trailing features are 0 in every row).
	FitMoments(ctx context.Context, pos, neg *stats.Moments) error
}

// MomentsFit returns l as a MomentsLearner when its fit on rows of shape sh would be
// classMoments then FitMoments, so that FitMoments on moments got elsewhere (those of
// other rows mapped by an affine scaling, stats.Moments.Affine) is the fit the rows
// themselves would give: the learner needs only the moments (MomentsOnly) and would
// not try conjugate gradients first on such rows (cgFirstSteps). ok is false
// otherwise.
func MomentsFit(l Batch, sh Shape) (ml MomentsLearner, ok bool) {
	switch l := l.(type) {
	case *LSAUC:
		return l, l.MomentsOnly() && cgFirstStepsShape(l.b, sh, l.dim) == 0
	case *MBA:
		return l, l.MomentsOnly() && (l.p.Lambda1 != 0 || cgFirstStepsShape(l.b, sh, l.dim) == 0)
	}
	return nil, false
}

var (
	_ MomentsLearner = (*LSAUC)(nil)
	_ MomentsLearner = (*MBA)(nil)
)

// MomentsOnly reports whether the learner uses every pair (Pairs = "all"), whose
// statistics are the class moments' closed form. ("auto" depends on the rows: see
// FitMoments.)
func (m *MBA) MomentsOnly() bool { return m.p.Pairs == MBAPairsAll }

// FitMoments fits MBA with every pair from the class moments: μ_N = δ and
// Σ_N = S₊ + S₋ + δδᵀ, then the learner's solve (Cholesky, or coordinate descent along
// the λ₁ path). It fails unless Pairs is "all", or "auto" on at most B·T rows.
func (m *MBA) FitMoments(ctx context.Context, pos, neg *stats.Moments) error {
	m.mu, m.sigma, m.sigmaDiag, m.info = nil, nil, nil, MBAInfo{}
	clear(m.w)
	if !m.p.allPairsFor(pos.N() + neg.N()) {
		return fmt.Errorf("%s: sampled pairs need the rows, not only the class moments (use pairs=all)", m.name)
	}
	if pos.Dim() > m.dim || neg.Dim() > m.dim {
		return fmt.Errorf("%s: moments of dimension %d, the learner %d", m.name, max(pos.Dim(), neg.Dim()), m.dim)
	}
	if pos.N() == 0 || neg.N() == 0 {
		return fmt.Errorf("%s: %w (%d positives, %d negatives)", m.name, ErrOneClass, pos.N(), neg.N())
	}
	if err := m.allPairs(pos.Resize(m.dim), neg.Resize(m.dim)); err != nil {
		return err
	}
	return m.fitSolve(ctx)
}

// allPairs sets μ_S = δ and Σ_S = S₊ + S₋ + δδᵀ (every pair's U-statistics) and m.info.
func (m *MBA) allPairs(pos, neg *stats.Moments) error {
	p, err := stats.NewProblem(pos, neg)
	if err != nil {
		return fmt.Errorf("%s: %w", m.name, err)
	}
	d := m.dim
	m.mu = p.Delta
	m.sigma = make([]float64, d*d)
	var lmax float64
	for i := range d {
		for j := i; j < d; j++ {
			v := p.A.At(i, j)
			m.sigma[i*d+j], m.sigma[j*d+i] = v, v
		}
		lmax = math.Max(lmax, math.Abs(m.mu[i]))
	}
	for i, v := range m.sigma {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: %w: Σ_N[%d,%d] = %v (non-finite feature values?)", m.name, ErrDiverged, i/d, i%d, v)
		}
	}
	m.info = MBAInfo{Pairs: pos.N() * neg.N(), LambdaMax: lmax}
	return nil
}
