package solver

import "fmt"

// stateWords gives, per algorithm, the float64 words a learner holds for d features
// and n training rows with parameters p (made by its Spec's Params): its
// vectors and matrices, the scratch blocks it allocates at once, and for the batch
// learners the working copies they always build (ba-UBAUC's n×d transformed data).
// The training data themselves are not counted, nor a batch learner's dense upload of
// data that are dense already (it is their size again),
// nor what grows during a fit (SVM-OR's cutting planes beyond the first 16). These are
// the allocations of the constructors and Fit in this package, to within a few
// vectors: Spec.StateBytes is 8 bytes a word.
var stateWords = map[string]func(d, n float64, p Params) float64{
	// two classes' d×d scatters and 32×d pending blocks, ~10 vectors
	"opauc": func(d, _ float64, _ Params) float64 { return 2*d*d + 80*d },
	"opaucr": func(d, _ float64, p Params) float64 {
		tau := float64(p.ptr.(*OPAUCrParams).Tau)
		if tau >= d { // OPAUC's exact covariances
			return 2*d*d + 80*d
		}
		return 2*tau*d + 10*d + 4*tau
	},
	"opauc-f": func(d, _ float64, p Params) float64 {
		k := min(float64(p.ptr.(*OPAUCfParams).Features), d)
		return 2*k*k + 80*k + d
	},
	"opauc-rp": func(d, _ float64, p Params) float64 {
		k := float64(p.ptr.(*OPAUCrpParams).Dims)
		if k >= d { // R = I: OPAUC's state
			return 2*d*d + 80*d
		}
		return d*k + 2*k*k + 80*k + 4*d
	},
	// two reservoirs of N rows, their N×N Gram matrices (sequential updates only)
	"oam-seq": func(d, _ float64, p Params) float64 {
		n := float64(p.ptr.(*OAMParams).Buffer)
		return 2*n*d + 2*n*n + 4*d
	},
	"oam-gra": func(d, _ float64, p Params) float64 { return 2*float64(p.ptr.(*OAMParams).Buffer)*d + 4*d },
	"adaoam":  func(d, _ float64, _ Params) float64 { return 2*d*d + 84*d },
	// a few d-vectors (and one of scratch)
	"solam": vectors(3), "fsauc": vectors(8), "spam-l2": spam, "spam-net": spam,
	"ubauc-online": vectors(2), "olr": vectors(2), "ftrl": vectors(3), "uniexp": vectors(2),
	// one d×d accumulator per worker, the merged Σ and its factor, two B×d blocks
	"mba-l2": mba, "mba-l1": mba, "mba-el": mba,
	// on the host: ~10 vectors, β, X̄w, the batch's duals and coefficients and the
	// permutation, and X̄ itself up to SPDAMResidentElements (counted whenever n·d is
	// that small: the density is not known here); a device backend holds the centred
	// n×d X̄ in its own memory instead (bounded by SPDAMMaxElements)
	"spdam": func(d, n float64, _ Params) float64 {
		w := 12*d + 6*n
		if n*d <= SPDAMResidentElements {
			w += n * d
		}
		return w
	},
	// Q on the backend and on the host, gonum's symmetric copy, its eigenvectors and
	// their scaled copy (at most six d×d at once: 5.8 d² measured at d = 768 by
	// solvertest), three 256-row blocks, the transformed data Z̃ and its product (n×d)
	"ubauc-batch": func(d, n float64, _ Params) float64 { return 6*d*d + 2*n*d + 768*d + 4*n },
	// two classes' moments (d×d), the oracle's system and factor, and a block of rows
	// of each class
	"ls-auc": func(d, n float64, p Params) float64 {
		if d > LSAUCDirectMax || p.ptr.(*LSAUCParams).Steps > 0 { // conjugate gradients: ~12 d-vectors, 4 n-vectors
			return 12*d + 4*n
		}
		return 4*d*d + 2*float64(lsaucBlockRows(int(d)))*d + 8*d
	},
	// Newton's method's vectors over (w, b), the partial sums of the rows pass and of
	// the diagonal (at most sparseMaxParts each), the rows' scores, Hessian weights,
	// direction scores and coefficients, and a pass's scratch
	"unilog": func(d, n float64, _ Params) float64 { return (10+2*sparseMaxParts)*(d+1) + 5*n },
	"mb-psl": mbPair, "mb-phl": mbPair,
	// the first 16 cutting planes, their Gram matrix, per-row scores at three points
	// and the line search's, the subgradients' coefficients, the sort's keys and buffer
	"svm-or": func(d, n float64, p Params) float64 {
		it := float64(p.ptr.(*SVMORParams).Iters)
		return 16*d + 256 + 4*it + 12*n + 6*d
	},
}

// vectors is the state of k vectors of d words.
func vectors(k float64) func(d, n float64, p Params) float64 {
	return func(d, _ float64, _ Params) float64 { return k * d }
}

// spam is SPAM's w, class means and scratch, and the tail average's sum when it averages.
func spam(d, _ float64, p Params) float64 {
	if p.ptr.(*SPAMParams).AvgFrom > 0 {
		return 5 * d
	}
	return 4 * d
}

func mba(d, _ float64, p Params) float64 { return 4*d*d + 2*float64(p.ptr.(*MBAParams).B)*d + 8*d }

// mbPair is MB-PSL's and MB-PHL's w, its scaled copy, the zero row and the result,
// the B sampled pairs' indices, scores and residuals, and the per-row scores and
// coefficients of dense data: the pairs are gathered as scores, never as B×d rows.
func mbPair(d, n float64, p Params) float64 {
	return 4*d + 4*float64(p.ptr.(*MBPairParams).B) + 2*n
}

// withStateBytes sets every Spec's StateBytes from stateWords; an algorithm without an
// entry is a programmer error.
func withStateBytes(specs []Spec) []Spec {
	for i := range specs {
		words, ok := stateWords[specs[i].Name]
		if !ok {
			panic(fmt.Sprintf("solver: no state size for %s (add it to stateWords)", specs[i].Name))
		}
		specs[i].StateBytes = func(dim, rows int, params Params) float64 {
			return 8 * words(float64(dim), float64(rows), params)
		}
	}
	return specs
}
