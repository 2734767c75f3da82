package cuda

import (
	"errors"
	"testing"
)

func TestNewUnavailable(t *testing.T) {
	b, err := New()
	if err == nil {
		t.Fatalf("New() = %v, nil; want an error until the CUDA backend is built", b)
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("New() error %q does not wrap ErrUnavailable", err)
	}
	if got, want := err.Error(), "cuda: unavailable: not built yet"; got != want {
		t.Errorf("New() error = %q, want %q", got, want)
	}
}
