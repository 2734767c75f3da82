package fault_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

// TestIsInput checks the classification that aucopt, aucopt-beam and the C API share:
// the input's faults, whatever wraps them, and a disk's failure or a failure of the run
// never the input's even when wrapped as one (convert to a full disk exited 2, issue 43).
func TestIsInput(t *testing.T) {
	parse := &data.ParseError{Path: "part-01.svm", Line: 91, Column: 12, Err: data.ErrFeature}
	tests := []struct {
		name  string
		err   error
		input bool
		disk  bool
	}{
		{"a parse error", fmt.Errorf("moments pipeline: %w", parse), true, false},
		{"no file", fmt.Errorf("opening x: %w", fs.ErrNotExist), true, false},
		{"no permission", &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission}, true, false},
		{"a directory", &fs.PathError{Op: "read", Path: "x", Err: syscall.EISDIR}, true, false},
		{"under a file", &fs.PathError{Op: "open", Path: "x/y", Err: syscall.ENOTDIR}, true, false},
		{"marked input", fault.Input(errors.New("no training data given")), true, false},
		{"an input sentinel", fmt.Errorf("x: %w", fault.NewInput("bad thing")), true, false},
		{"no examples", fmt.Errorf("x: %w", data.ErrEmpty), true, false},
		{"a full disk", fmt.Errorf("writing m.json: %w", syscall.ENOSPC), false, true},
		{"a full disk marked input", fault.Input(fmt.Errorf("writing: %w", syscall.ENOSPC)), false, true},
		{"a failed device", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}, false, true},
		{"divergence", fmt.Errorf("train: %w", solver.ErrDiverged), false, false},
		{"divergence marked input", fault.Input(fmt.Errorf("train: %w", solver.ErrDiverged)), false, false},
		{"a runtime failure marked input", fault.Input(fault.Runtime(errors.New("device failure"))), false, false},
		{"cancelled", context.Canceled, false, false},
		{"unknown", errors.New("something"), false, false},
		{"nil", nil, false, false},
	}
	for _, tt := range tests {
		if got := fault.IsInput(tt.err); got != tt.input {
			t.Errorf("%s: IsInput(%v) = %v, want %v", tt.name, tt.err, got, tt.input)
		}
		if got := fault.IsDisk(tt.err); got != tt.disk {
			t.Errorf("%s: IsDisk(%v) = %v, want %v", tt.name, tt.err, got, tt.disk)
		}
	}
}

// TestSentinels: the library's sentinels are classed by the kind they are made with, so
// that no front end lists them; their messages are unchanged by the marking.
func TestSentinels(t *testing.T) {
	tests := []struct {
		err  error
		kind error
		msg  string
	}{
		{solver.ErrParam, fault.ErrInput, "bad parameter"},
		{solver.ErrOneClass, fault.ErrInput, "training data has only one class"},
		{solver.ErrUnknownAlgorithm, fault.ErrInput, "unknown algorithm"},
		{solver.ErrDiverged, fault.ErrRuntime, "diverged"},
		{metric.ErrOneClass, fault.ErrInput, "metric: AUC undefined: one class has no example"},
		{metric.ErrLabel, fault.ErrInput, "metric: label must be +1 or -1"},
		{data.ErrUnknownDataset, fault.ErrInput, "unknown dataset"},
		{data.ErrCache, fault.ErrInput, "bad cache file"},
		{data.ErrCorrupt, fault.ErrInput, "corrupt or truncated file"},
		{data.ErrEmpty, fault.ErrInput, "no examples"},
		{data.ErrNotRegular, fault.ErrInput, "not a regular file"},
		{model.ErrModel, fault.ErrInput, "bad model file"},
		{model.ErrFeatureSpace, fault.ErrInput, "data and model feature spaces differ"},
	}
	for _, tt := range tests {
		wrapped := fmt.Errorf("context: %w", tt.err)
		if !errors.Is(wrapped, tt.kind) || !errors.Is(wrapped, tt.err) {
			t.Errorf("%v: does not match %v and itself", tt.err, tt.kind)
		}
		if other := map[error]error{fault.ErrInput: fault.ErrRuntime, fault.ErrRuntime: fault.ErrInput}[tt.kind]; errors.Is(tt.err, other) {
			t.Errorf("%v: matches %v too", tt.err, other)
		}
		if tt.err.Error() != tt.msg {
			t.Errorf("message %q, want %q", tt.err, tt.msg)
		}
	}
	if m := fault.Input(errors.New("x")).Error(); m != "x" {
		t.Errorf("Input changed the message to %q", m)
	}
	if fault.Input(nil) != nil || fault.Runtime(nil) != nil {
		t.Error("marking nil must give nil")
	}
}
