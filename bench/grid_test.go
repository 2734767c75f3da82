package bench

import (
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// gridA9a returns the OPAUC paper's setting for the grid benchmark: a9a scaled to
// [−1, 1], its 80% stratified training part (what `aucopt train --grid` trains the
// grid on) in a seeded random order.
func gridA9a(b *testing.B) *data.Dataset {
	sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		b.Fatal(err)
	}
	s, err := data.FitMinMax(sp.Train, -1, 1)
	if err != nil {
		b.Fatal(err)
	}
	train := s.Apply(sp.Train)
	f, err := data.TrainTestSplit(train.Y, 0.8, 1)
	if err != nil {
		b.Fatal(err)
	}
	part := train.Subset(f.Train)
	return part.Subset(data.Shuffle(part.Rows(), 1))
}

// paperParams returns the parameters of each point of the algorithm's paper grid.
func paperParams(b *testing.B, spec solver.Spec) []solver.Params {
	var out []solver.Params
	for _, pt := range spec.Grid.Points() {
		p := spec.Params()
		if err := p.SetAll(pt); err != nil {
			b.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkGridOPAUC compares the OPAUC paper's 23 × 13 grid on a9a trained in one
// pass with shared statistics (what --grid does) against the 299 separate one-pass
// runs it replaces (each stopping, like the driver, at its first non-finite score).
// The ratio of the two ns/op is the grid's speed-up.
func BenchmarkGridOPAUC(b *testing.B) {
	spec, err := solver.Lookup("opauc")
	if err != nil {
		b.Fatal(err)
	}
	part := gridA9a(b)
	params := paperParams(b, spec)
	for _, be := range compared(b) {
		b.Run("shared/"+be.Name(), func(b *testing.B) {
			for b.Loop() {
				m, err := solver.NewMulti(spec, be, part.Dim, params, 1, 0)
				if err != nil {
					b.Fatal(err)
				}
				xs, ys := make([]kernels.Sparse, 0, 256), make([]int8, 0, 256)
				for i := range part.Rows() {
					xs, ys = append(xs, part.Row(i)), append(ys, part.Y[i])
					if len(xs) == 256 || i == part.Rows()-1 {
						m.ObserveBlock(xs, ys)
						xs, ys = xs[:0], ys[:0]
					}
				}
			}
			b.ReportMetric(float64(len(params)), "points")
		})
		b.Run("separate/"+be.Name(), func(b *testing.B) {
			for b.Loop() {
				for _, p := range params {
					l, err := spec.NewOnline(be, part.Dim, p, 1)
					if err != nil {
						b.Fatal(err)
					}
					for i := range part.Rows() {
						if s := l.Observe(part.Row(i), part.Y[i]); math.IsNaN(s) || math.IsInf(s, 0) {
							break
						}
					}
				}
			}
			b.ReportMetric(float64(len(params)), "points")
		})
	}
}
