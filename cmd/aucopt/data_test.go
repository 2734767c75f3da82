package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/ulikunitz/xz"
)

func TestDatasetsEmbedded(t *testing.T) {
	t.Setenv("AUCOPT_DATA", t.TempDir()) // nothing there: only the embedded sets load
	var out, errOut bytes.Buffer
	if status := run([]string{"datasets", "a9a", "german", "w8a"}, &out, &errOut); status != 0 {
		t.Fatalf("datasets exited %d: %s", status, errOut.String())
	}
	for _, want := range []string{"a9a     32561       16281      123       7841       2        embedded", "w8a", "not found in"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("datasets output lacks %q:\n%s", want, out.String())
		}
	}
	if status := run([]string{"datasets", "imagenet"}, &out, &errOut); status != 2 || !strings.Contains(errOut.String(), `unknown dataset "imagenet"`) {
		t.Errorf("unknown dataset: exit %d, stderr %q", status, errOut.String())
	}
}

func TestConvert(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.svm")
	os.WriteFile(in, []byte("+1 1:0.5 3:2\n-1 2:1\n"), 0o644)
	out := filepath.Join(dir, "out.cache")
	var stdout, stderr bytes.Buffer
	if status := run([]string{"convert", in, out}, &stdout, &stderr); status != 0 {
		t.Fatalf("convert exited %d: %s", status, stderr.String())
	}
	// Half the values stored: the cache is written dense, every value stored.
	if !strings.Contains(stdout.String(), "(cache, dense rows): 2 rows, 3 features, 6 values (1 positive, 1 negative)") {
		t.Errorf("convert said %q", stdout.String())
	}
	// The cache converts again (ReadFile recognises it) to the same content.
	again := filepath.Join(dir, "again.cache")
	if status := run([]string{"convert", out, again}, &stdout, &stderr); status != 0 {
		t.Fatalf("convert of a cache exited %d: %s", status, stderr.String())
	}
	a, _ := os.ReadFile(out)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Error("converting a cache changed it")
	}

	bad := filepath.Join(dir, "bad.svm")
	os.WriteFile(bad, []byte("+1 1:0.5\n-1 3:1 2:1\n"), 0o644)
	stderr.Reset()
	status := run([]string{"convert", bad, filepath.Join(dir, "bad.cache")}, &stdout, &stderr)
	if status != 2 || !strings.Contains(stderr.String(), "bad.svm:2:8: feature indices not strictly increasing (2 after 3)") {
		t.Errorf("bad input: exit %d, stderr %q", status, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.cache")); !os.IsNotExist(err) {
		t.Error("a failed convert left an output file")
	}
	for _, args := range [][]string{{"convert", in}, {"convert"}, {"convert", in, in}} {
		stderr.Reset()
		if status := run(args, &stdout, &stderr); status != 2 {
			t.Errorf("%q: exit %d, want 2 (the user's input)", args, status)
		}
	}
}

