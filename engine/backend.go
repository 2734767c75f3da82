package engine

import (
	"fmt"
	"strings"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
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

// Automatic selection runs a workload on a device backend only when the algorithm's
// time goes to large dense kernels and its data is dense and large: at least
// data.DenseAuto of the values stored, at least autoDeviceDim features, and at least
// the algorithm's solver.Spec.DeviceValues values n·d·passes (measured per algorithm;
// an online learner's passes run the same kernels again, a batch one counts once). Below
// that a GPU's fixed cost per call (a launch, or a host round trip of about 28 µs for a
// scalar result, on the H200 of bench/README.md) outweighs its speed; and a CPU backend
// runs a grid's points and the folds on all cores, which a device backend does not.
const autoDeviceDim = 1000

// OnDevice reports whether automatic selection runs w on a device backend, when there
// is one.
func (w workShape) OnDevice() bool {
	v := w.Spec.DeviceValues
	return v > 0 && w.Dim >= autoDeviceDim && w.Density >= data.DenseAuto &&
		float64(w.Rows)*float64(w.Dim)*float64(max(w.Passes, 1)) >= float64(v)
}

// autoBackend opens the backend automatic selection chooses for w: the most capable
// registered backend (a device backend where one is available) when w runs on a device
// (OnDevice), else the best host backend (avx2 where available, else generic); see
// package backends. The caller closes it. With no backend registered the error is
// backends.ErrNone, which names the import to add.
func autoBackend(w workShape) (kernels.Backend, error) {
	return backends.OpenAuto(w.OnDevice())
}

// AutoDeviceRule says in words which workloads automatic selection runs on a device
// backend (workShape.OnDevice).
func AutoDeviceRule() string {
	var parts []string
	for _, s := range solver.Registry() {
		if s.DeviceValues > 0 {
			parts = append(parts, fmt.Sprintf("%s from %.0e", s.Name, float64(s.DeviceValues)))
		}
	}
	return fmt.Sprintf("data at least %g%% dense with at least %d features and n·d·passes values: %s",
		100*data.DenseAuto, autoDeviceDim, strings.Join(parts, ", "))
}
