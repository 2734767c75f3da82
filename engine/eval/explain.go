package eval

import "strings"

// explanations gives, for a cell more than one published std below the paper
// (protocol/dataset/algo), what differs: the data version, a protocol detail, or a
// defect (a defect gets fixed, not explained). Written after reading the results in
// bench/results; a cell below the paper without an entry says "not yet explained".
var explanations = map[string]string{
	// thesis protocol
	"thesis/ionosphere/solam": "protocol detail: one pass over about 280 training rows leaves SOLAM's averaged iterate far from converged, and some folds' inner selection picks a poor ζ (our std .084 is twice the thesis'); the thesis does not say how many passes regSOLAM made (its convergence plots run many iterations). Not verified further",

	// ubauc protocol
	"ubauc/diabetes/solam":        ubaucSelection,
	"ubauc/fourclass/solam":       ubaucSelection,
	"ubauc/german/solam":          ubaucSelection,
	"ubauc/splice/solam":          ubaucSelection + "; splice's 800-row subsets also give SOLAM's one pass few steps",
	"ubauc/fourclass/ubauc-batch": ubaucSelection,
	"ubauc/fourclass/opauc":       ubaucSelection,
	"ubauc/fourclass/oam-seq":     ubaucSelection,
	"ubauc/german/opauc":          ubaucSelection,
	"ubauc/german/oam-seq":        ubaucSelection,

	// mba protocol
	"mba/german/mba-l2":    mbaSplit,
	"mba/german/mba-l1":    mbaSplit,
	"mba/german/oam-seq":   mbaSplit,
	"mba/phishing/mba-l2":  mbaNarrow,
	"mba/phishing/mba-l1":  mbaNarrow,
	"mba/phishing/oam-seq": mbaNarrow,
	"mba/phishing/adaoam":  mbaNarrow,
}

// Shared explanations.
const (
	ubaucSelection = "protocol detail: the grid point is chosen on a 20% share of an 80% subset of a 50/50 split (diabetes: 61 validation rows), and a few of the 25 runs choose a point that generalises badly — the std is 3-5× the paper's, the median run is near the paper's mean. The paper does not say how large its validation set was; inner 5-fold CV would be steadier"
	mbaSplit       = "protocol detail: german has no LIBSVM split, so each run draws its own stratified 50/50 split; our std (.012-.018) is mostly that split's variance, while the paper's (.008) comes from one unpublished split. The batch optimum of the same loss under the OPAUC protocol's 5 × 5 CV (ls-auc .7958) is where MBA converges"
	mbaNarrow      = "protocol detail: the gap is .001-.007 AUC; the paper's std (.0001-.0027) comes from one unpublished 50/50 split, ours (.0010-.0078) from five different splits, so a one-paper-std band is narrower than the split-to-split variation"
)

// explain copies the explanations into the cells that are below the paper.
func (r *Report) explain() {
	for _, t := range r.Tables {
		for d, row := range t.Cells {
			for a, c := range row {
				if c.Below {
					c.Explain = explanations[r.Protocol+"/"+d+"/"+a]
					if c.Explain == "" && (d == "fashion-mnist" || c.Paper != nil && len(c.Paper.Source) > 0 && strings.Contains(c.Paper.Source, "mnist")) {
						c.Explain = "data version: Fashion-MNIST stands in for the paper's MNIST and is a harder problem (its classes grouped at random), so the paper's MNIST number is not reachable"
					}
				}
			}
		}
	}
}
