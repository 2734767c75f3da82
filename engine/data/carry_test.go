package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestScoringOptions: a table read with a model's schema under the scoring options:
// extra columns refused all named (an *ExtraColumnsError), unless Ignore, Carry or
// AllowExtra accounts for them; feature columns it lacks refused all named; Ignore
// cannot drop a feature or the label; Missing replaces the schema's policy. The rows
// read are those of the same file without its extra columns.
func TestScoringOptions(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte("label,a,b,c\n1,1,x,5\n0,2,y,6\n"), 0o644)
	_, sch, err := ReadTableFile(train, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const scoring = "id,c,b,a,label,when\nu1,7,y,3,0,mon\nu2,0,x,4,1,tue\n"
	const same = "c,b,a,label\n7,y,3,0\n0,x,4,1\n" // scoring's rows without the extra columns
	tests := []struct {
		name, text string
		opt        TableOptions
		msg        string   // the error's, "" when it is read
		extra      []string // the ExtraColumnsError's columns
		same       string   // a table with the same rows, read with the schema alone
		skipped    int
	}{
		{"extra columns refused", scoring, TableOptions{}, `:1: bad columns: columns "id", "when" were not in the model's training data`, []string{"id", "when"}, "", 0},
		{"one extra column refused", scoring, TableOptions{Ignore: []string{"when"}}, `column "id" was not in`, []string{"id"}, "", 0},
		{"extra columns ignored", scoring, TableOptions{Ignore: []string{"when", "id"}}, "", nil, same, 0},
		{"extra columns allowed", scoring, TableOptions{AllowExtra: true}, "", nil, same, 0},
		{"carried and ignored", scoring, TableOptions{Ignore: []string{"when"}, Carry: &Carry{Columns: []string{"id"}}}, "", nil, same, 0},
		{"columns reordered", "label,a,b,c\n0,3,y,7\n1,4,x,0\n", TableOptions{}, "", nil, same, 0},
		{"a feature ignored", scoring, TableOptions{Ignore: []string{"a", "id", "when"}}, `column "a" is a feature of the model, it cannot be left out`, nil, "", 0},
		{"the label ignored", scoring, TableOptions{Ignore: []string{"label"}, AllowExtra: true}, `"label" is the model's label column`, nil, "", 0},
		{"an absent column ignored", scoring, TableOptions{Ignore: []string{"nope"}, AllowExtra: true}, `no column "nope" to leave out`, nil, "", 0},
		{"an absent column carried", scoring, TableOptions{AllowExtra: true, Carry: &Carry{Columns: []string{"nope"}}}, `no column "nope"`, nil, "", 0},
		{"feature columns missing", "id,label,b\nu1,0,y\n", TableOptions{AllowExtra: true}, `:1: bad columns: no columns "a", "c", which the model was trained on`, nil, "", 0},
		{"a feature column missing", "label,a,b\n0,3,y\n", TableOptions{}, `no column "c", which the model was trained on`, nil, "", 0},
		{"empty cell refused", "c,b,a,label\n,y,3,0\n0,x,4,1\n", TableOptions{}, `.csv:2:1: column "c": missing value`, nil, "", 0},
		{"empty cell zero", "c,b,a,label\n,y,3,0\n0,x,4,1\n", TableOptions{Missing: MissingZero}, "", nil, "c,b,a,label\n0,y,3,0\n0,x,4,1\n", 0},
		{"empty cell skipped", "c,b,a,label\n7,y,3,0\n0,,4,1\n", TableOptions{Missing: MissingSkip}, "", nil, "c,b,a,label\n7,y,3,0\n", 1},
		{"bad policy", scoring, TableOptions{Missing: "drop", AllowExtra: true}, `missing-value policy "drop"`, nil, "", 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("s%d.csv", i))
			os.WriteFile(p, []byte(tt.text), 0o644)
			opt := tt.opt
			opt.Schema = sch
			if opt.Carry == nil {
				opt.Carry = &Carry{}
			}
			d, _, err := ReadTableFile(p, Options{Table: &opt})
			if tt.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line saying %q", err, tt.msg)
				}
				var ec *ExtraColumnsError
				if errors.As(err, &ec) != (tt.extra != nil) || tt.extra != nil && (!slices.Equal(ec.Columns, tt.extra) || !errors.Is(err, ErrColumn)) {
					t.Errorf("error %v: extra columns %+v, want %q", err, ec, tt.extra)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ref := filepath.Join(dir, fmt.Sprintf("s%d-same.csv", i))
			os.WriteFile(ref, []byte(tt.same), 0o644)
			want, _, err := ReadTableFile(ref, Options{Table: &TableOptions{Schema: sch}})
			if err != nil {
				t.Fatal(err)
			}
			sameData(t, tt.name, d, want)
			if opt.Carry.Skipped != tt.skipped {
				t.Errorf("%d rows skipped, want %d", opt.Carry.Skipped, tt.skipped)
			}
		})
	}
	if _, _, err := ReadTableFile(train, Options{Table: &TableOptions{AllowExtra: true}}); err == nil || !strings.Contains(err.Error(), "needs the schema of a model") {
		t.Errorf("AllowExtra without a schema: error %v", err)
	}
}

