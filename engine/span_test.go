package engine

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// spanA9a is 3,000 rows of the embedded a9a scaled to [−1, 1]: one-hot groups, so the
// centred rows span fewer dimensions than the 123 features.
func spanA9a(t *testing.T) *data.Dataset {
	t.Helper()
	sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	s, err := data.FitMinMax(sp.Train, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	train := s.Apply(sp.Train)
	return train.Subset(data.Shuffle(train.Rows(), 9)[:3000])
}

// opaucGrid returns OPAUC's Spec and the parameters of a small (η, λ) grid with
// diverging points.
func opaucGrid(t *testing.T) (solver.Spec, []solver.Params) {
	t.Helper()
	spec, err := solver.Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	var params []solver.Params
	for _, eta := range []float64{0x1p-12, 0x1p-8, 0x1p-5, 0x1p2} {
		for _, lambda := range []float64{0x1p-10, 0x1p-2} {
			q := spec.Params()
			if err := q.SetAll([]string{fmt.Sprintf("eta=%g", eta), fmt.Sprintf("lambda=%g", lambda)}); err != nil {
				t.Fatal(err)
			}
			params = append(params, q)
		}
	}
	return spec, params
}

// lonePass trains one learner in one pass over d in row order.
func lonePass(t *testing.T, spec solver.Spec, b kernels.Backend, d *data.Dataset, p solver.Params) []float64 {
	t.Helper()
	l, err := spec.NewOnline(b, d.Dim, p, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i := range d.Rows() {
		l.Observe(d.Row(i), d.Y[i])
	}
	return l.Weights()
}

// TestSelectionData: OPAUC trained on the span coordinates scores every row as OPAUC
// on the features does, up to one constant; a non-rotational algorithm keeps its rows.
func TestSelectionData(t *testing.T) {
	train := spanA9a(t)
	b := fallback.New()
	spec, params := opaucGrid(t)
	red, err := selectionData(b, spec, train)
	if err != nil {
		t.Fatal(err)
	}
	if red.Dim >= train.Dim || red.Dim < 90 || red.Rows() != train.Rows() || !red.IsDense() {
		t.Fatalf("span coordinates of a9a: %d×%d (dense %v), want %d dense rows of 90 to %d", red.Rows(), red.Dim, red.IsDense(), train.Rows(), train.Dim-1)
	}
	full, reduced := Score(lonePass(t, spec, b, train, params[2]), train), Score(lonePass(t, spec, b, red, params[2]), red)
	shift := full[0] - reduced[0]
	for i := range full {
		if e := math.Abs(full[i] - reduced[i] - shift); e > 1e-9*(1+math.Abs(full[i])) {
			t.Fatalf("row %d: score %.12g on the features, %.12g + %.12g on the span", i, full[i], reduced[i], shift)
		}
	}
	spam, _ := solver.Lookup("spam-l2")
	if same, err := selectionData(b, spam, train); err != nil || same != train {
		t.Errorf("selectionData(spam-l2) = %p, %v; want the rows themselves", same, err)
	}
}

// TestSearchFolds: the grid search's k-fold selection of an online algorithm (shared
// prefixes, span coordinates for OPAUC) gives every point the mean validation AUC of
// Multis trained from scratch on the other folds in the same order, and the same choice.
func TestSearchFolds(t *testing.T) {
	train := spanA9a(t)
	b := fallback.New()
	spec, params := opaucGrid(t)
	cfg := GridConfig{TrainConfig: TrainConfig{Seed: 4, Shuffle: true}, Folds: 3}
	for _, rotational := range []bool{true, false} {
		s := spec
		s.Rotational = rotational
		res := &GridResult{TrainResult: &TrainResult{}}
		tk := task{Settings: Settings{Shuffle: true, Seed: cfg.Seed, Workers: 1}, Method: Method{Spec: s, Points: params, Selection: Selection{Folds: 3, Seed: cfg.Seed}}}
		if err := search(context.Background(), b, train, tk, res); err != nil {
			t.Fatal(err)
		}
		folds, err := data.StratifiedKFold(train.Y, 3, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		want, failed := make([]float64, len(params)), make([]bool, len(params))
		for k := range folds {
			m, err := solver.NewMulti(spec, b, train.Dim, params, cfg.Seed, 1)
			if err != nil {
				t.Fatal(err)
			}
			for j, f := range folds {
				if j == k {
					continue
				}
				blk := train.Subset(f.Test)
				blk = blk.Subset(data.Shuffle(blk.Rows(), data.SubSeed(cfg.Seed, uint64(j))))
				for i := range blk.Rows() {
					m.ObserveBlock([]kernels.Sparse{blk.Row(i)}, []int8{blk.Y[i]})
				}
			}
			val := train.Subset(folds[k].Test)
			for g := range params {
				if m.Diverged(g) != 0 {
					failed[g] = true
					continue
				}
				auc, err := metric.AUC(Score(m.Weights(g), val), val.Y)
				if err != nil {
					t.Fatal(err)
				}
				want[g] += auc / 3
			}
		}
		for g, pt := range res.Points {
			if failed[g] != (pt.ValAUC == nil) {
				t.Errorf("rotational %v, point %d: failed %q, want failed %v", rotational, g, pt.Failed, failed[g])
				continue
			}
			if pt.ValAUC != nil && math.Abs(*pt.ValAUC-want[g]) > 1e-9 {
				t.Errorf("rotational %v, point %d: validation AUC %.12f, want %.12f", rotational, g, *pt.ValAUC, want[g])
			}
		}
		best := -1
		for g := range want {
			if !failed[g] && (best < 0 || want[g] > want[best]) {
				best = g
			}
		}
		if res.Best != best {
			t.Errorf("rotational %v: chose point %d, want %d", rotational, res.Best, best)
		}
	}
}

// TestSearchBatchWorkers: a batch algorithm's grid points, fitted on several goroutines
// (gridBatch), get the validation AUCs, bit for bit, and the choice they get fitted one
// by one.
func TestSearchBatchWorkers(t *testing.T) {
	all := spanA9a(t)
	train := all.Subset(data.Shuffle(all.Rows(), 3)[:600])
	spec, err := solver.Lookup("ls-auc") // a batch learner that fits its exact λ grid point by point (unilog is a GridFitter)
	if err != nil {
		t.Fatal(err)
	}
	params, err := spec.GridPoints(solver.Params{}, "lambda=10^[-4..0]")
	if err != nil {
		t.Fatal(err)
	}
	var got []*GridResult
	for _, workers := range []int{1, 2, 4} {
		res := &GridResult{TrainResult: &TrainResult{}}
		tk := task{Settings: Settings{Seed: 5, Workers: workers}, Method: Method{Spec: spec, Points: params, Selection: Selection{Folds: 3, Seed: 5}}}
		if err := search(context.Background(), fallback.New(), train, tk, res); err != nil {
			t.Fatal(err)
		}
		got = append(got, res)
	}
	for w, res := range got[1:] {
		if res.Best != got[0].Best {
			t.Errorf("workers %d: best %d, one by one %d", []int{2, 4}[w], res.Best, got[0].Best)
		}
		for g, p := range res.Points {
			q := got[0].Points[g]
			if (p.ValAUC == nil) != (q.ValAUC == nil) || p.ValAUC != nil && *p.ValAUC != *q.ValAUC || p.Failed != q.Failed {
				t.Errorf("workers %d, point %d: %v %q, one by one %v %q", []int{2, 4}[w], g, p.ValAUC, p.Failed, q.ValAUC, q.Failed)
			}
		}
	}
}
