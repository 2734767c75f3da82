package kerneltest

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"unsafe"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/internal/f64"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// TestNaive runs the suite on its own reference loops: a check of the harness (views,
// guards, write-back of symmetric outputs) more than of the loops.
func TestNaive(t *testing.T) {
	if testing.Short() {
		t.Skip("the suite itself is run by each backend's tests")
	}
	b := naive{fallback.New()}
	defer b.Close()
	Run(t, b)
}

// differentialSeeds are fuzz inputs for op: the empty input (random sizes), tiny and
// boundary sizes, and inputs that place specials.
func differentialSeeds(op Op) [][]byte {
	seeds := [][]byte{nil, {0, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 1, 0, 1, 0, 1, 0}}
	for _, n := range []uint16{3, 7, 8, 9, 17, 33, 64, 65, 255, 300, 601} {
		s := appendSize(nil, n)
		s = appendSize(s, n/2+1)
		s = appendSize(s, n%7)
		s = append(s, byte(n), byte(n>>1), 0xff, 0, 4, 0xff, 1, 0x40, 0x21, 0xff, 2)
		seeds = append(seeds, s)
	}
	return seeds
}

// TestDifferential runs Differential, fallback against the naive reference loops, on
// each op's seeds and on random inputs.
func TestDifferential(t *testing.T) {
	b, ref := fallback.New(), naive{fallback.New()}
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, op := range Ops() {
		t.Run(op.String(), func(t *testing.T) {
			inputs := differentialSeeds(op)
			for range 20 {
				in := make([]byte, rnd.IntN(64))
				for i := range in {
					in[i] = byte(rnd.Uint32())
				}
				inputs = append(inputs, in)
			}
			for _, in := range inputs {
				Differential(t, b, ref, op, in)
			}
		})
	}
}

// FuzzDifferential fuzzes the decoder and fallback against the naive reference loops.
func FuzzDifferential(f *testing.F) {
	for _, op := range Ops() {
		for _, s := range differentialSeeds(op) {
			f.Add(byte(op), s)
		}
	}
	b, ref := fallback.New(), naive{fallback.New()}
	f.Fuzz(func(t *testing.T, op byte, data []byte) {
		Differential(t, b, ref, Op(op%byte(numOps)), data)
	})
}

// A mutant is fallback with one bug of a kind the suite exists to catch. TestMutants
// runs the given test on it in a child process and expects the test to fail with a
// message containing want.
type mutant struct {
	name string
	test func(*testing.T, kernels.Backend)
	want string
	b    kernels.Backend
}

type (
	dotDropsTail       struct{ *fallback.Backend }
	dotFloat32         struct{ *fallback.Backend }
	dotNoLenCheck      struct{ *fallback.Backend }
	dotBadPrefix       struct{ *fallback.Backend }
	copyShort          struct{ *fallback.Backend }
	axpyAlphaZero      struct{ *fallback.Backend }
	scalZeroClears     struct{ *fallback.Backend }
	sparseNoCheck      struct{ *fallback.Backend }
	axpySparseOverrun  struct{ *fallback.Backend }
	gemvReadsY         struct{ *fallback.Backend }
	gemvIgnoresStride  struct{ *fallback.Backend }
	gemvRowsClamps     struct{ *fallback.Backend }
	symvReadsLower     struct{ *fallback.Backend }
	syrWritesLower     struct{ *fallback.Backend }
	syrkWritesLower    struct{ *fallback.Backend }
	syrkSkipsEmpty     struct{ *fallback.Backend }
	uploadIgnoresStrid struct{ *fallback.Backend }
	gerSwapped         struct{ *fallback.Backend }
	symmReadsLower     struct{ *fallback.Backend }
	symmBeta0ReadsC    struct{ *fallback.Backend }
	symmAlphaZeroSkips struct{ *fallback.Backend }
	rowDiffNoCheck     struct{ *fallback.Backend }
	gatherClamps       struct{ *fallback.Backend }
	gatherOffByOne     struct{ *fallback.Backend }
	scatterAddRepeats  struct{ *fallback.Backend }
	scatterAddLate     struct{ *fallback.Backend }
	scatterAddZeroSkip struct{ *fallback.Backend }
)

