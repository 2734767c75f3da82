package solver

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// Batch Uni-Log by Newton's method with conjugate gradients on the rows, as LIBLINEAR
// solves -s 0.
//
// References:
//
//	C.-J. Lin, R. C. Weng, S. S. Keerthi. Trust region Newton method for large-scale
//	logistic regression. JMLR 9, 2008 (Newton steps by conjugate gradients on the
//	data, X·v then Xᵀ(D·X·v), never forming the Hessian).
//	C.-Y. Hsia, W.-L. Chiang, C.-J. Lin. Preconditioned conjugate gradient methods in
//	truncated Newton frameworks for large-scale linear classification. ACML 2018
//	(the diagonal preconditioner mixed with the identity, the quadratic model's
//	stopping rule for CG, the backtracking line search: LIBLINEAR 2.4x's newton.cpp).

// UniLogParams are the hyper-parameters of batch Uni-Log. Start from
// DefaultUniLogParams.
type UniLogParams struct {
	// Lambda is the ℓ2 weight λ ≥ 0 (0 only for non-separable data). Default 10⁻²
	// (on a9a the test AUC is 0.902 for λ ∈ [10⁻⁴, 10⁻²]). Grid 10^[-5..1]. It is
	// LIBLINEAR's C = 1/(λn) with the class weights n/n₊ and n/n₋.
	Lambda float64 `param:"lambda"`
	// Eps is LIBLINEAR's -e for -s 0: Newton's method stops when
	// ‖∇f‖₂ ≤ eps·max(min(n₊, n₋), 1)/n·‖∇f(0)‖₂. Default 0.01 (LIBLINEAR's); range
	// (0, 1).
	Eps float64 `param:"eps"`
	// Iters caps the Newton iterations (≥ 1). Default 1000 (LIBLINEAR's).
	Iters int `param:"iters"`
	// ClassWeight is the class weighting: "balanced" (the default, Uni-Log's own: each
	// class's loss terms divided by its rows' summed sample weights W_c, the objective
	// below) or "P:N", class weights c₊ = P and c₋ = N (finite, > 0) in place of it:
	// each term of class c times 2·c_c/W with W = W₊ + W₋, so that the balanced c_c =
	// W/(2·W_c) is the default, and 1:1 is plain logistic regression (each term times
	// 2/W). Changing the ratio P/N trades one class's errors against the other's.
	ClassWeight string `param:"class-weight"`
	// BiasReg is the bias's weight in the ℓ2 term, (λ/2)·BiasReg·b² beside (λ/2)‖w‖²:
	// 0 (the default, Uni-Log's) leaves the bias free; 1 regularises it as LIBLINEAR's
	// -B 1 does (a bias feature of value 1 in w), for a like-for-like comparison; ≥ 0.
	BiasReg float64 `param:"bias-reg"`
}

// DefaultUniLogParams returns batch Uni-Log's defaults.
func DefaultUniLogParams() UniLogParams {
	return UniLogParams{Lambda: 1e-2, Eps: 0.01, Iters: 1000, ClassWeight: ClassWeightBalanced}
}

// UniLogGrid is batch Uni-Log's grid (the project's; the papers print none).
var UniLogGrid = Grid{Keys: []string{"lambda"}, Values: [][]float64{Pow10(-5, 1)}}

