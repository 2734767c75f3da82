package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/internal/cliflag"
)

// TestFlagOf: every setting the library's errors name (fault.Settingf's "{Name}" in
// the engine's sources) is rendered (cliflag.Of) as a flag that a command of aucopt
// has, so that a user reads which flag to change.
func TestFlagOf(t *testing.T) {
	var help bytes.Buffer
	for _, c := range commandNames() {
		run([]string{c, "--help"}, &help, &help)
	}
	for _, kind := range []string{"roc", "convergence", "figure"} {
		run([]string{"plot", kind, "--help"}, &help, &help)
	}
	settings := librarySettings(t)
	if len(settings) < 10 {
		t.Fatalf("found %d settings named in the engine's errors, want the dozens there are: %v", len(settings), settings)
	}
	for _, s := range settings {
		f := cliflag.Of(s)
		if !regexp.MustCompile(`(?m)^\s+(-\w, )?` + regexp.QuoteMeta(f) + `\b`).Match(help.Bytes()) {
			t.Errorf("setting %s: no command has the flag %s", s, f)
		}
	}
}

// TestMessage: the command prints an error in one line, its settings named by flags.
func TestMessage(t *testing.T) {
	err := fmt.Errorf("train x.svm: %w", fault.Settingf("{OutOfCore} reads the file in its order; {Shuffle} does not apply\n(the moments)"))
	if got, want := message(err), "train x.svm: --out-of-core reads the file in its order; --shuffle does not apply; (the moments)"; got != want {
		t.Errorf("message = %q, want %q", got, want)
	}
}

// librarySettings returns the settings named between braces in the string constants
// of the engine's non-test Go files.
func librarySettings(t *testing.T) []string {
	t.Helper()
	name := regexp.MustCompile(`\{([A-Z][A-Za-z0-9]*)\}`)
	seen := map[string]bool{}
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir("../../engine", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				for _, m := range name.FindAllStringSubmatch(s, -1) {
					if !seen[m[1]] {
						seen[m[1]] = true
						out = append(out, m[1])
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
