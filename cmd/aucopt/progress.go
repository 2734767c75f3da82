package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/aucopt/aucopt/engine/solver"
	"golang.org/x/term"
)

// plainEvery is the number of examples between two plain progress lines.
const plainEvery = 100_000

// progress shows a training run's progress on w (stderr): a bar counting examples when
// w is a terminal (a spinner for a batch fit, which reports no progress of its own),
// plain lines every plainEvery examples and at the end of each pass otherwise (logs,
// pipes, tests), nothing when quiet. Its methods are safe to call from the training
// goroutine.
type progress struct {
	w      io.Writer
	quiet  bool
	tty    bool
	algo   string
	mu     sync.Mutex
	bar    *bar
	passes int
	pass   int
}

// newProgress returns the progress display of a run of algo on w.
func newProgress(w io.Writer, quiet bool, algo string) *progress {
	return &progress{w: w, quiet: quiet, tty: isTerminal(w), algo: algo}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// started sizes the display: rows training rows, passes passes (0: a batch fit).
func (p *progress) started(rows, passes int) {
	if p.quiet || !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.passes = passes
	now := time.Now()
	if passes == 0 {
		p.bar = newBar(p.w, fmt.Sprintf("%s: fitting on %d rows", p.algo, rows), 0, now)
		p.bar.render(now)
		go spin(&p.mu, &p.bar, p.bar)
		return
	}
	p.bar = newBar(p.w, p.describe(0), int64(rows)*int64(passes), now)
}

func (p *progress) describe(pass int) string {
	if p.passes <= 1 {
		return p.algo
	}
	return fmt.Sprintf("%s pass %d/%d", p.algo, pass+1, p.passes)
}

// update is the solver.RunOptions Progress callback.
func (p *progress) update(pr solver.Progress) {
	if p.quiet {
		return
	}
	if !p.tty {
		if pr.Done {
			fmt.Fprintf(p.w, "pass %d done: %d examples in %.2fs\n", pr.Pass+1, pr.PassSeen, pr.Elapsed.Seconds())
		} else if pr.Seen%plainEvery == 0 {
			fmt.Fprintf(p.w, "pass %d: %d examples, %.2fs\n", pr.Pass+1, pr.PassSeen, pr.Elapsed.Seconds())
		}
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		return
	}
	if pr.Pass != p.pass {
		p.pass = pr.Pass
		p.bar.desc = p.describe(pr.Pass)
	}
	p.bar.set(pr.Seen, time.Now())
}

// finish clears the bar (the summary follows on stdout), after success or failure.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.clear()
		p.bar = nil
	}
}
