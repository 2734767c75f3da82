// Package depcheck tells, for tests, whether a package links a backend implementation:
// engine and dist/beam select their backends through package backends and must not
// depend on fallback, asm or cuda, directly or through another package.
package depcheck

import (
	"fmt"
	"os/exec"
	"strings"
)

// implementations are the backend packages that register themselves with package
// backends.
var implementations = []string{
	"github.com/aucopt/aucopt/fallback",
	"github.com/aucopt/aucopt/asm",
	"github.com/aucopt/aucopt/cuda",
}

// NoBackends runs `go list -deps` on the package in dir and returns an error naming
// every backend implementation among its dependencies; nil when there is none.
func NoBackends(dir string) error {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -deps: %v", err)
	}
	var found []string
	for _, p := range strings.Fields(string(out)) {
		for _, impl := range implementations {
			if p == impl {
				found = append(found, p)
			}
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("the package imports %s (through package backends only, please)", strings.Join(found, ", "))
	}
	return nil
}
