package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/solver"
)

// TestResultsParams: every run of a learner in the tables committed in bench/results
// records the parameters HEAD's learner has, no more and no fewer keys, so that a parameter added
// to a learner (Uni-Log's bias-reg once) cannot leave a committed table silently
// describing runs of another learner: the table is then re-made, or its runs shown to
// give the same numbers with the new key at its default.
func TestResultsParams(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("results", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no tables in bench/results")
	}
	type run struct {
		Params map[string]any `json:"params"`
	}
	type cell struct {
		Runs []run `json:"runs"`
	}
	var doc struct {
		Tables []struct {
			Title string                     `json:"title"`
			Cells map[string]map[string]cell `json:"cells"`
		} `json:"tables"`
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc.Tables = nil
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		runs := 0
		for _, tab := range doc.Tables {
			for set, algos := range tab.Cells {
				for algo, c := range algos {
					spec, err := solver.Lookup(algo)
					if err != nil {
						// A reference that is no learner (mba-sim's Neyman-Pearson AUC,
						// "np") has runs without parameters.
						if !slices.ContainsFunc(c.Runs, func(r run) bool { return r.Params != nil }) {
							continue
						}
						t.Errorf("%s, %s, %s: %v", f, set, algo, err)
						continue
					}
					want := spec.Params().Keys()
					slices.Sort(want)
					for i, r := range c.Runs {
						got := make([]string, 0, len(r.Params))
						for k := range r.Params {
							got = append(got, k)
						}
						slices.Sort(got)
						if !slices.Equal(got, want) {
							t.Errorf("%s, table %q, %s, %s, run %d: parameters %v, the learner's are %v", f, tab.Title, set, algo, i+1, got, want)
							break
						}
						runs++
					}
				}
			}
		}
		if runs == 0 {
			t.Errorf("%s: no runs with parameters found", f)
		}
	}
}