func (p UniLogParams) check() error {
	for _, err := range []error{
		Check(p.Lambda >= 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number ≥ 0"),
		Check(p.Eps > 0 && p.Eps < 1, "eps", p.Eps, "in (0, 1)"),
		Check(p.Iters >= 1, "iters", p.Iters, "≥ 1"),
		Check(p.BiasReg >= 0 && !math.IsInf(p.BiasReg, 0), "bias-reg", p.BiasReg, "a finite number ≥ 0"),
	} {
		if err != nil {
			return err
		}
	}
	_, _, _, err := ParseClassWeight(p.ClassWeight)
	return err
}

// classMultipliers returns the multipliers of the negative and the positive class's
// loss terms (each term also times its row's sample weight) for class weighting cw
// (UniLogParams.ClassWeight, valid) on classes of summed sample weights pos and neg:
// 1/W_c when balanced, 2·c_c/(W₊ + W₋) for explicit c₊:c₋.
func classMultipliers(cw string, pos, neg float64) [2]float64 {
	cp, cn, explicit, _ := ParseClassWeight(cw)
	if !explicit {
		return [2]float64{1 / neg, 1 / pos}
	}
	w := pos + neg
	return [2]float64{2 * cn / w, 2 * cp / w}
}

// UniLog is batch Uni-Log (Kotłowski et al. 2011; the OPAUC paper's baseline):
// class-weighted logistic regression,
//
//	f(w, b) = (1/n₊) Σ_{i∈+} log(1 + e^{−(w·x_i + b)}) + (1/n₋) Σ_{j∈−} log(1 + e^{w·x_j + b}) + (λ/2)‖w‖²,
//
// with sample weights s_i each term times s_i and n_c the class's Σ s_i (so that an
// integer weight k is the row repeated k times); UniLogParams.ClassWeight replaces the
// classes' 1/n_c by explicit class weights; minimised over w and an unregularised bias b by Newton's method as LIBLINEAR 2.4x
// solves -s 0: each step is found by conjugate gradients on the Hessian
// Xᵀ D X + λI (D the rows' σ(1 − σ) by their class weights; the bias a column of ones)
// with the diagonal preconditioner, each product one pass over the rows in place
// (rowsPass: the backend's mat-vecs on dense rows, its sparse dot and axpy in fixed
// parts on all cores on sparse ones), then a backtracking line search on the
// direction's scores. It stops by LIBLINEAR's rule (Eps). The bits do not depend on
// the number of cores. AUC does not see b, but the minimiser w does: Kotłowski et
// al.'s univariate surrogate is over w·x + b, and without b the logistic fit is forced
// through the origin, which on uncentred features (magic04 scaled to [-1, 1]) tilts w
// away from the ranking direction (test AUC .81 without b, .84 with it).
type UniLog struct {
	b   kernels.Backend
	dim int
	p   UniLogParams
	w   []float64

	bias      float64
	iters     int
	cgIters   int
	gradNorm  float64
	converged bool
}

// NewUniLog makes a batch Uni-Log learner over dim features. seed is unused (the
// method is deterministic).
func NewUniLog(b kernels.Backend, dim int, p UniLogParams, seed uint64) (*UniLog, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &UniLog{b: b, dim: dim, p: p, w: make([]float64, dim)}, nil
}

// unilogProblem is Uni-Log's objective on one training set at x = (w, b) (the bias
// last): its value and gradient, the Hessian's product and diagonal at the point of
// the last gradient, and the line search's values along a direction.
type unilogProblem struct {
	ds   *data.Dataset
	pass *rowsPass
	d, n int
	y    []int8
	cw   [2]float64 // class multipliers: [0] 1/W₋, [1] 1/W₊ when balanced (classMultipliers)
	sw   []float64  // the rows' sample weights; nil when all 1
	z    []float64  // the rows' scores w·x_i + b at the last gradient
	dd   []float64  // the Hessian's row weights cw·σ(1 − σ) there
	xs   []float64  // the line search's direction's scores
	c    []float64  // each pass's row coefficients, summed for the bias
	// dpart holds the diagonal's partial sums, one per part of the rows (diag).
	dpart [][]float64
	// posOver is max(min(n₊, n₋), 1)/n, LIBLINEAR's factor of eps (with sample weights,
	// of the classes' summed weights).
	posOver float64
	// rb is the bias's weight in the ℓ2 term (UniLogParams.BiasReg).
	rb float64
}

// newUniLogProblem is the objective on ds at d features with class weighting cw
// (UniLogParams.ClassWeight, valid).
func newUniLogProblem(b kernels.Backend, ds *data.Dataset, d int, cw string) *unilogProblem {
	n := ds.Rows()
	pos, neg := ds.WeightSums() // the counts without weights
	dpart := make([][]float64, sparseParts(n, d, ds.Nnz()))
	for q := range dpart {
		dpart[q] = make([]float64, d+1)
	}
	return &unilogProblem{
		dpart: dpart,
		ds:    ds, pass: newRowsPass(b, ds, d), d: d, n: n, y: ds.Y,
		cw: classMultipliers(cw, pos, neg), sw: sampleWeights(ds),
		z: make([]float64, n), dd: make([]float64, n), xs: make([]float64, n), c: make([]float64, n),
		posOver: math.Max(math.Min(pos, neg), 1) / (pos + neg),
	}
}

// weight is row i's weight in the loss (its class's multiplier times its sample
// weight) and its label.
func (p *unilogProblem) weight(i int) (float64, float64) {
	c, y := 0, -1.0
	if p.y[i] == 1 {
		c, y = 1, 1
	}
	if p.sw != nil {
		return p.cw[c] * p.sw[i], y
	}
	return p.cw[c], y
}

// softplus returns log(1 + e^z) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// funcGrad sets g = ∇f(x) and returns f(x), in one pass over the rows; it keeps the
// rows' scores and Hessian weights at x for hess, diag, lineSearch and step.
func (p *unilogProblem) funcGrad(x []float64, lambda float64, g []float64) float64 {
	w, bias := x[:p.d], x[p.d]
	p.pass.product(w, g[:p.d], func(i int, s float64) float64 {
		p.z[i] = s + bias
		return p.rowWeights(i)
	})
	var loss float64
	for i, s := range p.z {
		cw, y := p.weight(i)
		loss += cw * softplus(-y*s)
	}
	p.gradTail(x, lambda, g)
	return loss + 0.5*lambda*(hostDot(w, w)+p.rb*bias*bias)
}

// rowWeights sets row i's Hessian weight and gradient coefficient from its score z[i],
// and returns the coefficient.
func (p *unilogProblem) rowWeights(i int) float64 {
	cw, y := p.weight(i)
	sig := 1 / (1 + math.Exp(y*p.z[i])) // σ(−y s)
	p.dd[i] = cw * sig * (1 - sig)
	p.c[i] = -cw * y * sig // d/ds cw·log(1 + e^{−y s})
	return p.c[i]
}

// gradTail completes g from Xᵀc in g[:d]: the ℓ2 term, and the bias's Σ c.
func (p *unilogProblem) gradTail(x []float64, lambda float64, g []float64) {
	var gb float64
	for _, c := range p.c {
		gb += c
	}
	for j, v := range x[:p.d] {
		g[j] += lambda * v
	}
	g[p.d] = gb + lambda*p.rb*x[p.d]
}

// step sets g = ∇f(x) after lineSearch moved x by alpha, from the rows' scores moved
// with it (z += alpha·Xs, as LIBLINEAR keeps them): only Xᵀc is a pass over the rows.
func (p *unilogProblem) step(x []float64, alpha, sb, lambda float64, g []float64) {
	for i, xs := range p.xs {
		p.z[i] += alpha * (xs + sb)
		p.rowWeights(i)
	}
	p.pass.combine(p.c, g[:p.d])
	p.gradTail(x, lambda, g)
}

// hess sets hv = ∇²f·v at the point of the last funcGrad.
func (p *unilogProblem) hess(v []float64, lambda float64, hv []float64) {
	vb := v[p.d]
	p.pass.product(v[:p.d], hv[:p.d], func(i int, s float64) float64 {
		p.c[i] = p.dd[i] * (s + vb)
		return p.c[i]
	})
	var hb float64
	for _, c := range p.c {
		hb += c
	}
	for j, vj := range v[:p.d] {
		hv[j] += lambda * vj
	}
	hv[p.d] = hb + lambda*p.rb*vb
}

// diag sets m to the Hessian's diagonal at the point of the last funcGrad: Σ_i D_i x_ij²
// + λ, and Σ_i D_i for the bias. The rows are read on the host in fixed parts
// (sparseParts of the stored values), on all cores, each part's sums added in part
// order: the same bits on any number of cores.
func (p *unilogProblem) diag(lambda float64, m []float64) {
	for q := range p.dpart {
		clear(p.dpart[q])
	}
	parts := len(p.dpart)
	runParts(parts, min(parts, runtime.GOMAXPROCS(0)), func(q int) {
		mq := p.dpart[q]
		for i := q * p.n / parts; i < (q+1)*p.n/parts; i++ {
			di := p.dd[i]
			mq[p.d] += di
			if di == 0 {
				continue
			}
			if x := p.ds.DenseRow(i); x != nil {
				for j, v := range x {
					mq[j] += di * v * v
				}
				continue
			}
			x := p.ds.Row(i)
			for k, j := range x.Idx {
				v := x.Val[k]
				mq[j] += di * v * v
			}
		}
	})
	copy(m, p.dpart[0])
	for _, mq := range p.dpart[1:] {
		for j, v := range mq {
			m[j] += v
		}
	}
	for j := range m[:p.d] {
		m[j] += lambda
	}
	m[p.d] += lambda * p.rb
}

// Newton's method's constants, LIBLINEAR 2.4x's but one: the preconditioner's weight
// on the Hessian's diagonal (the rest on λ·I), the conjugate gradients' tolerance on the
// quadratic model, the line search's sufficient decrease and its halvings. The
// tolerance is 0.1 where LIBLINEAR's is 0.5: at the default λ the looser one took 6
// Newton steps where 0.1 took 3–5, and a fifth more passes over the rows in all (a9a 51
// against 40, w8a's 70% 41 against 39, the 200,000-row click-through table 47
// against 39, counting a gradient and the line search's scores and the diagonal as two).
const (
	unilogPrecond    = 0.01
	unilogCGEps      = 0.1
	unilogArmijo     = 0.01
	unilogLineSearch = 20
)

// newton minimises f at λ from x (updated in place), where f0 = f(x) and g = ∇f(x)
// (updated too), until ‖∇f‖₂ ≤ thresh or iters Newton steps. It returns the steps,
// the conjugate-gradient steps and ‖∇f‖₂ at the end.
func (p *unilogProblem) newton(ctx context.Context, x []float64, f float64, g []float64, lambda, thresh float64, iters int) (int, int, float64, error) {
	n1 := p.d + 1
	s, r, dir, hd, z, m := make([]float64, n1), make([]float64, n1), make([]float64, n1), make([]float64, n1), make([]float64, n1), make([]float64, n1)
	gnorm := math.Sqrt(hostDot(g, g))
	cgTotal, it := 0, 0
	for ; it < iters && gnorm > thresh; it++ {
		if err := ctx.Err(); err != nil {
			return it, cgTotal, gnorm, err
		}
		p.diag(lambda, m)
		for j, v := range m {
			m[j] = (1-unilogPrecond)*lambda + unilogPrecond*v
			if !(m[j] > 0) {
				m[j] = 1 // a feature no row has at λ = 0: its gradient is 0
			}
		}
		cg, err := p.pcg(ctx, g, m, lambda, s, r, dir, hd, z)
		cgTotal += cg
		if err != nil {
			return it, cgTotal, gnorm, err
		}
		fold := f
		alpha, fnew := p.lineSearch(x, s, g, lambda, fold)
		if alpha == 0 {
			break // no decrease along s at the limits of precision
		}
		f = fnew
		p.step(x, alpha, s[p.d], lambda, g)
		if math.IsNaN(f) || math.IsInf(f, 0) || !finite(x) {
			return it + 1, cgTotal, gnorm, fmt.Errorf("%w after %d Newton steps", ErrDiverged, it+1)
		}
		gnorm = math.Sqrt(hostDot(g, g))
		if math.Abs(fold-f) <= 1e-12*math.Abs(f) {
			it++
			break
		}
	}
	return it, cgTotal, gnorm, nil
}

// pcg solves ∇²f·s = −g approximately by preconditioned conjugate gradients (the
// diagonal m), stopping by the quadratic model Q(s) = gᵀs + ½sᵀ∇²f s: when its last
// decrease, times the steps taken, is at most min(unilogCGEps, √‖g‖_{M⁻¹}) of Q
// (Nash and Sofer's rule, LIBLINEAR's). r, dir, hd and z are scratch.
func (p *unilogProblem) pcg(ctx context.Context, g, m []float64, lambda float64, s, r, dir, hd, z []float64) (int, error) {
	n1 := len(g)
	for j := range n1 {
		s[j] = 0
		r[j] = -g[j]
		z[j] = r[j] / m[j]
		dir[j] = z[j]
	}
	zr := hostDot(z, r)
	tol := math.Min(unilogCGEps, math.Sqrt(math.Sqrt(zr)))
	var q float64
	steps := 0
	for steps < max(n1, 5) {
		steps++
		if steps%16 == 0 {
			if err := ctx.Err(); err != nil {
				return steps, err
			}
		}
		p.hess(dir, lambda, hd)
		dhd := hostDot(dir, hd)
		if dhd <= 1e-16 {
			break
		}
		alpha := zr / dhd
		for j := range n1 {
			s[j] += alpha * dir[j]
			r[j] -= alpha * hd[j]
		}
		newQ := -0.5 * (hostDot(s, r) - hostDot(s, g))
		qdiff := newQ - q
		if newQ > 0 || qdiff > 0 {
			break // the model is not decreasing: rounding has taken over
		}
		if float64(steps)*qdiff >= tol*newQ {
			break
		}
		q = newQ
		for j := range n1 {
			z[j] = r[j] / m[j]
		}
		zr1 := hostDot(z, r)
		beta := zr1 / zr
		zr = zr1
		for j := range n1 {
			dir[j] = z[j] + beta*dir[j]
		}
	}
	return steps, nil
}

// lineSearch moves x along s by the first of 1, ½, ¼, … (unilogLineSearch of them)
// that decreases f by unilogArmijo of the linear model, from the direction's scores
// (one pass, kept in xs for step) and the rows' scores at x; it returns the step and
// f there, or 0, leaving x, when none does.
func (p *unilogProblem) lineSearch(x, s, g []float64, lambda, fold float64) (float64, float64) {
	d := p.d
	p.pass.scores(s[:d], p.xs)
	sb := s[d]
	ss, ws := hostDot(s[:d], s[:d]), hostDot(x[:d], s[:d])
	ww, gs := hostDot(x[:d], x[:d]), hostDot(g, s)
	b := x[d]
	alpha := 1.0
	for range unilogLineSearch {
		var loss float64
		for i, zi := range p.z {
			cw, y := p.weight(i)
			loss += cw * softplus(-y*(zi+alpha*(p.xs[i]+sb)))
		}
		bb := b + alpha*sb
		f := loss + 0.5*lambda*(ww+2*alpha*ws+alpha*alpha*ss+p.rb*bb*bb)
		if f-fold <= unilogArmijo*alpha*gs {
			for j := range x {
				x[j] += alpha * s[j]
			}
			return alpha, f
		}
		alpha /= 2
	}
	return 0, fold
}

// threshold is LIBLINEAR's stopping point for ‖∇f‖₂: eps·max(min(n₊, n₋), 1)/n·‖∇f(0)‖₂.
func (p *unilogProblem) threshold(eps, gnorm0 float64) float64 { return eps * p.posOver * gnorm0 }

// Fit minimises f by Newton's method from w = 0, b = 0. It returns ctx's error when
// cancelled and ErrDiverged on non-finite weights. A minimisation that stops short of
// the gradient tolerance (the iteration cap, no decrease at the limits of precision)
// keeps its last point and returns nil: Converged and GradNorm report how it ended.
func (u *UniLog) Fit(ctx context.Context, ds *data.Dataset) error {
	if _, _, err := batchClasses("unilog", ds, u.dim); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	p := newUniLogProblem(u.b, ds, u.dim, u.p.ClassWeight)
	p.rb = u.p.BiasReg
	x, g := make([]float64, u.dim+1), make([]float64, u.dim+1)
	f := p.funcGrad(x, u.p.Lambda, g)
	return u.solve(ctx, p, x, f, g, math.Sqrt(hostDot(g, g)))
}

// solve runs Newton's method at the learner's λ from x, where f = f(x), g = ∇f(x) and
// gnorm0 = ‖∇f(0)‖₂, and keeps its result.
func (u *UniLog) solve(ctx context.Context, p *unilogProblem, x []float64, f float64, g []float64, gnorm0 float64) error {
	thresh := p.threshold(u.p.Eps, gnorm0)
	it, cg, gnorm, err := p.newton(ctx, x, f, g, u.p.Lambda, thresh, u.p.Iters)
	if err := ctx.Err(); err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("unilog: %w", err)
	}
	if !finite(x) {
		return fmt.Errorf("unilog: %w after %d Newton steps", ErrDiverged, it)
	}
	u.w = append(u.w[:0], x[:u.dim]...)
	u.bias = x[u.dim]
	u.iters, u.cgIters, u.gradNorm = it, cg, gnorm
	u.converged = gnorm <= thresh
	return nil
}

