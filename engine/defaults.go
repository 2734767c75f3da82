package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
)

// dataParams returns parameters of spec for training data with the given facts: the
// data-scaled defaults (solver.Spec.DataParams), with the keys set in given (the
// caller's, a grid point's) kept. The note names the parameters the data set, for the
// result's notes ("" when none did).
func dataParams(spec solver.Spec, facts solver.DataFacts, given solver.Params) (solver.Params, string, error) {
	static, err := spec.ParamsWith(given)
	if err != nil {
		return solver.Params{}, "", fmt.Errorf("%s: %w", spec.Name, err)
	}
	p, err := spec.DataParams(facts, given)
	if err != nil {
		return solver.Params{}, "", fmt.Errorf("%s: %w", spec.Name, err)
	}
	was, now := static.Values(), p.Values()
	var changed []string
	for _, k := range p.Keys() {
		if fmt.Sprint(was[k]) != fmt.Sprint(now[k]) {
			changed = append(changed, fmt.Sprintf("%s=%s", k, formatValue(now[k])))
		}
	}
	if len(changed) == 0 {
		return p, "", nil
	}
	slices.Sort(changed)
	return p, fmt.Sprintf("defaults scaled to the training data (%v): %s", facts, strings.Join(changed, " ")), nil
}

// setParams writes the keys set in p (solver.Params.IsSet) as sorted key=value pairs.
func setParams(p solver.Params) string {
	vals, set := p.Values(), map[string]any{}
	for _, k := range p.SetKeys() {
		set[k] = vals[k]
	}
	return formatParams(set)
}

// formatValue writes a parameter value as a key=value would give it.
func formatValue(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', 4, 64)
	}
	return fmt.Sprint(v)
}

// scaledParams is dataParams recording what the data set: the parameters in res.Params
// and the note in res.Notes (res may be nil).
func scaledParams(spec solver.Spec, facts solver.DataFacts, res *TrainResult, given solver.Params) (solver.Params, error) {
	p, note, err := dataParams(spec, facts, given)
	if err != nil {
		return solver.Params{}, err
	}
	if res != nil {
		res.Params = p.Values()
		if note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	return p, nil
}

// momentFacts are the DataFacts of the rows summarised by the class moments pos and
// neg: Σ‖x‖² = Σ_c n_c·(‖m_c‖² + tr S_c), S_c the biased covariance. Reading the traces
// downloads each class's d×d covariance once (the learners that fit from moments solve
// a d×d system anyway).
func momentFacts(pos, neg *stats.Moments) solver.DataFacts {
	f := solver.DataFacts{Rows: int(pos.N() + neg.N()), Features: pos.Dim(), Positives: int(pos.N())}
	if f.Rows == 0 {
		return f
	}
	var sum float64
	for _, m := range []*stats.Moments{pos, neg} {
		if m.N() == 0 {
			continue
		}
		var sq float64
		for _, v := range m.Mean() {
			sq += v * v
		}
		cov, d := m.Cov(), m.Dim()
		for j := range d {
			sq += cov[j*d+j]
		}
		sum += float64(m.N()) * sq
	}
	f.MeanSqNorm = sum / float64(f.Rows)
	return f
}
