package data

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// binsData has four features over ten rows: 1..10, a binary one, a constant one and a
// sparse one (three values among implicit zeros).
func binsData() *Dataset {
	d := &Dataset{Name: "bins", Dim: 4}
	for i := range 10 {
		x := kernels.Sparse{Idx: []int32{0, 1, 2}, Val: []float64{float64(i + 1), float64(i % 2), 7}}
		if i >= 7 {
			x.Idx, x.Val = append(x.Idx, 3), append(x.Val, float64(i))
		}
		d.Append(int8(1-2*(i%2)), float64(1-2*(i%2)), x)
	}
	d.Dim = 4
	return d
}

func TestFitBins(t *testing.T) {
	d := binsData()
	b, err := FitBins(d, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{3, 5, 7, 9}, nil, nil, {8}} // feature 4: 0,…,0,7,8,9 sorted: v[8] = 8
	for j := range want {
		if !slices.Equal(b.Edges[j], want[j]) {
			t.Errorf("feature %d: edges %v, want %v", j+1, b.Edges[j], want[j])
		}
	}
	if got := Binnable(d); got != 2 {
		t.Errorf("Binnable %d, want 2 (features 1 and 4)", got)
	}
	if got := b.OutDim(); got != 4+5+2 {
		t.Errorf("OutDim %d, want 11", got)
	}
	out := b.Apply(d)
	if out.Dim != 11 || out.Rows() != 10 || out.IsDense() {
		t.Fatalf("expanded: %d features, %d rows, dense %v", out.Dim, out.Rows(), out.IsDense())
	}
	for _, tt := range []struct {
		row  int
		bins []int32 // indicator columns, 0-based
	}{
		{0, []int32{4, 9}},  // x₁ = 1 < 3: bin 0; x₄ = 0: bin 0
		{2, []int32{5, 9}},  // x₁ = 3 = edge: bin 1
		{7, []int32{7, 9}},  // x₁ = 8 in [7, 9): bin 3; x₄ = 7 < 8: bin 0
		{8, []int32{8, 10}}, // x₁ = 9: bin 4; x₄ = 8: bin 1
	} {
		r := out.Row(tt.row)
		in := d.Row(tt.row)
		if !slices.Equal(r.Idx[:len(in.Idx)], in.Idx) || !slices.Equal(r.Val[:len(in.Val)], in.Val) {
			t.Errorf("row %d: the features changed: %v", tt.row, r)
		}
		if got := r.Idx[len(in.Idx):]; !slices.Equal(got, tt.bins) {
			t.Errorf("row %d: indicators at %v, want %v", tt.row, got, tt.bins)
		}
	}
}

func TestFitBinsErrors(t *testing.T) {
	wide := &Dataset{Name: "wide", Dim: AutoScaleMaxDim + 1}
	wide.Append(1, 1, kernels.Sparse{Idx: []int32{0}, Val: []float64{1}})
	wide.Dim = AutoScaleMaxDim + 1
	for _, tt := range []struct {
		d    *Dataset
		k    int
		want string
	}{
		{binsData(), 1, "want 2 to"},
		{binsData(), MaxBins + 1, "want 2 to"},
		{wide, 10, "more than the 1000"},
		{&Dataset{Name: "none", Dim: 2}, 10, "no examples"},
	} {
		if _, err := FitBins(tt.d, tt.k); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s, k = %d: error %v, want one containing %q", tt.d.Name, tt.k, err, tt.want)
		}
	}
}

func TestBinsCheck(t *testing.T) {
	for _, tt := range []struct {
		b  Bins
		ok bool
	}{
		{Bins{Dim: 2, Edges: [][]float64{{1, 2}, nil}}, true},
		{Bins{Dim: 2, Edges: [][]float64{{1, 2}}}, false},
		{Bins{Dim: 1, Edges: [][]float64{{2, 2}}}, false},
		{Bins{Dim: 1, Edges: [][]float64{{}}}, false},
		{Bins{Dim: 1, Edges: [][]float64{{1, math.NaN()}}}, false},
	} {
		if err := tt.b.Check(); (err == nil) != tt.ok {
			t.Errorf("%v: Check %v, want ok %v", tt.b.Edges, err, tt.ok)
		}
	}
}

// ExampleFitBins bins a feature of values 1 to 8 into 4 quantile bins, beside the
// feature itself.
func ExampleFitBins() {
	d := &Dataset{Name: "example"}
	for i := 1; i <= 8; i++ {
		d.Append(int8(1-2*(i%2)), 0, kernels.Sparse{Idx: []int32{0}, Val: []float64{float64(i)}})
	}
	b, err := FitBins(d, 4)
	if err != nil {
		panic(err)
	}
	fmt.Println("edges:", b.Edges[0], "features after:", b.OutDim())
	fmt.Println("row x = 6:", b.Apply(d).Row(5))
	// Output:
	// edges: [3 5 7] features after: 5
	// row x = 6: {[0 3] [6 1]}
}

// TestBinsContext: fitting and applying bins stop with the context's error when it has
// ended (auto's trials run under a deadline), and give the plain functions' results
// when it has not.
func TestBinsContext(t *testing.T) {
	var x []float64
	var y []int8
	for i := range 3000 {
		x = append(x, float64(i%17), float64(i%5)/4)
		y = append(y, int8(2*(i%2)-1))
	}
	d, err := NewDense("ctx", 2, y, x)
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := FitBinsContext(done, d, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("FitBinsContext after cancel: %v", err)
	}
	b, err := FitBins(d, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.ApplyContext(done, d); !errors.Is(err, context.Canceled) {
		t.Errorf("ApplyContext after cancel: %v", err)
	}
	got, err := b.ApplyContext(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	want := b.Apply(d)
	if !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Val, want.Val) || !slices.Equal(got.Ptr, want.Ptr) {
		t.Error("ApplyContext differs from Apply")
	}
}
