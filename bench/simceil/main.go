// Command simceil computes what a pairwise linear learner can reach on the MBA paper's
// simulation (MBA Sec. V-A, Table II) from a training set of a given size: the
// population AUC of the class-mean difference w = m̂₊ − m̂₋, averaged over 400 simulated
// training sets of 200, 2,000 and 20,000 points (SR 1%, 10%, 100%), beside the best
// linear direction's AUC. A learner whose loss sees the rows only through differences
// x⁺ − x⁻ and is rotation-invariant (MBA-ℓ2) can learn no better direction from isotropic
// Gaussian classes; a pointwise learner (OLR) can also use the origin, about which the
// simulation's classes are symmetric, and is not bound by it. The AUC is exact for a
// given w (each component's score is normal), so only the training sets are sampled.
//
//	go run ./bench/simceil
//
// bench/results/explain.tsv cites its output for the mba-sim cells.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// phi is the standard normal CDF.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// mix is a Gaussian mixture of one class: its weights c and means mu (mean vector mu·1).
type mix struct{ c, mu []float64 }

// The MBA simulation (Sec. V-A): d = 100, identity covariances, 10% positives.
// problems are the classes (negative, positive) for k = 1, 2, 3 components.
var problems = [][2]mix{
	{{[]float64{1}, []float64{-0.1}}, {[]float64{1}, []float64{0.1}}},
	{{[]float64{0.9, 0.1}, []float64{-0.1, 0.1}}, {[]float64{0.1, 0.9}, []float64{-0.1, 0.1}}},
	{{[]float64{0.8, 0.1, 0.1}, []float64{-0.1, 0, 0.1}}, {[]float64{0.1, 0.1, 0.8}, []float64{-0.1, 0, 0.1}}},
}

// auc is the population AUC of the score w·x: the score of a component with mean mu·1
// is normal with mean mu·Σw and variance ‖w‖².
func auc(p [2]mix, sw, ww float64) float64 {
	var a float64
	for i, c1 := range p[1].c {
		for j, c0 := range p[0].c {
			a += c1 * c0 * phi((p[1].mu[i]-p[0].mu[j])*sw/math.Sqrt(2*ww))
		}
	}
	return a
}

// draw returns the mean of a component of m drawn by its weights.
func draw(rng *rand.Rand, m mix) float64 {
	u, acc := rng.Float64(), 0.0
	for i, c := range m.c {
		acc += c
		if u < acc {
			return m.mu[i]
		}
	}
	return m.mu[len(m.mu)-1]
}

func main() {
	const d, reps = 100, 400
	rng := rand.New(rand.NewPCG(1, 2))
	for k, p := range problems {
		best := auc(p, d, d) // w = 1, the best linear direction by symmetry
		for _, n := range []int{200, 2000, 20000} {
			var s, s2 float64
			for r := 0; r < reps; r++ {
				mp, mn := make([]float64, d), make([]float64, d)
				np_, nn := 0, 0
				for i := 0; i < n; i++ {
					m, c, cls := mn, &nn, 0
					if rng.Float64() < 0.1 {
						m, c, cls = mp, &np_, 1
					}
					*c++
					mu := draw(rng, p[cls])
					for j := range m {
						m[j] += rng.NormFloat64() + mu
					}
				}
				var sw, ww float64
				for j := 0; j < d; j++ {
					w := mp[j]/float64(np_) - mn[j]/float64(nn)
					sw += w
					ww += w * w
				}
				a := auc(p, sw, ww)
				s += a
				s2 += a * a
			}
			m := s / reps
			fmt.Printf("k=%d SR=%g%%: mean-difference rule %.4f ± %.4f (best linear %.4f)\n", k+1, float64(n)/200, m, math.Sqrt((s2-reps*m*m)/(reps-1)), best)
		}
	}
}
