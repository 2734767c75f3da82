package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// TestRun writes small files and reads them back, and checks the argument errors.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name   string
		args   []string
		status int
		errMsg string
	}{
		{"ok", []string{"--rows", "50", "--dim", "7", "--seed", "3", "--out", filepath.Join(dir, "a.cache")}, 0, ""},
		{"same again", []string{"--rows", "50", "--dim", "7", "--seed", "3", "--out", filepath.Join(dir, "b.cache")}, 0, ""},
		{"no out", []string{"--rows", "50"}, 2, "--out is required"},
		{"one row", []string{"--rows", "1", "--out", filepath.Join(dir, "c.cache")}, 2, "at least 2 rows"},
		{"negative first", []string{"--first", "-1", "--out", filepath.Join(dir, "c.cache")}, 2, "want a row index"},
		{"test rows", []string{"--first", "50", "--rows", "20", "--dim", "7", "--seed", "3", "--out", filepath.Join(dir, "t.cache")}, 0, ""},
		{"bad pos", []string{"--pos", "1", "--out", filepath.Join(dir, "c.cache")}, 2, "want a share in (0, 1)"},
		{"stray arg", []string{"--out", filepath.Join(dir, "c.cache"), "x"}, 2, `unexpected argument "x"`},
		{"unwritable", []string{"--rows", "5", "--dim", "2", "--out", filepath.Join(dir, "no", "such", "dir", "x.cache")}, 1, "synth: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var errOut bytes.Buffer
			if got := run(tt.args, &errOut); got != tt.status || !strings.Contains(errOut.String(), tt.errMsg) {
				t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, got, errOut.String(), tt.status, tt.errMsg)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "c.cache")); err == nil {
		t.Error("a refused run wrote its output")
	}
	a, err := data.ReadFile(filepath.Join(dir, "a.cache"), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Rows() != 50 || a.Dim != 7 || !a.IsDense() {
		t.Fatalf("read back %d×%d dense=%v, want 50×7 dense", a.Rows(), a.Dim, a.IsDense())
	}
	pos := 0
	for _, y := range a.Y {
		if y == 1 {
			pos++
		}
	}
	if pos == 0 || pos == 50 {
		t.Errorf("%d positives of 50: want both classes", pos)
	}
	// Rows from --first on are the rows after the first file's.
	te, err := data.ReadFile(filepath.Join(dir, "t.cache"), data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := epsilonLike(0, 70, 7, 0.3, 3)
	if te.Rows() != 20 || !slices.Equal(te.Dense, all.Dense[50*7:]) || !slices.Equal(a.Dense, all.Dense[:50*7]) {
		t.Error("--first 50 did not give rows 50… of the same stream")
	}
	x, _ := os.ReadFile(filepath.Join(dir, "a.cache"))
	y, _ := os.ReadFile(filepath.Join(dir, "b.cache"))
	if !bytes.Equal(x, y) {
		t.Error("the same arguments gave different files")
	}
}
