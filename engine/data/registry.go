package data

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/internal/suggest"
)

// EnvData names the directory searched first for dataset files.
const EnvData = "AUCOPT_DATA"

// embedded holds the datasets shipped inside the binary, so that the default run works
// on a machine with no data at all: a9a (train and test) and german.numer.
//
//go:embed embedded/*.xz
var embedded embed.FS

// KnownDataset is a known dataset: its files, relative to the data directory, and its split.
type KnownDataset struct {
	Name      string   // registry name
	Aliases   []string // other accepted names
	Train     string   // training file (or the only file)
	Test      string   // test file, "" when the test rows follow the training rows in Train, or there is no split
	TrainRows int      // > 0: the first TrainRows rows of Train are the training split, the rest the test split
	Classes   int      // 2 for binary data; more for multi-class data, made binary at load
	Embedded  string   // name of the embedded copy, "" when none
	Doc       string   // one line for `aucopt datasets`
}

// HasSplit reports whether the dataset comes with a train/test split.
func (s KnownDataset) HasSplit() bool { return s.Test != "" || s.TrainRows > 0 }

// KnownDatasets lists the known datasets, in the order `aucopt datasets` shows them.
var KnownDatasets = []KnownDataset{
	{Name: "a9a", Train: "a9a/a9a.txt.xz", Test: "a9a/a9a.t.xz", Classes: 2, Embedded: "a9a", Doc: "UCI Adult census income (Platt's binarisation), 123 binary features"},
	{Name: "german", Aliases: []string{"german.numer"}, Train: "german.numer/german_scale.txt.xz", Classes: 2, Embedded: "german", Doc: "UCI Statlog German credit, scaled to [-1, 1]"},
	{Name: "w8a", Train: "w8a/w8a.xz", Classes: 2, Doc: "Platt's web page categorisation, 300 binary features"},
	{Name: "diabetes", Train: "diabetes/diabetes_scale.svm.xz", Classes: 2, Doc: "UCI Pima Indians diabetes, scaled"},
	{Name: "heart", Train: "heart/heart_scale.xz", Classes: 2, Doc: "UCI Statlog heart, scaled"},
	{Name: "fourclass", Train: "fourclass/fourclass_scale.xz", Classes: 2, Doc: "Ho and Kleinberg's two-dimensional fourclass, scaled"},
	{Name: "splice", Train: "splice/splice.txt.xz", TrainRows: 1000, Classes: 2, Doc: "splice-junction detection; rows 1-1,000 train, the rest test"},
	{Name: "svmguide3", Train: "svmguide3/svmguide3.txt.xz", TrainRows: 1243, Classes: 2, Doc: "vehicle data of the LIBSVM guide; rows 1-1,243 train, the rest test"},
	{Name: "mushrooms", Train: "mushrooms/mushrooms.txt.xz", Classes: 2, Doc: "UCI mushroom, one-hot (labels 1/2)"},
	{Name: "phishing", Train: "phishing/phishing.txt.xz", Classes: 2, Doc: "UCI phishing websites (labels 0/1)"},
	{Name: "ionosphere", Train: "ionosphere/ionosphere_not_shuffled.txt.xz", Classes: 2, Doc: "UCI ionosphere radar returns"},
	{Name: "sonar", Train: "sonar/sonar.txt.xz", Classes: 2, Doc: "UCI sonar, mines vs rocks, scaled"},
	{Name: "liver-disorders", Aliases: []string{"liver"}, Train: "liver-disorders/liver.txt.xz", Classes: 2, Doc: "UCI BUPA liver disorders (labels 0/1)"},
	{Name: "australian", Train: "australian/australian.svm.xz", Classes: 2, Doc: "UCI Statlog Australian credit, unscaled"},
	{Name: "breast-cancer", Train: "breast-cancer/breast-cancer_scale.svm.xz", Classes: 2, Doc: "Wisconsin breast cancer, scaled"},
	{Name: "magic04", Train: "magic04/magic04.svm.xz", Classes: 2, Doc: "UCI MAGIC gamma telescope, unscaled"},
	{Name: "letter", Train: "letter/letter.scale.xz", Test: "letter/letter.scale.t.xz", Classes: 26, Doc: "UCI letter recognition, 26 classes"},
	{Name: "sector", Train: "sector/sector.scale.bz2", Test: "sector/sector.t.scale.bz2", Classes: 105, Doc: "industry sector web pages, 105 classes, 55,197 TF-IDF features"},
	{Name: "fashion-mnist", Aliases: []string{"mnist"}, Train: "fashion-mnist/fashion-mnist.scale.xz", Test: "fashion-mnist/fashion-mnist.scale.t.xz", Classes: 10, Doc: "Zalando Fashion-MNIST (the stand-in for MNIST), 784 pixels in [0, 1]"},
}

