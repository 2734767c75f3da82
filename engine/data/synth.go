package data

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// Stream yields examples one at a time: a file Reader or a synthetic generator. The
// returned Example is valid until the next call; io.EOF ends the stream.
type Stream interface {
	Next() (*Example, error)
}

var _ Stream = (*Reader)(nil)

// Mixture is the MBA paper's simulation (Gultekin et al., Section V-A): each class is a
// mixture of unit-variance isotropic Gaussians in d dimensions whose means are scalars
// times the all-ones vector. Its Neyman–Pearson likelihood-ratio scorer is the optimal
// ranking, so its AUC is the best any learner can reach.
type Mixture struct {
	Dim     int
	PosFrac float64   // probability that a point is positive (the paper: about 0.1)
	Means   []float64 // component means (scalars: mean vector = Means[i]·1)
	PosW    []float64 // positive class component weights, summing to 1
	NegW    []float64 // negative class component weights
}

// MBAMixture returns the paper's k-component setting (k = 1, 2, 3; d = 100; 10%
// positive).
func MBAMixture(k int) (*Mixture, error) {
	m := &Mixture{Dim: 100, PosFrac: 0.1}
	switch k {
	case 1:
		// pos {+0.1}, neg {−0.1}: two components with one weight each
		m.Means, m.PosW, m.NegW = []float64{-0.1, 0.1}, []float64{0, 1}, []float64{1, 0}
	case 2:
		m.Means, m.PosW, m.NegW = []float64{-0.1, 0.1}, []float64{0.1, 0.9}, []float64{0.9, 0.1}
	case 3:
		m.Means, m.PosW, m.NegW = []float64{-0.1, 0, 0.1}, []float64{0.1, 0.1, 0.8}, []float64{0.8, 0.1, 0.1}
	default:
		return nil, fmt.Errorf("MBA mixture: k = %d, want 1, 2 or 3", k)
	}
	return m, nil
}

// Sample draws n labelled points (labels Bernoulli(PosFrac)) from the stream seed, as
// dense rows. The same seed gives the same points.
func (m *Mixture) Sample(n int, seed uint64) *Dataset {
	r := newRand(seed, 0x6d6978) // "mix"
	d := &Dataset{Name: fmt.Sprintf("mixture-k%d", len(m.Means)), Dim: m.Dim, Dense: make([]float64, 0, n*m.Dim)}
	d.setIndices()
	x := make([]float64, m.Dim)
	for range n {
		y, w := int8(-1), m.NegW
		if r.Float64() < m.PosFrac {
			y, w = 1, m.PosW
		}
		c := pick(r, w)
		for j := range x {
			x[j] = m.Means[c] + r.NormFloat64()
		}
		d.Append(y, float64(y), kernels.Sparse{Idx: d.allIdx, Val: x})
	}
	return d
}

// pick draws an index with probabilities w.
func pick(r *rand.Rand, w []float64) int {
	u := r.Float64()
	for i, p := range w {
		if u < p {
			return i
		}
		u -= p
	}
	return len(w) - 1 // rounding
}

// NPScore is the log likelihood ratio log p₊(x)/p₋(x). With s = Σ_j x_j each
// component's log density is, up to terms common to all, c·s − c²d/2.
func (m *Mixture) NPScore(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return m.logDensity(m.PosW, s) - m.logDensity(m.NegW, s)
}

func (m *Mixture) logDensity(w []float64, s float64) float64 {
	terms := make([]float64, 0, len(w))
	for i, wi := range w {
		if wi > 0 {
			c := m.Means[i]
			terms = append(terms, math.Log(wi)+c*s-c*c*float64(m.Dim)/2)
		}
	}
	top := slices.Max(terms)
	var sum float64
	for _, t := range terms {
		sum += math.Exp(t - top)
	}
	return top + math.Log(sum)
}

// LinearStream generates examples with a known linear ground truth, without holding
// them: row i is drawn from its own generator seeded by (Seed, i), so any row can be
// regenerated and a pass costs no memory. Features are standard normal (Nnz of them at
// distinct random indices per row for sparse data, all Dim when Nnz is 0); the label is
// +1 when w*·x + Noise·ε exceeds the threshold that makes PosFrac of the rows positive.
//
// EpsilonLike and News20Like are the sizes of the design card's workloads.
type LinearStream struct {
	Rows, Dim int
	Nnz       int     // non-zeros per row; 0 means dense
	PosFrac   float64 // share of positives, in (0, 1)
	Noise     float64 // standard deviation of the label noise
	Seed      uint64

	truth     []float64
	threshold float64
	next      int
	ex        Example
	dense     []int32 // 0..Dim−1, the indices of a dense row
	pcg       *rand.PCG
	rng       *rand.Rand // draws from pcg, reseeded for every row
}