// TestCarry: the carried columns' text and the label's, row by row, as the file writes
// them (a CSV cell unquoted and trimmed, a Parquet value in text), none for a skipped
// row; the rows read are those read without a Carry.
func TestCarry(t *testing.T) {
	dir := t.TempDir()
	type row struct {
		ID    int64    `parquet:"id"`
		Label string   `parquet:"label"`
		X     *float64 `parquet:"x,optional"`
		Name  string   `parquet:"name"`
	}
	one, two := 1.5, 2.0
	writeParquet(t, filepath.Join(dir, "t.parquet"), []row{{7, "yes", &one, "a"}, {-3, "no", nil, "b"}, {12, "no", &two, "c,d"}})
	os.WriteFile(filepath.Join(dir, "t.csv"), []byte("id,label,x,name\n7, yes ,1.5,a\n-3,no,,b\n12,no,2,\"c,d\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "u.csv"), []byte("name,x,id\na,1.5,7\nb,,-3\n\"c,d\",2,12\n"), 0o644)
	sch := &Schema{Label: "label", Positive: "yes", Numeric: []string{"x"}, Hash: HashMurmur3Canonical, HashBits: 4, Missing: MissingZero, Ignored: []string{"name"}}
	tests := []struct {
		file       string
		columns    []string
		missing    string
		unlabelled bool
		text       []string
		labels     []string
		skipped    int
	}{
		{"t.csv", []string{"id"}, "", false, []string{"7", "-3", "12"}, []string{"yes", "no", "no"}, 0},
		{"t.parquet", []string{"id"}, "", false, []string{"7", "-3", "12"}, []string{"yes", "no", "no"}, 0},
		{"t.csv", []string{"name", "id"}, "", false, []string{"a", "7", "b", "-3", "c,d", "12"}, []string{"yes", "no", "no"}, 0},
		{"t.parquet", []string{"x", "label"}, "", false, []string{"1.5", "yes", "", "no", "2", "no"}, []string{"yes", "no", "no"}, 0},
		{"t.csv", []string{"id"}, MissingSkip, false, []string{"7", "12"}, []string{"yes", "no"}, 1},
		{"t.parquet", []string{"id"}, MissingSkip, false, []string{"7", "12"}, []string{"yes", "no"}, 1},
		{"t.csv", nil, "", false, nil, []string{"yes", "no", "no"}, 0},
		{"u.csv", []string{"id"}, "", true, []string{"7", "-3", "12"}, nil, 0},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%d %s %v %s", i, tt.file, tt.columns, tt.missing), func(t *testing.T) {
			p := filepath.Join(dir, tt.file)
			base := TableOptions{Schema: sch, Missing: tt.missing, Unlabelled: tt.unlabelled, AllowExtra: true}
			plain, _, err := ReadTableFile(p, Options{Table: &base})
			if err != nil {
				t.Fatal(err)
			}
			c := &Carry{Columns: tt.columns, Label: true}
			opt := base
			opt.Carry = c
			d, _, err := ReadTableFile(p, Options{Table: &opt})
			if err != nil {
				t.Fatal(err)
			}
			sameData(t, tt.file, d, plain)
			if !slices.Equal(c.Text, tt.text) || !slices.Equal(c.Labels, tt.labels) || c.Skipped != tt.skipped {
				t.Errorf("carried %q, labels %q, %d skipped; want %q, %q, %d", c.Text, c.Labels, c.Skipped, tt.text, tt.labels, tt.skipped)
			}
			for i := 1; i < len(c.Labels); i++ { // one string for each label text, not one a row
				if j := slices.Index(c.Labels, c.Labels[i]); j < i && unsafe.StringData(c.Labels[j]) != unsafe.StringData(c.Labels[i]) {
					t.Errorf("rows %d and %d hold label %q in two strings", j+1, i+1, c.Labels[i])
				}
			}
			if len(tt.columns) > 0 && (c.Rows() != d.Rows() || !slices.Equal(c.Row(d.Rows()-1), tt.text[len(tt.text)-len(tt.columns):])) {
				t.Errorf("%d rows carried, last %q; %d read", c.Rows(), c.Row(c.Rows()-1), d.Rows())
			}
		})
	}
}
