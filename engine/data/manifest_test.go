package data

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// sharedData is ../shared/data seen from this package's directory.
var sharedData = filepath.Join("..", "..", "..", "shared", "data")

// TestManifest reads every file of ../shared/data and checks its row count, largest
// index and label counts against MANIFEST.tsv.
func TestManifest(t *testing.T) {
	f, err := os.Open(filepath.Join(sharedData, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real datasets absent (%v): skipping", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		file, rows, maxIdx, labels := col[1], col[3], col[4], col[5]
		t.Run(file, func(t *testing.T) {
			if testing.Short() && !strings.Contains(file, "german") && !strings.Contains(file, "splice") {
				t.Skip("short mode: only german and splice")
			}
			t.Parallel()
			d, err := ReadFile(filepath.Join(sharedData, file), Options{Raw: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := strconv.Itoa(d.Rows()); got != rows {
				t.Errorf("rows = %s, want %s", got, rows)
			}
			if got := strconv.Itoa(d.Dim); got != maxIdx {
				t.Errorf("max index = %s, want %s", got, maxIdx)
			}
			counts := map[float64]int{}
			for _, l := range d.Labels {
				counts[l]++
			}
			if f := strings.Fields(labels); len(f) > 1 && (f[1] == "classes" || f[1] == "distinct") {
				// multi-class: MANIFEST gives only the number of classes
				if n, err := strconv.Atoi(f[0]); err != nil || len(counts) != n {
					t.Errorf("%d distinct labels, MANIFEST says %q", len(counts), labels)
				}
				return
			}
			for _, kv := range strings.Split(labels, ",") {
				k, v, _ := strings.Cut(kv, ":")
				label, err1 := strconv.ParseFloat(k, 64)
				n, err2 := strconv.Atoi(v)
				if err1 != nil || err2 != nil {
					t.Fatalf("MANIFEST label entry %q unreadable", kv)
				}
				if counts[label] != n {
					t.Errorf("label %s: %d rows, want %d", k, counts[label], n)
				}
				delete(counts, label)
			}
			if len(counts) > 0 {
				t.Errorf("labels not in MANIFEST: %v", counts)
			}
		})
	}
}
