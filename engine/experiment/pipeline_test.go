package experiment

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

// TestSameSelection: `train --grid` on a training part, `cv --grid` on the fold whose
// training part it is, and an experiment cell on that part choose the same grid point
// with the same validation AUC: one pipeline, its selection folds seeded the same way.
func TestSameSelection(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	const seed, k = 7, 3
	sp, err := data.Load("german", data.LoadOptions{Seed: seed, Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	all := sp.Train
	dir := t.TempDir()
	write := func(name string, d *data.Dataset) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := data.WriteLibSVM(f, d); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	allFile := write("all.svm", all)
	folds, err := data.StratifiedKFold(all.Y, k, seed) // CV's outer folds
	if err != nil {
		t.Fatal(err)
	}
	trainFile := write("train.svm", all.Subset(folds[0].Train))
	testFile := write("test.svm", all.Subset(folds[0].Test))

	for _, tc := range []struct{ algo, grid string }{
		{"opauc", "eta=2^[-8..-2];lambda=2^[-6..-4]"}, // online: shared-prefix folds
		{"mba-l2", "lambda2=2^[-8..0]"},               // batch: a λ path
	} {
		t.Run(tc.algo, func(t *testing.T) {
			ctx := context.Background()
			spec, err := solver.Lookup(tc.algo)
			if err != nil {
				t.Fatal(err)
			}
			// An experiment shuffles an online algorithm's rows, not a batch one's, and
			// makes one pass, as the papers do (train and cv default to more on small sets).
			base := engine.TrainConfig{Algo: tc.algo, Shuffle: !spec.IsBatch(), Seed: seed, Backend: fallback.New()}
			if !spec.IsBatch() {
				base.Passes = 1
			}
			if tc.algo == "mba-l2" { // the protocols run MBA's static sampled pairs, not the data-scaled pairs=auto
				base.Params = spec.Params()
				if err := base.Params.Set("pairs", solver.MBAPairsSampled); err != nil {
					t.Fatal(err)
				}
			}

			gcfg := engine.GridConfig{TrainConfig: base, Grid: tc.grid, Folds: k}
			gcfg.Data, gcfg.Test = trainFile, testFile
			g, err := engine.Grid(ctx, gcfg)
			if err != nil {
				t.Fatal(err)
			}

			ccfg := engine.CVConfig{TrainConfig: base, Folds: k, Grid: tc.grid, GridFolds: k}
			ccfg.Data = allFile
			cv, err := engine.CV(ctx, ccfg)
			if err != nil {
				t.Fatal(err)
			}

			params, err := gridParams(spec, tc.grid)
			if err != nil {
				t.Fatal(err)
			}
			p := Protocol{Scale: ScaleAuto, InnerFolds: k}
			j := &job{dataset: "german", algo: tc.algo, spec: spec, params: params, out: &Run{},
				split: &split{train: all, test: all, trainRows: folds[0].Train, testRows: folds[0].Test, seed: seed}}
			runJob(ctx, p, Config{}, fallback.New(), j)
			if j.out.Error != "" {
				t.Fatal(j.out.Error)
			}

			best := g.Points[g.Best]
			if !reflect.DeepEqual(cv.Runs[0].Params, best.Params) || !reflect.DeepEqual(j.out.Params, best.Params) {
				t.Errorf("chosen: train --grid %v, cv --grid fold 1 %v, experiment %v", best.Params, cv.Runs[0].Params, j.out.Params)
			}
			if *cv.Runs[0].ValAUC != *best.ValAUC || *j.out.ValAUC != *best.ValAUC {
				t.Errorf("validation AUC: train --grid %v, cv --grid fold 1 %v, experiment %v", *best.ValAUC, *cv.Runs[0].ValAUC, *j.out.ValAUC)
			}
			if cv.Runs[0].AUC != g.TestAUC || j.out.AUC != g.TestAUC {
				t.Errorf("test AUC: train --grid %v, cv --grid fold 1 %v, experiment %v", g.TestAUC, cv.Runs[0].AUC, j.out.AUC)
			}
		})
	}
}

// TestSeedsFromNames: a dataset's runs are seeded from the seed and its name, so a
// cell gives the same numbers run alone as in a list, wherever it stands.
func TestSeedsFromNames(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a9a")
	}
	t.Setenv(data.EnvData, t.TempDir())
	aucs := func(datasets ...string) []float64 {
		cfg := tiny(5)
		cfg.Datasets, cfg.Algos, cfg.MaxTrain = datasets, []string{"opauc"}, 300
		rep, err := Experiment(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, r := range rep.Tables[0].Cells["german"]["opauc"].Runs {
			if r.Error != "" {
				t.Fatal(r.Error)
			}
			out = append(out, r.AUC)
		}
		return out
	}
	alone, listed := aucs("german"), aucs("a9a", "german")
	if len(alone) != 3 || !slices.Equal(alone, listed) {
		t.Errorf("german's AUCs: alone %v, after a9a %v; want the same 3", alone, listed)
	}
}
