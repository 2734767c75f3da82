package solver

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// bruteHinge is the pairwise hinge risk, its plane offset and its subgradient's
// coefficients over all n₊n₋ pairs, by definition: pair (i, j) is violated when
// 1 − (s_i − s_j) > 0.
func bruteHinge(s []float64, y []int8) (r, b float64, gamma []float64) {
	gamma = make([]float64, len(s))
	var np, nn float64
	for _, v := range y {
		if v == 1 {
			np++
		} else {
			nn++
		}
	}
	for i := range s {
		if y[i] != 1 {
			continue
		}
		for j := range s {
			if y[j] != -1 {
				continue
			}
			if h := 1 - (s[i] - s[j]); h > 0 {
				r += h
				b++
				gamma[i] -= 1
				gamma[j] += 1
			}
		}
	}
	for k := range gamma {
		gamma[k] /= np * nn
	}
	return r / (np * nn), b / (np * nn), gamma
}

// TestRocHinge: the O(n log n) risk and subgradient equal the O(n₊n₋) sums, with
// ties among the scores and pairs exactly on the margin (scores on a grid of ½, where
// s_i − 1 is exact).
func TestRocHinge(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    []float64
		y    []int8
		n    int // random scores on the grid when s is nil
	}{
		{"one pair violated", []float64{0.5, 0}, []int8{1, -1}, 0},
		{"one pair on the margin", []float64{1, 0}, []int8{1, -1}, 0},
		{"one pair separated", []float64{2, 0}, []int8{1, -1}, 0},
		{"all tied", []float64{0, 0, 0, 0}, []int8{1, -1, 1, -1}, 0},
		{"reversed", []float64{-1, -2, 3, 4}, []int8{1, 1, -1, -1}, 0},
		{"margin ties", []float64{1, 1, 0, 0, 0.5, 2}, []int8{1, 1, -1, -1, -1, 1}, 0},
		{"random grid 50", nil, nil, 50},
		{"random grid 501", nil, nil, 501},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, y := tc.s, tc.y
			if s == nil {
				n := tc.n
				r := rand.New(rand.NewPCG(uint64(n), 1))
				s, y = make([]float64, n), make([]int8, n)
				for k := range s {
					s[k] = float64(r.IntN(13)-6) / 2
					y[k] = -1
					if k == 0 || (k > 1 && r.IntN(3) == 0) {
						y[k] = 1
					}
				}
			}
			gamma := make([]float64, len(s))
			r, b := rocHinge(s, y, gamma, &hingeScratch{})
			wr, wb, wg := bruteHinge(s, y)
			if math.Abs(r-wr) > 1e-12 || math.Abs(b-wb) > 1e-12 {
				t.Errorf("rocHinge: R = %v, b = %v; brute force %v, %v", r, b, wr, wb)
			}
			for k := range gamma {
				if math.Abs(gamma[k]-wg[k]) > 1e-12 {
					t.Errorf("gamma[%d] = %v, brute force %v", k, gamma[k], wg[k])
				}
			}
		})
	}
}

// svmorObjective is F(w) = (λ/2)‖w‖² + R(w) by the brute-force pair sum, with a
// subgradient.
func svmorObjective(ds *data.Dataset, w []float64, lambda float64) (float64, []float64) {
	s := make([]float64, ds.Rows())
	for i := range s {
		r := ds.Row(i)
		for k, j := range r.Idx {
			s[i] += w[j] * r.Val[k]
		}
	}
	risk, _, gamma := bruteHinge(s, ds.Y)
	g := make([]float64, len(w))
	var ww float64
	for j, v := range w {
		ww += v * v
		g[j] = lambda * v
	}
	for i := range s {
		r := ds.Row(i)
		for k, j := range r.Idx {
			g[j] += gamma[i] * r.Val[k]
		}
	}
	return 0.5*lambda*ww + risk, g
}

