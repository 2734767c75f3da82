package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// signalError is the cause of a command's context cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return e.sig.String() }

// Unwrap makes a signalError a context.Canceled.
func (e signalError) Unwrap() error { return context.Canceled }

// status is the exit status of a command stopped by the signal: 128 + its number, as
// shells report a process the signal killed (130 for SIGINT, 143 for SIGTERM).
func (e signalError) status() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitInterrupted
}

// verb says what the signal did, for the one-line message.
func (e signalError) verb() string {
	if e.sig == syscall.SIGTERM {
		return "terminated"
	}
	return "interrupted"
}

// signalContext returns a context that the first SIGINT (Ctrl-C) or SIGTERM cancels, its
// cause (context.Cause) a signalError naming the signal. Every command takes it: loading
// data, training and writing files stop at their next check (a training run with a
// checkpoint writes it first), temporary files are removed, and the command exits with
// the signal's status. After the first signal the default action is restored, so a
// second one kills the process at once. stop releases the signals.
func signalContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			cancel(signalError{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}
