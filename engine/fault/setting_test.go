package fault_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/fault"
)

// flag names a setting as aucopt's flags do.
func flag(s string) string { return "--" + strings.ToLower(s) }

func TestSettingf(t *testing.T) {
	cause := errors.New("no such file")
	inner := fault.Settingf("{Data} %q and {Test} %q are one stream: %w", "-", "-", cause)
	tests := []struct {
		name        string
		err         error
		msg, render string
	}{
		{"plain", fault.Settingf("{Average} and {Checkpoint} do not go together"),
			"Average and Checkpoint do not go together", "--average and --checkpoint do not go together"},
		{"with values", fault.Settingf("{Passes} %d: want 1 or more (%s)", 0, "{Passes} in a value stays"),
			"Passes 0: want 1 or more ({Passes} in a value stays)", "--passes 0: want 1 or more ({Passes} in a value stays)"},
		{"a percent in a name", fault.Settingf("{Rate} %d%%", 5), "Rate 5%", "--rate 5%"},
		{"wrapped", fmt.Errorf("train a9a: %w", inner),
			`train a9a: Data "-" and Test "-" are one stream: no such file`, `train a9a: --data "-" and --test "-" are one stream: no such file`},
		{"nested", fmt.Errorf("x: %w", fault.Settingf("{Grid}: %w", inner)),
			`x: Grid: Data "-" and Test "-" are one stream: no such file`, `x: --grid: --data "-" and --test "-" are one stream: no such file`},
		{"none", errors.New("{Data} is not a setting here"), "{Data} is not a setting here", "{Data} is not a setting here"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.name, got, tt.msg)
		}
		if got := fault.Render(tt.err, flag); got != tt.render {
			t.Errorf("%s: rendered %q, want %q", tt.name, got, tt.render)
		}
	}
	if !errors.Is(inner, cause) || !fault.IsInput(inner) {
		t.Errorf("%v: must wrap its %%w argument and ErrInput", inner)
	}
	if fault.Render(nil, flag) != "" {
		t.Error("Render(nil) must be empty")
	}
}
