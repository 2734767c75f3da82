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

// DataParams returns new Params of s holding the defaults scaled to the training
// data's facts f (s.Defaults; the static defaults when s has none or f is not known)
// and, for every key set in p (Params.IsSet), p's value: the data set only what the
// caller did not. p must be of s (CheckParams) or the zero Params (none set).
func (s Spec) DataParams(f DataFacts, p Params) (Params, error) {
	out := s.Params()
	if s.Defaults != nil {
		s.Defaults(f, out)
	}
	return out, out.setFrom(s, p)
}

// ParamsWith returns new Params of s holding its static defaults and, for every key
// set in p (Params.IsSet), p's value. p must be of s (CheckParams) or the zero Params
// (s's defaults).
func (s Spec) ParamsWith(p Params) (Params, error) {
	out := s.Params()
	return out, out.setFrom(s, p)
}

// ParamsOf returns algo's Params with the key=values kvs set, where a front end (the
// command line's -p, the C API's parameters) turns them into the library's typed
// configuration, once. No kvs, or a name that is no registered algorithm (which the
// library refuses where it looks the algorithm up), give the zero Params.
func ParamsOf(algo string, kvs []string) (Params, error) {
	spec, err := Lookup(algo)
	if err != nil || len(kvs) == 0 {
		return Params{}, nil
	}
	p := spec.Params()
	if err := p.SetAll(kvs); err != nil {
		return Params{}, fmt.Errorf("%s: %w", algo, err)
	}
	return p, nil
}

// CheckParams returns nil when p can be given to s's constructors (made by s.Params,
// or by the Params of an algorithm that shares s's parameter struct) or is the zero
// Params (none: s's defaults), and an error wrapping ErrParam otherwise.
func (s Spec) CheckParams(p Params) error {
	if p.IsZero() || s.Params().sameKind(p) {
		return nil
	}
	return fmt.Errorf("%w: another algorithm's (%T; %s takes %T)", ErrParam, p.ptr, s.Name, s.Params().ptr)
}

// withDefaults sets s's Defaults from rule, which scales the defaults of its typed
// parameters P to the training data's facts: each rule changes only the fields it
// names, the others keep the static defaults. Facts not measured (DataFacts.Known)
// leave the static defaults alone.
func withDefaults[P any](s *Spec, rule func(f DataFacts, p *P)) {
	name := s.Name
	s.Defaults = func(f DataFacts, params Params) {
		if f.Known() {
			rule(f, typedParams[P](name, params))
		}
	}
}
