package engine

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/fallback"
)

// autoGerman is a quick Auto on the embedded german data (800 rows: 5-fold selection).
func autoGerman(t *testing.T, budget time.Duration) *AutoResult {
	t.Helper()
	r, err := Auto(context.Background(), AutoConfig{TrainConfig: TrainConfig{Data: "german", Test: "german", Backend: fallback.New(), Shuffle: true},
		Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAutoDeterministic checks that Auto with one seed and budget runs the same
// candidates, ranks them the same and refits the same weights, and that its winner is
// the leaderboard's first entry with the highest validation AUC.
func TestAutoDeterministic(t *testing.T) {
	a, b := autoGerman(t, 5*time.Second), autoGerman(t, 5*time.Second)
	if len(a.Leaderboard) != len(autoPortfolio) {
		t.Fatalf("%d leaderboard entries, want the %d candidates", len(a.Leaderboard), len(autoPortfolio))
	}
	strip := func(board []AutoEntry) []AutoEntry {
		out := slices.Clone(board)
		for i := range out {
			out[i].Seconds = 0
		}
		return out
	}
	if !reflect.DeepEqual(strip(a.Leaderboard), strip(b.Leaderboard)) || !slices.Equal(a.Weights, b.Weights) {
		t.Errorf("two runs differ:\n%+v\n%+v", a.Leaderboard, b.Leaderboard)
	}
	w := a.Leaderboard[0]
	if w.Algo != a.Algo || !reflect.DeepEqual(w.Params, a.Params) {
		t.Errorf("winner %s %v, leaderboard's first %s %v", a.Algo, a.Params, w.Algo, w.Params)
	}
	for _, e := range a.Leaderboard[1:] {
		if e.ValAUC != nil && *e.ValAUC > *w.ValAUC {
			t.Errorf("%s has validation AUC %v above the winner's %v", e.Algo, *e.ValAUC, *w.ValAUC)
		}
	}
	if a.Selection != "5-fold stratified cross-validation" || !(a.TestAUC > 0.7) {
		t.Errorf("selection %q, test AUC %v; want 5 folds on 800 rows and a test AUC above 0.7", a.Selection, a.TestAUC)
	}
	if a.Data != "german" || a.TrainSHA256 == "" {
		t.Errorf("data %q sha256 %q: want the caller's data and its fingerprint", a.Data, a.TrainSHA256)
	}
}

// TestAutoBudget checks the budget's cut: the candidates run in portfolio order while
// their estimates fit what is left, the first always, and the others are listed as
// skipped.
func TestAutoBudget(t *testing.T) {
	for _, budget := range []time.Duration{time.Nanosecond, 20 * time.Millisecond, DefaultAutoBudget} {
		r := autoGerman(t, budget)
		byAlgo := map[string]AutoEntry{}
		for _, e := range r.Leaderboard {
			byAlgo[e.Algo] = e
		}
		left, ran := budget.Seconds(), 0
		cheapest := autoPortfolio[0].algo
		for _, c := range autoPortfolio {
			e := byAlgo[c.algo]
			if e.Estimate < byAlgo[cheapest].Estimate {
				cheapest = c.algo
			}
			wantRun := e.Estimate <= left
			if gotRun := e.Skipped == ""; gotRun != wantRun && !(budget == time.Nanosecond) {
				t.Errorf("budget %s: %s (estimated %g s, %g s left) ran %v, want %v", budget, c.algo, e.Estimate, left, gotRun, wantRun)
			}
			if wantRun {
				left -= e.Estimate
				ran++
			}
		}
		switch budget {
		case time.Nanosecond: // none fits: the cheapest alone
			if r.Leaderboard[0].Algo != cheapest || r.Leaderboard[1].Skipped == "" {
				t.Errorf("budget %s: leaderboard %+v, want %s alone", budget, r.Leaderboard, cheapest)
			}
		case DefaultAutoBudget:
			if ran != len(autoPortfolio) {
				t.Errorf("budget %s: %d candidates ran, want all", budget, ran)
			}
		}
	}
}

// TestAutoModelRecordsChoice checks that the model file of an Auto run names the
// chosen algorithm and parameters and says why.
func TestAutoModelRecordsChoice(t *testing.T) {
	r := autoGerman(t, time.Second)
	path := filepath.Join(t.TempDir(), "m.json")
	if err := r.Model().Write(path); err != nil {
		t.Fatal(err)
	}
	m, err := model.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if m.Algo != r.Algo || !slices.ContainsFunc(m.Notes, func(n string) bool {
		return strings.HasPrefix(n, "auto: "+r.Algo) && strings.Contains(n, "validation AUC")
	}) {
		t.Errorf("model algorithm %s, notes %q; want %s and the auto note", m.Algo, m.Notes, r.Algo)
	}
}

func TestAutoBadInput(t *testing.T) {
	tests := []struct {
		name string
		cfg  AutoConfig
	}{
		{"algorithm", AutoConfig{TrainConfig: TrainConfig{Algo: "opauc"}}},
		{"params", AutoConfig{TrainConfig: TrainConfig{Params: []string{"lambda=1"}}}},
		{"passes", AutoConfig{TrainConfig: TrainConfig{Passes: 3}}},
		{"checkpoint", AutoConfig{TrainConfig: TrainConfig{Checkpoint: "x.ckpt"}}},
		{"out of core", AutoConfig{TrainConfig: TrainConfig{OutOfCore: true}}},
		{"budget", AutoConfig{Budget: -time.Second}},
		{"folds", AutoConfig{Folds: 1}},
	}
	for _, tt := range tests {
		tt.cfg.Data = "german"
		if _, err := Auto(context.Background(), tt.cfg); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want one wrapping ErrInput", tt.name, err)
		}
	}
}

// TestAutoCV checks that each fold of AutoCV records its own choice and AUC.
func TestAutoCV(t *testing.T) {
	res, err := AutoCV(context.Background(), AutoCVConfig{AutoConfig: AutoConfig{
		TrainConfig: TrainConfig{Data: "german", Backend: fallback.New()}, Budget: 50 * time.Millisecond}, Folds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 3 || res.Algo != AlgoAuto {
		t.Fatalf("%d runs of %s, want 3 of auto", len(res.Runs), res.Algo)
	}
	for _, r := range res.Runs {
		if r.Algo == "" || r.Params == nil || r.ValAUC == nil || !(r.AUC > 0.7) {
			t.Errorf("fold %d: %+v", r.Fold, r)
		}
	}
}