// TestDatasetsFetch fetches heart from a local mirror through the command (the public
// file is the shared copy, decompressed): one line per file, then `datasets` finds it
// there; the refusals exit 2 and a host that is down exits 1, each with one line.
func TestDatasetsFetch(t *testing.T) {
	stored, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "heart", "heart_scale.xz"))
	if err != nil {
		t.Skipf("../shared/data absent (%v): skipping", err)
	}
	z, err := xz.NewReader(bytes.NewReader(stored))
	if err != nil {
		t.Fatal(err)
	}
	public, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/heart_scale") {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, "heart_scale", time.Time{}, bytes.NewReader(public))
	}))
	defer srv.Close()
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	var out, errOut bytes.Buffer
	if status := run([]string{"datasets", "fetch", "--mirror", srv.URL, "heart"}, &out, &errOut); status != 0 {
		t.Fatalf("fetch exited %d: %s", status, errOut.String())
	}
	want := fmt.Sprintf("heart            %s: %d bytes, SHA-256 checked\n", filepath.Join(dir, "heart", "heart_scale"), len(public))
	if out.String() != want {
		t.Errorf("fetch printed %q, want %q", out.String(), want)
	}
	out.Reset()
	if status := run([]string{"datasets", "heart"}, &out, &errOut); status != 0 || !strings.Contains(out.String(), "heart  270         -          13        120        2        "+dir) {
		t.Errorf("datasets after fetch: exit %d\n%s", status, out.String())
	}

	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"no directory", []string{"fetch", "--dir", "", "heart"}, 2, "give --dir DIR or set $AUCOPT_DATA"},
		{"nothing named", []string{"fetch"}, 2, "give the datasets to fetch"},
		{"both", []string{"fetch", "--all", "heart"}, 2, "not both"},
		{"unknown", []string{"fetch", "imagenet"}, 2, `unknown dataset "imagenet"`},
		{"converted", []string{"fetch", "australian"}, 2, "not downloadable: converted here"},
		{"host down", []string{"fetch", "--mirror", down.URL, "german"}, 1, "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runFailing(t, "datasets", tt.args, tt.status, tt.want)
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "german.numer")); !os.IsNotExist(err) {
		t.Errorf("a failed fetch left its directory: %v", err)
	}
}

// TestConvertShardsDataset: convert takes a dataset name (its train or test split) and
// writes --shards files whose concatenation in name order is the split, the same bytes
// on a second run; flags that cannot apply are refused with exit 2 and nothing written.
func TestConvertShardsDataset(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a
	sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		split string
		n     int
		want  *data.Dataset
	}{{"train", 4, sp.Train}, {"test", 3, sp.Test}} {
		out := filepath.Join(dir, tt.split, "part.svm")
		os.Mkdir(filepath.Dir(out), 0o755)
		var first [][]byte
		for run1 := range 2 {
			var stdout, stderr bytes.Buffer
			if status := run([]string{"convert", "--shards", strconv.Itoa(tt.n), "--split", tt.split, "a9a", out}, &stdout, &stderr); status != 0 {
				t.Fatalf("convert --split %s exited %d: %s", tt.split, status, stderr.String())
			}
			want := fmt.Sprintf("a9a (%s split) → %s … %s (libsvm, %d shards): %d rows", tt.split, data.ShardPaths(out, tt.n)[0], data.ShardPaths(out, tt.n)[tt.n-1], tt.n, tt.want.Rows())
			if !strings.HasPrefix(stdout.String(), want) {
				t.Errorf("convert said %q, want %q…", stdout.String(), want)
			}
			var all bytes.Buffer
			for s, p := range data.ShardPaths(out, tt.n) {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if run1 == 0 {
					first = append(first, b)
				} else if !bytes.Equal(b, first[s]) {
					t.Errorf("%s differs on a second run", p)
				}
				all.Write(b)
			}
			var whole bytes.Buffer
			if err := data.WriteLibSVM(&whole, tt.want); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(all.Bytes(), whole.Bytes()) {
				t.Errorf("the %s shards in name order are not the %s split", tt.split, tt.split)
			}
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--shards", "2", "--positive", "1", "a9a"}, "a9a is a dataset name: --positive only apply to data files"},
		{[]string{"--split", "test", "german"}, "dataset german has no test split"},
		{[]string{"--split", "valid", "a9a"}, `--split "valid"`},
		{[]string{"--shards", "0", "a9a"}, "--shards 0: want 1 to"},
		{[]string{"--split", "test", filepath.Join(dir, "train", "part-0.svm")}, "--split test applies to a dataset name"},
	} {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "x.svm")
		status := run(append(append([]string{"convert"}, tt.args...), out), &stdout, &stderr)
		if status != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("convert %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), status, stderr.String(), tt.want)
		}
		if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) > 0 {
			t.Errorf("convert %s left %d files", strings.Join(tt.args, " "), len(ents))
		}
	}
}