// FitGrid fits every point of a unilog grid whose points differ in lambda alone along
// the λ path: in decreasing λ, each Newton's method starting from the solution of the
// one before (LIBLINEAR's warm start), with ‖∇f(0)‖ (the same for every λ) and the
// pass over the rows made once. A point's weights meet the same stopping rule as a
// cold Fit's, not the same bits. It declines (ok = false) when the points differ in
// eps, iters, class-weight or bias-reg.
func (u *UniLog) FitGrid(ctx context.Context, ds *data.Dataset, params []Params) ([][]float64, []error, bool, error) {
	ps := make([]UniLogParams, len(params))
	for g, p := range params {
		pp, ok := p.ptr.(*UniLogParams)
		if !ok || pp.Eps != u.p.Eps || pp.Iters != u.p.Iters || pp.ClassWeight != u.p.ClassWeight || pp.BiasReg != u.p.BiasReg {
			return nil, nil, false, nil
		}
		ps[g] = *pp
	}
	if _, _, err := batchClasses("unilog", ds, u.dim); err != nil {
		return nil, nil, true, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, true, err
	}
	ws, errs := make([][]float64, len(params)), make([]error, len(params))
	order := make([]int, len(params))
	for g := range order {
		order[g] = g
		errs[g] = ps[g].check()
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ps[b].Lambda, ps[a].Lambda) })
	p := newUniLogProblem(u.b, ds, u.dim, u.p.ClassWeight)
	p.rb = u.p.BiasReg
	x, g := make([]float64, u.dim+1), make([]float64, u.dim+1)
	f := p.funcGrad(x, 0, g) // at 0, f and ∇f do not depend on λ
	gnorm0 := math.Sqrt(hostDot(g, g))
	first := true
	for _, k := range order {
		if errs[k] != nil {
			continue
		}
		one := &UniLog{b: u.b, dim: u.dim, p: ps[k], w: make([]float64, u.dim)}
		if !first {
			f = p.funcGrad(x, ps[k].Lambda, g)
		}
		first = false
		err := one.solve(ctx, p, x, f, g, gnorm0)
		if ctx.Err() != nil {
			return nil, nil, true, ctx.Err()
		}
		if err != nil {
			errs[k] = fmt.Errorf("λ = %g: %w", ps[k].Lambda, err)
			clear(x) // the next λ starts afresh
			continue
		}
		ws[k] = one.Weights()
	}
	return ws, errs, true, nil
}

