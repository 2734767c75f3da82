package engine

import (
	"context"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// copyPathWeights is the oracle of the scaling folded into the moments: Train's fit
// of algo on a scaled copy of ds, as it was made before (data.FitScaling, Apply, the
// data-scaled defaults from the copy's facts, then FitOrdered or Fit on the copy).
func copyPathWeights(t *testing.T, b kernels.Backend, algo string, params []string, ds *data.Dataset, scale string, shuffle bool, seed uint64) ([]float64, *data.Scaling) {
	t.Helper()
	spec, err := solver.Lookup(algo)
	if err != nil {
		t.Fatal(err)
	}
	s, err := data.FitScaling(scale, ds, spec.UnitRows)
	if err != nil {
		t.Fatal(err)
	}
	sc := s.Apply(ds)
	facts := solver.FactsOf(sc)
	p, _, err := dataParams(spec, facts, testParams(t, algo, params...))
	if err != nil {
		t.Fatal(err)
	}
	l, err := spec.NewBatch(b, sc.Dim, p, seed)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	if shuffle {
		order = data.Shuffle(sc.Rows(), seed)
	}
	if ob, ok := l.(solver.OrderedBatch); ok {
		err = ob.FitOrdered(context.Background(), sc, order)
	} else {
		if order != nil {
			sc = sc.Subset(order)
		}
		err = l.Fit(context.Background(), sc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return l.Weights(), s
}

// allocated is the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// TestScalingFoldedIntoMoments: a learner that fits from the class moments, under a
// min-max scaling, trains on a caller's rows without a scaled copy (it allocates less
// than a quarter of the matrix) and gets the copy's weights to 1e-12 relative, with the
// copy's scaling and data-scaled parameters; a learner or data that need the rows take
// the copy, bit for bit as before.
func TestScalingFoldedIntoMoments(t *testing.T) {
	b := fallback.NewWorkers(2)
	defer b.Close()
	const rows = 20000
	x, labels := memoryRows(rows, 40, 5)
	dense, err := data.NewDenseRows("", rows, 40, x, false, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	sp := dense.ToSparse()
	sparse, err := data.NewCSR("", 40, sp.Ptr, sp.Idx, sp.Val, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	// Wide rows, explicit min-max: ls-auc tries conjugate gradients on the scaled rows
	// first (dense, ≥ 1,024 features), which the moments cannot stand in for.
	const wideRows, wideDim = 300, 1100
	wx, wl := memoryRows(wideRows, wideDim, 6)
	wide, err := data.NewDenseRows("", wideRows, wideDim, wx, false, wl, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		algo    string
		params  []string
		ds      *data.Dataset
		scale   string
		shuffle bool
		moments bool // folded: no copy, weights to rounding
	}{
		{"ls-auc dense auto shuffled", "ls-auc", nil, dense, data.ScaleAuto, true, true},
		{"ls-auc dense minmax", "ls-auc", nil, dense, data.ScaleMinMax, false, true},
		{"ls-auc csr minmax", "ls-auc", nil, sparse, data.ScaleMinMax, true, true},
		{"ls-auc lambda set", "ls-auc", []string{"lambda=0.01"}, dense, data.ScaleAuto, false, true},
		{"mba-l2 all pairs", "mba-l2", []string{"pairs=all"}, dense, data.ScaleAuto, true, true},
		{"mba-l1 all pairs", "mba-l1", []string{"pairs=all"}, sparse, data.ScaleMinMax, false, true},
		{"ls-auc early stopped", "ls-auc", []string{"steps=4"}, dense, data.ScaleAuto, true, false},
		{"mba-l2 sampled pairs", "mba-l2", []string{"pairs=sampled"}, dense, data.ScaleAuto, false, false},
		{"ls-auc norm", "ls-auc", nil, dense, data.ScaleNorm, false, false},
		{"ls-auc wide minmax", "ls-auc", nil, wide, data.ScaleMinMax, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x0 := slices.Clone(c.ds.Dense)
			if c.ds.Dense == nil {
				x0 = slices.Clone(c.ds.Val)
			}
			want, ws := copyPathWeights(t, b, c.algo, c.params, c.ds, c.scale, c.shuffle, DefaultSeed)
			var res *TrainResult
			cfg := TrainConfig{Algo: c.algo, Params: testParams(t, c.algo, c.params...), Dataset: c.ds, Scale: c.scale, Shuffle: c.shuffle, Backend: b}
			alloc := allocated(func() {
				if res, err = Train(context.Background(), cfg); err != nil {
					t.Fatal(err)
				}
			})
			matrix := uint64(8 * c.ds.Rows() * c.ds.Dim)
			if c.moments {
				if alloc > matrix/4 {
					t.Errorf("allocated %d bytes, the matrix is %d: a scaled copy was made", alloc, matrix)
				}
				if d := relDiff(want, res.Weights); d > 1e-12 {
					t.Errorf("weights differ from the scaled copy's by %.3g relative", d)
				}
			} else if !slices.Equal(res.Weights, want) {
				t.Errorf("weights differ from the scaled copy's by %.3g relative, want bit for bit", relDiff(want, res.Weights))
			}
			if res.Scale != ws.Kind || !slices.Equal(minMaxOf(res.Scaling).Scale, minMaxOf(ws).Scale) ||
				!slices.Equal(minMaxOf(res.Scaling).Shift, minMaxOf(ws).Shift) {
				t.Errorf("scaling %s %+v, want FitScaling's %s %+v", res.Scale, res.Scaling.MinMax, ws.Kind, ws.MinMax)
			}
			spec, _ := solver.Lookup(c.algo)
			_, note, err := dataParams(spec, solver.FactsOf(ws.Apply(c.ds)), testParams(t, c.algo, c.params...))
			if err != nil {
				t.Fatal(err)
			}
			if note != "" && !slices.Contains(res.Notes, note) {
				t.Errorf("notes %q, want the copy's %q", res.Notes, note)
			}
			now := c.ds.Dense
			if now == nil {
				now = c.ds.Val
			}
			if !slices.Equal(now, x0) {
				t.Error("the caller's rows were written")
			}
		})
	}
}

// minMaxOf is s's min-max map, or an empty one.
func minMaxOf(s *data.Scaling) *data.Scaler {
	if s == nil || s.MinMax == nil {
		return &data.Scaler{}
	}
	return s.MinMax
}

// TestScaleInPlace: a run that owns a dense matrix scales it where it lies (the scaled
// rows are the matrix read), to the values of the copy bit for bit, for every kind; one
// that does not (a caller's) scales a copy and leaves the rows as they were.
func TestScaleInPlace(t *testing.T) {
	b := fallback.NewWorkers(1)
	defer b.Close()
	const rows, dim = 300, 9
	x, labels := memoryRows(rows, dim, 8)
	for _, kind := range []string{data.ScaleMinMax, data.ScaleNorm, data.ScaleUnit, data.ScaleMinMaxUnit, data.ScaleAuto} {
		for _, owned := range []bool{true, false} {
			ds, err := data.NewDenseRows("", rows, dim, slices.Clone(x), false, labels, "")
			if err != nil {
				t.Fatal(err)
			}
			s, err := data.FitScaling(kind, ds, false)
			if err != nil {
				t.Fatal(err)
			}
			want := s.Apply(ds)
			spec, _ := solver.Lookup("opauc")
			tk := task{Problem: Problem{Owned: owned}, Settings: Settings{Scale: kind}, Method: Method{Spec: spec, Points: []solver.Params{spec.Params()}}}
			res := &GridResult{TrainResult: &TrainResult{Features: dim}}
			src, _, err := prepareTask(context.Background(), b, &tk, ds, nil, res)
			if err != nil {
				t.Fatal(err)
			}
			got := src.(solver.DatasetSource).D
			if same := &got.Dense[0] == &ds.Dense[0]; same != owned {
				t.Errorf("%s owned=%v: scaled rows share the matrix read: %v", kind, owned, same)
			}
			if !slices.Equal(got.Dense, want.Dense) || !slices.Equal(got.Y, want.Y) {
				t.Errorf("%s owned=%v: scaled rows differ from the copy's", kind, owned)
			}
			if !owned && !slices.Equal(ds.Dense, x) {
				t.Errorf("%s: a caller's rows were written", kind)
			}
		}
	}
}

// TestAppliedStats: the facts and stored values of a min-max-scaled subset, and its
// map, are the copy's bit for bit, dense and sparse, shifted or not.
func TestAppliedStats(t *testing.T) {
	const rows, dim = 400, 6
	x, labels := memoryRows(rows, dim, 9)
	dense, err := data.NewDenseRows("", rows, dim, x, false, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	sparse := dense.ToSparse()
	order := data.Shuffle(rows, 3)[:rows/2]
	for _, ds := range []*data.Dataset{dense, sparse} {
		for _, lo := range []float64{-1, 0} { // [0, 1]: no shift on the non-negative features
			for _, rows := range [][]int{nil, order} {
				sub := ds
				if rows != nil {
					sub = ds.Subset(rows)
				}
				want, err := data.FitMinMax(sub, lo, 1)
				if err != nil {
					t.Fatal(err)
				}
				s, err := data.FitMinMaxRows(ds, rows, lo, 1)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(s.Scale, want.Scale) || !slices.Equal(s.Shift, want.Shift) {
					t.Fatalf("dense=%v lo=%g subset=%v: FitMinMaxRows differs from FitMinMax of the subset", ds.IsDense(), lo, rows != nil)
				}
				cp := s.Apply(sub)
				sq, nnz := s.AppliedStats(ds, rows)
				f := solver.FactsOf(cp)
				if sq/float64(cp.Rows()) != f.MeanSqNorm || nnz != int64(cp.Nnz()) {
					t.Errorf("dense=%v lo=%g subset=%v: stats %v %d, the copy's %v %d", ds.IsDense(), lo, rows != nil,
						sq/float64(cp.Rows()), nnz, f.MeanSqNorm, cp.Nnz())
				}
				sq, nnz = data.SqNormStats(ds, rows)
				if f := solver.FactsOf(sub); sq/float64(sub.Rows()) != f.MeanSqNorm || nnz != int64(sub.Nnz()) {
					t.Errorf("dense=%v subset=%v: SqNormStats %v %d, the subset's %v %d", ds.IsDense(), rows != nil, sq, nnz, f.MeanSqNorm, sub.Nnz())
				}
			}
		}
	}
}

// TestCalibrationNamesRows: the held-out calibration and the cross-fitted one train
// on rows they name rather than copy: a moments learner on a caller's rows allocates
// less than a quarter of the matrix, and every fit is the one on the rows' copy, bit
// for bit (the oracle: Train on ds.Subset of the same rows, the map fitted on the
// scores of the held-out or out-of-fold rows' copy). The cross-fitted run's weights
// are the uncalibrated run's.
func TestCalibrationNamesRows(t *testing.T) {
	b := fallback.NewWorkers(2)
	defer b.Close()
	// Large sets for the moments learners, whose fits allocate little beside the rows;
	// small ones for the others.
	sets := func(rows int) (dense, sparse *data.Dataset) {
		x, labels := memoryRows(rows, 150, 11)
		dense, err := data.NewDenseRows("", rows, 150, x, false, labels, "")
		if err != nil {
			t.Fatal(err)
		}
		sp := dense.ToSparse()
		sparse, err = data.NewCSR("", 150, sp.Ptr, sp.Idx, sp.Val, labels, "")
		if err != nil {
			t.Fatal(err)
		}
		return dense, sparse
	}
	dense, sparse := sets(40000)
	smallDense, smallSparse := sets(4000)
	ctx := context.Background()
	train := func(cfg TrainConfig) *TrainResult {
		t.Helper()
		res, err := Train(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	cases := []struct {
		name     string
		algo     string
		ds       *data.Dataset
		shuffle  bool
		method   string
		folds    int
		noCopies bool
	}{
		{"ls-auc holdout", "ls-auc", dense, true, "platt", 0, true},
		{"ls-auc folds", "ls-auc", dense, true, "platt", 3, true},
		{"ls-auc csr folds isotonic", "ls-auc", sparse, false, "isotonic", 3, true},
		{"mba-l2 folds", "mba-l2", smallDense, false, "platt", 2, false},
		{"opauc folds", "opauc", smallSparse, true, "platt", 3, false},
		{"opauc holdout", "opauc", smallSparse, false, "isotonic", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := TrainConfig{Algo: c.algo, Dataset: c.ds, Shuffle: c.shuffle, Backend: b}
			if c.algo == "opauc" {
				base.Passes = 2 // the folds' fits take the final fit's passes, not their rows' default
			}
			cfg := base
			cfg.Calibrate, cfg.CalibrateFolds = c.method, c.folds
			var res *TrainResult
			alloc := allocated(func() { res = train(cfg) })
			// A copy of a fold's training part would be at least half the matrix, of the
			// hold-out's 80 %; the fits' own state and the folds' row lists are less.
			bound := uint64(8*c.ds.Rows()*c.ds.Dim) / 4
			if c.folds != 0 {
				bound *= 2
			}
			if c.noCopies && alloc > bound {
				t.Errorf("allocated %d bytes, more than %d: rows were copied", alloc, bound)
			}
			var parts []data.Fold
			var err error
			if c.folds == 0 {
				f, err := data.TrainTestSplit(c.ds.Y, 1-DefaultCalibrateHoldout, data.SubSeed(DefaultSeed, 0x6361))
				if err != nil {
					t.Fatal(err)
				}
				parts = []data.Fold{f}
			} else if parts, err = data.StratifiedKFold(c.ds.Y, c.folds, data.SubSeed(DefaultSeed, 0x6366)); err != nil {
				t.Fatal(err)
			}
			// The held-out rows' scores in their order; or every row's out-of-fold score,
			// standardised by its fold model's scores of every row, in the data's.
			var scores []float64
			var y []int8
			if c.folds != 0 {
				scores, y = make([]float64, c.ds.Rows()), c.ds.Y
			}
			for _, f := range parts {
				part := base
				part.Dataset = c.ds.Subset(f.Train)
				pr := train(part)
				if c.folds == 0 {
					held := c.ds.Subset(f.Test)
					scores, y = Score(pr.Weights, pr.asTrained(held)), held.Y
					if !slices.Equal(res.Weights, pr.Weights) {
						t.Errorf("weights differ from the fit on the training part's copy by %.3g relative", relDiff(pr.Weights, res.Weights))
					}
					continue
				}
				all := Score(pr.Weights, pr.asTrained(c.ds))
				m, sd := meanStd(all)
				for _, i := range f.Test {
					scores[i] = (all[i] - m) / sd
				}
			}
			want, err := model.Fit(c.method, scores, y)
			if err != nil {
				t.Fatal(err)
			}
			got := res.Calibration
			if got == nil || got.Rows != want.Rows || got.Folds != c.folds {
				t.Fatalf("calibration %+v, want %+v with folds %d", got, want, c.folds)
			}
			if c.folds == 0 {
				if got.A != want.A || got.B != want.B || !slices.Equal(got.X, want.X) {
					t.Errorf("calibration %+v, want %+v", got, want)
				}
			} else {
				plain := train(base)
				if !slices.Equal(res.Weights, plain.Weights) {
					t.Error("cross-fitted run's weights differ from the uncalibrated run's")
				}
				// The map carried to the final model's scores: its probability of a score
				// is the standardised map's of the score standardised by the final
				// model's scores of every row.
				final := Score(plain.Weights, plain.asTrained(c.ds))
				m, sd := meanStd(final)
				for i, s := range final {
					if p, q := got.Prob(s), want.Prob((s-m)/sd); math.Abs(p-q) > 1e-9 {
						t.Fatalf("row %d: probability %v, want %v", i, p, q)
					}
				}
			}
			if err := got.Validate(); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestModelScoresWithoutCopy: a model scores rows as its training scaled them, each row
// scaled where it is read: the scores of the scaled copy bit for bit, allocating less
// than a quarter of the rows (the scores and scratch).
func TestModelScoresWithoutCopy(t *testing.T) {
	const rows, dim = 6000, 50
	x, labels := memoryRows(rows, dim, 13)
	dense, err := data.NewDenseRows("", rows, dim, x, false, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	sparse := dense.ToSparse()
	for _, kind := range []string{data.ScaleMinMax, data.ScaleNorm, data.ScaleUnit, data.ScaleMinMaxUnit, data.ScaleNone} {
		for _, ds := range []*data.Dataset{dense, sparse} {
			res, err := Train(context.Background(), TrainConfig{Algo: "ls-auc", Dataset: ds, Scale: kind})
			if err != nil {
				t.Fatal(err)
			}
			m := res.Model()
			want := Score(res.Weights, res.asTrained(ds))
			var got []float64
			alloc := allocated(func() {
				if got, err = m.Score(ds); err != nil {
					t.Fatal(err)
				}
			})
			if !slices.Equal(got, want) {
				t.Errorf("%s dense=%v: scores differ from the scaled copy's", kind, ds.IsDense())
			}
			if matrix := uint64(8 * rows * dim); alloc > matrix/4 {
				t.Errorf("%s dense=%v: scoring allocated %d bytes, the matrix is %d: a scaled copy", kind, ds.IsDense(), alloc, matrix)
			}
		}
	}
}
