package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine/data"
)

// DataFacts are the properties of a training set that Spec.Defaults scales a learner's
// default hyper-parameters by: its size, width, row norms and class balance, measured
// on the rows as the learner sees them (after scaling).
type DataFacts struct {
	Rows       int     // training rows n
	Features   int     // features d
	MeanSqNorm float64 // mean squared row norm R² = (1/n)·Σ‖xᵢ‖²
	Positives  int     // positive rows
	// Passes is the passes an online learner will make over the rows (the caller's
	// --passes, else Spec.DefaultPasses); 0 when not known or for a batch algorithm.
	Passes int
}

// FactsOf measures d's DataFacts.
func FactsOf(d *data.Dataset) DataFacts {
	f := DataFacts{Rows: d.Rows(), Features: d.Dim}
	f.Positives, _ = d.Counts()
	if f.Rows == 0 {
		return f
	}
	var sum float64
	for i := range f.Rows {
		if d.IsDense() {
			for _, v := range d.DenseRow(i) {
				sum += v * v
			}
			continue
		}
		for _, v := range d.Row(i).Val {
			sum += v * v
		}
	}
	f.MeanSqNorm = sum / float64(f.Rows)
	return f
}

// String writes the facts as the notes and logs show them.
func (f DataFacts) String() string {
	s := fmt.Sprintf("n=%d d=%d mean‖x‖²=%.4g positives=%d", f.Rows, f.Features, f.MeanSqNorm, f.Positives)
	if f.Passes > 1 {
		s += fmt.Sprintf(" passes=%d", f.Passes)
	}
	return s
}

// RidgeScale is the data-scaled weight that the defaults' regularisation is a multiple
// of: ρ = R²/n, the mean squared feature value R²/d (the curvature a feature adds to a
// square or logistic loss) times d/n (ridge regression's optimal λ grows with the
// number of parameters per example, λ* ∝ d·σ²/(n‖w*‖²)). It is 0 for empty data.
//
// Measured on the small shared sets (stratified 70/30, seed 1, [−1, 1] scaling), the
// AUC-best λ of ls-auc spans 10⁻³ (svmguide3, d/n = .024) to 0.3 (sonar, d/n = .41): a
// fixed λ cannot serve both, a multiple of ρ does.
func (f DataFacts) RidgeScale() float64 {
	if f.Rows == 0 {
		return 0
	}
	return f.MeanSqNorm / float64(f.Rows)
}

// clamp returns x limited to [lo, hi].
func clamp(x, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, x)) }

// Known reports whether the facts were measured (a streamed file's rows are not
// looked at before training: its facts are unknown and the static defaults hold).
func (f DataFacts) Known() bool { return f.Rows > 0 && f.MeanSqNorm > 0 }

// Ridge multipliers of the data-scaled defaults: λ = c·ρ (RidgeScale), each c fitted
// once on the small shared sets (where a fixed λ fails, see RidgeScale) and checked on
// the large ones; the rule itself is the same for every dataset.
const (
	// ridgeSquare is c of the pairwise square-loss learners (ls-auc, mba-l2, spdam):
	// sonar λ = 0.29 (the best AUC there is at 0.3), svmguide3 0.030, a9a 0.0072.
	ridgeSquare = 2.0
	// ridgeHinge is c of svm-or's pairwise hinge loss: sonar λ = 0.15, svmguide3 0.015.
	ridgeHinge = 1.0
	// ridgeLasso is c of MBA's ℓ1 weight (mba-l1; mba-el takes half of each weight,
	// as its static defaults do): sonar λ₁ = 0.073, svmguide3 0.0075.
	ridgeLasso = 0.5
	// stepSquare is c of the one-pass square-loss step η = c/R² (OPAUC and its
	// variants): SGD on a square loss is stable for η·‖x − x'‖² < 2, and the pair
	// differences have ‖x − x'‖² ≈ 2R²; c = 0.1 sits well inside, on the plateau of
	// the AUC-best steps of the small sets (2⁻¹⁰ on sonar, R² = 21; 2⁻⁶ on diabetes,
	// R² = 2.9), limited to OPAUC's paper grid [2⁻¹², 2¹⁰]. Over P passes the step is
	// c/(R²·√P) (squareStep).
	stepSquare = 0.1
	// oamSeqC is c of OAM_seq's penalty C = c/(R²·P²) (oamC; OAM_gra takes 2c).
	oamSeqC = 4e-3
)

