package solver

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/fault"
)

// GridPaper names an algorithm's own paper grid in a grid search (engine.GridConfig.Grid).
const GridPaper = "paper"

// ParseGrid returns the grid named by s for the algorithm: GridPaper (or "") is the paper's
// grid; otherwise s is a list of key=values separated by ';', values a comma-separated
// list of numbers and ranges b^[lo..hi] (integer exponents), as in
//
//	eta=2^[-12..-4];lambda=0,2^[-10..-6]
func (spec Spec) ParseGrid(s string) (Grid, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == GridPaper {
		if len(spec.Grid.Keys) == 0 {
			return Grid{}, fault.Settingf("%s has no paper grid: give one, e.g. {Grid} 'key=1,2,3'", spec.Name)
		}
		return spec.Grid, nil
	}
	keys := spec.Params().Keys()
	var g Grid
	for part := range strings.SplitSeq(s, ";") {
		k, vs, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return Grid{}, fmt.Errorf("grid %q: %q is not key=values", s, part)
		}
		if !slices.Contains(keys, k) {
			return Grid{}, fmt.Errorf("grid: %w: unknown key %q for %s (valid: %s)", ErrParam, k, spec.Name, strings.Join(keys, ", "))
		}
		if slices.Contains(g.Keys, k) {
			return Grid{}, fmt.Errorf("grid %q: key %s given twice", s, k)
		}
		var vals []float64
		for v := range strings.SplitSeq(vs, ",") {
			r, err := parseGridValues(strings.TrimSpace(v))
			if err != nil {
				return Grid{}, fmt.Errorf("grid %s=%s: %w", k, vs, err)
			}
			vals = append(vals, r...)
		}
		g.Keys, g.Values = append(g.Keys, k), append(g.Values, vals)
	}
	return g, nil
}

// parseGridValues parses a number or a range b^[lo..hi].
func parseGridValues(v string) ([]float64, error) {
	if b, e, ok := strings.Cut(v, "^["); ok && strings.HasSuffix(e, "]") {
		lo, hi, ok := strings.Cut(strings.TrimSuffix(e, "]"), "..")
		base, err0 := strconv.ParseFloat(b, 64)
		l, err1 := strconv.Atoi(strings.TrimSpace(lo))
		h, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if !ok || err0 != nil || err1 != nil || err2 != nil || h < l || h-l > 1000 {
			return nil, fmt.Errorf("%q is not a range b^[lo..hi] with integers lo ≤ hi", v)
		}
		var out []float64
		for x := l; x <= h; x++ {
			out = append(out, math.Pow(base, float64(x)))
		}
		return out, nil
	}
	x, err := ParseNumber(v)
	if err != nil {
		return nil, fmt.Errorf("%q is not a number", v)
	}
	return []float64{x}, nil
}

// GridPoints returns the parameters of every point of grid (ParseGrid): the
// algorithm's defaults, the keys set in base (the caller's), then the point's own, each
// recorded as set (Params.IsSet).
func (spec Spec) GridPoints(base Params, grid string) ([]Params, error) {
	first, err := spec.ParamsWith(base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec.Name, err)
	}
	g, err := spec.ParseGrid(grid)
	if err != nil {
		return nil, err
	}
	points := g.Points()
	params := make([]Params, len(points))
	for i, pt := range points {
		p := first.Clone()
		if err := p.SetAll(pt); err != nil {
			return nil, fmt.Errorf("%s grid point %s: %w", spec.Name, strings.Join(pt, " "), err)
		}
		params[i] = p
	}
	return params, nil
}

// PaperPoints is GridPoints over the defaults (no base) where the algorithm has a paper
// grid or grid names one, and the defaults alone (one point) where grid is GridPaper
// (or "") and the algorithm has no paper grid: the points an experiment or auto's search
// tries for an algorithm by name.
func (spec Spec) PaperPoints(grid string) ([]Params, error) {
	if (grid == "" || grid == GridPaper) && len(spec.Grid.Keys) == 0 {
		return []Params{spec.Params()}, nil
	}
	return spec.GridPoints(Params{}, grid)
}
