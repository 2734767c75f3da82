package main_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExitStatuses builds aucopt-beam and runs it on the local runner (prism) as a user
// would, checking the exit status by aucopt's rule (issue 43: a glob matching nothing
// and a malformed shard exited 1, an output naming a shard replaced it) and the one
// line it says why in, with nothing else on stderr.
func TestExitStatuses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds aucopt-beam and runs pipelines; skipped with -short")
	}
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skipf("no go command to build aucopt-beam with: %v", err)
		}
	}
	bin := filepath.Join(t.TempDir(), "aucopt-beam")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	for s := range 3 {
		var sb strings.Builder
		for i := range 100 {
			y, shift := "-1", 0.0
			if (i*7+s)%5 < 2 {
				y, shift = "+1", 0.5
			}
			fmt.Fprintf(&sb, "%s 1:%g 2:%g 3:%g\n", y, float64(i%10)/10+shift, float64(i%7)/7, float64((i+s)%3)/3)
		}
		good := sb.String()
		write(t, filepath.Join(dir, "train", fmt.Sprintf("part-%02d.svm", s)), good)
		if s == 1 { // line 91 of the second shard: a value that is no number, at column 12
			lines := strings.Split(good, "\n")
			lines[90] = "+1 1:0.5 2:x 3:1"
			good = strings.Join(lines, "\n")
		}
		write(t, filepath.Join(dir, "bad", fmt.Sprintf("part-%02d.svm", s)), good)
	}
	if err := os.Symlink(filepath.Join("train", "part-01.svm"), filepath.Join(dir, "lnk.json")); err != nil {
		t.Fatal(err)
	}
	shard0, err := os.ReadFile(filepath.Join(dir, "train", "part-00.svm"))
	if err != nil {
		t.Fatal(err)
	}
	shard1, err := os.ReadFile(filepath.Join(dir, "train", "part-01.svm"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, string, int) {
		c := exec.Command(bin, args...)
		c.Dir = dir
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		err := c.Run()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			return out.String(), errOut.String(), ee.ExitCode()
		case err != nil:
			t.Fatal(err)
		}
		return out.String(), errOut.String(), 0
	}
	tests := []struct {
		name   string
		args   []string
		status int
		want   []string // in the one "aucopt-beam:" line
	}{
		{"train", []string{"--job", "train", "--data", "train/part-*.svm", "--model", "m.json"}, 0, nil},
		{"nothing matches", []string{"--job", "train", "--data", "nomatch/*.svm"}, 2, []string{"nomatch/*.svm", "no file matches"}},
		{"malformed shard, train", []string{"--job", "train", "--data", "bad/part-*.svm", "--model", "x.json"}, 2, []string{"bad/part-01.svm:91:12"}},
		{"malformed shard, grid", []string{"--job", "grid", "--grid", "lambda=1e-3,1", "--folds", "2", "--data", "bad/part-*.svm"}, 2, []string{"bad/part-01.svm:91:12"}},
		{"malformed shard, eval", []string{"--job", "eval", "--model", "m.json", "--data", "bad/part-*.svm"}, 2, []string{"bad/part-01.svm:91:12"}},
		{"model over a shard", []string{"--job", "train", "--data", "train/part-*.svm", "--model", "train/part-00.svm"}, 2, []string{"would overwrite the input train/part-00.svm"}},
		{"grid model through a link to a shard", []string{"--job", "grid", "--grid", "lambda=1e-3,1", "--folds", "2", "--data", "train/part-*.svm", "--model", "lnk.json"}, 2, []string{"lnk.json", "would overwrite the input train/part-01.svm"}},
		{"model in a missing directory", []string{"--job", "train", "--data", "train/part-*.svm", "--model", "nodir/m.json"}, 2, []string{"nodir"}},
		{"unknown algorithm", []string{"--job", "train", "--algo", "ls_auc", "--data", "train/part-*.svm"}, 2, []string{"did you mean ls-auc?"}},
		{"unknown job", []string{"--job", "fit", "--data", "train/part-*.svm"}, 2, []string{`"fit"`}},
		{"a grid flag with train", []string{"--job", "train", "--folds", "3", "--data", "train/part-*.svm"}, 2, []string{"--job train", "--folds"}},
		{"training flags with eval", []string{"--job", "eval", "--model", "m.json", "--algo", "spam-l2", "-p", "eta=1", "--data", "train/part-*.svm"}, 2, []string{"--algo, -p"}},
		{"unknown log level", []string{"--log", "loud", "--data", "train/part-*.svm"}, 2, []string{"--log", "loud"}},
		{"an argument the shell expanded", []string{"--job", "train", "--data", "train/part-00.svm", "train/part-01.svm"}, 2, []string{`"train/part-01.svm"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, status := run(tt.args...)
			// Nothing on stderr but the one line "aucopt-beam: …" of a failure (prism,
			// the local runner, logs at --log, off by default).
			lines := strings.Count(errOut, "\n")
			if status != tt.status || tt.status == 0 && errOut != "" || tt.status != 0 && (lines != 1 || !strings.HasPrefix(errOut, "aucopt-beam: ")) {
				t.Fatalf("aucopt-beam %s: exit %d, want %d; stderr (%d lines):\n%s", strings.Join(tt.args, " "), status, tt.status, lines, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("aucopt-beam %s: %q does not say %q", strings.Join(tt.args, " "), errOut, w)
				}
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(dir, "train", "part-00.svm")); err != nil || !bytes.Equal(b, shard0) {
		t.Errorf("train/part-00.svm changed: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "train", "part-01.svm")); err != nil || !bytes.Equal(b, shard1) {
		t.Errorf("train/part-01.svm (behind lnk.json) changed: %v", err)
	}
	for _, p := range []string{"x.json", "nodir"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("a failed run left %s", p)
		}
	}

	t.Run("signals", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no SIGTERM to send on windows")
		}
		// A grid of 17 points × 5 folds, each item re-reading 40,000 rows: seconds of
		// work, stopped after one.
		var sb strings.Builder
		for i := range 40_000 {
			y := "-1"
			if i%5 < 2 {
				y = "+1"
			}
			fmt.Fprintf(&sb, "%s", y)
			for j := 1; j <= 10; j++ {
				fmt.Fprintf(&sb, " %d:%.3g", j, float64((i*j)%97)/97)
			}
			sb.WriteByte('\n')
		}
		for s := range 4 {
			write(t, filepath.Join(dir, "big", fmt.Sprintf("part-%d.svm", s)), sb.String())
		}
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			c := exec.Command(bin, "--job", "grid", "--algo", "spam-l2", "--grid", "eta=2^[-8..8]", "--folds", "5", "--data", "big/part-*.svm", "--model", "sig.json")
			c.Dir = dir
			var errOut bytes.Buffer
			c.Stderr = &errOut
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			c.Process.Signal(sig)
			err := c.Wait()
			var ee *exec.ExitError
			status := 0
			if errors.As(err, &ee) {
				status = ee.ExitCode()
			}
			if status == 0 {
				t.Skipf("the grid ended before %v (a fast machine): nothing to check", sig)
			}
			verb := map[syscall.Signal]string{syscall.SIGTERM: "terminated", syscall.SIGINT: "interrupted"}[sig]
			if status != 128+int(sig) || strings.Count(errOut.String(), "\n") != 1 || !strings.HasPrefix(errOut.String(), "aucopt-beam: "+verb) {
				t.Errorf("aucopt-beam after %v: exit %d, stderr %q; want %d and one line", sig, status, errOut.String(), 128+int(sig))
			}
			if _, err := os.Stat(filepath.Join(dir, "sig.json")); err == nil {
				t.Errorf("aucopt-beam after %v wrote its model", sig)
			}
		}
	})

	t.Run("help", func(t *testing.T) {
		_, errOut, status := run("--help")
		own, beams := strings.Index(errOut, "  -job "), strings.Index(errOut, "  -runner ")
		if status != 0 || own < 0 || beams < 0 || own > beams || !strings.Contains(errOut, "Beam's flags") {
			t.Errorf("aucopt-beam --help: exit %d; want aucopt-beam's flags (-job at %d) before Beam's (-runner at %d):\n%s", status, own, beams, errOut)
		}
	})
}

// write writes text to path, creating its directory.
func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
