package figure

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/internal/atomicfile"
)

// A line chart's pgfplots file (base.pgfplots.tex) beside its CSV: a LaTeX
// document (the article class and pgfplots, nothing else) whose tikzpicture draws the same points, with the same
// coordinates as the CSV's rows (the same text), so that a paper can
// take the figure as LaTeX (copy the tikzpicture into a figure environment
// with \usepackage{pgfplots}, or \includegraphics the compiled PDF) and
// set it in the paper's own fonts.

// TeXSuffix ends a figure's pgfplots file: base.pgfplots.tex compiles to
// base.pgfplots.pdf, beside (not over) the figure's own base.pdf.
const TeXSuffix = ".pgfplots.tex"

// texEscape escapes the characters LaTeX reads as commands in text.
func texEscape(s string) string {
	r := strings.NewReplacer(`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `#`, `\#`, `$`, `\$`, `%`, `\%`, `&`, `\&`,
		`_`, `\_`, `~`, `\textasciitilde{}`, `^`, `\textasciicircum{}`)
	return r.Replace(s)
}

// writeTeX writes c's pgfplots file from t, the table its CSV holds (the
// rows of kind "point" and "above cut" are each line's points, "published"
// the published values), at out's size, with its axes as drawn (log or
// linear, cut at cut).
func (c *Chart) writeTeX(base string, t *table, out Output, xLog, yLog bool, cut float64) error {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("%% %s: the figure as pgfplots (icnsim); its coordinates are those of %s.csv.", filepath.Base(base), filepath.Base(base))
	p("%% Compile it alone (pdflatex %s%s, which writes %s.pgfplots.pdf), or copy the tikzpicture into a figure with \\usepackage{pgfplots}.", filepath.Base(base), TeXSuffix, filepath.Base(base))
	p(`\documentclass{article}`)
	p(`\usepackage{pgfplots}`)
	p(`\pgfplotsset{compat=1.16}`)
	p(`\pagestyle{empty}`)
	p(`\begin{document}`)
	p(`\begin{tikzpicture}`)
	opts := []string{
		fmt.Sprintf("width=%.3fin", float64(out.Width)/72), fmt.Sprintf("height=%.3fin", float64(out.Height)/72),
		"xlabel={" + texEscape(c.XLabel) + "}", "ylabel={" + texEscape(c.YLabel) + "}",
		"legend cell align=left", "legend style={font=\\footnotesize, at={(0.5,-0.22)}, anchor=north}",
	}
	if c.Title != "" && !out.NoTitle {
		opts = append(opts, "title={"+strings.ReplaceAll(texEscape(c.Title), "\n", `\\`)+"}", "title style={align=center, font=\\small}")
	}
	if xLog {
		opts = append(opts, "xmode=log", "log ticks with fixed point")
	}
	if yLog {
		opts = append(opts, "ymode=log", "log ticks with fixed point")
	}
	if c.YFromZero && !yLog {
		opts = append(opts, "ymin=0")
	}
	if !math.IsInf(cut, 1) {
		opts = append(opts, "ymax="+num(cut), "restrict y to domain*=-1e300:"+num(cut))
	}
	p(`\begin{axis}[%s]`, strings.Join(opts, ", "))
	// The lines' points in the CSV's order, each line once.
	var names []string
	rows := map[string][][]string{}
	for _, r := range t.rows {
		if r[1] != "point" && r[1] != "above cut" && r[1] != "published" {
			continue
		}
		if _, ok := rows[r[0]]; !ok {
			names = append(names, r[0])
		}
		rows[r[0]] = append(rows[r[0]], r)
	}
	for _, name := range names {
		style := "mark=*"
		if !c.Points {
			style = "no markers"
		}
		rs := rows[name]
		bars := false
		for _, r := range rs {
			bars = bars || r[4] != "" && r[5] != ""
		}
		switch {
		case rs[0][1] == "published":
			style = "only marks, mark=x, black, mark size=3pt"
		case bars:
			style += ", error bars/.cd, y dir=both, y explicit"
		}
		p(`\addplot+[%s] coordinates {`, style)
		for _, r := range rs {
			line := "(" + r[2] + "," + r[3] + ")"
			if bars && r[4] != "" && r[5] != "" {
				y, _ := strconv.ParseFloat(r[3], 64)
				lo, _ := strconv.ParseFloat(r[4], 64)
				hi, _ := strconv.ParseFloat(r[5], 64)
				line += " += (0," + num(hi-y) + ") -= (0," + num(y-lo) + ")"
			}
			p("  %s", line)
		}
		p(`};`)
		p(`\addlegendentry{%s}`, texEscape(name))
	}
	p(`\end{axis}`)
	p(`\end{tikzpicture}`)
	p(`\end{document}`)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(base+TeXSuffix, b.Bytes())
}
