package stats

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// sparseRows returns n labelled sparse rows with indices below d (rows may be empty).
func sparseRows(r *rand.Rand, n, d int) ([]int8, []kernels.Sparse) {
	ys, xs := make([]int8, n), make([]kernels.Sparse, n)
	for i := range n {
		ys[i] = int8(2*r.IntN(2) - 1)
		for j := range d {
			if r.Float64() < 0.5 {
				xs[i].Idx = append(xs[i].Idx, int32(j))
				xs[i].Val = append(xs[i].Val, r.NormFloat64()+float64(ys[i]))
			}
		}
	}
	return ys, xs
}

func maxAbsDiff(a, b []float64) float64 {
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

func TestClassMomentsMergeResizeAffineEncode(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(3, 4))
	ys, xs := sparseRows(r, 1000, 12)
	// All rows in one accumulator, against three shards merged, one of which sees only
	// the first features (its dimension grows less).
	all := NewClassMoments(b, 0)
	for i := range ys {
		all.Add(ys[i], xs[i])
	}
	shards := []*ClassMoments{NewClassMoments(b, 0), NewClassMoments(b, 0), NewClassMoments(b, 0)}
	for i := range ys {
		x := xs[i]
		s := i * 3 / len(ys)
		if s == 0 {
			k := 0
			for k < len(x.Idx) && x.Idx[k] < 4 {
				k++
			}
			x = kernels.Sparse{Idx: x.Idx[:k], Val: x.Val[:k]}
			xs[i] = x // the reference sees the same rows
		}
		shards[s].Add(ys[i], x)
	}
	all = NewClassMoments(b, 0)
	for i := range ys {
		all.Add(ys[i], xs[i])
	}
	merged := NewClassMoments(b, 0)
	for _, s := range shards {
		merged.Merge(s)
	}
	if merged.Dim() != all.Dim() || merged.Dim() != 12 {
		t.Fatalf("dimension %d merged, %d whole; want 12", merged.Dim(), all.Dim())
	}
	mp, mn := merged.Counts()
	ap, an := all.Counts()
	if mp != ap || mn != an {
		t.Fatalf("counts %d/%d merged, %d/%d whole", mp, mn, ap, an)
	}
	p1, n1 := all.Classes()
	p2, n2 := merged.Classes()
	for _, c := range [][2]*Moments{{p1, p2}, {n1, n2}} {
		if d := maxAbsDiff(c[0].Mean(), c[1].Mean()); d > 1e-13 {
			t.Errorf("means differ by %g", d)
		}
		if d := maxAbsDiff(c[0].Cov(), c[1].Cov()); d > 1e-12 {
			t.Errorf("covariances differ by %g", d)
		}
	}
	lo1, hi1 := all.Ranges()
	lo2, hi2 := merged.Ranges()
	if maxAbsDiff(lo1, lo2) != 0 || maxAbsDiff(hi1, hi2) != 0 {
		t.Error("ranges differ")
	}

	// Affine on the moments equals the moments of the transformed rows.
	scale, shift := make([]float64, 12), make([]float64, 12)
	for j := range scale {
		scale[j], shift[j] = 0.5+float64(j), float64(j%3)-1
	}
	direct := NewMoments(b, 12)
	v := b.NewVec(12)
	for i := range ys {
		if ys[i] != 1 {
			continue
		}
		row := make([]float64, 12)
		for k, j := range xs[i].Idx {
			row[j] = xs[i].Val[k]
		}
		for j := range row {
			row[j] = scale[j]*row[j] + shift[j]
		}
		b.Upload(v, row)
		direct.Add(v)
	}
	p1.Affine(scale, shift)
	if d := maxAbsDiff(p1.Mean(), direct.Mean()); d > 1e-12 {
		t.Errorf("affine means differ by %g", d)
	}
	if d := maxAbsDiff(p1.Cov(), direct.Cov()); d > 1e-11 {
		t.Errorf("affine covariances differ by %g", d)
	}

	// Resize: a marginal, and a zero padding.
	small, big := n1.Resize(5), n1.Resize(15)
	cov, bc := n1.Cov(), big.Cov()
	for i := range 15 {
		for j := range 15 {
			want := 0.0
			if i < 12 && j < 12 {
				want = cov[i*12+j]
			}
			if bc[i*15+j] != want || (i < 5 && j < 5 && small.Cov()[i*5+j] != want) {
				t.Fatalf("resized covariance [%d,%d] wrong", i, j)
			}
		}
	}

	// The encoding round-trips bit for bit.
	enc, err := merged.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalClassMoments(b, enc)
	if err != nil {
		t.Fatal(err)
	}
	enc2, _ := back.MarshalBinary()
	if !bytes.Equal(enc, enc2) {
		t.Error("encoding does not round-trip")
	}
	for _, bad := range [][]byte{nil, enc[:len(enc)-1], append(append([]byte(nil), enc...), 0)} {
		if _, err := UnmarshalClassMoments(b, bad); err == nil {
			t.Errorf("decoding %d bytes of %d: no error", len(bad), len(enc))
		}
	}
}
