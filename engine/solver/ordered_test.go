package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// TestFitOrdered: FitOrdered(ds, order) gives Fit(ds.Subset(order))'s weights bit for
// bit, on dense and sparse rows (more than a block of each class), and ReadsInPlace says
// which learners read the rows where they lie.
func TestFitOrdered(t *testing.T) {
	sparse := randomSparse(1500, 9, 0.3, 0.5, 3)
	for _, b := range testBackends(t) {
		for _, tc := range []struct {
			name    string
			make    func(b kernels.Backend, d int) (OrderedBatch, error)
			inPlace bool
		}{
			{"ls-auc", func(b kernels.Backend, d int) (OrderedBatch, error) {
				return NewLSAUC(b, d, LSAUCParams{Lambda: 1e-3}, 0)
			}, true},
			{"mba-l2/all", func(b kernels.Backend, d int) (OrderedBatch, error) {
				p := DefaultMBAL2Params()
				p.Lambda2, p.Pairs = 1e-3, MBAPairsAll
				return NewMBA(b, d, p, 5)
			}, true},
			{"mba-l2/auto-below-B·T", func(b kernels.Backend, d int) (OrderedBatch, error) {
				p := mbaParams(100, 20, 0, 1e-3)
				p.Pairs = MBAPairsAuto
				return NewMBA(b, d, p, 5)
			}, true},
			{"mba-el/sampled", func(b kernels.Backend, d int) (OrderedBatch, error) {
				return NewMBA(b, d, mbaParams(10, 20, 1e-3, 1e-3), 5)
			}, true},
			{"mba-l2/sampled", func(b kernels.Backend, d int) (OrderedBatch, error) {
				return NewMBA(b, d, mbaParams(10, 20, 0, 1e-3), 5)
			}, true},
		} {
			for _, ds := range []*data.Dataset{sparse, sparse.ToDense()} {
				layout := "sparse"
				if ds.IsDense() {
					layout = "dense"
				}
				t.Run(b.Name()+"/"+tc.name+"/"+layout, func(t *testing.T) {
					order := data.Shuffle(ds.Rows(), 11)
					want, err := tc.make(b, ds.Dim)
					if err != nil {
						t.Fatal(err)
					}
					if err := want.Fit(context.Background(), ds.Subset(order)); err != nil {
						t.Fatal(err)
					}
					got, err := tc.make(b, ds.Dim)
					if err != nil {
						t.Fatal(err)
					}
					if got.ReadsInPlace(ds.Rows()) != tc.inPlace {
						t.Errorf("ReadsInPlace(%d) = %t, want %t", ds.Rows(), !tc.inPlace, tc.inPlace)
					}
					if err := got.FitOrdered(context.Background(), ds, order); err != nil {
						t.Fatal(err)
					}
					if w0, w := want.Weights(), got.Weights(); !slices.Equal(w, w0) {
						t.Errorf("FitOrdered's weights differ from Fit on the copy (max |Δ| %g)", maxAbs(sub(w, w0)))
					}
					if err := got.FitOrdered(context.Background(), ds, nil); err != nil {
						t.Fatal(err)
					}
					if slices.Equal(got.Weights(), want.Weights()) {
						t.Error("FitOrdered in the stored order gave the shuffled order's weights bit for bit: the order was not used")
					}
				})
			}
		}
	}
}

// TestFillBlock: a block densified on several cores (past fillBlockParallel values) is
// the one-core block, from dense and from sparse rows, in a shuffled order.
func TestFillBlock(t *testing.T) {
	sparse := randomSparse(600, 900, 0.3, 0.5, 9) // 550 rows × 905: 3 parts on 3 cores
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, ds := range []*data.Dataset{sparse, sparse.ToDense()} {
		rows := data.Shuffle(ds.Rows(), 3)[:550]
		d := ds.Dim + 5 // wider than the rows: the tail must be zeros
		runtime.GOMAXPROCS(1)
		want := make([]float64, len(rows)*d)
		for i := range want {
			want[i] = math.NaN() // every element must be written
		}
		fillBlock(want, ds, rows, d)
		runtime.GOMAXPROCS(3)
		got := make([]float64, len(rows)*d)
		for i := range got {
			got[i] = math.NaN()
		}
		fillBlock(got, ds, rows, d)
		if !slices.Equal(got, want) {
			t.Errorf("dense=%t: the block filled on 3 cores differs from the one-core block", ds.IsDense())
		}
		for q, i := range rows[:5] {
			r := ds.Row(i)
			for k, j := range r.Idx {
				if want[q*d+int(j)] != r.Val[k] {
					t.Fatalf("dense=%t: block row %d feature %d is %v, row %d's value %v", ds.IsDense(), q, j, want[q*d+int(j)], i, r.Val[k])
				}
			}
		}
	}
}

