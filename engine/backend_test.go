package engine

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

func TestBackend(t *testing.T) {
	_, asmErr := asm.New()
	wantAuto := "avx2"
	if asmErr != nil {
		wantAuto = "generic"
	}
	cudaOK, _ := cuda.Available()
	if cudaOK {
		wantAuto = "cuda"
	}
	type testCase struct {
		name     string
		want     string // backend name, or "" for an error
		wantErr  error  // a sentinel the error must wrap, if any
		errMatch string // a substring of the error
	}
	tests := []testCase{
		{"generic", "generic", nil, ""},
		{" Generic ", "generic", nil, ""},
		{"auto", wantAuto, nil, ""},
		{"", wantAuto, nil, ""},
		{"tpu", "", ErrUnknownBackend, `unknown backend "tpu" (want auto, cuda, avx2, generic)`},
	}
	if cudaOK {
		tests = append(tests, testCase{"cuda", "cuda", nil, ""})
	} else {
		tests = append(tests, testCase{"cuda", "", cuda.ErrUnavailable, "backend cuda: unavailable"}) // the name once
	}
	if asmErr == nil {
		tests = append(tests, testCase{"avx2", "avx2", nil, ""})
	} else {
		tests = append(tests, testCase{"avx2", "", nil, backendError("avx2", asmErr).Error()})
	}
	for _, tt := range tests {
		b, err := Backend(tt.name)
		if tt.want != "" {
			if err != nil {
				t.Errorf("Backend(%q) error %v, want %s", tt.name, err, tt.want)
				continue
			}
			if b.Name() != tt.want {
				t.Errorf("Backend(%q).Name() = %q, want %q", tt.name, b.Name(), tt.want)
			}
			b.Close()
			continue
		}
		if err == nil {
			t.Errorf("Backend(%q) = %s, want an error", tt.name, b.Name())
			continue
		}
		if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
			t.Errorf("Backend(%q) error %q does not wrap %q", tt.name, err, tt.wantErr)
		}
		if !strings.Contains(err.Error(), tt.errMatch) {
			t.Errorf("Backend(%q) error = %q, want it to contain %q", tt.name, err, tt.errMatch)
		}
	}
}

func TestBackendFromEnv(t *testing.T) {
	t.Setenv(EnvBackend, "generic")
	b, err := BackendFromEnv("")
	if err != nil || b.Name() != "generic" {
		t.Fatalf("BackendFromEnv(\"\") with %s=generic = %v, %v", EnvBackend, b, err)
	}
	b.Close()
	t.Setenv(EnvBackend, "tpu")
	if _, err := BackendFromEnv(""); !errors.Is(err, ErrUnknownBackend) {
		t.Errorf("BackendFromEnv(\"\") with %s=tpu: error %v, want ErrUnknownBackend", EnvBackend, err)
	}
	if b, err := BackendFromEnv("generic"); err != nil || b.Name() != "generic" {
		t.Errorf("an explicit name must win over $%s: got %v, %v", EnvBackend, b, err)
	}
}

func TestBackends(t *testing.T) {
	st := Backends()
	if len(st) != 3 {
		t.Fatalf("Backends() has %d entries, want 3", len(st))
	}
	autos := 0
	for i, s := range st {
		if s.Name != BackendNames[i+1] {
			t.Errorf("Backends()[%d].Name = %q, want %q", i, s.Name, BackendNames[i+1])
		}
		if s.Available == (s.Reason != "") {
			t.Errorf("%s: Available=%t but Reason=%q", s.Name, s.Available, s.Reason)
		}
		if s.Auto {
			autos++
			if s.AutoFor == "" {
				t.Errorf("%s: marked as auto's choice for no stated workloads", s.Name)
			}
			device := Workload{Spec: solver.Spec{DeviceValues: 1e6}, Rows: 1e5, Dim: 1e4, Density: 1}
			host := Workload{Spec: solver.Spec{DeviceValues: 1e6}, Rows: 1e5, Dim: 1e4, Density: 0.01}
			want := map[bool]bool{true: true, false: true} // whether s is chosen for a device or a host workload
			if s.Name == "cuda" {
				want[false] = false
			} else if st[0].Available {
				want[true] = false
			}
			for onDevice, w := range map[bool]Workload{true: device, false: host} {
				b := AutoBackend(w)
				if got := b.Name() == s.Name; got != want[onDevice] {
					t.Errorf("Backends marks %s as auto's choice for %s; AutoBackend(%+v) chose %s", s.Name, s.AutoFor, w, b.Name())
				}
				b.Close()
			}
		}
	}
	if want := 1 + map[bool]int{true: 1}[st[0].Available]; autos != want {
		t.Errorf("%d backends marked as auto's choice, want %d", autos, want)
	}
	if !st[2].Available {
		t.Error("generic must always be available")
	}
	if want := fmt.Sprintf("pure Go, %d cores", runtime.GOMAXPROCS(0)); st[2].Detail != want {
		t.Errorf("generic's detail is %q, want %q", st[2].Detail, want)
	}
}

