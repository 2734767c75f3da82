package fallback_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"github.com/aucopt/aucopt/kernels/kerneltest"
)

func TestConformance(t *testing.T) {
	b := fallback.New()
	defer b.Close()
	kerneltest.Run(t, b)
}

// largeResults runs the operations that fallback splits across cores, on sizes large
// enough to be split and on strided views, and returns every output.
func largeResults(b kernels.Backend) [][]float64 {
	rnd := rand.New(rand.NewPCG(7, 11))
	values := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = math.Ldexp(rnd.Float64()-0.5, rnd.IntN(21)-10)
		}
		return v
	}
	vec := func(n int) kernels.Vec {
		v := b.NewVec(n + 3)
		b.Upload(v, values(n+3))
		return v.Slice(1, n+1)
	}
	mat := func(r, c int) kernels.Mat {
		m := b.NewMat(r+1, c+3)
		b.Upload(m, values((r+1)*(c+3)))
		return m.Slice(1, r+1, 1, c+1)
	}
	download := func(t kernels.Tensor) []float64 {
		out := make([]float64, t.Len())
		b.Download(out, t)
		return out
	}
	var out [][]float64

	const m, n = 700, 900
	a := mat(m, n)
	y := vec(m)
	b.Gemv(false, 1.5, a, vec(n), 0.5, y)
	out = append(out, download(y))
	y = vec(n)
	b.Gemv(true, -0.5, a, vec(m), 2, y)
	out = append(out, download(y))

	rows := make([]int32, 500)
	for k := range rows {
		rows[k] = int32(rnd.IntN(m))
	}
	y = vec(len(rows))
	b.GemvRows(false, 1, a, rows, vec(n), 0, y)
	out = append(out, download(y))
	y = vec(n)
	b.GemvRows(true, 1, a, rows, vec(len(rows)), 1, y)
	out = append(out, download(y))

	const d = 1000
	s := mat(d, d)
	y = vec(d)
	b.Symv(0.75, s, vec(d), -1, y)
	out = append(out, download(y))

	c := mat(40, d)
	b.Symm(0.75, s, mat(40, d), -1, c)
	out = append(out, download(c))
	c = mat(300, 130)
	b.Symm(-2, mat(130, 130), mat(300, 130), 0, c)
	out = append(out, download(c))

	c = mat(400, 400)
	b.Syrk(1.25, mat(300, 400), 0.5, c)
	out = append(out, download(c))
	c = mat(130, 130)
	b.Syrk(-1, mat(1000, 130), 1, c)
	out = append(out, download(c))

	out = append(out, []float64{b.Dot(vec(1<<20), vec(1<<20))})
	return out
}

// TestDeterministic checks the promise of the package documentation: results are
// bit-identical whatever GOMAXPROCS is and however many workers the backend has.
func TestDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var want [][]float64
	run := func(name string, procs int, newBackend func() *fallback.Backend) {
		runtime.GOMAXPROCS(procs)
		b := newBackend()
		defer b.Close()
		got := largeResults(b)
		if want == nil {
			want = got
			return
		}
		for i := range want {
			for j := range want[i] {
				if math.Float64bits(got[i][j]) != math.Float64bits(want[i][j]) {
					t.Errorf("%s: result %d element %d = %v, want %v bit for bit (GOMAXPROCS 1)", name, i, j, got[i][j], want[i][j])
					break
				}
			}
		}
	}
	run("New with GOMAXPROCS 1", 1, fallback.New)
	run("New with GOMAXPROCS 2", 2, fallback.New)
	run("NewWorkers(1)", 2, func() *fallback.Backend { return fallback.NewWorkers(1) })
	run("NewWorkers(5)", 2, func() *fallback.Backend { return fallback.NewWorkers(5) })
}

func ExampleBackend_Dot() {
	b := fallback.New()
	defer b.Close()
	x, y := b.NewVec(3), b.NewVec(3)
	b.Upload(x, []float64{1, 2, 3})
	b.Upload(y, []float64{4, 5, 6})
	fmt.Println(b.Dot(x, y))
	// Output: 32
}

func ExampleBackend_AxpySparse() {
	b := fallback.New()
	defer b.Close()
	y := b.NewVec(5)
	b.Upload(y, []float64{1, 1, 1, 1, 1})
	// y[0] += 2·10, y[3] += 2·(−1)
	b.AxpySparse(2, kernels.Sparse{Idx: []int32{0, 3}, Val: []float64{10, -1}}, y)
	out := make([]float64, 5)
	b.Download(out, y)
	fmt.Println(out)
	// Output: [21 1 1 -1 1]
}

func ExampleBackend_Gemv() {
	b := fallback.New()
	defer b.Close()
	// A is the 2×3 view at row 1, column 1 of a 3×4 matrix (its row stride is 4).
	m := b.NewMat(3, 4)
	b.Upload(m, []float64{
		9, 9, 9, 9,
		9, 1, 2, 3,
		9, 4, 5, 6,
	})
	a := m.Slice(1, 3, 1, 4)
	x, y := b.NewVec(3), b.NewVec(2)
	b.Upload(x, []float64{1, 0, -1})
	b.Gemv(false, 1, a, x, 0, y) // y = A·x
	out := make([]float64, 2)
	b.Download(out, y)
	fmt.Println(out)
	// Output: [-2 -2]
}

func ExampleBackend_Syrk() {
	b := fallback.New()
	defer b.Close()
	a := b.NewMat(2, 3)
	b.Upload(a, []float64{
		1, 2, 3,
		4, 5, 6,
	})
	c := b.NewMat(3, 3)
	b.Syrk(1, a, 0, c) // C = AᵀA, upper triangle only
	out := make([]float64, 9)
	b.Download(out, c)
	for i := range 3 {
		fmt.Println(out[3*i : 3*i+3])
	}
	// Output:
	// [17 22 27]
	// [0 29 36]
	// [0 0 45]
}

// TestSymmAllocs checks that Symm allocates nothing, run as one part and split across
// the pool.
func TestSymmAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop pooled jobs at random")
	}
	b := fallback.New()
	defer b.Close()
	for _, s := range []struct{ k, d int }{{5, 40}, {40, 300}} {
		a, bm, c := b.NewMat(s.d, s.d), b.NewMat(s.k, s.d), b.NewMat(s.k, s.d)
		if got := testing.AllocsPerRun(10, func() { b.Symm(1, a, bm, 0.5, c) }); got != 0 {
			t.Errorf("Symm with k=%d, d=%d: %v allocations per call, want 0", s.k, s.d, got)
		}
	}
}