// Gather clamps indices into range instead of panicking.
func (b gatherClamps) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	n := int32(max(x.Len()-1, 0))
	cl := make([]int32, len(idx))
	for k, i := range idx {
		cl[k] = min(max(i, 0), n)
	}
	b.Backend.Gather(x, cl, out)
}

// Gather reads x[idx[k]+1] when that is in range: a kernel indexing from 1.
func (b gatherOffByOne) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	xs, outs := host.VecData(x), host.VecData(out)
	host.CheckGather(idx, len(xs), len(outs))
	for k, i := range idx {
		outs[k] = xs[min(int(i)+1, len(xs)-1)]
	}
}

// ScatterAdd checks the range of its indices but not that they are distinct.
func (b scatterAddRepeats) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckGather(idx, len(ys), len(xs))
	for k, i := range idx {
		ys[i] += alpha * xs[k]
	}
}

// ScatterAdd checks each index as it goes, so a bad one leaves y partly updated.
func (b scatterAddLate) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	for k, i := range idx {
		host.CheckScatterAdd(idx[k:k+1], len(xs[k:k+1]), len(ys))
		ys[i] += alpha * xs[k]
	}
	host.CheckScatterAdd(idx, len(xs), len(ys))
}

// ScatterAdd with alpha = 0 returns early, so NaN and Inf in x do not propagate.
func (b scatterAddZeroSkip) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	if alpha == 0 && x.Len() == len(idx) {
		return
	}
	b.Backend.ScatterAdd(alpha, x, idx, y)
}

// RowDiff clamps row indices instead of panicking.
func (b rowDiffNoCheck) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	r, _ := a.Dims()
	cl := func(s []int32) []int32 {
		o := make([]int32, len(s))
		for k, i := range s {
			o[k] = min(max(i, 0), int32(max(r-1, 0)))
		}
		return o
	}
	b.Backend.RowDiff(a, cl(pos), cl(neg), out)
}

func (b dotDropsTail) Dot(x, y kernels.Vec) float64 {
	if n := x.Len(); n%8 == 7 && n == y.Len() {
		return b.Backend.Dot(x.Slice(0, n-1), y.Slice(0, n-1))
	}
	return b.Backend.Dot(x, y)
}

func (b dotFloat32) Dot(x, y kernels.Vec) float64 {
	xs, ys := host.VecData(x), host.VecData(y)
	var s float32
	for i := range xs {
		s += float32(xs[i]) * float32(ys[i])
	}
	return float64(s)
}

func (b dotNoLenCheck) Dot(x, y kernels.Vec) float64 {
	return f64.Dot(host.VecData(x), host.VecData(y))
}

func (b dotBadPrefix) Dot(x, y kernels.Vec) float64 {
	if x.Len() != y.Len() {
		panic("dot: lengths differ")
	}
	return b.Backend.Dot(x, y)
}

func (b copyShort) Copy(dst, src kernels.Vec) {
	if n := src.Len(); n%4 == 3 && n == dst.Len() {
		b.Backend.Copy(dst.Slice(0, n-1), src.Slice(0, n-1))
		return
	}
	b.Backend.Copy(dst, src)
}

func (b axpyAlphaZero) Axpy(alpha float64, x, y kernels.Vec) {
	if alpha == 0 && x.Len() == y.Len() {
		return
	}
	b.Backend.Axpy(alpha, x, y)
}

func (b scalZeroClears) Scal(alpha float64, x kernels.Vec) {
	if alpha == 0 {
		clear(host.VecData(x))
		return
	}
	b.Backend.Scal(alpha, x)
}

