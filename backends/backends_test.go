package backends_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/backends"
	_ "github.com/aucopt/aucopt/backends/all"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

func TestOpen(t *testing.T) {
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
		{"tpu", "", backends.ErrUnknown, `unknown backend "tpu" (want auto, cuda, avx2, generic)`},
	}
	if cudaOK {
		tests = append(tests, testCase{"cuda", "cuda", nil, ""})
	} else {
		tests = append(tests, testCase{"cuda", "", cuda.ErrUnavailable, "backend cuda: unavailable"}) // the name once
	}
	if asmErr == nil {
		tests = append(tests, testCase{"avx2", "avx2", nil, ""})
	} else {
		tests = append(tests, testCase{"avx2", "", nil, "backend " + asmErr.Error()})
	}
	for _, tt := range tests {
		b, err := backends.Open(tt.name)
		if tt.want != "" {
			if err != nil {
				t.Errorf("Open(%q) error %v, want %s", tt.name, err, tt.want)
				continue
			}
			if b.Name() != tt.want {
				t.Errorf("Open(%q).Name() = %q, want %q", tt.name, b.Name(), tt.want)
			}
			b.Close()
			continue
		}
		if err == nil {
			t.Errorf("Open(%q) = %s, want an error", tt.name, b.Name())
			continue
		}
		if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
			t.Errorf("Open(%q) error %q does not wrap %q", tt.name, err, tt.wantErr)
		}
		if !fault.IsInput(err) {
			t.Errorf("Open(%q) error %q is not the input's fault", tt.name, err)
		}
		if !strings.Contains(err.Error(), tt.errMatch) {
			t.Errorf("Open(%q) error = %q, want it to contain %q", tt.name, err, tt.errMatch)
		}
	}
}

func TestSelect(t *testing.T) {
	t.Setenv(backends.Env, "generic")
	b, err := backends.Select("")
	if err != nil || b == nil || b.Name() != "generic" {
		t.Fatalf("Select(\"\") with %s=generic = %v, %v", backends.Env, b, err)
	}
	b.Close()
	t.Setenv(backends.Env, "tpu")
	if _, err := backends.Select(""); !errors.Is(err, backends.ErrUnknown) {
		t.Errorf("Select(\"\") with %s=tpu: error %v, want ErrUnknown", backends.Env, err)
	}
	if b, err := backends.Select("generic"); err != nil || b.Name() != "generic" {
		t.Errorf("an explicit name must win over $%s: got %v, %v", backends.Env, b, err)
	}
	for _, auto := range []string{"auto", " AUTO"} {
		if b, err := backends.Select(auto); b != nil || err != nil {
			t.Errorf("Select(%q) = %v, %v, want nil, nil (per workload)", auto, b, err)
		}
	}
	t.Setenv(backends.Env, "")
	if b, err := backends.Select(""); b != nil || err != nil {
		t.Errorf("Select(\"\") with nothing set = %v, %v, want nil, nil", b, err)
	}
}

func TestReport(t *testing.T) {
	st := backends.Report("big dense data")
	if len(st) != 3 {
		t.Fatalf("Report has %d entries, want 3", len(st))
	}
	autos := 0
	for i, s := range st {
		if s.Name != backends.Names()[i+1] {
			t.Errorf("Report()[%d].Name = %q, want %q", i, s.Name, backends.Names()[i+1])
		}
		if s.Available == (s.Reason != "") {
			t.Errorf("%s: Available=%t but Reason=%q", s.Name, s.Available, s.Reason)
		}
		if s.Auto {
			autos++
			if s.AutoFor == "" {
				t.Errorf("%s: marked as auto's choice for no stated workloads", s.Name)
			}
			for device, want := range map[bool]bool{true: s.AutoFor != "every other workload", false: s.Name != "cuda"} {
				b, err := backends.OpenAuto(device)
				if err != nil {
					t.Fatal(err)
				}
				if got := b.Name() == s.Name; got != want {
					t.Errorf("Report marks %s as auto's choice for %s; OpenAuto(%t) chose %s", s.Name, s.AutoFor, device, b.Name())
				}
				b.Close()
			}
		}
	}
	if want := 1 + map[bool]int{true: 1}[st[0].Available]; autos != want {
		t.Errorf("%d backends marked as auto's choice, want %d", autos, want)
	}
	if st[0].Available && st[0].AutoFor != "big dense data" {
		t.Errorf("the device backend is auto's choice for %q, want the rule given", st[0].AutoFor)
	}
	if !st[2].Available {
		t.Error("generic must always be available")
	}
	if want := fmt.Sprintf("pure Go, %d cores", runtime.GOMAXPROCS(0)); st[2].Detail != want {
		t.Errorf("generic's detail is %q, want %q", st[2].Detail, want)
	}
}

