package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMemoryGuardCommand trains the d×d learners on the file with 2,000,001
// features: each exits 2 at once with one line naming the algorithm, its size and the
// algorithms that fit, instead of dying of a Go out-of-memory crash. With a process
// limit (ulimit -v) instead of --max-memory, the built binary refuses opauc-rp's 16 GB.
func TestMemoryGuardCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	wide := filepath.Join(dir, "f")
	if err := os.WriteFile(wide, []byte("+1 1:1 2000001:1\n-1 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	four := filepath.Join(dir, "four")
	if err := os.WriteFile(four, []byte("+1 1:1 2000001:1\n-1 2:1\n+1 3:1\n-1 4:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--data", wide, "--algo", "opauc", "--max-memory", "8GiB"},
			"opauc needs 64 TB for 2,000,001 features, more than the 8.6 GB of --max-memory; use opaucr, "},
		{[]string{"train", "--data", wide, "--algo", "mba-l1", "--max-memory", "8GiB"}, "mba-l1 needs 128 TB"},
		{[]string{"train", "--data", wide, "--algo", "spdam", "--max-memory", "1MB"}, "spdam needs 224 MB for 2,000,001 features, more than the 1.0 MB of --max-memory; no algorithm fits"},
		{[]string{"train", "--data", wide, "--algo", "opauc", "--grid", "eta=1,2", "--max-memory", "8GiB"}, "opauc needs 64 TB for 2 grid points"},
		{[]string{"cv", "--data", four, "--folds", "2", "--algo", "adaoam", "--max-memory", "8GiB"}, "adaoam needs 128 TB for 2,000,001 features, 2 folds at once"},
		{[]string{"train", "--max-memory", "lots"}, `--max-memory: memory size "lots"`},
	} {
		var out, errOut bytes.Buffer
		status := run(c.args, &out, &errOut)
		msg := errOut.String()
		if status != exitInput || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("aucopt %s: exit %d, %q; want exit 2 and one line with %q", strings.Join(c.args, " "), status, msg, c.want)
		}
	}

	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v: Linux only")
	}
	if testing.Short() {
		t.Skip("-short: builds the binary")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	bin := filepath.Join(t.TempDir(), "aucopt")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(sh, "-c", `ulimit -v 4000000 && exec "$0" train --data "$1" --algo opauc-rp --quiet`, bin, wide)
	cmd.Env = append(os.Environ(), "AUCOPT_DATA="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "opauc-rp needs 16 GB for 2,000,001 features, more than the 4.1 GB of address-space limit (ulimit -v)") {
		t.Errorf("opauc-rp under ulimit -v 4000000: %v, %q; want exit 2 naming the address-space limit", err, stderr.String())
	}
}
