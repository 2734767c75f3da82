package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestBar: a counting bar redraws in place at most every barEvery and when complete,
// with its share, count, rate and times; a spinner shows its frame and elapsed time;
// clear erases the line.
func TestBar(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	var buf bytes.Buffer
	b := newBar(&buf, "spam pass 1/2", 1000, t0)
	b.set(0, t0)
	b.set(250, t0.Add(50*time.Millisecond)) // within barEvery: not drawn
	b.set(500, t0.Add(2*time.Second))
	b.set(2000, t0.Add(2*time.Second+time.Millisecond)) // complete: drawn, capped at the total
	b.clear()
	got := strings.Split(buf.String(), "\r")
	want := []string{"",
		"spam pass 1/2   0% |                              | (0/1000, 0 examples/s) [0.0s:?]\x1b[K",
		"spam pass 1/2  50% |███████████████               | (500/1000, 250 examples/s) [2.0s:2.0s]\x1b[K",
		"spam pass 1/2 100% |██████████████████████████████| (1000/1000, 500 examples/s) [2.0s:0.0s]\x1b[K",
		"\x1b[K"}
	if len(got) != len(want) {
		t.Fatalf("%d redraws, want %d: %q", len(got)-1, len(want)-1, buf.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("redraw %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}

	buf.Reset()
	s := newBar(&buf, "ls-auc: fitting on 10 rows", 0, t0)
	s.render(t0)
	s.frame++
	s.set(5, t0.Add(time.Second)) // a spinner counts nothing
	s.render(t0.Add(90 * time.Second))
	if want := "\rls-auc: fitting on 10 rows ⠋ [0.0s]\x1b[K\rls-auc: fitting on 10 rows ⠙ [1m30s]\x1b[K"; buf.String() != want {
		t.Errorf("spinner:\n got %q\nwant %q", buf.String(), want)
	}
	select {
	case <-s.stop:
		t.Error("stopped before clear")
	default:
	}
	s.clear()
	<-s.stop
}
