package solver

import (
	"slices"
	"sync"
)

// Registry returns the registered algorithms, online then batch, in help order (the
// caller gets its own copy of the slice). The table is built once. Each algorithm
// declares its whole Spec in its own file (opaucSpec in opauc.go, …): constructor,
// defaults and grid, state size, data-scaled defaults, device limit and capabilities;
// adding one is its file, its test and its line here.
func Registry() []Spec { return slices.Clone(registry()) }

// registry builds the table of Registry, once.
var registry = sync.OnceValue(func() []Spec {
	specs := []Spec{
		opaucSpec(), opaucrSpec(), opaucfSpec(), opaucrpSpec(),
		oamSeqSpec(), oamGraSpec(),
		adaoamSpec(),
		solamSpec(),
		fsaucSpec(),
		spamL2Spec(), spamNETSpec(),
		ubaucOnlineSpec(),
		olrSpec(), ftrlSpec(), uniexpSpec(),

		// Batch algorithms (Fit on the whole training set).
		mbaL2Spec(), mbaL1Spec(), mbaELSpec(),
		spdamSpec(),
		ubaucBatchSpec(),
		lsaucSpec(),
		unilogSpec(),
		mbpslSpec(), mbphlSpec(),
		svmorSpec(),
	}
	for _, s := range specs {
		if err := s.check(); err != nil {
			panic(err)
		}
	}
	return specs
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
// samples, where n·d is past the limit for any d ≥ DeviceMinDim. Fewer cores favour
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
// baselines OLR, FTRL and Uni-Exp, whose data-scaled defaults (olrSpec, ftrlSpec, uniexpSpec: a larger
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
// passes with the data-scaled C of oamC come within 0.014 of unilog on
// all eleven; a9a (32,561 rows) and w8a keep one pass, where more passes lose
// (a9a at 4 passes: .78-.84 against .86-.87 at one).
const oamMinSteps = 30_000
