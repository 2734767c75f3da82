package solver

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// hidden hides a backend's optional capabilities (kernels.Viewer among them), so that a
// solver takes the path of a device backend: copies uploaded to it.
type hidden struct{ kernels.Backend }

// sameBits fails unless got and want hold the same bits.
func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for j := range want {
		if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
			t.Fatalf("%s[%d] = %v, want %v (the copying path's)", what, j, got[j], want[j])
		}
	}
}

// TestMBAViewsDenseData: on a host backend MBA gathers the pair differences from a
// view of the dataset's own dense matrix (no copy, whatever the resident limit), and
// Σ_S, μ_S and w are bit for bit those of the uploaded copy and of the host-built blocks.
func TestMBAViewsDenseData(t *testing.T) {
	ds := gaussian(301, 13, 0.3, 1, 7).WithLayout(data.LayoutDense)
	p := DefaultMBAELParams()
	p.B, p.T = 32, 12
	for _, b := range testBackends(t) {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", b.Name(), workers), func(t *testing.T) {
				fit := func(be kernels.Backend, limit int64) *MBA {
					m, err := NewMBA(be, ds.Dim, p, 5)
					if err != nil {
						t.Fatal(err)
					}
					m.SetWorkers(workers)
					m.SetResidentElements(limit)
					if err := m.Fit(context.Background(), ds); err != nil {
						t.Fatal(err)
					}
					return m
				}
				m := fit(b, 1) // a limit below n·d: a view all the same
				x := m.residentX(ds)
				if x == nil || &host.MatOf(x).Data[0] != &ds.Dense[0] {
					t.Fatalf("residentX on %s is not a view of the dataset's matrix", b.Name())
				}
				mu, sigma := m.Statistics()
				for _, ref := range []struct {
					name  string
					be    kernels.Backend
					limit int64
				}{{"uploaded copy", hidden{b}, 0}, {"host blocks", b, -1}} {
					o := fit(ref.be, ref.limit)
					omu, osigma := o.Statistics()
					sameBits(t, "μ_S vs "+ref.name, mu, omu)
					sameBits(t, "Σ_S vs "+ref.name, sigma, osigma)
					sameBits(t, "w vs "+ref.name, m.Weights(), o.Weights())
				}
			})
		}
	}
}

// TestSPDAMResidentLimit: on a host backend SPDAM holds X̄ whole at or below
// SPDAMResidentElements, and fits bit for bit the weights, iterations and gap of the
// resident X̄ on a device backend; above it (the limit lowered here to reach it) the rows
// stay implicit, and the fit agrees to rounding. Dense and sparse-but-full data, with
// batches of 1, a few, and all rows.
func TestSPDAMResidentLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		ds   *data.Dataset
	}{
		{"dense", gaussian(361, 9, 0.3, 1, 3).WithLayout(data.LayoutDense)},
		{"sparse", gaussian(203, 6, 0.6, 0.5, 4).ToSparse()},
	} {
		for _, b := range testBackends(t) {
			for _, m := range []float64{1, 37, float64(tc.ds.Rows())} {
				for _, resident := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/m=%g/resident=%v", tc.name, b.Name(), m, resident), func(t *testing.T) {
						p := DefaultSPDAMParams()
						p.M, p.Iters = m, 400
						fit := func(be kernels.Backend) *SPDAM {
							s, err := NewSPDAM(be, tc.ds.Dim, p, 2)
							if err != nil {
								t.Fatal(err)
							}
							if !resident {
								s.resident = int64(tc.ds.Rows())*int64(tc.ds.Dim) - 1
							}
							if err := s.Fit(context.Background(), tc.ds); err != nil {
								t.Fatal(err)
							}
							return s
						}
						got, want := fit(b), fit(hidden{b})
						gs, ws := got.Stats(), want.Stats()
						if resident {
							if gs != ws {
								t.Errorf("stats %+v, want %+v", gs, ws)
							}
							sameBits(t, "w", got.Weights(), want.Weights())
						} else {
							if gs.Iters != ws.Iters || math.Abs(gs.Gap-ws.Gap) > 1e-12 || math.Abs(gs.Kappa-ws.Kappa) > 1e-12*ws.Kappa {
								t.Errorf("stats %+v, want %+v to rounding", gs, ws)
							}
							if dd := dist(got.Weights(), want.Weights()); dd > 1e-10 {
								t.Errorf("weights at a relative distance %.2e from the resident X̄'s, want ≤ 1e-10", dd)
							}
						}
						// last: a new run resets the fit's statistics
						if r := got.newSPDAMRun(tc.ds, int(m)); (r.xbar != nil) != resident || (r.rows == nil) != resident {
							t.Errorf("%s holds X̄: %v, want %v", b.Name(), r.xbar != nil, resident)
						}
					})
				}
			}
		}
	}
}
