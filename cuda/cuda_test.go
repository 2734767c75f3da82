package cuda

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/cuda/cudatest"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"github.com/aucopt/aucopt/kernels/kerneltest"
)

// TestFakeConformance runs the conformance suite on the backend over the fake device:
// the row-major ↔ column-major mapping, the views (base + offset + leading dimension),
// the alpha = 0 host path and the kernels' indexing, all against kerneltest's
// references, with the fake's reference BLAS standing in for cuBLAS.
func TestFakeConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole suite on a reference BLAS takes a while")
	}
	b := newBackend(newFakeDevice())
	defer b.Close()
	kerneltest.Run(t, b)
}

// TestFakeCalls checks that each operation reaches the device through the cuBLAS call
// or kernel the mapping names (not the host path), with a quick result check against
// fallback.
func TestFakeCalls(t *testing.T) {
	dev := newFakeDevice()
	b := newBackend(dev)
	defer b.Close()
	h := fallback.New()
	defer h.Close()
	const r, c = 7, 5
	vals := func(n int, s float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = s * float64(i%7-3+i/7)
		}
		return v
	}
	up := func(be kernels.Backend, rows, cols int, v []float64) kernels.Mat {
		m := be.NewMat(rows+1, cols+2).Slice(1, rows+1, 1, cols+1)
		be.Upload(m, v)
		return m
	}
	upv := func(be kernels.Backend, v []float64) kernels.Vec {
		x := be.NewVec(len(v))
		be.Upload(x, v)
		return x
	}
	for _, c := range []struct {
		call string
		op   func(be kernels.Backend) []float64
	}{
		{"dgemv", func(be kernels.Backend) []float64 {
			y := upv(be, vals(r, 1))
			be.Gemv(false, 1.5, up(be, r, c, vals(r*c, 1)), upv(be, vals(c, 2)), 0.5, y)
			out := make([]float64, r)
			be.Download(out, y)
			return out
		}},
		{"dsymv", func(be kernels.Backend) []float64 {
			y := upv(be, vals(c, 1))
			be.Symv(2, up(be, c, c, vals(c*c, 1)), upv(be, vals(c, 3)), -1, y)
			out := make([]float64, c)
			be.Download(out, y)
			return out
		}},
		{"dsyrk", func(be kernels.Backend) []float64 {
			m := up(be, c, c, vals(c*c, 1))
			be.Syrk(0.5, up(be, r, c, vals(r*c, 1)), 1, m)
			out := make([]float64, c*c)
			be.Download(out, m)
			return out
		}},
		{"dsymm", func(be kernels.Backend) []float64 {
			m := up(be, r, c, vals(r*c, 1))
			be.Symm(0.5, up(be, c, c, vals(c*c, 2)), up(be, r, c, vals(r*c, 3)), 2, m)
			out := make([]float64, r*c)
			be.Download(out, m)
			return out
		}},
		{"dger", func(be kernels.Backend) []float64 {
			m := up(be, r, c, vals(r*c, 1))
			be.Ger(0.5, upv(be, vals(r, 2)), upv(be, vals(c, 3)), m)
			out := make([]float64, r*c)
			be.Download(out, m)
			return out
		}},
		{"dsyr", func(be kernels.Backend) []float64 {
			m := up(be, c, c, vals(c*c, 1))
			be.Syr(0.5, upv(be, vals(c, 2)), m)
			out := make([]float64, c*c)
			be.Download(out, m)
			return out
		}},
		{"rowDiff", func(be kernels.Backend) []float64 {
			m := be.NewMat(3, c)
			be.RowDiff(up(be, r, c, vals(r*c, 1)), []int32{6, 0, 3}, []int32{1, 5, 3}, m)
			out := make([]float64, 3*c)
			be.Download(out, m)
			return out
		}},
		{"gatherRows", func(be kernels.Backend) []float64 {
			y := upv(be, vals(c, 1))
			be.GemvRows(true, 1, up(be, r, c, vals(r*c, 1)), []int32{4, 4, 1}, upv(be, vals(3, 2)), 1, y)
			out := make([]float64, c)
			be.Download(out, y)
			return out
		}},
		{"gather", func(be kernels.Backend) []float64 {
			return []float64{be.DotSparse(kernels.Sparse{Idx: []int32{0, 3, 6}, Val: []float64{1, -2, 3}}, upv(be, vals(r, 1)))}
		}},
		{"scatter", func(be kernels.Backend) []float64 {
			y := upv(be, vals(r, 1))
			be.AxpySparse(2, kernels.Sparse{Idx: []int32{0, 3, 6}, Val: []float64{1, -2, 3}}, y)
			out := make([]float64, r)
			be.Download(out, y)
			return out
		}},
		{"gather", func(be kernels.Backend) []float64 { // Gather
			out := be.NewVec(4)
			be.Gather(upv(be, vals(r, 1)).Slice(1, r), []int32{5, 0, 2, 2}, out)
			h := make([]float64, 4)
			be.Download(h, out)
			return h
		}},
		{"scatter", func(be kernels.Backend) []float64 { // ScatterAdd
			y := upv(be, vals(r, 1))
			be.ScatterAdd(-1.5, upv(be, vals(3, 2)), []int32{6, 0, 3}, y.Slice(0, r))
			out := make([]float64, r)
			be.Download(out, y)
			return out
		}},
	} {
		t.Run(c.call, func(t *testing.T) {
			before := dev.calls[c.call]
			got, want := c.op(b), c.op(h)
			if dev.calls[c.call] == before {
				t.Errorf("no %s call reached the device", c.call)
			}
			for i := range want {
				if d := got[i] - want[i]; d > 1e-12 || d < -1e-12 {
					t.Fatalf("element %d = %v, want %v (fallback)", i, got[i], want[i])
				}
			}
		})
	}
}