func (b sparseNoCheck) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := host.VecData(y)
	var s float64
	for k, i := range x.Idx {
		if i >= 0 && int(i) < len(ys) && k < len(x.Val) {
			s += x.Val[k] * ys[i]
		}
	}
	return s
}

// AxpySparse writes y[n] for an index n, one past the view: into the suite's guard.
func (b axpySparseOverrun) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := host.VecData(y)
	for k, i := range x.Idx {
		switch {
		case i >= 0 && int(i) < len(ys):
			ys[i] += alpha * x.Val[k]
		case int(i) == len(ys) && len(ys) > 0:
			p := (*float64)(unsafe.Add(unsafe.Pointer(&ys[0]), 8*len(ys)))
			*p += alpha * x.Val[k]
		}
	}
}

func (b gemvReadsY) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	if beta == 0 { // scale y by 0 instead of overwriting it: NaN stays NaN
		ys := host.VecData(y)
		for i := range ys {
			ys[i] *= 0
		}
		beta = 1
	}
	b.Backend.Gemv(trans, alpha, a, x, beta, y)
}

func (b gemvIgnoresStride) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m := host.MatOf(a)
	b.Backend.Gemv(trans, alpha, &host.Mat{Rows: m.Rows, Cols: m.Cols, Stride: m.Cols, Data: m.Data}, x, beta, y)
}

func (b gemvRowsClamps) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	r, _ := a.Dims()
	clamped := make([]int32, len(rows))
	for k, i := range rows {
		clamped[k] = min(max(i, 0), int32(max(r-1, 0)))
	}
	b.Backend.GemvRows(trans, alpha, a, clamped, x, beta, y)
}

func (b symvReadsLower) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	r, c := a.Dims()
	if r != c || x.Len() != r || y.Len() != r {
		b.Backend.Symv(alpha, a, x, beta, y)
		return
	}
	b.Backend.Gemv(false, alpha, a, x, beta, y)
}

func mirror(a kernels.Mat) {
	m := host.MatOf(a)
	for i := range m.Rows {
		for j := range min(i, m.Cols) {
			m.Data[i*m.Stride+j] = m.Data[j*m.Stride+i]
		}
	}
}

func (b syrWritesLower) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	b.Backend.Syr(alpha, x, a)
	mirror(a)
}

func (b syrkWritesLower) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	b.Backend.Syrk(alpha, a, beta, c)
	mirror(c)
}

func (b syrkSkipsEmpty) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	if r, _ := a.Dims(); r == 0 {
		return
	}
	b.Backend.Syrk(alpha, a, beta, c)
}

func (b uploadIgnoresStrid) Upload(dst kernels.Tensor, src []float64) {
	if m, ok := dst.(*host.Mat); ok && m.Len() == len(src) {
		copy(m.Data, src)
		return
	}
	b.Backend.Upload(dst, src)
}

func (b gerSwapped) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	if x.Len() == y.Len() {
		b.Backend.Ger(alpha, y, x, a)
		return
	}
	b.Backend.Ger(alpha, x, y, a)
}

// Symm reads A as a general matrix, its lower triangle included.
func (b symmReadsLower) Symm(alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := host.MatOf(a), host.MatOf(bm), host.MatOf(c)
	if am.Rows != am.Cols || bh.Cols != am.Cols || ch.Rows != bh.Rows || ch.Cols != am.Cols {
		b.Backend.Symm(alpha, a, bm, beta, c)
		return
	}
	for i := range bh.Rows {
		b.Backend.Gemv(true, alpha, a, bm.Row(i), beta, c.Row(i)) // Aᵀ·B[i,:], A not symmetric
	}
}

// Symm with beta = 0 scales C by 0 instead of overwriting it: NaN stays NaN.
func (b symmBeta0ReadsC) Symm(alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	if beta == 0 {
		ch := host.MatOf(c)
		for i := range ch.Rows {
			for j := range ch.Cols {
				ch.Data[i*ch.Stride+j] *= 0
			}
		}
		beta = 1
	}
	b.Backend.Symm(alpha, a, bm, beta, c)
}

