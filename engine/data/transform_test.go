package data

import (
	"math"
	"testing"
)

func TestMinMax(t *testing.T) {
	// feature 1: stored in every row, range [2, 6]; feature 2: 0/1 with implicit zeros;
	// feature 3: constant 5 in every row; feature 4: never present.
	train, err := readString(t, "+1 1:2 2:1 3:5\n-1 1:6 3:5\n+1 1:4 3:5\n", Options{Dim: 4})
	if err != nil {
		t.Fatal(err)
	}
	s, err := FitMinMax(train, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Apply(train)
	want := [][]float64{{-1, 1, 0, 0}, {1, -1, 0, 0}, {0, -1, 0, 0}}
	for i, w := range want {
		dense := make([]float64, 4)
		r := got.Row(i)
		for k, j := range r.Idx {
			dense[j] = r.Val[k]
		}
		for j := range w {
			if math.Abs(dense[j]-w[j]) > 1e-15 {
				t.Errorf("row %d = %v, want %v", i, dense, w)
				break
			}
		}
	}
	// Test data goes through the training map, even beyond the range.
	test, _ := readString(t, "+1 1:10\n", Options{Dim: 4})
	r := s.Apply(test).Row(0)
	if r.Val[0] != 3 || r.Idx[1] != 1 || r.Val[1] != -1 {
		t.Errorf("test row = %v, want feature 0 → 3 and feature 1 → -1", r)
	}
	if _, err := FitMinMax(train, 1, 1); err == nil {
		t.Error("empty range: want an error")
	}
}

func TestMinMaxA9a(t *testing.T) {
	t.Setenv(EnvData, t.TempDir())
	sp, err := Load("a9a", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := FitMinMax(sp.Train, -1, 1)
	d := s.Apply(sp.Test)
	for _, v := range d.Val {
		if v != 1 && v != -1 {
			t.Fatalf("a9a's 0/1 features must scale to ±1, got %v", v)
		}
	}
	// every feature seen in training is now dense; some a9a features are constant
	if nnz := d.Nnz(); nnz > d.Rows()*123 || nnz < d.Rows()*100 {
		t.Errorf("scaled a9a test has %d values for %d rows", nnz, d.Rows())
	}
}

func TestRowNormalizer(t *testing.T) {
	d, _ := readString(t, "+1 1:3 2:4\n-1 1:1\n+1 3:0\n", Options{})
	plain := FitRowNormalizer(d, false).Apply(d)
	if r := plain.Row(0); r.Val[0] != 0.6 || r.Val[1] != 0.8 {
		t.Errorf("x/‖x‖ of (3,4) = %v, want (0.6, 0.8)", r)
	}
	c := FitRowNormalizer(d, true)
	if m := c.Mean; m[0] != 4.0/3 || m[1] != 4.0/3 || m[2] != 0 {
		t.Errorf("mean = %v", m)
	}
	r := c.Apply(d).Row(1) // ((1,0,0) − (4/3, 4/3, 0))/1
	if len(r.Idx) != 2 || math.Abs(r.Val[0]+1.0/3) > 1e-15 || math.Abs(r.Val[1]+4.0/3) > 1e-15 {
		t.Errorf("centred row = %v, want (-1/3, -4/3)", r)
	}
	if r := c.Apply(d).Row(2); len(r.Idx) != 0 {
		t.Errorf("a zero row must stay zero, got %v", r)
	}
}
