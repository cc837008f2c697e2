package figure

import (
	"strings"
	"testing"
)

// TestWrapWords: titles break at spaces into lines of at most the width;
// a word longer than the width keeps a line of its own; nothing is lost.
func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"short title", 90, "short title"},
		{"aaa bbb ccc", 7, "aaa bbb\nccc"},
		{"aaa bbb ccc", 6, "aaa\nbbb\nccc"},
		{"a verylongword b", 5, "a\nverylongword\nb"},
		{"", 10, ""},
		{"été été été", 7, "été été\nété"},          // characters, not bytes
		{"aaa bbb\nccc ddd", 7, "aaa bbb\nccc ddd"}, // lines kept
		{"aaa bbb ccc\nd", 7, "aaa bbb\nccc\nd"},
	} {
		if got := WrapWords(c.in, c.width); got != c.want {
			t.Errorf("WrapWords(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
	long := "mesh-recn-xoff: Most flits in one egress SAQ, whole run vs share of sources sending to the hot spot (k=16 concentration=1 hotspot_node=32)"
	got := WrapWords(long, TitleChars)
	for _, l := range strings.Split(got, "\n") {
		if len(l) > TitleChars {
			t.Errorf("line of %d characters: %q", len(l), l)
		}
	}
	if strings.Join(strings.Fields(got), " ") != long {
		t.Errorf("wrapping lost words: %q", got)
	}
}
