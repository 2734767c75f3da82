package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// barEvery is the least time between two redraws of a bar, and a spinner's frame time.
const barEvery = 100 * time.Millisecond

// barWidth is the number of cells of a bar.
const barWidth = 30

// spinnerFrames are a spinner's frames, one a redraw.
var spinnerFrames = []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

// bar is the progress display on a terminal: one line, redrawn in place (a carriage
// return, then erase to the end of the line) at most every barEvery. With a total it
// counts examples (share done, rate, elapsed and estimated remaining time); without,
// it is a spinner with the elapsed time, which its owner redraws on a clock. Its
// methods are called under its owner's lock.
type bar struct {
	w     io.Writer
	desc  string
	total int64 // 0: a spinner
	seen  int64
	start time.Time
	last  time.Time // the last redraw; zero before the first
	frame int
	stop  chan struct{} // closed by clear
	unit  string        // what is counted, "examples" when empty
}

// newBar returns a bar on w counting to total (0: a spinner), started at start.
func newBar(w io.Writer, desc string, total int64, start time.Time) *bar {
	return &bar{w: w, desc: desc, total: total, start: start, stop: make(chan struct{})}
}

// set records seen examples at now and redraws when barEvery has passed since the last
// redraw or the count is complete. A spinner counts nothing.
func (b *bar) set(seen int64, now time.Time) {
	if b.total <= 0 {
		return
	}
	b.seen = min(seen, b.total)
	if b.last.IsZero() || now.Sub(b.last) >= barEvery || b.seen == b.total {
		b.render(now)
	}
}

// render redraws the line as at now.
func (b *bar) render(now time.Time) {
	b.last = now
	fmt.Fprintf(b.w, "\r%s\x1b[K", b.line(now))
}

// line is the bar's text at now.
func (b *bar) line(now time.Time) string {
	el := now.Sub(b.start)
	if b.total <= 0 {
		return fmt.Sprintf("%s %c [%s]", b.desc, spinnerFrames[b.frame%len(spinnerFrames)], span(el))
	}
	f := float64(b.seen) / float64(b.total)
	full := int(f * barWidth)
	left := "?"
	rate := 0.0
	if b.seen > 0 && el > 0 {
		left = span(time.Duration(float64(el) * (1/f - 1)))
		rate = float64(b.seen) / el.Seconds()
	}
	unit := b.unit
	if unit == "" {
		unit = "examples"
	}
	return fmt.Sprintf("%s %3d%% |%s%s| (%d/%d, %.0f %s/s) [%s:%s]", b.desc, int(100*f),
		strings.Repeat("█", full), strings.Repeat(" ", barWidth-full), b.seen, b.total, rate, unit, span(el), left)
}

// clear erases the line (the summary follows on stdout) and stops a spinner's clock.
func (b *bar) clear() {
	close(b.stop)
	fmt.Fprint(b.w, "\r\x1b[K")
}

// spin redraws b, a spinner, every barEvery until it is cleared, holding its owner's
// lock mu, as long as the owner's current bar *cur is still b.
func spin(mu *sync.Mutex, cur **bar, b *bar) {
	t := time.NewTicker(barEvery)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case now := <-t.C:
			mu.Lock()
			if *cur == b {
				b.frame++
				b.render(now)
			}
			mu.Unlock()
		}
	}
}

// span is d for a bar: tenths of a second below a minute, whole seconds above.
func span(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}
