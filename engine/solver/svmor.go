package solver

import (
	"cmp"
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
//	V. Franc, S. Sonnenburg. Optimized cutting plane algorithm for large-scale risk
//	minimization. JMLR 10, 2009, Algorithm 1 (OCAS: a line search, and planes cut
//	between the best point and the model's minimiser).
//
// docs/ALGORITHMS.md, "Univariate and other baselines" (B-SVM-OR).

// SVMORParams are the hyper-parameters of B-SVM-OR. Start from DefaultSVMORParams.
type SVMORParams struct {
	// Lambda is the ℓ2 weight λ > 0 (the cutting-plane method needs strong convexity;
	// SVMperf's C is 1/(λ·n₊n₋) in its unnormalised form). The planes needed grow as λ
	// falls: on a9a (min-max scaled), 32 at λ = 10⁻³ and 184 at 10⁻⁵ (plain BMRM, before
	// OCAS: 300 at 10⁻³ and over 1000 at 10⁻⁴). Default 10⁻². Grid 10^[-5..1].
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
// (with sample weights, each pair times w_i·w_j and n_c the class's summed weights:
// rocHingeWeighted)
// by OCAS (Franc and Sonnenburg 2009), a cutting-plane method (BMRM, Teo et al. 2010;
// Joachims' 1-slack planes) with a line search. R is piecewise linear: with scores s = Xw
// and V the set of violated pairs (s_i − s_j < 1),
//
//	R(w) = a·w + b,   a = (1/n₊n₋) Σ_{(i,j)∈V} (x_j − x_i),   b = |V|/(n₊n₋),
//
// and a is a subgradient; each such plane bounds R from below everywhere. Both come in
// O(n log n) from the counts
//
//	c_i = #{j ∈ − : s_j > s_i − 1}  (i ∈ +),    c_j = #{i ∈ + : s_i − 1 < s_j}  (j ∈ −)
//
// (two sorts and a merge; rocHinge): a = Xᵀγ with γ_i = −c_i/(n₊n₋), γ_j = c_j/(n₊n₋),
// and b = Σ_{i∈+} c_i/(n₊n₋). Each iteration minimises the model
// (λ/2)‖w‖² + max_k (a_k·w + b_k) through its dual over the simplex,
//
//	max_α  b·α − (1/2λ) αᵀGα,   G = A Aᵀ,   w_c = −(1/λ) Aᵀα,
//
// solved by SMO on pairs of coordinates (simplexQP), to an accuracy that follows the
// gap. The dual value is a lower bound on min F, so the fit stops when F(w_b) − dual ≤ ε,
// w_b the best point so far. Then OCAS moves w_b to the minimiser of F on the segment
// from w_b through w_c (lineSearch: the scores move linearly along it, so each step costs
// a sort, not a pass over the features) and takes the next plane at
// (1 − μ)·w_b + μ·w_c, μ = 0.1, instead of at w_c as BMRM does: on splice at λ = 10⁻⁴,
// 68 planes where BMRM took 1,413. A plane unused by the QP for pruneIdle iterations is
// dropped. The planes are rows of a backend Mat: the Gram column A·a_t and Aᵀα are
// Gemv calls.
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

// hingeScratch is rocHinge's scratch: the two classes' keys and a buffer for sorting.
type hingeScratch struct {
	pos, neg, tmp []scored
	w             []float64 // the rows' sample weights; nil: unweighted
}

// rocHingeWeighted is rocHinge with sample weights w (finite, ≥ 0, each class's sum
// > 0): the pair (i, j) weighs w_i·w_j and the risk is divided by W₊W₋, so that the
// counts c_i and c_j become the summed weights of the violating rows of the other
// class: γ_i = −w_i·c_i/(W₊W₋), γ_j = w_j·c_j/(W₊W₋), b = Σ_{i∈+} w_i·c_i/(W₊W₋) (an
// integer weight is the row repeated; docs/ALGORITHMS.md, "Weights").
func rocHingeWeighted(s []float64, y []int8, w, gamma []float64, sc *hingeScratch) (r, b float64) {
	pos, neg := sc.pos[:0], sc.neg[:0]
	var wp, wn float64
	for k, v := range s {
		if y[k] == 1 {
			pos = append(pos, scored{v - 1, int32(k)})
			wp += w[k]
		} else {
			neg = append(neg, scored{v, int32(k)})
			wn += w[k]
		}
	}
	pos, sc.tmp = sortScored(pos, sc.tmp)
	neg, sc.tmp = sortScored(neg, sc.tmp)
	sc.pos, sc.neg = pos, neg
	np, nn := len(pos), len(neg)
	inv := 1 / (wp * wn)
	var viol, sum float64
	// Positives by increasing key: below sums the weights of the negatives with
	// s_j ≤ s_i − 1, so c = wn − below.
	q, below := 0, 0.0
	for _, e := range pos {
		for q < nn && neg[q].key <= e.key {
			below += w[neg[q].i]
			q++
		}
		c := w[e.i] * (wn - below)
		if q == nn {
			c = 0 // exactly: no negative is above
		}
		viol += c
		sum += c * (1 - s[e.i])
		gamma[e.i] = -c * inv
	}
	// Negatives by increasing score: c sums the weights of the positives with
	// s_i − 1 < s_j.
	q = 0
	var c float64
	for _, e := range neg {
		for q < np && pos[q].key < e.key {
			c += w[pos[q].i]
			q++
		}
		cj := w[e.i] * c
		sum += cj * e.key
		gamma[e.i] = cj * inv
	}
	return sum * inv, viol * inv
}

// rocHinge computes the pairwise hinge risk R of scores s (labels y, both classes
// present) and the coefficients gamma of its subgradient a = Σ_k gamma[k]·x_k, in
// O(n log n) (O(n) sorts, by radix). It returns R and b = |V|/(n₊n₋), the plane's offset
// (R = a·w + b). A pair is violated when s_j > s_i − 1 (a pair exactly on the margin is
// not: its hinge is 0 and the subgradient taken there is 0). The scores must be finite.
func rocHinge(s []float64, y []int8, gamma []float64, sc *hingeScratch) (r, b float64) {
	if sc.w != nil {
		return rocHingeWeighted(s, y, sc.w, gamma, sc)
	}
	pos, neg := sc.pos[:0], sc.neg[:0]
	for k, v := range s {
		if y[k] == 1 {
			pos = append(pos, scored{v - 1, int32(k)}) // the key s_i − 1
		} else {
			neg = append(neg, scored{v, int32(k)})
		}
	}
	pos, sc.tmp = sortScored(pos, sc.tmp)
	neg, sc.tmp = sortScored(neg, sc.tmp)
	sc.pos, sc.neg = pos, neg
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
	return sum * inv, float64(viol) * inv
}

// scored is a sort key and the row it belongs to.
type scored struct {
	key float64
	i   int32
}

// radixMin is the length from which sortScored sorts by radix; shorter slices go to
// slices.SortFunc.
const radixMin = 256

// sortScored sorts a by key, ascending, and returns the sorted slice (a, or tmp's
// storage) with the other buffer for reuse. It is an LSD radix sort on the keys' bits,
// mapped so that unsigned order is the order of the (finite) floats, one byte a pass,
// skipping the bytes all keys share. Equal keys may come out in any order (rocHinge
// counts by key alone); −0 sorts before +0, which compare equal.
func sortScored(a, tmp []scored) (sorted, spare []scored) {
	n := len(a)
	if n < radixMin {
		slices.SortFunc(a, func(x, y scored) int { return cmp.Compare(x.key, y.key) })
		return a, tmp
	}
	if cap(tmp) < n {
		tmp = make([]scored, n)
	}
	tmp = tmp[:n]
	var count [8][256]int
	for _, e := range a {
		u := orderedBits(e.key)
		for p := range 8 {
			count[p][byte(u>>(8*p))]++
		}
	}
	src, dst := a, tmp
	for p := range 8 {
		c := &count[p]
		if c[byte(orderedBits(src[0].key)>>(8*p))] == n {
			continue // every key has this byte
		}
		var at [256]int
		sum := 0
		for v := range 256 {
			at[v] = sum
			sum += c[v]
		}
		shift := 8 * p
		for _, e := range src {
			v := byte(orderedBits(e.key) >> shift)
			dst[at[v]] = e
			at[v]++
		}
		src, dst = dst, src
	}
	return src, dst
}

// orderedBits maps a float64 to a uint64 whose unsigned order is the float's order
// (for non-NaN values): the sign bit set for positives, every bit flipped for negatives.
func orderedBits(f float64) uint64 {
	u := math.Float64bits(f)
	if u>>63 == 1 {
		return ^u
	}
	return u | 1<<63
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

// ocasMu is where OCAS cuts between the best point w_b and the model's minimiser w_c:
// the new plane is taken at (1 − μ)·w_b + μ·w_c (Franc and Sonnenburg's μ = 0.1).
const ocasMu = 0.1

// Fit runs OCAS from w = 0 until the gap is at most Eps or Iters planes were added;
// it returns the best weights found. It returns ctx's error when cancelled and
// ErrDiverged on non-finite weights; hitting Iters is not an error (Converged and Gap
// report it).
func (m *SVMOR) Fit(ctx context.Context, ds *data.Dataset) error {
	if _, _, err := batchClasses("svm-or", ds, m.dim); err != nil {
		return err
	}
	d, n, lambda := m.dim, ds.Rows(), m.p.Lambda
	rows := newBatchRows(m.b, ds, d)
	gamma := make([]float64, n)
	sb, sc, scut := make([]float64, n), make([]float64, n), make([]float64, n) // X·w_b, X·w_c, X·w_cut
	ls := lineSearch{y: ds.Y, lambda: lambda, gamma: make([]float64, n), s: make([]float64, n)}
	ls.hinge.w = sampleWeights(ds) // nil: unweighted, rocHinge's counts
	wb, wc, wcut := make([]float64, d), make([]float64, d), make([]float64, d)
	wv := m.b.NewVec(d)
	fb := math.Inf(1) // F(w_b)

	capRows := min(m.p.Iters, 16)
	planes := m.b.NewMat(capRows, d)
	var offs, alpha, ga []float64  // b_k, α, G·α
	var idle []int                 // per plane: the QPs since its α was last > 0
	gs := capRows                  // the row stride of gram
	gram := make([]float64, gs*gs) // G, t×t in the top-left corner
	gcol := m.b.NewVec(m.p.Iters)
	gcolHost := make([]float64, m.p.Iters)
	av := m.b.NewVec(m.p.Iters)

	m.converged, m.gap = false, math.Inf(1)
	t := 0 // the planes kept
	for m.iters = 0; m.iters < m.p.Iters; {
		if err := ctx.Err(); err != nil {
			return err
		}
		// The risk and a plane at the cutting point (w = 0 first); it becomes the best
		// point when it is better (free: R comes with the plane).
		r, off := rocHinge(scut, ds.Y, gamma, &ls.hinge)
		if f := 0.5*lambda*hostDot(wcut, wcut) + r; f < fb {
			fb = f
			copy(wb, wcut)
			copy(sb, scut)
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
		m.iters++
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
		idle = append(idle, 0)
		for k := range t {
			ga[t-1] += gram[(t-1)*gs+k] * alpha[k]
		}
		// Any α on the simplex gives a lower bound, so the QP need only be solved well
		// against the gap left: to 1% of the last one, and 10⁻³·ε at the end.
		tol := 1e-3 * m.p.Eps
		if !math.IsInf(m.gap, 1) {
			tol = max(tol, 0.01*m.gap)
		}
		simplexQP(gram, gs, t, offs, lambda, alpha, ga, tol, 1000*t+10000)
		t = m.prune(planes, gram, gs, t, &offs, &alpha, &ga, &idle)
		// The dual value, a lower bound on min F, against the best value found.
		var dual float64
		for k := range t {
			dual += alpha[k]*offs[k] - alpha[k]*ga[k]/(2*lambda)
		}
		m.gap = fb - dual
		if m.gap <= m.p.Eps {
			m.converged = true
			break
		}
		// w_c, the model's minimiser, and its scores.
		m.b.Upload(av.Slice(0, t), alpha)
		m.b.Gemv(true, -1/lambda, planes.Slice(0, t, 0, d), av.Slice(0, t), 0, wv)
		m.b.Download(wc, wv)
		if !finite(wc) {
			return fmt.Errorf("svm-or: %w at iteration %d", ErrDiverged, t)
		}
		rows.scores(1, wv, nil, sc)
		if !finite(sc) {
			return fmt.Errorf("svm-or: %w: non-finite scores at iteration %d", ErrDiverged, t)
		}
		// The best point on the segment from w_b through w_c, then the next cut.
		if k, f := ls.min(wb, wc, sb, sc, fb); f < fb {
			fb = f
			for j := range wb {
				wb[j] += k * (wc[j] - wb[j])
			}
			for i := range sb {
				sb[i] += k * (sc[i] - sb[i])
			}
		}
		for j := range wcut {
			wcut[j] = (1-ocasMu)*wb[j] + ocasMu*wc[j]
		}
		for i := range scut {
			scut[i] = (1-ocasMu)*sb[i] + ocasMu*sc[i]
		}
	}
	m.objective = fb
	m.w = append(m.w[:0], wb...)
	return nil
}

// pruneIdle is how many QPs in a row a plane may go unused (α = 0) before it is
// dropped. Any subset of the planes still bounds R from below, so the dual value stays a
// lower bound on min F; the aggregate of the kept planes carries the progress (Teo et al.
// 2010, Sec. 5; Joachims' SVMperf drops constraints inactive for 50 iterations).
const pruneIdle = 10

// prune counts the QPs each plane went unused and drops those idle for pruneIdle,
// compacting the planes' rows, G (row stride gs), the offsets, α, G·α and the counts. G·α
// is unchanged for the planes kept (a dropped plane's α is 0). It returns the planes
// kept.
func (m *SVMOR) prune(planes kernels.Mat, gram []float64, gs, t int, offs, alpha, ga *[]float64, idle *[]int) int {
	drop := false
	for k := range t {
		if (*alpha)[k] > 0 {
			(*idle)[k] = 0
		} else if (*idle)[k]++; (*idle)[k] >= pruneIdle {
			drop = true
		}
	}
	if !drop {
		return t
	}
	keep := make([]int, 0, t)
	for k := range t {
		if (*idle)[k] < pruneIdle {
			keep = append(keep, k)
		}
	}
	for i, k := range keep {
		if i != k {
			m.b.Copy(planes.Row(i), planes.Row(k))
		}
		for j, l := range keep {
			gram[i*gs+j] = gram[k*gs+l]
		}
		(*offs)[i], (*alpha)[i], (*ga)[i], (*idle)[i] = (*offs)[k], (*alpha)[k], (*ga)[k], (*idle)[k]
	}
	n := len(keep)
	*offs, *alpha, *ga, *idle = (*offs)[:n], (*alpha)[:n], (*ga)[:n], (*idle)[:n]
	return n
}

// lineSearch minimises F along a segment: φ(k) = F(w_b + k·(w_c − w_b)) for k ≥ 0, where
// the scores move linearly, s(k) = s_b + k·(s_c − s_b), so that each evaluation of the
// risk and its slope costs one rocHinge (O(n log n)) and no pass over the features. φ is
// convex: (λ/2)‖w(k)‖² is quadratic and R(k) piecewise linear.
type lineSearch struct {
	y        []int8
	lambda   float64
	gamma, s []float64
	ds       []float64 // Δs = s_c − s_b, once per search
	hinge    hingeScratch
}

// lineSearchEvals bounds the evaluations of φ per line search, and lineSearchTol is the
// bracket's width, relative to its right end, at which it stops.
const (
	lineSearchEvals = 30
	lineSearchTol   = 1e-6
)

// min returns the best k found and φ(k), given φ(0) = f0 (F at w_b). φ's slope rises
// with k (φ is convex), so the minimiser is where it changes sign: min brackets it,
// doubling from k = 1 while the slope is negative, then closes the bracket by regula
// falsi on the slope (the Illinois variant, which halves the weight of an end kept
// twice), keeping the lowest value evaluated.
func (l *lineSearch) min(wb, wc, sb, sc []float64, f0 float64) (float64, float64) {
	var bd, dd float64 // w_b·Δ, ‖Δ‖²
	for j := range wb {
		dlt := wc[j] - wb[j]
		bd += wb[j] * dlt
		dd += dlt * dlt
	}
	b0 := hostDot(wb, wb)
	if len(l.ds) != len(sb) {
		l.ds = make([]float64, len(sb))
	}
	for i := range l.ds {
		l.ds[i] = sc[i] - sb[i]
	}
	bestK, bestF := 0.0, f0
	evals := 0
	// slope evaluates φ at k, keeps the best, and returns the slope of φ at k (R's
	// subgradient along the segment: Σ γ_i·Δs_i).
	slope := func(k float64) float64 {
		evals++
		for i, d := range l.ds {
			l.s[i] = sb[i] + k*d
		}
		r, _ := rocHinge(l.s, l.y, l.gamma, &l.hinge)
		var dr float64
		for i, g := range l.gamma {
			dr += g * l.ds[i]
		}
		if f := 0.5*l.lambda*(b0+2*k*bd+k*k*dd) + r; f < bestF {
			bestK, bestF = k, f
		}
		return l.lambda*(bd+k*dd) + dr
	}
	lo, hi := 0.0, 1.0
	glo := slope(lo)
	if glo >= 0 {
		return bestK, bestF // w_b is the segment's minimiser
	}
	ghi := slope(hi)
	for ghi < 0 && hi < 1<<30 && evals < lineSearchEvals {
		lo, glo, hi = hi, ghi, 2*hi
		ghi = slope(hi)
	}
	side := 0 // the end kept last: −1 lo, +1 hi
	for evals < lineSearchEvals && hi-lo > lineSearchTol*hi && ghi > 0 {
		k := lo - glo*(hi-lo)/(ghi-glo)
		if !(k > lo && k < hi) {
			k = 0.5 * (lo + hi)
		}
		g := slope(k)
		switch {
		case g == 0:
			return bestK, bestF
		case g < 0:
			lo, glo = k, g
			if side == -1 {
				ghi /= 2
			}
			side = -1
		default:
			hi, ghi = k, g
			if side == +1 {
				glo /= 2
			}
			side = +1
		}
	}
	return bestK, bestF
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

// svmorSpec is SVM-OR's Spec. Its state: the first 16 cutting planes, their Gram
// matrix, per-row scores at three points and the line search's, the subgradients'
// coefficients, the sort's keys and buffer (not the cutting planes beyond the first
// 16, which grow during a fit). Its λ is ρ (ridgeHinge).
func svmorSpec() Spec {
	s := batch("svm-or", "B-SVM-OR: pairwise hinge loss over all pairs, cutting planes with a line search (OCAS), O(n log n) per iteration", "Joachims 2005/2006; Franc & Sonnenburg 2009",
		DefaultSVMORParams, SVMORGrid, NewSVMOR)
	withState(&s, func(d, n float64, p *SVMORParams) float64 {
		return 16*d + 256 + 4*float64(p.Iters) + 12*n + 6*d
	})
	withDefaults(&s, func(f DataFacts, p *SVMORParams) { p.Lambda = ridgeHinge * f.RidgeScale() })
	return s
}
