package suggest

import "testing"

func TestClosest(t *testing.T) {
	algos := []string{"opauc", "opaucr", "spam-l2", "spam-net", "solam", "ls-auc", "olr", "ftrl"}
	commands := []string{"train", "predict", "eval", "cv", "convert", "gen"}
	tests := []struct {
		name  string
		known []string
		want  string // "" for no suggestion
	}{
		{"opuac", algos, "opauc"},     // two letters swapped
		{"OPAUC", algos, "opauc"},     // case
		{"spam_l2", algos, "spam-l2"}, // underscore
		{"SPAM_NET", algos, "spam-net"},
		{"lsauc", algos, "ls-auc"},
		{"opaucx", algos, "opauc"}, // ties go to the earlier name: opauc before opaucr
		{"trian", commands, "train"},
		{"predcit", commands, "predict"},
		{"evl", commands, "eval"},
		{"cvv", commands, "cv"},
		{"frobnicate", commands, ""},
		{"xyz", algos, ""},
		{"", algos, ""},
		{"ab", commands, ""}, // two edits from cv: too far for a short name
	}
	for _, tt := range tests {
		got, ok := Closest(tt.name, tt.known)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
	if h := Hint("trian", commands); h != ": did you mean train?" {
		t.Errorf("Hint(trian) = %q", h)
	}
	if h := Hint("frobnicate", commands); h != "" {
		t.Errorf("Hint(frobnicate) = %q, want none", h)
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"abc", "abc", 0},
		{"ab", "ba", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, // OSA, not Damerau: 3
		{"é", "e", 1}, // characters, not bytes
	}
	for _, tt := range tests {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := distance(tt.b, tt.a); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
