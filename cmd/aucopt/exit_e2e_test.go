package main_test

// The exit-status cases of issue 43's second reliability round that concern convert,
// long output names, test data of another feature space, "did you mean" and the hints
// of table cells: each runs the built binary as a user would and fails on the code
// before the issue.

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExitStatusesRound2 runs the cases.
func TestExitStatusesRound2(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs it; skipped with -short")
	}
	e := newE2E(t)
	german := embedded(t, "german_scale.txt.xz")
	longName := strings.Repeat("m", 230) + ".json" // legal: 235 bytes
	tooLong := strings.Repeat("m", 300) + ".json"  // 305 bytes, over NAME_MAX
	e.ok("train", "--data", "german", "--quiet", "--model", "german.json")
	if err := os.WriteFile(e.path("nolabel.csv"), []byte("label,x\n1,2\n,3\n-1,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	t.Run("bad input", func(t *testing.T) {
		cases := []struct {
			name    string
			args    []string
			want    []string
			notWant string
		}{
			{"model name over NAME_MAX, before training", []string{"train", "--data", "german", "--passes", "100", "--model", tooLong}, []string{"305 bytes", "--model"}, ""},
			{"predict out name over NAME_MAX", []string{"predict", "--model", "german.json", "--data", "german", "--out", tooLong}, []string{"a file name of 30"}, ""},
			{"convert out name over NAME_MAX", []string{"convert", german, strings.TrimSuffix(tooLong, ".json") + ".cache"}, []string{"a file name of 30"}, ""},
			{"train test of another feature space", []string{"train", "--data", "german", "--test", "a9a", "--quiet"}, []string{"feature space", "123 features", "--allow-extra-features"}, ""},
			{"plot test of another feature space", []string{"plot", "convergence", "--data", "german", "--test", "a9a", "--json", "--quiet"}, []string{"--allow-extra-features"}, ""},
			{"algorithm with swapped letters", []string{"train", "--algo", "opuac"}, []string{`"opuac"`, "did you mean opauc?"}, ""},
			{"algorithm with an underscore", []string{"train", "--algo", "spam_l2"}, []string{"did you mean spam-l2?"}, ""},
			{"algorithm in capitals", []string{"cv", "--algo", "OPAUC"}, []string{"did you mean opauc?"}, ""},
			{"auto in capitals", []string{"train", "--algo", "AUTO"}, []string{`"AUTO"`, "did you mean auto?"}, ""},
			{"auto misspelt, cv", []string{"cv", "--algo", "atuo"}, []string{"did you mean auto?"}, ""},
			{"convert raw and positive", []string{"convert", "--raw", "--positive", "3", german, "g.svm"}, []string{"--raw", "--positive 3"}, ""},
			{"command misspelt", []string{"trian"}, []string{`"trian"`, "did you mean train?"}, ""},
			{"help of a misspelt command", []string{"help", "predcit"}, []string{"did you mean predict?"}, ""},
			{"dataset misspelt", []string{"train", "--data", "germna"}, []string{"did you mean german?"}, ""},
			{"empty label, --missing zero", []string{"train", "--data", "nolabel.csv", "--missing", "zero"}, []string{"nolabel.csv:3:1", "--missing skip"}, "zero or"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				before := e.listing()
				out, errOut, status := e.run(c.args...)
				if status != 2 || out != "" || strings.Count(errOut, "\n") != 1 {
					t.Errorf("aucopt %s: exit %d, stdout %q, stderr %q; want exit 2 and one line", strings.Join(c.args, " "), status, out, errOut)
				}
				for _, w := range c.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("aucopt %s: the error does not say %q: %s", strings.Join(c.args, " "), w, errOut)
					}
				}
				if c.notWant != "" && strings.Contains(errOut, c.notWant) {
					t.Errorf("aucopt %s: the error says %q: %s", strings.Join(c.args, " "), c.notWant, errOut)
				}
				if after := e.listing(); !slices.Equal(before, after) {
					t.Errorf("aucopt %s: files changed: before %q, after %q", strings.Join(c.args, " "), before, after)
				}
			})
		}
	})

	t.Run("model name of 235 bytes", func(t *testing.T) {
		e.ok("train", "--data", "german", "--quiet", "--model", longName)
		if st, err := os.Stat(e.path(longName)); err != nil || st.Size() == 0 {
			t.Errorf("the model of a 235-byte name: %v", err)
		}
		noTemporaries(t, e)
	})

	t.Run("train test of another feature space allowed", func(t *testing.T) {
		out := e.ok("train", "--data", "german", "--test", "a9a", "--quiet", "--allow-extra-features")
		if !strings.Contains(out, "the extra features get weight 0") || !strings.Contains(out, "test AUC") {
			t.Errorf("train --allow-extra-features: want a note and a test AUC:\n%s", out)
		}
	})

	t.Run("convert with a positive label", func(t *testing.T) {
		var sb strings.Builder
		for i := range 500 {
			fmt.Fprintf(&sb, "%d 1:%g 2:%g\n", i%26+1, float64(i%26)/26, float64(i%7)/7) // 26 classes, like letter
		}
		if err := os.WriteFile(e.path("letter.svm"), []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out := e.ok("convert", "--positive", "3", "letter.svm", "l3.svm")
		if !strings.Contains(out, "(20 positive, 480 negative)") {
			t.Errorf("convert --positive 3: %s", out)
		}
		b, err := os.ReadFile(e.path("l3.svm"))
		if err != nil {
			t.Fatal(err)
		}
		labels := map[string]int{}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			labels[strings.Fields(line)[0]]++
		}
		if len(labels) != 2 || labels["1"] != 20 || labels["-1"] != 480 {
			t.Errorf("convert --positive 3 wrote the labels %v, want 20 of 1 and 480 of -1", labels)
		}
		if out, errOut, status := e.run("train", "--algo", "olr", "--data", "l3.svm", "--quiet"); status != 0 || !strings.Contains(out, "500 rows") {
			t.Errorf("train on the converted file: exit %d, %s%s", status, out, errOut)
		}
	})

	t.Run("convert to a full disk", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no full device")
		}
		dev := fullDevice(t, e.dir)
		for _, ext := range []string{"cache", "svm", "parquet"} {
			link := "full." + ext
			if err := os.Symlink(dev, e.path(link)); err != nil {
				t.Fatal(err)
			}
			out, errOut, status := e.run("convert", german, link)
			if status != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "no space left") {
				t.Errorf("convert to a full .%s: exit %d, stdout %q, stderr %q; want exit 1 and one line saying the disk is full", ext, status, out, errOut)
			}
			if st, err := os.Stat(dev); err != nil || st.Mode()&fs.ModeCharDevice == 0 {
				t.Fatalf("convert to %s turned the device into %v (%v)", link, st.Mode(), err)
			}
			os.Remove(e.path(link))
		}
	})

	t.Run("convert interrupted while writing", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no SIGINT to send on windows")
		}
		row := "+1 1:0.5 2:0.25 3:0.125 4:1 5:0.5 6:0.75\n-1 5:1 6:0.5 7:0.25\n"
		if err := os.WriteFile(e.path("big.svm"), bytes.Repeat([]byte(row), 1_000_000), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(e.path("big.svm"))
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			c := e.cmd("convert", "big.svm", "big.cache")
			var errBuf bytes.Buffer
			c.Stderr = &errBuf
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			if !waitTemporary(e.dir, ".big.cache.", 60*time.Second) {
				c.Process.Kill()
				c.Wait()
				t.Fatalf("convert wrote no temporary file: %s", errBuf.String())
			}
			c.Process.Signal(sig)
			status := exitCode(t, c.Wait())
			if want := 128 + int(sig); status != want || strings.Count(errBuf.String(), "\n") != 1 {
				t.Errorf("convert after %v during the write: exit %d, stderr %q; want %d and one line", sig, status, errBuf.String(), want)
			}
			if _, err := os.Stat(e.path("big.cache")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("convert after %v during the write left the cache: %v", sig, err)
				os.Remove(e.path("big.cache"))
			}
			noTemporaries(t, e)
		}
	})
}
