package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// cliFlag is a command-line flag's name in a message: "--out-of-core", "--grid".
var cliFlag = regexp.MustCompile(`(^|[^-\w])--[a-z][a-z0-9-]*`)

// TestNoFlagNamesInErrors: the library's errors name its options by their Go names
// (fault.Settingf's "{OutOfCore}") or in words, never by a command's flags, which
// belong to the command line (cmd/aucopt renders the flags, fault.Render). It reads the
// string constants of every error made in the non-test Go files of engine and its
// packages: the arguments of fmt.Errorf, errors.New, fault's constructors, the engine's
// inputErrorf and of the conversions to its error types (memoryError(…)).
func TestNoFlagNamesInErrors(t *testing.T) {
	found := flagNames(t, ".")
	for _, f := range found {
		t.Errorf("%s: a flag name in the library's text: %s", f.pos, f.text)
	}
	// The check finds what it looks for: the command line's own files name flags.
	if len(flagNames(t, "../cmd/aucopt")) == 0 {
		t.Error("no flag names found in cmd/aucopt: the check cannot fail")
	}
}

type flagText struct{ pos, text string }

// flagNames returns the string constants of the non-test Go files under dir that name
// a command-line flag.
func flagNames(t *testing.T, dir string) []flagText {
	t.Helper()
	var out []flagText
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || !makesError(call.Fun) {
				return true
			}
			for _, a := range call.Args {
				ast.Inspect(a, func(n ast.Node) bool {
					lit, ok := n.(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						return true
					}
					s, err := strconv.Unquote(lit.Value)
					if err == nil && cliFlag.MatchString(s) {
						out = append(out, flagText{fset.Position(lit.Pos()).String(), s})
					}
					return true
				})
			}
			return false // the arguments were read
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// makesError reports whether a call of fun makes an error from its arguments.
func makesError(fun ast.Expr) bool {
	var name string
	switch f := fun.(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "errors" && f.Sel.Name == "New" {
			return true
		}
		name = f.Sel.Name
	default:
		return false
	}
	switch name {
	case "Errorf", "errorf", "inputErrorf", "Settingf", "NewInput", "NewRuntime":
		return true
	}
	return strings.HasSuffix(name, "Error") || strings.HasSuffix(name, "Err") // memoryError(…), cellError, colErr
}
