package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
)

// SplitKind says how a protocol makes its train/test runs from a dataset.
type SplitKind int

// The protocols' ways of splitting.
const (
	// SplitCV is Trials × Folds stratified k-fold cross-validation of the dataset's
	// pool (its training part, or train and test together for the Merge sets); trial t
	// draws its folds from seed+t (data.RepeatedKFold).
	SplitCV SplitKind = iota
	// SplitSubsample is the dataset's own train/test split (else a stratified 50/50
	// split, drawn once); run r trains on a random Frac of the training part and is
	// scored on the whole test part (UBAUC: 25 models on random 80% subsets).
	SplitSubsample
	// SplitGiven is the dataset's own split (else a stratified 50/50 split redrawn
	// for each run); Runs runs differ in the learners' randomness (MBA's sampling,
	// the online algorithms' order).
	SplitGiven
	// SplitSimulation is the MBA paper's simulation: Runs training sets drawn from a
	// known mixture, one large test set, the Neyman–Pearson detector as reference.
	SplitSimulation
)

// String names the split kind.
func (k SplitKind) String() string {
	return [...]string{"cv", "subsample", "given", "simulation"}[k]
}

// Scalings of a protocol. ScaleAuto and the others are data's (data.ResolveScale):
// "auto" min-max scales to [−1, 1] up to 1000 features and leaves wider data as read,
// normalising rows instead for the algorithms that assume ‖x‖ ≤ 1 (SOLAM, FSAUC).
const (
	ScaleAuto   = data.ScaleAuto
	ScaleMinMax = data.ScaleMinMax
	// ScaleThesis is the thesis' normalisation: x/‖x‖ for the small sets (diabetes,
	// fourclass, german) and for data wider than 1000 features (centring would make
	// them dense), (x − mean)/‖x‖ for the others.
	ScaleThesis = "thesis"
	ScaleNone   = data.ScaleNone
)

// Group is one table of a protocol: the algorithms compared on some datasets, the
// marks relative to Reference.
type Group struct {
	Title     string // e.g. "Table 2 (benchmark data)"
	Reference string // the algorithm the others are t-tested against
	Algos     []string
	Datasets  []string
}

// Protocol is one paper's experiment as the paper ran it.
type Protocol struct {
	Name   string // opauc, ubauc, mba, thesis, mba-sim
	Paper  string // short citation
	Source string // where the protocol is described
	Scale  string // ScaleAuto, ScaleMinMax, ScaleThesis or ScaleNone
	Split  SplitKind
	Trials int     // SplitCV: repetitions of the k-fold split
	Folds  int     // SplitCV: k
	Runs   int     // SplitSubsample, SplitGiven, SplitSimulation: runs per dataset
	Frac   float64 // SplitSubsample: share of the training part per run
	// InnerFolds ≥ 2 chooses each run's grid point by InnerFolds-fold stratified
	// cross-validation of its training part; otherwise a stratified held-out share
	// Holdout of it is used. The point is then refitted on the whole training part.
	InnerFolds int
	Holdout    float64
	// BatchMaxRows > 0 trains the batch algorithms on a random BatchMaxRows rows of a
	// larger training part (OPAUC: "8,000 training examples are randomly chosen").
	BatchMaxRows int
	// Merge lists the datasets whose training and test parts are pooled, because the
	// paper's row count is the sum (splice: 3,175; sector: 9,619).
	Merge []string
	// Grids overrides an algorithm's registry grid (solver.ParseGrid spec) where the
	// paper's grid differs from the registry's.
	Grids  map[string]string
	Groups []Group
	Notes  []string // protocol details the tables' captions repeat
}

