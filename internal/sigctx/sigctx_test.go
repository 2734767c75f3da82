package sigctx

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
			e := Error{tt.sig}
			if e.Status() != tt.status || e.Verb() != tt.verb || !errors.Is(e, context.Canceled) {
				t.Errorf("Error{%v}: status %d, verb %q, is Canceled %v; want %d, %q, true",
					tt.sig, e.Status(), e.Verb(), errors.Is(e, context.Canceled), tt.status, tt.verb)
			}
		})
	}
}

// TestSignalContext sends the process a real SIGTERM and checks that the context is
// cancelled with the signal as its cause, and that stop releases it.
func TestSignalContext(t *testing.T) {
	ctx, stop := Context(context.Background())
	defer stop()
	p, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Signal(syscall.SIGTERM); err != nil {
		t.Skipf("cannot signal itself: %v", err)
	}
	<-ctx.Done()
	var se Error
	if !errors.As(context.Cause(ctx), &se) || se.Status() != 143 {
		t.Errorf("cause %v, want the SIGTERM Error", context.Cause(ctx))
	}
}
