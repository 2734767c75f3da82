package cudatest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestUnavailable runs Unavailable in a child process under each setting of
// $AUCOPT_REQUIRE_CUDA and checks that it skips or fails, naming the reason.
func TestUnavailable(t *testing.T) {
	if os.Getenv("CUDATEST_CHILD") == "1" {
		Unavailable(t, "no GPU in this test")
		t.Fatal("Unavailable returned")
	}
	for _, tt := range []struct {
		env      string
		wantFail bool
		want     string
	}{
		{"", false, "SKIP"},
		{"0", false, "SKIP"},
		{"1", true, "AUCOPT_REQUIRE_CUDA=1, but the CUDA backend is unavailable: no GPU in this test"},
		{"yes", true, `$AUCOPT_REQUIRE_CUDA="yes": want 1 (require CUDA) or 0`},
	} {
		t.Run("env="+tt.env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run", "^TestUnavailable$", "-test.v")
			cmd.Env = append(os.Environ(), "CUDATEST_CHILD=1", EnvRequire+"="+tt.env)
			out, err := cmd.CombinedOutput()
			if failed := err != nil; failed != tt.wantFail {
				t.Errorf("child failed = %v, want %v:\n%s", failed, tt.wantFail, out)
			}
			if !strings.Contains(string(out), tt.want) || !strings.Contains(string(out), "no GPU in this test") {
				t.Errorf("child output lacks %q and the reason:\n%s", tt.want, out)
			}
		})
	}
}