// Protocols returns the known protocols, in the order the CLI lists them.
func Protocols() []Protocol {
	return []Protocol{
		{
			Name: "opauc", Paper: "Gao et al., One-pass AUC optimization, ICML 2013", Source: "Sec. 5.1, Tables 2 and 4",
			Scale: ScaleAuto, Split: SplitCV, Trials: 5, Folds: 5, InnerFolds: 5, BatchMaxRows: 8000,
			Merge: []string{"splice", "sector"},
			Groups: []Group{
				{Title: "Table 2 (benchmark data)", Reference: "opauc",
					Algos:    []string{"opauc", "oam-seq", "oam-gra", "uniexp", "unilog", "svm-or", "ls-auc"},
					Datasets: []string{"diabetes", "fourclass", "german", "splice", "letter", "magic04", "a9a", "w8a", "fashion-mnist"}},
				{Title: "Table 4 (high-dimensional data)", Reference: "opaucr",
					Algos:    []string{"opaucr", "oam-seq", "oam-gra", "uniexp", "opauc-f", "opauc-rp"},
					Datasets: []string{"sector"}},
			},
			Notes: []string{
				"features scaled to [-1, 1] (sector, 55,197 TF-IDF features already in [0, 1], is left as read: min-max scaling would make it dense)",
				"multi-class sets made binary by splitting the classes at random into two equal groups",
				"5 trials of 5-fold CV; hyper-parameters by 5-fold CV inside each training part on the paper's grids; online algorithms make one pass",
				"batch algorithms train on 8,000 random rows of a larger training part, as the paper did",
			},
		},
		{
			Name: "ubauc", Paper: "Lyu and Ying, A univariate bound of area under ROC, UAI 2018", Source: "Sec. 5, Tables 1 and 2",
			Scale: ScaleAuto, Split: SplitSubsample, Runs: 25, Frac: 0.8, Holdout: 0.2,
			Groups: []Group{
				{Title: "Table 2", Reference: "ubauc-batch",
					Algos:    []string{"ubauc-online", "ubauc-batch", "solam", "opauc", "oam-seq", "oam-gra", "svm-or"},
					Datasets: []string{"diabetes", "fourclass", "german", "splice", "a9a", "w8a", "fashion-mnist", "sector"}},
			},
			Notes: []string{
				"the datasets' own train/test split (diabetes, fourclass, german: a stratified 50/50 split, as the paper's Table 1 sizes show; w8a: its test file is missing here, so 50/50 of w8a)",
				"25 models, each on a random 80% of the training part, scored on the test part",
				"(β, γ) and the step size chosen on a stratified 20% validation share of each 80% subset",
				"the paper's UNI-SVM column is not reproduced (aucopt has no SVM)",
			},
		},
		{
			Name: "mba", Paper: "Gultekin et al., MBA: mini-batch AUC optimization, IEEE TNNLS 2020", Source: "Sec. V-B, Tables I and III",
			Scale: ScaleAuto, Split: SplitGiven, Runs: 10, Holdout: 0.2,
			Merge: []string{"svmguide3"},
			Groups: []Group{
				{Title: "Table III", Reference: "mba-l2",
					Algos:    []string{"mba-l2", "mba-l1", "olr", "ftrl", "oam-seq", "adaoam", "mba-el", "mb-psl", "mb-phl"},
					Datasets: []string{"a9a", "german", "fashion-mnist", "mushrooms", "phishing", "svmguide3"}},
			},
			Notes: []string{
				"LIBSVM's own train/test split where there is one, else a stratified 50/50 split redrawn each run (svmguide3: train and test pooled, 642/642 as the paper's Table I)",
				"10 runs per dataset (the paper does not say how many); hyper-parameters on a stratified 20% validation share of the training part",
				"SOLR is ftrl (FTRL-Proximal), OAM is oam-seq, AdaAUC is adaoam; mba-el, mb-psl and mb-phl are the paper's other variants and baselines (no published numbers in Table III)",
			},
		},
		{
			Name: "thesis", Paper: "Natole, Stochastic AUC optimization (regSOLAM, SPAM, SPDAM), PhD thesis", Source: "Tables 3.2, 4.2, 5.2, 6.3",
			Scale: ScaleThesis, Split: SplitCV, Trials: 5, Folds: 5, InnerFolds: 5,
			Merge: []string{"splice", "sector"},
			// SPAM's registry step C = 0.003 is tuned for min-max scaled rows (‖x‖² ≈ 100);
			// the thesis normalises rows to ‖x‖ ≈ 1 and does not print its step, so C
			// joins the grid beside the thesis' β (β₁) grid.
			Grids: map[string]string{
				"spam-l2":  "eta=10^[-2..1];beta=10^[-5..5]",
				"spam-net": "eta=10^[-2..1];beta1=10^[-5..5]",
			},
			Groups: []Group{
				{Title: "Tables 3.2, 4.2, 5.2 and 6.3", Reference: "solam",
					Algos:    []string{"solam", "spam-l2", "spam-net", "spdam", "fsauc", "opauc", "oam-seq", "oam-gra", "svm-or", "ls-auc"},
					Datasets: []string{"diabetes", "fourclass", "german", "splice", "a9a", "svmguide3", "ionosphere", "fashion-mnist", "sector"}},
			},
			Notes: []string{
				"rows normalised: x/‖x‖ for diabetes, fourclass, german (and sector, which centring would make dense), (x - mean)/‖x‖ otherwise",
				"5 trials of 5-fold CV; hyper-parameters by 5-fold CV inside each training part (β ∈ 10^[-5:5] for SPAM; λ ∈ 10^[-5:1] for SPDAM)",
				"regSOLAM: the SOLAM authors' grid ζ ∈ [1:9:100] × R ∈ 10^[-1:5] (λ = 0), not the thesis' ζ × λ ∈ 10^[-5:5] with R = √(2/λ), which gave fourclass .7958 and a9a .8833 (both †) against .8052 and .8966 on the same runs",
				"the OPAUC, OAM, B-SVM-OR and B-LS-SVM numbers the thesis prints are copied from the OPAUC paper (min-max scaling there); FSAUC has no published number",
			},
		},
		{
			Name: "mba-sim", Paper: "Gultekin et al., MBA: mini-batch AUC optimization, IEEE TNNLS 2020", Source: "Sec. V-A, Table II",
			Scale: ScaleNone, Split: SplitSimulation, Runs: 50, Holdout: 0.2,
			Groups: []Group{
				{Title: "Table II", Reference: "mba-l2",
					Algos:    []string{"np", "mba-l2", "olr", "adaoam"},
					Datasets: SimDatasets()},
			},
			Notes: []string{
				"d = 100, class densities Gaussian mixtures with identity covariances (k = 1, 2, 3 components); 20,000 training points about 10% positive, of which SR = 1%, 10%, 100% are used; one test set of 100,000 points",
				"50 training sets per setting; np is the Neyman-Pearson likelihood-ratio detector (no training; the best AUC possible)",
				"ONLR is olr, AdaAUC is adaoam; hyper-parameters on a stratified 20% validation share of each training set",
			},
		},
	}
}

