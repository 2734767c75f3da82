package data

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
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
