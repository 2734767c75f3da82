package experiment

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Explanations say why cells of committed tables are more than one published std below
// the paper: the data version, a protocol detail, or a defect (a defect gets fixed, not
// explained). They are data, kept beside the results they explain
// (bench/results/explain.tsv), not library code; ParseExplanations reads them and
// Report.Explain copies them into a report. The zero value explains nothing.
type Explanations struct {
	cells map[string]string // "protocol\tdataset\talgo" → text; * as protocol or algo matches any
}

// explainHeader is the explanations file's column line.
var explainHeader = []string{"protocol", "dataset", "algo", "explanation"}

// explainRef is a use of a named text inside another: @name.
var explainRef = regexp.MustCompile(`@[A-Za-z][A-Za-z0-9]*`)

// ParseExplanations reads an explanations file, a TSV: lines starting with # are
// comments; the first other line is the header "protocol dataset algo explanation";
// "@name<TAB>text" defines a text that any explanation (but no other named text) may
// use as @name; every other line is protocol, dataset, algo and the explanation, where
// * as protocol or algo matches any (a cell named fully comes first). Errors name the
// file and line: a wrong number of fields, an empty field, a cell or name given twice,
// an unknown @name.
func ParseExplanations(name string, r io.Reader) (*Explanations, error) {
	type cell struct {
		line int
		key  string
		text string
	}
	named := map[string]string{}
	var cells []cell
	header := false
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		f := strings.Split(text, "\t")
		switch {
		case !header:
			if !slices.Equal(f, explainHeader) {
				return nil, fmt.Errorf("%s:%d: header %q, want %q", name, line, f, explainHeader)
			}
			header = true
		case strings.HasPrefix(f[0], "@"):
			if len(f) != 2 || explainRef.FindString(f[0]) != f[0] || f[1] == "" {
				return nil, fmt.Errorf("%s:%d: want @name<TAB>text, a name of letters and digits", name, line)
			}
			if ref := explainRef.FindString(f[1]); ref != "" {
				return nil, fmt.Errorf("%s:%d: %s uses %s: a named text cannot use another", name, line, f[0], ref)
			}
			if _, dup := named[f[0]]; dup {
				return nil, fmt.Errorf("%s:%d: %s defined twice", name, line, f[0])
			}
			named[f[0]] = f[1]
		default:
			if len(f) != len(explainHeader) {
				return nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", name, line, len(f), len(explainHeader), strings.Join(explainHeader, ", "))
			}
			if slices.Contains(f, "") {
				return nil, fmt.Errorf("%s:%d: an empty field", name, line)
			}
			if f[1] == "*" {
				return nil, fmt.Errorf("%s:%d: dataset *: name the dataset (* may stand for the protocol or the algo)", name, line)
			}
			cells = append(cells, cell{line, strings.Join(f[:3], "\t"), f[3]})
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !header {
		return nil, fmt.Errorf("%s: no header line", name)
	}
	e := &Explanations{cells: map[string]string{}}
	for _, c := range cells {
		if _, dup := e.cells[c.key]; dup {
			return nil, fmt.Errorf("%s:%d: %s given twice", name, c.line, strings.ReplaceAll(c.key, "\t", " "))
		}
		var unknown string
		e.cells[c.key] = explainRef.ReplaceAllStringFunc(c.text, func(ref string) string {
			t, ok := named[ref]
			if !ok && unknown == "" {
				unknown = ref
			}
			return t
		})
		if unknown != "" {
			return nil, fmt.Errorf("%s:%d: %s is not defined", name, c.line, unknown)
		}
	}
	return e, nil
}

// Lookup returns the explanation of algo on dataset under protocol: the cell's own, else
// one for any algo, any protocol, or both (in that order); "" when there is none.
func (e *Explanations) Lookup(protocol, dataset, algo string) string {
	if e == nil {
		return ""
	}
	for _, k := range [][2]string{{protocol, algo}, {protocol, "*"}, {"*", algo}, {"*", "*"}} {
		if t, ok := e.cells[k[0]+"\t"+dataset+"\t"+k[1]]; ok {
			return t
		}
	}
	return ""
}

// Explain sets every cell's explanation: e's for the cells below the paper, none for the
// others. A nil e clears them all (the Markdown then says "not yet explained").
func (r *Report) Explain(e *Explanations) {
	for _, t := range r.Tables {
		for d, row := range t.Cells {
			for a, c := range row {
				c.Explain = ""
				if c.Below {
					c.Explain = e.Lookup(r.Protocol, d, a)
				}
			}
		}
	}
}
