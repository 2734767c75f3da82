package eval

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
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

// TestSpan: OPAUC trained on the span coordinates scores every row as OPAUC on the
// features does, up to one constant, and the inner selection picks the same point
// with the same validation AUC with and without the reduction.
func TestSpan(t *testing.T) {
	train := spanA9a(t)
	b := fallback.New()
	s, err := fitSpan(b, train)
	if err != nil {
		t.Fatal(err)
	}
	if s == nil || s.r >= train.Dim || s.r < 90 {
		t.Fatalf("span of a9a's centred rows: %v, want between 90 and %d dimensions", s, train.Dim-1)
	}
	red, err := s.apply(b, train)
	if err != nil {
		t.Fatal(err)
	}
	if red.Dim != s.r || red.Rows() != train.Rows() {
		t.Fatalf("reduced data is %d×%d, want %d×%d", red.Rows(), red.Dim, train.Rows(), s.r)
	}
	spec, err := solver.Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Params()
	if err := solver.SetAll(p, []string{"eta=0.00390625", "lambda=0.015625"}); err != nil {
		t.Fatal(err)
	}
	w, err := fit(context.Background(), spec, b, train, p, 3)
	if err != nil {
		t.Fatal(err)
	}
	v, err := fit(context.Background(), spec, b, red, p, 3)
	if err != nil {
		t.Fatal(err)
	}
	full, reduced := engine.Score(w, train), engine.Score(v, red)
	shift := full[0] - reduced[0]
	for i := range full {
		if e := math.Abs(full[i] - reduced[i] - shift); e > 1e-9*(1+math.Abs(full[i])) {
			t.Fatalf("row %d: score %.12g on the features, %.12g + %.12g on the span", i, full[i], reduced[i], shift)
		}
	}

	proto := Protocol{InnerFolds: 3}
	var params []any
	for _, eta := range []float64{0x1p-12, 0x1p-8, 0x1p-5, 0x1p2} {
		for _, lambda := range []float64{0x1p-10, 0x1p-2} {
			q := spec.Params()
			if err := solver.SetAll(q, []string{fmt.Sprintf("eta=%g", eta), fmt.Sprintf("lambda=%g", lambda)}); err != nil {
				t.Fatal(err)
			}
			params = append(params, q)
		}
	}
	plain := spec
	plain.Rotational = false
	bestR, valR, err := selectPoint(context.Background(), proto, spec, b, train, params, 5)
	if err != nil {
		t.Fatal(err)
	}
	bestP, valP, err := selectPoint(context.Background(), proto, plain, b, train, params, 5)
	if err != nil {
		t.Fatal(err)
	}
	if bestR != bestP || math.Abs(valR-valP) > 1e-9 {
		t.Errorf("selection on the span: point %d, AUC %.12f; on the features: point %d, AUC %.12f", bestR, valR, bestP, valP)
	}
}
