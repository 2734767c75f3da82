package solver

import (
	"encoding"
	"fmt"
	"math"
	"slices"
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

// Forker is a Multi whose whole state can be copied, so that training streams that
// share a prefix share its work: the inner folds of a cross-validation, fed their
// blocks in a suitable order, train the shared prefix once, fork, and feed each copy
// only its own remainder.
type Forker interface {
	Multi
	// Fork returns an independent copy of the Multi in its current state: feeding
	// either afterwards does not affect the other, and the copy continues exactly as
	// the original would.
	Fork() (Multi, error)
}

// Dropper is a Multi whose grid points can be stopped early: a cross-validated grid
// search drops the points that already failed on another fold, since it can no longer
// choose them. A dropped point is no longer fed; its Weights are those it had when
// dropped, and its Diverged is unchanged.
type Dropper interface {
	Multi
	// Drop stops training grid point g (a no-op if it already stopped).
	Drop(g int)
}

// NewMulti returns a Multi over one learner of spec per element of params (each made by
// spec.Params). It uses the algorithm's shared implementation when it has one
// (Spec.NewMulti); otherwise it runs independent learners spread over workers
// goroutines (≤ 0: one per learner, at most 64), which must only be more than one on
// a backend that is safe for concurrent use (the CPU backends are).
func NewMulti(spec Spec, b kernels.Backend, dim int, params []Params, seed uint64, workers int) (Multi, error) {
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
	m.make = func(g int) (Online, error) {
		l, err := spec.NewOnline(b, dim, params[g], seed)
		if err != nil {
			return nil, fmt.Errorf("grid point %d: %w", g+1, err)
		}
		return l, nil
	}
	for g := range params {
		l, err := m.make(g)
		if err != nil {
			return nil, err
		}
		if err := refusePrePass(l, "the grid search"); err != nil {
			return nil, fmt.Errorf("%s: grid point %d: %w", spec.Name, g+1, err)
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
	make     func(g int) (Online, error) // a fresh learner for grid point g
	dropped  []bool                      // by grid point, once Drop was called
}

// Fork copies every learner through its checkpoint codec (MarshalBinary into a fresh
// learner's UnmarshalBinary), so the copies continue bit-identically.
func (m *independent) Fork() (Multi, error) {
	c := &independent{learners: make([]Online, len(m.learners)), diverged: slices.Clone(m.diverged),
		seen: m.seen, workers: m.workers, make: m.make, dropped: slices.Clone(m.dropped)}
	for g, l := range m.learners {
		enc, ok1 := l.(encoding.BinaryMarshaler)
		blob, err := []byte(nil), error(nil)
		if ok1 {
			blob, err = enc.MarshalBinary()
		}
		if !ok1 || err != nil {
			return nil, fmt.Errorf("fork grid point %d: learner %T cannot be copied: %v", g+1, l, err)
		}
		nl, err := m.make(g)
		if err != nil {
			return nil, err
		}
		dec, ok := nl.(encoding.BinaryUnmarshaler)
		if !ok {
			return nil, fmt.Errorf("fork grid point %d: learner %T cannot be restored", g+1, nl)
		}
		if err := dec.UnmarshalBinary(blob); err != nil {
			return nil, fmt.Errorf("fork grid point %d: %w", g+1, err)
		}
		c.learners[g] = nl
	}
	return c, nil
}

// Drop stops feeding learner g (solver.Dropper).
func (m *independent) Drop(g int) {
	if m.dropped == nil {
		m.dropped = make([]bool, len(m.learners))
	}
	m.dropped[g] = true
}

func (m *independent) Len() int                { return len(m.learners) }
func (m *independent) Diverged(g int) int64    { return m.diverged[g] }
func (m *independent) Weights(g int) []float64 { return m.learners[g].Weights() }

func (m *independent) ObserveBlock(xs []kernels.Sparse, ys []int8) {
	run := func(lo, hi int) {
		for g := lo; g < hi; g++ {
			if m.diverged[g] != 0 || m.dropped != nil && m.dropped[g] {
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

// LeaveOneOut trains one Multi per held-out block of a cross-validation: for each k in
// [0, blocks), a Multi fed every block but k, in increasing block order, handed to
// done(k, m). feed(m, j) feeds block j to m. The streams share their prefixes, so when
// the Multi is a Forker (every Multi NewMulti returns is) the work is done once per
// shared prefix: (blocks−1)(blocks+2)/2 block feeds instead of blocks·(blocks−1),
// 14 instead of 20 for 5 folds. Otherwise each Multi is trained from scratch by fresh.
// Before the shared prefix grows, prune (when not nil) is called on it, so that points
// a finished model disqualified can be dropped (Dropper) from the ones still to come.
// The first error of fresh, feed, Fork or done is returned.
func LeaveOneOut(blocks int, fresh func() (Multi, error), feed func(m Multi, j int) error, done func(k int, m Multi) error, prune func(m Multi)) error {
	state, err := fresh() // fed blocks [0, k) at the start of iteration k
	if err != nil {
		return err
	}
	for k := range blocks {
		if k == blocks-1 {
			return done(k, state)
		}
		var m Multi
		if f, ok := state.(Forker); ok {
			if m, err = f.Fork(); err != nil {
				return err
			}
		} else {
			if m, err = fresh(); err != nil {
				return err
			}
			for j := range k {
				if err := feed(m, j); err != nil {
					return err
				}
			}
		}
		for j := k + 1; j < blocks; j++ {
			if err := feed(m, j); err != nil {
				return err
			}
		}
		if err := done(k, m); err != nil {
			return err
		}
		if prune != nil {
			prune(state)
		}
		if err := feed(state, k); err != nil {
			return err
		}
	}
	return nil
}
