package solver

// withState sets s's StateBytes from words, the float64 words a learner with
// parameters p holds for d features and n training rows: its vectors and matrices, the
// scratch blocks it allocates at once, and for the batch learners the working copies
// they always build (ba-UBAUC's n×d transformed data). The training data themselves
// are not counted, nor a batch learner's dense upload of data that are dense already
// (it is their size again), nor what grows during a fit (SVM-OR's cutting planes
// beyond the first 16). These are the allocations of the constructors and Fit in this
// package, to within a few vectors (solvertest checks them): Spec.StateBytes is 8
// bytes a word.
func withState[P any](s *Spec, words func(d, n float64, p *P) float64) {
	name := s.Name
	s.StateBytes = func(dim, rows int, params Params) float64 {
		return 8 * words(float64(dim), float64(rows), typedParams[P](name, params))
	}
}

// vectors is the state of k vectors of d words.
func vectors[P any](k float64) func(d, n float64, p *P) float64 {
	return func(d, _ float64, _ *P) float64 { return k * d }
}
