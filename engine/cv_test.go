package engine

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

// TestCV: on german, every fold is scored, the mean is sane, the result does not
// depend on Workers, and each fold equals a training run done by hand on that fold
// (scaling fitted on the fold's training rows only).
func TestCV(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded german
	for _, tc := range []struct {
		algo    string
		params  []string
		passes  int
		repeats int
		lo, hi  float64
	}{
		{algo: "opauc", passes: 1, lo: 0.74, hi: 0.85},
		{algo: "spam-l2", passes: 2, repeats: 2, lo: 0.70, hi: 0.85},
		{algo: "ls-auc", lo: 0.74, hi: 0.85},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			cfg := CVConfig{
				TrainConfig: TrainConfig{Algo: tc.algo, Params: testParams(t, tc.algo, tc.params...), Data: "german", Passes: tc.passes, Shuffle: true, Seed: 7, Backend: fallback.New()},
				Repeats:     tc.repeats,
				Workers:     1,
			}
			one, err := CV(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			wantRuns := 5 * max(tc.repeats, 1)
			if one.Folds != 5 || len(one.AUCs) != wantRuns || len(one.Runs) != wantRuns {
				t.Fatalf("folds %d, %d AUCs, %d runs; want 5 folds and %d runs", one.Folds, len(one.AUCs), len(one.Runs), wantRuns)
			}
			if one.Mean < tc.lo || one.Mean > tc.hi || !(one.Std > 0 && one.Std < 0.1) {
				t.Errorf("mean AUC %.4f ± %.4f, want a mean in [%g, %g] and 0 < std < 0.1", one.Mean, one.Std, tc.lo, tc.hi)
			}
			if m, s := metric.MeanStd(one.AUCs); m != one.Mean || s != one.Std {
				t.Errorf("mean ± std %v ± %v, want MeanStd(AUCs) = %v ± %v", one.Mean, one.Std, m, s)
			}
			for i, r := range one.Runs {
				if r.TrainRows+r.TestRows != 1000 || r.TestRows < 199 || r.TestRows > 201 || r.AUC != one.AUCs[i] {
					t.Errorf("run %d: %+v", i, r)
				}
				if wantRepeat, wantFold := i/5+1, i%5+1; r.Repeat != wantRepeat || r.Fold != wantFold {
					t.Errorf("run %d is repeat %d fold %d, want %d, %d", i, r.Repeat, r.Fold, wantRepeat, wantFold)
				}
			}
			if one.Scale != data.ScaleMinMax || one.Rows != 1000 || one.Features != 24 || len(one.Notes) != 0 {
				t.Errorf("scale %q, %d rows, %d features, notes %q", one.Scale, one.Rows, one.Features, one.Notes)
			}

			cfg.Workers = 3
			three, err := CV(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(one.AUCs, three.AUCs) || three.Workers != 3 {
				t.Errorf("Workers 3 (ran %d) gave AUCs %v, Workers 1 gave %v", three.Workers, three.AUCs, one.AUCs)
			}

			// Fold 2 of the first repetition by hand.
			want := handFold(t, cfg, 1)
			if math.Abs(one.AUCs[1]-want) > 1e-12 {
				t.Errorf("fold 2 AUC %.15f, by hand %.15f", one.AUCs[1], want)
			}
		})
	}
}

