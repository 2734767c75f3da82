package main_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// svmRows is rows rows of LIBSVM text over 8 features, alternating labels, the first
// line with one feature (short) or all eight (long).
func svmRows(rows int, longFirst bool) []byte {
	var b bytes.Buffer
	for i := range rows {
		label := "+1"
		if i%2 == 1 {
			label = "-1"
		}
		b.WriteString(label)
		for j := 1; j <= 8; j++ {
			if i == 0 && !longFirst && j > 1 || i > 0 && (i+j)%3 == 0 {
				continue
			}
			fmt.Fprintf(&b, " %d:%.4f", j, float64((i*7+j*13)%97)/97)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// withStdin runs aucopt with args and stdin as its standard input (a pipe, as exec
// makes it for a reader), returning stdout, stderr and the exit status.
func (e *e2e) withStdin(stdin []byte, args ...string) (string, string, int) {
	e.t.Helper()
	var out, errOut bytes.Buffer
	c := e.cmd(args...)
	c.Stdin, c.Stdout, c.Stderr = bytes.NewReader(stdin), &out, &errOut
	err := c.Run()
	var ee *exec.ExitError
	status := 0
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		e.t.Fatalf("aucopt %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), status
}

// TestStdinE2E: standard input is read exactly once. `--data -` and `--data
// /dev/stdin` on a pipe train the model `--data FILE` trains (weights, rows and the
// data's fingerprint), for an online and a batch algorithm, on files of 1, 2 and 271
// rows (10⁶ without -short) whose first line is short or long; predict writes one score
// per input row, eval and `--test -` see every row. (The input used to be opened twice:
// the first bytes were lost, 270 rows of 271 trained, or ls-auc failed on a bogus
// label.)
func TestStdinE2E(t *testing.T) {
	e := newE2E(t)
	sizes := []int{1, 2, 271}
	if !testing.Short() {
		sizes = append(sizes, 1_000_000)
	}
	ref := e.path("ref.svm")
	if err := os.WriteFile(ref, svmRows(271, true), 0o644); err != nil {
		t.Fatal(err)
	}
	e.ok("train", "--algo", "olr", "--data", ref, "--model", e.path("ref.json"))
	for _, rows := range sizes {
		for _, long := range []bool{false, true} {
			text := svmRows(rows, long)
			file := e.path("d.svm")
			if err := os.WriteFile(file, text, 0o644); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%d rows, long first line %v", rows, long)
			// predict and eval: the header, then one score per row.
			out, errOut, st := e.withStdin(text, "predict", "--allow-fewer-features", "--model", e.path("ref.json"), "--data", "-")
			if st != 0 || strings.Count(out, "\n") != rows+1 {
				t.Fatalf("%s: predict --data - wrote %d lines (exit %d, %s), want the header and %d", name, strings.Count(out, "\n"), st, errOut, rows)
			}
			if want := e.ok("predict", "--allow-fewer-features", "--model", e.path("ref.json"), "--data", file); out != want {
				t.Errorf("%s: predict --data - differs from predict --data FILE", name)
			}
			if rows < 2 {
				_, fileErr, fst := e.run("train", "--algo", "olr", "--data", file, "--model", e.path("f.json"))
				_, _, pst := e.withStdin(text, "train", "--algo", "olr", "--data", "-", "--model", e.path("p.json"))
				if fst != 2 || pst != 2 {
					t.Errorf("%s: train exits %d from the file (%s), %d from the pipe, want 2", name, fst, fileErr, pst)
				}
				continue
			}
			var ev evalJSON
			out, errOut, st = e.withStdin(text, "eval", "--json", "--allow-fewer-features", "--model", e.path("ref.json"), "--data", "-")
			if err := json.Unmarshal([]byte(out), &ev); st != 0 || err != nil || ev.Rows != rows {
				t.Errorf("%s: eval --data -: exit %d, %d rows (%v %s), want %d", name, st, ev.Rows, err, errOut, rows)
			}
			algos := []string{"olr", "ls-auc"}
			if rows > 271 {
				algos = algos[1:]
			}
			for _, algo := range algos {
				var fr trainJSON
				e.okJSON(&fr, "train", "--json", "--algo", algo, "--data", file, "--model", e.path("f.json"))
				want := readModel(t, e.path("f.json"))
				for _, arg := range []string{"-", "/dev/stdin"} {
					out, errOut, st := e.withStdin(text, "train", "--json", "--algo", algo, "--data", arg, "--model", e.path("p.json"))
					var pr trainJSON
					if err := json.Unmarshal([]byte(out), &pr); st != 0 || err != nil {
						t.Fatalf("%s: train --algo %s --data %s: exit %d (%v): %s", name, algo, arg, st, err, errOut)
					}
					got := readModel(t, e.path("p.json"))
					if pr.TrainRows != rows || fr.TrainRows != rows || !bytes.Equal(got.Weights, want.Weights) || got.TrainSHA256 != want.TrainSHA256 {
						t.Errorf("%s: train --algo %s --data %s: %d rows, sha256 %s, want %d rows, %s and the file's weights",
							name, algo, arg, pr.TrainRows, got.TrainSHA256, rows, want.TrainSHA256)
					}
				}
			}
			// --test -: every row scored.
			var tr trainJSON
			out, errOut, st = e.withStdin(text, "train", "--algo", "olr", "--data", ref, "--test", "-", "--json")
			if err := json.Unmarshal([]byte(out), &tr); st != 0 || err != nil || tr.TestRows != rows {
				t.Errorf("%s: train --test -: exit %d, %d test rows (%v %s), want %d", name, st, tr.TestRows, err, errOut, rows)
			}
		}
	}
	zeroBasedE2E(t, e)
	// A table out of core: the in-memory model (issue 40's acceptance).
	var big strings.Builder
	big.WriteString("x1,y,x2,x3\n")
	for i := range 30_000 {
		a, b, c := float64(i%97)/97, float64(i*7%89)/89, float64(i*13%83)/83
		y := 0
		if a+0.5*b-c+float64(i*31%11)/11-0.5 > 0 {
			y = 1
		}
		fmt.Fprintf(&big, "%.6f,%d,%.6f,%.6f\n", a, y, b, c)
	}
	if err := os.WriteFile(e.path("big.csv"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	e.ok("train", "--algo", "ls-auc", "--data", "big.csv", "--label", "y", "--model", e.path("mem.json"))
	e.ok("train", "--algo", "ls-auc", "--out-of-core", "--data", "big.csv", "--label", "y", "--model", e.path("ooc.json"))
	var mem, ooc struct{ Weights []float64 }
	for _, m := range []struct {
		file string
		v    any
	}{{"mem.json", &mem}, {"ooc.json", &ooc}} {
		b, err := os.ReadFile(e.path(m.file))
		if err != nil || json.Unmarshal(b, m.v) != nil {
			t.Fatalf("%s: %v", m.file, err)
		}
	}
	if len(mem.Weights) != 3 || len(ooc.Weights) != 3 {
		t.Fatalf("weights %v in memory, %v out of core; want 3 each", mem.Weights, ooc.Weights)
	}
	for j := range mem.Weights {
		if d := math.Abs(mem.Weights[j] - ooc.Weights[j]); d > 1e-12*math.Abs(mem.Weights[j]) {
			t.Errorf("weight %d: %v out of core, %v in memory", j, ooc.Weights[j], mem.Weights[j])
		}
	}
	// Both from the one stream: refused, not trained on nothing.
	_, errOut, st := e.withStdin(svmRows(10, true), "train", "--algo", "olr", "--data", "-", "--test", "-")
	if st != 2 || !strings.Contains(errOut, "same stream") {
		t.Errorf("--data - --test -: exit %d, %q; want 2 naming the stream", st, errOut)
	}
}

// zeroBasedE2E: a LIBSVM file numbered from 0 (scikit-learn's dump_svmlight_file)
// trains to the weights of its twin numbered from 1, in memory, from a pipe and out of
// core, detected with a note or said with --zero-based; the model records it, so
// predict reads the zero-based file as training did; --zero-based false refuses it at
// its index 0. (Every index 0 was refused: "bad feature index".)
func zeroBasedE2E(t *testing.T, e *e2e) {
	one := svmRows(271, true)
	var zero bytes.Buffer
	for _, line := range strings.SplitAfter(string(one), "\n") {
		for i, tok := range strings.Fields(line) {
			if i > 0 {
				var j int
				var v string
				fmt.Sscanf(strings.Replace(tok, ":", " ", 1), "%d %s", &j, &v)
				tok = fmt.Sprintf(" %d:%s", j-1, v)
			}
			zero.WriteString(tok)
		}
		if strings.HasSuffix(line, "\n") {
			zero.WriteByte('\n')
		}
	}
	po, pz := e.path("one.svm"), e.path("zero.svm")
	if err := os.WriteFile(po, one, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pz, zero.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, run := range [][]string{{"--algo", "olr"}, {"--algo", "ls-auc"}, {"--algo", "ls-auc", "--out-of-core", "--scale", "none", "--zero-based", "true"}} {
		said := slices.Contains(run, "--zero-based")
		e.ok(append([]string{"train", "--data", po, "--model", e.path("o.json")}, slices.DeleteFunc(slices.Clone(run), func(a string) bool { return a == "--zero-based" || a == "true" })...)...)
		want := readModel(t, e.path("o.json"))
		for _, data := range []string{pz, "-"} {
			if data == "-" && slices.Contains(run, "--out-of-core") {
				continue // out of core reads a file
			}
			var tr struct {
				Notes []string `json:"notes"`
			}
			args := append([]string{"train", "--json", "--data", data, "--model", e.path("z.json")}, run...)
			out, errOut, st := e.withStdin(zero.Bytes(), args...)
			if err := json.Unmarshal([]byte(out), &tr); st != 0 || err != nil {
				t.Fatalf("train %v: exit %d (%v): %s", args, st, err, errOut)
			}
			got := readModel(t, e.path("z.json"))
			noted := strings.Contains(strings.Join(tr.Notes, "\n"), "from 0")
			if !bytes.Equal(got.Weights, want.Weights) || noted == said {
				t.Errorf("train %v: weights equal %v, notes %q; want the twin's weights and a note when detected", args, bytes.Equal(got.Weights, want.Weights), tr.Notes)
			}
		}
		if a, b := e.ok("predict", "--model", e.path("z.json"), "--data", pz), e.ok("predict", "--model", e.path("o.json"), "--data", po); a != b {
			t.Errorf("%v: predict with the zero-based model on the zero-based file differs from the twin's", run)
		}
	}
	if _, errOut, st := e.run("train", "--algo", "olr", "--data", pz, "--zero-based", "false"); st != 2 || !strings.Contains(errOut, "zero.svm:1:") {
		t.Errorf("--zero-based false on a zero-based file: exit %d, %q; want 2 naming line 1", st, errOut)
	}
	// A setting that cannot apply is refused; a dataset name as test data is read as it is.
	if _, errOut, st := e.run("train", "--algo", "olr", "--data", "german", "--zero-based", "true"); st != 2 || !strings.Contains(errOut, "--zero-based") {
		t.Errorf("--zero-based with a dataset name: exit %d, %q; want 2 naming the flag", st, errOut)
	}
	e.ok("train", "--algo", "olr", "--data", pz, "--test", "german", "--allow-extra-features")
}

// TestStdinBombE2E: a small gzip stream on standard input that decompresses to 32 MiB
// of one line, or of blank lines, is parsed as it is decompressed (never held whole)
// and refused as the same file would be: exit 2, one line naming the input.
func TestStdinBombE2E(t *testing.T) {
	e := newE2E(t)
	for _, c := range []struct {
		fill byte
		want string
	}{{'0', "over 1048576 bytes"}, {'\n', "no examples"}} {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		block := bytes.Repeat([]byte{c.fill}, 1<<20)
		for range 32 {
			w.Write(block)
		}
		w.Close()
		_, errOut, st := e.withStdin(z.Bytes(), "train", "--algo", "ls-auc", "--data", "-")
		if st != 2 || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("a bomb of %q: exit %d, %q; want 2 and one line saying %q", c.fill, st, errOut, c.want)
		}
	}
}
