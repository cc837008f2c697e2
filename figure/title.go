package figure

import (
	"strings"
	"unicode/utf8"
)

// Title is a figure's title as every figure of a study has it: "name: what
// (group)", wrapped to the width of a figure (TitleChars), and below it the
// study's fixed values in words (fixed, "" for none), wrapped alike.
func Title(name, what, group, fixed string) string {
	t := name + ": " + what
	if group != "" {
		t += " (" + group + ")"
	}
	t = WrapWords(t, TitleChars)
	if fixed != "" {
		t += "\n" + WrapWords(fixed, TitleChars)
	}
	return t
}

// TitleChars is about the most characters of a title that fit across a
// figure (measured: a 140-character title lost both ends).
const TitleChars = 90

// WrapWords breaks each line of s into lines of at most width characters
// at spaces (a longer word keeps a line of its own).
func WrapWords(s string, width int) string {
	var b strings.Builder
	for li, text := range strings.Split(s, "\n") {
		if li > 0 {
			b.WriteByte('\n')
		}
		line := 0
		for i, w := range strings.Fields(text) {
			n := utf8.RuneCountInString(w)
			switch {
			case i == 0:
			case line+1+n > width:
				b.WriteByte('\n')
				line = 0
			default:
				b.WriteByte(' ')
				line++
			}
			b.WriteString(w)
			line += n
		}
	}
	return b.String()
}