// Symm with alpha = 0 only scales C, so NaN and Inf in A and B do not propagate.
func (b symmAlphaZeroSkips) Symm(alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	ch := host.MatOf(c)
	if alpha == 0 && ch.Rows > 0 {
		for i := range ch.Rows {
			b.Backend.Scal(beta, c.Row(i))
		}
		return
	}
	b.Backend.Symm(alpha, a, bm, beta, c)
}

// differentialOn returns a test that runs Differential for op, b against the naive
// reference loops, on op's seeds and 30 random inputs.
func differentialOn(op Op) func(*testing.T, kernels.Backend) {
	return func(t *testing.T, b kernels.Backend) {
		ref := naive{fallback.New()}
		rnd := rand.New(rand.NewPCG(3, 4))
		inputs := differentialSeeds(op)
		for range 30 {
			in := make([]byte, rnd.IntN(256))
			for i := range in {
				in[i] = byte(rnd.Uint32())
			}
			inputs = append(inputs, in)
		}
		for _, in := range inputs {
			Differential(t, b, ref, op, in)
		}
	}
}

// group adapts a per-operation test, which takes the narrow group of Backend it tests,
// to the mutant table.
func group[G any](test func(*testing.T, G)) func(*testing.T, kernels.Backend) {
	return func(t *testing.T, b kernels.Backend) { test(t, any(b).(G)) }
}

func mutants() []mutant {
	f := fallback.New()
	return []mutant{
		{"dot-drops-tail", group(TestDot), "Dot(x [", dotDropsTail{f}},
		{"dot-float32", group(TestDot), "tolerance", dotFloat32{f}},
		{"dot-no-length-check", group(TestDot), "did not panic", dotNoLenCheck{f}},
		{"dot-bad-panic-prefix", group(TestDot), `want a message prefixed "kernels:"`, dotBadPrefix{f}},
		{"copy-short", group(TestCopy), "Copy(dst", copyShort{f}},
		{"axpy-alpha-zero-returns", group(TestAxpy), "0·NaN and 0·Inf are NaN", axpyAlphaZero{f}},
		{"scal-zero-clears", group(TestScal), "Scal(alpha=0", scalZeroClears{f}},
		{"dotsparse-no-check", group(TestDotSparse), "did not panic", sparseNoCheck{f}},
		{"axpysparse-overrun", group(TestAxpySparse), "outside the view", axpySparseOverrun{f}},
		{"gemv-beta0-reads-y", group(TestGemv), "= NaN, want", gemvReadsY{f}},
		{"gemv-ignores-stride", group(TestGemv), "Gemv(trans=", gemvIgnoresStride{f}},
		{"gemvrows-clamps", group(TestGemvRows), "did not panic", gemvRowsClamps{f}},
		{"symv-reads-lower", group(TestSymv), "= NaN, want", symvReadsLower{f}},
		{"syr-writes-lower", group(TestSyr), "strictly lower triangle", syrWritesLower{f}},
		{"syrk-writes-lower", group(TestSyrk), "strictly lower triangle", syrkWritesLower{f}},
		{"syrk-skips-k0", group(TestSyrk), "NoRows", syrkSkipsEmpty{f}},
		{"upload-ignores-stride", group(TestUploadDownload), "outside the view", uploadIgnoresStrid{f}},
		{"ger-swapped", group(TestGer), "Ger(alpha", gerSwapped{f}},
		{"differential-dot-tail", differentialOn(OpDot), "on backend generic", dotDropsTail{f}},
		{"differential-dotsparse-no-check", differentialOn(OpDotSparse), "did not panic", sparseNoCheck{f}},
		{"differential-symv-lower", differentialOn(OpSymv), "on backend generic", symvReadsLower{f}},
		{"differential-syrk-lower", differentialOn(OpSyrk), "changed C's parent", syrkWritesLower{f}},
		{"differential-gemv-stride", differentialOn(OpGemv), "on backend generic", gemvIgnoresStride{f}},
		{"symm-reads-lower", group(TestSymm), "= NaN, want", symmReadsLower{f}},
		{"symm-beta0-reads-c", group(TestSymm), "= NaN, want", symmBeta0ReadsC{f}},
		{"symm-alpha-zero-skips", group(TestSymm), "want NaN", symmAlphaZeroSkips{f}},
		{"differential-symm-lower", differentialOn(OpSymm), "on backend generic", symmReadsLower{f}},
		{"differential-symm-beta0", differentialOn(OpSymm), "on backend generic", symmBeta0ReadsC{f}},
		{"rowdiff-no-check", group(TestRowDiff), "did not panic", rowDiffNoCheck{f}},
		{"gather-clamps", group(TestGather), "did not panic", gatherClamps{f}},
		{"gather-off-by-one", group(TestGather), "Gather(x [", gatherOffByOne{f}},
		{"scatteradd-no-repeat-check", group(TestScatterAdd), "repeating element", scatterAddRepeats{f}},
		{"scatteradd-checks-late", group(TestScatterAdd), "before panicking", scatterAddLate{f}},
		{"scatteradd-alpha-zero-skips", group(TestScatterAdd), "want NaN", scatterAddZeroSkip{f}},
	}
}

