package solver

import (
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

func TestFactsOf(t *testing.T) {
	// Rows (1, 2), (0, 0), (3, 0): squared norms 5, 0, 9.
	dense, err := data.NewDense("t", 2, []int8{1, -1, 1}, []float64{1, 2, 0, 0, 3, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*data.Dataset{dense, dense.ToSparse()} {
		f := FactsOf(d)
		want := DataFacts{Rows: 3, Features: 2, MeanSqNorm: 14.0 / 3, Positives: 2}
		if f != want {
			t.Errorf("FactsOf(dense=%v) = %+v, want %+v", d.IsDense(), f, want)
		}
		if got := f.RidgeScale(); math.Abs(got-14.0/9) > 1e-15 {
			t.Errorf("RidgeScale = %v, want 14/9", got)
		}
	}
	if (DataFacts{}).RidgeScale() != 0 || (DataFacts{}).Known() {
		t.Error("empty facts: want RidgeScale 0 and not Known")
	}
}

// TestDataDefaults checks each rule against its formula on two datasets of different
// shape, and that unknown facts leave the static defaults.
func TestDataDefaults(t *testing.T) {
	small := DataFacts{Rows: 146, Features: 60, MeanSqNorm: 21.34, Positives: 68}    // sonar
	large := DataFacts{Rows: 34190, Features: 123, MeanSqNorm: 123, Positives: 8181} // a9a
	tests := []struct {
		algo, key string
		want      func(f DataFacts) float64
	}{
		{"ls-auc", "lambda", func(f DataFacts) float64 { return 2 * f.MeanSqNorm / float64(f.Rows) }},
		{"mba-l2", "lambda2", func(f DataFacts) float64 { return 2 * f.MeanSqNorm / float64(f.Rows) }},
		{"mba-l1", "lambda1", func(f DataFacts) float64 { return 0.5 * f.MeanSqNorm / float64(f.Rows) }},
		{"mba-el", "lambda1", func(f DataFacts) float64 { return 0.25 * f.MeanSqNorm / float64(f.Rows) }},
		{"mba-el", "lambda2", func(f DataFacts) float64 { return f.MeanSqNorm / float64(f.Rows) }},
		{"svm-or", "lambda", func(f DataFacts) float64 { return f.MeanSqNorm / float64(f.Rows) }},
		{"mb-psl", "lambda", func(f DataFacts) float64 { return 2 * f.MeanSqNorm / float64(f.Rows) }},
		{"mb-phl", "lambda", func(f DataFacts) float64 { return f.MeanSqNorm / float64(f.Rows) }},
		{"mb-psl", "eta", func(f DataFacts) float64 { return clamp(3/f.MeanSqNorm, 0x1p-6, 0x1p-2) }},
		{"mb-phl", "eta", func(f DataFacts) float64 { return clamp(4/math.Sqrt(f.MeanSqNorm), 0x1p-2, 4) }},
		{"spdam", "lambda", func(f DataFacts) float64 {
			if f.Rows >= 5000 {
				return math.Max(2*f.MeanSqNorm/float64(f.Rows), 0.1)
			}
			return math.Max(2*f.MeanSqNorm/float64(f.Rows), 0.01)
		}},
		{"unilog", "lambda", func(f DataFacts) float64 { return math.Max(2/float64(f.Rows), 3e-3) }},
		{"opauc", "eta", func(f DataFacts) float64 { return 0.1 / f.MeanSqNorm }},
		{"opaucr", "eta", func(f DataFacts) float64 { return 0.1 / f.MeanSqNorm }},
		{"opauc-f", "eta", func(f DataFacts) float64 { return 0.1 / f.MeanSqNorm }},
		{"opauc-rp", "eta", func(f DataFacts) float64 { return 0.1 / f.MeanSqNorm }},
	}
	for _, tt := range tests {
		spec, err := Lookup(tt.algo)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Defaults == nil {
			t.Errorf("%s: no Defaults", tt.algo)
			continue
		}
		for _, f := range []DataFacts{small, large} {
			p := spec.Params()
			spec.Defaults(f, p)
			got := p.Values()[tt.key].(float64)
			if want := tt.want(f); math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s %s on %v = %v, want %v", tt.algo, tt.key, f, got, want)
			}
		}
		p, static := spec.Params(), spec.Params()
		spec.Defaults(DataFacts{Rows: 10, Features: 3}, p) // norms unknown (streamed)
		if p.Values()[tt.key] != static.Values()[tt.key] {
			t.Errorf("%s: unknown facts changed %s to %v", tt.algo, tt.key, p.Values()[tt.key])
		}
	}
}

// TestDataDefaultsValid checks that every data-scaled default passes its learner's own
// parameter check, on data from two rows to a million, and a heavy ridge (a learner of 3 features).
func TestDataDefaultsValid(t *testing.T) {
	for _, s := range Registry() {
		if s.Defaults == nil {
			continue
		}
		for _, f := range []DataFacts{{Rows: 2, Features: 1, MeanSqNorm: 1e-6, Positives: 1},
			{Rows: 1_000_000, Features: 100_000, MeanSqNorm: 1e4, Positives: 10},
			{Rows: 10, Features: 1000, MeanSqNorm: 1000, Positives: 5}} { // ρ = 100
			p := s.Params()
			s.Defaults(f, p)
			var err error
			if s.IsBatch() {
				_, err = s.NewBatch(fallback.New(), 3, p, 1)
			} else {
				_, err = s.NewOnline(fallback.New(), 3, p, 1)
			}
			if err != nil {
				t.Errorf("%s on %v: %v", s.Name, f, err)
			}
		}
	}
}