// TestSVMORObjective: on tiny data, B-SVM-OR's objective is within eps of the best
// point of a long subgradient run (step 1/(λt)), its reported objective and gap are
// honest, and the dual bound does not exceed the subgradient method's best value.
func TestSVMORObjective(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lambda float64
		eps    float64
	}{
		{"lambda=0.1", 0.1, 1e-4},
		{"lambda=0.01", 0.01, 1e-4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := randomSparse(40, 3, 0.4, 0.7, 11)
			m, err := NewSVMOR(fallback.New(), ds.Dim, SVMORParams{Lambda: tc.lambda, Eps: tc.eps, Iters: 500}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Fit(context.Background(), ds); err != nil {
				t.Fatal(err)
			}
			f, _ := svmorObjective(ds, m.Weights(), tc.lambda)
			if !m.Converged() || m.Gap() > tc.eps {
				t.Fatalf("converged %t, gap %.3g after %d planes", m.Converged(), m.Gap(), m.Iterations())
			}
			if math.Abs(f-m.Objective()) > 1e-12 {
				t.Errorf("reported objective %v, brute force %v", m.Objective(), f)
			}
			// a long subgradient run
			w := make([]float64, ds.Dim)
			best := math.Inf(1)
			for it := 1; it <= 100000; it++ {
				fw, g := svmorObjective(ds, w, tc.lambda)
				best = min(best, fw)
				for j := range w {
					w[j] -= g[j] / (tc.lambda * float64(it))
				}
			}
			t.Logf("svm-or F = %.7f (%d planes, gap %.2g); subgradient best %.7f", f, m.Iterations(), m.Gap(), best)
			if f > best+tc.eps {
				t.Errorf("F = %.7f, the subgradient method reached %.7f (ε = %g)", f, best, tc.eps)
			}
			if f-m.Gap() > best+1e-12 {
				t.Errorf("lower bound F − gap = %.7f exceeds a value reached, %.7f", f-m.Gap(), best)
			}
		})
	}
}

// TestSortScored: the radix sort orders keys as the floats do, whatever their signs,
// ties and zeros, above and below radixMin, and keeps every element.
func TestSortScored(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, radixMin - 1, radixMin, 1000, 5003} {
		a := make([]scored, n)
		for k := range a {
			switch r.IntN(5) {
			case 0:
				a[k].key = float64(r.IntN(7) - 3) // ties
			case 1:
				a[k].key = math.Copysign(0, float64(r.IntN(2)*2-1)) // ±0
			case 2:
				a[k].key = r.NormFloat64() * 1e-300
			default:
				a[k].key = r.NormFloat64() * math.Pow(10, float64(r.IntN(21)-10))
			}
			a[k].i = int32(k)
		}
		sorted, _ := sortScored(slices.Clone(a), nil)
		if len(sorted) != n {
			t.Fatalf("n = %d: %d elements back", n, len(sorted))
		}
		seen := make([]bool, n)
		for k, e := range sorted {
			if k > 0 && sorted[k-1].key > e.key {
				t.Fatalf("n = %d: keys %v then %v at %d", n, sorted[k-1].key, e.key, k)
			}
			if seen[e.i] || a[e.i].key != e.key {
				t.Fatalf("n = %d: element %d lost or altered", n, e.i)
			}
			seen[e.i] = true
		}
	}
}

// TestSVMORLineSearch: the line search's value is the minimum of φ(k) = F(w_b + k·Δ)
// over a fine grid of k (to the grid's resolution), and it never returns a point worse
// than w_b.
func TestSVMORLineSearch(t *testing.T) {
	ds := randomSparse(60, 4, 0.6, 0.5, 7)
	r := rand.New(rand.NewPCG(5, 6))
	lambda := 0.01
	score := func(w []float64) []float64 {
		s := make([]float64, ds.Rows())
		for i := range s {
			row := ds.Row(i)
			for k, j := range row.Idx {
				s[i] += w[j] * row.Val[k]
			}
		}
		return s
	}
	for trial := range 20 {
		wb, wc := make([]float64, ds.Dim), make([]float64, ds.Dim)
		for j := range wb {
			wb[j], wc[j] = r.NormFloat64(), r.NormFloat64()*3
		}
		f0, _ := svmorObjective(ds, wb, lambda)
		l := lineSearch{y: ds.Y, lambda: lambda, gamma: make([]float64, ds.Rows()), s: make([]float64, ds.Rows())}
		k, f := l.min(wb, wc, score(wb), score(wc), f0)
		w := make([]float64, ds.Dim)
		for j := range w {
			w[j] = wb[j] + k*(wc[j]-wb[j])
		}
		if fk, _ := svmorObjective(ds, w, lambda); math.Abs(fk-f) > 1e-9 || f > f0 {
			t.Fatalf("trial %d: φ(%v) = %v reported, %v by brute force; φ(0) = %v", trial, k, f, fk, f0)
		}
		best := f0
		for step := 1; step <= 4000; step++ {
			kk := float64(step) / 1000 // k in (0, 4]
			for j := range w {
				w[j] = wb[j] + kk*(wc[j]-wb[j])
			}
			fk, _ := svmorObjective(ds, w, lambda)
			best = min(best, fk)
		}
		if f > best+1e-6 {
			t.Errorf("trial %d: line search %.9f at k = %v, a grid of k reached %.9f", trial, f, k, best)
		}
	}
}
