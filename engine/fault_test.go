package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
)

// TestInputFault checks the classification that aucopt and aucopt-beam share: the
// input's faults, whatever wraps them, and a disk's failure never the input's even
// when wrapped as one (convert to a full disk exited 2, issue 43).
func TestInputFault(t *testing.T) {
	parse := &data.ParseError{Path: "part-01.svm", Line: 91, Column: 12, Err: data.ErrFeature}
	tests := []struct {
		name  string
		err   error
		input bool
		disk  bool
	}{
		{"a parse error", fmt.Errorf("moments pipeline: %w", parse), true, false},
		{"no file", fmt.Errorf("opening x: %w", fs.ErrNotExist), true, false},
		{"an input error", inputErrorf("no training data given"), true, false},
		{"no examples", fmt.Errorf("x: %w", data.ErrEmpty), true, false},
		{"a full disk", fmt.Errorf("writing m.json: %w", syscall.ENOSPC), false, true},
		{"a full disk wrapped as input", inputError{fmt.Errorf("writing: %w", syscall.ENOSPC)}, false, true},
		{"a failed device", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}, false, true},
		{"divergence", fmt.Errorf("train: %w", solver.ErrDiverged), false, false},
		{"cancelled", context.Canceled, false, false},
		{"unknown", errors.New("something"), false, false},
		{"nil", nil, false, false},
	}
	for _, tt := range tests {
		if got := InputFault(tt.err); got != tt.input {
			t.Errorf("%s: InputFault(%v) = %v, want %v", tt.name, tt.err, got, tt.input)
		}
		if got := DiskFailure(tt.err); got != tt.disk {
			t.Errorf("%s: DiskFailure(%v) = %v, want %v", tt.name, tt.err, got, tt.disk)
		}
	}
}
