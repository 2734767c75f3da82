package data

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestShardPaths(t *testing.T) {
	tests := []struct {
		out  string
		n    int
		want []string
	}{
		{"a.svm", 1, []string{"a.svm"}},
		{"train/part.svm", 3, []string{"train/part-0.svm", "train/part-1.svm", "train/part-2.svm"}},
		{"p.csv", 11, []string{"p-00.csv", "p-01.csv", "p-02.csv", "p-03.csv", "p-04.csv", "p-05.csv", "p-06.csv", "p-07.csv", "p-08.csv", "p-09.csv", "p-10.csv"}},
		{"dir.d/cache", 2, []string{"dir.d/cache-0", "dir.d/cache-1"}},
	}
	for _, tt := range tests {
		if got := ShardPaths(tt.out, tt.n); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShardPaths(%q, %d) = %q, want %q", tt.out, tt.n, got, tt.want)
		}
	}
}

// TestConvertShards: the shards have the rows ConvertShards promises (consecutive
// runs, the first ones longer), their concatenation in name order is the one-file
// conversion, and a second run writes the same bytes; a failure changes no shard.
func TestConvertShards(t *testing.T) {
	dir := t.TempDir()
	var svm, csv strings.Builder
	csv.WriteString("id,color,x,label\n")
	for i := range 23 {
		y := -1
		if i%3 == 0 {
			y = 1
		}
		fmt.Fprintf(&svm, "%+d 1:%d 3:%g 7:1\n", y, i, float64(i)/4)
		fmt.Fprintf(&csv, "u%d,%s,%g,%d\n", i, []string{"red", "blue", "green"}[i%3], float64(i)/8, (y+1)/2)
	}
	svmIn := filepath.Join(dir, "in.svm")
	csvIn := filepath.Join(dir, "in.csv")
	for p, text := range map[string]string{svmIn: svm.String(), csvIn: csv.String()} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, in, out string
		opts          Options
		n             int
	}{
		{"libsvm to libsvm", svmIn, "s.svm", Options{}, 4},
		{"libsvm to cache", svmIn, "c.cache", Options{}, 3},
		{"libsvm to csv", svmIn, "t.csv", Options{}, 5},
		{"csv to csv (copied)", csvIn, "k.csv", Options{}, 4},
		{"csv to parquet (copied)", csvIn, "k.parquet", Options{}, 2},
		{"csv to tsv (copied), a row a shard", csvIn, "k.tsv", Options{}, 23},
		{"csv to libsvm (hashed)", csvIn, "h.svm", Options{Table: &TableOptions{Label: "label", Ignore: []string{"id"}, HashBits: 4}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := t.TempDir()
			whole := filepath.Join(sub, "whole-"+tt.out)
			if _, err := ConvertShards(tt.in, whole, 1, tt.opts); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(sub, tt.out)
			st, err := ConvertShards(tt.in, out, tt.n, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if st.Rows != 23 {
				t.Errorf("%d rows reported, want 23", st.Rows)
			}
			paths := ShardPaths(out, tt.n)
			first := map[string][]byte{}
			var rows []*Dataset
			total := 0
			for s, p := range paths {
				b, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				first[p] = b
				opts := Options{}
				if TableFormat(p) != "" {
					opts.Table = &TableOptions{Label: "label"}
					if strings.Contains(tt.name, "copied") {
						opts.Table.Ignore = []string{"id"}
					}
				}
				d, _, err := ReadTableFile(p, opts)
				if err != nil {
					t.Fatalf("shard %s: %v", p, err)
				}
				if want := (s+1)*23/tt.n - s*23/tt.n; d.Rows() != want {
					t.Errorf("shard %d: %d rows, want %d", s, d.Rows(), want)
				}
				total += d.Rows()
				rows = append(rows, d)
			}
			if total != 23 {
				t.Errorf("the shards hold %d rows, want 23", total)
			}
			// The union, in name order, is the one-file conversion: compared as the
			// rows read back (a table's header repeats in each shard).
			opts := Options{}
			if TableFormat(whole) != "" {
				opts.Table = &TableOptions{Label: "label"}
				if strings.Contains(tt.name, "copied") {
					opts.Table.Ignore = []string{"id"}
				}
			}
			w, _, err := ReadTableFile(whole, opts)
			if err != nil {
				t.Fatal(err)
			}
			i := 0
			for _, d := range rows {
				for r := range d.Rows() {
					if !reflect.DeepEqual(d.Row(r), w.Row(i)) || d.Labels[r] != w.Labels[i] {
						t.Fatalf("row %d of the shards differs from the one-file conversion's: %v %v, want %v %v", i, d.Labels[r], d.Row(r), w.Labels[i], w.Row(i))
					}
					i++
				}
			}
			// Deterministic: the same bytes again.
			if _, err := ConvertShards(tt.in, out, tt.n, tt.opts); err != nil {
				t.Fatal(err)
			}
			for _, p := range paths {
				if b, err := os.ReadFile(p); err != nil || !bytes.Equal(b, first[p]) {
					t.Errorf("%s differs on a second run (%v)", p, err)
				}
			}
		})
	}
	t.Run("a failure changes no shard", func(t *testing.T) {
		sub := t.TempDir()
		out := filepath.Join(sub, "p.svm")
		paths := ShardPaths(out, 3)
		if err := os.WriteFile(paths[0], []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(paths[2], 0o755); err != nil { // the last shard cannot be written
			t.Fatal(err)
		}
		_, err := ConvertShards(svmIn, out, 3, Options{})
		if err == nil || !strings.Contains(err.Error(), paths[2]) || strings.Count(err.Error(), "writing") != 1 {
			t.Fatalf("error %v, want one naming %s once", err, paths[2])
		}
		if b, _ := os.ReadFile(paths[0]); string(b) != "old\n" {
			t.Errorf("%s changed: %q", paths[0], b)
		}
		ents, _ := os.ReadDir(sub)
		if len(ents) != 2 {
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			t.Errorf("left %q, want only p-0.svm and the directory p-2.svm", names)
		}
	})
	t.Run("shard count", func(t *testing.T) {
		for _, n := range []int{0, -1, MaxShards + 1} {
			if _, err := ConvertShards(svmIn, filepath.Join(t.TempDir(), "x.svm"), n, Options{}); err == nil {
				t.Errorf("%d shards accepted", n)
			}
		}
	})
}
