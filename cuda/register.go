package cuda

import (
	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/kernels"
)

// init registers the backend with package backends as "cuda", a device backend:
// automatic selection runs on it the workloads that pay for a GPU, when one is here.
func init() {
	backends.Register(backends.Driver{
		Name:     "cuda",
		Priority: 30,
		Device:   true,
		Open: func() (kernels.Backend, error) {
			b, err := New()
			if err != nil {
				return nil, err
			}
			return b, nil
		},
	})
}
