package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	flag "github.com/spf13/pflag"
)

const datasetsExamples = `  aucopt datasets                 # every known dataset, loaded and counted
  aucopt datasets a9a splice      # just these
  AUCOPT_DATA=/data/libsvm aucopt datasets --json
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
	fs := newFlags("datasets", "datasets [NAME...] [--json]", datasetsExamples, stderr)
	asJSON := fs.Bool("json", false, "print the list as JSON")
	seed := fs.Uint64("seed", 1, "seed of the random grouping of multi-class datasets' classes")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	names := fs.Args()
	if len(names) == 0 {
		for _, s := range data.Sources {
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
		sp, err := data.Load(n, data.LoadOptions{Seed: *seed, Context: ctx})
		if errors.Is(err, context.Canceled) {
			return err
		}
		if err != nil {
			info.Error = err.Error()
			info.Where = "not found"
			missing++
		} else {
			info.Rows, info.Features, info.Where = sp.Train.Rows(), sp.Train.Dim, sp.Where
			info.Positives, _ = sp.Train.Counts()
			if sp.Test != nil {
				info.TestRows = sp.Test.Rows()
			}
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
		fmt.Fprintf(stdout, "\n%d datasets not found: set $%s to a directory laid out like shared/data.\n", missing, data.EnvData)
	}
	return nil
}

const convertExamples = `  aucopt convert a9a.txt.xz a9a.cache       # read once, re-read at memory speed
  aucopt convert --positive 3 letter.scale letter3.cache
`

func runConvert(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", "convert IN OUT [--positive LABEL] [--dim N] [--raw]", convertExamples, stderr)
	positive := fs.String("positive", "", "label of the positive class (one-vs-rest); default: the LIBSVM conventions {+1,-1}, {1,0}, {1,2}")
	dim := fs.Int("dim", 0, "fix the number of features (an index above it is an error); default: the largest index")
	raw := fs.Bool("raw", false, "keep multi-class labels as read (group them at training time)")
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "aucopt convert: want IN and OUT, got %d arguments (see aucopt convert --help)\n", fs.NArg())
		return errUsage
	}
	in, out := fs.Arg(0), fs.Arg(1)
	if err := checkOutput("output", out); err != nil {
		return err
	}
	if err := checkNotInput("output", out, in); err != nil {
		return err
	}
	start := time.Now()
	d, err := data.ReadFile(in, data.Options{Positive: *positive, Dim: *dim, Raw: *raw, Context: ctx})
	if err != nil {
		return err
	}
	if err := data.WriteAtomicContext(ctx, out, func(w io.Writer) error { return data.WriteCache(w, d) }); err != nil {
		return err
	}
	pos, neg := d.Counts()
	summary := fmt.Sprintf("%d positive, %d negative", pos, neg)
	if *raw {
		summary = "raw labels"
	}
	fmt.Fprintf(stdout, "%s → %s: %d rows, %d features, %d values (%s) in %v\n", in, out, d.Rows(), d.Dim, d.Nnz(),
		summary, time.Since(start).Round(time.Millisecond))
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
