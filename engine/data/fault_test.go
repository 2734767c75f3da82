//go:build linux

package data

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardFault: a mapped file truncated under its reader gives an error wrapping
// ErrChanged that names the file, not a crash; a panic that is not a fault goes on.
func TestGuardFault(t *testing.T) {
	p := filepath.Join(t.TempDir(), "shrinks.svm")
	size := 3 * os.Getpagesize()
	if err := os.WriteFile(p, []byte(strings.Repeat("+1 1:1\n", size/7+1)[:size]), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, b := mapWindow(f, 0, int64(size))
	if m == nil {
		t.Skip("the file cannot be mapped here")
	}
	defer unmapFile(m)
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	var last byte
	err = guardFault(p, func() { last = b[size-1] })
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), p) {
		t.Fatalf("reading a truncated mapping: error %v (byte %d), want ErrChanged naming the file", err, last)
	}
	defer func() {
		if r := recover(); r != "not a fault" {
			t.Errorf("recovered %v, want the panic to go on", r)
		}
	}()
	_ = guardFault(p, func() { panic("not a fault") })
}

// TestReadFileContextShrinks: a text file that shrinks between the scan and the parse
// (simulated by a chunk past the new end) is refused with ErrChanged, not a crash.
func TestReadFileContextShrinks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.svm")
	text := strings.Repeat("+1 1:0.5 2:1\n-1 3:2\n", 2000)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ld := &loader{f: f, file: f, path: p, workers: 2, io: ioWindow}
	if err := ld.split(int64(len(text)), 4096); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 100); err != nil {
		t.Fatal(err)
	}
	err = ld.each(context.Background(), func(_ int, c *chunk, buf []byte) { c.st.scan(buf) })
	if !errors.Is(err, ErrChanged) {
		t.Fatalf("scanning a shrunk file through mappings: %v, want ErrChanged", err)
	}
}