// TestUnavailable checks New on this machine: on a machine without the NVIDIA driver
// it must fail with ErrUnavailable and say why; with a GPU it must work.
func TestUnavailable(t *testing.T) {
	b, err := New()
	if err == nil {
		t.Logf("a GPU is here: %s", b.Detail())
		b.Close()
		return
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("New() error %q does not wrap ErrUnavailable", err)
	}
	if !strings.HasPrefix(err.Error(), "cuda: unavailable: ") || len(err.Error()) < len("cuda: unavailable: ")+5 {
		t.Errorf("New() error %q gives no reason", err)
	}
	ok, reason := Available()
	if ok || reason != err.Error() {
		t.Errorf("Available() = %v, %q; want false, %q", ok, reason, err)
	}
	t.Logf("unavailable here, as expected: %v", err)
}

// TestOutOfMemory checks that a tensor the device cannot hold panics with an *Error
// naming the tensor and its size, wrapping ErrOutOfMemory, and that the backend still
// works afterwards.
func TestOutOfMemory(t *testing.T) {
	dev := newFakeDevice()
	dev.limit = 1 << 20
	b := newBackend(dev)
	defer b.Close()
	r := func() (r any) {
		defer func() { r = recover() }()
		b.NewMat(400000, 2000)
		return nil
	}()
	err, ok := r.(error)
	if !ok {
		t.Fatalf("NewMat(400000, 2000) on a 1 MB device panicked with %v (%T), want an error", r, r)
	}
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrOutOfMemory) || !errors.Is(err, kernels.ErrDevice) {
		t.Fatalf("error %q is not an *Error wrapping ErrOutOfMemory and kernels.ErrDevice", err)
	}
	if launch := error(&Error{Call: "cuLaunchKernel", Msg: "too many resources"}); !errors.Is(launch, kernels.ErrDevice) || errors.Is(launch, ErrOutOfMemory) {
		t.Errorf("a driver error %q must match kernels.ErrDevice and only that", launch)
	}
	for _, want := range []string{"cuda: NewMat(400000, 2000)", "out of device memory", "6.40 GB", "6400000000 bytes", "1.05 MB free of 1.05 MB"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	v := b.NewVec(3)
	b.Upload(v, []float64{1, 2, 3})
	if got := b.Dot(v, v); got != 14 {
		t.Errorf("after the failed allocation Dot = %v, want 14", got)
	}
}

