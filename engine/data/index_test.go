package data

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

var update = flag.Bool("update", false, "rewrite datasets.tsv from ../shared/data")

// notFetchable names the stored copies made here from another format, with the reason
// datasets.tsv gives for each.
var notFetchable = map[string]string{
	"fashion-mnist": "converted here from the IDX files of Debian's dataset-fashion-mnist package (fashion-mnist.scale: pixels / 255)",
	"australian":    "converted here from the UCI australian.dat layout (class 1 -> +1, 0 -> -1)",
	"breast-cancer": "converted here from a dense re-export of LIBSVM's breast-cancer_scale (4 -> +1, 2 -> -1)",
	"magic04":       "converted here from the UCI magic04.data CSV (g -> +1, h -> -1)",
}

// manifestSources reads ../shared/data/MANIFEST.tsv's source columns: file →
// repository, path and commit.
func manifestSources(t *testing.T) map[string][3]string {
	f, err := os.Open(filepath.Join(sharedData, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real datasets absent (%v): skipping", err)
	}
	defer f.Close()
	out := map[string][3]string{}
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		out[col[1]] = [3]string{col[6], col[7], col[8]}
	}
	return out
}

// measureFile computes a file's line of datasets.tsv from the stored copy in dir.
func measureFile(t *testing.T, src KnownDataset, file string, origin [3]string) fileFacts {
	path := filepath.Join(sharedData, file)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	f := fileFacts{File: file, Size: int64(len(raw)), SHA256: hex.EncodeToString(sum[:])}
	d, err := ReadFile(path, Options{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	f.Rows, f.Dim, f.Labels = d.Rows(), d.Dim, counts(d.Labels)
	if src.TrainRows > 0 {
		f.TrainLabels = counts(d.Labels[:src.TrainRows])
	}
	if why, ok := notFetchable[src.Name]; ok {
		f.FetchComment = why
		return f
	}
	public := raw // the .bz2 files are stored as published
	if strings.HasSuffix(file, ".xz") {
		z, err := xz.NewReader(strings.NewReader(string(raw)))
		if err != nil {
			t.Fatal(err)
		}
		if public, err = io.ReadAll(z); err != nil {
			t.Fatal(err)
		}
	}
	if filepath.Base(origin[1]) != filepath.Base(fetchedName(file)) && !strings.HasSuffix(file, ".bz2") {
		f.FetchComment = fmt.Sprintf("published as %s", filepath.Base(origin[1]))
	}
	fs := sha256.Sum256(public)
	f.URL = fmt.Sprintf("%s/%s/%s/%s", GitHubRaw, origin[0], origin[2], origin[1])
	f.FetchSHA256, f.FetchSize = hex.EncodeToString(fs[:]), int64(len(public))
	return f
}

func counts(labels []float64) map[float64]int {
	m := map[float64]int{}
	for _, l := range labels {
		m[l]++
	}
	return m
}

// TestIndex measures every registered file of ../shared/data and compares it with its
// line of datasets.tsv (go test -run TestIndex -update rewrites the table): the index
// that `aucopt datasets` lists from and `aucopt datasets fetch` checks downloads by.
func TestIndex(t *testing.T) {
	origins := manifestSources(t)
	if testing.Short() && !*update {
		t.Skip("short mode: the index is checked against every file in the full run")
	}
	idx, err := index()
	if err != nil {
		t.Fatal(err)
	}
	measured := map[string]fileFacts{}
	for _, src := range KnownDatasets {
		for _, file := range src.files() {
			origin, ok := origins[file]
			if !ok {
				t.Fatalf("%s is not in MANIFEST.tsv", file)
			}
			measured[file] = measureFile(t, src, file, origin)
		}
	}
	text := formatIndex(measured)
	if *update {
		if err := os.WriteFile("datasets.tsv", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if text != datasetsTSV {
		t.Errorf("datasets.tsv differs from the files of %s: run go test -run TestIndex -update", sharedData)
	}
	if len(idx) != len(measured) {
		t.Errorf("index has %d files, the registry %d", len(idx), len(measured))
	}
}

// TestIndexParse: the embedded table parses, covers every registered file, and a
// damaged copy is refused with its line.
func TestIndexParse(t *testing.T) {
	idx, err := index()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range KnownDatasets {
		for _, file := range src.files() {
			f, ok := idx[file]
			switch {
			case !ok:
				t.Errorf("%s: not in datasets.tsv", file)
			case f.Rows <= 0 || f.Dim <= 0 || len(f.Labels) < 2 || len(f.SHA256) != 64:
				t.Errorf("%s: %+v", file, f)
			case (f.URL == "") != (f.FetchSHA256 == ""), f.URL == "" && f.FetchComment == "":
				t.Errorf("%s: address %q, SHA-256 %q, comment %q", file, f.URL, f.FetchSHA256, f.FetchComment)
			}
		}
	}
	lines := strings.SplitAfter(datasetsTSV, "\n")
	bad := lines[0] + strings.Replace(lines[1], "\t", "\tx", 3)
	if _, err := parseIndex(bad); err == nil || !strings.HasPrefix(err.Error(), "datasets.tsv:2: ") {
		t.Errorf("damaged line: error %v, want datasets.tsv:2", err)
	}
}