// EpsilonLike is a dense stream of epsilon's size: 400,000 × 2,000.
func EpsilonLike(posFrac float64, seed uint64) *LinearStream {
	return &LinearStream{Rows: 400_000, Dim: 2_000, PosFrac: posFrac, Noise: 1, Seed: seed}
}

// News20Like is a sparse stream of news20's size: 1,355,191 features, about 450
// non-zeros per row (19,996 rows, as news20.binary).
func News20Like(posFrac float64, seed uint64) *LinearStream {
	return &LinearStream{Rows: 19_996, Dim: 1_355_191, Nnz: 450, PosFrac: posFrac, Noise: 1, Seed: seed}
}

// Truth returns the ground-truth weights w* (standard normal, drawn from Seed).
func (s *LinearStream) Truth() []float64 {
	s.init()
	return slices.Clone(s.truth)
}

func (s *LinearStream) init() {
	if s.truth != nil {
		return
	}
	r := newRand(s.Seed, 0x7472757468) // "truth"
	s.truth = make([]float64, s.Dim)
	var ww float64
	for j := range s.truth {
		s.truth[j] = r.NormFloat64()
		ww += s.truth[j] * s.truth[j]
	}
	// w*·x is normal with variance Σ over the row's features of w_j², i.e. about
	// ‖w*‖²·(Nnz/Dim) for sparse rows; the label threshold is its (1−PosFrac) quantile.
	frac := 1.0
	if s.Nnz > 0 {
		frac = float64(s.Nnz) / float64(s.Dim)
	}
	sd := math.Sqrt(ww*frac + s.Noise*s.Noise)
	s.threshold = sd * math.Sqrt2 * math.Erfinv(1-2*s.PosFrac)
	s.pcg = rand.NewPCG(0, 0)
	s.rng = rand.New(s.pcg)
	if s.Nnz == 0 {
		s.dense = make([]int32, s.Dim)
		for j := range s.dense {
			s.dense[j] = int32(j)
		}
	}
}

// Reset restarts the stream at row 0 (a new pass over the same rows).
func (s *LinearStream) Reset() { s.next = 0 }

// Next returns the next row, or io.EOF after Rows rows.
func (s *LinearStream) Next() (*Example, error) {
	s.init()
	if s.next >= s.Rows {
		return nil, io.EOF
	}
	s.Row(s.next, &s.ex)
	s.next++
	return &s.ex, nil
}

// Row generates row i into ex, reusing its storage (an Example must not be shared
// between streams: a dense stream's rows share one index slice). A LinearStream is
// not safe for concurrent use.
func (s *LinearStream) Row(i int, ex *Example) {
	s.init()
	s.pcg.Seed(s.Seed^0x726f77, uint64(i)) // "row"
	r := s.rng
	x := &ex.X
	if s.Nnz == 0 {
		x.Idx = s.dense
		x.Val = slices.Grow(x.Val[:0], s.Dim)[:s.Dim]
		for j := range x.Val {
			x.Val[j] = r.NormFloat64()
		}
	} else {
		x.Idx = slices.Grow(x.Idx[:0], s.Nnz)
		for len(x.Idx) < s.Nnz {
			for len(x.Idx) < s.Nnz {
				x.Idx = append(x.Idx, int32(r.IntN(s.Dim)))
			}
			slices.Sort(x.Idx)
			x.Idx = slices.Compact(x.Idx) // a repeat is redrawn
		}
		x.Val = slices.Grow(x.Val[:0], s.Nnz)[:s.Nnz]
		for k := range x.Val {
			x.Val[k] = r.NormFloat64()
		}
	}
	score := s.Noise * r.NormFloat64()
	for k, j := range x.Idx {
		score += s.truth[j] * x.Val[k]
	}
	ex.Y = -1
	if score > s.threshold {
		ex.Y = 1
	}
	ex.Label = float64(ex.Y)
	ex.Line = i + 1
}
