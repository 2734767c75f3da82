package engine

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// systemMemoryLimits returns the limits Linux sets on this process's memory: its cgroup
// (v2 or v1), the address-space rlimit and the physical memory available.
func systemMemoryLimits() []memLimit {
	var out []memLimit
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			parts := strings.SplitN(line, ":", 3)
			if len(parts) != 3 {
				continue
			}
			switch {
			case parts[0] == "0" && parts[1] == "":
				out = appendCgroup(out, "cgroup v2 memory.max", "/sys/fs/cgroup", parts[2], "memory.max")
			case strings.Contains(","+parts[1]+",", ",memory,"):
				out = appendCgroup(out, "cgroup v1 memory limit", "/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes")
			}
		}
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur < 1<<62 {
		out = append(out, memLimit{Bytes: float64(rl.Cur), Source: "address-space limit (ulimit -v)"})
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "MemAvailable" {
				if kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64); err == nil {
					out = append(out, memLimit{Bytes: kb * 1024, Source: "physical memory available"})
				}
			}
		}
	}
	return out
}

// appendCgroup appends the limit in root/path/file (or root/file, where a namespaced
// cgroup shows itself as the root) when it is a number below 2⁶⁰ ("max" and v1's huge
// default mean no limit).
func appendCgroup(out []memLimit, source, root, path, file string) []memLimit {
	for _, p := range []string{filepath.Join(root, path, file), filepath.Join(root, file)} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
		if err == nil && v < 1<<60 {
			return append(out, memLimit{Bytes: v, Source: source})
		}
		return out
	}
	return out
}
