// Package cudatest is for tests that need the CUDA backend: where it is unavailable
// they skip, saying why, unless $AUCOPT_REQUIRE_CUDA is 1, when they fail instead —
// so that on a GPU machine a missing library or driver cannot pass for a green run.
// Any package's CUDA-dependent tests use it (it imports nothing of aucopt's).
package cudatest

import (
	"fmt"
	"os"
	"testing"
)

// EnvRequire is the environment variable that turns a skip for want of CUDA into a
// failure: 1 to require CUDA; unset, empty or 0 not to.
const EnvRequire = "AUCOPT_REQUIRE_CUDA"

// Required reports whether $AUCOPT_REQUIRE_CUDA asks for CUDA; a value other than
// "", "0" or "1" is an error, since it cannot be told what it means.
func Required() (bool, error) {
	switch v := os.Getenv(EnvRequire); v {
	case "", "0":
		return false, nil
	case "1":
		return true, nil
	default:
		return false, fmt.Errorf("$%s=%q: want 1 (require CUDA) or 0", EnvRequire, v)
	}
}

// Unavailable ends t for want of the CUDA backend: it skips, giving reason, or fails
// naming reason when $AUCOPT_REQUIRE_CUDA=1 (or is set to something unreadable).
func Unavailable(t testing.TB, reason string) {
	t.Helper()
	req, err := Required()
	switch {
	case err != nil:
		t.Fatalf("%v (the CUDA backend is unavailable: %s)", err, reason)
	case req:
		t.Fatalf("%s=1, but the CUDA backend is unavailable: %s", EnvRequire, reason)
	}
	t.Skipf("the CUDA backend is unavailable (set %s=1 to fail instead): %s", EnvRequire, reason)
}