// TestPTX checks the embedded PTX: present, with every entry the loader looks up, for
// a virtual architecture every supported GPU JITs (compute_60 from nvcc ≤ 12.x; CUDA
// 13's nvcc no longer targets below compute_75, so a PTX regenerated with it is for
// sm_75 and later), and in a PTX ISA version the oldest driver the loader accepts
// (minDriver) can JIT: regenerating with a newer nvcc raises the ISA version, and then
// minDriver must rise with it (see ptx.go).
func TestPTX(t *testing.T) {
	if len(ptx) < 1000 {
		t.Fatalf("embedded PTX has %d bytes", len(ptx))
	}
	m := regexp.MustCompile(`(?m)^\.target sm_(\d+)\s*$`).FindStringSubmatch(ptx)
	if m == nil {
		t.Fatal("PTX has no .target sm_NN line")
	}
	if sm, _ := strconv.Atoi(m[1]); sm < 60 || sm > 75 {
		t.Errorf("PTX target sm_%d, want sm_60 to sm_75 (a virtual architecture Turing, Ampere and Hopper all JIT)", sm)
	}
	v := regexp.MustCompile(`(?m)^\.version (\d+)\.(\d+)\s*$`).FindStringSubmatch(ptx)
	if v == nil {
		t.Fatal("PTX has no .version line")
	}
	major, _ := strconv.Atoi(v[1])
	minor, _ := strconv.Atoi(v[2])
	if need := ptxISADriver(major, minor); need == 0 || need > minDriver {
		t.Errorf("PTX ISA %d.%d needs a driver for CUDA %d.%d, but minDriver is %d: raise minDriver or generate with an older nvcc", major, minor, need/1000, need%1000/10, minDriver)
	}
	var entries []string
	for _, e := range regexp.MustCompile(`\.entry\s+(\w+)\(`).FindAllStringSubmatch(ptx, -1) {
		entries = append(entries, e[1])
	}
	for _, k := range kernelNames {
		if !slices.Contains(entries, k) {
			t.Errorf("PTX lacks entry %s (has %v)", k, entries)
		}
	}
}

// ptxISADriver is the oldest driver API version (1000·major + 10·minor) that JITs PTX
// ISA major.minor (the PTX ISA's release notes): ISA 7.x came with CUDA 11.x, 8.x with
// 12.x, 9.0 with 13.0; 0 for an ISA this table does not know.
func ptxISADriver(major, minor int) int {
	switch {
	case major == 7 && minor <= 8:
		return 11000 + 10*minor
	case major == 8 && minor <= 9:
		return 12000 + 10*minor
	case major == 9 && minor <= 9:
		return 13000 + 10*minor
	}
	return 0
}

// TestSymbolNames checks the symbol lists the loader resolves: no duplicates, and
// names of the shapes the libraries export.
func TestSymbolNames(t *testing.T) {
	cu := regexp.MustCompile(`^cu[A-Z][A-Za-z0-9]*(_v2)?$`)
	blas := regexp.MustCompile(`^cublas[A-Z][A-Za-z]*_v2$`)
	seen := map[string]bool{}
	for _, s := range driverSymbols {
		if !cu.MatchString(s) {
			t.Errorf("driver symbol %q is not a CUDA driver API name", s)
		}
		if seen[s] {
			t.Errorf("symbol %q listed twice", s)
		}
		seen[s] = true
	}
	for _, s := range blasSymbols {
		if !blas.MatchString(s) {
			t.Errorf("cuBLAS symbol %q is not a cuBLAS v2 name", s)
		}
		if seen[s] {
			t.Errorf("symbol %q listed twice", s)
		}
		seen[s] = true
	}
	for _, s := range []string{"cuInit", "cuDevicePrimaryCtxRetain", "cuMemAlloc_v2", "cuMemcpy2D_v2", "cuModuleLoadDataEx", "cuLaunchKernel", "cuStreamCreate", "cuMemGetInfo_v2", "cuGetErrorString",
		"cublasDgemv_v2", "cublasDsymv_v2", "cublasDsyrk_v2", "cublasDsymm_v2", "cublasSetStream_v2", "cublasSetPointerMode_v2"} {
		if !seen[s] {
			t.Errorf("the loader does not resolve %s", s)
		}
	}
}

// TestDeviceConformance runs the conformance suite on the real GPU; it skips where
// there is none.
func TestDeviceConformance(t *testing.T) {
	b, err := New()
	if err != nil {
		cudatest.Unavailable(t, err.Error())
	}
	defer b.Close()
	t.Logf("device: %s", b.Detail())
	kerneltest.Run(t, b)
}

