package data

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "one"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("content %q", b)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o044 == 0 {
		t.Errorf("mode %v: a new file should be readable like os.Create's", st.Mode().Perm())
	}
	// A failed write leaves the old file and no temporary.
	boom := errors.New("boom")
	if err := WriteAtomic(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("after a failed write: content %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("after a failed write: %d files in the directory", len(ents))
	}
	// A replaced file keeps its mode.
	if runtime.GOOS != "windows" {
		os.Chmod(path, 0o600)
		if err := WriteAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "two"); return err }); err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("replaced file's mode %v, want 0600 kept", st.Mode().Perm())
		}
	}
}

// TestWriteAtomicLongName checks that a file whose name is legal but long (up to
// MaxNameBytes) is written: its temporary file's name, longer than the target's,
// must still fit (a 235-byte model name failed with "file name too long" after
// training, issue 43), and a cut name keeps whole characters and is the same for the
// same target.
func TestWriteAtomicLongName(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		strings.Repeat("m", 200) + ".json",
		strings.Repeat("m", 230) + ".json",
		strings.Repeat("m", MaxNameBytes-5) + ".json",
		strings.Repeat("é", 120) + ".json", // 245 bytes, cut inside a character unless it keeps them whole
	} {
		p := filepath.Join(dir, name)
		if err := WriteAtomic(p, func(w io.Writer) error { _, err := io.WriteString(w, "content"); return err }); err != nil {
			t.Errorf("a %d-byte name: %v", len(name), err)
			continue
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != "content" {
			t.Errorf("a %d-byte name: read back %q, %v", len(name), b, err)
		}
		prefix := tempPrefix(p)
		if n := len(prefix) + tempSuffixBytes; n > MaxNameBytes || !utf8.ValidString(prefix) || prefix != tempPrefix(p) {
			t.Errorf("a %d-byte name: temporary names up to %d bytes (valid UTF-8 %v), want at most %d", len(name), n, utf8.ValidString(prefix), MaxNameBytes)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 4 {
		t.Errorf("%d files in the directory, want the 4 written and no temporary", len(ents))
	}
}