// handFold trains cfg's algorithm on fold f of a stratified 5-fold split of german,
// with min-max scaling fitted on the fold's training rows, and returns the fold's AUC.
func handFold(t *testing.T, cfg CVConfig, f int) float64 {
	t.Helper()
	sp, err := data.Load("german", data.LoadOptions{Seed: cfg.Seed, Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	folds, err := data.StratifiedKFold(sp.Train.Y, 5, cfg.Seed)
	if err != nil {
		t.Fatal(err)
	}
	train, test := sp.Train.Subset(folds[f].Train), sp.Train.Subset(folds[f].Test)
	s, err := data.FitMinMax(train, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	train, test = s.Apply(train), s.Apply(test)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		t.Fatal(err)
	}
	b, err := backends.Open("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	params := spec.Params()
	if spec.Defaults != nil {
		facts := solver.FactsOf(train) // scaled to the fold's training part
		if !spec.IsBatch() {
			facts.Passes = cfg.Passes
		}
		spec.Defaults(facts, params)
	}
	var w []float64
	if spec.IsBatch() {
		l, err := spec.NewBatch(b, train.Dim, params, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Fit(context.Background(), train.Subset(data.Shuffle(train.Rows(), cfg.Seed))); err != nil {
			t.Fatal(err)
		}
		w = l.Weights()
	} else {
		l, err := spec.NewOnline(b, train.Dim, params, cfg.Seed)
		if err != nil {
			t.Fatal(err)
		}
		src := solver.DatasetSource{D: train, Shuffle: true, Seed: cfg.Seed}
		if _, err := solver.Run(context.Background(), l, src, solver.RunOptions{Passes: cfg.Passes}); err != nil {
			t.Fatal(err)
		}
		w = l.Weights()
	}
	auc, err := metric.AUC(Score(w, test), test.Y)
	if err != nil {
		t.Fatal(err)
	}
	return auc
}

// TestCVGrid: a grid inside each training fold picks a point per fold, never a
// diverging one, and reports it.
func TestCVGrid(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	etas := []float64{0.00390625, 0.0078125, 0.015625, 0.03125, 0.0625, 256}
	for _, tc := range []struct {
		gridFolds int
		selection string
	}{
		{0, "held-out"},
		{3, "3-fold"},
	} {
		cfg := CVConfig{
			TrainConfig: TrainConfig{Algo: "opauc", Data: "german", Shuffle: true, Seed: 3, Backend: fallback.New()},
			Folds:       4,
			Grid:        "eta=2^[-8..-4],2^8;lambda=2^-10,2^-2",
			GridFolds:   tc.gridFolds,
		}
		res, err := CV(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Runs) != 4 || !strings.Contains(res.Selection, tc.selection) || res.Grid != cfg.Grid {
			t.Fatalf("%d runs, selection %q, grid %q", len(res.Runs), res.Selection, res.Grid)
		}
		for _, r := range res.Runs {
			eta, _ := r.Params["eta"].(float64)
			lambda, _ := r.Params["lambda"].(float64)
			if !slices.Contains(etas[:5], eta) || (lambda != 0x1p-10 && lambda != 0x1p-2) || r.ValAUC == nil || *r.ValAUC < 0.6 {
				t.Errorf("fold %d chose %v (validation AUC %v)", r.Fold, r.Params, r.ValAUC)
			}
		}
		if res.Mean < 0.72 || res.Mean > 0.86 {
			t.Errorf("grid CV mean AUC %.4f", res.Mean)
		}
		cfg.Workers = 1
		one, err := CV(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one.AUCs, res.AUCs) {
			t.Errorf("grid CV with 1 worker %v, with GOMAXPROCS %v", one.AUCs, res.AUCs)
		}
	}
}

func TestCVSplitNote(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the embedded a9a")
	}
	t.Setenv(data.EnvData, t.TempDir())
	res, err := CV(context.Background(), CVConfig{
		TrainConfig: TrainConfig{Algo: "olr", Data: "a9a", Seed: 1, Backend: fallback.New()}, Folds: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 32561 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "16281 test rows are not used") {
		t.Errorf("%d rows, notes %q", res.Rows, res.Notes)
	}
	if res.Mean < 0.88 {
		t.Errorf("a9a 2-fold mean AUC %.4f", res.Mean)
	}
}

func TestCVErrors(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	base := TrainConfig{Algo: "opauc", Data: "german", Seed: 1, Backend: fallback.New()}
	for _, tc := range []struct {
		name string
		ctx  context.Context
		cfg  CVConfig
		want string
		is   error
	}{
		{"one fold", nil, CVConfig{TrainConfig: base, Folds: 1}, "1 folds, want at least 2", solver.ErrParam},
		{"negative repeats", nil, CVConfig{TrainConfig: base, Repeats: -1}, "want at least 1", solver.ErrParam},
		{"folds beyond the minority", nil, CVConfig{TrainConfig: base, Folds: 301}, "300 positives and 700 negatives cannot fill 301 stratified folds", nil},
		{"test data", nil, CVConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german", Test: "a9a"}}, "takes no test data", nil},
		{"unknown algorithm", nil, CVConfig{TrainConfig: TrainConfig{Algo: "nope", Data: "german"}}, `unknown algorithm "nope"`, nil},
		{"another algorithm's parameters", nil, CVConfig{TrainConfig: TrainConfig{Algo: "opauc", Params: testParams(t, "ls-auc", "lambda=1"), Data: "german"}}, "opauc: bad parameter: another algorithm's (*solver.LSAUCParams; opauc takes *solver.OPAUCParams)", solver.ErrParam},
		{"bad grid", nil, CVConfig{TrainConfig: base, Grid: "rho=1"}, `unknown key "rho"`, solver.ErrParam},
		{"missing data", nil, CVConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "/no/such.svm"}}, "neither a file nor a known dataset", nil},
		{"batch passes", nil, CVConfig{TrainConfig: TrainConfig{Algo: "ls-auc", Data: "german", Passes: 2}}, "batch algorithm", nil},
		{"diverged", nil, CVConfig{TrainConfig: TrainConfig{Algo: "spam-l2", Params: testParams(t, "spam-l2", "eta=1e12"), Data: "german", Backend: fallback.New()}}, "fold", solver.ErrDiverged},
		{"cancelled", cancelled, CVConfig{TrainConfig: base}, "stopped", context.Canceled},
	} {
		ctx := tc.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		res, err := CV(ctx, tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.is != nil && !errors.Is(err, tc.is)) {
			t.Errorf("%s: CV = %v, %v; want an error containing %q (is %v)", tc.name, res, err, tc.want, tc.is)
		}
	}
}
