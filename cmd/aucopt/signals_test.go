package main

import (
	"context"
	"errors"
	"os"
	"syscall"
	"testing"
)

func TestSignalError(t *testing.T) {
	tests := []struct {
		sig    os.Signal
		status int
		verb   string
	}{
		{os.Interrupt, 130, "interrupted"},
		{syscall.SIGTERM, 143, "terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.sig.String(), func(t *testing.T) {
			e := signalError{tt.sig}
			if e.status() != tt.status || e.verb() != tt.verb || !errors.Is(e, context.Canceled) {
				t.Errorf("signalError{%v}: status %d, verb %q, is Canceled %v; want %d, %q, true",
					tt.sig, e.status(), e.verb(), errors.Is(e, context.Canceled), tt.status, tt.verb)
			}
		})
	}
}

// TestSignalContext sends the process a real SIGTERM and checks that the context is
// cancelled with the signal as its cause, and that stop releases it.
func TestSignalContext(t *testing.T) {
	ctx, stop := signalContext(context.Background())
	defer stop()
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Skipf("cannot signal itself: %v", err)
	}
	<-ctx.Done()
	var se signalError
	if !errors.As(context.Cause(ctx), &se) || se.status() != 143 {
		t.Errorf("cause %v, want the SIGTERM signalError", context.Cause(ctx))
	}
}
