package engine

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/cuda"
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
			if b, _ := Backend("auto"); b == nil || b.Name() != s.Name {
				t.Errorf("Backends marks %s as auto's choice, Backend(\"auto\") disagrees", s.Name)
			}
		}
	}
	if autos != 1 {
		t.Errorf("%d backends marked as auto's choice, want 1", autos)
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
