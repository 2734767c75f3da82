package experiment

import "strings"

// solamAudit is the finding of the audit of SOLAM against the spec and the authors'
// MATLAB code (fnEP_CV_SOLAM.m): the step, p̂_t, gradients, start point, projections
// and γ_t-weighted output all match, and the lazy O(nnz) solver equals a dense
// transcription to 1e-13 on a9a and w8a.
const solamAudit = "protocol detail, not a defect: an audit against the spec and the authors' MATLAB code found none (the O(nnz) solver equals a dense transcription to 1e-13)"

// explanations gives, for a cell more than one published std below the paper
// (protocol/dataset/algo), what differs: the data version, a protocol detail, or a
// defect (a defect gets fixed, not explained). Written after reading the results in
// bench/results; a cell below the paper without an entry says "not yet explained".
var explanations = map[string]string{
	// opauc protocol (reduced runs on the large sets)
	"opauc/a9a/oam-seq":     oamVariance,
	"opauc/a9a/oam-gra":     oamVariance,
	"opauc/magic04/oam-seq": oamVariance,
	"opauc/a9a/uniexp":      uniexpStep,
	"opauc/magic04/uniexp":  uniexpStep,
	"opauc/letter/uniexp":   letterGroups,
	"opauc/letter/ls-auc":   letterGroups,
	"opauc/letter/svm-or":   letterGroups,
	"opauc/letter/unilog":   letterGroups,
	"opauc/letter/oam-gra":  letterGroups,
	"opauc/letter/oam-seq":  letterGroups,
	"opauc/letter/opauc":    letterGroups,

	"opauc/sector/oam-gra": sectorReduced,
	"opauc/sector/uniexp":  sectorReduced,

	// thesis protocol
	"thesis/ionosphere/solam": "protocol detail: one pass over about 280 training rows leaves SOLAM's averaged iterate far from converged, and some folds' inner selection picks a poor ζ (our std .084 is twice the thesis'); the thesis does not say how many passes regSOLAM made (its convergence plots run many iterations). Not verified further",

	"thesis/fashion-mnist/opauc": "data version (Fashion-MNIST for MNIST, as for every cell of this row) and a protocol detail of the reduced run: OPAUC's step grid was cut to η ∈ 2^[-10..-6] to fit the time box, a range picked for min-max scaled rows (‖x‖² in the hundreds); on the thesis' normalised rows (‖x‖ = 1) every run chose the top η = 2^-6, so the grid is too small for one pass here. Under the OPAUC protocol's min-max scaling OPAUC reaches .910 on Fashion-MNIST (opauc-fmnist, η ∈ 2^[-14..-8])",
	"ubauc/fashion-mnist/opauc":  "data version (Fashion-MNIST for MNIST, as for every cell of this row) and a protocol detail of the reduced run: OPAUC's step grid was cut to η ∈ 2^[-10..-6], and every run chose its lowest η; with η ∈ 2^[-14..-8] (interior choice 2^-11) OPAUC gains .005 under the OPAUC protocol (opauc-fmnist, .9053 → .9103)",
	"thesis/sector/solam":        solamAudit + "; on sector one pass of the γ_t-weighted average is far from converged: on sector's own split (R = 10, ζ = 10) the average gives .9027 while the last iterate gives .9534, and with more passes (R = 30, ζ = 28) the average reaches .9476 after 2 and .9719 after 5 (thesis .9734); the thesis does not say how many passes regSOLAM made, and the protocol here makes one",
	"thesis/a9a/solam":           solamAudit + "; one pass of γ_t = ζ/√t steps over about 26,000 rows with ζ chosen on a 20% hold-out (the reduced protocol) and the averaged output, which is order-sensitive; FSAUC, the same saddle point with stage-wise steps, reaches .8993 on the same folds",
	"thesis/a9a/spam-l2":         "protocol detail: 1.05 published stds below over 5 runs with a hold-out choice (the reduced protocol); spam-net, the same learner with an ℓ1 term, is within one std of its published .8980",

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
	"ubauc/a9a/ubauc-online":      "protocol detail: .0026 below, 1.4 of the paper's small std (.0019), over the paper's 25 models; one pass of the online learner with (η, β, γ) from aucopt's own 150-point grid (the paper lists none) chosen on a 20% share. ubauc-batch, the exact minimiser of the same bound, is within its std (.8994), so the bound is not at fault",
	"ubauc/w8a/opauc":             w8aHalf,
	"ubauc/w8a/oam-seq":           w8aHalf,
	"ubauc/w8a/oam-gra":           w8aHalf + "; oam-gra's std (.021) is also three times the paper's",
	"ubauc/w8a/ubauc-batch":       w8aHalf + "; ubauc-batch also ran a reduced 6-point (β, γ) grid (β ∈ {0.1, 1, 10}, γ ∈ {1, 100}) instead of the 30-point one, and γ does not scale with n (the sums in (8) are not averaged), so the grid may miss the paper's point. Not verified further",
	"ubauc/w8a/solam":             w8aHalf + "; and " + solamAudit + ": at SOLAM's fixed R = 10 the γ_t-weighted average of one pass is order-sensitive (over 8 shuffles at ζ = 10 it ranges .86-.92, the last iterate .914-.922), a grid over R ∈ {1, 3, 10, 30} gives .9060 ± .0052 (it always picks R = 3), and the thesis' centred rows (x - mean)/‖x‖ reach norm 1.54 on w8a, past the κ = 1 SOLAM assumes: uncentred x/‖x‖ rows with that R grid give .9287 ± .0028 (paper .9114). The paper's grid and scaling are kept here",
	"ubauc/sector/ubauc-online":   sectorBinary,
	"ubauc/sector/solam":          sectorBinary + "; and " + solamAudit + ": one pass of SOLAM's averaged iterate is far from converged on sector (.9027 average against .9534 for the last iterate on its own split; .9719 after 5 passes). A wider grid (ζ up to 1000, R up to 1000; ubauc-online's η up to 1000) changed neither cell",
	"ubauc/a9a/oam-seq":           "protocol detail (reduced run): 1.07 published stds below over 5 models instead of 25; OAM's reservoir buffers make it high-variance (our std .020), and under the OPAUC protocol oam-seq reaches .8218 on a9a too",

	// mba protocol
	"mba/a9a/oam-seq":      "protocol detail: the MBA paper's OAM takes stochastic-gradient steps of size O(1/√t) (Sec. V-B), aucopt's oam-seq the sequential PA updates of Zhao et al.; oam-seq on a9a also stays well below under the OPAUC protocol (.8218 here against OPAUC's published .8420), so the MBA paper's .8930 comes from a different OAM step schedule, and our 3 runs vary widely (std .048)",
	"mba/german/mba-l2":    mbaSplit,
	"mba/german/mba-l1":    mbaSplit,
	"mba/german/oam-seq":   mbaSplit,
	"mba/phishing/mba-l2":  mbaNarrow,
	"mba/phishing/mba-l1":  mbaNarrow,
	"mba/phishing/oam-seq": mbaNarrow,
	"mba/phishing/adaoam":  mbaNarrow,
}

