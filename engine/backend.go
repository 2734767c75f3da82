package engine

import (
	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// workShape is what the automatic choice of a backend looks at: the algorithm and the
// shape of its training data.
type workShape struct {
	Spec      solver.Spec
	Rows, Dim int
	// Density is the share of the values stored, nnz/(rows·dim): 1 for dense data.
	Density float64
	// Passes is the passes an online algorithm makes over the rows (0 or 1 for one, and
	// for a batch algorithm): the kernels run through n·d·Passes values.
	Passes int
}

// OnDevice reports whether automatic selection runs w on a device backend, when there
// is one (solver.Spec.OnDevice).
func (w workShape) OnDevice() bool {
	return w.Spec.OnDevice(w.Rows, w.Dim, w.Density, w.Passes)
}

// autoBackend opens the backend automatic selection chooses for w: the most capable
// registered backend (a device backend where one is available) when w runs on a device
// (OnDevice), else the best host backend (avx2 where available, else generic); see
// package backends. The caller closes it. With no backend registered the error is
// backends.ErrNone, which names the import to add.
func autoBackend(w workShape) (kernels.Backend, error) {
	return backends.OpenAuto(w.OnDevice())
}
