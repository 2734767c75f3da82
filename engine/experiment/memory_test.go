package experiment

import (
	"context"
	"strings"
	"testing"
)

// TestCellMemoryGuard runs the tiny german experiment with a memory limit between
// OPAUC's state (about 33 kB for its 3-point grid on 24 features) and LS-AUC's (118 kB):
// the LS-AUC cell is not run, with a note naming its size, and the OPAUC cell is.
func TestCellMemoryGuard(t *testing.T) {
	cfg := tiny(1)
	cfg.MaxMemory = 60e3
	rep, err := Experiment(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cells := rep.Tables[0].Cells["german"]
	if c := cells["ls-auc"]; c.N != 0 || !strings.Contains(c.Note, "not run: ls-auc needs 118 kB for 24 features, more than the 60 kB") {
		t.Errorf("ls-auc in 60 kB: n %d, note %q; want not run, naming its size", c.N, c.Note)
	}
	if c := cells["opauc"]; c.N != 3 {
		t.Errorf("opauc in 60 kB: n %d (%s), want its 3 runs", c.N, c.Note)
	}
}
