package solver

import (
	"slices"
	"sync"
)

// Registry returns the registered algorithms, online then batch, in help order: one
// table in one file, built once (the caller gets its own copy of the slice).
// Each entry adapts the family's typed constructor; the defaults are the families'
// DefaultXxxParams (SPAM-NET: SPAM's with β₁ = 10⁻⁴).
func Registry() []Spec { return slices.Clone(registry()) }

// registry builds the table of Registry, once.
var registry = sync.OnceValue(func() []Spec {
	return withDefaults(withStateBytes([]Spec{
		minSteps(device(rotational(withMulti(online("opauc", "one-pass AUC, square loss, full covariances (Gao et al. 2013)", "ICML 2013, Alg. 1",
			DefaultOPAUCParams, OPAUCGrid, NewOPAUC), newOPAUCGrid)), deviceOPAUC), squareMinSteps),
		minSteps(online("opaucr", "OPAUC with rank-τ randomized covariances, for high dimensions (exact covariances from τ ≥ d)", "ICML 2013, Sec. 4",
			DefaultOPAUCrParams, OPAUCrGrid, NewOPAUCr), squareMinSteps),
		minSteps(online("opauc-f", "OPAUC on a random subset of the features (the paper's comparison)", "ICML 2013, Sec. 5",
			DefaultOPAUCfParams, OPAUCfGrid, NewOPAUCf), squareMinSteps),
		minSteps(online("opauc-rp", "OPAUC on a Gaussian random projection to k < d dimensions (OPAUC itself from k ≥ d; the paper's comparison)", "ICML 2013, Sec. 5",
			DefaultOPAUCrpParams, OPAUCrpGrid, NewOPAUCrp), squareMinSteps),
		minSteps(online("oam-seq", "online AUC maximisation with reservoir buffers, sequential PA updates", "Zhao et al. 2011; thesis Alg. 4-7",
			DefaultOAMParams, OAMGrid, NewOAMSeq), oamMinSteps),
		minSteps(online("oam-gra", "online AUC maximisation with reservoir buffers, gradient updates", "Zhao et al. 2011; thesis Alg. 4-7",
			DefaultOAMParams, OAMGrid, NewOAMGra), oamMinSteps),
		minSteps(online("adaoam", "OPAUC's gradient with diagonal AdaGrad steps", "Ding et al. 2015; thesis Alg. 9",
			DefaultAdaOAMParams, AdaOAMGrid, NewAdaOAM), defaultMinSteps),
		minSteps(unitRows(online("solam", "stochastic online AUC maximisation, saddle point (regSOLAM with lambda > 0)", "Ying et al. 2016; thesis Alg. 10/18",
			DefaultSOLAMParams, SOLAMGrid, NewSOLAM)), defaultMinSteps),
		streamLength(unitRows(online("fsauc", "fast stochastic AUC maximisation: multi-stage primal-dual, shrinking balls (n: passes x rows unless set)", "Liu et al. 2018, Alg. 1-2; thesis Alg. 11-12",
			DefaultFSAUCParams, FSAUCGrid, NewFSAUC)), "n", func(p *FSAUCParams, n int) { p.N = n }),
		minSteps(online("spam-l2", "stochastic proximal AUC maximisation, l2 penalty", "Natole et al. 2018; thesis Alg. 20",
			DefaultSPAMParams, SPAMGrid, NewSPAM), defaultMinSteps),
		minSteps(online("spam-net", "stochastic proximal AUC maximisation, elastic net", "Natole et al. 2018; thesis Alg. 20",
			defaultSPAMNETParams, SPAMNETGrid, NewSPAM), defaultMinSteps),
		minSteps(online("ubauc-online", "univariate bound of AUC, online", "Lyu and Ying, eq. 9",
			DefaultUBAUCParams, UBAUCGrid, NewUBAUC), defaultMinSteps),
		minSteps(online("olr", "online logistic regression (baseline)", "MBA paper's baseline",
			DefaultOLRParams, OLRGrid, NewOLR), defaultMinSteps),
		minSteps(online("ftrl", "FTRL-Proximal logistic regression (baseline)", "McMahan et al. 2013, Alg. 1",
			DefaultFTRLParams, FTRLGrid, NewFTRL), defaultMinSteps),
		minSteps(online("uniexp", "online class-weighted exponential loss (baseline)", "OPAUC paper's Uni-Exp",
			DefaultUniExpParams, UniExpGrid, NewUniExp), defaultMinSteps),

		// Batch algorithms (Fit on the whole training set).
		// batch: mba
		device(batch("mba-l2", "mini-batch AUC via U-statistics of sampled pairs, ridge (Cholesky)", "Gultekin et al., Alg. 1",
			DefaultMBAL2Params, MBAL2Grid, NewMBAL2), deviceMBA),
		device(batch("mba-l1", "mini-batch AUC via U-statistics of sampled pairs, lasso (coordinate descent)", "Gultekin et al., Alg. 1",
			DefaultMBAL1Params, MBAL1Grid, NewMBA), deviceMBA),
		device(batch("mba-el", "mini-batch AUC via U-statistics of sampled pairs, elastic net (coordinate descent)", "Gultekin et al., Alg. 1",
			DefaultMBAELParams, MBAELGrid, NewMBA), deviceMBA),
		// batch: spdam, ubauc-batch
		device(batch("spdam", "stochastic primal-dual AUC maximisation, square loss, mini-batches (batch)", "thesis ch. 5, Alg. 21",
			DefaultSPDAMParams, SPDAMGrid, NewSPDAM), deviceSPDAM),
		batch("ubauc-batch", "univariate bound of AUC, batch: block coordinate descent, exact w-steps", "Lyu and Ying, eq. 8, Sec. 5.2.1",
			DefaultUBAUCBatchParams, UBAUCBatchGrid, NewUBAUCBatch),
		// batch: unilog, mb-psl, mb-phl, svm-or
		device(batch("ls-auc", "B-LS-SVM: the exact pairwise square-loss minimiser (the oracle), batch", "ICML 2013, Sec. 5; docs/ALGORITHMS.md, \"ORACLE\"",
			DefaultLSAUCParams, LSAUCGrid, NewLSAUC), deviceLSAUC),
		batch("unilog", "batch Uni-Log: class-weighted logistic regression by Newton-CG (baseline)", "Kotlowski et al. 2011; ICML 2013, Sec. 5",
			DefaultUniLogParams, UniLogGrid, NewUniLog),
		batch("mb-psl", "mini-batch gradient descent on sampled pairs, pairwise square loss (baseline)", "MBA paper, Sec. V",
			DefaultMBPSLParams, MBPairGrid, NewMBPSL),
		batch("mb-phl", "mini-batch gradient descent on sampled pairs, pairwise hinge loss (baseline)", "MBA paper, Sec. V",
			DefaultMBPHLParams, MBPairGrid, NewMBPHL),
		batch("svm-or", "B-SVM-OR: pairwise hinge loss over all pairs, cutting planes with a line search (OCAS), O(n log n) per iteration", "Joachims 2005/2006; Franc & Sonnenburg 2009",
			DefaultSVMORParams, SVMORGrid, NewSVMOR),
	}))
})