// Weights returns a copy of w (zeros before Fit).
func (u *UniLog) Weights() []float64 { return append([]float64(nil), u.w...) }

// Bias is the fitted bias b (AUC ignores it; 0 before Fit).
func (u *UniLog) Bias() float64 { return u.bias }

// Converged reports whether the last Fit reached the gradient tolerance.
func (u *UniLog) Converged() bool { return u.converged }

// Iterations is the number of Newton steps of the last Fit.
func (u *UniLog) Iterations() int { return u.iters }

// CGIterations is the number of conjugate-gradient steps (Hessian products) of the
// last Fit, over all its Newton steps.
func (u *UniLog) CGIterations() int { return u.cgIters }

// GradNorm is ‖∇f‖₂ at the weights of the last Fit.
func (u *UniLog) GradNorm() float64 { return u.gradNorm }

var (
	_ Batch      = (*UniLog)(nil)
	_ GridFitter = (*UniLog)(nil)
)

// unilogSpec is Uni-Log's Spec. Its state: Newton's method's vectors over (w, b), the
// partial sums of the rows pass and of the diagonal (at most sparseMaxParts each), the
// rows' scores, Hessian weights, direction scores and coefficients, and a pass's
// scratch.
//
// Its data-scaled λ: unilog is LIBLINEAR's -s 0 with C = 1: ½‖w‖² + Σᵢ log(1 +
// e^{−yᵢw·xᵢ}) divided by n/2 is Uni-Log's objective (two class means) for balanced
// classes with λ = 2/n. Above 667 rows λ stays 3·10⁻³: the L-BFGS solver Uni-Log had
// then slowed as λ shrank for no gain in AUC (a9a, CPU user+sys of the whole run: 1.5
// s at the static 10⁻², 2.6 s at 3·10⁻³, 3.7 s at 10⁻³; test AUC .9024, .9024, .9023).
// Newton's method (unilog.go) kept the rule, so that results stay comparable.
func unilogSpec() Spec {
	s := batch("unilog", "batch Uni-Log: class-weighted logistic regression by Newton-CG (baseline)", "Kotlowski et al. 2011; ICML 2013, Sec. 5",
		DefaultUniLogParams, UniLogGrid, NewUniLog)
	withState(&s, func(d, n float64, _ *UniLogParams) float64 { return (10+2*sparseMaxParts)*(d+1) + 5*n })
	withDefaults(&s, func(f DataFacts, p *UniLogParams) { p.Lambda = math.Max(2/float64(f.Rows), 3e-3) })
	return s
}