// concurrency is a backend stating c (kernels.Concurrent).
type concurrency struct {
	kernels.Backend
	c kernels.Concurrency
}

func (b concurrency) Concurrency() kernels.Concurrency { return b.c }

// TestConcurrentSafe: jobs run on several goroutines only on a backend that says it is
// Safe; one whose device failures panic on the caller, or one that says nothing, gets one.
func TestConcurrentSafe(t *testing.T) {
	g, err := Backend("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct {
		name string
		b    kernels.Backend
		want bool
	}{
		{"generic", g, true},
		{"safe", concurrency{g, kernels.Safe}, true},
		{"device panics", concurrency{g, kernels.SafeDevicePanics}, false},
		{"serial", concurrency{g, kernels.Serial}, false},
		{"silent", struct{ kernels.Backend }{g}, false},
	} {
		if got := concurrentSafe(c.b); got != c.want {
			t.Errorf("%s: concurrentSafe = %t, want %t", c.name, got, c.want)
		}
	}
}

func TestDetectCPU(t *testing.T) {
	c := DetectCPU()
	if c.Cores < 1 || c.Arch == "" {
		t.Errorf("DetectCPU() = %+v", c)
	}
	if l := c.FeatureList(); !strings.Contains(l, "AVX2") {
		t.Errorf("FeatureList() = %q lacks AVX2 (present or marked absent)", l)
	}
}

func ExampleBackend() {
	b, err := Backend("generic")
	if err != nil {
		panic(err)
	}
	defer b.Close()
	x := b.NewVec(3)
	b.Upload(x, []float64{1, 2, 3})
	fmt.Println(b.Name(), b.Dot(x, x))
	// Output: generic 14
}

// TestAutoSkipsUnavailableCUDA checks that auto never picks cuda where it is
// unavailable.
func TestAutoSkipsUnavailableCUDA(t *testing.T) {
	if ok, _ := cuda.Available(); ok {
		t.Skip("a GPU is here")
	}
	b, err := Backend("auto")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Name() == "cuda" {
		t.Errorf("auto picked cuda, which is unavailable")
	}
	for _, s := range Backends() {
		if s.Name == "cuda" && (s.Available || s.Auto || s.Reason == "") {
			t.Errorf("cuda status %+v: want unavailable with a reason", s)
		}
	}
}

// TestWorkloadOnDevice checks automatic selection's rule: a GPU for an algorithm with
// DeviceValues on dense, wide data of at least that many values only.
func TestWorkloadOnDevice(t *testing.T) {
	spec := func(name string) solver.Spec {
		s, err := solver.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	spdam, mba, solam, opauc := spec("spdam"), spec("mba-l2"), spec("solam"), spec("opauc")
	v := int(spdam.DeviceValues)
	for _, tc := range []struct {
		name string
		w    Workload
		want bool
	}{
		{"spdam, epsilon-sized", Workload{spdam, 400_000, 2_000, 1, 0}, true},
		{"spdam, at the limits", Workload{spdam, v / AutoDeviceDim, AutoDeviceDim, 0.5, 0}, true},
		{"spdam, too few features", Workload{spdam, 1_000_000, AutoDeviceDim - 1, 1, 0}, false},
		{"spdam, too few values", Workload{spdam, v/AutoDeviceDim - 1, AutoDeviceDim, 1, 0}, false},
		{"mba-l2, where spdam runs on the device (every pair: ls-auc's limit)", Workload{mba, v / AutoDeviceDim, AutoDeviceDim, 1, 0}, false},
		{"mba-l2, epsilon-sized", Workload{mba, 400_000, 2_000, 1, 0}, true},
		{"spdam, sparse (news20)", Workload{spdam, 19_996, 1_355_191, 0.00034, 0}, false},
		{"spdam, density unknown", Workload{spdam, 400_000, 2_000, 0, 0}, false},
		{"solam, epsilon-sized", Workload{solam, 400_000, 2_000, 1, 1}, false},
		{"opauc, one pass under its limit", Workload{opauc, 10_000, 1_000, 1, 1}, false},
		{"opauc, five passes over the same rows", Workload{opauc, 10_000, 1_000, 1, 5}, true},
		{"no workload", Workload{}, false},
	} {
		if got := tc.w.OnDevice(); got != tc.want {
			t.Errorf("%s: OnDevice = %v, want %v", tc.name, got, tc.want)
		}
	}
	for _, name := range []string{"opauc", "ls-auc", "mba-l2", "mba-l1", "mba-el", "spdam"} {
		if s := spec(name); s.DeviceValues <= 0 {
			t.Errorf("%s: DeviceValues = %d, want > 0", name, s.DeviceValues)
		}
	}
	if r := AutoDeviceRule(); !strings.Contains(r, "spdam from 2e+07") || !strings.Contains(r, "mba-l2 from 5e+07") || !strings.Contains(r, "1000 features") {
		t.Errorf("AutoDeviceRule() = %q, want the algorithms and the limits", r)
	}
}
