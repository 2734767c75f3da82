//go:build linux && (amd64 || arm64)

package cuda

import (
	"slices"
	"testing"
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

// TestMissingLibrary checks the reason given when the driver library is absent.
func TestMissingLibrary(t *testing.T) {
	old := libCUDA
	libCUDA = "libcuda-aucopt-test-missing.so.1"
	defer func() { libCUDA = old }()
	_, err := New()
	if err == nil {
		t.Fatal("New() with a missing driver library succeeded")
	}
	want := "cuda: unavailable: cannot load libcuda-aucopt-test-missing.so.1 (no NVIDIA driver?): "
	if got := err.Error(); len(got) <= len(want) || got[:len(want)] != want {
		t.Errorf("New() error = %q, want it to start %q and give dlopen's message", got, want)
	}
}
