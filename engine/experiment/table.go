package experiment

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/aucopt/aucopt/engine/metric"
)

// Report is a protocol's outcome: one Table per group of the paper, and how it ran.
type Report struct {
	Protocol string   `json:"protocol"`
	Paper    string   `json:"paper"`
	Source   string   `json:"source"`
	Describe string   `json:"describe"` // splits, scaling, selection
	Notes    []string `json:"notes,omitempty"`
	// Reduced lists every way this run departs from the paper's protocol; empty for
	// the full protocol.
	Reduced []string `json:"reduced,omitempty"`
	Seed    uint64   `json:"seed"`
	Backend string   `json:"backend"`
	Workers int      `json:"workers"`
	Seconds float64  `json:"seconds"` // wall time of all jobs
	Tables  []*Table `json:"tables"`
}

// Table is one of a paper's tables: Cells[dataset][algo] with marks against Reference.
type Table struct {
	Title     string                      `json:"title"`
	Reference string                      `json:"reference"`
	Datasets  []string                    `json:"datasets"`
	Algos     []string                    `json:"algos"`
	Cells     map[string]map[string]*Cell `json:"cells"`
	// WinTieLoss[algo] counts the datasets on which the reference is significantly
	// better than algo (win), not significantly different (tie), or worse (loss).
	WinTieLoss map[string][3]int `json:"win_tie_loss"`
}

// Cell is one algorithm on one dataset over all runs.
type Cell struct {
	Mean float64 `json:"-"` // of the successful runs' AUCs; NaN when none
	Std  float64 `json:"-"` // sample standard deviation (metric.MeanStd)
	N    int     `json:"n"` // successful runs
	// Outcome is the reference's paired t-test (95%) against this algorithm over the
	// runs both completed: "win" (mark •), "loss" (○), "tie"; "" for the reference
	// itself or with fewer than two paired runs. P is its p-value.
	Outcome string  `json:"outcome,omitempty"`
	P       float64 `json:"-"`
	Mark    string  `json:"mark,omitempty"` // "•", "○" or ""
	// Paper is the published number, when the paper has one.
	Paper *PaperCell `json:"paper,omitempty"`
	// Below says the mean is more than one (published) std below the paper's mean;
	// Explain then holds the reason (Report.Explain sets it from an Explanations file).
	Below   bool   `json:"below,omitempty"`
	Explain string `json:"explain,omitempty"`
	Note    string `json:"note,omitempty"` // why the cell is empty or short of runs
	Grid    string `json:"grid,omitempty"` // the grid the runs chose from
	Runs    []Run  `json:"runs"`
}

// Run is one training run: the test AUC, the grid point chosen, the time.
type Run struct {
	Split     string         `json:"split"`
	AUC       float64        `json:"-"` // NaN when the run failed (Error)
	ValAUC    *float64       `json:"val_auc,omitempty"`
	Params    map[string]any `json:"params,omitempty"`
	TrainRows int            `json:"train_rows,omitempty"`
	Seconds   float64        `json:"seconds"` // selection, refit and scoring
	Error     string         `json:"error,omitempty"`
}

// finite returns &x, or nil for NaN and ±Inf (JSON has no NaN).
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// MarshalJSON writes the cell with null for a missing mean, std or p-value.
func (c *Cell) MarshalJSON() ([]byte, error) {
	type plain Cell
	return json.Marshal(struct {
		Mean *float64 `json:"mean"`
		Std  *float64 `json:"std"`
		P    *float64 `json:"p,omitempty"`
		*plain
	}{finite(c.Mean), finite(c.Std), pval(c), (*plain)(c)})
}

func pval(c *Cell) *float64 {
	if c.Outcome == "" {
		return nil
	}
	return finite(c.P)
}

// MarshalJSON writes the run with a null AUC for a failed run.
func (r Run) MarshalJSON() ([]byte, error) {
	type plain Run
	return json.Marshal(struct {
		AUC *float64 `json:"auc"`
		plain
	}{finite(r.AUC), plain(r)})
}