// TestMBASparseWorkers: the sparse path's rows of Σ_S split among the cores give the
// weights of one goroutine, bit for bit, for any GOMAXPROCS.
func TestMBASparseWorkers(t *testing.T) {
	ds := randomSparse(600, 1200, 0.3, 0.5, 9) // d/256 ≥ 4 workers' worth of rows
	for _, b := range testBackends(t) {
		if _, host := b.(kernels.Viewer); !host {
			continue
		}
		t.Run(b.Name(), func(t *testing.T) { mbaSparseWorkers(t, b, ds) })
	}
}

// mbaSparseWorkers is TestMBASparseWorkers on backend b.
func mbaSparseWorkers(t *testing.T, b kernels.Backend, ds *data.Dataset) {
	var want []float64
	for _, procs := range []int{1, 2, 3, 4} {
		old := runtime.GOMAXPROCS(procs)
		m, err := NewMBA(b, ds.Dim, mbaParams(20, 10, 0, 1e-2), 5)
		if err == nil {
			err = m.Fit(context.Background(), ds)
		}
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if m.Info().Solver == "cg" {
			t.Fatal("fitted by conjugate gradients: the test needs sampled pairs")
		}
		if want == nil {
			want = m.Weights()
		} else if !slices.Equal(m.Weights(), want) {
			t.Errorf("GOMAXPROCS %d: weights differ from one goroutine's", procs)
		}
	}
}

// TestMBASparseBlocks: the sparse path's pairs applied a block at a time, row by row,
// give Σ_S and μ_S bit for bit as the pairs applied one after another (each a rank-one
// update of the upper triangle, in the shards' order), whatever the block's size.
func TestMBASparseBlocks(t *testing.T) {
	ds := randomSparse(300, 700, 0.3, 0.5, 11)
	for _, b := range testBackends(t) {
		if _, host := b.(kernels.Viewer); !host {
			continue
		}
		p := mbaParams(15, 9, 0, 1e-2)
		// The reference: every pair in turn, as the pairwise loop adds it.
		d := ds.Dim
		mu, sigma := make([]float64, d), make([]float64, d*d)
		pos, neg := classRows(ds)
		scale := 1 / (float64(p.B) * float64(p.T))
		sc := &mbaScratch{ip: make([]int, p.B), in: make([]int, p.B), diff: make([]float64, d), seen: make([]bool, d)}
		v := b.(kernels.Viewer)
		sm, mv := v.ViewMat(d, d, sigma), v.ViewMat(1, d, mu).Row(0)
		for s, r := range mbaShards(p.T) {
			rng := mbaRand(5, s)
			for range r[1] - r[0] {
				mbaSample(rng, len(pos), len(neg), sc.ip, sc.in)
				for i := range sc.ip {
					z := sc.pairDiff(ds.Row(pos[sc.ip[i]]), ds.Row(neg[sc.in[i]]))
					for k, j := range z.Idx {
						b.AxpySparse(scale*z.Val[k], kernels.Sparse{Idx: z.Idx[k:], Val: z.Val[k:]}, sm.Row(int(j)))
					}
					b.AxpySparse(scale, z, mv)
				}
			}
		}
		for i := range d {
			for j := i + 1; j < d; j++ {
				sigma[j*d+i] = sigma[i*d+j]
			}
		}
		for _, block := range []int{1, 500, 7000, 0} {
			m, err := NewMBA(b, d, p, 5)
			if err != nil {
				t.Fatal(err)
			}
			m.blockEntries = block
			if err := m.accumulate(context.Background(), ds, nil); err != nil {
				t.Fatal(err)
			}
			if m.Info().Pairs != int64(p.B*p.T) || !mbaSparse(b, ds, d) {
				t.Fatalf("%s: not the sparse path's sampled pairs", b.Name())
			}
			gotMu, gotSigma := m.Statistics()
			if !slices.Equal(gotMu, mu) || !slices.Equal(gotSigma, sigma) {
				t.Errorf("%s, blocks of %d: Σ_S or μ_S differ from the pairs applied one by one", b.Name(), block)
			}
		}
	}
}

// TestMBANonFinite: a non-finite value in Σ_S is reported at its first place in
// row-major order, as a scan of the whole matrix finds it.
func TestMBANonFinite(t *testing.T) {
	const d = 700
	for _, bad := range [][2]int{{0, 0}, {3, 650}, {650, 3}, {699, 699}, {64, 127}} {
		m := &MBA{name: "mba", dim: d, p: mbaParams(1, 1, 0, 1), mu: make([]float64, d), sigma: make([]float64, d*d)}
		i, j := min(bad[0], bad[1]), max(bad[0], bad[1])
		m.sigma[i*d+j] = math.Inf(1) // the upper triangle: finishMoments mirrors it
		m.sigma[(d-1)*d+d-1] = math.NaN()
		err := m.finishMoments(1)
		want := fmt.Sprintf("Σ_S[%d,%d] = +Inf", i, j)
		if i == d-1 && j == d-1 {
			want = fmt.Sprintf("Σ_S[%d,%d] = NaN", i, j)
		}
		if err == nil || !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), want) {
			t.Errorf("Inf at %v: %v, want %q", bad, err, want)
		}
	}
}
