//go:build unix

package main_test

// The reliability drill of issue 43 on the bounded surfaces: gen honours SIGINT and
// SIGTERM and bounds its rows, model and checkpoint reads are bounded and interruptible
// (/dev/zero, a FIFO), a model's declared dimension allocates nothing before the data
// proves it, and the out-of-core memory guard refuses before allocating.

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReliabilityIO(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it (about 20 s); skipped with -short")
	}
	e := newE2E(t)
	t.Run("bad input", func(t *testing.T) {
		for _, c := range []badCase{
			{"gen rows above the bound", []string{"gen", "--rows", "1000000000000000", "--out", "h.csv"}, []string{"--rows 1000000000000000", "want 1 to 10000000000"}},
			{"gen first row overflows", []string{"gen", "--first-row", "9223372036854775807", "--out", "h.csv"}, []string{"--first-row 9223372036854775807", "pass"}},
			{"gen first row and rows overflow", []string{"gen", "--first-row", "9223372036854775000", "--rows", "1000", "--out", "h.csv"}, []string{"--first-row"}},
		} {
			t.Run(c.name, func(t *testing.T) { e.bad(t, c) })
		}
		if _, err := os.Stat(e.path("h.csv")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a refused gen wrote h.csv: %v", err)
		}
	})
	t.Run("bounded reads", func(t *testing.T) {
		e.ok("train", "--data", "german", "--quiet", "--model", "german.json")
		huge := e.path("huge.json") // 2 GiB of holes: refused by its size, not read
		if f, err := os.Create(huge); err != nil {
			t.Fatal(err)
		} else if err := f.Truncate(2 << 30); err != nil {
			t.Fatal(err)
		} else {
			f.Close()
		}
		if err := syscall.Mkfifo(e.path("ck.fifo"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, c := range []badCase{
			{"eval model /dev/zero", []string{"eval", "--model", "/dev/zero", "--data", "german"}, []string{"model /dev/zero:1:1", "not JSON"}},
			{"predict model /dev/zero", []string{"predict", "--model", "/dev/zero", "--data", "german"}, []string{"model /dev/zero:1:1"}},
			{"roc model /dev/zero", []string{"roc", "--model", "/dev/zero", "--data", "german", "--out", "r.svg"}, []string{"model /dev/zero:1:1"}},
			{"eval model of 2 GiB", []string{"eval", "--model", "huge.json", "--data", "german"}, []string{"model huge.json", "2147483648 bytes", "the most it may have is 1073741824"}},
			{"train checkpoint /dev/zero", []string{"train", "--data", "german", "--checkpoint", "/dev/zero"}, []string{"--checkpoint /dev/zero", "character device", "regular file"}},
			{"train checkpoint FIFO", []string{"train", "--data", "german", "--checkpoint", "ck.fifo"}, []string{"--checkpoint ck.fifo", "named pipe"}},
		} {
			t.Run(c.name, func(t *testing.T) { e.bad(t, c) })
		}
	})
	t.Run("model from a FIFO", func(t *testing.T) {
		fifo := e.path("m.fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		// With a writer, a FIFO is read like the file.
		want := e.ok("predict", "--model", "german.json", "--data", "german")
		b, err := os.ReadFile(e.path("german.json"))
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Write(b)
				w.Close()
			}
		}()
		if got := e.ok("predict", "--model", "m.fifo", "--data", "german"); got != want {
			t.Errorf("predict --model FIFO wrote %d bytes, want the %d of the file", len(got), len(want))
		}
		// Without one, it waits in open until SIGTERM.
		for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
			c := e.cmd("eval", "--model", "m.fifo", "--data", "german")
			var errBuf bytes.Buffer
			c.Stderr = &errBuf
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second) // blocked in open by now
			if status := e.signalAndWait(t, c, sig); status != 128+int(sig.(syscall.Signal)) || !strings.Contains(errBuf.String(), "m.fifo: reading stopped") {
				t.Errorf("eval --model FIFO without a writer, %v: exit %d, stderr %q; want %d", sig, status, errBuf.String(), 128+int(sig.(syscall.Signal)))
			}
		}
	})
	t.Run("out-of-core memory guard", func(t *testing.T) {
		// Feature 2,000,000 at line 3: its class moments would take terabytes.
		if err := os.WriteFile(e.path("wide.svm"), []byte("+1 1:1 5:2\n-1 2:1 7:1\n+1 3:1 2000000:1\n-1 4:1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		e.bad(t, badCase{"ls-auc out of core", []string{"train", "--algo", "ls-auc", "--data", "wide.svm", "--out-of-core", "--max-memory", "1GB"},
			[]string{"wide.svm:3:", "2,000,000 features out of core", "more than the 1.0 GB of --max-memory"}})
	})
	t.Run("declared width", func(t *testing.T) {
		// 300 bytes declaring 2³¹ − 1 features: 16 GiB of weights before, which the
		// address-space limit turned into a crash.
		m := `{"format": 1, "algorithm": "olr", "features": 2147483647, "scaling": {"kind": "none"},
 "weights": {"index": [1, 3, 5, 2147483647], "value": [0.5, -1, 0.25, 3]}}`
		if err := os.WriteFile(e.path("declared.json"), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		c := exec.Command("sh", "-c", `ulimit -v 4000000 && exec "$0" "$@"`, e.bin, "eval", "--allow-fewer-features", "--json", "--model", "declared.json", "--data", "german")
		c.Dir, c.Env = e.dir, e.env
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		if status := exitCode(t, c.Run()); status != 0 || !strings.Contains(out.String(), `"nonzero_weights": 4`) || !strings.Contains(out.String(), "the missing features count 0") {
			t.Errorf("eval --allow-fewer-features of a model declaring 2³¹ − 1 features under ulimit -v 4000000: exit %d, stdout %q, stderr %q; want 0 and the evaluation", status, out.String(), errOut.String())
		}
	})
	t.Run("gen terminated", func(t *testing.T) {
		// 10^10 rows: hours of writing, stopped once the temporary file is there.
		c := e.cmd("gen", "--rows", "10000000000", "--out", "h.csv")
		errOut, status := e.signalWhileWriting(t, c, ".h.csv.", syscall.SIGTERM)
		if status != 143 || !strings.Contains(errOut, "aucopt gen: terminated") {
			t.Errorf("gen after SIGTERM: exit %d, stderr %q; want 143 and a 'terminated' line", status, errOut)
		}
		e.nothingLeft(t, "h.csv")
	})
	t.Run("gen interrupted", func(t *testing.T) {
		for _, out := range []string{"sig.csv", "sig.parquet", "sig.csv.gz"} {
			c := e.cmd("gen", "--rows", "3000000", "--out", out)
			errOut, status := e.signalWhileWriting(t, c, "."+out+".", os.Interrupt)
			if status != 130 || !strings.Contains(errOut, "aucopt gen: interrupted") {
				t.Errorf("gen --out %s after Ctrl-C: exit %d, stderr %q; want 130 and an 'interrupted' line", out, status, errOut)
			}
			e.nothingLeft(t, out)
		}
	})
}

