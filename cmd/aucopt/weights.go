package main

import (
	"github.com/aucopt/aucopt/engine/data"
	flag "github.com/spf13/pflag"
)

// weightOpts are train's sample- and class-weight flags.
type weightOpts struct {
	file  string // --weight: a file of one weight per training row
	class string // --class-weight: balanced or P:N
}

// column moves --weight into the table options when the training data is a table
// (CSV, TSV or Parquet): there it names the column of weights, which is then no
// feature; for other data it stays a weight file.
func (w *weightOpts) column(dataArg string, table *data.TableOptions) *data.TableOptions {
	if w.file == "" || !data.IsTableFile(dataArg, data.Options{Table: table}) {
		return table
	}
	t := &data.TableOptions{}
	if table != nil {
		c := *table
		t = &c
	}
	t.Weight, w.file = w.file, ""
	return t
}

// set reports whether either flag was given.
func (w *weightOpts) set() bool { return w.file != "" || w.class != "" }

// weightFlags defines --weight and --class-weight on fs.
func weightFlags(fs *flag.FlagSet) *weightOpts {
	w := &weightOpts{}
	fs.StringVar(&w.file, "weight", "", "sample weights: for a table (CSV, TSV, Parquet) the name of its column of weights (then no feature), else a file of one weight per training row, in row order (LIBLINEAR's -W form); finite, >= 0, 0 leaves a row out; for unilog, ls-auc, svm-or and mba-* with -p pairs=all, whose objectives take them exactly (an integer weight k is the row repeated k times)")
	fs.StringVar(&w.class, "class-weight", "", "class weights: balanced (n/(2 n_c) per class) or P:N (the positive and the negative class's weights); for unilog (its class-weight parameter; balanced is its default). Pairwise learners refuse them: P and N would multiply every pair by P*N, only rescaling the loss against lambda")
	return w
}
