package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// TestTrace checks the points of online traces against their definition: increasing
// Seen at the requested spacing (plus the ends of passes), non-decreasing seconds, and
// a last point that is the model Train returns for the same configuration.
func TestTrace(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a, on any machine
	tests := []struct {
		name     string
		cfg      TrainConfig
		every    int64
		wantSeen []int64 // nil: check the default spacing
	}{
		{"opauc every 10000", TrainConfig{Algo: "opauc", Data: "a9a", Shuffle: true, Seed: 1}, 10_000,
			[]int64{0, 10_000, 20_000, 30_000, 32_561}},
		{"spam-net two passes", TrainConfig{Algo: "spam-net", Data: "a9a", Shuffle: true, Seed: 2, Passes: 2}, 20_000,
			[]int64{0, 20_000, 32_561, 40_000, 60_000, 65_122}},
		{"olr default spacing", TrainConfig{Algo: "olr", Data: "a9a", Shuffle: true, Seed: 3}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Backend = fallback.New()
			tr, err := Trace(context.Background(), TraceConfig{TrainConfig: tt.cfg, Every: tt.every})
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]int64, len(tr.Points))
			for i, p := range tr.Points {
				seen[i] = p.Seen
				if i > 0 && p.Seconds < tr.Points[i-1].Seconds {
					t.Errorf("point %d: %.6fs after %.6fs", i, p.Seconds, tr.Points[i-1].Seconds)
				}
			}
			if tt.wantSeen != nil && !slices.Equal(seen, tt.wantSeen) {
				t.Errorf("seen %v, want %v", seen, tt.wantSeen)
			}
			if tt.wantSeen == nil {
				// ceil(32561/50) = 652 apart: 0, 652, …, 32600 − 652, then the end.
				if tr.Every != 652 || len(seen) != 51 || seen[len(seen)-1] != 32_561 {
					t.Errorf("default spacing: every %d, %d points, last %d; want 652, 51, 32561", tr.Every, len(seen), seen[len(seen)-1])
				}
				for i := 1; i < len(seen)-1; i++ {
					if seen[i] != int64(i)*652 {
						t.Errorf("point %d at %d, want %d", i, seen[i], i*652)
					}
				}
			}
			first, last := tr.Points[0], tr.Points[len(tr.Points)-1]
			if first.TestAUC != 0.5 || last.TestAUC < 0.85 {
				t.Errorf("test AUC from %.4f to %.4f; want 0.5 (zero weights) to ≥ 0.85", first.TestAUC, last.TestAUC)
			}
			plain, err := Train(context.Background(), tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plain.Weights, tr.Weights) || plain.TestAUC != last.TestAUC || tr.TestAUC != last.TestAUC {
				t.Errorf("trace ends at AUC %.6f (result %.6f), Train gives %.6f; same weights: %v",
					last.TestAUC, tr.TestAUC, plain.TestAUC, slices.Equal(plain.Weights, tr.Weights))
			}
			if tr.Seconds <= 0 || tr.Seconds < last.Seconds*0.5 {
				t.Errorf("training seconds %.6f, last point %.6f", tr.Seconds, last.Seconds)
			}
		})
	}
}

// TestTraceBatch: a batch algorithm's trace is its one fitted model.
func TestTraceBatch(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	cfg := TrainConfig{Algo: "ls-auc", Data: "a9a", Seed: 1, Backend: fallback.New()}
	tr, err := Trace(context.Background(), TraceConfig{TrainConfig: cfg})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Points) != 1 || tr.Points[0].Seen != 32_561 || tr.Points[0].TestAUC != plain.TestAUC || tr.Passes != 0 {
		t.Errorf("batch trace %+v (passes %d), want one point at 32561 with AUC %.6f", tr.Points, tr.Passes, plain.TestAUC)
	}
}

func TestTraceErrors(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	tests := []struct {
		name string
		cfg  TraceConfig
		want string
	}{
		{"no test data", TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "german"}}, "no test data"},
		{"checkpoint", TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "a9a", Checkpoint: "x.ckpt"}}, "checkpoints are not supported"},
		{"negative every", TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "a9a"}, Every: -1}, "every -1"},
		{"unknown algorithm", TraceConfig{TrainConfig: TrainConfig{Algo: "svm", Data: "a9a"}}, `unknown algorithm "svm"`},
		{"batch passes", TraceConfig{TrainConfig: TrainConfig{Algo: "ls-auc", Data: "a9a", Passes: 2}}, "batch algorithm"},
	}
	for _, tt := range tests {
		_, err := Trace(context.Background(), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Trace(ctx, TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "a9a"}}); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("cancelled trace: %v", err)
	}
}

func TestTraceJSON(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	tr, err := Trace(context.Background(), TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "a9a", Backend: fallback.New()}, Every: 16_000})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Algo    string       `json:"algo"`
		TestAUC float64      `json:"test_auc"`
		Every   int64        `json:"every"`
		Points  []TracePoint `json:"points"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Algo != "olr" || got.Every != 16_000 || len(got.Points) != 4 || got.TestAUC != got.Points[3].TestAUC {
		t.Errorf("JSON %s", b)
	}
}

// ExampleTrace records OLR's test AUC on the embedded a9a every 10,000 examples.
func ExampleTrace() {
	tr, err := Trace(context.Background(), TraceConfig{
		TrainConfig: TrainConfig{Algo: "olr", Data: "a9a", Shuffle: true, Seed: 1, Backend: fallback.New()},
		Every:       10_000,
	})
	if err != nil {
		panic(err)
	}
	for _, p := range tr.Points {
		fmt.Printf("%5d examples: test AUC %.2f\n", p.Seen, p.TestAUC)
	}
	// Output:
	//     0 examples: test AUC 0.50
	// 10000 examples: test AUC 0.90
	// 20000 examples: test AUC 0.90
	// 30000 examples: test AUC 0.90
	// 32561 examples: test AUC 0.90
}
