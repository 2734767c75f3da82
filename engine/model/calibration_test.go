package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// bruteIsotonic is the weighted isotonic regression of v by its min-max formula,
// f_i = max_{j≤i} min_{k≥i} mean_w(v[j..k]), in O(n³): independent of PAV.
func bruteIsotonic(v, w []float64) []float64 {
	n := len(v)
	f := make([]float64, n)
	for i := range n {
		best := math.Inf(-1)
		for j := 0; j <= i; j++ {
			low := math.Inf(1)
			for k := i; k < n; k++ {
				var s, sw float64
				for l := j; l <= k; l++ {
					s, sw = s+w[l]*v[l], sw+w[l]
				}
				low = min(low, s/sw)
			}
			best = max(best, low)
		}
		f[i] = best
	}
	return f
}

// expand turns PAV's blocks into one value per point.
func expand(blocks []Block, n int) []float64 {
	f := make([]float64, n)
	for _, b := range blocks {
		for i := b.Start; i < b.End; i++ {
			f[i] = b.Value
		}
	}
	return f
}

func TestPAV(t *testing.T) {
	ones := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	known := []struct {
		name string
		v, w []float64
		want []float64
	}{
		{"sorted", []float64{1, 2, 3}, ones(3), []float64{1, 2, 3}},
		{"one violator", []float64{1, 3, 2, 4}, ones(4), []float64{1, 2.5, 2.5, 4}},
		{"chain", []float64{1, 3, 2, 4, 3, 5}, ones(6), []float64{1, 2.5, 2.5, 3.5, 3.5, 5}},
		{"reversed", []float64{3, 2, 1}, ones(3), []float64{2, 2, 2}},
		{"weighted", []float64{0, 1, 0}, []float64{1, 3, 1}, []float64{0, 0.75, 0.75}},
		{"back two blocks", []float64{2, 4, 5, 0}, ones(4), []float64{2, 3, 3, 3}},
		{"ties pooled", []float64{1, 1, 0, 2}, ones(4), []float64{2.0 / 3, 2.0 / 3, 2.0 / 3, 2}},
	}
	for _, tt := range known {
		blocks := PAV(tt.v, tt.w)
		if got := expand(blocks, len(tt.v)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: PAV = %v, want %v", tt.name, got, tt.want)
		}
		for k := 1; k < len(blocks); k++ {
			if blocks[k].Value <= blocks[k-1].Value {
				t.Errorf("%s: blocks %v: values not strictly increasing", tt.name, blocks)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + r.IntN(9)
		v, w := make([]float64, n), make([]float64, n)
		for i := range v {
			v[i], w[i] = float64(r.IntN(5)), 0.5+float64(r.IntN(4))
		}
		got, want := expand(PAV(v, w), n), bruteIsotonic(v, w)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-12 {
				t.Fatalf("trial %d: PAV(%v, %v) = %v, brute force %v", trial, v, w, got, want)
			}
		}
	}
}

func TestFitIsotonic(t *testing.T) {
	// Scores 1..6 (two rows at 3, one positive, one negative): labels 0 0 {1,0} 1 0 1.
	scores := []float64{4, 1, 3, 2, 3, 5, 6}
	y := []int8{1, -1, 1, -1, -1, -1, 1}
	c, err := FitIsotonic(scores, y)
	if err != nil {
		t.Fatal(err)
	}
	// Distinct scores 1 2 3 4 5 6 with means 0 0 .5 1 0 1 (weights 1 1 2 1 1 1): PAV
	// pools {4, 5} to .5, then {3, 4, 5} (mean .5, weight 4): blocks [1,2]→0,
	// [3..5]→.5, [6]→1.
	wantX, wantY := []float64{1, 2, 3, 5, 6}, []float64{0, 0, 0.5, 0.5, 1}
	if !reflect.DeepEqual(c.X, wantX) || !reflect.DeepEqual(c.Y, wantY) {
		t.Fatalf("knots %v → %v, want %v → %v", c.X, c.Y, wantX, wantY)
	}
	for _, tt := range []struct{ s, p float64 }{{0, 0}, {1.5, 0}, {2.5, 0.25}, {4, 0.5}, {5.5, 0.75}, {6, 1}, {9, 1}} {
		if got := c.Prob(tt.s); math.Abs(got-tt.p) > 1e-15 {
			t.Errorf("Prob(%v) = %v, want %v (interpolated between knots, constant outside)", tt.s, got, tt.p)
		}
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

// newtonPlatt fits Platt's sigmoid by plain Newton steps from (0, 0) on data where
// they converge: the direct fit FitPlatt's safeguarded one must agree with.
func newtonPlatt(scores []float64, tgt []float64) (a, b float64) {
	for range 100 {
		var g1, g2, h11, h12, h22 float64
		for i, s := range scores {
			p := 1 / (1 + math.Exp(-(a*s + b)))
			g1, g2 = g1+(p-tgt[i])*s, g2+(p-tgt[i])
			d := p * (1 - p)
			h11, h12, h22 = h11+d*s*s, h12+d*s, h22+d
		}
		det := h11*h22 - h12*h12
		a -= (h22*g1 - h12*g2) / det
		b -= (h11*g2 - h12*g1) / det
	}
	return a, b
}

func TestFitPlatt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tt := range []struct {
		name   string
		n      int
		slope  float64
		offset float64
	}{{"balanced", 400, 2, 0}, {"rare positives", 1000, 1.5, -2}, {"steep", 300, 6, 1}} {
		scores, y := make([]float64, tt.n), make([]int8, tt.n)
		for i := range scores {
			scores[i] = r.NormFloat64()
			y[i] = -1
			if r.Float64() < 1/(1+math.Exp(-(tt.slope*scores[i]+tt.offset))) {
				y[i] = 1
			}
		}
		c, err := FitPlatt(scores, y)
		if err != nil {
			t.Fatal(err)
		}
		var pos, neg float64
		for _, v := range y {
			if v > 0 {
				pos++
			} else {
				neg++
			}
		}
		tgt := make([]float64, len(y))
		for i, v := range y {
			tgt[i] = 1 / (neg + 2)
			if v > 0 {
				tgt[i] = (pos + 1) / (pos + 2)
			}
		}
		a, b := newtonPlatt(scores, tgt)
		if math.Abs(c.A-a) > 1e-4*max(1, math.Abs(a)) || math.Abs(c.B-b) > 1e-4*max(1, math.Abs(b)) {
			t.Errorf("%s: FitPlatt a=%v b=%v, direct Newton a=%v b=%v", tt.name, c.A, c.B, a, b)
		}
		if got, want := c.Prob(0.3), 1/(1+math.Exp(-(c.A*0.3+c.B))); math.Abs(got-want) > 1e-15 {
			t.Errorf("%s: Prob(0.3) = %v, want σ(a·0.3+b) = %v", tt.name, got, want)
		}
	}
	// Separable scores: the smoothed targets keep a finite.
	c, err := FitPlatt([]float64{-2, -1, 1, 2}, []int8{-1, -1, 1, 1})
	if err != nil || math.IsInf(c.A, 0) || math.IsNaN(c.A) || c.A <= 0 {
		t.Errorf("separable: a=%v, %v; want a finite positive slope", c.A, err)
	}
	for _, bad := range []struct {
		s []float64
		y []int8
	}{{[]float64{1, 2}, []int8{1, 1}}, {nil, nil}, {[]float64{math.NaN(), 1}, []int8{1, -1}}} {
		if _, err := Fit(CalibratePlatt, bad.s, bad.y); !errors.Is(err, ErrCalibration) {
			t.Errorf("Fit(%v, %v) = %v, want ErrCalibration", bad.s, bad.y, err)
		}
		if _, err := Fit(CalibrateIsotonic, bad.s, bad.y); !errors.Is(err, ErrCalibration) {
			t.Errorf("isotonic Fit(%v, %v) = %v, want ErrCalibration", bad.s, bad.y, err)
		}
	}
}

// TestCalibrationRoundTrip: a calibrated model reads back with the same map, a model
// without one reads as before, and a bad calibration is refused on reading.
func TestCalibrationRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []*Calibration{
		{Method: CalibratePlatt, A: 1.25, B: -0.3, Rows: 40, Holdout: 0.2},
		{Method: CalibrateIsotonic, X: []float64{-1, 0.5, 2}, Y: []float64{0.1, 0.1, 0.9}, Rows: 40, Holdout: 0.25},
	} {
		m := sample("none", []float64{0.5, -1, 2})
		m.Calibration = c
		path := filepath.Join(dir, c.Method+".json")
		if err := m.Write(path); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Calibration, c) {
			t.Errorf("%s: read %+v, wrote %+v", c.Method, got.Calibration, c)
		}
		if p := got.Probabilities([]float64{0, 1}); len(p) != 2 || p[0] != c.Prob(0) || p[1] != c.Prob(1) {
			t.Errorf("%s: Probabilities = %v", c.Method, p)
		}
	}
	old := sample("none", []float64{0.5, -1, 2})
	b, err := old.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if m, err := Decode(b, "old.json"); err != nil || m.Calibration != nil || m.Probabilities([]float64{1}) != nil {
		t.Errorf("a model without calibration: %v, %+v", err, m)
	}
	for _, bad := range []string{
		`{"method": "probit"}`,
		`{"method": "platt", "a": 1, "x": [1], "y": [0.5]}`,
		`{"method": "isotonic", "x": [1, 0], "y": [0.1, 0.2]}`,
		`{"method": "isotonic", "x": [0, 1], "y": [0.3, 0.2]}`,
		`{"method": "isotonic", "x": [0, 1], "y": [0.3, 1.5]}`,
		`{"method": "isotonic", "x": [], "y": []}`,
	} {
		nb := append(append([]byte{}, b[:len(b)-1]...), []byte(`,"calibration":`+bad+`}`)...)
		if _, err := Decode(nb, "bad.json"); !errors.Is(err, ErrModel) {
			t.Errorf("calibration %s: %v, want ErrModel", bad, err)
		}
	}
}

