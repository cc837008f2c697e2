// Package suggest finds, for a mistyped key or value, the candidates
// nearest to what was written, for "did you mean" in the errors of every
// layer that checks a configuration. It imports the standard library only.
package suggest

import (
	"cmp"
	"slices"
	"strings"
)

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Nearest lists up to n of cands close to word, best first, comparing the
// last dotted parts (the leaf; "-" and "_" ignored for prefixes): a
// candidate whose leaf is word's (a key under the wrong table), then one
// whose leaf begins with word's (at least 3 letters: "load" for
// load_flits_per_node_cycle), then one whose leaf contains it (at least 3),
// then those within an edit distance of a third of the leaf (at least 1);
// ties alphabetically.
func Nearest(word string, cands []string, n int) []string {
	leafOf := func(s string) string { return s[strings.LastIndex(s, ".")+1:] }
	norm := func(s string) string { return strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(s)) }
	leaf := leafOf(word)
	nl := norm(leaf)
	limit := max(1, len(leaf)/3)
	type scored struct {
		s string
		d int
	}
	var out []scored
	for _, c := range cands {
		if c == word {
			continue
		}
		cl := leafOf(c)
		ncl := norm(cl)
		switch d := editDistance(strings.ToLower(leaf), strings.ToLower(cl)); {
		case cl == leaf:
			out = append(out, scored{c, 0})
		case len(nl) >= 3 && strings.HasPrefix(ncl, nl):
			out = append(out, scored{c, 1})
		case len(nl) >= 3 && strings.Contains(ncl, nl):
			out = append(out, scored{c, 2})
		case d <= limit:
			out = append(out, scored{c, 3 + d})
		}
	}
	slices.SortFunc(out, func(a, b scored) int {
		return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.s, b.s))
	})
	var names []string
	for _, s := range out[:min(n, len(out))] {
		names = append(names, s.s)
	}
	return names
}

// DidYouMean is "; did you mean X?" (or "X or Y") for word among cands, or
// "" when none is near.
func DidYouMean(word string, cands []string) string {
	near := Nearest(word, cands, 3)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, s := range near {
		q[i] = `"` + s + `"`
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}
