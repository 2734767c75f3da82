//go:build unix

package data

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadLimitedFIFO: a FIFO without a writer blocks in open(2); a cancelled context
// ends the wait at once. With a writer, it is read like a file; RegularOnly refuses it
// without opening it.
func TestReadLimitedFIFO(t *testing.T) {
	dir := t.TempDir()
	p, q := filepath.Join(dir, "fifo"), filepath.Join(dir, "fifo2")
	for _, f := range []string{p, q} {
		if err := syscall.Mkfifo(f, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ReadLimited(context.Background(), p, ReadOptions{Max: 10, RegularOnly: true}); !errors.Is(err, ErrNotRegular) {
		t.Errorf("regular only: error %v, want ErrNotRegular", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := ReadLimited(ctx, p, ReadOptions{Max: 10})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("no writer, cancelled: error %v after %v, want context.Canceled at once", err, time.Since(start))
	}
	// The abandoned reader still waits in open: a writer releases it.
	if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		w.Close()
	}
	go func() {
		w, err := os.OpenFile(q, os.O_WRONLY, 0)
		if err == nil {
			w.Write([]byte("hello"))
			w.Close()
		}
	}()
	b, err := ReadLimited(context.Background(), q, ReadOptions{Max: 10})
	if err != nil || string(b) != "hello" {
		t.Errorf("with a writer: %q, %v; want \"hello\"", b, err)
	}
}
