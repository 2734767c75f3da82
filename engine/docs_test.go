package engine

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// docFiles are the design docs that the code cites, relative to the module root.
var docFiles = []string{"docs/ALGORITHMS.md", "docs/DESIGN.md"}

var (
	// citationRE matches a citation of a design doc: the path as written, ending in the
	// file's name.
	citationRE = regexp.MustCompile(`[\w./-]*\b(?:ALGORITHMS|DESIGN)\.md`)
	// sectionsRE matches the sections named right after a citation: `, "Name"`,
	// ` "Name" and "Other"`, `, "Name", "Other"`.
	sectionsRE = regexp.MustCompile(`^,?[ \t]*"[^"\n]+"(?:[ \t]*(?:,|and|or)[ \t]*"[^"\n]+")*`)
	quotedRE   = regexp.MustCompile(`"([^"\n]+)"`)
	// commentBreakRE is a line break inside a Go comment, with the next line's "//".
	commentBreakRE = regexp.MustCompile(`\n[ \t]*//[ \t]?`)
	headingRE      = regexp.MustCompile(`^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$`)
)

// docHeadings returns the headings of a Markdown text, outside fenced code blocks.
func docHeadings(text string) map[string]bool {
	h := map[string]bool{}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if m := headingRE.FindStringSubmatch(line); m != nil && !fenced {
			h[m[1]] = true
		}
	}
	return h
}

// citationErrors checks the citations of the design docs in the file name (slash
// separated, relative to the module root) holding text: each must name a file of
// docFiles by its path from the module root (or, in a Markdown file, by a link relative
// to the file), and each section named after it in quotes must be a heading of that file
// (headings: the file's headings by file). It returns one message per bad citation and
// the number of citations found.
func citationErrors(name, text string, headings map[string]map[string]bool) (errs []string, found int) {
	md := strings.HasSuffix(name, ".md")
	for _, loc := range citationRE.FindAllStringIndex(text, -1) {
		found++
		cited := text[loc[0]:loc[1]]
		line := 1 + strings.Count(text[:loc[0]], "\n")
		where := name + ":" + strconv.Itoa(line)
		doc := ""
		for _, d := range docFiles {
			if path.Clean(cited) == d || md && path.Join(path.Dir(name), cited) == d {
				doc = d
			}
		}
		if doc == "" {
			errs = append(errs, where+": "+cited+" is not a path to "+strings.Join(docFiles, " or ")+" from the module root")
			continue
		}
		rest := text[loc[1]:min(len(text), loc[1]+400)]
		if md {
			rest = strings.ReplaceAll(rest, "\n", " ")
		} else {
			rest = strings.ReplaceAll(commentBreakRE.ReplaceAllString(rest, " "), `\"`, `"`)
		}
		for _, q := range quotedRE.FindAllStringSubmatch(sectionsRE.FindString(rest), -1) {
			if !headings[doc][q[1]] {
				errs = append(errs, where+": "+doc+` has no heading "`+q[1]+`"`)
			}
		}
	}
	return errs, found
}

// TestCitationErrors checks the citation checker on citations that must pass and ones
// that must fail.
func TestCitationErrors(t *testing.T) {
	headings := map[string]map[string]bool{
		"docs/ALGORITHMS.md": {"OPAUC": true, "OPAUCr": true, "Univariate and other baselines": true},
		"docs/DESIGN.md":     {"Why not gorgonia.org/cu": true},
	}
	tests := []struct {
		name, file, text string
		errs, found      int
	}{
		{"section", "a/x.go", `// See docs/ALGORITHMS.md, "OPAUC".`, 0, 1},
		{"two sections", "a/x.go", `// See docs/ALGORITHMS.md, "OPAUC" and "OPAUCr".`, 0, 1},
		{"no section", "a/x.go", `// the sizes of docs/DESIGN.md (vectors of 123)`, 0, 1},
		{"section over two comment lines", "a/x.go", "// (docs/ALGORITHMS.md, \"Univariate\n\t// and other baselines\")", 0, 1},
		{"escaped quotes in a Go string", "a/x.go", `"ICML 2013; docs/ALGORITHMS.md, \"OPAUC\""`, 0, 1},
		{"link from a subdirectory", "bench/README.md", `[docs/ALGORITHMS.md](../docs/ALGORITHMS.md)`, 0, 2},
		{"bare link text in a subdirectory", "bench/README.md", `[ALGORITHMS.md](../docs/ALGORITHMS.md)`, 1, 2},
		{"markdown link beside", "docs/DESIGN.md", `[ALGORITHMS.md](ALGORITHMS.md), "OPAUC"`, 0, 2},
		{"root path in markdown", "bench/README.md", `see docs/DESIGN.md, "Why not gorgonia.org/cu"`, 0, 1},
		{"bare name in Go", "a/x.go", `// See ALGORITHMS.md, "OPAUC".`, 1, 1},
		{"outside the tree", "a/x.go", `// See ../shared/ALGORITHMS.md.`, 1, 1},
		{"relative in Go", "engine/x.go", `// See ../docs/ALGORITHMS.md.`, 1, 1},
		{"missing heading", "a/x.go", `// See docs/ALGORITHMS.md, "OAM".`, 1, 1},
		{"second heading missing", "a/x.go", `// docs/ALGORITHMS.md, "OPAUC" and "OPAUCx"`, 1, 1},
		{"heading of the other file", "a/x.go", `// docs/DESIGN.md, "OPAUC"`, 1, 1},
		{"no citation", "a/x.go", `// the oracle`, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs, found := citationErrors(tt.file, tt.text, headings)
			if len(errs) != tt.errs || found != tt.found {
				t.Errorf("%d errors %q, %d citations; want %d errors, %d citations", len(errs), errs, found, tt.errs, tt.found)
			}
		})
	}
}

// TestDocHeadings checks that headings in fenced code blocks are not taken.
func TestDocHeadings(t *testing.T) {
	h := docHeadings("# Title\n\n```sh\n# not a heading\n```\n## OPAUC\n### OPAUCr ###\n")
	if len(h) != 3 || !h["Title"] || !h["OPAUC"] || !h["OPAUCr"] {
		t.Errorf("headings %v, want Title, OPAUC and OPAUCr", h)
	}
}

// TestDocCitations checks every citation of the design docs in the tree's Go and
// Markdown files: the docs are in the repository (docs/), every citation names them
// there, and every section it names in quotes is one of their headings.
func TestDocCitations(t *testing.T) {
	root := ".."
	headings := map[string]map[string]bool{}
	for _, d := range docFiles {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d)))
		if err != nil {
			t.Fatal(err)
		}
		headings[d] = docHeadings(string(b))
	}
	total := 0
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != root && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".go" && ext != ".md" {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "engine/docs_test.go" { // this file's examples
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		errs, found := citationErrors(rel, string(b), headings)
		for _, e := range errs {
			t.Error(e)
		}
		total += found
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total == 0 {
		t.Fatal("no citation of the design docs found: the walk is broken")
	}
}
