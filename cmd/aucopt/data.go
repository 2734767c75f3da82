package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	flag "github.com/spf13/pflag"
)

const datasetsExamples = `  aucopt datasets                 # every known dataset: where it is, its rows and features
  aucopt datasets a9a splice      # just these
  aucopt datasets --verify        # read the files and count, rather than trust the index
  AUCOPT_DATA=/data/libsvm aucopt datasets --json
  AUCOPT_DATA=$HOME/aucopt-data aucopt datasets fetch w8a heart   # download into $AUCOPT_DATA
  aucopt datasets fetch --all --dir ./data                        # every downloadable dataset
`

// datasetInfo is one line of `aucopt datasets`.
type datasetInfo struct {
	Name      string `json:"name"`
	Rows      int    `json:"rows"`
	TestRows  int    `json:"test_rows,omitempty"`
	Features  int    `json:"features"`
	Positives int    `json:"positives"`
	Classes   int    `json:"classes"`
	Where     string `json:"where"`
	Error     string `json:"error,omitempty"`
	Doc       string `json:"doc"`
}

func runDatasets(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "fetch" {
		return runFetch(ctx, args[1:], stdout, stderr)
	}
	fs := newFlags("datasets", "datasets [NAME...] [--json] [--verify] | datasets fetch NAME...|--all [--dir DIR]", datasetsExamples, stdout, stderr)
	asJSON := fs.Bool("json", false, "print the list as JSON")
	seed := fs.Uint64("seed", 1, "seed of the random grouping of multi-class datasets' classes")
	verify := fs.Bool("verify", false, "read every file and count its rows, rather than take the figures of the registry's index (the files there are the registry's copies, by size)")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	names := fs.Args()
	if len(names) == 0 {
		for _, s := range data.KnownDatasets {
			names = append(names, s.Name)
		}
	}
	var infos []datasetInfo
	missing := 0
	for _, n := range names {
		src, err := data.Lookup(n)
		if err != nil {
			return err
		}
		info := datasetInfo{Name: src.Name, Classes: src.Classes, Doc: src.Doc}
		if *verify {
			err = loadInfo(ctx, n, *seed, &info)
		} else {
			err = describeInfo(n, *seed, &info)
		}
		if errors.Is(err, context.Canceled) {
			return err
		}
		if err != nil {
			info.Error = err.Error()
			info.Where = "not found"
			missing++
		}
		infos = append(infos, info)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(infos)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTRAIN ROWS\tTEST ROWS\tFEATURES\tPOSITIVES\tCLASSES\tWHERE")
	for _, in := range infos {
		if in.Error != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t%d\t%s\n", in.Name, in.Classes, in.Error)
			continue
		}
		test := "-"
		if in.TestRows > 0 {
			test = fmt.Sprint(in.TestRows)
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%d\t%s\n", in.Name, in.Rows, test, in.Features, in.Positives, in.Classes, in.Where)
	}
	tw.Flush()
	if missing > 0 && data.DataDir() == "" {
		fmt.Fprintf(stdout, "\n%d datasets not found: set $%s to a directory laid out like shared/data, or fetch them (aucopt datasets fetch --help).\n", missing, data.EnvData)
	}
	return nil
}

// describeInfo fills info from the registry's index (data.Describe): no file is read
// unless it is not the registry's copy.
func describeInfo(name string, seed uint64, info *datasetInfo) error {
	d, err := data.Describe(name, data.LoadOptions{Seed: seed})
	if err != nil {
		return err
	}
	info.Rows, info.TestRows, info.Features, info.Positives, info.Where = d.Rows, d.TestRows, d.Features, d.Positives, d.Where
	return nil
}

// loadInfo fills info by loading the dataset's files.
func loadInfo(ctx context.Context, name string, seed uint64, info *datasetInfo) error {
	sp, err := data.Load(name, data.LoadOptions{Seed: seed, Context: ctx})
	if err != nil {
		return err
	}
	info.Rows, info.Features, info.Where = sp.Train.Rows(), sp.Train.Dim, sp.Where
	info.Positives, _ = sp.Train.Counts()
	if sp.Test != nil {
		info.TestRows = sp.Test.Rows()
	}
	return nil
}

const fetchExamples = `  AUCOPT_DATA=$HOME/aucopt-data aucopt datasets fetch w8a heart
  aucopt datasets fetch --all --dir ./data        # then: AUCOPT_DATA=./data aucopt train --data w8a
  aucopt datasets fetch --mirror http://mirror.local/gh a9a   # the same paths on another host
`

// runFetch is `aucopt datasets fetch`: the registry's datasets downloaded from their
// public sources into the data directory, each checked by the SHA-256 the registry
// records, with a progress bar on a terminal and a line per file.
func runFetch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("datasets fetch", "datasets fetch NAME...|--all [--dir DIR] [--mirror URL]", fetchExamples, stdout, stderr)
	dir := fs.String("dir", os.Getenv(data.EnvData), "the data directory to fetch into, laid out as DIR/<dataset>/<file> (default $"+data.EnvData+")")
	all := fs.Bool("all", false, "every dataset that can be downloaded (the ones converted here from other formats cannot)")
	mirror := fs.String("mirror", "", "fetch from this host in place of "+data.GitHubRaw+", with the same paths")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	names := fs.Args()
	switch {
	case *all && len(names) > 0:
		return usageError(fs, "give dataset names or --all, not both")
	case !*all && len(names) == 0:
		return usageError(fs, "give the datasets to fetch (aucopt datasets lists them), or --all")
	case *dir == "":
		return usageError(fs, "give --dir DIR or set $"+data.EnvData+": the directory to fetch into")
	}
	if *all {
		for _, s := range data.KnownDatasets {
			names = append(names, s.Name)
		}
	}
	for _, n := range names { // every name known before any download
		if _, err := data.Lookup(n); err != nil {
			return err
		}
	}
	tty := isTerminal(stderr)
	for _, n := range names {
		var b *bar
		opts := data.FetchOptions{Dir: *dir, BaseURL: *mirror, Context: ctx}
		if tty {
			opts.Progress = func(file string, done, total int64) {
				if b == nil || b.desc != "fetching "+file {
					if b != nil {
						b.clear()
					}
					b = newBar(stderr, "fetching "+file, total, time.Now())
					b.unit = "bytes"
				}
				b.set(done, time.Now())
			}
		}
		got, err := data.Fetch(n, opts)
		if b != nil {
			b.clear()
		}
		if errors.Is(err, data.ErrNotFetchable) {
			if *all {
				fmt.Fprintf(stdout, "%-16s skipped: %s\n", n, strings.TrimPrefix(err.Error(), "dataset "+n+": "))
				continue
			}
			return inputErrorf("%w", err)
		}
		for _, f := range got {
			switch f.Status {
			case "present":
				fmt.Fprintf(stdout, "%-16s %s: already there\n", n, f.Path)
			case "resumed":
				fmt.Fprintf(stdout, "%-16s %s: resumed at %d bytes, %d more, SHA-256 checked\n", n, f.Path, f.Resumed, f.Bytes)
			default:
				fmt.Fprintf(stdout, "%-16s %s: %d bytes, SHA-256 checked\n", n, f.Path, f.Bytes)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

const convertExamples = `  aucopt convert a9a.txt.xz a9a.cache       # read once, re-read at memory speed
  aucopt convert --shards 4 a9a train/part.svm                  # the dataset a9a's training split: train/part-0.svm … part-3.svm
  aucopt convert --shards 2 --split test a9a test/part.svm      # its test split
  aucopt convert --positive 3 letter.scale letter3.cache
  aucopt convert clicks.csv.gz clicks.parquet                    # a table to a table: the same columns
  aucopt convert --label click --hash-bits 14 clicks.parquet clicks.svm   # hashed features, LIBSVM text
  aucopt convert heart.svm heart.csv                            # label, x01 … x13
`

func runConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "convert IN|DATASET OUT [--shards N] [--positive LABEL] [--dim N] [--raw] [table flags]", convertExamples, stdout, stderr)
	dim := fs.Int("dim", 0, "fix the number of features of LIBSVM input (an index above it is an error); default: the largest index")
	raw := fs.Bool("raw", false, "keep multi-class labels as read (group them at training time)")
	shards := fs.Int("shards", 1, fmt.Sprintf("write N shard files, OUT's name with -0 … -(N-1) before its extension: consecutive runs of rows, in order (at most %d)", data.MaxShards))
	split := fs.String("split", "train", "a dataset name (aucopt datasets) as IN: its train or test split")
	read := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "aucopt convert: want IN and OUT, got %d arguments (see aucopt convert --help)\n", fs.NArg())
		return errUsage
	}
	in, out := fs.Arg(0), fs.Arg(1)
	if *shards < 1 || *shards > data.MaxShards {
		return inputErrorf("--shards %d: want 1 to %d", *shards, data.MaxShards)
	}
	paths := data.ShardPaths(out, *shards)
	for _, p := range paths {
		if err := checkOutput("output", p); err != nil {
			return err
		}
		if err := checkNotInput("output", p, in); err != nil {
			return err
		}
	}
	positive, table, err := read.options()
	if err != nil {
		return err
	}
	if _, serr := data.StatInput(in); serr != nil {
		if _, lerr := data.Lookup(in); lerr == nil {
			return convertDataset(ctx, stdout, fs, in, out, *split, *shards)
		}
	}
	if fs.Changed("split") {
		return inputErrorf("--split %s applies to a dataset name; %s is a file", *split, in)
	}
	if *raw && positive != "" {
		return inputErrorf("--raw keeps the labels as read: --positive %s does not apply (give one or the other)", positive)
	}
	indices, err := read.indices()
	if err != nil {
		return err
	}
	start := time.Now()
	st, err := data.ConvertShards(in, out, *shards, data.Options{Positive: positive, Dim: *dim, Raw: *raw, Table: table, Indices: indices, Context: ctx})
	if err != nil {
		return fault.Input(err)
	}
	format := data.OutputFormat(out)
	if (format == data.FormatCSV || format == data.FormatTSV || format == data.FormatParquet) && data.IsTableFile(in, data.Options{}) {
		fmt.Fprintf(stdout, "%s → %s (%s): %d rows, %d columns, %d values in %v\n", in, shardsName(paths), formatShards(format, *shards), st.Rows, st.Features, st.Values,
			time.Since(start).Round(time.Millisecond))
		return nil
	}
	summary := fmt.Sprintf("%d positive, %d negative", st.Pos, st.Neg)
	if *raw {
		summary = "raw labels"
	}
	if st.Dense {
		format += ", dense rows"
	}
	fmt.Fprintf(stdout, "%s → %s (%s): %d rows, %d features, %d values (%s) in %v\n", in, shardsName(paths), formatShards(format, *shards), st.Rows, st.Features, st.Values,
		summary, time.Since(start).Round(time.Millisecond))
	return nil
}