// Lookup returns the protocol called name.
func Lookup(name string) (Protocol, error) {
	var names []string
	for _, p := range Protocols() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Protocol{}, fmt.Errorf("unknown protocol %q (known: %s)", name, strings.Join(names, ", "))
}

// Names lists the protocols.
func Names() []string {
	var out []string
	for _, p := range Protocols() {
		out = append(out, p.Name)
	}
	return out
}

// merged reports whether the protocol pools dataset's train and test parts.
func (p Protocol) merged(dataset string) bool { return slices.Contains(p.Merge, dataset) }

// Describe is a one-paragraph account of the protocol for table captions.
func (p Protocol) Describe() string {
	var split string
	switch p.Split {
	case SplitCV:
		split = fmt.Sprintf("%d × %d-fold stratified CV", p.Trials, p.Folds)
	case SplitSubsample:
		split = fmt.Sprintf("%d models per dataset, each on a random %g%% of the training part, scored on the test part", p.Runs, 100*p.Frac)
	case SplitGiven:
		split = fmt.Sprintf("%d runs per dataset on the given (or a 50/50 stratified) split", p.Runs)
	case SplitSimulation:
		split = fmt.Sprintf("%d training sets per setting", p.Runs)
	}
	sel := fmt.Sprintf("inner %d-fold CV", p.InnerFolds)
	if p.InnerFolds < 2 {
		sel = fmt.Sprintf("a stratified %g%% validation share", 100*p.Holdout)
	}
	return fmt.Sprintf("%s; scaling %s; hyper-parameters by %s on each training part", split, p.Scale, sel)
}
