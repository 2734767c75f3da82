package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingLabelHint checks that an empty label cell's error suggests what can
// accept it: --missing skip, never --missing zero, which applies to feature cells only
// (issue 43: with --missing zero given, the hint still suggested --missing zero),
// while an empty feature cell still suggests both.
func TestMissingLabelHint(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(p, []byte("label,x\n1,2\n,3\n-1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, missing := range []string{MissingError, MissingZero} {
		_, _, err := ReadTableFile(p, Options{Table: &TableOptions{Missing: missing}})
		if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "t.csv:3:1") ||
			!strings.Contains(err.Error(), "Missing skip") || strings.Contains(err.Error(), "zero or") {
			t.Errorf("--missing %s, an empty label: %v; want it at t.csv:3:1 suggesting --missing skip, not zero", missing, err)
		}
	}
	if err := os.WriteFile(p, []byte("label,x\n1,2\n-1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadTableFile(p, Options{Table: &TableOptions{Missing: MissingError}})
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "Missing zero or skip") {
		t.Errorf("an empty feature cell: %v; want the hint --missing zero or skip", err)
	}
}