// TestVocabularyRoundTrip: a hashed table model's vocabulary reads back as written, and
// terms outside its hashed buckets or without a table are refused.
func TestVocabularyRoundTrip(t *testing.T) {
	m := sample("none", make([]float64, 1+8))
	m.Weights[1], m.Weights[5] = 0.5, -1
	m.Table = &data.Schema{Label: "click", Numeric: []string{"age"}, Categorical: []string{"site"}, Hash: data.HashMurmur3Canonical,
		HashBits: 3, Missing: data.MissingError}
	m.Vocabulary = []data.VocabTerm{{Feature: 5, Term: "site=a", Sign: -1, Count: 7}, {Feature: 1, Term: "site=b", Sign: 1, Count: 2}}
	m.VocabularyRows, m.VocabularyTruncated = 100, true
	path := filepath.Join(t.TempDir(), "v.json")
	if err := m.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Vocabulary, m.Vocabulary) || got.VocabularyRows != 100 || !got.VocabularyTruncated {
		t.Errorf("read %+v rows %d truncated %v", got.Vocabulary, got.VocabularyRows, got.VocabularyTruncated)
	}
	for _, bad := range []data.VocabTerm{{Feature: 0, Term: "site=a", Sign: 1, Count: 1}, {Feature: 9, Term: "site=a", Sign: 1, Count: 1},
		{Feature: 2, Term: "site=a", Sign: 0, Count: 1}, {Feature: 2, Term: "site=a", Sign: 1, Count: 0}} {
		m.Vocabulary = []data.VocabTerm{bad}
		if err := m.Validate(); !errors.Is(err, ErrModel) {
			t.Errorf("term %+v: %v, want ErrModel", bad, err)
		}
	}
	plain := sample("none", []float64{1, 2})
	plain.Vocabulary = []data.VocabTerm{{Feature: 1, Term: "x=y", Sign: 1, Count: 1}}
	if err := plain.Validate(); !errors.Is(err, ErrModel) {
		t.Errorf("a vocabulary without a table: %v", err)
	}
}
