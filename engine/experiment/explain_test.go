package experiment

import (
	"strings"
	"testing"
)

func TestParseExplanations(t *testing.T) {
	const tsv = `# comment
protocol	dataset	algo	explanation
@grid	the grid's edge
@split	one split

opauc	a9a	oam-seq	@grid; and @split: more
opauc	a9a	*	any algo on a9a
*	fashion-mnist	*	data version
*	german	solam	any protocol
`
	e, err := ParseExplanations("x.tsv", strings.NewReader(tsv))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ protocol, dataset, algo, want string }{
		{"opauc", "a9a", "oam-seq", "the grid's edge; and one split: more"},
		{"opauc", "a9a", "opauc", "any algo on a9a"},
		{"ubauc", "a9a", "opauc", ""},
		{"mba", "fashion-mnist", "olr", "data version"},
		{"ubauc", "german", "solam", "any protocol"},
		{"ubauc", "german", "opauc", ""},
	} {
		if got := e.Lookup(tc.protocol, tc.dataset, tc.algo); got != tc.want {
			t.Errorf("Lookup(%s, %s, %s) = %q, want %q", tc.protocol, tc.dataset, tc.algo, got, tc.want)
		}
	}
	if got := (*Explanations)(nil).Lookup("opauc", "a9a", "opauc"); got != "" {
		t.Errorf("nil Lookup = %q, want none", got)
	}
}

func TestParseExplanationsErrors(t *testing.T) {
	const head = "# c\nprotocol\tdataset\talgo\texplanation\n"
	for _, tc := range []struct{ name, tsv, want string }{
		{"no header", "# c\n", "x.tsv: no header line"},
		{"header", "protocol\tdataset\n", "x.tsv:1: header"},
		{"fields", head + "opauc\ta9a\topauc\n", "x.tsv:3: 3 fields, want 4"},
		{"empty", head + "opauc\ta9a\t\ttext\n", "x.tsv:3: an empty field"},
		{"dataset *", head + "opauc\t*\topauc\ttext\n", "x.tsv:3: dataset *"},
		{"twice", head + "opauc\ta9a\topauc\tone\nopauc\ta9a\topauc\ttwo\n", "x.tsv:4: opauc a9a opauc given twice"},
		{"bad name", head + "@a-b\ttext\n", "x.tsv:3: want @name"},
		{"nested name", head + "@a\tone\n@b\tsee @a\n", "x.tsv:4: @b uses @a"},
		{"name twice", head + "@a\tone\n@a\ttwo\n", "x.tsv:4: @a defined twice"},
		{"unknown name", head + "@a\tone\nopauc\ta9a\topauc\t@a and @b\n", "x.tsv:4: @b is not defined"},
	} {
		if _, err := ParseExplanations("x.tsv", strings.NewReader(tc.tsv)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestReportExplain checks that Explain sets the cells below the paper, and clears the
// others and, given nil, every cell.
func TestReportExplain(t *testing.T) {
	e, err := ParseExplanations("x.tsv", strings.NewReader("protocol\tdataset\talgo\texplanation\nopauc\td\t*\twhy\n"))
	if err != nil {
		t.Fatal(err)
	}
	below, above := &Cell{Below: true}, &Cell{Explain: "stale"}
	rep := &Report{Protocol: "opauc", Tables: []*Table{{Cells: map[string]map[string]*Cell{"d": {"a": below, "b": above}}}}}
	rep.Explain(e)
	if below.Explain != "why" || above.Explain != "" {
		t.Errorf("Explain: below %q, above %q; want %q and none", below.Explain, above.Explain, "why")
	}
	rep.Explain(nil)
	if below.Explain != "" {
		t.Errorf("Explain(nil): below %q, want none", below.Explain)
	}
}