// squareMinSteps is the MinSteps of OPAUC and its variants. Their iterate, a constant
// step's SGD on the pairwise square loss with the classes' running means and
// covariances, settles at LS-AUC's ridge solution (at the same λ) only after many
// steps, and only if the step shrinks with them: one pass over a few hundred rows
// stops far from it. Measured on the 70/30 splits of the eleven small shared sets
// (TestDefaultsNearUnilog), OPAUC at one pass with the paper's λ = 2⁻¹⁰ gave .768 on
// svmguide3 against unilog's .808 and LS-AUC's .796; ⌈20,000/n⌉ passes at the same
// step .812 there but .901 on ionosphere (.969) and .831 on sonar (.861); with λ = 2ρ
// (LS-AUC's rule) and η = 0.1/(R²·√P) over ⌈50,000/n⌉ passes every set is within
// 0.015 of LS-AUC and within 0.016 of unilog (svmguide3 .7925). A constant step
// without the √P gives .777–.784 on svmguide3 (its noise around the optimum), a
// quarter step at one pass costs w8a .964 → .958, hence the step falls with the
// passes and large sets (OnePassRows) keep one pass and the full step.
const squareMinSteps = 50_000

// squareStep is the data-scaled OPAUC step c/(R²·√P) (stepSquare) for P passes,
// within the paper's grid.
func squareStep(f DataFacts) float64 {
	return clamp(stepSquare/(f.MeanSqNorm*math.Sqrt(float64(max(f.Passes, 1)))), 0x1p-12, 0x1p10)
}

// opaucDefaults sets the data-scaled step and ridge of OPAUC and its variants: η =
// squareStep, λ = 2ρ (LS-AUC's ridge, the solution OPAUC's iterate settles at).
func opaucDefaults(f DataFacts, eta, lambda *float64) {
	*eta, *lambda = squareStep(f), ridgeSquare*f.RidgeScale()
}

// oamC is OAM's data-scaled penalty C = c/(R²·P²) for the P passes it makes
// (DataFacts.Passes; by default ⌈oamMinSteps/n⌉, at most MaxDefaultPasses). C bounds
// every pair's step, and the step of example t grows with the stream, C_t = C·N_t/N
// (N_t examples of the other class seen), so P passes at C/P² take in all the steps of
// one pass at C, spread over P times as many examples: the iterate settles instead of
// swinging with steps that grow with every pass. ‖x − x'‖² ≈ 2R² sets the scale of a
// step. OAM_gra's pair step is C_t/2 against OAM_seq's C_t (while the PA step is
// capped, as it is here), so its c is twice OAM_seq's. Measured on the eleven small
// sets (stratified 70/30, seed 1): OAM_seq within 0.013 of unilog at c = 3·10⁻³ and
// within 0.016 at 6·10⁻³, OAM_gra within 0.013 and 0.015 at 6·10⁻³ and 10⁻² (the static
// C = 2⁻³ and one pass: liver-disorders .49, australian .69 against .75, .93); c below
// those loses sonar and svmguide3 (OAM_gra at 3·10⁻³: .83 against .86, .78 against
// .81), above them liver-disorders (OAM_seq at 2·10⁻²: .72 against .75). On one pass
// (from OnePassRows rows) it is C = c/R², within the range that beats the static
// default there (a9a C ∈ [10⁻⁸, 10⁻⁴], w8a C ≥ 10⁻⁶).
func oamC(f DataFacts, c float64) float64 {
	p := float64(max(f.Passes, 1))
	return c / (f.MeanSqNorm * p * p)
}

// spamDefaults sets SPAM's multi-pass defaults (DataFacts.Passes > 1; one pass keeps
// the static ones, tuned on a9a as the paper runs it). At the static step C/t^¼ and
// β = 10⁻⁴ the passes crawl along the small-curvature directions of an
// ill-conditioned covariance (svmguide3's min-maxed one has a condition number of
// 1.6·10⁴: SPAM-ℓ2 .750 against unilog's .808 after 23 passes; 50,000 or 100,000
// steps .769/.776) and the iterate ends wherever the step left it. SPAM's loss is a
// square loss, for which the average of constant-step iterates converges whatever the
// conditioning (Bach and Moulines, NIPS 2013, at their step 1/(4R²)): so θ = 0, C =
// 1/(4R²), the output the average of the second half of the passes' iterates
// (avgfrom), and the ridge β = ρ (RidgeScale), which the average then settles at as
// LS-AUC's iterate does at 2ρ. Measured on the eleven small sets (stratified 70/30,
// seed 1): svmguide3 .750 → .794, every set within .015 of unilog (liver-disorders
// .754 → .732, ionosphere .964 → .954); the whole-run average instead of the tail's
// .789 on svmguide3, β = ρ/10 with the tail's average .771 on liver-disorders and .909
// on ionosphere, C = 1/R² .948 on ionosphere.
func spamDefaults(f DataFacts, p *SPAMParams) {
	if f.Passes <= 1 {
		return
	}
	p.Eta, p.Theta, p.Beta = 0.25/f.MeanSqNorm, 0, f.RidgeScale()
	p.AvgFrom = f.Rows*(f.Passes/2) + 1
}

