package data

import (
	"slices"
	"testing"
)

// labels returns pos positives followed by neg negatives.
func labels(pos, neg int) []int8 {
	y := make([]int8, pos+neg)
	for i := range y {
		y[i] = -1
		if i < pos {
			y[i] = 1
		}
	}
	return y
}

func TestStratifiedKFold(t *testing.T) {
	for _, tt := range []struct{ n, pos, k int }{{100, 30, 5}, {101, 17, 5}, {23, 5, 5}, {1000, 300, 10}, {10, 2, 2}} {
		y := make([]int8, tt.n)
		for i := range y {
			y[i] = -1
			if i < tt.pos {
				y[i] = 1
			}
		}
		folds, err := StratifiedKFold(y, tt.k, 42)
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, tt.n)
		for f, fold := range folds {
			if len(fold.Train)+len(fold.Test) != tt.n {
				t.Errorf("n=%d fold %d: %d + %d rows", tt.n, f, len(fold.Train), len(fold.Test))
			}
			if !slices.IsSorted(fold.Test) || !slices.IsSorted(fold.Train) {
				t.Errorf("fold %d: indices not sorted", f)
			}
			p := 0
			for _, i := range fold.Test {
				seen[i]++
				if y[i] == 1 {
					p++
				}
			}
			// each fold's positives within one of pos/k; sizes within one of n/k
			if lo := tt.pos / tt.k; p < lo || p > lo+1 {
				t.Errorf("n=%d pos=%d fold %d: %d positives, want %d or %d", tt.n, tt.pos, f, p, lo, lo+1)
			}
			if lo := tt.n / tt.k; len(fold.Test) < lo || len(fold.Test) > lo+1 {
				t.Errorf("n=%d fold %d: %d test rows, want %d or %d", tt.n, f, len(fold.Test), lo, lo+1)
			}
		}
		for i, s := range seen {
			if s != 1 {
				t.Fatalf("row %d tested %d times, want once", i, s)
			}
		}
		again, _ := StratifiedKFold(y, tt.k, 42)
		if !slices.Equal(again[0].Test, folds[0].Test) {
			t.Error("same seed, different folds")
		}
		other, _ := StratifiedKFold(y, tt.k, 43)
		if slices.Equal(other[0].Test, folds[0].Test) && tt.n > 20 {
			t.Error("seeds 42 and 43 gave the same first fold")
		}
	}
	if _, err := StratifiedKFold([]int8{1, -1, -1, -1}, 2, 1); err == nil {
		t.Error("one positive in two folds: want an error")
	}
	if _, err := StratifiedKFold([]int8{1, -1}, 1, 1); err == nil {
		t.Error("k = 1: want an error")
	}
}

func TestRepeatedKFold(t *testing.T) {
	y := labels(40, 160)
	r, err := RepeatedKFold(y, 5, 5, 9)
	if err != nil || len(r) != 5 || len(r[4]) != 5 {
		t.Fatalf("RepeatedKFold: %d trials, %v", len(r), err)
	}
	if slices.Equal(r[0][0].Test, r[1][0].Test) {
		t.Error("trials 0 and 1 share their first fold")
	}
	single, _ := StratifiedKFold(y, 5, 10)
	if !slices.Equal(r[1][2].Test, single[2].Test) {
		t.Error("trial 1 must equal StratifiedKFold with seed+1")
	}
}

func TestTrainTestSplitAndSubsample(t *testing.T) {
	y := labels(50, 150)
	f, err := TrainTestSplit(y, 0.5, 3)
	if err != nil {
		t.Fatal(err)
	}
	p := 0
	for _, i := range f.Train {
		if y[i] == 1 {
			p++
		}
	}
	if len(f.Train) != 100 || p != 25 {
		t.Errorf("50%% split: %d train rows with %d positives, want 100 with 25", len(f.Train), p)
	}
	if _, err := TrainTestSplit(y, 1, 3); err == nil {
		t.Error("fraction 1: want an error")
	}
	s, err := Subsample(1000, 0.8, 5)
	if err != nil || len(s) != 800 || !slices.IsSorted(s) {
		t.Fatalf("Subsample: %d rows, sorted %t, %v", len(s), slices.IsSorted(s), err)
	}
	s2, _ := Subsample(1000, 0.8, 5)
	if !slices.Equal(s, s2) {
		t.Error("same seed, different subsample")
	}
	if p := Shuffle(10, 1); len(p) != 10 || slices.Equal(p, Shuffle(10, 2)) {
		t.Errorf("Shuffle(10) = %v", p)
	}
}
