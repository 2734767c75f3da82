package data

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestFormatDecisionsInData: engine, cmd and dist make no format decisions of their
// own: outside engine/data, no Go file other than a test holds a registered format's
// extension as a file-name literal (".csv", "x.svm.gz": a string without spaces ending
// in one, what `case ".csv":` or strings.HasSuffix(name, ".gz") would test) or its
// magic bytes (in a string, or as a byte slice's first elements). They ask DetectFile,
// IsTableFile, OutputOf and the readers instead, so that a new format is its file, its
// test and its registration.
func TestFormatDecisionsInData(t *testing.T) {
	var exts []string
	var magics [][]byte
	for _, f := range Formats() {
		exts = append(exts, f.Extensions...)
		if len(f.Magic) >= 2 {
			magics = append(magics, f.Magic)
		}
	}
	if len(exts) == 0 || len(magics) == 0 {
		t.Fatal("no formats registered")
	}
	// allowed are literals that name a file the program writes, not a format test.
	allowed := map[string]bool{
		"explain.tsv": true, // cmd/aucopt experiment: the name of the report's table beside it
		// dist/beam: the names of a pipeline's intermediate text outputs
		"/counts.txt": true, "/shards.txt": true, "/grid.txt": true, "/moments.txt": true,
	}
	found := 0
	for _, root := range []string{"..", "../../cmd", "../../dist"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if filepath.Base(path) == "testdata" || filepath.Clean(path) == filepath.Clean("../data") {
					return filepath.SkipDir // test inputs; this package, which decides
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			found++
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if n.Kind != token.STRING {
						return true
					}
					v, err := strconv.Unquote(n.Value)
					if err != nil || allowed[v] {
						return true
					}
					if e := fileNameExt(v, exts); e != "" {
						t.Errorf("%s: %q tests a data file's extension (%s): ask engine/data", fset.Position(n.Pos()), v, e)
					}
					for _, m := range magics {
						if bytes.Contains([]byte(v), m) {
							t.Errorf("%s: %q holds the magic bytes %q: ask engine/data", fset.Position(n.Pos()), v, m)
						}
					}
				case *ast.CompositeLit:
					b := literalBytes(n)
					for _, m := range magics {
						if len(b) >= 2 && bytes.HasPrefix(m, b[:min(len(b), len(m))]) {
							t.Errorf("%s: the bytes %q start the magic bytes %q: ask engine/data", fset.Position(n.Pos()), b, m)
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
	}
	if found < 20 {
		t.Fatalf("only %d Go files checked: the walk missed the tree", found)
	}
}

// fileNameExt returns the registered extension a string that looks like a file name
// (no spaces) ends in, case-insensitively; "" when none.
func fileNameExt(s string, exts []string) string {
	if strings.IndexFunc(s, unicode.IsSpace) >= 0 {
		return ""
	}
	l := strings.ToLower(s)
	for _, e := range exts {
		if strings.HasSuffix(l, e) {
			return e
		}
	}
	return ""
}

// literalBytes returns the leading elements of a composite literal that are byte
// constants (integer or character literals below 256).
func literalBytes(c *ast.CompositeLit) []byte {
	var b []byte
	for _, e := range c.Elts {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT && lit.Kind != token.CHAR {
			break
		}
		var v uint64
		var err error
		if lit.Kind == token.CHAR {
			var r string
			if r, err = strconv.Unquote(lit.Value); err != nil || len(r) != 1 {
				break
			}
			v = uint64(r[0])
		} else if v, err = strconv.ParseUint(lit.Value, 0, 64); err != nil || v > 255 {
			break
		}
		b = append(b, byte(v))
	}
	return b
}

// TestFormatDecisionsCatches: the check above finds what it looks for.
func TestFormatDecisionsCatches(t *testing.T) {
	exts := []string{".csv", ".gz"}
	for _, c := range []struct {
		s    string
		want string
	}{
		{".csv", ".csv"},
		{"X.CSV.GZ", ".gz"},
		{"name a .csv file", ""},
		{".json", ""},
	} {
		if got := fileNameExt(c.s, exts); got != c.want {
			t.Errorf("fileNameExt(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	expr, err := parser.ParseExpr(`[]byte{0x1f, 0x8b, 'a', x}`)
	if err != nil {
		t.Fatal(err)
	}
	if b := literalBytes(expr.(*ast.CompositeLit)); !bytes.Equal(b, []byte{0x1f, 0x8b, 'a'}) {
		t.Errorf("literalBytes = %q", b)
	}
}