// The training values n·d·passes of dense data from which a GPU trains an algorithm
// faster than the CPU (Spec.DeviceValues), from whole `aucopt train` processes at the
// defaults on an NVIDIA H200 against avx2 on its host's 16 cores (bench/gpu-auto.sh;
// bench/README.md, 2026-11-26, third session), at n × d = 20,000×500, 10,000×1,000,
// 20,000×1,000 and 20,000×2,000, in seconds (avx2/cuda): OPAUC 1.34/3.23, 6.98/5.80
// (five passes below OnePassRows: 5·10⁷ values), 3.17/3.16, 6.95/3.45; SPDAM
// 1.42/1.34, 1.56/1.55, 3.89/1.76, 16.5/3.60; LS-AUC 0.38/0.81, 0.55/1.00, 0.89/1.14,
// 1.83/1.87 (its n·d² Syrk, the part a GPU speeds up, outgrows the rest only on
// larger data). MBA takes LS-AUC's limit: below B·T rows its default takes every pair,
// the same class scatters (0.34/0.68, 0.54/0.90, 0.90/1.29, 1.47/1.70), and above it
// samples, where n·d is past the limit for any d ≥ AutoDeviceDim. Fewer cores favour
// the GPU sooner.
const (
	deviceMBA   = deviceLSAUC
	deviceOPAUC = 20_000_000
	deviceSPDAM = 20_000_000
	deviceLSAUC = 50_000_000
)

// defaultMinSteps is the MinSteps of the learners whose one pass over a small set is
// far from their optimum: SOLAM (an averaged saddle-point iterate), SPAM and AdaOAM
// (decaying steps), ol-UBAUC (a last iterate of decaying steps), and the univariate
// baselines OLR, FTRL and Uni-Exp, whose data-scaled defaults (dataDefaults: a larger
// step and an ℓ2 weight of order 1/n, so that the passes approach the regularised
// fit) apply only when they take more passes. Measured at the defaults on the 70/30
// splits of the eleven small shared sets (146-2,223 training rows), ⌈20,000/n⌉ passes
// against one lift SOLAM on german from .596 to .814, SPAM-ℓ2 on svmguide3 from .687
// to .750, AdaOAM on ionosphere from .909 to .964, ol-UBAUC (at its data-scaled
// defaults) on svmguide3 from .764 to .791; OLR, FTRL and Uni-Exp lose or stay put
// with passes at their static steps, and with the data-scaled ones reach unilog
// (sonar: OLR .783 → .843, FTRL .771 → .855; svmguide3: Uni-Exp .695 → .794). Sets of
// OnePassRows and more (a9a, w8a) keep their one pass. OPAUC and its variants take
// squareMinSteps, OAM oamMinSteps with a C scaled to its passes (oamC).
const defaultMinSteps = 20_000

// oamMinSteps is OAM's MinSteps: on the small shared sets one pass falls far short
// (svmguide3 .69-.76 against unilog's .81 for C from 2⁻¹⁸ to 1), and ⌈30,000/n⌉
// passes with the data-scaled C of dataDefaults (oamC) come within 0.014 of unilog on
// all eleven; a9a (32,561 rows) and w8a keep one pass, where more passes lose
// (a9a at 4 passes: .78-.84 against .86-.87 at one).
const oamMinSteps = 30_000

// defaultSPAMNETParams is SPAM with the elastic net's ℓ1 weight β₁ = 10⁻⁴.
func defaultSPAMNETParams() SPAMParams {
	p := DefaultSPAMParams()
	p.Beta1 = 1e-4
	return p
}
