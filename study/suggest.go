package study

import "github.com/icnsim/icnsim/internal/suggest"

// nearest lists up to n of cands close to word (suggest.Nearest).
func nearest(word string, cands []string, n int) []string { return suggest.Nearest(word, cands, n) }

// didYouMean is "; did you mean X?" for word among cands, or ""
// (suggest.DidYouMean).
func didYouMean(word string, cands []string) string { return suggest.DidYouMean(word, cands) }
