package main

import (
	"github.com/aucopt/aucopt/engine"
	flag "github.com/spf13/pflag"
)

// maxMemoryFlag registers --max-memory on fs: the memory guard's limit.
func maxMemoryFlag(fs *flag.FlagSet) *string {
	return fs.String("max-memory", "", "the memory the learners may take, e.g. 8GiB or 500MB (default: the memory available: the cgroup's limit, ulimit -v or the physical memory); a run that needs more is refused before it starts")
}

// parseMaxMemory parses --max-memory's value; "" is 0, the memory available.
func parseMaxMemory(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := engine.ParseBytes(s)
	if err != nil {
		return 0, inputErrorf("--max-memory: %v", err)
	}
	return n, nil
}
