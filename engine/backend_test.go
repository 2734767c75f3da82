package engine

import (
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/solver"
)

// TestAutoBackend checks that autoBackend chooses what backends.Report, given the
// engine's rule, says automatic selection runs each workload on: the device backend
// for a workload on a device where one is available, the best host backend for the rest.
func TestAutoBackend(t *testing.T) {
	st := backends.Report(solver.DeviceRule())
	device := workShape{Spec: solver.Spec{DeviceValues: 1e6}, Rows: 1e5, Dim: 1e4, Density: 1}
	host := workShape{Spec: solver.Spec{DeviceValues: 1e6}, Rows: 1e5, Dim: 1e4, Density: 0.01}
	chosen := map[string]string{} // the marking: workload kind -> backend
	for _, s := range st {
		switch {
		case !s.Auto:
		case s.AutoFor == solver.DeviceRule():
			chosen["device"] = s.Name
		default:
			chosen["host"] = s.Name
		}
	}
	if chosen["host"] == "" {
		t.Fatalf("no backend marked as auto's host choice: %+v", st)
	}
	if chosen["device"] == "" {
		chosen["device"] = chosen["host"]
	}
	for kind, w := range map[string]workShape{"device": device, "host": host} {
		b, err := autoBackend(w)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name() != chosen[kind] {
			t.Errorf("backends.Report marks %s as auto's choice for a %s workload; autoBackend(%+v) chose %s", chosen[kind], kind, w, b.Name())
		}
		b.Close()
	}
}

// TestAutoSkipsUnavailableCUDA checks that auto never picks cuda where it is
// unavailable.
func TestAutoSkipsUnavailableCUDA(t *testing.T) {
	if ok, _ := cuda.Available(); ok {
		t.Skip("a GPU is here")
	}
	b, err := autoBackend(workShape{Spec: solver.Spec{DeviceValues: 1}, Rows: 1e5, Dim: 1e4, Density: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Name() == "cuda" {
		t.Errorf("auto picked cuda, which is unavailable")
	}
	for _, s := range backends.Report(solver.DeviceRule()) {
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
		w    workShape
		want bool
	}{
		{"spdam, epsilon-sized", workShape{spdam, 400_000, 2_000, 1, 0}, true},
		{"spdam, at the limits", workShape{spdam, v / solver.DeviceMinDim, solver.DeviceMinDim, 0.5, 0}, true},
		{"spdam, too few features", workShape{spdam, 1_000_000, solver.DeviceMinDim - 1, 1, 0}, false},
		{"spdam, too few values", workShape{spdam, v/solver.DeviceMinDim - 1, solver.DeviceMinDim, 1, 0}, false},
		{"mba-l2, where spdam runs on the device (every pair: ls-auc's limit)", workShape{mba, v / solver.DeviceMinDim, solver.DeviceMinDim, 1, 0}, false},
		{"mba-l2, epsilon-sized", workShape{mba, 400_000, 2_000, 1, 0}, true},
		{"spdam, sparse (news20)", workShape{spdam, 19_996, 1_355_191, 0.00034, 0}, false},
		{"spdam, density unknown", workShape{spdam, 400_000, 2_000, 0, 0}, false},
		{"solam, epsilon-sized", workShape{solam, 400_000, 2_000, 1, 1}, false},
		{"opauc, one pass under its limit", workShape{opauc, 10_000, 1_000, 1, 1}, false},
		{"opauc, five passes over the same rows", workShape{opauc, 10_000, 1_000, 1, 5}, true},
		{"no workload", workShape{}, false},
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
	if r := solver.DeviceRule(); !strings.Contains(r, "spdam from 2e+07") || !strings.Contains(r, "mba-l2 from 5e+07") || !strings.Contains(r, "1000 features") {
		t.Errorf("solver.DeviceRule() = %q, want the algorithms and the limits", r)
	}
}
