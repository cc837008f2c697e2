package figure

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TestFigureSizeAsAsked: a figure asked at 3.5 x 2.6 in is 3.5 x 2.6 in in
// its SVG (points), its PNG (pixels at its DPI) and its PDF (the media
// box), whether its legend sits inside the plot or below it (six long line
// names), and so are range bars with their legend below. (A legend that
// does not fit in 45% of the height at 6 points grows the figure:
// TestGoldenWideLegend's nine names at 6 x 4 in fit; twelve at 3.5 x 2.6
// in would not.)
func TestFigureSizeAsAsked(t *testing.T) {
	dir := t.TempDir()
	out := Output{Formats: ImageFormats(), Width: 3.5 * vg.Inch, Height: 2.6 * vg.Inch, FontSize: vg.Points(8), DPI: 200}
	line := func(name string, k float64) Line {
		return Line{Name: name, XY: [][2]float64{{0.1, k}, {0.2, 2 * k}, {0.3, 4 * k}}}
	}
	few := &Chart{Title: "few lines", XLabel: "Offered load", YLabel: "Latency", Points: true, Lines: []Line{line("a", 1), line("b", 2)}}
	many := &Chart{Title: "many long names", XLabel: "Offered load", YLabel: "Latency", Points: true}
	for i := range 6 {
		many.Lines = append(many.Lines, line(fmt.Sprintf("Traffic pattern = bit-complement, routing = dor-dateline, %d VCs", i), float64(i+1)))
	}
	bars := &RangeBars{Title: "bars", XLabel: "Class", YLabel: "Utilisation", Groups: []string{"x+", "y+"}, Series: []string{"a long series name one", "a long series name two", "three"},
		Min: [][]float64{{0, 0}, {0, 0}, {0, 0}}, Mean: [][]float64{{0.2, 0.3}, {0.2, 0.3}, {0.2, 0.3}}, Max: [][]float64{{0.5, 0.6}, {0.5, 0.6}, {0.5, 0.6}}}
	for name, save := range map[string]func(string, Output) error{"few": few.Save, "many": many.Save, "bars": bars.Save} {
		base := filepath.Join(dir, name)
		if err := save(base, out); err != nil {
			t.Fatal(err)
		}
		svg, _ := os.ReadFile(base + ".svg")
		m := regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`).FindSubmatch(svg)
		if m == nil {
			t.Fatalf("%s.svg: no size", name)
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		if math.Abs(w-252) > 0.01 || math.Abs(h-187.2) > 0.01 {
			t.Errorf("%s.svg: %g x %g pt, want 252 x 187.2 (3.5 x 2.6 in)", name, w, h)
		}
		b, _ := os.ReadFile(base + ".png")
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width != 700 || cfg.Height != 520 {
			t.Errorf("%s.png: %d x %d px (%v), want 700 x 520 at 200 dpi", name, cfg.Width, cfg.Height, err)
		}
		pdf, _ := os.ReadFile(base + ".pdf")
		mb := regexp.MustCompile(`/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]`).FindSubmatch(pdf)
		if mb == nil {
			t.Fatalf("%s.pdf: no media box", name)
		}
		pw, _ := strconv.ParseFloat(string(mb[1]), 64)
		ph, _ := strconv.ParseFloat(string(mb[2]), 64)
		if math.Abs(pw-252) > 0.5 || math.Abs(ph-187.2) > 0.5 {
			t.Errorf("%s.pdf: %g x %g pt, want 252 x 187.2", name, pw, ph)
		}
	}
}

// TestClippedIntervalsMarked: an interval that runs below a log axis (a
// mean of 74 +- 110 cycles) or above the cut ends in an arrowhead, and the
// legend says what the arrowhead means; intervals within the axis do not
// add that note.
func TestClippedIntervalsMarked(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		lo, hi  float64
		ymax    float64
		clipped bool
	}{{"below-log", -36, 184, 0, true}, {"above-cut", 60, 140, 100, true}, {"inside", 60, 90, 0, false}} {
		ch := &Chart{Title: c.name, XLabel: "x", YLabel: "latency", YLog: true, Points: true, YMax: c.ymax, IntervalName: "95% CI of the mean",
			Lines: []Line{{Name: "a", XY: [][2]float64{{1, 74}, {2, 80}, {3, 120}}, Lo: []float64{c.lo, 70, 110}, Hi: []float64{c.hi, 90, 130}}}}
		base := filepath.Join(dir, c.name)
		if err := ch.Save(base, Output{Formats: []string{"svg"}}); err != nil {
			t.Fatal(err)
		}
		svg, _ := os.ReadFile(base + ".svg")
		if got := bytes.Contains(svg, []byte("an arrowhead: it runs beyond the axis")); got != c.clipped {
			t.Errorf("%s: legend notes a clipped interval: %v, want %v", c.name, got, c.clipped)
		}
	}
}

// TestOverflowMarksApart: lines beyond the cut at every one of nine close
// loads of a small figure. Three lines: each point has its own triangle;
// eight: one grey triangle per load. No two triangles overlap, each
// load's label gives the value or the range of the values there, no two
// labels of a row overlap, and the drawn figure carries the labels.
func TestOverflowMarksApart(t *testing.T) {
	const loads = 9
	for _, c := range []struct{ lines, triangles int }{{1, loads}, {3, 3 * loads}, {8, loads}} {
		var marks []overflow
		ch := &Chart{Title: "overflow", XLabel: "load", YLabel: "latency", Points: true, YMax: 100}
		for i := range c.lines {
			l := Line{Name: fmt.Sprintf("line %d", i)}
			for j := range loads {
				x, y := 0.1+0.05*float64(j), 200+100*float64(j)+10*float64(i)
				l.XY = append(l.XY, [2]float64{x, y})
				marks = append(marks, overflow{line: i, x: x, y: y})
			}
			ch.Lines = append(ch.Lines, l)
		}
		o := &overflowMarks{marks: marks, style: plot.New().Legend.TextStyle}
		o.style.Font.Size = vg.Points(8)
		// A plot area 180 points wide from x = 0.1 to 0.5.
		trX := func(x float64) vg.Length { return vg.Length((x - 0.1) / 0.4 * 180) }
		glyphs, labels := o.layout(trX, overflowRows)
		if len(glyphs) != c.triangles {
			t.Fatalf("%d lines: %d triangles, want %d", c.lines, len(glyphs), c.triangles)
		}
		for i := 1; i < len(glyphs); i++ {
			a, b := glyphs[i-1], glyphs[i]
			if b.x-a.x < a.r+b.r {
				t.Errorf("%d lines: triangles of lines %d and %d overlap: centres at %.1f and %.1f pt, radii %.1f and %.1f", c.lines, a.line, b.line, a.x, b.x, a.r, b.r)
			}
		}
		if len(labels) < loads/2 {
			t.Errorf("%d lines: %d labels for %d loads: fewer than every other", c.lines, len(labels), loads)
		}
		end := map[int]vg.Length{}
		for _, l := range labels {
			if e, ok := end[l.row]; ok && l.x-l.width/2 < e {
				t.Errorf("%d lines: label %q overlaps the one before it in row %d", c.lines, l.text, l.row)
			}
			end[l.row] = l.x + l.width/2
			if got := strings.Contains(l.text, "–"); got != (c.lines > 1) {
				t.Errorf("%d lines: label %q is a range: %v", c.lines, l.text, got)
			}
		}
		base := filepath.Join(t.TempDir(), "overflow")
		if err := ch.Save(base, Output{Formats: []string{"svg"}, Width: 3.5 * vg.Inch, Height: 2.6 * vg.Inch}); err != nil {
			t.Fatal(err)
		}
		svg, err := os.ReadFile(base + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		if want := overflowText(200, 200+10*float64(c.lines-1)); !bytes.Contains(svg, []byte(">"+want+"<")) {
			t.Errorf("%d lines: the first load's label %s is not in the figure", c.lines, want)
		}
	}
}

// TestLogAxisWithoutValues: a chart asked for log axes whose points all
// lack a value (every run unfinished, so NaN) draws an empty linear axis,
// and one with a single value a log axis a factor of two either side of
// it, rather than failing.
func TestLogAxisWithoutValues(t *testing.T) {
	for _, xy := range [][][2]float64{{{1024, math.NaN()}, {1 << 20, math.NaN()}}, {{1e-5, math.NaN()}, {0.01, 12}}} {
		ch := &Chart{Title: "few", XLabel: "size", YLabel: "time", XLog: true, YLog: true, Points: true, Lines: []Line{{Name: "a", XY: xy}}}
		if err := ch.Save(filepath.Join(t.TempDir(), "few"), Output{Formats: []string{"svg"}}); err != nil {
			t.Fatal(err)
		}
	}
}
