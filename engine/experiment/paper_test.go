package experiment

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestPublishedGolden checks that every published cell is exactly (to the bit) the value
// in testdata/published.golden, written from the row(...) transcriptions the TSV
// replaced, and that there are no other cells.
func TestPublishedGolden(t *testing.T) {
	f, err := os.Open("testdata/published.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 6 {
			t.Fatalf("published.golden:%d: %d fields, want 6", line, len(fields))
		}
		mean, err1 := strconv.ParseFloat(fields[3], 64)
		std, err2 := strconv.ParseFloat(fields[4], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("published.golden:%d: %v %v", line, err1, err2)
		}
		want++
		p, d, a := fields[0], fields[1], fields[2]
		got, ok := Published(p, d, a)
		if w := (PaperCell{Mean: mean, Std: std, Source: fields[5]}); !ok || got != w {
			t.Errorf("Published(%s, %s, %s) = %+v, %v; want %+v", p, d, a, got, ok, w)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	table, err := publishedTable()
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, ds := range table {
		for _, as := range ds {
			got += len(as)
		}
	}
	if got != want {
		t.Errorf("%d published cells, want the golden's %d", got, want)
	}
}

// TestParsePublishedErrors checks that a malformed TSV is refused with its line named.
func TestParsePublishedErrors(t *testing.T) {
	const head = "# comment\nprotocol\tsource\tdataset\talgo\tmean\tstd\tscale\n"
	for _, tc := range []struct {
		name, tsv, want string
	}{
		{"no header", "# only a comment\n", "published.tsv: no header line"},
		{"wrong header", "protocol\tdataset\n", "published.tsv:1: header"},
		{"fields", head + "opauc\tT2\ta9a\topauc\t.9\n", "published.tsv:3: 5 fields, want 7"},
		{"empty name", head + "opauc\tT2\t\topauc\t.9\t.01\t1\n", "published.tsv:3: empty"},
		{"mean", head + "opauc\tT2\ta9a\topauc\t.9x\t.01\t1\n", "published.tsv:3: mean"},
		{"std", head + "opauc\tT2\ta9a\topauc\t.9\t-\t1\n", "published.tsv:3: std"},
		{"scale", head + "opauc\tT2\ta9a\topauc\t.9\t.01\t10\n", `published.tsv:3: scale "10"`},
		{"twice", head + "opauc\tT2\ta9a\topauc\t.9\t.01\t1\n\nopauc\tT3\ta9a\topauc\t.8\t.01\t1\n", "published.tsv:5: opauc a9a opauc given twice"},
	} {
		if _, err := parsePublished([]byte(tc.tsv)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	got, err := parsePublished([]byte(head + "mba\tT3\ta9a\tolr\t90.17\t0.03\t100\n"))
	mean, std, scale := 90.17, 0.03, 100.0 // divided at run time, as the parser does
	if want := (PaperCell{Mean: mean / scale, Std: std / scale, Source: "T3"}); err != nil || got["mba"]["a9a"]["olr"] != want {
		t.Errorf("parsePublished(one percent cell) = %v, %v; want %+v", got, err, want)
	}
}
