package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverwrittenInput checks the rule for outputs that name inputs with globs of
// shards (issue 43: aucopt-beam --model part-00.svm with --data 'part-*.svm' replaced
// a shard, as did a --model link to one), beside files and links.
func TestOverwrittenInput(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "train")
	if err := os.Mkdir(shards, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"part-00.svm", "part-01.svm"} {
		if err := os.WriteFile(filepath.Join(shards, n), []byte("+1 1:1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(shards, "part-01.svm"), filepath.Join(dir, "lnk.json")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	glob := filepath.Join(shards, "part-*.svm")
	tests := []struct {
		name      string
		out       string
		inputs    []string
		wantInput string
		wantFile  string
	}{
		{"a shard of the glob", filepath.Join(shards, "part-00.svm"), []string{glob}, glob, filepath.Join(shards, "part-00.svm")},
		{"a link to a shard", filepath.Join(dir, "lnk.json"), []string{glob}, glob, filepath.Join(shards, "part-01.svm")},
		{"a shard by another path", filepath.Join(dir, "train", ".", "part-01.svm"), []string{"", glob}, glob, filepath.Join(shards, "part-01.svm")},
		{"a new file beside the shards", filepath.Join(shards, "m.json"), []string{glob}, "", ""},
		{"a glob matching nothing", filepath.Join(shards, "part-00.svm"), []string{filepath.Join(dir, "nomatch", "*.svm")}, "", ""},
		{"a remote glob", filepath.Join(shards, "part-00.svm"), []string{"gs://bucket/part-*.svm"}, "", ""},
		{"a device", os.DevNull, []string{os.DevNull}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, file := OverwrittenInput(tt.out, tt.inputs...)
			if in != tt.wantInput || file != tt.wantFile {
				t.Errorf("OverwrittenInput(%s, %q) = %q, %q; want %q, %q", tt.out, tt.inputs, in, file, tt.wantInput, tt.wantFile)
			}
		})
	}
}

// TestCheckOutput checks the refusals of an output path before any work.
func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string // want: in the error, "" for none
	}{
		{"a new file", filepath.Join(dir, "m.json"), ""},
		{"no output", "", ""},
		{"a name of 255 bytes", filepath.Join(dir, strings.Repeat("n", MaxNameBytes)), ""},
		{"a name over NAME_MAX", filepath.Join(dir, strings.Repeat("n", 300)+".json"), "305 bytes"},
		{"a missing directory", filepath.Join(dir, "nodir", "m.json"), "does not exist"},
		{"a directory", filepath.Join(dir, "sub"), "is a directory"},
	}
	for _, tt := range tests {
		err := CheckOutput(tt.path)
		if (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: CheckOutput = %v, want %q", tt.name, err, tt.want)
		}
	}
}
