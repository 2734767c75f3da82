package solver

import (
	"fmt"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
)

// DeviceMinDim is the fewest features a device backend is chosen for. Automatic backend
// selection runs a workload on a device backend only when the algorithm's
// time goes to large dense kernels and its data is dense and large: at least
// data.DenseAuto of the values stored, at least DeviceMinDim features, and at least
// the algorithm's Spec.DeviceValues values n·d·passes (measured per algorithm;
// an online learner's passes run the same kernels again, a batch one counts once). Below
// that a GPU's fixed cost per call (a launch, or a host round trip of about 28 µs for a
// scalar result, on the H200 of bench/README.md) outweighs its speed; and a CPU backend
// runs a grid's points and the folds on all cores, which a device backend does not.
const DeviceMinDim = 1000

// OnDevice reports whether automatic backend selection runs the algorithm on a device
// backend, when there is one, for training data of rows × dim values of which density
// are stored, seen passes times (0 or 1 for once, and for a batch algorithm).
func (s Spec) OnDevice(rows, dim int, density float64, passes int) bool {
	v := s.DeviceValues
	return v > 0 && dim >= DeviceMinDim && density >= data.DenseAuto &&
		float64(rows)*float64(dim)*float64(max(passes, 1)) >= float64(v)
}

// DeviceRule says in words which workloads automatic backend selection runs on a
// device backend (Spec.OnDevice).
func DeviceRule() string {
	var parts []string
	for _, s := range Registry() {
		if s.DeviceValues > 0 {
			parts = append(parts, fmt.Sprintf("%s from %.0e", s.Name, float64(s.DeviceValues)))
		}
	}
	return fmt.Sprintf("data at least %g%% dense with at least %d features and n·d·passes values: %s",
		100*data.DenseAuto, DeviceMinDim, strings.Join(parts, ", "))
}
