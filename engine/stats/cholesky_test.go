package stats

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// TestCholeskySolve: the blocked factorisation (several 256-column blocks, the trailing
// updates by each host backend's Syrk, and no backend at all) solves (A + λI) w = r as
// gonum's mat.Cholesky does, to 1e-10 relative, with its condition estimate to 1e-6;
// and an indefinite matrix is refused.
func TestCholeskySolve(t *testing.T) {
	backends := []kernels.Backend{nil, fallback.New()}
	if a, err := asm.New(); err == nil {
		backends = append(backends, a)
	}
	for _, d := range []int{1, 200, 256, 257, 600} {
		r := rand.New(rand.NewPCG(uint64(d), 5))
		g := mat.NewDense(d+20, d, nil)
		for i := range d + 20 {
			for j := range d {
				g.Set(i, j, r.NormFloat64())
			}
		}
		var a mat.SymDense
		a.SymOuterK(1/float64(d), g.T())
		rhs := make([]float64, d)
		for i := range rhs {
			rhs[i] = r.NormFloat64()
		}
		const lambda = 1e-3
		ref := mat.NewSymDense(d, nil)
		ref.CopySym(&a)
		for i := range d {
			ref.SetSym(i, i, ref.At(i, i)+lambda)
		}
		var ch mat.Cholesky
		if !ch.Factorize(ref) {
			t.Fatalf("d=%d: gonum's factorisation failed", d)
		}
		var want mat.VecDense
		if err := ch.SolveVecTo(&want, mat.NewVecDense(d, rhs)); err != nil {
			t.Fatal(err)
		}
		for _, b := range backends {
			name := "none"
			if b != nil {
				name = b.Name()
			}
			buf := append([]float64(nil), a.RawSymmetric().Data...)
			w, cond, err := CholeskySolve(context.Background(), b, buf, d, lambda, rhs)
			if err != nil {
				t.Fatalf("d=%d %s: %v", d, name, err)
			}
			var num, den float64
			for i := range d {
				num += (w[i] - want.AtVec(i)) * (w[i] - want.AtVec(i))
				den += want.AtVec(i) * want.AtVec(i)
			}
			if e := math.Sqrt(num / den); e > 1e-10 {
				t.Errorf("d=%d %s: ‖w − w_gonum‖/‖w_gonum‖ = %.3g", d, name, e)
			}
			if c0 := ch.Cond(); math.Abs(cond-c0) > 1e-6*c0 {
				t.Errorf("d=%d %s: condition %g, gonum's %g", d, name, cond, c0)
			}
			neg := append([]float64(nil), a.RawSymmetric().Data...)
			if _, _, err := CholeskySolve(context.Background(), b, neg, d, -2*a.At(d-1, d-1)-1, rhs); !errors.Is(err, ErrSingular) {
				t.Errorf("d=%d %s: an indefinite matrix: %v, want ErrSingular", d, name, err)
			}
		}
	}
}

// TestCholeskySolveContext: a context that has ended stops the factorisation before its
// next column block and is what CholeskySolve returns (auto's deadline on a learner that
// factorises an 8,192 × 8,192 system: tens of seconds otherwise).
func TestCholeskySolveContext(t *testing.T) {
	const d = 600
	a := make([]float64, d*d)
	for i := range d {
		a[i*d+i] = 1
	}
	rhs := make([]float64, d)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, b := range []kernels.Backend{nil, fallback.New()} {
		if _, _, err := CholeskySolve(ctx, b, append([]float64(nil), a...), d, 0, rhs); !errors.Is(err, context.Canceled) {
			t.Errorf("backend %v: %v, want context.Canceled", b, err)
		}
	}
}

// TestPanelSolve: the panel solved in column stripes on every core equals gonum's trsm
// over the whole panel, bit for bit, whatever the number of stripes.
func TestPanelSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const kb, d = 48, 48 + 1000
	a := make([]float64, d*d)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	for i := range kb {
		a[i*d+i] = 10 + math.Abs(a[i*d+i]) // a well-conditioned U11
	}
	u11 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: kb, Stride: d, Data: a}
	want := slices.Clone(a)
	blas64.Trsm(blas.Left, blas.Trans, 1, blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: kb, Stride: d, Data: want},
		blas64.General{Rows: kb, Cols: d - kb, Stride: d, Data: want[kb:]})
	for _, procs := range []int{1, 2, 3, 8} {
		old := runtime.GOMAXPROCS(procs)
		got := slices.Clone(a)
		u11.Data = got
		panelSolve(u11, got[kb:], kb, d-kb, d)
		runtime.GOMAXPROCS(old)
		if !slices.Equal(got, want) {
			t.Errorf("GOMAXPROCS %d: the panel differs from one trsm over it", procs)
		}
	}
}

// BenchmarkPanelSolve times one Potrf panel's triangular solve at the click data's
// size: a 256-row panel of an 8,192-column matrix, on every core.
func BenchmarkPanelSolve(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const kb, d = potrfBlock, 8192
	a := make([]float64, kb*d)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	for i := range kb {
		a[i*d+i] = 10 + math.Abs(a[i*d+i])
	}
	orig := slices.Clone(a)
	u11 := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: kb, Stride: d, Data: a}
	b.SetBytes(int64(kb * (d - kb) * 8))
	for b.Loop() {
		copy(a, orig)
		panelSolve(u11, a[kb:], kb, d-kb, d)
	}
}