// TestDeviceStagedUpload uploads, on the device, tensors above the pinned staging
// threshold (a Vec of 2.6 staging chunks, so both buffers are reused and the last chunk
// is partial; a Mat view, whose rows go by a 2D copy; a Mat just under the threshold) and
// checks that they download bit for bit, and that kernels after an upload see it.
func TestDeviceStagedUpload(t *testing.T) {
	b, err := New()
	if err != nil {
		cudatest.Unavailable(t, err.Error())
	}
	defer b.Close()
	rng := rand.New(rand.NewPCG(3, 3))
	fill := func(n int) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64()
		}
		return x
	}
	for _, n := range []int{stagingChunk*26/80 + 3, stagingMin/8 - 1, stagingMin / 8} {
		x := fill(n)
		v := b.NewVec(n)
		b.Upload(v, x)
		got := make([]float64, n)
		b.Download(got, v)
		if !slices.Equal(got, x) {
			t.Errorf("Vec of %d: the download differs from the upload", n)
		}
		if s := b.Dot(v, v); math.Abs(s-dot(x, x)) > 1e-9*s {
			t.Errorf("Vec of %d: Dot after the upload = %v, want %v", n, s, dot(x, x))
		}
	}
	rows, cols := 3000, 1500 // 36 MB
	a := fill(rows * cols)
	m := b.NewMat(rows, cols)
	b.Upload(m, a)
	sub := m.Slice(10, rows-7, 3, cols-5)
	sr, sc := sub.Dims()
	want := make([]float64, 0, sr*sc)
	for i := 10; i < rows-7; i++ {
		want = append(want, a[i*cols+3:i*cols+cols-5]...)
	}
	got := make([]float64, sr*sc)
	b.Download(got, sub)
	if !slices.Equal(got, want) {
		t.Errorf("Mat %d×%d: a view's download differs from the upload", rows, cols)
	}
	b.Upload(sub, fill(sr*sc)) // a 2D upload into the view
	top := make([]float64, cols)
	b.Download(top, m.Slice(0, 1, 0, cols))
	if !slices.Equal(top, a[:cols]) {
		t.Errorf("Mat %d×%d: an upload into a view changed the row above it", rows, cols)
	}
}

func dot(x, y []float64) (s float64) {
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

// TestDiscoveryReport logs where the loader looked for the driver and cuBLAS, what it
// loaded and why each other file failed (`go test -run DiscoveryReport -v`), and checks
// the report against New: a library loaded exactly when New succeeds, every failed
// attempt with its reason.
func TestDiscoveryReport(t *testing.T) {
	d := Discover()
	for _, l := range d.Lines() {
		t.Log(l)
	}
	_, err := New()
	for _, s := range []LibrarySearch{d.Driver, d.CUBLAS} {
		if len(s.Looked) == 0 {
			t.Errorf("search %+v lists no place", s)
		}
		for _, a := range s.Attempts {
			if a.Path == "" || a.From == "" || (a.Error == "" && a.Path != s.Loaded) {
				t.Errorf("attempt %+v: want a path, where it came from and, unless loaded, why it failed", a)
			}
		}
	}
	if loaded := d.Driver.Loaded != "" && d.CUBLAS.Loaded != ""; loaded != (err == nil) {
		t.Errorf("Discover loaded driver %q and cuBLAS %q, but New() error = %v", d.Driver.Loaded, d.CUBLAS.Loaded, err)
	}
	if err != nil {
		cudatest.Unavailable(t, err.Error())
	}
}

// TestFakeK0 checks that Syrk with an inner dimension k = 0 gives the
// reference BLAS's C = beta·C (zero for beta = 0, even over NaN) without calling
// cuBLAS, whose k = 0 behaviour is undocumented (the fake refuses such calls).
func TestFakeK0(t *testing.T) {
	dev := newFakeDevice()
	b := newBackend(dev)
	defer b.Close()
	nan := math.NaN()
	for _, tt := range []struct {
		name string
		beta float64
		c    []float64 // 2×2 row-major
		want []float64 // Syrk touches the upper triangle only
	}{
		{"beta=0 over NaN", 0, []float64{nan, nan, nan, nan}, []float64{0, 0, nan, 0}},
		{"beta=2", 2, []float64{1, 2, 3, 4}, []float64{2, 4, 3, 8}},
		{"beta=1", 1, []float64{1, nan, 3, 4}, []float64{1, nan, 3, 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			syrk0 := dev.calls["dsyrk"]
			c := b.NewMat(2, 2)
			b.Upload(c, tt.c)
			b.Syrk(1.5, b.NewMat(0, 2), tt.beta, c)
			got := make([]float64, 4)
			b.Download(got, c)
			if !sameFloats(got, tt.want) {
				t.Errorf("Syrk with k = 0: C = %v, want %v", got, tt.want)
			}
			if dev.calls["dsyrk"] != syrk0 {
				t.Errorf("a k = 0 call reached cuBLAS (dsyrk %d→%d)", syrk0, dev.calls["dsyrk"])
			}
		})
	}
}

// sameFloats compares element by element, NaN equal to NaN.
func sameFloats(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || (x != x && y != y) })
}

