//go:build linux && (amd64 || arm64)

package cuda

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestBindings checks that every symbol the loader resolves has a func field of its
// name to bind to, and every func field a symbol: a typo on either side fails here, not
// on a GPU machine.
func TestBindings(t *testing.T) {
	for _, c := range []struct {
		lib      string
		fns      any
		fields   []string
		symbols  []string
		optional []string
	}{
		{libCUDA, &cuFuncs{}, fieldNames(&cuFuncs{}), driverSymbols, nil},
		{"cuBLAS", &blasFuncs{}, fieldNames(&blasFuncs{}), blasSymbols, []string{"cublasGetStatusString"}},
	} {
		all := append(slices.Clone(c.symbols), c.optional...)
		for _, f := range c.fields {
			if !slices.Contains(all, f) {
				t.Errorf("%s: func field %s is not in the symbol list", c.lib, f)
			}
		}
		for _, s := range all {
			if !slices.Contains(c.fields, s) {
				t.Errorf("%s: symbol %s has no func field", c.lib, s)
			}
			if reflectStruct(c.fns)(s) == nil {
				t.Errorf("%s: no binding for %s", c.lib, s)
			}
		}
	}
}

// TestMissingDriver runs the real loader with the driver searched for in an empty
// file system but for a file named libcuda.so.1 that is not a library: where the
// loader's path has no driver either, New's error must list both attempts with
// dlopen's reasons, and the cuBLAS candidates must be listed as not tried.
func TestMissingDriver(t *testing.T) {
	root := t.TempDir()
	bogus := filepath.Join(root, "usr", "lib64", "libcuda.so.1")
	if err := os.MkdirAll(filepath.Dir(bogus), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bogus, []byte("not a library"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := searchEnv{getenv: func(string) string { return "" }, root: root, arch: "x86_64"}
	dev, disc, err := openDeviceIn(env, true)
	if err == nil {
		dev.close()
		t.Skipf("a driver is in the loader's path: %s", disc.Driver.Loaded)
	}
	want := "cuda: unavailable: no usable CUDA driver (no NVIDIA driver?): libcuda.so.1 (loader path): "
	if got := err.Error(); !strings.HasPrefix(got, want) || !strings.Contains(got, bogus+" (driver directories): ") {
		t.Errorf("error = %q, want it to start %q and name %s", got, want, bogus)
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("error %q does not wrap ErrUnavailable", err)
	}
	if n := len(disc.Driver.Attempts); n != 2 || disc.Driver.Loaded != "" {
		t.Fatalf("driver attempts %+v, want the soname and %s, none loaded", disc.Driver.Attempts, bogus)
	}
	for _, a := range disc.Driver.Attempts {
		if a.Error == "" {
			t.Errorf("attempt %+v gives no reason", a)
		}
	}
	if len(disc.CUBLAS.Attempts) != len(cublasMajors) {
		t.Errorf("cuBLAS attempts %+v, want the %d sonames", disc.CUBLAS.Attempts, len(cublasMajors))
	}
	for _, a := range disc.CUBLAS.Attempts {
		if a.Error != "not tried: no usable CUDA driver" {
			t.Errorf("cuBLAS attempt %+v, want not tried for want of a driver", a)
		}
	}
}

// TestMissingDriverNoSearch: New's open (report false) fails as Discover's does without a
// driver, but never looks for cuBLAS (no $AUCOPT_CUBLAS read, no directory globbed) and
// reports no cuBLAS search.
func TestMissingDriverNoSearch(t *testing.T) {
	root := t.TempDir()
	for _, report := range []bool{false, true} {
		var asked []string
		env := searchEnv{getenv: func(k string) string { asked = append(asked, k); return "" }, root: root, arch: "x86_64"}
		dev, disc, err := openDeviceIn(env, report)
		if err == nil {
			dev.close()
			t.Skipf("a driver is in the loader's path: %s", disc.Driver.Loaded)
		}
		if want := "cuda: unavailable: no usable CUDA driver"; !strings.HasPrefix(err.Error(), want) {
			t.Errorf("report %v: error = %q, want it to start %q", report, err, want)
		}
		searched := slices.Contains(asked, EnvCUBLAS)
		if searched != report || (len(disc.CUBLAS.Attempts) > 0) != report {
			t.Errorf("report %v: $%s read %v, cuBLAS attempts %+v", report, EnvCUBLAS, searched, disc.CUBLAS.Attempts)
		}
	}
}

// TestJITOptionsOnHeap checks that the JIT's log buffers, which the driver writes
// through integer addresses, are allocated on the heap (not on the moving goroutine
// stack) and that the option values point into them.
func TestJITOptionsOnHeap(t *testing.T) {
	const n = 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range n {
		newJITOptions().unpin()
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got < n*2*jitLogBytes {
		t.Errorf("%d calls of newJITOptions allocated %d heap bytes, want at least %d: its log buffers must be on the heap", n, got, n*2*jitLogBytes)
	}
	j := newJITOptions()
	defer j.unpin()
	if j.vals[0] != uintptr(unsafe.Pointer(&j.info[0])) || j.vals[2] != uintptr(unsafe.Pointer(&j.elog[0])) ||
		j.vals[1] != jitLogBytes || j.vals[3] != jitLogBytes || j.opts != [4]int32{3, 4, 5, 6} {
		t.Errorf("options %v / %v do not describe the two pinned buffers", j.opts, j.vals)
	}
}

// BenchmarkDeviceUpload times a 1 GiB upload from Go memory on the device: pageable
// (cuMemcpyHtoD, staging off) and staged through the pinned buffers with 1 to 16
// goroutines filling them. It skips without a device.
func BenchmarkDeviceUpload(b *testing.B) {
	be, err := New()
	if err != nil {
		b.Skip(err)
	}
	defer be.Close()
	d, ok := be.dev.(*realDevice)
	if !ok {
		b.Fatalf("the backend's device is a %T", be.dev)
	}
	x := make([]float64, 1<<27)
	for i := range x {
		x[i] = float64(i)
	}
	v := be.NewVec(len(x))
	for _, fillers := range []int{0, 1, 2, 4, 8, 16} {
		name := fmt.Sprintf("staged/fillers=%d", fillers)
		if fillers == 0 {
			name = "pageable"
		}
		b.Run(name, func(b *testing.B) {
			d.stage.off, d.stage.fillers = fillers == 0, fillers
			defer func() { d.stage.off, d.stage.fillers = false, 0 }()
			b.SetBytes(8 * int64(len(x)))
			for b.Loop() {
				be.Upload(v, x)
			}
		})
	}
}
