package cuda

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

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
	if !errors.As(err, &e) || !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("error %q is not an *Error wrapping ErrOutOfMemory", err)
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

// TestPTX checks the embedded PTX: present, for a virtual architecture old enough for
// one file to serve Pascal to Hopper, with every entry the loader looks up.
func TestPTX(t *testing.T) {
	if len(ptx) < 1000 {
		t.Fatalf("embedded PTX has %d bytes", len(ptx))
	}
	m := regexp.MustCompile(`(?m)^\.target sm_(\d+)`).FindStringSubmatch(ptx)
	if m == nil || m[1] > "70" || len(m[1]) != 2 {
		t.Errorf("PTX target %v, want sm_60 or sm_70 (a virtual architecture every supported GPU JITs)", m)
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
		"cublasDgemv_v2", "cublasDsymv_v2", "cublasDsyrk_v2", "cublasDsymm_v2", "cublasDgemm_v2", "cublasSetStream_v2", "cublasSetPointerMode_v2"} {
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
		t.Skipf("no GPU: %v", err)
	}
	defer b.Close()
	t.Logf("device: %s", b.Detail())
	kerneltest.Run(t, b)
}