// TestFakeMemoryOps checks that new tensors are cleared on the device with one
// memset (the fake's fresh memory reads as NaN, as cuMemAlloc does not clear), not by
// uploading zeros; and that transfers of contiguous data are linear copies, strided
// ones one 2D copy while the pitches fit the device's maximum, and row by row beyond
// it (a one-row 2D copy of a Vec over 2³¹−1 bytes would fail, which a small maximum
// stands for here).
func TestFakeMemoryOps(t *testing.T) {
	dev := newFakeDevice()
	dev.pitch = 64 // 8 elements
	b := newBackend(dev)
	defer b.Close()
	count := func() map[string]int { return maps.Clone(dev.calls) }
	before := count()
	v := b.NewVec(100)
	m := b.NewMat(5, 30)
	got := make([]float64, 100)
	b.Download(got, v)
	if slices.ContainsFunc(got, func(x float64) bool { return x != 0 }) {
		t.Errorf("NewVec(100) not zeroed: %v", got)
	}
	gm := make([]float64, 150)
	b.Download(gm, m)
	if slices.ContainsFunc(gm, func(x float64) bool { return x != 0 }) {
		t.Errorf("NewMat(5, 30) not zeroed: %v", gm)
	}
	after := count()
	if after["memset"]-before["memset"] != 2 || after["htod"] != before["htod"] || after["htodLinear"] != before["htodLinear"] {
		t.Errorf("zeroing two tensors: memset %d, htod %d, htodLinear %d calls; want 2 memsets and no uploads",
			after["memset"]-before["memset"], after["htod"]-before["htod"], after["htodLinear"]-before["htodLinear"])
	}
	vals := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(i) + 0.5
		}
		return s
	}
	for _, tt := range []struct {
		name    string
		t       func() kernels.Tensor
		n       int
		calls   string // the device call the upload and the download make
		perCopy int    // how many of them
	}{
		{"Vec beyond the max pitch: linear", func() kernels.Tensor { return v }, 100, "Linear", 1},
		{"whole Mat: linear", func() kernels.Tensor { return m }, 150, "Linear", 1},
		{"Mat view within the max pitch: 2D", func() kernels.Tensor { return b.NewMat(4, 8).Slice(1, 4, 2, 6) }, 12, "", 1},
		{"Mat view beyond the max pitch: row by row", func() kernels.Tensor { return m.Slice(1, 4, 3, 10) }, 21, "Linear", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			x, want := tt.t(), vals(tt.n)
			c0 := count()
			b.Upload(x, want)
			got := make([]float64, tt.n)
			b.Download(got, x)
			c1 := count()
			if !slices.Equal(got, want) {
				t.Errorf("round trip gave %v, want %v", got, want)
			}
			if up, down := c1["htod"+tt.calls]-c0["htod"+tt.calls], c1["dtoh"+tt.calls]-c0["dtoh"+tt.calls]; up != tt.perCopy || down != tt.perCopy {
				t.Errorf("htod%s %d and dtoh%s %d calls, want %d each", tt.calls, up, tt.calls, down, tt.perCopy)
			}
		})
	}
	// The rest of m is untouched by the strided upload.
	b.Download(gm, m)
	if gm[0] != 0.5 || gm[30+2] != 30+2.5 || gm[30+3] != 0.5 || gm[30+10] != 30+10.5 {
		t.Errorf("strided upload wrote outside its view: row 1 = %v", gm[30:60])
	}
}
