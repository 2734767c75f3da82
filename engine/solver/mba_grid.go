package solver

import (
	"context"
	"fmt"
	"slices"

	"github.com/aucopt/aucopt/engine/data"
)

// GridFitter is a batch learner that fits a whole grid of its parameters from work
// shared between the points (MBA: one Σ_S for every (λ₁, λ₂)).
type GridFitter interface {
	// FitGrid fits one model per element of params (each made by the algorithm's
	// Spec.Params). ok is false, with nothing fitted, when the points differ in a
	// parameter the shared work depends on: the caller then fits them one by one. A
	// point that fails has a nil weight vector and its error in errs; err is for what
	// fails them all (the shared work, cancellation).
	FitGrid(ctx context.Context, ds *data.Dataset, params []Params) (ws [][]float64, errs []error, ok bool, err error)
}

// FitGrid samples the pairs once (the receiver's B, T and seed) and solves every
// (λ₁, λ₂) of params from the one Σ_S, in decreasing λ₁ so that each coordinate
// descent starts from a nearby solution (the λ path as the grid). It declines (ok =
// false) when the points differ in anything but lambda1 and lambda2.
func (m *MBA) FitGrid(ctx context.Context, ds *data.Dataset, params []Params) ([][]float64, []error, bool, error) {
	pens := make([][2]float64, len(params))
	for g, p := range params {
		pp, isMBA := p.ptr.(*MBAParams)
		if !isMBA {
			return nil, nil, false, nil
		}
		q := *pp
		q.Lambda1, q.Lambda2 = m.p.Lambda1, m.p.Lambda2
		if q != m.p {
			return nil, nil, false, nil
		}
		pens[g] = [2]float64{pp.Lambda1, pp.Lambda2}
	}
	ws, errs := make([][]float64, len(params)), make([]error, len(params))
	for g, pen := range pens {
		for k, key := range []string{"lambda1", "lambda2"} {
			if errs[g] == nil {
				errs[g] = Check(pen[k] >= 0, key, pen[k], "≥ 0")
			}
		}
		if m.ridge && pen[0] != 0 && errs[g] == nil {
			errs[g] = Check(false, "lambda1", pen[0], "0 for mba-l2")
		}
	}
	if err := m.accumulate(ctx, ds, nil); err != nil {
		return nil, nil, true, err
	}
	order := make([]int, len(params))
	for g := range order {
		order[g] = g
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case pens[a][0] > pens[b][0]:
			return -1
		case pens[a][0] < pens[b][0]:
			return 1
		}
		return 0
	})
	for _, g := range order {
		if errs[g] != nil {
			continue
		}
		if err := m.finish(m.solve(ctx, pens[g][0], pens[g][1])); err != nil {
			if ctx.Err() != nil {
				return nil, nil, true, ctx.Err()
			}
			errs[g] = fmt.Errorf("λ₁ = %g, λ₂ = %g: %w", pens[g][0], pens[g][1], err)
			continue
		}
		ws[g] = m.Weights()
	}
	return ws, errs, true, nil
}