func TestHost(t *testing.T) {
	b, err := backends.Host(1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Name() == "cuda" {
		t.Error("Host opened the device backend")
	}
	if d := kernels.DetailOf(b); b.Name() == "generic" && d != "pure Go, 1 cores" {
		t.Errorf("Host(1) is %q, want one worker", d)
	}
}

// counting is a driver that counts its opens and fails while fail is set.
type counting struct {
	opens int
	fail  error
}

func (c *counting) open() (kernels.Backend, error) {
	c.opens++
	if c.fail != nil {
		return nil, c.fail
	}
	return fallback.NewWorkers(1), nil
}

// TestRegistry checks the registry on its own drivers: automatic selection's order by
// priority, the device rule, the probe made once, and the errors of an empty registry
// and of a bad registration.
func TestRegistry(t *testing.T) {
	var empty backends.Registry
	for _, f := range []func() (kernels.Backend, error){
		func() (kernels.Backend, error) { return empty.Open("generic") },
		func() (kernels.Backend, error) { return empty.Open("auto") },
		func() (kernels.Backend, error) { return empty.Auto(false) },
	} {
		if _, err := f(); !errors.Is(err, backends.ErrNone) || !strings.Contains(err.Error(), `import _ "github.com/aucopt/aucopt/backends/all"`) || strings.Contains(err.Error(), "\n") {
			t.Errorf("empty registry: error %v, want ErrNone, one line naming the import", err)
		}
	}

	var r backends.Registry
	low, high, dev := &counting{}, &counting{fail: errors.New("no such CPU")}, &counting{}
	r.Register(backends.Driver{Name: "low", Priority: 1, Open: low.open})
	r.Register(backends.Driver{Name: "dev", Priority: 9, Device: true, Open: dev.open})
	r.Register(backends.Driver{Name: "high", Priority: 5, Open: high.open})
	for _, bad := range []backends.Driver{
		{Name: "low", Open: low.open},  // taken
		{Name: "auto", Open: low.open}, // reserved
		{Name: "x"},                    // no Open
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q) did not panic", bad.Name)
				}
			}()
			r.Register(bad)
		}()
	}
	if got := strings.Join(r.Names(), " "); got != "auto dev high low" {
		t.Errorf("Names() = %q, want auto then by priority", got)
	}
	for _, c := range []struct {
		device bool
		want   *counting
	}{{true, dev}, {false, low}} { // high is unavailable; dev only for device workloads
		before := c.want.opens
		b, err := r.Auto(c.device)
		if err != nil || b == nil {
			t.Fatalf("Auto(%t): %v", c.device, err)
		}
		b.Close()
		if c.want.opens != before+1 {
			t.Errorf("Auto(%t) did not open the driver it should (dev for a device workload, else low)", c.device)
		}
	}
	for i := 0; i < 3; i++ {
		if _, err := r.Open("high"); err == nil || err.Error() != "backend high: no such CPU" || !fault.IsInput(err) {
			t.Errorf("Open(high) error %v, want the probe's reason, the input's fault", err)
		}
	}
	if high.opens != 1 {
		t.Errorf("an unavailable driver was opened %d times, want once (the probe)", high.opens)
	}
	st := r.Report("wide data")
	if st[0].Name != "dev" || !st[0].Auto || st[0].AutoFor != "wide data" || st[1].Available || st[1].Reason != "no such CPU" || !st[2].Auto || st[2].AutoFor != "every other workload" {
		t.Errorf("Report = %+v", st)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Register after the registry was used did not panic")
			}
		}()
		r.Register(backends.Driver{Name: "late", Open: low.open})
	}()
}

func TestDetectCPU(t *testing.T) {
	c := backends.DetectCPU()
	if c.Cores < 1 || c.Arch == "" {
		t.Errorf("DetectCPU() = %+v", c)
	}
	if l := c.FeatureList(); !strings.Contains(l, "AVX2") {
		t.Errorf("FeatureList() = %q lacks AVX2 (present or marked absent)", l)
	}
}

func ExampleOpen() {
	b, err := backends.Open("generic")
	if err != nil {
		panic(err)
	}
	defer b.Close()
	x := b.NewVec(3)
	b.Upload(x, []float64{1, 2, 3})
	fmt.Println(b.Name(), b.Dot(x, x))
	// Output: generic 14
}

// TestDefault: a caller's backend is returned as is and never closed; nil opens
// $AUCOPT_BACKEND's backend, else automatic selection's host backend, closed by the
// release returned.
func TestDefault(t *testing.T) {
	own := fallback.New()
	b, release, err := backends.Default(own, true)
	if err != nil || b != own {
		t.Fatalf("Default(own) = %v, %v, want own", b, err)
	}
	release()
	t.Setenv(backends.Env, "generic")
	if b, release, err = backends.Default(nil, true); err != nil || b.Name() != "generic" {
		t.Fatalf("Default(nil) with %s=generic = %v, %v", backends.Env, b, err)
	}
	release()
	t.Setenv(backends.Env, "")
	want, err := backends.OpenAuto(false)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	if b, release, err = backends.Default(nil, false); err != nil || b.Name() != want.Name() {
		t.Fatalf("Default(nil, false) = %v, %v, want automatic selection's %s", b, err, want.Name())
	}
	release()
	t.Setenv(backends.Env, "tpu")
	if _, _, err := backends.Default(nil, false); !errors.Is(err, backends.ErrUnknown) {
		t.Errorf("Default(nil) with %s=tpu: error %v, want ErrUnknown", backends.Env, err)
	}
}