func init() {
	for k := 1; k <= 3; k++ {
		for _, sr := range simRatios {
			d := "mba-sim/" + SimName(k, sr) + "/"
			explanations[d+"np"] = simNP
			for _, a := range []string{"mba-l2", "olr", "adaoam"} {
				switch {
				case sr < 0.05:
					explanations[d+a] = simFew
				case sr < 0.5:
					explanations[d+a] = simTen
				default:
					explanations[d+a] = simAll
				}
			}
		}
	}
}

// The simulation's explanations.
const (
	simNP  = "data detail: the Neyman-Pearson AUC of one finite test set (100,000 points, about 10,000 positive; sampling std about .003), not the population value; for k = 1 the population AUC is Φ(√2) = .9214, and ours is .9207"
	simFew = "protocol or paper detail: at SR = 1% a training set has 200 points, about 20 positive. With identity covariances the best a linear learner can estimate is the mean-difference rule w = δ̂, whose expected AUC is Φ(‖δ‖cos∠(δ̂, δ)/√2) ≈ Φ(2 · 0.65/√2) ≈ .82 for k = 1 (noise ‖δ̂ - δ‖² ≈ 100 · (1/20 + 1/180) against ‖δ‖² = 4); MBA-ℓ2 with a large fixed λ₂ (≈ that rule) measures .8175. The paper's .8743 is out of reach if SR subsamples points; its SR may subsample something else (pairs), which the text does not settle. The 20% validation share (about 4 positives) also makes the grid choice close to random here"
	simTen = "protocol detail: at SR = 10% (about 200 positives) the mean-difference rule's expected AUC is about .90 for k = 1 by the same calculation as at SR = 1%; the paper's numbers sit above that, so its SR probably subsamples something other than points. The grid choice on a 20% validation share (about 40 positives) adds noise"
	simAll = "data detail: at SR = 100% the gap to the paper (.003-.005) equals the gap between our test set's Neyman-Pearson AUC and the paper's (k = 3: .7988 against .8022): the test sample, not the learner; adaoam also runs a reduced grid (7 step sizes, one λ)"
)

