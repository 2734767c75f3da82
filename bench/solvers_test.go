package bench

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
	"github.com/ulikunitz/xz"
)

// a9aFile is the a9a training file as shipped inside the binary (engine/data's embedded
// copy, the same bytes as LIBSVM's a9a): the source tree always has it, so the a9a
// benchmarks never skip.
const a9aFile = "../engine/data/embedded/a9a.txt.xz"

// Limits of the news20-like benchmarks: an algorithm whose state, extrapolated from two
// small dimensions, would exceed passMaxBytes at news20's dimension (OPAUC's d×d
// covariances would need 14.7 TB there), or whose first, untimed pass does not finish
// within passMaxTime, is skipped with the reason.
const (
	passMaxBytes = 1 << 30
	passMaxTime  = 10 * time.Second
)

var a9aText struct {
	sync.Once
	text []byte
	dim  int
	err  error
}

// loadA9A returns the decompressed a9a training file and its dimension (one untimed
// parse).
func loadA9A(b *testing.B) ([]byte, int) {
	a9aText.Do(func() {
		f, err := os.Open(a9aFile)
		if err != nil {
			a9aText.err = err
			return
		}
		defer f.Close()
		z, err := xz.NewReader(f)
		if err != nil {
			a9aText.err = fmt.Errorf("%s: %w", a9aFile, err)
			return
		}
		if a9aText.text, err = io.ReadAll(z); err != nil {
			a9aText.err = fmt.Errorf("%s: %w", a9aFile, err)
			return
		}
		r, err := data.NewReader(bytes.NewReader(a9aText.text), a9aFile, data.Options{})
		if err != nil {
			a9aText.err = err
			return
		}
		if _, err := data.ReadAll(r); err != nil {
			a9aText.err = err
			return
		}
		a9aText.dim = r.MaxIndex()
	})
	if a9aText.err != nil {
		b.Skipf("a9a: %v (the source tree's embedded copy is needed)", a9aText.err)
	}
	return a9aText.text, a9aText.dim
}

var news20 struct {
	sync.Once
	d *data.Dataset
}

// news20Rows is data.News20Like(0.5, 1) (20,000 rows of 1,355,191 features, 450
// non-zeros each) generated into memory once, outside any timer.
func news20Rows() *data.Dataset {
	news20.Do(func() {
		s := data.News20Like(0.5, 1)
		d := &data.Dataset{Name: "news20like", Dim: s.Dim, Ptr: []int64{0}}
		for {
			ex, err := s.Next()
			if err != nil {
				break
			}
			d.Append(ex.Y, ex.Label, ex.X)
		}
		news20.d = d
	})
	return news20.d
}

// BenchmarkPass is one pass of every registered online algorithm (default
// parameters, seed 1, rows in file order) over
//
//   - data=a9a: a9a's 32,561 training rows (123 features, about 14 non-zeros a row),
//     parsed from the LIBSVM text held in memory in every iteration, so the time
//     includes parsing; SetBytes counts the text's bytes (2,329,875), so MB/s is the
//     end-to-end throughput;
//   - data=news20like: data.News20Like(0.5, 1), rows generated once, outside the timer.
//
// on the generic and avx2 backends. Each iteration makes a fresh learner (its
// allocation is part of the pass) and reports rows/s. Batch algorithms are left out.
func BenchmarkPass(b *testing.B) {
	for _, spec := range solver.Registry() {
		if spec.IsBatch() {
			continue
		}
		for _, be := range compared(b) {
			b.Run(fmt.Sprintf("algo=%s/data=a9a/backend=%s", spec.Name, be.Name()), func(b *testing.B) {
				text, dim := loadA9A(b)
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				var s solver.Online
				rows := 0
				for b.Loop() {
					s, rows = passA9A(b, spec, be, text, dim)
				}
				finish(b, s, rows)
			})
			b.Run(fmt.Sprintf("algo=%s/data=news20like/backend=%s", spec.Name, be.Name()), func(b *testing.B) {
				d := news20Rows()
				if why := infeasible(spec, be, d); why != "" {
					b.Skipf("%s on news20like: %s", spec.Name, why)
				}
				b.ReportAllocs()
				var s solver.Online
				for b.Loop() {
					s = newOnline(b, spec, be, d.Dim)
					for i := range d.Rows() {
						s.Observe(d.Row(i), d.Y[i])
					}
				}
				finish(b, s, d.Rows())
			})
		}
	}
}

