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
	return fmt.Sprintf("n=%d d=%d mean‖x‖²=%.4g positives=%d", f.Rows, f.Features, f.MeanSqNorm, f.Positives)
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
	// R² = 2.9), limited to OPAUC's paper grid [2⁻¹², 2¹⁰].
	stepSquare = 0.1
	// oamSeqC is c of OAM_seq's penalty C = c/(R²·P²) (oamC; OAM_gra takes 2c).
	oamSeqC = 4e-3
)

// oamC is OAM's data-scaled penalty C = c/(R²·P²) for the P = ⌈oamMinSteps/n⌉ passes
// (at most MaxDefaultPasses) it makes by default. C bounds every pair's step, and the
// step of example t grows with the stream, C_t = C·N_t/N (N_t examples of the other
// class seen), so P passes at C/P² take in all the steps of one pass at C, spread over
// P times as many examples: the iterate settles instead of swinging with steps that
// grow with every pass. ‖x − x'‖² ≈ 2R² sets the scale of a step. OAM_gra's pair step
// is C_t/2 against OAM_seq's C_t (while the PA step is capped, as it is here), so its
// c is twice OAM_seq's. Measured on the eleven small sets (stratified 70/30, seed 1):
// OAM_seq within 0.013 of unilog at c = 3·10⁻³ and within 0.016 at 6·10⁻³, OAM_gra
// within 0.013 and 0.015 at 6·10⁻³ and 10⁻² (the static C = 2⁻³ and one pass:
// liver-disorders .49, australian .69 against .75, .93); c below those loses sonar and svmguide3 (OAM_gra at 3·10⁻³:
// .83 against .86, .78 against .81), above them liver-disorders (OAM_seq at 2·10⁻²:
// .72 against .75). On one pass (n ≥ 30,000) it is C = c/R², the middle of the range
// that beats the static default there (a9a C ∈ [10⁻⁸, 10⁻⁴], w8a C ≥ 10⁻⁶).
func oamC(f DataFacts, c float64) float64 {
	p := float64(min((oamMinSteps+f.Rows-1)/f.Rows, MaxDefaultPasses))
	return c / (f.MeanSqNorm * p * p)
}

// squareStep is the data-scaled OPAUC step c/R² (stepSquare), within the paper's grid.
func squareStep(f DataFacts) float64 { return clamp(stepSquare/f.MeanSqNorm, 0x1p-12, 0x1p10) }

// dataDefaults are the data-scaled defaults per algorithm, for Spec.Defaults. Each
// function changes only the fields its rule names; the others keep the static
// defaults. The algorithms of issue 14 (SOLAM, SPAM, FSAUC, UBAUC) are not here:
// their defaults are set with their solvers.
var dataDefaults = map[string]func(f DataFacts, params Params){
	"ls-auc": func(f DataFacts, p Params) { p.ptr.(*LSAUCParams).Lambda = ridgeSquare * f.RidgeScale() },
	"mba-l2": func(f DataFacts, p Params) { p.ptr.(*MBAParams).Lambda2 = ridgeSquare * f.RidgeScale() },
	"mba-l1": func(f DataFacts, p Params) { p.ptr.(*MBAParams).Lambda1 = ridgeLasso * f.RidgeScale() },
	"mba-el": func(f DataFacts, p Params) {
		q := p.ptr.(*MBAParams)
		q.Lambda1, q.Lambda2 = ridgeLasso*f.RidgeScale()/2, ridgeSquare*f.RidgeScale()/2
	},
	"oam-seq":  func(f DataFacts, p Params) { p.ptr.(*OAMParams).C = oamC(f, oamSeqC) },
	"oam-gra":  func(f DataFacts, p Params) { p.ptr.(*OAMParams).C = oamC(f, 2*oamSeqC) },
	"opauc":    func(f DataFacts, p Params) { p.ptr.(*OPAUCParams).Eta = squareStep(f) },
	"opaucr":   func(f DataFacts, p Params) { p.ptr.(*OPAUCrParams).Eta = squareStep(f) },
	"opauc-f":  func(f DataFacts, p Params) { p.ptr.(*OPAUCfParams).Eta = squareStep(f) },
	"opauc-rp": func(f DataFacts, p Params) { p.ptr.(*OPAUCrpParams).Eta = squareStep(f) },
	// MB-PSL and MB-PHL take 2000 steps η₀/√t of 100 pairs: the step must reach the
	// optimum within that budget and stay stable. The square loss's curvature is R²
	// (η₀ = 3/R² in [2⁻⁶, 2⁻²]: diabetes, R² = 2.9, .8283 at the static 2⁻⁶ and .8638
	// at 2⁻²); the hinge's gradient grows with ‖x‖ (η₀ = 4/R in [2⁻², 4]: svmguide3
	// .7759 at the static 2⁻², .7926 at 1). η₀·λ stays below 1/2 (the solver needs < 1).
	"mb-psl": func(f DataFacts, p Params) {
		q := p.ptr.(*MBPairParams)
		q.Lambda = ridgeSquare * f.RidgeScale()
		q.Eta = math.Min(clamp(3/f.MeanSqNorm, 0x1p-6, 0x1p-2), 0.5/q.Lambda)
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
	// unilog is LIBLINEAR's -s 0 with C = 1: ½‖w‖² + Σᵢ log(1 + e^{−yᵢw·xᵢ}) divided
	// by n/2 is Uni-Log's objective (two class means) for balanced classes with λ = 2/n.
	// Above 667 rows λ stays 3·10⁻³: L-BFGS slows as λ shrinks for no gain in AUC
	// (a9a, CPU user+sys of the whole run: 1.5 s at the static 10⁻², 2.6 s at 3·10⁻³,
	// 3.7 s at 10⁻³; test AUC .9024, .9024, .9023).
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