// Shared explanations.
const (
	sectorReduced  = "protocol detail (reduced run): one pass over 3,000 of the 6,400 training rows of a 55,197-feature set, with a 9-point C grid (oam-gra) or a 14-point (η, λ) grid (uniexp) instead of the paper's 2^[-12..10] × …; the one-pass learners that are not OPAUC-type are the ones that lose most from fewer rows and steps. Not verified with the full protocol"
	oamVariance    = "protocol detail: the paper's grid C ∈ 2^[-10..10] is too high for OAM here. With C_t = C·max(1, N_t/N) growing with the stream, the inner CV picks the lower edge C = 2^-10 in 21 of 25 runs on magic04 (19 on a9a). The best C lies below the grid, and at its edge OAM is still too aggressive and order-sensitive: AUC .63-.84 over the runs, std .044 against the paper's .015. The same protocol with the grid extended to 2^[-16..10] gives oam-seq .8380 ± .0062 and oam-gra .8391 ± .0058 on magic04, above the paper's .8238 and .8259. So the gap is the grid's edge, not the learner"
	uniexpStep     = "protocol detail: Uni-Exp's exponential loss is steep, and with one pass of η/√t steps the point chosen on the 80% inner part can diverge on the refit over the whole training part (the cell's note); on a9a the surviving runs sit .007 below the paper and below unilog (.9015 on the same folds), the batch minimiser of the related logistic loss, so it is the one-pass stochastic optimisation, not the model. The paper does not give its step schedule"
	letterGroups   = "data detail: letter's 26 classes are split at random into two groups of 13 (the paper's rule; its grouping is not published); with seed 1's grouping every learner, the batch optimum ls-auc included, reaches .72, so the gap to the paper's .81 is the grouping, not the learners (another --seed draws another grouping)"
	sectorBinary   = "data version: sector's 105 classes are grouped at random into two halves (the OPAUC paper's rule; seed 1's grouping); the UBAUC paper does not say how it made sector binary, and its own columns (.98) sit far above the OPAUC numbers it copies into the same table (OPAUC .9292, OAM .90-.92), which points to an easier binary task. On our grouping ubauc-online (.9644) beats OPAUCr (.9269 in opauc-sector) by .04, as the paper's beats the OPAUC number by .055"
	w8aHalf        = "data version: w8a's test file is not in ../shared/data, so a stratified 50/50 split of w8a stands in; each model trains on 80% of 24,875 rows (about 590 positives), 40% of the paper's 39,800. Under the OPAUC protocol (5-fold CV, about 39,800 training rows) the same learners reach or beat the paper (opauc .9648, oam-seq .9373, oam-gra .9483)"
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