// passA9A parses text and feeds every row to a fresh learner; it returns the learner
// and the number of rows.
func passA9A(b *testing.B, spec solver.Spec, be kernels.Backend, text []byte, dim int) (solver.Online, int) {
	s := newOnline(b, spec, be, dim)
	r, err := data.NewReader(bytes.NewReader(text), "a9a", data.Options{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		ex, err := r.Next()
		if err == io.EOF {
			return s, n
		}
		if err != nil {
			b.Fatal(err)
		}
		s.Observe(ex.X, ex.Y)
		n++
	}
}

func newOnline(b *testing.B, spec solver.Spec, be kernels.Backend, dim int) solver.Online {
	s, err := spec.NewOnline(be, dim, spec.Params(), 1)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// finish reports rows/s and warns when the last pass ended with non-finite weights (a
// diverging learner's timing is not representative).
func finish(b *testing.B, s solver.Online, rows int) {
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	if s == nil {
		return
	}
	for _, w := range s.Weights() {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			b.Logf("warning: non-finite weights after the pass (default parameters diverge on this data)")
			return
		}
	}
}

// infeasible says why one pass of spec over d would not fit the limits, or "". The
// state size is extrapolated from learners made for two small dimensions (the growth
// exponent fitted between them); then one untimed pass is run against the clock (its
// first rows can cost far more than the average, e.g. SOLAM's O(d) rescalings while
// ‖w‖ settles, so a short probe would not do).
func infeasible(spec solver.Spec, be kernels.Backend, d *data.Dataset) string {
	const d1, d2 = 1500, 3000
	m1, err1 := stateBytes(spec, be, d1)
	m2, err2 := stateBytes(spec, be, d2)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("cannot make the learner: %v", errorsOf(err1, err2))
	}
	if m1 > 0 && m2 > m1 {
		k := math.Log(float64(m2)/float64(m1)) / math.Log(d2/d1)
		if est := float64(m2) * math.Pow(float64(d.Dim)/d2, k); est > passMaxBytes {
			return fmt.Sprintf("its state would take about %.3g bytes at d = %d (%d bytes at d = %d, %d at d = %d), over the %d limit",
				est, d.Dim, m1, d1, m2, d2, int64(passMaxBytes))
		}
	}
	s, err := spec.NewOnline(be, d.Dim, spec.Params(), 1)
	if err != nil {
		return fmt.Sprintf("cannot make the learner: %v", err)
	}
	start := time.Now()
	for i := range d.Rows() {
		s.Observe(d.Row(i), d.Y[i])
		if i%64 == 63 && time.Since(start) > passMaxTime {
			return fmt.Sprintf("its first pass did not finish in %v (%d of %d rows done)", passMaxTime, i+1, d.Rows())
		}
	}
	return ""
}

// stateBytes is the heap a learner for dim features allocates when made.
func stateBytes(spec solver.Spec, be kernels.Backend, dim int) (uint64, error) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := spec.NewOnline(be, dim, spec.Params(), 1)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(s)
	return after.TotalAlloc - before.TotalAlloc, err
}

func errorsOf(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// BenchmarkSVMOR is B-SVM-OR's whole fit on a9a's 32,561 training rows, scaled to
// [-1, 1] once outside the timer, at λ = 10⁻³ and 10⁻⁵ (the ends of the protocols'
// grid that cost: the planes needed grow as λ falls), on every backend. It reports the
// cutting planes of the fit.
func BenchmarkSVMOR(b *testing.B) {
	text, _ := loadA9A(b)
	r, err := data.NewReader(bytes.NewReader(text), "a9a", data.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ds, err := data.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	sc, err := data.FitMinMax(ds, -1, 1)
	if err != nil {
		b.Fatal(err)
	}
	ds = sc.Apply(ds)
	for _, be := range compared(b) {
		for _, lambda := range []float64{1e-3, 1e-5} {
			b.Run(fmt.Sprintf("lambda=%g/backend=%s", lambda, be.Name()), func(b *testing.B) {
				var m *solver.SVMOR
				for b.Loop() {
					if m, err = solver.NewSVMOR(be, ds.Dim, solver.SVMORParams{Lambda: lambda, Eps: 1e-3, Iters: 1000}, 1); err != nil {
						b.Fatal(err)
					}
					if err := m.Fit(b.Context(), ds); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(m.Iterations()), "planes")
			})
		}
	}
}
