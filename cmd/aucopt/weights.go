package main

import (
	flag "github.com/spf13/pflag"
)

// weightOpts are train's sample- and class-weight flags.
type weightOpts struct {
	file  string // --weight: a file of one weight per training row
	class string // --class-weight: balanced or P:N
}

// set reports whether either flag was given.
func (w *weightOpts) set() bool { return w.file != "" || w.class != "" }

// weightFlags defines --weight and --class-weight on fs.
func weightFlags(fs *flag.FlagSet) *weightOpts {
	w := &weightOpts{}
	fs.StringVar(&w.file, "weight", "", "sample weights: a file of one weight per training row, in row order (LIBLINEAR's -W form; finite, >= 0, 0 leaves a row out); for unilog, ls-auc and mba-* with -p pairs=all, whose objectives take them exactly (an integer weight k is the row repeated k times)")
	fs.StringVar(&w.class, "class-weight", "", "class weights: balanced (n/(2 n_c) per class) or P:N (the positive and the negative class's weights); for unilog (its class-weight parameter; balanced is its default). Pairwise learners refuse them: P and N would multiply every pair by P*N, only rescaling the loss against lambda")
	return w
}
