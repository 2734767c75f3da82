package data

import (
	"errors"
	"strings"
	"testing"
)

// TestLookupSuggests checks that an unknown dataset's error suggests the name that was
// most likely meant, and none for a name far from every dataset.
func TestLookupSuggests(t *testing.T) {
	for name, want := range map[string]string{"A9A": "a9a", "germna": "german", "fashion_mnist": "fashion-mnist", "zzzzzzzz": ""} {
		_, err := Lookup(name)
		if !errors.Is(err, ErrUnknownDataset) {
			t.Fatalf("Lookup(%q): %v, want ErrUnknownDataset", name, err)
		}
		hint := "did you mean " + want + "?"
		if got := strings.Contains(err.Error(), "did you mean"); got != (want != "") || want != "" && !strings.Contains(err.Error(), hint) {
			t.Errorf("Lookup(%q): %v; want the hint %q", name, err, hint)
		}
	}
}