// shardsName names the files written: the one, or the first … the last.
func shardsName(paths []string) string {
	if len(paths) == 1 {
		return paths[0]
	}
	return fmt.Sprintf("%s … %s", paths[0], paths[len(paths)-1])
}

// formatShards is the format written, and the number of shards when more than one.
func formatShards(format string, n int) string {
	if n == 1 {
		return format
	}
	return fmt.Sprintf("%s, %d shards", format, n)
}

// convertDataset writes a registry dataset's split (aucopt datasets: its data
// directory or embedded copy) to out in n shards, its labels the binary ones it is
// trained with (+1, -1; a multi-class dataset's grouped as train groups them).
func convertDataset(ctx context.Context, stdout io.Writer, fs *flag.FlagSet, name, out, split string, n int) error {
	var given []string
	for _, f := range append([]string{"positive", "dim", "raw", "zero-based"}, tableFlagNames...) {
		if fs.Changed(f) {
			given = append(given, "--"+f)
		}
	}
	if len(given) > 0 {
		return inputErrorf("%s is a dataset name: %s only apply to data files", name, strings.Join(given, ", "))
	}
	if split != "train" && split != "test" {
		return inputErrorf("--split %q: want train or test", split)
	}
	start := time.Now()
	sp, err := data.Load(name, data.LoadOptions{Layout: data.LayoutSparse, Context: ctx})
	if err != nil {
		return fault.Input(err)
	}
	d := sp.Train
	if split == "test" {
		if sp.Test == nil {
			return inputErrorf("dataset %s has no test split (--split train writes all its rows)", name)
		}
		d = sp.Test
	}
	if sp.KnownDataset.Classes > 2 {
		d = binaryLabels(d)
	}
	if err := data.WriteDatasetShards(ctx, d, out, n); err != nil {
		return fault.Input(err)
	}
	pos, neg := d.Counts()
	fmt.Fprintf(stdout, "%s (%s split) → %s (%s): %d rows, %d features, %d values (%d positive, %d negative) in %v\n", name, split,
		shardsName(data.ShardPaths(out, n)), formatShards(data.OutputFormat(out), n), d.Rows(), d.Dim, d.Nnz(), pos, neg, time.Since(start).Round(time.Millisecond))
	return nil
}

