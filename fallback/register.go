package fallback

import (
	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/kernels"
)

// init registers the backend with package backends as "generic", the lowest priority
// of automatic selection: it runs everywhere.
func init() {
	backends.Register(backends.Driver{
		Name:     "generic",
		Priority: 10,
		Open:     func() (kernels.Backend, error) { return New(), nil },
	})
}
