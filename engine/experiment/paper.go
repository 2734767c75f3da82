package experiment

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// PaperCell is a published mean ± std (AUC as a fraction) and where it was printed.
type PaperCell struct {
	Mean   float64 `json:"mean"`
	Std    float64 `json:"std"`
	Source string  `json:"source"` // table of the paper
}

// publishedTSV holds the papers' numbers, one cell a line: protocol, source, dataset,
// algo, mean and std as printed, and the scale they were printed at (1 for fractions,
// 100 for percentages). Lines starting with # are comments.
//
//go:embed published.tsv
var publishedTSV []byte

// publishedTable returns every published cell, protocol → dataset → algorithm, parsed
// from publishedTSV on first use.
var publishedTable = sync.OnceValues(func() (map[string]map[string]map[string]PaperCell, error) {
	return parsePublished(publishedTSV)
})

// publishedHeader is the TSV's column line.
var publishedHeader = []string{"protocol", "source", "dataset", "algo", "mean", "std", "scale"}

// parsePublished reads the published-numbers TSV. Errors name the line
// ("published.tsv:12: …"): a wrong number of fields, an empty name, a number that
// does not parse, a scale other than 1 or 100, a cell given twice.
func parsePublished(tsv []byte) (map[string]map[string]map[string]PaperCell, error) {
	out := map[string]map[string]map[string]PaperCell{}
	sc := bufio.NewScanner(bytes.NewReader(tsv))
	header := false
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		if !header {
			if !slices.Equal(f, publishedHeader) {
				return nil, fmt.Errorf("published.tsv:%d: header %q, want %q", line, f, publishedHeader)
			}
			header = true
			continue
		}
		if len(f) != len(publishedHeader) {
			return nil, fmt.Errorf("published.tsv:%d: %d fields, want %d (%s)", line, len(f), len(publishedHeader), strings.Join(publishedHeader, ", "))
		}
		protocol, source, dataset, algo := f[0], f[1], f[2], f[3]
		if protocol == "" || source == "" || dataset == "" || algo == "" {
			return nil, fmt.Errorf("published.tsv:%d: empty protocol, source, dataset or algo", line)
		}
		var scale float64
		switch f[6] {
		case "1":
			scale = 1
		case "100":
			scale = 100
		default:
			return nil, fmt.Errorf("published.tsv:%d: scale %q, want 1 or 100", line, f[6])
		}
		mean, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			return nil, fmt.Errorf("published.tsv:%d: mean: %w", line, err)
		}
		std, err := strconv.ParseFloat(f[5], 64)
		if err != nil {
			return nil, fmt.Errorf("published.tsv:%d: std: %w", line, err)
		}
		if out[protocol] == nil {
			out[protocol] = map[string]map[string]PaperCell{}
		}
		if out[protocol][dataset] == nil {
			out[protocol][dataset] = map[string]PaperCell{}
		}
		if _, dup := out[protocol][dataset][algo]; dup {
			return nil, fmt.Errorf("published.tsv:%d: %s %s %s given twice", line, protocol, dataset, algo)
		}
		out[protocol][dataset][algo] = PaperCell{Mean: mean / scale, Std: std / scale, Source: source}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("published.tsv: %w", err)
	}
	if !header {
		return nil, fmt.Errorf("published.tsv: no header line")
	}
	return out, nil
}

// Published returns the paper's number for algo on dataset under protocol. It panics
// if the embedded published.tsv does not parse (a broken build; a test checks it).
func Published(protocol, dataset, algo string) (PaperCell, bool) {
	table, err := publishedTable()
	if err != nil {
		panic("experiment: " + err.Error())
	}
	c, ok := table[protocol][dataset][algo]
	return c, ok
}
