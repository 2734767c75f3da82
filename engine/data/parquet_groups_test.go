package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// groupsTable writes a Parquet table of rows rows in row groups of group rows: a 0/1
// label, a numeric column with nulls, two hashed text columns whose buckets collide
// (6 bits), the label of row bad (0-based; -1: none) set to label.
func groupsTable(t *testing.T, rows, group, bad int, label float64) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewTableWriter(&buf, "parquet", []TableColumn{{Name: "y"}, {Name: "x"}, {Name: "a", Text: true}, {Name: "b", Text: true}}, group)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, uint64(rows)))
	for i := range rows {
		y := float64(rng.IntN(2))
		if i == bad {
			y = label
		}
		row := []Cell{{Num: y}, {Num: rng.NormFloat64()}, {Str: fmt.Sprint("a", rng.IntN(40))}, {Str: fmt.Sprint("b", rng.IntN(300))}}
		if rng.IntN(9) == 0 {
			row[1] = Cell{Null: true}
		}
		if rng.IntN(13) == 0 {
			row[1] = Cell{Num: 0} // a stored zero: not a value
		}
		if err := w.WriteRow(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "t.parquet")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// openTableSource opens the table path with o for the test (closed at its end) and
// returns the Reader and its table source.
func openTableSource[S tableSource](t *testing.T, path string, o Options) (*Reader, S) {
	t.Helper()
	r, err := Open(path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, r.table.(S)
}

// TestReadParquetGroups: a table's row groups read at once make the dataset the rows
// read one by one make, bit for bit, whatever the workers, the missing-value policy and
// the groups' sizes; a read that must be sequential (one group, a vocabulary beyond the
// first group) says so, and a bad label gives the sequential read's error.
func TestReadParquetGroups(t *testing.T) {
	open := func(path string, o Options) (*Reader, *parquetSource) {
		return openTableSource[*parquetSource](t, path, o)
	}
	for _, tc := range []struct {
		name         string
		rows, group  int
		missing      string
		vocab        bool
		workers      int
		wantParallel bool
	}{
		{"groups of 256, zero", 3000, 256, MissingZero, false, 3, true},
		{"groups of 256, skip", 3000, 256, MissingSkip, false, 2, true},
		{"groups of 1000, 8 workers", 3000, 1000, MissingZero, false, 8, true},
		{"one group", 3000, 5000, MissingZero, false, 4, false},
		{"vocabulary past the first group", 3000, 256, MissingZero, true, 4, false},
		{"one worker", 3000, 256, MissingZero, false, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := groupsTable(t, tc.rows, tc.group, -1, 0)
			o := Options{Table: &TableOptions{Label: "y", HashBits: 6, Missing: tc.missing}}
			if tc.vocab {
				o.Vocab = NewVocab()
			}
			r1, _ := open(path, o)
			want, err := readRows(context.Background(), r1)
			if err != nil {
				t.Fatal(err)
			}
			if tc.vocab {
				o.Vocab = NewVocab()
			}
			r2, s2 := open(path, o)
			got, ok, err := readParquetGroups(context.Background(), r2, s2, tc.workers)
			if err != nil || ok != tc.wantParallel {
				t.Fatalf("readParquetGroups: ok %v, %v; want ok %v", ok, err, tc.wantParallel)
			}
			if !ok {
				return
			}
			got.Dim = want.Dim // readAllContext sets both to the schema's
			if !reflect.DeepEqual(got, want) {
				t.Errorf("groups read at once: %d rows, %d values; one by one: %d rows, %d values, or other bits",
					got.Rows(), len(got.Idx), want.Rows(), len(want.Idx))
			}
			if tc.missing == MissingSkip && got.Rows() == tc.rows {
				t.Errorf("no row skipped: the test's nulls are lost")
			}
		})
	}
	// A third label in a later group: the groups read at once defer to the sequential
	// read, whose error names the row.
	path := groupsTable(t, 3000, 256, 2500, 2)
	o := Options{Table: &TableOptions{Label: "y", HashBits: 6, Missing: MissingZero}}
	r1, _ := open(path, o)
	_, want := readRows(context.Background(), r1)
	r2, s2 := open(path, o)
	if _, ok, err := readParquetGroups(context.Background(), r2, s2, 3); ok || err != nil {
		t.Errorf("a third label: ok %v, %v; want the sequential read", ok, err)
	}
	r3, _ := open(path, o)
	if _, err := readAllContext(context.Background(), r3); want == nil || err == nil || err.Error() != want.Error() || !errors.Is(err, ErrLabel) {
		t.Errorf("a third label: error %v, want the sequential read's %v", err, want)
	}
	// A cancelled read stops with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r4, s4 := open(path, o)
	if _, _, err := readParquetGroups(ctx, r4, s4, 3); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}