// binaryLabels returns d (a shallow copy) with its classes, +1 and -1, as its labels.
func binaryLabels(d *data.Dataset) *data.Dataset {
	c := *d
	c.Labels = make([]float64, len(d.Y))
	for i, y := range d.Y {
		c.Labels[i] = float64(y)
	}
	return &c
}

const genExamples = `  aucopt gen --rows 1000000 --out ctr.parquet     # Avazu-shaped click log, 17% clicks
  aucopt gen --rows 100000 --first-row 1000000 --out ctr-test.csv.gz   # test rows of the same ground truth
  aucopt train --algo ftrl --data ctr.parquet --label click --scale none
`

func runGen(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gen", "gen --rows N --out FILE.csv|.tsv|.parquet [--seed S] [--click-rate P]", genExamples, stdout, stderr)
	rows := fs.Int("rows", 100_000, fmt.Sprintf("rows to write (at most %d)", data.MaxCTRRows))
	out := fs.String("out", "", "output file: .csv, .tsv or .parquet (a .gz suffix compresses a CSV or TSV)")
	seed := fs.Uint64("seed", 1, "seed of the table (its ground truth, values and clicks)")
	first := fs.Int("first-row", 0, "index of the first row: a test table of the same --seed starts past the training rows")
	rate := fs.Float64("click-rate", 0.17, "share of clicks")
	rowGroup := fs.Int("row-group", 65536, "Parquet: rows per row group")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	switch {
	case fs.NArg() > 0:
		return inputErrorf("gen takes no arguments, got %q", fs.Args())
	case *out == "":
		return inputErrorf("give --out FILE (.csv, .tsv or .parquet)")
	case *first < 0:
		return inputErrorf("--first-row %d: want at least 0", *first)
	case *rows < 1 || *rows > data.MaxCTRRows:
		return inputErrorf("--rows %d: want 1 to %d", *rows, data.MaxCTRRows)
	case *first > math.MaxInt64-*rows:
		return inputErrorf("--first-row %d with --rows %d: the row indices would pass %d", *first, *rows, int64(math.MaxInt64))
	case !(*rate > 0 && *rate < 1):
		return inputErrorf("--click-rate %v: want a share in (0, 1)", *rate)
	case *rowGroup < 1:
		return inputErrorf("--row-group %d: want at least 1", *rowGroup)
	}
	of, compression := data.OutputOf(*out)
	if !of.Table {
		return inputErrorf("--out %s: name a .csv, .tsv or .parquet file", *out)
	}
	if err := checkOutput("--out", *out); err != nil {
		return err
	}
	format, gz := of.Name, compression == "gzip"
	if compression != "" && (!gz || of.FileOnly) {
		return inputErrorf("--out %s: compression is written for .csv.gz and .tsv.gz only", *out)
	}
	start := time.Now()
	c := &data.CTR{Rows: *rows, First: *first, Seed: *seed, ClickRate: *rate}
	err := data.WriteAtomicContext(ctx, *out, func(w io.Writer) error {
		if gz {
			z := gzip.NewWriter(w)
			if err := c.WriteContext(ctx, z, format, *rowGroup); err != nil {
				return err
			}
			return z.Close()
		}
		return c.WriteContext(ctx, w, format, *rowGroup)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d rows of a click log (label column click, %d categorical fields) in %v\n", *out, *rows,
		len(c.Columns())-1, time.Since(start).Round(time.Millisecond))
	return nil
}

// parseError turns a flag parse error into the command's result: flag.ErrHelp for
// --help, else the error printed in one line (with a pointer to --help) and errUsage.
func parseError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	fmt.Fprintf(fs.Output(), "aucopt %s: %v (see aucopt %s --help)\n", fs.Name(), err, fs.Name())
	return errUsage
}