// TestMutants checks that the suite fails each mutant, with the expected complaint.
func TestMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suite in child processes")
	}
	for _, m := range mutants() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestMutant$", "-test.count=1")
			cmd.Env = append(os.Environ(), "KERNELTEST_MUTANT="+m.name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed mutant %s:\n%s", m.name, out)
			}
			if !strings.Contains(string(out), m.want) {
				t.Errorf("the suite failed mutant %s without saying %q:\n%.3000s", m.name, m.want, out)
			}
		})
	}
}

// TestMutant runs one mutant's test; TestMutants starts it in a child process.
func TestMutant(t *testing.T) {
	name := os.Getenv("KERNELTEST_MUTANT")
	if name == "" {
		t.Skip("run by TestMutants")
	}
	for _, m := range mutants() {
		if m.name == name {
			m.test(t, m.b)
			return
		}
	}
	t.Fatalf("no mutant %q", name)
}

// appendSize appends the encoding of size n for Differential.
func appendSize(s []byte, n uint16) []byte {
	if n <= 70 {
		return binary.LittleEndian.AppendUint16(s, n<<2|1)
	}
	return binary.LittleEndian.AppendUint16(s, n<<2)
}

// halfBuilt is a backend under construction: tensors and the level-1 group only (the
// suite's naive loops), not a kernels.Backend.
type halfBuilt struct {
	host.Memory
	kernels.Level1
}

func (halfBuilt) Name() string { return "half-built" }

// TestHalfBuilt: the per-operation tests take the narrow group, so a backend with only
// some groups is tested op by op.
func TestHalfBuilt(t *testing.T) {
	if testing.Short() {
		t.Skip("the suite itself is run by each backend's tests")
	}
	f := fallback.New()
	defer f.Close()
	var b Level1 = halfBuilt{Level1: naive{f}}
	if _, full := b.(kernels.Backend); full {
		t.Fatal("halfBuilt is a whole Backend; the test would not show that a part is enough")
	}
	for _, c := range []struct {
		name string
		test func(*testing.T, Level1)
	}{
		{"Dot", TestDot},
		{"Axpy", TestAxpy},
		{"Scal", TestScal},
		{"DotSparse", TestDotSparse},
		{"AxpySparse", TestAxpySparse},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, b) })
	}
	t.Run("Copy", func(t *testing.T) { TestCopy(t, b) })
}
