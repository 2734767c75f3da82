// Package suggest finds the known name a mistyped one most likely meant, for the "did
// you mean" of an unknown algorithm, dataset or command.
package suggest

import "strings"

// Closest returns the name of known that name most likely meant, and whether there is
// one: a name equal to it but for case and '_' for '-' (OPAUC, spam_l2), else the
// nearest by edit distance (insertions, deletions, substitutions and transpositions of
// adjacent characters, on those normalised forms) when it is close: at most 1 edit
// for names of up to 4 characters, 2 for longer ones. Ties go to the earlier name of
// known.
func Closest(name string, known []string) (string, bool) {
	n := normalise(name)
	if n == "" {
		return "", false
	}
	limit := 1
	if len([]rune(n)) > 4 {
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, k := range known {
		d := distance(n, normalise(k))
		if d < bestDist {
			best, bestDist = k, d
		}
	}
	return best, best != ""
}

// Hint is ": did you mean X?" for Closest's name, or "" when there is none; it is
// meant to follow an error's "unknown … \"name\"".
func Hint(name string, known []string) string {
	if k, ok := Closest(name, known); ok {
		return ": did you mean " + k + "?"
	}
	return ""
}

// normalise lowers the case and writes '_' as '-'.
func normalise(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-")
}

// distance is the optimal string alignment distance of a and b, by characters: the
// fewest insertions, deletions, substitutions and transpositions of two adjacent
// characters (no substring edited twice) that turn a into b.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// Three rows of the dynamic programme: the one before the previous, the previous
	// and the current.
	pp, p, c := make([]int, len(t)+1), make([]int, len(t)+1), make([]int, len(t)+1)
	for j := range p {
		p[j] = j
	}
	for i := 1; i <= len(s); i++ {
		c[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			c[j] = min(p[j]+1, c[j-1]+1, p[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				c[j] = min(c[j], pp[j-2]+1)
			}
		}
		pp, p, c = p, c, pp
	}
	return p[len(t)]
}
