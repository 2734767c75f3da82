package metric

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// bruteAUC is the O(n²) definition: pairs (positive, negative) ordered correctly count
// 1, ties ½.
func bruteAUC(s []float64, y []int8) float64 {
	var num, pairs float64
	for i := range s {
		if y[i] != 1 {
			continue
		}
		for j := range s {
			if y[j] != -1 {
				continue
			}
			pairs++
			switch {
			case s[i] > s[j]:
				num++
			case s[i] == s[j]:
				num += 0.5
			}
		}
	}
	return num / pairs
}

func TestAUCHandPicked(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name   string
		scores []float64
		y      []int8
		want   float64
	}{
		{"perfect", []float64{3, 2, 1, 0}, []int8{1, 1, -1, -1}, 1},
		{"reversed", []float64{0, 1, 2, 3}, []int8{1, 1, -1, -1}, 0},
		{"all tied", []float64{5, 5, 5, 5, 5}, []int8{1, -1, -1, 1, -1}, 0.5},
		{"one tie", []float64{2, 1, 1, 0}, []int8{1, 1, -1, -1}, (1 + 1 + 0.5 + 1) / 4.0},
		{"interleaved", []float64{0.9, 0.8, 0.7, 0.6}, []int8{1, -1, 1, -1}, 3 / 4.0},
		{"infinities", []float64{inf, -inf, 0}, []int8{1, -1, -1}, 1},
	}
	for _, tt := range tests {
		got, err := AUC(tt.scores, tt.y)
		if err != nil || got != tt.want {
			t.Errorf("%s: AUC = %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestAUCErrors(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		y      []int8
		want   error
	}{
		{"no negatives", []float64{1, 2}, []int8{1, 1}, ErrOneClass},
		{"no positives", []float64{1, 2}, []int8{-1, -1}, ErrOneClass},
		{"empty", nil, nil, ErrOneClass},
		{"label 0", []float64{1, 2}, []int8{1, 0}, ErrLabel},
		{"NaN score", []float64{1, math.NaN(), 3}, []int8{1, -1, 1}, ErrNaN},
	}
	for _, tt := range tests {
		if _, err := AUC(tt.scores, tt.y); !errors.Is(err, tt.want) {
			t.Errorf("%s: AUC error = %v, want %v", tt.name, err, tt.want)
		}
		if _, err := ROC(tt.scores, tt.y); !errors.Is(err, tt.want) {
			t.Errorf("%s: ROC error = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestAUCBruteForce compares with the O(n²) definition on random data with many ties,
// and checks that the ROC's trapezoid area is exactly the same number.
func TestAUCBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		n := 2 + r.IntN(400)
		levels := 1 + r.IntN(20) // few distinct scores: many ties
		s := make([]float64, n)
		y := make([]int8, n)
		for i := range s {
			s[i] = float64(r.IntN(levels)) / 3
			y[i] = int8(2*r.IntN(2) - 1)
		}
		y[0], y[1] = 1, -1
		pts := checkBrute(t, trial, s, y, 1e-12)
		distinct := map[float64]bool{}
		for _, v := range s {
			distinct[v] = true
		}
		if len(pts) != len(distinct)+1 {
			t.Fatalf("trial %d: %d ROC points for %d distinct scores, want one each plus the origin", trial, len(pts), len(distinct))
		}
	}
}

func TestROCShape(t *testing.T) {
	pts, err := ROC([]float64{0.9, 0.5, 0.5, 0.1}, []int8{1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{
		{0, 0, 0, 0, math.Inf(1)},
		{0, 0.5, 0, 1, 0.9},
		{0.5, 1, 1, 2, 0.5},
		{1, 1, 2, 2, 0.1},
	}
	if len(pts) != len(want) {
		t.Fatalf("ROC = %v, want %v", pts, want)
	}
	for i := range want {
		if pts[i] != want[i] {
			t.Errorf("ROC[%d] = %+v, want %+v", i, pts[i], want[i])
		}
	}
}

func TestMeanStd(t *testing.T) {
	m, s := MeanStd([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if m != 5 || math.Abs(s-2.138089935299395) > 1e-15 {
		t.Errorf("MeanStd = %v, %v; want 5, 2.1380899… (sample std)", m, s)
	}
	if m, s := MeanStd([]float64{3}); m != 3 || s != 0 {
		t.Errorf("MeanStd([3]) = %v, %v; want 3, 0", m, s)
	}
	if m, _ := MeanStd(nil); !math.IsNaN(m) {
		t.Errorf("MeanStd(nil) mean = %v, want NaN", m)
	}
}

func TestPairedTTest(t *testing.T) {
	tests := []struct {
		name  string
		a, b  []float64
		want  Outcome
		wantP float64 // -1: not checked
	}{
		// d = a−b = {1,2,3,4,5}: mean 3, sd √2.5, t = 3/(√2.5/√5) = 4.2426, df 4, p = 0.0132356 (scipy.stats.ttest_rel).
		{"clear win", []float64{2, 3, 4, 5, 6}, []float64{1, 1, 1, 1, 1}, Win, 0.0132356},
		{"clear loss", []float64{1, 1, 1, 1, 1}, []float64{2, 3, 4, 5, 6}, Loss, 0.0132356},
		{"noise is a tie", []float64{0.80, 0.82, 0.79, 0.81}, []float64{0.81, 0.80, 0.80, 0.80}, Tie, 0.7608204},
		{"identical", []float64{0.8, 0.9}, []float64{0.8, 0.9}, Tie, 1},
		{"constant shift", []float64{0.9, 0.8, 0.7}, []float64{0.8, 0.7, 0.6}, Win, -1},
	}
	for _, tt := range tests {
		got, p, err := PairedTTest(tt.a, tt.b, 0.05)
		if err != nil || got != tt.want {
			t.Errorf("%s: PairedTTest = %v (p=%v), %v; want %v", tt.name, got, p, err, tt.want)
		}
		if tt.wantP >= 0 && math.Abs(p-tt.wantP) > 1e-6 {
			t.Errorf("%s: p = %v, want %v", tt.name, p, tt.wantP)
		}
	}
	if _, _, err := PairedTTest([]float64{1}, []float64{2}, 0.05); !errors.Is(err, ErrTooFewPairs) {
		t.Errorf("one pair: error %v, want ErrTooFewPairs", err)
	}
}

// TestAUCRadix: past radixMin scores of a class, AUC sorts integer keys by radix; on
// signed scores of every magnitude with ±0 (tied), ±Inf, subnormals and repeats it
// equals the brute-force count and the ROC's area bit for bit.
func TestAUCRadix(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	pool := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), 5e-324, -5e-324,
		math.MaxFloat64, -math.MaxFloat64, 1, -1, 0.5, -0.5, 1e-300, -1e300}
	for trial := range 20 {
		n := 300 + r.IntN(2500)
		s := make([]float64, n)
		y := make([]int8, n)
		for i := range s {
			switch r.IntN(3) {
			case 0:
				s[i] = pool[r.IntN(len(pool))]
			case 1:
				s[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			default:
				s[i] = float64(r.IntN(7) - 3)
			}
			y[i] = int8(2*r.IntN(2) - 1)
		}
		y[0], y[1] = 1, -1
		checkBrute(t, trial, s, y, 0)
	}
}

// checkBrute fails unless AUC(s, y) is within tol of the brute-force count and the
// ROC's area is that AUC bit for bit; it returns the ROC.
func checkBrute(t *testing.T, trial int, s []float64, y []int8, tol float64) []Point {
	t.Helper()
	want := bruteAUC(s, y)
	got, err := AUC(s, y)
	if err != nil || math.Abs(got-want) > tol {
		t.Fatalf("trial %d (n=%d): AUC = %v, %v; brute force %v", trial, len(s), got, err, want)
	}
	pts, err := ROC(s, y)
	if err != nil {
		t.Fatal(err)
	}
	if a := Area(pts); a != got {
		t.Fatalf("trial %d: Area(ROC) = %v, AUC = %v; want them bit-identical", trial, a, got)
	}
	return pts
}
