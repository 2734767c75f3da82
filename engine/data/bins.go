package data

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/aucopt/aucopt/kernels"
)

// MaxBins is the most bins FitBins makes of one feature.
const MaxBins = 256

// Bins is a fitted expansion of a dataset's numeric features into quantile-bin
// indicators: a row keeps its Dim features as they are and gains, for each binned
// feature j, one feature of value 1 that says which of the len(Edges[j])+1 intervals
// x_j lies in (interval b holds Edges[j][b−1] ≤ x_j < Edges[j][b]). A linear score of
// the expanded row is then the score of the row plus a step function of each binned
// feature: an additive model, as a credit scorecard is, that a linear score on the
// features alone cannot express (fourclass, a 2-feature set: tuned logistic regression
// .856, on 10 bins and the features .948). A Bins is not changed by its use: it is safe
// for concurrent use.
type Bins struct {
	Dim   int         // the features of the data it expands
	Edges [][]float64 // per feature: increasing bin edges; nil for a feature not binned
}

// FitBins fits at most k bins (2 ≤ k ≤ MaxBins) to each feature of d: the edges are the
// distinct values among the k−1 inner k-quantiles of the feature's training values
// (implicit zeros counted), above its least value. A feature with at most two distinct
// values (binary, constant or empty) gains nothing from bins and is left as it is. Data
// of more than AutoScaleMaxDim features is refused: a bin indicator per feature and row
// would make sparse rows dense.
func FitBins(d *Dataset, k int) (*Bins, error) {
	return FitBinsContext(context.Background(), d, k)
}

// FitBinsContext is FitBins checking ctx between features: a search under a deadline
// (auto's trials) stops within one feature's sort.
func FitBinsContext(ctx context.Context, d *Dataset, k int) (*Bins, error) {
	if k < 2 || k > MaxBins {
		return nil, fmt.Errorf("bins: %d bins per feature, want 2 to %d", k, MaxBins)
	}
	if d.Dim > AutoScaleMaxDim {
		return nil, fmt.Errorf("bins: %s has %d features, more than the %d that binning is for (it would make sparse rows dense)", d.Name, d.Dim, AutoScaleMaxDim)
	}
	n := d.Rows()
	if n == 0 {
		return nil, fmt.Errorf("bins: %s: %w", d.Name, ErrEmpty)
	}
	cols := make([][]float64, d.Dim) // each feature's values, zeros included
	for j := range cols {
		cols[j] = make([]float64, n)
	}
	for i := range n {
		x := d.Row(i)
		for t, j := range x.Idx {
			cols[j][i] = x.Val[t]
		}
	}
	b := &Bins{Dim: d.Dim, Edges: make([][]float64, d.Dim)}
	for j, v := range cols {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		slices.Sort(v)
		var edges []float64
		for q := 1; q < k; q++ {
			e := v[q*n/k]
			if e > v[0] && (len(edges) == 0 || e > edges[len(edges)-1]) {
				edges = append(edges, e)
			}
		}
		if distinct(v) > 2 && len(edges) > 0 {
			b.Edges[j] = edges
		}
	}
	return b, nil
}

// Binnable counts the features of d that FitBins could bin: those with more than two
// distinct values (implicit zeros counted). It reads each stored value once.
func Binnable(d *Dataset) int {
	type seen struct {
		a, b   float64
		n      int8 // distinct values seen, up to 3
		stored int
	}
	fs := make([]seen, d.Dim)
	add := func(f *seen, v float64) {
		switch {
		case f.n == 0:
			f.a, f.n = v, 1
		case f.n == 1 && v != f.a:
			f.b, f.n = v, 2
		case f.n == 2 && v != f.a && v != f.b:
			f.n = 3
		}
	}
	for i := range d.Rows() {
		x := d.Row(i)
		for t, j := range x.Idx {
			fs[j].stored++
			add(&fs[j], x.Val[t])
		}
	}
	count := 0
	for j := range fs {
		if fs[j].stored < d.Rows() {
			add(&fs[j], 0)
		}
		if fs[j].n == 3 {
			count++
		}
	}
	return count
}

// distinct counts the distinct values of sorted v, up to 3.
func distinct(v []float64) int {
	c := 0
	for i := range v {
		if i == 0 || v[i] != v[i-1] {
			if c++; c == 3 {
				break
			}
		}
	}
	return c
}

// OutDim is the number of features of the expanded rows: Dim and the indicators.
func (b *Bins) OutDim() int {
	out := b.Dim
	for _, e := range b.Edges {
		if e != nil {
			out += len(e) + 1
		}
	}
	return out
}

// Check reports whether b is usable: Dim edge lists, each nil or finite and strictly
// increasing.
func (b *Bins) Check() error {
	if len(b.Edges) != b.Dim {
		return fmt.Errorf("bins: %d edge lists for %d features", len(b.Edges), b.Dim)
	}
	for j, e := range b.Edges {
		if e != nil && len(e) == 0 {
			return fmt.Errorf("bins: feature %d has an empty edge list (want none or at least one edge)", j+1)
		}
		for t, v := range e {
			if math.IsNaN(v) || math.IsInf(v, 0) || t > 0 && v <= e[t-1] {
				return fmt.Errorf("bins: feature %d: edge %d is %v, want finite and above the one before", j+1, t+1, v)
			}
		}
	}
	return nil
}

// Apply returns d expanded: a new dataset of OutDim features in the sparse layout. d
// must have Dim features (cut or widen it with Truncate first).
func (b *Bins) Apply(d *Dataset) *Dataset {
	out, _ := b.ApplyContext(context.Background(), d)
	return out
}

// ApplyContext is Apply checking ctx every 1,024 rows; it returns ctx's error when ctx
// ends first.
func (b *Bins) ApplyContext(ctx context.Context, d *Dataset) (*Dataset, error) {
	binned := 0
	for _, e := range b.Edges {
		if e != nil {
			binned++
		}
	}
	n := d.Rows()
	nnz := d.Nnz() + n*binned // every stored value and an indicator per binned feature
	out := &Dataset{Name: d.Name, Dim: b.OutDim(), Ptr: make([]int64, 1, n+1),
		Y: make([]int8, 0, n), Labels: make([]float64, 0, n), Idx: make([]int32, 0, nnz), Val: make([]float64, 0, nnz)}
	dense := make([]float64, b.Dim)
	var row kernels.Sparse
	for i := range n {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		x := d.Row(i)
		row = b.ApplyRow(x, dense, row)
		out.Append(d.Y[i], d.Labels[i], row) // indices below Dim: it stays OutDim
	}
	out.W = d.W
	return out, nil
}

// ApplyRow expands one row x of Dim features into out (reusing its storage) and returns
// it; dense is scratch of Dim zeros, left zero. The indicators of binned feature j follow
// the features and those of the binned features before j.
func (b *Bins) ApplyRow(x kernels.Sparse, dense []float64, out kernels.Sparse) kernels.Sparse {
	out.Idx, out.Val = append(out.Idx[:0], x.Idx...), append(out.Val[:0], x.Val...)
	for t, j := range x.Idx {
		dense[j] = x.Val[t]
	}
	at := b.Dim // the first indicator of the next binned feature
	for j, e := range b.Edges {
		if e != nil {
			bin := sort.Search(len(e), func(t int) bool { return e[t] > dense[j] })
			out.Idx, out.Val = append(out.Idx, int32(at+bin)), append(out.Val, 1)
			at += len(e) + 1
		}
	}
	for _, j := range x.Idx {
		dense[j] = 0
	}
	return out
}
