// Command resultsum summarises the committed reports of `aucopt experiment` (their --json
// files): for each paper, how many table cells are within one published std of the
// paper's number, above it by more, more than one std below it (†), or have no published
// number; then every † cell with its explanation. bench/results/README.md's totals are
// its output.
//
//	go run ./bench/resultsum                      # bench/results/*.json
//	go run ./bench/resultsum a.json b.json
//
// A cell is counted once per table it appears in (a9a's OPAUC is in opauc-large and
// opauc-a9a). Cells that could not run (no successful runs) count as "not run".
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aucopt/aucopt/engine/experiment"
)

// papers maps a protocol to the paper whose numbers its tables carry.
var papers = map[string]string{"opauc": "OPAUC (ICML 2013)", "thesis": "thesis (SOLAM, SPAM, SPDAM)",
	"ubauc": "UBAUC (UAI 2018)", "mba": "MBA (TNNLS 2020)", "mba-sim": "MBA (TNNLS 2020)"}

// counts are one paper's cells by outcome.
type counts struct{ within, above, below, none, notRun int }

// dagger is one cell more than a std below its paper.
type dagger struct {
	file, dataset, algo string
	mean, std           float64
	paper, paperStd     float64
	explain             string
}

func main() {
	files := os.Args[1:]
	if len(files) == 0 {
		var err error
		if files, err = filepath.Glob("bench/results/*.json"); err != nil || len(files) == 0 {
			fmt.Fprintln(os.Stderr, "resultsum: no bench/results/*.json here (run from the repository root, or name the files)")
			os.Exit(2)
		}
	}
	if err := run(os.Stdout, files); err != nil {
		fmt.Fprintln(os.Stderr, "resultsum:", err)
		os.Exit(2)
	}
}

// run reads the reports and writes the summary to w.
func run(w io.Writer, files []string) error {
	byPaper := map[string]*counts{}
	var daggers []dagger
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		// ReadReport recomputes the means and the † marks from the runs and this
		// build's published numbers; the explanations come from the file as written.
		r, err := experiment.ReadReport(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		var written struct {
			Tables []struct {
				Cells map[string]map[string]struct {
					Explain string `json:"explain"`
				} `json:"cells"`
			} `json:"tables"`
		}
		if err := json.Unmarshal(b, &written); err != nil || len(written.Tables) != len(r.Tables) {
			return fmt.Errorf("%s: the tables' explanations do not decode (%v)", f, err)
		}
		paper, ok := papers[r.Protocol]
		if !ok {
			return fmt.Errorf("%s: unknown protocol %q", f, r.Protocol)
		}
		c := byPaper[paper]
		if c == nil {
			c = &counts{}
			byPaper[paper] = c
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		for i, t := range r.Tables {
			for _, ds := range t.Datasets {
				for _, algo := range t.Algos {
					cell := t.Cells[ds][algo]
					switch {
					case cell == nil || cell.N == 0:
						c.notRun++
					case cell.Paper == nil:
						c.none++
					case cell.Below:
						c.below++
						daggers = append(daggers, dagger{name, ds, algo, cell.Mean, cell.Std, cell.Paper.Mean, cell.Paper.Std,
							written.Tables[i].Cells[ds][algo].Explain})
					case cell.Mean > cell.Paper.Mean+cell.Paper.Std:
						c.above++
					default:
						c.within++
					}
				}
			}
		}
	}
	names := make([]string, 0, len(byPaper))
	for p := range byPaper {
		names = append(names, p)
	}
	slices.Sort(names)
	fmt.Fprintln(w, "| paper | within one std | above | † below | no published number | not run |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var tot counts
	for _, p := range names {
		c := byPaper[p]
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d |\n", p, c.within, c.above, c.below, c.none, c.notRun)
		tot.within, tot.above, tot.below, tot.none, tot.notRun = tot.within+c.within, tot.above+c.above,
			tot.below+c.below, tot.none+c.none, tot.notRun+c.notRun
	}
	fmt.Fprintf(w, "| **all** | %d | %d | %d | %d | %d |\n\n", tot.within, tot.above, tot.below, tot.none, tot.notRun)
	fmt.Fprintln(w, "| table | dataset | algorithm | ours | paper | cause |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, d := range daggers {
		cause := d.explain
		if cause == "" {
			cause = "not yet explained"
		}
		cause, _, _ = strings.Cut(cause, ": ") // the kind of cause; the full text is under the table
		fmt.Fprintf(w, "| %s | %s | %s | %.4f ± %.4f | %.4f ± %.4f | %s |\n", d.file, d.dataset, d.algo, d.mean, d.std, d.paper, d.paperStd, cause)
	}
	return nil
}
