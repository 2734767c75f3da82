package data

import (
	_ "embed"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// datasetsTSV records, for every file of KnownDatasets, the facts that listing and fetching
// need without reading the file: its stored size and SHA-256, its row count, largest
// feature index and label counts (of the whole file and, for a dataset whose training
// rows come first, of those rows), and where to download it (the public file the stored
// copy was compressed from, and that file's SHA-256 and size). TestIndex checks every
// line against the files of shared/data and rewrites the table with -update.
//
//go:embed datasets.tsv
var datasetsTSV string

// fileFacts is one line of datasets.tsv.
type fileFacts struct {
	File         string          // the registry's file name (KnownDataset.Train or .Test)
	Size         int64           // bytes of the stored copy
	SHA256       string          // of the stored copy
	Rows, Dim    int             // rows and largest feature index
	Labels       map[float64]int // label counts of the whole file
	TrainLabels  map[float64]int // label counts of the first TrainRows rows, nil unless the KnownDataset has TrainRows
	URL          string          // where the public original is, "" when the stored copy was converted here
	FetchSHA256  string          // SHA-256 of the file at URL
	FetchSize    int64           // bytes of the file at URL
	FetchComment string          // why there is no URL, when there is none
}

// indexColumns is datasets.tsv's header.
var indexColumns = []string{"file", "size", "sha256", "rows", "dim", "labels", "train_labels", "url", "fetch_sha256", "fetch_size", "comment"}

// index parses datasets.tsv once.
var index = sync.OnceValues(func() (map[string]fileFacts, error) { return parseIndex(datasetsTSV) })

// parseIndex reads the table written by formatIndex.
func parseIndex(text string) (map[string]fileFacts, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) == 0 || lines[0] != strings.Join(indexColumns, "\t") {
		return nil, fmt.Errorf("datasets.tsv: header %q, want %q", lines[0], strings.Join(indexColumns, "\t"))
	}
	out := make(map[string]fileFacts, len(lines)-1)
	for i, line := range lines[1:] {
		col := strings.Split(line, "\t")
		if len(col) != len(indexColumns) {
			return nil, fmt.Errorf("datasets.tsv:%d: %d columns, want %d", i+2, len(col), len(indexColumns))
		}
		var f fileFacts
		var errs [7]error
		f.File, f.SHA256, f.URL, f.FetchSHA256, f.FetchComment = col[0], col[2], col[7], col[8], col[10]
		f.Size, errs[0] = strconv.ParseInt(col[1], 10, 64)
		f.Rows, errs[1] = strconv.Atoi(col[3])
		f.Dim, errs[2] = strconv.Atoi(col[4])
		f.Labels, errs[3] = parseCounts(col[5])
		if col[6] != "-" {
			f.TrainLabels, errs[4] = parseCounts(col[6])
		}
		if col[9] != "-" {
			f.FetchSize, errs[5] = strconv.ParseInt(col[9], 10, 64)
		}
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("datasets.tsv:%d: %w", i+2, err)
			}
		}
		out[f.File] = f
	}
	return out, nil
}

// parseCounts reads "label:count,label:count".
func parseCounts(s string) (map[float64]int, error) {
	m := map[float64]int{}
	for kv := range strings.SplitSeq(s, ",") {
		k, v, _ := strings.Cut(kv, ":")
		l, err1 := strconv.ParseFloat(k, 64)
		n, err2 := strconv.Atoi(v)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("label count %q: want label:count", kv)
		}
		m[l] = n
	}
	return m, nil
}

// formatCounts writes label counts in label order, as parseCounts reads them.
func formatCounts(m map[float64]int) string {
	var b strings.Builder
	for i, l := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s:%d", strconv.FormatFloat(l, 'g', -1, 64), m[l])
	}
	return b.String()
}

// formatIndex writes facts as datasets.tsv, in the order of KnownDatasets.
func formatIndex(facts map[string]fileFacts) string {
	var b strings.Builder
	b.WriteString(strings.Join(indexColumns, "\t") + "\n")
	for _, src := range KnownDatasets {
		for _, file := range src.files() {
			f := facts[file]
			train, size := "-", "-"
			if f.TrainLabels != nil {
				train = formatCounts(f.TrainLabels)
			}
			if f.URL != "" {
				size = strconv.FormatInt(f.FetchSize, 10)
			}
			fmt.Fprintf(&b, "%s\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", f.File, f.Size, f.SHA256, f.Rows, f.Dim,
				formatCounts(f.Labels), train, f.URL, f.FetchSHA256, size, f.FetchComment)
		}
	}
	return b.String()
}

// files lists the source's files, training file first.
func (s KnownDataset) files() []string {
	if s.Test == "" {
		return []string{s.Train}
	}
	return []string{s.Train, s.Test}
}

// Info is what `aucopt datasets` shows of a registered dataset.
type Info struct {
	KnownDataset KnownDataset
	Rows         int // training rows
	TestRows     int // test rows, 0 without a split
	Features     int
	Positives    int // training rows labelled positive (multi-class: after the grouping of LoadOptions.Seed)
	// Where is the directory the files are in, or "embedded".
	Where string
	// Indexed reports whether the figures come from the recorded index (the files are
	// the registry's, by size); otherwise the files were read.
	Indexed bool
}

// Describe returns the facts of the registered dataset name without reading its files
// when they are the registry's copies (their sizes match the index), or by loading
// them otherwise (a file of the same name but other contents: its figures, not the
// index's). A dataset that is nowhere is an error that says where it was looked for.
func Describe(name string, opts LoadOptions) (Info, error) {
	src, err := Lookup(name)
	if err != nil {
		return Info{}, err
	}
	idx, err := index()
	if err != nil {
		return Info{}, err
	}
	info := Info{KnownDataset: src}
	_, where, err := locate(src)
	if err != nil {
		return info, err
	}
	info.Where = where
	indexed := true
	if where != "embedded" {
		for _, file := range src.files() {
			st, err := os.Stat(filepath.Join(where, file))
			if err != nil {
				st, err = os.Stat(filepath.Join(where, fetchedName(file)))
				if err == nil && st.Size() == idx[file].FetchSize {
					continue
				}
			}
			if err != nil || st.Size() != idx[file].Size {
				indexed = false
			}
		}
	}
	if !indexed {
		sp, err := Load(name, opts)
		if err != nil {
			return info, err
		}
		info.Rows, info.Features = sp.Train.Rows(), sp.Train.Dim
		info.Positives, _ = sp.Train.Counts()
		if sp.Test != nil {
			info.TestRows = sp.Test.Rows()
		}
		return info, nil
	}
	info.Indexed = true
	train := idx[src.Train]
	info.Rows, info.Features = train.Rows, train.Dim
	labels := train.Labels
	switch {
	case src.Test != "":
		test := idx[src.Test]
		info.TestRows, info.Features = test.Rows, max(train.Dim, test.Dim)
	case src.TrainRows > 0:
		info.Rows, info.TestRows, labels = src.TrainRows, train.Rows-src.TrainRows, train.TrainLabels
	}
	if src.Classes <= 2 {
		info.Positives = labels[1] // every binary convention of the collection has 1 positive
		return info, nil
	}
	pos, err := groupClasses(labels, opts)
	if err != nil {
		return info, fmt.Errorf("dataset %s: %w", src.Name, err)
	}
	for _, c := range pos {
		info.Positives += labels[c]
	}
	return info, nil
}
