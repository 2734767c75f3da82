// Package bytesize parses and writes sizes in bytes as users give and read them.
package bytesize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse parses a memory size: a number of bytes with an optional unit, decimal
// (kB, MB, GB, TB; also K, M, G, T) or binary (KiB, MiB, GiB, TiB), case-insensitive:
// "8GiB", "500MB", "1e9".
func Parse(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"k", 1e3}, {"m", 1e6}, {"g", 1e9}, {"t", 1e12}, {"b", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(x) || x*mult < 1 || x*mult >= math.MaxInt64 {
		return 0, fmt.Errorf("memory size %q: want a positive number of bytes with an optional unit (e.g. 8GiB, 500MB)", s)
	}
	return int64(x * mult), nil
}

// Format writes a size in decimal units with about two significant digits:
// "32 TB", "1.5 GB", "800 kB".
func Format(b float64) string {
	units := []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	u := 0
	for b >= 999.5 && u < len(units)-1 {
		b /= 1000
		u++
	}
	if b < 9.95 && u > 0 {
		return fmt.Sprintf("%.1f %s", b, units[u])
	}
	return fmt.Sprintf("%.0f %s", b, units[u])
}
