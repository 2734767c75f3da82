package engine

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

// smallSets are the shared datasets small enough for TestDefaultsNearUnilog.
var smallSets = []string{"sonar", "heart", "ionosphere", "liver-disorders", "breast-cancer",
	"australian", "diabetes", "fourclass", "german", "svmguide3", "splice"}

// writeSplit pools the dataset's parts, splits them 70/30 stratified with seed 1 and
// writes both parts as LIBSVM files under dir, returning their paths.
func writeSplit(t *testing.T, dir, name string) (train, test string) {
	t.Helper()
	sp, err := data.Load(name, data.LoadOptions{Seed: 1})
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	all := sp.Train
	if sp.Test != nil {
		all = all.Subset(seqRows(all.Rows())) // a copy to append to
		for i := range sp.Test.Rows() {
			all.Append(sp.Test.Y[i], sp.Test.Labels[i], sp.Test.Row(i))
		}
	}
	f, err := data.TrainTestSplit(all.Y, 0.7, 1)
	if err != nil {
		t.Fatalf("split %s: %v", name, err)
	}
	write := func(part string, rows []int) string {
		path := filepath.Join(dir, name+"."+part)
		out, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		if err := data.WriteLibSVM(out, all.Subset(rows)); err != nil {
			t.Fatalf("write %s: %v", path, err)
		}
		return path
	}
	return write("train", f.Train), write("test", f.Test)
}

func seqRows(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestDefaultsNearUnilog trains every learner at its defaults (data-scaled by
// solver.Spec.Defaults, the default scaling: [-1, 1] min-max, or the row normalisation
// for the learners that assume ‖x‖ ≤ 1) on a stratified 70/30 split (seed 1) of each
// small shared dataset and fails when a learner's test AUC falls more than 0.02
// below unilog's (class-weighted logistic regression, the LIBLINEAR-like baseline) on the
// same split. No (learner, set) is excused: SPAM and AdaOAM, the last held to 0.15 on
// svmguide3 (its ill-conditioned covariance), reach it with their multi-pass defaults
// (solver's spamDefaults and adaoam's rule).
func TestDefaultsNearUnilog(t *testing.T) {
	if testing.Short() {
		t.Skip("trains every learner on 11 datasets")
	}
	if dir := data.DataDir(); dir == "" {
		t.Skip("no shared/data directory (set AUCOPT_DATA): the small shared datasets are absent")
	}
	if _, err := data.Load("sonar", data.LoadOptions{}); err != nil {
		t.Skipf("shared datasets unreadable: %v", err)
	}
	ctx := context.Background()
	dir := t.TempDir()
	algos := solver.Names()
	var report strings.Builder
	fmt.Fprintf(&report, "%-16s", "dataset")
	for _, a := range algos {
		fmt.Fprintf(&report, " %8.8s", a)
	}
	report.WriteString("\n")
	start := time.Now()
	for _, name := range smallSets {
		train, test := writeSplit(t, dir, name)
		aucs := make(map[string]float64, len(algos))
		for _, a := range algos {
			r, err := Train(ctx, TrainConfig{Algo: a, Data: train, Test: test, Scale: data.ScaleAuto, Seed: 1,
				Shuffle: true, Backend: fallback.New()})
			if err != nil {
				t.Errorf("%s on %s: %v", a, name, err)
				aucs[a] = math.NaN()
				continue
			}
			aucs[a] = r.TestAUC
		}
		fmt.Fprintf(&report, "%-16s", name)
		for _, a := range algos {
			fmt.Fprintf(&report, " %8.4f", aucs[a])
		}
		report.WriteString("\n")
		base := aucs["unilog"]
		for _, a := range algos {
			const tol = 0.02
			if got := aucs[a]; got < base-tol || math.IsNaN(got) {
				t.Errorf("%s on %s: default test AUC %.4f, more than %g below unilog's %.4f", a, name, got, tol, base)
			}
		}
	}
	t.Logf("default test AUC, stratified 70/30 split (seed 1), default scaling, %.1f s:\n%s", time.Since(start).Seconds(), report.String())
}

// TestTrainRecordsScaledDefaults checks that Train records the data-scaled defaults in
// its parameters and notes, and that the caller's values win over them.
func TestTrainRecordsScaledDefaults(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		params   []string
		scaled   bool
		wantNote bool
	}{
		{nil, true, true},
		{[]string{"lambda=0.5"}, false, false},
	}
	for _, tt := range tests {
		r, err := Train(ctx, TrainConfig{Algo: "ls-auc", Data: "german", Params: testParams(t, "ls-auc", tt.params...), Backend: fallback.New()})
		if err != nil {
			t.Fatal(err)
		}
		got := r.Params["lambda"].(float64)
		if tt.scaled {
			sp, err := data.Load("german", data.LoadOptions{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			s, err := data.FitMinMax(sp.Train, -1, 1)
			if err != nil {
				t.Fatal(err)
			}
			f := solver.FactsOf(s.Apply(sp.Train))
			if want := 2 * f.RidgeScale(); math.Abs(got-want) > 1e-12*want {
				t.Errorf("params %v: lambda %v, want 2·R²/n = %v (%v)", tt.params, got, want, f)
			}
		} else if got != 0.5 {
			t.Errorf("params %v: lambda %v, want the given 0.5", tt.params, got)
		}
		hasNote := slices.ContainsFunc(r.Notes, func(n string) bool { return strings.HasPrefix(n, "defaults scaled to the training data") })
		if hasNote != tt.wantNote {
			t.Errorf("params %v: notes %q, want a scaled-defaults note: %v", tt.params, r.Notes, tt.wantNote)
		}
	}
}

// TestGridScaledDefaults checks that a grid's points take the data-scaled defaults for
// the keys the grid does not set, and the grid's values for those it does.
func TestGridScaledDefaults(t *testing.T) {
	r, err := Grid(context.Background(), GridConfig{TrainConfig: TrainConfig{Algo: "mba-el", Data: "german", Backend: fallback.New()},
		Grid: "lambda1=1e-4,1e-3"})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := data.Load("german", data.LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := data.FitMinMax(sp.Train, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := solver.FactsOf(s.Apply(sp.Train)).RidgeScale() // mba-el: λ₂ = 2ρ/2
	for i, p := range r.Points {
		if got := p.Params["lambda2"].(float64); math.Abs(got-want) > 1e-12*want {
			t.Errorf("point %d: lambda2 %v, want ρ = %v", i, got, want)
		}
		if got, want := p.Params["lambda1"].(float64), []float64{1e-4, 1e-3}[i]; got != want {
			t.Errorf("point %d: lambda1 %v, want the grid's %v", i, got, want)
		}
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "lambda2=") }) {
		t.Errorf("notes %q: want the scaled lambda2 named", r.Notes)
	}
}
