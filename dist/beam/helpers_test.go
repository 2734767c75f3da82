package aucbeam

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/aucopt/aucopt/engine/data"
)

// TestMain runs the pipelines on Beam's local runner, prism, unless --runner says
// otherwise, with $TMPDIR a directory of its own that it removes after: Beam's loopback
// mode leaves an empty beamloopbackworker-* file in the temporary directory for every
// pipeline run (runnerlib.Execute), 14 a test run.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "aucopt-beam-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := ptest.MainRetWithDefault(m, "prism")
	os.RemoveAll(dir)
	os.Exit(code)
}

// format renders rows [lo, hi) of d as LIBSVM text.
func format(d *data.Dataset, lo, hi int) []byte {
	var b bytes.Buffer
	for i := lo; i < hi; i++ {
		b.WriteString(strconv.FormatFloat(d.Labels[i], 'g', -1, 64))
		r := d.Row(i)
		for k, j := range r.Idx {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(int(j) + 1))
			b.WriteByte(':')
			b.WriteString(strconv.FormatFloat(r.Val[k], 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// a9a returns the embedded a9a's training and test parts.
func a9a(t *testing.T) (train, test *data.Dataset) {
	t.Helper()
	t.Setenv(data.EnvData, t.TempDir()) // the embedded copy
	sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	return sp.Train, sp.Test
}

// shards writes d as k shard files of about equal rows (named so that their order is
// d's) plus the whole file, and returns the directory, the shards' glob and the whole
// file.
func shards(t *testing.T, d *data.Dataset, k int, name string) (dir, glob, whole string) {
	t.Helper()
	dir = t.TempDir()
	whole = filepath.Join(dir, name+".svm")
	if err := os.WriteFile(whole, format(d, 0, d.Rows()), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, name)
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for s := range k {
		lo, hi := s*d.Rows()/k, (s+1)*d.Rows()/k
		p := filepath.Join(sub, "part-"+strconv.Itoa(100+s)+".svm")
		if err := os.WriteFile(p, format(d, lo, hi), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(sub, "part-*.svm"), whole
}

// writeText writes text to dir/name and returns the path.
func writeText(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
