package cliflag

import (
	"errors"
	"fmt"
	"testing"

	"github.com/aucopt/aucopt/engine/fault"
)

func TestOf(t *testing.T) {
	for _, c := range []struct{ setting, flag string }{
		{"OutOfCore", "--out-of-core"},
		{"AllowExtraFeatures", "--allow-extra-features"},
		{"HashBits", "--hash-bits"},
		{"Data", "--data"},
		{"Indices", "--zero-based"}, // renamed
	} {
		if got := Of(c.setting); got != c.flag {
			t.Errorf("Of(%q) = %q, want %q", c.setting, got, c.flag)
		}
	}
}

// TestMessage: a command's error names the flags where the library named its settings,
// and only there.
func TestMessage(t *testing.T) {
	err := fmt.Errorf("train x.svm: %w", fault.Settingf("{OutOfCore} reads the file in its order; {Shuffle} does not apply"))
	if got, want := Message(err), "train x.svm: --out-of-core reads the file in its order; --shuffle does not apply"; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
	if got := Message(errors.New("{Data} is only text here")); got != "{Data} is only text here" {
		t.Errorf("Message of a plain error = %q, changed", got)
	}
}