// readFlags are the flags that say how data files are read, shared by the commands
// that read --data/--test: the positive class (of LIBSVM files and tables alike) and
// how a CSV, TSV or Parquet table's columns become the label and features.
type readFlags struct {
	fs          *flag.FlagSet
	positive    *string
	label       *string
	columns     *[]string
	ignore      *[]string
	categorical *[]string
	hashBits    *int
	hashSeed    *uint32
	missing     *string
	zeroBased   *string
}

// addReadFlags defines the read flags on fs.
func addReadFlags(fs *flag.FlagSet) *readFlags {
	return &readFlags{
		fs:          fs,
		positive:    fs.String("positive", "", "label of the positive class, every other label negative (LIBSVM files and tables); default: the conventions {+1,-1}, {1,0}, {1,2}"),
		label:       fs.String("label", data.DefaultLabel, "table (CSV, TSV, Parquet): the label column"),
		columns:     fs.StringSlice("columns", nil, "table: the feature columns, comma-separated (default: all but the label and --ignore)"),
		ignore:      ignoreFlag(fs),
		categorical: fs.StringSlice("categorical", nil, "table: numeric columns to treat as categories (text columns always are), comma-separated"),
		hashBits:    fs.Int("hash-bits", data.DefaultHashBits, "table: categorical values are hashed (signed MurmurHash3 of column=value) into 2^B features"),
		hashSeed:    fs.Uint32("hash-seed", 0, "table: seed of the feature hash"),
		missing:     missingFlag(fs, data.MissingError),
		zeroBased:   fs.String("zero-based", "auto", "LIBSVM: feature indices start at 0 (true, scikit-learn's default), at 1 (false), or auto: at 0 when an index 0 occurs in the file (a note says so)"),
	}
}