// dataDefaults are the data-scaled defaults per algorithm, for Spec.Defaults. Each
// function changes only the fields its rule names; the others keep the static
// defaults. SOLAM and FSAUC (issue 14) are not here: their defaults are set with their
// solvers.
var dataDefaults = map[string]func(f DataFacts, params Params){
	"ls-auc": func(f DataFacts, p Params) { p.ptr.(*LSAUCParams).Lambda = ridgeSquare * f.RidgeScale() },
	// MBA takes every pair where that is the cheaper estimate (pairs=auto: n ≤ B·T),
	// besides its ridge or lasso weight. On the dense 50,000 × 2,000 set of issue 15
	// (bench/dataload.sh, from its cache): the static 10⁵ sampled pairs, 6.6 s of
	// training and test AUC .9264; every pair 3.9 s and .9282 (LIBLINEAR .9289).
	"mba-l2": func(f DataFacts, p Params) {
		q := p.ptr.(*MBAParams)
		q.Lambda2, q.Pairs = ridgeSquare*f.RidgeScale(), MBAPairsAuto
	},
	"mba-l1": func(f DataFacts, p Params) {
		q := p.ptr.(*MBAParams)
		q.Lambda1, q.Pairs = ridgeLasso*f.RidgeScale(), MBAPairsAuto
	},
	"mba-el": func(f DataFacts, p Params) {
		q := p.ptr.(*MBAParams)
		q.Lambda1, q.Lambda2 = ridgeLasso*f.RidgeScale()/2, ridgeSquare*f.RidgeScale()/2
		q.Pairs = MBAPairsAuto
	},
	"oam-seq": func(f DataFacts, p Params) { p.ptr.(*OAMParams).C = oamC(f, oamSeqC) },
	"oam-gra": func(f DataFacts, p Params) { p.ptr.(*OAMParams).C = oamC(f, 2*oamSeqC) },
	"opauc":   func(f DataFacts, p Params) { q := p.ptr.(*OPAUCParams); opaucDefaults(f, &q.Eta, &q.Lambda) },
	// AdaOAM minimises OPAUC's objective, so over several passes (DataFacts.Passes > 1;
	// one pass keeps the static defaults, tuned on a9a) it takes OPAUC's ridge λ = 2ρ
	// and AdaGrad's step η = 2⁻⁴. AdaGrad divides each coordinate's gradient by its
	// accumulated norm, so η is in the units of w, not of the data, and the static
	// 2⁻⁸ (with λ = 2⁻¹⁰) moved too little along svmguide3's small-curvature
	// directions (.773 against unilog's .808). Measured on the eleven small sets
	// (stratified 70/30, seed 1): η = 2⁻⁴ every set within .016 of unilog (svmguide3
	// .796, ionosphere .953, liver-disorders .736); 2⁻⁶ svmguide3 .788, 2⁻² ionosphere
	// .949, 2⁻⁸ svmguide3 .771.
	"adaoam": func(f DataFacts, p Params) {
		if f.Passes > 1 {
			q := p.ptr.(*AdaOAMParams)
			q.Eta, q.Lambda = 0x1p-4, ridgeSquare*f.RidgeScale()
		}
	},
	"spam-l2":  func(f DataFacts, p Params) { spamDefaults(f, p.ptr.(*SPAMParams)) },
	"spam-net": func(f DataFacts, p Params) { spamDefaults(f, p.ptr.(*SPAMParams)) },
	"opaucr": func(f DataFacts, p Params) {
		q := p.ptr.(*OPAUCrParams)
		opaucDefaults(f, &q.Eta, &q.Lambda)
	},
	"opauc-f": func(f DataFacts, p Params) {
		q := p.ptr.(*OPAUCfParams)
		opaucDefaults(f, &q.Eta, &q.Lambda)
	},
	"opauc-rp": func(f DataFacts, p Params) {
		q := p.ptr.(*OPAUCrpParams)
		opaucDefaults(f, &q.Eta, &q.Lambda)
	},
	// MB-PSL and MB-PHL take 2000 steps η₀/√t of 100 pairs: the step must reach the
	// optimum within that budget and stay stable. The square loss's curvature is R²
	// (η₀ = 3/R² in [2⁻⁶, 2⁻²]: diabetes, R² = 2.9, .8283 at the static 2⁻⁶ and .8638
	// at 2⁻²); the hinge's gradient grows with ‖x‖ (η₀ = 4/R in [2⁻², 4]: svmguide3
	// .7759 at the static 2⁻², .7926 at 1). η₀·λ stays below 1/2 (the solver needs < 1).
	// Below OnePassRows rows (where the online learners take more passes) MB-PSL
	// takes T = 20,000 steps, ten times the static 2000, and approaches the ORACLE
	// (ls-auc): svmguide3 .7850 at 2000, .7895 at 5000, .7946 at 20,000 (ls-auc .7964);
	// the small sets cost at most 0.1 s more. a9a and w8a keep 2000.
	"mb-psl": func(f DataFacts, p Params) {
		q := p.ptr.(*MBPairParams)
		q.Lambda = ridgeSquare * f.RidgeScale()
		q.Eta = math.Min(clamp(3/f.MeanSqNorm, 0x1p-6, 0x1p-2), 0.5/q.Lambda)
		if f.Rows < OnePassRows {
			q.T = 20_000
		}
	},
	"mb-phl": func(f DataFacts, p Params) {
		q := p.ptr.(*MBPairParams)
		q.Lambda = ridgeHinge * f.RidgeScale()
		q.Eta = math.Min(clamp(4/math.Sqrt(f.MeanSqNorm), 0x1p-2, 4), 0.5/q.Lambda)
	},
	// spdam's linear rate slows as λ shrinks (the thesis: 230 epochs at 0.1 on a9a), so
	// λ stays at least 0.01, and at least its static 0.1 from 5,000 rows on: w8a (34,824
	// rows) ran over 100 s at 2ρ = 0.017 against 33.5 s at 0.1 (test AUC .9713).
	"spdam": func(f DataFacts, p Params) {
		floor := 0.01
		if f.Rows >= 5000 {
			floor = 0.1
		}
		p.ptr.(*SPDAMParams).Lambda = math.Max(ridgeSquare*f.RidgeScale(), floor)
	},
	"svm-or": func(f DataFacts, p Params) { p.ptr.(*SVMORParams).Lambda = ridgeHinge * f.RidgeScale() },
	// OLR, FTRL and Uni-Exp make ⌈20,000/n⌉ passes (at most 100) on a set of fewer than
	// 20,000 rows (defaultMinSteps). The rules below hold whenever they make more than
	// one pass (DataFacts.Passes; one pass keeps the static defaults, as --algo auto
	// and the large sets run). At their static steps and ℓ2 weights the passes do not
	// help (the steps shrink as η/√t while the iterate crawls along the ill-conditioned
	// directions: svmguide3's min-maxed covariance has a condition number of 1.6·10⁴,
	// engine/defaults_test.go), so on such a set each takes a step scaled to the row
	// norms, c/R² (a logistic or exponential loss's curvature is at most of order
	// R²), and an ℓ2 weight of order 1/n, the multi-pass iterate then approaching the
	// regularised fit, as unilog's λ = 2/n does (for two class means; one mean over the
	// rows is λ = 1/n). Each c was swept on the eleven small sets (stratified 70/30,
	// seed 1) for the worst test AUC minus unilog's, the rules below against those around:
	// OLR λ = 0.5/n: η = 24/R² −.021, 32/R² −.018, 48/R² −.021 (λ = 1/n, 32/R²: −.021;
	// without the bias, η = 1, λ = 0.5·max(2/n, 3·10⁻³): sonar .80, svmguide3 .78);
	// Uni-Exp λ = 2/n: η = 12/R² −.020, 16/R² −.018, 32/R² −.020 (λ = 4/n: −.018 to −.027);
	// FTRL sums its losses over the passes instead of averaging them, so its λ₂ is the
	// per-row weight max(1/n, 1.5·10⁻³) (unilog's, halved) times the P·n rows seen, and
	// its per-coordinate rate takes α = 8: α = 4, 8, 16 give −.018, −.016, −.015 (the
	// static α = 1/8: −.042). The bias that OLR and FTRL fit is the other half of it
	// (sonar, 100 passes at η = 1: OLR .78 without, .87 with). η·λ stays below 1/2
	// (the solvers need < 1); on the small sets it is at most 0.09.
	"olr": func(f DataFacts, p Params) {
		if f.Passes > 1 {
			q := p.ptr.(*OLRParams)
			q.Lambda = 0.5 / float64(f.Rows)
			q.Eta = math.Min(32/f.MeanSqNorm, 0.5/q.Lambda)
		}
	},
	"uniexp": func(f DataFacts, p Params) {
		if f.Passes > 1 {
			q := p.ptr.(*UniExpParams)
			q.Lambda = 2 / float64(f.Rows)
			q.Eta = math.Min(16/f.MeanSqNorm, 0.5/q.Lambda)
		}
	},
	"ftrl": func(f DataFacts, p Params) {
		if f.Passes > 1 {
			q := p.ptr.(*FTRLParams)
			q.L2 = float64(f.Passes) * math.Max(1, 1.5e-3*float64(f.Rows))
			q.Alpha = 8
		}
	},
	// unilog is LIBLINEAR's -s 0 with C = 1: ½‖w‖² + Σᵢ log(1 + e^{−yᵢw·xᵢ}) divided
	// by n/2 is Uni-Log's objective (two class means) for balanced classes with λ = 2/n.
	// Above 667 rows λ stays 3·10⁻³: the L-BFGS solver Uni-Log had then slowed as λ
	// shrank for no gain in AUC (a9a, CPU user+sys of the whole run: 1.5 s at the
	// static 10⁻², 2.6 s at 3·10⁻³, 3.7 s at 10⁻³; test AUC .9024, .9024, .9023).
	// Newton's method (unilog.go) kept the rule, so that results stay comparable.
	// UBAUC's least-squares term (β/2)(1 − y x·w)² has no intercept: on min-max
	// scaled rows (means far from 0) it spends w on the mean, and no (β, γ) reaches
	// unilog on sonar (ubauc-batch at best .8307 over β ∈ 10^[-2..0.5], γ ∈ 10^[0..4],
	// unilog .8610). Both learners centre the rows (center=true). ubauc-batch sums its
	// n losses, so its γ is n times an averaged ridge: γ = n·2βρ = 2βR² (ridgeSquare);
	// sonar .7952 → .8704, ionosphere .8704 → .9631, the other sets within .012 of
	// unilog; a9a .8992 → .8997 (γ = 246), w8a (70/30 split) .9270 → .9604 (γ = 600).
	// Centred with a constant γ the AUC-best γ is 30–50 on sonar and ionosphere, ≤ 10 on
	// svmguide3 (γ = 100: .7846 against unilog's .8076); 2R² gives 43, 27 and 27.
	//
	// ubauc-online's ridge is per example: γ = βρ (ridgeHinge) and, from its
	// defaultMinSteps passes, sonar .7827 → .8600, ionosphere .8649 → .9572, liver
	// .6953 → .7422, diabetes .8443 → .8669, fourclass .7990 → .8294, svmguide3 .7539 →
	// .7908 (2βρ: .7867, below unilog's .8076 by more than .02; βρ/2: ionosphere .9505).
	// β = 1 rather than the static 0.1, where centred liver, diabetes, fourclass,
	// german and svmguide3 fall .05–.13 short (β = 0.3: german .7967, β = 0.5: liver
	// .7212). The unweighted square loss is the majority class's: on w8a (3% positive,
	// one pass) β = 1 gives .9238 against .9430 at the static defaults, β = 0.3 .9495,
	// 0.12 .9555. So β = min(1, 4π), π the minority fraction: every small set (π ≥ .26)
	// and a9a (π = .24: β = .96, .8931 → .8942) keep about 1, w8a gets .12.
	"ubauc-online": func(f DataFacts, p Params) {
		q := p.ptr.(*UBAUCParams)
		minority := float64(min(f.Positives, f.Rows-f.Positives)) / float64(f.Rows)
		q.Center, q.Beta = true, math.Min(1, 4*minority)
		q.Gamma = ridgeHinge * q.Beta * f.RidgeScale()
	},
	"ubauc-batch": func(f DataFacts, p Params) {
		q := p.ptr.(*UBAUCBatchParams)
		q.Center, q.Gamma = true, ridgeSquare*q.Beta*f.MeanSqNorm
	},
	"unilog": func(f DataFacts, p Params) { p.ptr.(*UniLogParams).Lambda = math.Max(2/float64(f.Rows), 3e-3) },
}

// withDefaults sets each Spec's Defaults from dataDefaults.
func withDefaults(specs []Spec) []Spec {
	for i := range specs {
		if fn, ok := dataDefaults[specs[i].Name]; ok {
			specs[i].Defaults = func(f DataFacts, params Params) {
				if f.Known() {
					fn(f, params)
				}
			}
		}
	}
	return specs
}
