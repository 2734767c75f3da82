package solver

import (
	"fmt"
	"math"
	"sync"

	"github.com/aucopt/aucopt/kernels"
)

// Multi trains several learners of one algorithm, one per grid point, on one stream:
// the grid search's whole grid in one pass. Each learner sees the examples in the
// same order as a lone learner of its parameters would, so its weights equal that
// learner's (bit for bit for the generic Multi; to rounding where an algorithm shares
// statistics between its grid points, as OPAUC does).
type Multi interface {
	// ObserveBlock learns from the examples xs[i], ys[i] in order, for every learner
	// that has not diverged.
	ObserveBlock(xs []kernels.Sparse, ys []int8)
	// Len is the number of learners (grid points).
	Len() int
	// Diverged reports the example count (1-based, within the stream fed so far) at
	// which learner g's score became non-finite, or 0 if it has not. A diverged learner
	// is no longer fed.
	Diverged(g int) int64
	// Weights returns a copy of learner g's weights.
	Weights(g int) []float64
}

// NewMulti returns a Multi over one learner of spec per parameter struct (each made by
// spec.Params). It uses the algorithm's shared implementation when it has one
// (Spec.NewMulti); otherwise it runs independent learners spread over workers
// goroutines (≤ 0: one per learner, at most 64), which must only be more than one on
// a backend that is safe for concurrent use (the CPU backends are).
func NewMulti(spec Spec, b kernels.Backend, dim int, params []any, seed uint64, workers int) (Multi, error) {
	if spec.IsBatch() {
		return nil, fmt.Errorf("%s is a batch algorithm: it has no one-pass grid", spec.Name)
	}
	if len(params) == 0 {
		return nil, fmt.Errorf("%s: %w: an empty grid", spec.Name, ErrParam)
	}
	if spec.NewMulti != nil {
		m, err := spec.NewMulti(b, dim, params, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Name, err)
		}
		return m, nil
	}
	m := &independent{learners: make([]Online, len(params)), diverged: make([]int64, len(params))}
	for g, p := range params {
		l, err := spec.NewOnline(b, dim, p, seed)
		if err != nil {
			return nil, fmt.Errorf("grid point %d: %w", g+1, err)
		}
		m.learners[g] = l
	}
	if workers <= 0 {
		workers = 64
	}
	m.workers = min(workers, len(params))
	return m, nil
}

// independent is the generic Multi: one learner per grid point, the learners split into
// contiguous groups that run concurrently over each block.
type independent struct {
	learners []Online
	diverged []int64
	seen     int64 // examples fed before the current block
	workers  int
}

func (m *independent) Len() int                { return len(m.learners) }
func (m *independent) Diverged(g int) int64    { return m.diverged[g] }
func (m *independent) Weights(g int) []float64 { return m.learners[g].Weights() }

func (m *independent) ObserveBlock(xs []kernels.Sparse, ys []int8) {
	run := func(lo, hi int) {
		for g := lo; g < hi; g++ {
			if m.diverged[g] != 0 {
				continue
			}
			l := m.learners[g]
			for i, x := range xs {
				if s := l.Observe(x, ys[i]); math.IsNaN(s) || math.IsInf(s, 0) {
					m.diverged[g] = m.seen + int64(i) + 1
					break
				}
			}
		}
	}
	n, w := len(m.learners), m.workers
	if w <= 1 {
		run(0, n)
	} else {
		var wg sync.WaitGroup
		for k := range w {
			wg.Go(func() { run(k*n/w, (k+1)*n/w) })
		}
		wg.Wait()
	}
	m.seen += int64(len(xs))
}
