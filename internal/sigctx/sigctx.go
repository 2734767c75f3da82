// Package sigctx gives the commands (aucopt, aucopt-beam) one context that the first
// SIGINT (Ctrl-C) or SIGTERM cancels, and the exit status and message a command stopped
// by it reports.
package sigctx

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Error is the cause (context.Cause) of a context a signal cancelled.
type Error struct{ Signal os.Signal }

func (e Error) Error() string { return e.Signal.String() }

// Unwrap makes an Error a context.Canceled.
func (e Error) Unwrap() error { return context.Canceled }

// Status is the exit status of a command stopped by the signal: 128 + its number, as
// shells report a process the signal killed (130 for SIGINT, 143 for SIGTERM).
func (e Error) Status() int {
	if s, ok := e.Signal.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// Verb says what the signal did, for the one-line message.
func (e Error) Verb() string {
	if e.Signal == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

// Context returns a context that the first SIGINT or SIGTERM cancels, its cause an
// Error naming the signal. After the first signal the default action is restored, so
// a second one kills the process at once. stop releases the signals.
func Context(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(Error{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
