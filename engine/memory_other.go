//go:build !linux

package engine

// systemMemoryLimits returns no limits outside Linux: the memory guard then applies
// only an explicit MaxMemory (--max-memory).
func systemMemoryLimits() []memLimit { return nil }