// ignoreFlag defines --ignore on fs, for the commands that read tables to train
// (readFlags) and to score (scoringFlags) alike.
func ignoreFlag(fs *flag.FlagSet) *[]string {
	return fs.StringSlice("ignore", nil, "table: columns to leave out, comma-separated")
}

// missingFlag defines --missing on fs with the default dflt: the policy for training;
// "" for scoring, where it means the policy the model was trained with.
func missingFlag(fs *flag.FlagSet, dflt string) *string {
	usage := "table: an empty cell (a Parquet null) is an error, zero (no feature), or skip (the row is left out)"
	if dflt == "" {
		usage += "; default: the model's, as it was trained"
	}
	return fs.String("missing", dflt, usage)
}

// checkMissing checks a --missing value.
func checkMissing(policy string) error {
	if data.CheckMissing(policy) != nil {
		return inputErrorf("--missing %q: want %s, %s or %s", policy, data.MissingError, data.MissingZero, data.MissingSkip)
	}
	return nil
}

// indices returns the index base --zero-based asks for.
func (r *readFlags) indices() (data.IndexBase, error) {
	b, err := data.ParseIndexBase(*r.zeroBased)
	if err != nil {
		return b, inputErrorf("%w", err)
	}
	return b, nil
}

// tableFlagNames are the flags of the table options.
var tableFlagNames = []string{"label", "columns", "ignore", "categorical", "hash-bits", "hash-seed", "missing"}

// options returns the positive label and the table options (nil when no table flag
// was given).
func (r *readFlags) options() (string, *data.TableOptions, error) {
	changed := false
	for _, n := range tableFlagNames {
		changed = changed || r.fs.Changed(n)
	}
	if !changed {
		return *r.positive, nil, nil
	}
	if *r.hashBits < 1 || *r.hashBits > data.MaxHashBits {
		return "", nil, inputErrorf("--hash-bits %d: want 1 to %d", *r.hashBits, data.MaxHashBits)
	}
	if err := checkMissing(*r.missing); err != nil {
		return "", nil, err
	}
	t := &data.TableOptions{Label: *r.label, Columns: *r.columns, Ignore: *r.ignore, Categorical: *r.categorical,
		HashBits: *r.hashBits, HashSeed: *r.hashSeed, Missing: *r.missing}
	return *r.positive, t, nil
}