// embeddedFiles maps an embedded dataset's registry file names to the embedded copies.
var embeddedFiles = map[string]string{
	"a9a/a9a.txt.xz":                   "embedded/a9a.txt.xz",
	"a9a/a9a.t.xz":                     "embedded/a9a.t.xz",
	"german.numer/german_scale.txt.xz": "embedded/german_scale.txt.xz",
}

// ErrUnknownDataset is wrapped by Lookup's error for a name not in KnownDatasets.
var ErrUnknownDataset = fault.NewInput("unknown dataset")

// Lookup returns the KnownDataset called name (or one of its aliases).
func Lookup(name string) (KnownDataset, error) {
	for _, s := range KnownDatasets {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return s, nil
		}
	}
	names := make([]string, len(KnownDatasets))
	var all []string // names and aliases, for the suggestion
	for i, s := range KnownDatasets {
		names[i] = s.Name
		all = append(append(all, s.Name), s.Aliases...)
	}
	return KnownDataset{}, fmt.Errorf("%w %q%s (known: %s)", ErrUnknownDataset, name, suggest.Hint(name, all), strings.Join(names, ", "))
}

// DataDir returns the directory that dataset files are looked up in: $AUCOPT_DATA when
// set, else the first shared/data (holding MANIFEST.tsv) found beside the working
// directory or one of its parents. It returns "" when there is none.
func DataDir() string {
	if d := os.Getenv(EnvData); d != "" {
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for range 8 {
		for _, c := range []string{filepath.Join(dir, "shared", "data"), filepath.Join(dir, "..", "shared", "data")} {
			if _, err := os.Stat(filepath.Join(c, "MANIFEST.tsv")); err == nil {
				return filepath.Clean(c)
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return ""
}

// LoadOptions control how a registered dataset is made binary.
type LoadOptions struct {
	// Positive, for a multi-class dataset, names the positive class (one-vs-rest), or is
	// "largest" for the most frequent class of the training part. When empty, the
	// classes are split at random into two groups of equal size (the larger half
	// negative when the count is odd), the OPAUC paper's rule, drawn from Seed.
	// For a binary dataset it overrides the label conventions.
	Positive string
	// Seed drives the random grouping of classes.
	Seed uint64
	// Layout is the in-memory layout of both parts (LayoutAuto: dense when dense enough).
	Layout Layout
	// Context, when set, stops reading once done (Options.Context).
	Context context.Context
}

// Split is a dataset loaded from the registry: its training part and, when the dataset
// has a fixed split, its test part (nil otherwise). Both have the same Dim.
type Split struct {
	KnownDataset KnownDataset
	Train        *Dataset
	Test         *Dataset
	// Where is the directory the files came from, or "embedded".
	Where string
	// PositiveClasses lists the original labels grouped as positive (multi-class data).
	PositiveClasses []float64
}

// Load reads a registered dataset from DataDir, or from the copy embedded in the
// binary when the directory lacks it, and returns its split with labels mapped to ±1.
func Load(name string, opts LoadOptions) (*Split, error) {
	src, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	open, where, err := locate(src)
	if err != nil {
		return nil, err
	}
	ropts := Options{Raw: src.Classes > 2, Positive: opts.Positive, Context: opts.Context}
	if src.Classes > 2 {
		ropts.Positive = ""
	}
	read := func(file string) (*Dataset, error) {
		f, err := open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r, err := NewReader(f, filepath.Join(where, file), ropts)
		if err != nil {
			return nil, err
		}
		d, err := ReadAll(r)
		if err != nil {
			return nil, err
		}
		d.Name = src.Name
		return d, nil
	}
	sp := &Split{KnownDataset: src, Where: where}
	if sp.Train, err = read(src.Train); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", src.Name, err)
	}
	switch {
	case src.Test != "":
		if sp.Test, err = read(src.Test); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", src.Name, err)
		}
	case src.TrainRows > 0:
		if sp.Train.Rows() <= src.TrainRows {
			return nil, fmt.Errorf("dataset %s: %d rows, want more than the %d training rows", src.Name, sp.Train.Rows(), src.TrainRows)
		}
		sp.Train, sp.Test = sp.Train.Subset(seq(0, src.TrainRows)), sp.Train.Subset(seq(src.TrainRows, sp.Train.Rows()))
	}
	if sp.Test != nil {
		dim := max(sp.Train.Dim, sp.Test.Dim)
		sp.Train.Dim, sp.Test.Dim = dim, dim
	}
	sp.Train = sp.Train.WithLayout(opts.Layout)
	if sp.Test != nil {
		sp.Test = sp.Test.WithLayout(opts.Layout)
	}
	if src.Classes > 2 {
		counts := map[float64]int{}
		for _, l := range sp.Train.Labels {
			counts[l]++
		}
		pos, err := groupClasses(counts, opts)
		if err != nil {
			return nil, fmt.Errorf("dataset %s: %w", src.Name, err)
		}
		sp.PositiveClasses = pos
		for _, d := range []*Dataset{sp.Train, sp.Test} {
			if d != nil {
				d.Binarize(pos)
			}
		}
	}
	return sp, nil
}

func seq(lo, hi int) []int {
	s := make([]int, hi-lo)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// locate finds where src's files are: the data directory when it holds them (as the
// registry names them, or as `aucopt datasets fetch` stores them), else the embedded
// copies.
func locate(src KnownDataset) (open func(string) (fs.File, error), where string, err error) {
	dir := DataDir()
	if dir != "" {
		_, err1 := os.Stat(filepath.Join(dir, src.Train))
		_, err2 := os.Stat(filepath.Join(dir, fetchedName(src.Train)))
		if err1 == nil || err2 == nil {
			return func(f string) (fs.File, error) {
				r, err := os.Open(filepath.Join(dir, f))
				if errors.Is(err, fs.ErrNotExist) {
					if r, err2 := os.Open(filepath.Join(dir, fetchedName(f))); err2 == nil {
						return r, nil
					}
				}
				return r, err
			}, dir, nil
		}
	}
	if src.Embedded != "" {
		return func(f string) (fs.File, error) {
			e, ok := embeddedFiles[f]
			if !ok {
				return nil, fmt.Errorf("%s is not embedded", f)
			}
			return embedded.Open(e)
		}, "embedded", nil
	}
	if dir == "" {
		return nil, "", fmt.Errorf("dataset %s: no data directory (set $%s or put shared/data beside the working directory)", src.Name, EnvData)
	}
	return nil, "", fmt.Errorf("dataset %s: %s not found in %s", src.Name, src.Train, dir)
}

// groupClasses chooses the original labels that become positive, from the training
// part's count of rows by label.
func groupClasses(counts map[float64]int, opts LoadOptions) ([]float64, error) {
	classes := make([]float64, 0, len(counts))
	for l := range counts {
		classes = append(classes, l)
	}
	slices.Sort(classes)
	switch opts.Positive {
	case "":
		r := rand.New(rand.NewPCG(opts.Seed, 0x67726f7570)) // "group"
		r.Shuffle(len(classes), func(i, j int) { classes[i], classes[j] = classes[j], classes[i] })
		pos := slices.Clone(classes[:len(classes)/2])
		slices.Sort(pos)
		return pos, nil
	case "largest":
		best := classes[0]
		for _, c := range classes {
			if counts[c] > counts[best] {
				best = c
			}
		}
		return []float64{best}, nil
	}
	v, err := strconv.ParseFloat(opts.Positive, 64)
	if err != nil || counts[v] == 0 {
		return nil, fmt.Errorf("positive class %q is not a label of the training data (labels %v)", opts.Positive, classes)
	}
	return []float64{v}, nil
}
