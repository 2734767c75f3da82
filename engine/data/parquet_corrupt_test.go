package data

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorruptParquet checks that a Parquet file that is empty, truncated, not Parquet
// at all, or whose footer is damaged is reported as such, naming the file, whether read
// for training or copied by Convert (issue 43: they were reported as "bad columns",
// and a .parquet file without the magic bytes was read as CSV text).
func TestCorruptParquet(t *testing.T) {
	dir := t.TempDir()
	var good bytes.Buffer
	if err := (&CTR{Rows: 500, Seed: 1, ClickRate: 0.2}).Write(&good, FormatParquet, 100); err != nil {
		t.Fatal(err)
	}
	b := good.Bytes()
	footer := bytes.Clone(b)
	copy(footer[len(footer)-8:], []byte{0xff, 0xff, 0xff, 0x7f}) // the footer's length: past the file's start
	cases := []struct {
		name, content string
		want          error
		says          string
	}{
		{"truncated.parquet", string(b[:len(b)/2]), ErrCorrupt, "footer cannot be read"},
		{"footer.parquet", string(footer), ErrCorrupt, "footer cannot be read"},
		{"text.parquet", strings.Repeat("label,x\n1,2\n", 10), ErrCorrupt, "not a Parquet file"},
		{"empty.parquet", "", ErrEmpty, "empty file"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, opts := range []Options{{}, {Table: &TableOptions{Label: "click"}}} {
			_, _, err := ReadTableFile(p, opts)
			if !errors.Is(err, c.want) || errors.Is(err, ErrColumn) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s (table options %v): %v; want %v saying %q, naming the file", c.name, opts.Table != nil, err, c.want, c.says)
			}
		}
		_, err := Convert(p, filepath.Join(dir, "out.csv"), Options{})
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "writing") {
			t.Errorf("convert %s: %v; want %v saying %q, an error of the input, not of writing the output", c.name, err, c.want, c.says)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.csv")); err == nil {
		t.Error("a failed conversion wrote its output")
	}
}
