package solver

import (
	"context"
	"testing"
)

// TestMBAFitGrid: the grid from one Σ_S equals separate fits of every point (to the
// coordinate descent's tolerance), marks a bad point without failing the others, and
// declines points that differ in the sampling.
func TestMBAFitGrid(t *testing.T) {
	ds := gaussian(600, 12, 0.3, 1.5, 4)
	b := testBackends(t)[0]
	var params []Params
	for _, pen := range [][2]float64{{0, 1e-3}, {1e-3, 0}, {1e-2, 1e-3}, {-1, 0}, {3e-4, 1e-2}} {
		p := DefaultMBAELParams()
		p.Lambda1, p.Lambda2 = pen[0], pen[1]
		params = append(params, paramsOf(&p))
	}
	m, err := NewMBA(b, ds.Dim, *params[0].ptr.(*MBAParams), 9)
	if err != nil {
		t.Fatal(err)
	}
	ws, errs, ok, err := m.FitGrid(context.Background(), ds, params)
	if err != nil || !ok {
		t.Fatalf("FitGrid: ok %v, %v", ok, err)
	}
	for g, p := range params {
		pp := *p.ptr.(*MBAParams)
		if pp.Lambda1 < 0 {
			if errs[g] == nil || ws[g] != nil {
				t.Errorf("point %d (λ₁ < 0): error %v, weights %v", g, errs[g], ws[g])
			}
			continue
		}
		if errs[g] != nil {
			t.Fatalf("point %d: %v", g, errs[g])
		}
		lone, err := NewMBA(b, ds.Dim, pp, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := lone.Fit(context.Background(), ds); err != nil {
			t.Fatal(err)
		}
		if e := dist(ws[g], lone.Weights()); e > 1e-7 {
			t.Errorf("point %d (λ₁ %g, λ₂ %g): ‖w_grid − w_fit‖/‖w_fit‖ = %.3g", g, pp.Lambda1, pp.Lambda2, e)
		}
	}
	other := DefaultMBAELParams()
	other.B++
	if _, _, ok, err := m.FitGrid(context.Background(), ds, []Params{params[0], paramsOf(&other)}); ok || err != nil {
		t.Errorf("points with different B: ok %v, err %v; want a decline", ok, err)
	}
}
