package solver

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// B-SVM-OR: the pairwise hinge loss over all pairs, by a cutting-plane method.
//
// References:
//
//	T. Joachims. A support vector method for multivariate performance measures.
//	ICML 2005, Section 4 (the ROCArea loss in O(n log n) by sorting).
//	T. Joachims. Training linear SVMs in linear time. KDD 2006, Algorithm 2 (1-slack
//	cutting planes).
//	C. H. Teo, S. V. N. Vishwanathan, A. Smola, Q. V. Le. Bundle methods for
//	regularized risk minimization. JMLR 11, 2010, Algorithm 1 (BMRM) and its gap.
//
// ALGORITHMS.md, "Univariate and other baselines" (B-SVM-OR).

// SVMORParams are the hyper-parameters of B-SVM-OR. Start from DefaultSVMORParams.
type SVMORParams struct {
	// Lambda is the ℓ2 weight λ > 0 (the cutting-plane method needs strong convexity;
	// SVMperf's C is 1/(λ·n₊n₋) in its unnormalised form). The number of cutting planes
	// grows like 1/(λε): on a9a, 64 planes at λ = 10⁻², 300 at 10⁻³ and over 1000 at
	// 10⁻⁴ (test AUC 0.902 for the first two). Default 10⁻². Grid 10^[-5..1].
	Lambda float64 `param:"lambda"`
	// Eps is the stopping gap ε > 0: the fit stops when the best objective found is
	// within ε of the cutting-plane model's lower bound (the objective is 1 at w = 0).
	// Default 10⁻³.
	Eps float64 `param:"eps"`
	// Iters caps the cutting-plane iterations (≥ 1). Default 1000.
	Iters int `param:"iters"`
}

// DefaultSVMORParams returns B-SVM-OR's defaults.
func DefaultSVMORParams() SVMORParams { return SVMORParams{Lambda: 1e-2, Eps: 1e-3, Iters: 1000} }

// SVMORGrid is B-SVM-OR's grid (the project's; the papers tune C without a printed grid).
var SVMORGrid = Grid{Keys: []string{"lambda"}, Values: [][]float64{Pow10(-5, 1)}}

