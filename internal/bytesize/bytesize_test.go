package bytesize

import "testing"

func TestParseFormatBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"8GiB", 8 << 30}, {"500MB", 500e6}, {"1e9", 1e9}, {"2 gb", 2e9}, {"64k", 64e3}, {"3TiB", 3 << 40}, {"100b", 100}} {
		if got, err := Parse(c.in); err != nil || got != c.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "GiB", "-1GB", "0", "8XB", "NaN", "1e30TB"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	for _, c := range []struct {
		in   float64
		want string
	}{{32e12, "32 TB"}, {1.5e9, "1.5 GB"}, {999, "999 B"}, {8 << 30, "8.6 GB"}, {64e12, "64 TB"}} {
		if got := Format(c.in); got != c.want {
			t.Errorf("Format(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}
