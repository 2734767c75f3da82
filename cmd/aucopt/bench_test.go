package main

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/bench"
)

func TestBenchCommand(t *testing.T) {
	var avail []string // generic first, then avx2 and cuda where available
	for _, s := range backends.Report("") {
		if s.Available {
			avail = append([]string{s.Name}, avail...)
		}
	}
	var out, errOut bytes.Buffer
	status := run([]string{"bench", "--quick", "--json", "--algos", "opauc,spam-l2"}, &out, &errOut)
	if status != 0 {
		t.Fatalf("bench exited %d: %s", status, errOut.String())
	}
	var rows []bench.Row
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatalf("--json output is not a JSON array: %v\n%s", err, out.String())
	}
	var ops []string
	for _, r := range rows {
		ops = append(ops, r.Op)
		var names []string
		for _, b := range r.Backends {
			names = append(names, b.Backend)
			if !(b.Seconds > 0) || b.Reps < 1 || (r.Kind == "kernel") != (b.GFLOPS > 0) {
				t.Errorf("%s %s on %s: %+v", r.Op, r.Size, b.Backend, b)
			}
			if b.Backend == "generic" && b.Ratio != 1 {
				t.Errorf("%s %s: generic's ratio %v, want 1", r.Op, r.Size, b.Ratio)
			}
			if math.Abs(b.Ratio-r.Backends[0].Seconds/b.Seconds) > 1e-9*b.Ratio {
				t.Errorf("%s %s on %s: ratio %v, want %v", r.Op, r.Size, b.Backend, b.Ratio, r.Backends[0].Seconds/b.Seconds)
			}
			if r.Kind == "algorithm" && (b.AUC < 0.9 || b.AUC != r.Backends[0].AUC && math.Abs(b.AUC-r.Backends[0].AUC) > 1e-6) {
				t.Errorf("%s on %s: AUC %v (generic %v)", r.Op, b.Backend, b.AUC, r.Backends[0].AUC)
			}
		}
		if !slices.Equal(names, avail) {
			t.Errorf("%s %s: backends %v, want every available one %v", r.Op, r.Size, names, avail)
		}
	}
	for _, want := range []string{"Dot", "Axpy", "Gemv", "Symv", "Syrk", "Symm", "opauc", "spam-l2"} {
		if !slices.Contains(ops, want) {
			t.Errorf("no %s row in %v", want, ops)
		}
	}
	errOut.Reset()
	if status := run([]string{"bench", "--quick", "--algos", "opauc,no-such-algo"}, &out, &errOut); status != 2 ||
		!strings.Contains(errOut.String(), `unknown algorithm "no-such-algo"`) {
		t.Errorf("an unknown algorithm: exit %d, stderr %s", status, errOut.String())
	}

	out.Reset()
	errOut.Reset()
	if status := run([]string{"bench", "--quick", "--quiet", "--backends", "generic", "--algos", "spam-l2"}, &out, &errOut); status != 0 ||
		errOut.Len() != 0 || !strings.Contains(out.String(), "generic time") || strings.Contains(out.String(), "avx2") {
		t.Errorf("bench --backends generic: exit %d, stderr %q, stdout\n%s", status, errOut.String(), out.String())
	}

	for _, args := range [][]string{{"bench", "--backends", "quantum"}, {"bench", "--min-time", "-1s"}, {"bench", "--bogus"}} {
		out.Reset()
		errOut.Reset()
		if status := run(args, &out, &errOut); status == 0 || out.Len() != 0 || errOut.Len() == 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a failure", args, status, out.String(), errOut.String())
		}
	}
}

// TestBenchGPUCommand runs bench --gpu small on generic, and checks that without a GPU
// the default (avx2 vs cuda) exits 2 saying why.
func TestBenchGPUCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	status := run([]string{"bench", "--gpu", "--rows", "400", "--dim", "10", "--pass-rows", "100", "--backends", "generic", "--quiet"}, &out, &errOut)
	if status != 0 {
		t.Fatalf("bench --gpu exited %d: %s", status, errOut.String())
	}
	for _, want := range []string{"GPU bench", "MBA Σ_S", "OPAUC pass", "100×10", "SPDAM epoch", "generic time"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("bench --gpu output lacks %q:\n%s", want, out.String())
		}
	}
	for _, s := range backends.Report("") {
		if s.Name == "cuda" && s.Available {
			return
		}
	}
	out.Reset()
	errOut.Reset()
	if status := run([]string{"bench", "--gpu", "--rows", "100", "--dim", "5", "--backends", "generic,cuda"}, &out, &errOut); status != 2 || !strings.Contains(errOut.String(), "backend cuda: unavailable:") {
		t.Errorf("bench --gpu without a GPU: status %d, stderr %q; want 2 and the reason", status, errOut.String())
	}
}