func (p SVMORParams) check() error {
	for _, err := range []error{
		Check(p.Lambda > 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number > 0"),
		Check(p.Eps > 0 && !math.IsInf(p.Eps, 0), "eps", p.Eps, "a finite number > 0"),
		Check(p.Iters >= 1, "iters", p.Iters, "≥ 1"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// SVMOR is B-SVM-OR (the papers' "batch SVM-OR", Joachims' SVMperf with the ROCArea
// loss): the minimiser of
//
//	F(w) = (λ/2)‖w‖² + R(w),   R(w) = 1/(n₊n₋) Σ_{i∈+} Σ_{j∈−} [1 − w·(x_i − x_j)]₊
//
// by the bundle method BMRM (Teo et al. 2010; Joachims' 1-slack cutting planes). R is
// piecewise linear: with scores s = Xw and V the set of violated pairs (s_i − s_j < 1),
//
//	R(w) = a·w + b,   a = (1/n₊n₋) Σ_{(i,j)∈V} (x_j − x_i),   b = |V|/(n₊n₋),
//
// and a is a subgradient. Both come in O(n log n) from the counts
//
//	c_i = #{j ∈ − : s_j > s_i − 1}  (i ∈ +),    c_j = #{i ∈ + : s_i − 1 < s_j}  (j ∈ −)
//
// (two sorts and a merge; rocHinge): a = Xᵀγ with γ_i = −c_i/(n₊n₋), γ_j = c_j/(n₊n₋),
// and b = Σ_{i∈+} c_i/(n₊n₋). Iteration t adds the plane (a_t, b_t) at w_t and sets
// w_{t+1} to the minimiser of the model (λ/2)‖w‖² + max_k (a_k·w + b_k), through its
// dual over the simplex,
//
//	max_α  b·α − (1/2λ) αᵀGα,   G = A Aᵀ,   w = −(1/λ) Aᵀα,
//
// solved by SMO on pairs of coordinates (simplexQP). The dual value is a lower bound on
// min F, so the fit stops when min_k F(w_k) − dual ≤ ε and returns the best w_k. The
// planes are rows of a backend Mat: the Gram column A·a_t and Aᵀα are Gemv calls.
type SVMOR struct {
	b   kernels.Backend
	dim int
	p   SVMORParams
	w   []float64

	iters     int
	gap       float64
	objective float64
	converged bool
}

// NewSVMOR makes a B-SVM-OR learner over dim features. seed is unused (the method is
// deterministic).
func NewSVMOR(b kernels.Backend, dim int, p SVMORParams, seed uint64) (*SVMOR, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &SVMOR{b: b, dim: dim, p: p, w: make([]float64, dim)}, nil
}

// rocHinge computes the pairwise hinge risk R of scores s (labels y, both classes
// present) and the coefficients gamma of its subgradient a = Σ_k gamma[k]·x_k, in
// O(n log n). It returns R and b = |V|/(n₊n₋), the plane's offset (R = a·w + b). A pair
// is violated when s_j > s_i − 1 (a pair exactly on the margin is not: its hinge is 0
// and the subgradient taken there is 0). pos and neg are scratch of any length.
func rocHinge(s []float64, y []int8, gamma []float64, pos, neg []scored) (r, b float64, _, _ []scored) {
	pos, neg = pos[:0], neg[:0]
	for k, v := range s {
		if y[k] == 1 {
			pos = append(pos, scored{v - 1, int32(k)}) // the key s_i − 1
		} else {
			neg = append(neg, scored{v, int32(k)})
		}
	}
	byKey := func(a, b scored) int { // the keys are finite (the caller checks the scores)
		if a.key < b.key {
			return -1
		}
		if a.key > b.key {
			return 1
		}
		return 0
	}
	slices.SortFunc(pos, byKey)
	slices.SortFunc(neg, byKey)
	np, nn := len(pos), len(neg)
	inv := 1 / (float64(np) * float64(nn))
	var viol int64
	var sum float64 // Σ_i c_i (1 − s_i) + Σ_j c_j s_j
	// Positives by increasing key: q counts the negatives with s_j ≤ s_i − 1.
	q := 0
	for _, e := range pos {
		for q < nn && neg[q].key <= e.key {
			q++
		}
		c := nn - q
		viol += int64(c)
		sum += float64(c) * (1 - s[e.i])
		gamma[e.i] = -float64(c) * inv
	}
	// Negatives by increasing score: q counts the positives with s_i − 1 < s_j.
	q = 0
	for _, e := range neg {
		for q < np && pos[q].key < e.key {
			q++
		}
		sum += float64(q) * e.key
		gamma[e.i] = float64(q) * inv
	}
	return sum * inv, float64(viol) * inv, pos, neg
}

// scored is a sort key and the row it belongs to.
type scored struct {
	key float64
	i   int32
}

// simplexQP minimises f(α) = (1/2λ) αᵀGα − b·α over the simplex {α ≥ 0, Σα = 1} by SMO
// with the maximal violating pair, from the feasible α given (updated in place); ga is
// G·α on entry and is kept up to date. It stops when the
// Frank–Wolfe gap α·∇f − min ∇f (an upper bound on f(α) − min f) is ≤ tol, or after
// maxSteps steps, and returns that gap. G is t×t with row stride gs.
func simplexQP(g []float64, gs, t int, b []float64, lambda float64, alpha, ga []float64, tol float64, maxSteps int) float64 {
	grad := func(k int) float64 { return ga[k]/lambda - b[k] }
	var fw float64
	for range maxSteps {
		// i: the steepest coordinate to increase; j: the worst one to decrease.
		i, j := 0, -1
		gi, gj := grad(0), math.Inf(-1)
		var ag float64
		for k := range t {
			gk := grad(k)
			if gk < gi {
				i, gi = k, gk
			}
			if alpha[k] > 0 {
				ag += alpha[k] * gk
				if gk > gj {
					j, gj = k, gk
				}
			}
		}
		fw = ag - gi
		if fw <= tol || j < 0 || i == j {
			return fw
		}
		// Move δ from α_j to α_i: f changes by −δ(g_j − g_i) + δ²q/2.
		q := (g[i*gs+i] + g[j*gs+j] - 2*g[i*gs+j]) / lambda
		delta := alpha[j]
		if q > 0 {
			delta = min(delta, (gj-gi)/q)
		}
		alpha[i] += delta
		alpha[j] -= delta
		alpha[j] = max(alpha[j], 0)
		for k := range t {
			ga[k] += delta * (g[k*gs+i] - g[k*gs+j])
		}
	}
	return fw
}

// Fit runs BMRM from w = 0 until the gap is at most Eps or Iters planes were added;
// it keeps the best weights found. It returns ctx's error when cancelled and
// ErrDiverged on non-finite weights; hitting Iters is not an error (Converged and Gap
// report it).
func (m *SVMOR) Fit(ctx context.Context, ds *data.Dataset) error {
	if _, _, err := batchClasses("svm-or", ds, m.dim); err != nil {
		return err
	}
	d, n, lambda := m.dim, ds.Rows(), m.p.Lambda
	rows := newBatchRows(m.b, ds, d)
	s, gamma := make([]float64, n), make([]float64, n)
	var pos, neg []scored
	w := make([]float64, d)
	wv := m.b.NewVec(d)
	best, bestW := math.Inf(1), make([]float64, d)

	capRows := min(m.p.Iters, 16)
	planes := m.b.NewMat(capRows, d)
	var offs, alpha, ga []float64  // b_k, α, G·α
	gs := capRows                  // the row stride of gram
	gram := make([]float64, gs*gs) // G, t×t in the top-left corner
	gcol := m.b.NewVec(m.p.Iters)
	gcolHost := make([]float64, m.p.Iters)
	av := m.b.NewVec(m.p.Iters)

	m.converged, m.gap = false, math.Inf(1)
	t := 0
	for t < m.p.Iters {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The risk and a plane at w.
		m.b.Upload(wv, w)
		rows.scores(1, wv, nil, s)
		if !finite(s) {
			return fmt.Errorf("svm-or: %w: non-finite scores at iteration %d", ErrDiverged, t)
		}
		r, off, p2, n2 := rocHinge(s, ds.Y, gamma, pos, neg)
		pos, neg = p2, n2
		var ww float64
		for _, v := range w {
			ww += v * v
		}
		if f := 0.5*lambda*ww + r; f < best {
			best = f
			copy(bestW, w)
		}
		if t == capRows {
			capRows = min(2*capRows, m.p.Iters)
			grown := m.b.NewMat(capRows, d)
			for k := range t {
				m.b.Copy(grown.Row(k), planes.Row(k))
			}
			planes = grown
		}
		a := planes.Row(t)
		rows.combine(1, nil, gamma, 0, a)
		t++
		// Grow G by the new plane's column A·a_t (G is stored with row stride gs).
		col := gcol.Slice(0, t)
		m.b.Gemv(false, 1, planes.Slice(0, t, 0, d), a, 0, col)
		m.b.Download(gcolHost[:t], col)
		if t > gs {
			ngs := min(2*gs, m.p.Iters)
			next := make([]float64, ngs*ngs)
			for k := range t - 1 {
				copy(next[k*ngs:k*ngs+t-1], gram[k*gs:k*gs+t-1])
			}
			gram, gs = next, ngs
		}
		for k := range t {
			gram[k*gs+t-1] = gcolHost[k]
			gram[(t-1)*gs+k] = gcolHost[k]
		}
		offs = append(offs, off)
		// The new coordinate starts at α_t = 0 (all the mass on the first plane), so
		// G·α gains one entry.
		alpha = append(alpha, 0)
		if t == 1 {
			alpha[0] = 1
		}
		ga = append(ga, 0)
		for k := range t {
			ga[t-1] += gram[(t-1)*gs+k] * alpha[k]
		}
		simplexQP(gram, gs, t, offs, lambda, alpha, ga, 1e-3*m.p.Eps, 1000*t+10000)
		// The dual value, a lower bound on min F, and the model's minimiser.
		var dual float64
		for k := range t {
			dual += alpha[k]*offs[k] - alpha[k]*ga[k]/(2*lambda)
		}
		m.gap = best - dual
		if m.gap <= m.p.Eps {
			m.converged = true
			break
		}
		m.b.Upload(av.Slice(0, t), alpha)
		m.b.Gemv(true, -1/lambda, planes.Slice(0, t, 0, d), av.Slice(0, t), 0, wv)
		m.b.Download(w, wv)
		if !finite(w) {
			return fmt.Errorf("svm-or: %w at iteration %d", ErrDiverged, t)
		}
	}
	m.iters, m.objective = t, best
	m.w = append(m.w[:0], bestW...)
	return nil
}

// Weights returns a copy of w (zeros before Fit).
func (m *SVMOR) Weights() []float64 { return append([]float64(nil), m.w...) }

// Converged reports whether the last Fit reached the gap Eps.
func (m *SVMOR) Converged() bool { return m.converged }

// Gap is the last Fit's final gap: the best objective minus the dual lower bound.
func (m *SVMOR) Gap() float64 { return m.gap }

// Iterations is the number of cutting planes of the last Fit.
func (m *SVMOR) Iterations() int { return m.iters }

// Objective is F at the returned weights.
func (m *SVMOR) Objective() float64 { return m.objective }

var _ Batch = (*SVMOR)(nil)