// summarise fills every cell's mean, std, marks and the win/tie/loss counts.
func (t *Table) summarise() {
	t.WinTieLoss = map[string][3]int{}
	for _, d := range t.Datasets {
		for _, a := range t.Algos {
			c := t.Cells[d][a]
			var aucs []float64
			var fails int
			var first string
			for _, r := range c.Runs {
				if r.Error != "" {
					fails++
					if first == "" {
						first = r.Error
					}
					continue
				}
				aucs = append(aucs, r.AUC)
			}
			c.N = len(aucs)
			c.Mean, c.Std = metric.MeanStd(aucs)
			if fails > 0 {
				n := fmt.Sprintf("%d of %d runs failed (first: %s)", fails, len(c.Runs), first)
				c.Note = joinNote(c.Note, n)
			}
			// Below by more than the paper's printed precision (half a unit of its last
			// digit: 1.0000 ± .0000 is not below a mean of .99998).
			if c.Paper != nil && c.N > 0 && c.Mean < c.Paper.Mean-c.Paper.Std-5e-5 {
				c.Below = true
			}
		}
		ref, ok := t.Cells[d][t.Reference]
		if !ok {
			continue
		}
		for _, a := range t.Algos {
			if a == t.Reference {
				continue
			}
			c := t.Cells[d][a]
			var x, y []float64
			for i := range min(len(ref.Runs), len(c.Runs)) {
				if ref.Runs[i].Error == "" && c.Runs[i].Error == "" {
					x, y = append(x, ref.Runs[i].AUC), append(y, c.Runs[i].AUC)
				}
			}
			if len(x) < 2 {
				continue
			}
			o, p, err := metric.PairedTTest(x, y, 0.05)
			if err != nil {
				continue
			}
			c.Outcome, c.P, c.Mark = o.String(), p, markOf(o)
			wtl := t.WinTieLoss[a]
			wtl[int(1-o)]++ // Win → 0, Tie → 1, Loss → 2
			t.WinTieLoss[a] = wtl
		}
	}
}