// bad runs c and checks that it exits 2 within 60 s with one line on stderr naming
// c.want, and nothing on stdout.
func (e *e2e) bad(t *testing.T, c badCase) {
	t.Helper()
	out, errOut, status := e.runWithin(t, 60*time.Second, c.args...)
	if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
		t.Errorf("aucopt %s: exit %d, stdout %q, stderr %q; want exit 2 and one line", strings.Join(c.args, " "), status, out, errOut)
	}
	for _, w := range c.want {
		if !strings.Contains(errOut, w) {
			t.Errorf("aucopt %s: stderr %q does not name %q", strings.Join(c.args, " "), errOut, w)
		}
	}
}

// runWithin runs aucopt with args and returns its stdout, stderr and exit status; a
// run that takes longer than limit is killed and fails the test.
func (e *e2e) runWithin(t *testing.T, limit time.Duration, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := e.cmd(args...)
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return out.String(), errOut.String(), exitCode(t, err)
	case <-time.After(limit):
		c.Process.Kill()
		<-done
		t.Fatalf("aucopt %s: still running after %v (stderr %q)", strings.Join(args, " "), limit, errOut.String())
	}
	return "", "", -1
}

// signalWhileWriting starts c, sends sig once a temporary file whose name starts with
// prefix appears in the scratch directory (the output is being written), and returns
// c's stderr and exit status; c must stop within 10 s of the signal.
func (e *e2e) signalWhileWriting(t *testing.T, c *exec.Cmd, prefix string, sig os.Signal) (string, int) {
	t.Helper()
	var errBuf bytes.Buffer
	c.Stderr = &errBuf
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitTemporary(e.dir, prefix, 20*time.Second) {
		c.Process.Kill()
		c.Wait()
		t.Fatalf("aucopt %s: no temporary file %s… within 20 s", strings.Join(c.Args[1:], " "), prefix)
	}
	status := e.signalAndWait(t, c, sig)
	return errBuf.String(), status
}

// signalAndWait sends sig to the started c and returns its exit status; c must stop
// within 10 s.
func (e *e2e) signalAndWait(t *testing.T, c *exec.Cmd, sig os.Signal) int {
	t.Helper()
	if err := c.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return exitCode(t, err)
	case <-time.After(10 * time.Second):
		c.Process.Kill()
		<-done
		t.Fatalf("aucopt %s: still running 10 s after %v", strings.Join(c.Args[1:], " "), sig)
	}
	return -1
}

// nothingLeft fails the test when out or a temporary file is in the scratch directory.
func (e *e2e) nothingLeft(t *testing.T, out string) {
	t.Helper()
	if _, err := os.Stat(e.path(out)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was left: %v", out, err)
	}
	noTemporaries(t, e)
}
