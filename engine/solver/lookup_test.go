package solver

import (
	"errors"
	"strings"
	"testing"
)

// TestLookupSuggests checks that an unknown algorithm's error suggests the name that
// was most likely meant (issue 43: opuac, spam_l2 and OPAUC gave only the full list),
// and none for a name far from every algorithm.
func TestLookupSuggests(t *testing.T) {
	for name, want := range map[string]string{"opuac": "opauc", "spam_l2": "spam-l2", "OPAUC": "opauc", "ls_auc": "ls-auc", "nonsense": ""} {
		_, err := Lookup(name)
		if !errors.Is(err, ErrUnknownAlgorithm) {
			t.Fatalf("Lookup(%q): %v, want ErrUnknownAlgorithm", name, err)
		}
		hint := "did you mean " + want + "?"
		if got := strings.Contains(err.Error(), "did you mean"); got != (want != "") || want != "" && !strings.Contains(err.Error(), hint) {
			t.Errorf("Lookup(%q): %v; want the hint %q", name, err, hint)
		}
	}
}