// markOf is the papers' mark for the reference's outcome against an algorithm.
func markOf(o metric.Outcome) string {
	switch o {
	case metric.Win:
		return "•"
	case metric.Loss:
		return "○"
	}
	return ""
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// WriteJSON writes the report, every run included, as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// fmtAUC writes an AUC the papers' way: four decimals without the leading zero.
func fmtAUC(x float64) string {
	s := fmt.Sprintf("%.4f", x)
	return strings.TrimPrefix(s, "0")
}

// WriteMarkdown writes the report's tables in the papers' shape: a row per dataset,
// a column per algorithm, "mean ± std" with the mark, the published number beneath,
// then the win/tie/loss row and the notes.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Protocol `%s`: %s (%s)\n\n", r.Protocol, r.Paper, r.Source)
	fmt.Fprintf(&b, "Protocol: %s.\n\n", r.Describe)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "- %s\n", n)
	}
	if len(r.Reduced) > 0 {
		fmt.Fprintf(&b, "\n**Reduced protocol** (this run departs from the paper):\n\n")
		for _, n := range r.Reduced {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	fmt.Fprintf(&b, "\nSeed %d, backend %s, %d workers, %.1f s of wall time.\n", r.Seed, r.Backend, r.Workers, r.Seconds)
	for _, t := range r.Tables {
		t.markdown(&b)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (t *Table) markdown(b *strings.Builder) {
	fmt.Fprintf(b, "\n## %s\n\n", t.Title)
	fmt.Fprintf(b, "Test AUC, mean ± sample std over the runs (n = runs that completed); beneath it, in brackets, the paper's published number where it has one. "+
		"• / ○: the reference **%s** is significantly better / worse than this algorithm (paired t-test over the same runs, 95%%). "+
		"A cell marked † is more than one published std below the paper (explained below the table).\n\n", t.Reference)
	fmt.Fprintf(b, "| dataset |")
	for _, a := range t.Algos {
		if a == t.Reference {
			fmt.Fprintf(b, " **%s** |", a)
		} else {
			fmt.Fprintf(b, " %s |", a)
		}
	}
	fmt.Fprintf(b, "\n|---|")
	for range t.Algos {
		fmt.Fprintf(b, "---|")
	}
	fmt.Fprintln(b)
	type foot struct{ d, a, text string }
	var notes, below []foot
	for _, d := range t.Datasets {
		fmt.Fprintf(b, "| %s |", d)
		for _, a := range t.Algos {
			c := t.Cells[d][a]
			var s string
			if c.N == 0 {
				s = "—"
			} else {
				s = fmt.Sprintf("%s ± %s", fmtAUC(c.Mean), fmtAUC(c.Std))
				if c.Mark != "" {
					s += " " + c.Mark
				}
				if c.N < len(c.Runs) || len(c.Runs) == 0 {
					s += fmt.Sprintf(" (n=%d)", c.N)
				}
			}
			if c.Below {
				s += " †"
				below = append(below, foot{d, a, c.Explain})
			}
			if c.Paper != nil {
				s += fmt.Sprintf("<br>[%s ± %s]", fmtAUC(c.Paper.Mean), fmtAUC(c.Paper.Std))
			}
			if c.Note != "" {
				notes = append(notes, foot{d, a, c.Note})
			}
			fmt.Fprintf(b, " %s |", s)
		}
		fmt.Fprintln(b)
	}
	fmt.Fprintf(b, "| win/tie/loss |")
	for _, a := range t.Algos {
		if a == t.Reference {
			fmt.Fprintf(b, " — |")
			continue
		}
		wtl := t.WinTieLoss[a]
		fmt.Fprintf(b, " %d/%d/%d |", wtl[0], wtl[1], wtl[2])
	}
	fmt.Fprintln(b)
	if len(notes) > 0 {
		fmt.Fprintf(b, "\nNotes:\n\n")
		for _, n := range notes {
			fmt.Fprintf(b, "- %s, %s: %s\n", n.d, n.a, n.text)
		}
	}
	if len(below) > 0 {
		fmt.Fprintf(b, "\nCells more than one std below the paper (†):\n\n")
		for _, n := range below {
			text := n.text
			if text == "" {
				text = "not yet explained"
			}
			fmt.Fprintf(b, "- %s, %s: %s\n", n.d, n.a, text)
		}
	}
}

// UnmarshalJSON reads a run written by MarshalJSON (a null AUC is a failed run).
func (r *Run) UnmarshalJSON(b []byte) error {
	type plain Run
	var in struct {
		AUC *float64 `json:"auc"`
		*plain
	}
	in.plain = (*plain)(r)
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	r.AUC = math.NaN()
	if in.AUC != nil {
		r.AUC = *in.AUC
	}
	return nil
}

// ReadReport reads a report's JSON (WriteJSON) and summarises it again: the means,
// marks and win/tie/loss counts are recomputed from the runs, the published numbers
// taken from this build, and the explanations cleared (set them with Explain). It
// re-renders old results after a change to the tables' presentation or explanations,
// without training again.
func ReadReport(r io.Reader) (*Report, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return nil, fmt.Errorf("experiment report: %w", err)
	}
	for _, t := range rep.Tables {
		for _, d := range t.Datasets {
			for _, a := range t.Algos {
				c := t.Cells[d][a]
				if c == nil {
					return nil, fmt.Errorf("experiment report: table %q has no cell for %s on %s", t.Title, a, d)
				}
				c.Paper, c.Note, c.Mark, c.Outcome, c.Below, c.Explain = nil, dropFailures(c.Note), "", "", false, ""
				if pc, ok := Published(rep.Protocol, d, a); ok {
					c.Paper = &pc
				}
			}
		}
		t.summarise()
	}
	return &rep, nil
}

// dropFailures removes the failed-runs clause summarise adds to a note.
func dropFailures(note string) string {
	var keep []string
	for part := range strings.SplitSeq(note, "; ") {
		if !strings.Contains(part, " runs failed (first: ") && part != "" {
			keep = append(keep, part)
		}
	}
	return strings.Join(keep, "; ")
}
