package solver

import (
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// gridParams makes one parameter struct per assignment list of g.
func gridParams(t *testing.T, spec Spec, g Grid) []Params {
	t.Helper()
	var out []Params
	for _, pt := range g.Points() {
		p := spec.Params()
		if err := p.SetAll(pt); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// feedMulti streams d through m in its row order, in blocks of block rows.
func feedMulti(m Multi, d *data.Dataset, block int) {
	xs, ys := make([]kernels.Sparse, 0, block), make([]int8, 0, block)
	for i := range d.Rows() {
		xs, ys = append(xs, d.Row(i)), append(ys, d.Y[i])
		if len(xs) == block || i == d.Rows()-1 {
			m.ObserveBlock(xs, ys)
			xs, ys = xs[:0], ys[:0]
		}
	}
}

// lone trains one learner of spec with params on d in row order, returning its weights
// and the 1-based example of divergence (0 if none).
func lone(t *testing.T, spec Spec, b kernels.Backend, d *data.Dataset, params Params) ([]float64, int64) {
	t.Helper()
	l, err := spec.NewOnline(b, d.Dim, params, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Rows() {
		if s := l.Observe(d.Row(i), d.Y[i]); math.IsNaN(s) || math.IsInf(s, 0) {
			return l.Weights(), int64(i) + 1
		}
	}
	return l.Weights(), 0
}

// TestMultiIndependent: the generic Multi's learners equal lone learners bit for bit,
// whatever the number of workers, and a diverging point is reported where a lone
// learner diverges.
func TestMultiIndependent(t *testing.T) {
	train, _ := a9a(t)
	train = train.Subset(data.Shuffle(train.Rows(), 3)[:3000])
	for _, tc := range []struct {
		algo string
		grid Grid
	}{
		{"spam-l2", Grid{Keys: []string{"eta", "beta"}, Values: [][]float64{{0.01, 0.1, 1e6}, {1e-4, 1e-2}}}},
		{"ubauc-online", Grid{Keys: []string{"eta"}, Values: [][]float64{{0.01, 0.5}}}},
		{"opaucr", Grid{Keys: []string{"eta", "tau"}, Values: [][]float64{{0x1p-10, 0x1p-6}, {4, 16}}}},
	} {
		spec, err := Lookup(tc.algo)
		if err != nil {
			t.Fatal(err)
		}
		b := testBackends(t)[0]
		params := gridParams(t, spec, tc.grid)
		for _, workers := range []int{1, 3} {
			spec := spec
			spec.NewMulti = nil
			m, err := NewMulti(spec, b, train.Dim, params, 7, workers)
			if err != nil {
				t.Fatal(err)
			}
			feedMulti(m, train, 256)
			for g, p := range params {
				want, div := lone(t, spec, b, train, p)
				if m.Diverged(g) != div {
					t.Errorf("%s point %d, %d workers: diverged at %d, lone learner at %d", tc.algo, g, workers, m.Diverged(g), div)
				}
				if div == 0 && !slices.Equal(m.Weights(g), want) {
					t.Errorf("%s point %d, %d workers: weights differ from a lone learner's", tc.algo, g, workers)
				}
			}
		}
	}
}

// TestOPAUCGrid: the shared-statistics OPAUC grid gives every grid point the weights
// of a lone OPAUC to rounding, retires diverging points without disturbing the others,
// and reports where they diverged as a lone OPAUC would.
func TestOPAUCGrid(t *testing.T) {
	train, _ := a9a(t)
	train = train.Subset(data.Shuffle(train.Rows(), 5)[:4000])
	spec, err := Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	grid := Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{{0x1p-12, 0x1p-6, 0x1p-2, 0x1p6}, {0x1p-10, 0x1p-2, 0}}}
	params := gridParams(t, spec, grid)
	for _, b := range testBackends(t) {
		m, err := NewMulti(spec, b, train.Dim, params, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		feedMulti(m, train, 100)
		var diverged int
		for g, p := range params {
			want, div := lone(t, spec, b, train, p)
			if (m.Diverged(g) == 0) != (div == 0) {
				t.Errorf("%s: point %v: grid diverged at %d, lone OPAUC at %d", b.Name(), grid.Points()[g], m.Diverged(g), div)
				continue
			}
			if div != 0 {
				diverged++
				continue
			}
			if e := dist(m.Weights(g), want); e > 1e-9 {
				t.Errorf("%s: point %v: ‖w_grid − w_lone‖/‖w_lone‖ = %.3g", b.Name(), grid.Points()[g], e)
			}
		}
		if diverged == 0 || diverged == len(params) {
			t.Errorf("%s: %d of %d points diverged; the grid should have both kinds", b.Name(), diverged, len(params))
		}
	}
}

// TestMultiErrors: an empty grid, a batch algorithm or a bad point is an error.
func TestMultiErrors(t *testing.T) {
	b := testBackends(t)[0]
	spec, _ := Lookup("opauc")
	if _, err := NewMulti(spec, b, 3, nil, 0, 1); err == nil {
		t.Error("empty grid: no error")
	}
	bad := spec.Params()
	if err := bad.Set("eta", "-1"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []Spec{spec, {Name: "x", NewOnline: spec.NewOnline, Params: spec.Params}} {
		if _, err := NewMulti(s, b, 3, []Params{spec.Params(), bad}, 0, 1); err == nil {
			t.Errorf("%s: a point with eta = −1: no error", s.Name)
		}
	}
}

// TestForkEveryAlgorithm: for every online algorithm, a Multi over two points of its
// grid forked halfway continues bit for bit as one fed the whole stream (the generic
// Multi copies its learners through their checkpoint codecs).
func TestForkEveryAlgorithm(t *testing.T) {
	train, head, tail := headTail(t, 8, 600, 250)
	b := testBackends(t)[0]
	for _, spec := range Registry() {
		if spec.IsBatch() {
			continue
		}
		pts := spec.Grid.Points()
		if len(pts) > 2 {
			pts = [][]string{pts[0], pts[len(pts)/2]}
		}
		var params []Params
		for _, pt := range pts {
			p := spec.Params()
			if err := p.SetAll(pt); err != nil {
				t.Fatal(err)
			}
			params = append(params, p)
		}
		if len(params) == 0 {
			params = []Params{spec.Params()}
		}
		whole, err := NewMulti(spec, b, train.Dim, params, 11, 1)
		if err != nil {
			t.Fatalf("%s: %v", spec.Name, err)
		}
		feedMulti(whole, train, 50)
		m, _ := NewMulti(spec, b, train.Dim, params, 11, 1)
		feedMulti(m, head, 50)
		f, err := m.(Forker).Fork()
		if err != nil {
			t.Errorf("%s: %v", spec.Name, err)
			continue
		}
		feedMulti(f, tail, 50)
		for g := range params {
			if f.Diverged(g) != whole.Diverged(g) || !sameFloats(f.Weights(g), whole.Weights(g)) {
				t.Errorf("%s point %d: the fork differs from one unforked stream", spec.Name, g)
			}
		}
	}
}

// TestFork: a fork continues exactly as its original — for OPAUC's shared grid and
// for the generic Multi (SPAM) — and feeding one does not disturb the other.
func TestFork(t *testing.T) {
	train, head, tail := headTail(t, 3, 1500, 700)
	for _, name := range []string{"opauc", "spam-l2"} {
		spec, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		var grid Grid
		if name == "opauc" {
			grid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{{0x1p-10, 0x1p-4, 0x1p4}, {0x1p-8, 0}}}
		} else {
			grid = Grid{Keys: []string{"eta"}, Values: [][]float64{{0x1p-6, 0x1p-2, 0x1p0}}}
		}
		params := gridParams(t, spec, grid)
		for _, b := range testBackends(t) {
			whole, _ := NewMulti(spec, b, train.Dim, params, 7, 2)
			feedMulti(whole, train, 64)
			m, _ := NewMulti(spec, b, train.Dim, params, 7, 2)
			feedMulti(m, head, 64)
			f, err := m.(Forker).Fork()
			if err != nil {
				t.Fatalf("%s/%s: %v", name, b.Name(), err)
			}
			feedMulti(f, tail, 64)
			feedMulti(m, tail, 64)
			for g := range params {
				if f.Diverged(g) != whole.Diverged(g) || m.Diverged(g) != whole.Diverged(g) {
					t.Errorf("%s/%s point %d: diverged at %d (fork), %d (original), %d (unforked)", name, b.Name(), g, f.Diverged(g), m.Diverged(g), whole.Diverged(g))
				}
				if !sameFloats(f.Weights(g), whole.Weights(g)) || !sameFloats(m.Weights(g), whole.Weights(g)) {
					t.Errorf("%s/%s point %d: the fork or its original differs from one unforked stream", name, b.Name(), g)
				}
			}
			// The original, fed again, leaves the fork alone.
			fw := f.Weights(0)
			feedMulti(m, head, 64)
			if !sameFloats(fw, f.Weights(0)) {
				t.Errorf("%s/%s: feeding the original changed the fork", name, b.Name())
			}
		}
	}
}

// sameFloats reports whether a and b are equal element by element, NaN equal to NaN
// (a diverged point's weights).
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

// headTail returns n random rows of a9a's training part (seeded) and their first cut
// rows and the rest, for feeding a stream in two parts.
func headTail(t *testing.T, seed uint64, n, cut int) (train, head, tail *data.Dataset) {
	t.Helper()
	all, _ := a9a(t)
	train = all.Subset(data.Shuffle(all.Rows(), seed)[:n])
	return train, train.Subset(seq(0, cut)), train.Subset(seq(cut, n))
}

// seq returns lo, lo+1, …, hi−1.
func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

// noFork hides a Multi's Fork, for LeaveOneOut's fallback.
type noFork struct{ Multi }

// TestLeaveOneOut: every held-out model equals a Multi trained from scratch on the
// other blocks in order, with (block−1)(blocks+2)/2 block feeds when the Multi forks
// and the from-scratch count without.
func TestLeaveOneOut(t *testing.T) {
	train, _ := a9a(t)
	train = train.Subset(data.Shuffle(train.Rows(), 4)[:1000])
	spec, _ := Lookup("opauc")
	params := gridParams(t, spec, Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{{0x1p-10, 0x1p-5, 0x1p3}, {0x1p-6}}})
	b := testBackends(t)[0]
	for _, blocks := range []int{1, 2, 5} {
		parts := make([]*data.Dataset, blocks)
		for j := range blocks {
			parts[j] = train.Subset(seq(j*1000/blocks, (j+1)*1000/blocks))
		}
		for _, fork := range []bool{true, false} {
			feeds, got := 0, make([]Multi, blocks)
			fresh := func() (Multi, error) {
				m, err := NewMulti(spec, b, train.Dim, params, 7, 1)
				if !fork {
					return noFork{m}, err
				}
				return m, err
			}
			err := LeaveOneOut(blocks, fresh, func(m Multi, j int) error {
				feeds++
				feedMulti(m, parts[j], 50)
				return nil
			}, func(k int, m Multi) error {
				if got[k] != nil {
					t.Errorf("block %d handed out twice", k)
				}
				got[k] = m
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := (blocks - 1) * (blocks + 2) / 2
			if !fork {
				want = blocks * (blocks - 1)
			}
			if feeds != want {
				t.Errorf("%d blocks, fork %v: %d block feeds, want %d", blocks, fork, feeds, want)
			}
			for k := range blocks {
				ref, _ := NewMulti(spec, b, train.Dim, params, 7, 1)
				for j := range blocks {
					if j != k {
						feedMulti(ref, parts[j], 50)
					}
				}
				for g := range params {
					if got[k].Diverged(g) != ref.Diverged(g) || !sameFloats(got[k].Weights(g), ref.Weights(g)) {
						t.Errorf("%d blocks, fork %v, held-out %d, point %d: differs from training from scratch", blocks, fork, k, g)
					}
				}
			}
		}
	}
}

// TestDrop: a dropped point keeps the weights it had and is reported as not diverged;
// the other points continue exactly as without the drop.
func TestDrop(t *testing.T) {
	train, head, tail := headTail(t, 6, 1200, 500)
	for _, name := range []string{"opauc", "spam-l2"} {
		spec, _ := Lookup(name)
		grid := Grid{Keys: []string{"eta"}, Values: [][]float64{{0x1p-10, 0x1p-7, 0x1p-4}}}
		params := gridParams(t, spec, grid)
		b := testBackends(t)[0]
		ref, _ := NewMulti(spec, b, train.Dim, params, 7, 1)
		feedMulti(ref, train, 64)
		m, _ := NewMulti(spec, b, train.Dim, params, 7, 1)
		feedMulti(m, head, 64)
		atDrop := m.Weights(1)
		m.(Dropper).Drop(1)
		feedMulti(m, tail, 64)
		if !sameFloats(m.Weights(1), atDrop) || m.Diverged(1) != 0 {
			t.Errorf("%s: the dropped point moved or is reported diverged (%d)", name, m.Diverged(1))
		}
		for _, g := range []int{0, 2} {
			if !sameFloats(m.Weights(g), ref.Weights(g)) {
				t.Errorf("%s: point %d changed when point 1 was dropped", name, g)
			}
		}
	}
}
