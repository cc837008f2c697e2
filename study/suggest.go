package study

import (
	"cmp"
	"slices"
	"strings"
)

// Suggestions for a mistyped key or value: the candidates nearest to what
// was written, by edit distance, for "did you mean" in the errors.

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

// nearest lists up to n of cands close to word, best first: those whose
// last dotted part is word's last part (a key under the wrong table), then
// those within an edit distance of a third of word's length (at least 2),
// or whose last part is within a quarter of the last part's length (at
// least 1), by distance and then alphabetically.
func nearest(word string, cands []string, n int) []string {
	leaf := word[strings.LastIndex(word, ".")+1:]
	limit := max(2, len(word)/3)
	type scored struct {
		s string
		d int
	}
	var out []scored
	for _, c := range cands {
		if c == word {
			continue
		}
		cl := c[strings.LastIndex(c, ".")+1:]
		switch d := editDistance(strings.ToLower(word), strings.ToLower(c)); {
		case cl == leaf:
			out = append(out, scored{c, -1})
		case d <= limit:
			out = append(out, scored{c, d})
		case editDistance(leaf, cl) <= max(1, len(leaf)/4):
			out = append(out, scored{c, editDistance(leaf, cl)})
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

// didYouMean is "; did you mean X?" (or "X or Y") for word among cands, or
// "" when none is near.
func didYouMean(word string, cands []string) string {
	near := nearest(word, cands, 3)
	if len(near) == 0 {
		return ""
	}
	q := make([]string, len(near))
	for i, s := range near {
		q[i] = `"` + s + `"`
	}
	return "; did you mean " + strings.Join(q, " or ") + "?"
}
