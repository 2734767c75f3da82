package main_test

// The reliability drill of the end-to-end test (issue 18): the bad-input corpus in
// testdata/bad and the exit-status cases run by TestEndToEnd's bad-input table, and
// the drill's own runs: writes to links, devices and standard output, SIGTERM with a
// checkpoint, Ctrl-C while data load, and SIGKILL in the middle of a write.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// badCase is a run that must exit 2 with one line naming want.
type badCase struct {
	name string
	args []string
	want []string
}

// reliabilityCases are the exit-status cases of issue 18, run in the scratch
// directory, which they first prepare (an input file to overwrite, links).
func reliabilityCases(t *testing.T, e *e2e, germanFile string) []badCase {
	t.Helper()
	b, err := os.ReadFile(germanFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(e.path("g.svm.xz"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("g.svm.xz", e.path("g-link.svm.xz")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere/m.json", e.path("dangling.json")); err != nil {
		t.Fatal(err)
	}
	cases := []badCase{
		{"grid holdout above 1", []string{"train", "--data", "german", "--grid", "--grid-holdout", "1.5"}, []string{"--grid-holdout 1.5", "(0, 1)"}},
		{"grid holdout 0", []string{"train", "--data", "german", "--grid", "--grid-holdout", "0"}, []string{"--grid-holdout 0"}},
		{"grid folds negative", []string{"train", "--data", "german", "--grid", "--grid-folds", "-3"}, []string{"--grid-folds -3"}},
		{"grid folds above the rows", []string{"train", "--data", "german", "--grid", "--grid-folds", "100000"}, []string{"100000"}},
		{"grid folds without grid", []string{"train", "--data", "german", "--grid-folds", "3"}, []string{"--grid"}},
		{"cv grid holdout above 1", []string{"cv", "--data", "german", "--grid", "--grid-holdout", "1.5"}, []string{"--grid-holdout 1.5"}},
		{"cv folds above the rows", []string{"cv", "--data", "german", "--folds", "100000"}, []string{"100000"}},
		{"seed 0", []string{"train", "--data", "german", "--seed", "0"}, []string{"--seed 0"}},
		{"help of an unknown command", []string{"help", "nosuch"}, []string{`"nosuch"`}},
		{"train model over its data", []string{"train", "--data", "g.svm.xz", "--model", "g.svm.xz"}, []string{"--model g.svm.xz", "overwrite the input"}},
		{"train model over its data by a link", []string{"train", "--data", "g-link.svm.xz", "--model", "g.svm.xz"}, []string{"overwrite the input g-link.svm.xz"}},
		{"train model over its test data", []string{"train", "--data", "german", "--test", "g.svm.xz", "--model", "g.svm.xz"}, []string{"overwrite the input"}},
		{"train checkpoint over its data", []string{"train", "--data", "g.svm.xz", "--checkpoint", "g.svm.xz"}, []string{"--checkpoint g.svm.xz", "overwrite"}},
		{"train model over its checkpoint", []string{"train", "--data", "german", "--checkpoint", "c.ckpt", "--model", "c.ckpt"}, []string{"--model c.ckpt"}},
		{"train model to a dangling link", []string{"train", "--data", "german", "--model", "dangling.json"}, []string{"dangling.json", "missing"}},
		{"predict out over its data", []string{"predict", "--model", "opauc.json", "--data", "g.svm.xz", "--out", "g.svm.xz"}, []string{"--out g.svm.xz", "overwrite"}},
		{"predict out over its model", []string{"predict", "--model", "opauc.json", "--data", "a9a", "--out", "opauc.json"}, []string{"overwrite the input opauc.json"}},
		{"convert over its input by a link", []string{"convert", "g-link.svm.xz", "g.svm.xz"}, []string{"overwrite"}},
		{"roc out over its data", []string{"roc", "--model", "opauc.json", "--data", "g.svg", "--out", "g.svg"}, []string{"overwrite"}},
	}
	if err := os.WriteFile(e.path("g.svg"), b, 0o644); err != nil { // data named like a plot
		t.Fatal(err)
	}
	// The corpus: every file in testdata/bad, to train and to cross-validate on.
	dir, err := filepath.Abs(filepath.Join("testdata", "bad"))
	if err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) < 10 {
		t.Fatalf("the bad-input corpus testdata/bad: %d files, %v", len(ents), err)
	}
	cases = append(cases, badCase{"label 3 suggests a flag that exists", []string{"train", "--data", filepath.Join(dir, "label-3.svm")},
		[]string{"label-3.svm:3:1", "name the positive class (--positive LABEL)"}})
	for _, ent := range ents {
		p := filepath.Join(dir, ent.Name())
		cases = append(cases,
			badCase{"corpus train " + ent.Name(), []string{"train", "--data", p, "--model", "out.json"}, []string{ent.Name()}},
			badCase{"corpus cv " + ent.Name(), []string{"cv", "--data", p}, []string{ent.Name()}})
	}
	return cases
}

// reliabilityDrill runs the drill's own cases after the bad-input table.
func reliabilityDrill(t *testing.T, e *e2e) {
	if runtime.GOOS == "windows" {
		t.Skip("links, devices and signals of the drill are unix ones")
	}
	t.Run("out through a link", func(t *testing.T) {
		want := e.ok("predict", "--model", "opauc.json", "--data", "a9a")
		if err := os.WriteFile(e.path("real.tsv"), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("real.tsv", e.path("link.tsv")); err != nil {
			t.Fatal(err)
		}
		e.ok("predict", "--model", "opauc.json", "--data", "a9a", "--out", "link.tsv")
		if st, err := os.Lstat(e.path("link.tsv")); err != nil || st.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("predict --out LINK replaced the link: %v", err)
		}
		if got, _ := os.ReadFile(e.path("real.tsv")); string(got) != want {
			t.Errorf("predict --out LINK: the link's target holds %d bytes, want the %d of the scores", len(got), len(want))
		}
	})
	t.Run("out to stdout", func(t *testing.T) {
		want := e.ok("predict", "--model", "opauc.json", "--data", "a9a")
		if got := e.ok("predict", "--model", "opauc.json", "--data", "a9a", "--out", "/dev/stdout"); got != want {
			t.Errorf("predict --out /dev/stdout wrote %d bytes to stdout, want the %d of the scores", len(got), len(want))
		}
	})
	t.Run("model to a full device", func(t *testing.T) {
		dev := fullDevice(t, e.dir)
		out, errOut, status := e.run("train", "--data", "a9a", "--quiet", "--model", dev)
		if status != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "no space left") {
			t.Errorf("train --model %s: exit %d, stdout %q, stderr %q; want exit 1 and one line saying the device is full", dev, status, out, errOut)
		}
		if st, err := os.Stat(dev); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
			t.Errorf("train --model %s turned the device into %v (%v)", dev, st.Mode(), err)
		}
	})
	t.Run("terminate with a checkpoint", func(t *testing.T) {
		c := e.cmd("train", "--data", "german", "--passes", "100000", "--checkpoint", "term.ckpt", "--model", "term.json")
		errOut, status := signalAfterFirstLine(t, c, syscall.SIGTERM)
		if status != 143 || !strings.Contains(errOut, "aucopt train: terminated") {
			t.Errorf("train after SIGTERM: exit %d, stderr %q; want 143 and a 'terminated' line", status, errOut)
		}
		if st, err := os.Stat(e.path("term.ckpt")); err != nil || st.Size() == 0 {
			t.Errorf("train after SIGTERM wrote no checkpoint: %v", err)
		}
		if _, err := os.Stat(e.path("term.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("train after SIGTERM left a model file: %v", err)
		}
		noTemporaries(t, e)
	})
	t.Run("interrupt while loading", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("watches the file position in /proc")
		}
		big := e.path("load.svm")
		row := "+1 1:0.5 2:0.25 3:0.125 4:1\n-1 5:1 6:0.5\n"
		if err := os.WriteFile(big, bytes.Repeat([]byte(row), 1_000_000), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(big)
		c := e.cmd("train", "--data", "load.svm", "--quiet", "--model", "load.json")
		var errBuf bytes.Buffer
		c.Stderr = &errBuf
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		if !waitReading(c.Process.Pid, big, 20*time.Second) {
			c.Process.Kill()
			c.Wait()
			t.Skip("the load ended before it could be interrupted (a fast machine): nothing to check")
		}
		sent := time.Now()
		c.Process.Signal(os.Interrupt)
		status := exitCode(t, c.Wait())
		if took := time.Since(sent); took > 5*time.Second {
			t.Errorf("train took %v to stop after Ctrl-C while loading", took)
		}
		if status != 130 || !strings.Contains(errBuf.String(), "reading stopped") {
			t.Errorf("train after Ctrl-C while loading: exit %d, stderr %q; want 130 and the load stopped", status, errBuf.String())
		}
		if _, err := os.Stat(e.path("load.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("an interrupted load left a model file: %v", err)
		}
	})
	t.Run("kill during write", func(t *testing.T) {
		// Four rows of 100,000 features each: a model of 400,000 weights, whose write
		// (about 7 MB of JSON) is most of the run.
		var sb strings.Builder
		for r := range 4 {
			sb.WriteString([]string{"+1", "-1"}[r%2])
			for j := r*100_000 + 1; j <= (r+1)*100_000; j++ {
				sb.WriteString(" " + strconv.Itoa(j) + ":1")
			}
			sb.WriteByte('\n')
		}
		if err := os.WriteFile(e.path("wide.svm"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"train", "--algo", "olr", "--data", "wide.svm", "--scale", "none", "--shuffle=false", "--quiet", "--model", "wide.json"}
		e.ok(args...)
		good, err := os.ReadFile(e.path("wide.json"))
		if err != nil {
			t.Fatal(err)
		}
		killed := 0
		for try := 0; try < 20 && killed < 3; try++ {
			c := e.cmd(args...)
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			if waitTemporary(e.dir, ".wide.json.", 10*time.Second) {
				c.Process.Kill()
				killed++
			}
			c.Wait()
			if got, err := os.ReadFile(e.path("wide.json")); err != nil || !bytes.Equal(got, good) {
				t.Fatalf("after SIGKILL during the write (try %d): wide.json %d bytes, %v; want the complete model", try, len(got), err)
			}
		}
		if killed == 0 {
			t.Skip("no run was caught writing: nothing to check")
		}
		if len(temporaries(t, e)) == 0 {
			t.Error("SIGKILL in the write left no temporary file: the kill came too late to test anything")
		}
		e.ok(args...) // the next write of the same target removes the killed runs' temporaries
		noTemporaries(t, e)
		t.Logf("%d runs killed in the middle of the write", killed)
	})
}

// signalAfterFirstLine starts c, sends sig once it printed a line on stderr (training
// has started), and returns its stderr and exit status.
func signalAfterFirstLine(t *testing.T, c *exec.Cmd, sig os.Signal) (string, int) {
	t.Helper()
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if lines = append(lines, sc.Text()); len(lines) == 1 {
			c.Process.Signal(sig)
		}
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		c.Process.Kill()
		t.Fatalf("no exit within 20 s of %v", sig)
	}
	return strings.Join(lines, "\n"), exitCode(t, err)
}

// exitCode is the exit status that Wait's error reports.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// waitReading waits until process pid has read part, not all, of file (a position
// past the start and before the end in /proc/PID/fdinfo), or the process ended or the
// time ran out.
func waitReading(pid int, file string, limit time.Duration) bool {
	st, err := os.Stat(file)
	if err != nil {
		return false
	}
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(time.Millisecond) {
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			return false
		}
		for _, fd := range fds {
			target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if target != file {
				continue
			}
			info, _ := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", pid, fd.Name()))
			for _, line := range strings.Split(string(info), "\n") {
				if v, ok := strings.CutPrefix(line, "pos:"); ok {
					pos, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					if pos > 1<<20 && pos < st.Size()-1<<20 {
						return true
					}
				}
			}
		}
	}
	return false
}

// waitTemporary waits until a file whose name starts with prefix appears in dir.
func waitTemporary(dir, prefix string, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(200 * time.Microsecond) {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), prefix) && strings.Contains(e.Name(), "aucopt-tmp") {
				return true
			}
		}
	}
	return false
}

// temporaries lists aucopt's temporary files in the scratch directory.
func temporaries(t *testing.T, e *e2e) []string {
	t.Helper()
	var tmp []string
	for _, p := range e.listing() {
		if strings.Contains(filepath.Base(p), ".aucopt-tmp-") {
			tmp = append(tmp, p)
		}
	}
	return tmp
}

// noTemporaries fails the test if a temporary file is left in the scratch directory.
func noTemporaries(t *testing.T, e *e2e) {
	t.Helper()
	if tmp := temporaries(t, e); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}
