package figure

import (
	"cmp"
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// Line is one named line of a chart: points (x, y) in order, and where
// Lo and Hi are set (one per point, NaN: none), an interval drawn as an
// error bar at each point (the 95% confidence interval of a mean).
type Line struct {
	Name   string
	XY     [][2]float64
	Lo, Hi []float64
	// Unfinished marks points (one flag per point, or none) whose runs did
	// not finish: each is ringed in red, and the legend says what the
	// ring means.
	Unfinished []bool
}

// Chart is a line chart.
type Chart struct {
	Title, XLabel, YLabel string
	Lines                 []Line
	// Points marks every point with a glyph (for sparse data such as load
	// sweeps); dense data (time series, CDFs) is drawn as plain lines.
	Points bool
	// YMax, when positive and below the highest point, cuts the y-axis
	// there: the lines leave the top edge, and each point above the cut is
	// an upward triangle on the edge in its line's colour, labelled with
	// its value.
	YMax float64
	// YLog and XLog draw an axis on a logarithmic scale (points <= 0 are
	// left out).
	YLog, XLog bool
	// YFromZero starts the y-axis at 0 (or below, for negative values).
	YFromZero bool
	// XInteger and YInteger keep an axis's ticks on whole numbers (node
	// ids, counts).
	XInteger, YInteger bool
	// IntervalName names the error bars in the legend (e.g. "95% CI of
	// the mean, 5 replicates"); with no line carrying an interval, none.
	IntervalName string
	// Marks are vertical dotted lines, each in its line's colour (e.g. the
	// saturation load of each line), named in the legend by MarkName.
	Marks    []Mark
	MarkName string
	// Levels are horizontal or vertical reference lines with a value
	// (published maxima, a limit), each named in the legend.
	Levels []Level
	// Spans shade ranges of x (a run's warm-up and drain), each named in
	// the legend.
	Spans []Span
	// Refs are published values, drawn as black crosses (one glyph per
	// source) and named in the legend by source.
	Refs []Ref
	// Notes are lines of words at the end of the legend, with no glyph
	// (what a mark in the lines' names means).
	Notes []string
}

// Mark is a vertical line at X in the colour of Lines[Line].
type Mark struct {
	Line int
	X    float64
}

// Ref is a published value at (X, Y) from Source.
type Ref struct {
	Source string
	X, Y   float64
}

// Level is a dashed reference line across the plot at Value: horizontal
// (a y value), or vertical where Vertical is set; named Name in the legend.
type Level struct {
	Name     string
	Value    float64
	Vertical bool
}

// Span is a shaded range of x from From to To, named Name in the legend.
type Span struct {
	Name     string
	From, To float64
}

// spanShades are the fills of spans in order: light greys that a line
// reads through, told apart in the legend.
func spanShade(i int) color.Color {
	return [...]color.Color{color.Gray{Y: 0xe8}, color.Gray{Y: 0xd0}, color.Gray{Y: 0xf2}}[i%3]
}

// unfinishedColor rings the points of runs that did not finish.
var unfinishedColor = color.RGBA{R: 0xd0, G: 0x10, B: 0x10, A: 0xff}

// overflow is a point above a chart's cut.
type overflow struct {
	line int
	x, y float64
}

// Save writes the chart to base.FORMAT for each of out's formats and its
// points to base.csv.
func (c *Chart) Save(base string, out Output) error {
	out = out.withDefaults()
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = c.Title, c.XLabel, c.YLabel
	out.style(p)
	// A title line wider than the figure breaks at spaces, measured in its
	// font (figure.Title wraps by a count of characters, for any width).
	p.Title.Text = wrapText(p.Title.TextStyle, p.Title.Text, out.Width-vg.Points(16))
	// A y label longer than the plot is high would run into the title:
	// it takes two lines.
	titleH := vg.Length(0)
	if p.Title.Text != "" {
		titleH = p.Title.TextStyle.Height(p.Title.Text) + p.Title.Padding
	}
	p.Y.Label.Text = fitLabel(p.Y.Label.Text, p.Y.Label.TextStyle, out.Height-titleH-out.FontSize*5)
	p.Add(lightGrid())
	p.X.Tick.Marker, p.Y.Tick.Marker = UnitTicks{Integer: c.XInteger}, UnitTicks{Integer: c.YInteger}
	positive := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
	// A point with no finite y draws nothing, on any axis.
	xLog := c.XLog && slices.ContainsFunc(c.Lines, func(l Line) bool {
		return slices.ContainsFunc(l.XY, func(pt [2]float64) bool { return positive(pt[0]) && finite(pt[1]) })
	})
	// A log axis needs a positive value to draw; without one the figure
	// falls back to a linear axis.
	yLog := c.YLog && (slices.ContainsFunc(c.Lines, func(l Line) bool {
		return slices.ContainsFunc(l.XY, func(pt [2]float64) bool { return positive(pt[1]) })
	}) || slices.ContainsFunc(c.Refs, func(r Ref) bool { return positive(r.Y) }))
	if yLog {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, LogTicks{}
	}
	if xLog {
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, LogTicks{}
	}
	drawable := func(x, y float64) bool {
		return finite(y) && finite(x) && (!yLog || y > 0) && (!xLog || x > 0)
	}
	cut := c.cut(drawable)
	// On a log axis, what lies at or below 0 is not drawn (gonum's log
	// scale panics on it) and not in the CSV.
	xOK := func(x float64) bool { return finite(x) && (!xLog || x > 0) }
	yOK := func(y float64) bool { return finite(y) && (!yLog || y > 0) }
	spans := slices.DeleteFunc(slices.Clone(c.Spans), func(sp Span) bool { return !xOK(sp.From) || !xOK(sp.To) })
	marks := slices.DeleteFunc(slices.Clone(c.Marks), func(m Mark) bool { return m.Line < 0 || m.Line >= len(c.Lines) || !xOK(m.X) })
	levels := slices.DeleteFunc(slices.Clone(c.Levels), func(lv Level) bool { return lv.Vertical && !xOK(lv.Value) || !lv.Vertical && !yOK(lv.Value) })
	for i, sp := range spans {
		p.Add(&span{from: sp.From, to: sp.To, fill: spanShade(i)})
	}
	var all []plotter.XY // what the legend must not cover
	var above []overflow
	var overflows *overflowMarks
	var unfinished plotter.XYs
	entries := 0
	for i, l := range c.Lines {
		xys := make(plotter.XYs, 0, len(l.XY))
		var in plotter.XYs
		var bars errorBars
		for j, pt := range l.XY {
			if !drawable(pt[0], pt[1]) {
				continue
			}
			xys = append(xys, plotter.XY{X: pt[0], Y: pt[1]})
			if pt[1] <= cut {
				in = append(in, xys[len(xys)-1])
			} else {
				above = append(above, overflow{line: i, x: pt[0], y: pt[1]})
			}
			if j < len(l.Unfinished) && l.Unfinished[j] {
				unfinished = append(unfinished, plotter.XY{X: pt[0], Y: min(pt[1], cut)})
			}
			if lo, hi, ok := l.interval(j); ok {
				bars.add(pt[0], lo, hi, cut, drawable)
				all = append(all, plotter.XY{X: pt[0], Y: min(hi, cut)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
		}
		all = append(all, in...)
		// The legend must not hide the line between its points either.
		for j := 1; j < len(xys); j++ {
			a, b := xys[j-1], xys[j]
			for k := 1; k < 8; k++ {
				pt := plotter.XY{X: a.X + (b.X-a.X)*float64(k)/8, Y: a.Y + (b.Y-a.Y)*float64(k)/8}
				if pt.Y <= cut {
					all = append(all, pt)
				}
			}
		}
		line.Color = seriesColor(i)
		// A dash pattern and a glyph per line as well as a colour, so
		// that lines stay apart in greyscale.
		line.Dashes = plotutil.Dashes(i)
		p.Add(line)
		if len(bars.x) > 0 {
			bars.style = draw.LineStyle{Color: line.Color, Width: vg.Points(0.8)}
			p.Add(&bars)
		}
		entries++
		if c.Points && len(in) > 0 {
			sc, err := plotter.NewScatter(in)
			if err != nil {
				return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
			}
			sc.Color = line.Color
			sc.Shape = seriesShape(i)
			p.Add(sc)
			p.Legend.Add(l.Name, line, sc)
		} else {
			p.Legend.Add(l.Name, line)
		}
	}
	if c.IntervalName != "" && slices.ContainsFunc(c.Lines, func(l Line) bool { return len(l.Lo) > 0 }) {
		name := c.IntervalName
		if slices.ContainsFunc(c.Lines, func(l Line) bool { return clipsInterval(l, cut, yLog) }) {
			name += "; an arrowhead: it runs beyond the axis"
		}
		p.Legend.Add(name, &errorBars{style: draw.LineStyle{Color: color.Gray{Y: 64}, Width: vg.Points(0.8)}})
		entries++
	}
	if len(above) > 0 {
		// Each point above the cut: a triangle on the top edge in its
		// line's colour, labelled with its value, drawn unclipped (the
		// edge is the plot area's boundary).
		ts := p.Legend.TextStyle
		ts.Font.Size = out.smallSize() * 0.85
		overflows = &overflowMarks{marks: above, style: ts, widthGuess: out.Width - yAxisRoom(out)}
		p.Add(overflows)
		p.Legend.Add("beyond "+strconv.FormatFloat(cut, 'g', 4, 64)+": on the top edge (grey: several lines)", &overflowMarks{})
		entries++
	}
	if len(unfinished) > 0 {
		ring, err := plotter.NewScatter(unfinished)
		if err != nil {
			return fmt.Errorf("figure %s: unfinished runs: %w", base, err)
		}
		ring.Shape, ring.Color, ring.Radius = draw.RingGlyph{}, unfinishedColor, vg.Points(6)
		p.Add(edgeGlyphs{ring})
		p.Legend.Add("not finished", ring)
		entries++
	}
	for _, m := range marks {
		p.Add(&vline{x: m.X, style: draw.LineStyle{Color: seriesColor(m.Line), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(3)}}})
	}
	if len(marks) > 0 && c.MarkName != "" {
		p.Legend.Add(c.MarkName, &vline{style: draw.LineStyle{Color: color.Gray{Y: 96}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(3)}}})
		entries++
	}
	for i, lv := range levels {
		style := draw.LineStyle{Color: color.Black, Width: vg.Points(1), Dashes: [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}[i%3]}
		if lv.Vertical {
			p.Add(&vline{x: lv.Value, style: style})
		} else {
			p.Add(&hline{y: lv.Value, style: style})
			all = append(all, plotter.XY{X: math.NaN(), Y: lv.Value})
		}
		p.Legend.Add(lv.Name, &vline{style: style})
		entries++
	}
	for i, sp := range spans {
		p.Legend.Add(sp.Name, &span{fill: spanShade(i)})
		entries++
	}
	var sources []string
	for _, r := range c.Refs {
		if !slices.Contains(sources, r.Source) {
			sources = append(sources, r.Source)
		}
	}
	for k, src := range sources {
		var xys plotter.XYs
		for _, r := range c.Refs {
			if r.Source == src && drawable(r.X, r.Y) {
				xys = append(xys, plotter.XY{X: r.X, Y: r.Y})
			}
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("figure %s: reference %q: %w", base, src, err)
		}
		sc.Shape = refGlyphs()[k%len(refGlyphs())]
		sc.Color, sc.Radius = color.Black, vg.Points(5)
		p.Add(edgeGlyphs{sc})
		p.Legend.Add("Published: "+src, sc)
		all = append(all, xys...)
		entries++
	}
	for _, n := range c.Notes {
		p.Legend.Add(n)
		entries++
	}
	// After every Add, which widens the ranges to the data.
	if !math.IsInf(cut, 1) {
		p.Y.Max = cut
	}
	// A log axis over one value: a factor of two either side (gonum would
	// widen it by one either side, through 0).
	if xLog && p.X.Min == p.X.Max {
		p.X.Min, p.X.Max = p.X.Min/2, p.X.Max*2
	}
	if yLog && p.Y.Min == p.Y.Max {
		p.Y.Min, p.Y.Max = p.Y.Min/2, p.Y.Max*2
	}
	if c.YFromZero || !math.IsInf(cut, 1) {
		if !yLog {
			p.Y.Min = min(p.Y.Min, 0)
		} else if !math.IsInf(cut, 1) {
			p.Y.Min = min(p.Y.Min, cut/10)
		}
	}
	// Lines of constant y (NaN x) span the plot: give them its x range.
	all = slices.DeleteFunc(all, func(pt plotter.XY) bool { return math.IsNaN(pt.Y) })
	for i := range all {
		if math.IsNaN(all[i].X) {
			all[i].X = p.X.Min
			all = append(all, plotter.XY{X: (p.X.Min + p.X.Max) / 2, Y: all[i].Y}, plotter.XY{X: p.X.Max, Y: all[i].Y})
		}
	}
	// A legend must not hide the marks either: each counts as points
	// down its height.
	if len(all) > 0 {
		ylo, yhi := all[0].Y, all[0].Y
		for _, pt := range all {
			ylo, yhi = min(ylo, pt.Y), max(yhi, pt.Y)
		}
		for _, m := range marks {
			for k := 0; k <= 8; k++ {
				all = append(all, plotter.XY{X: m.X, Y: ylo + (yhi-ylo)*float64(k)/8})
			}
		}
	}
	drawn := *c
	drawn.Marks, drawn.Levels, drawn.Spans = marks, levels, spans
	tb := drawn.table(cut, drawable)
	if err := tb.writeCSV(base); err != nil {
		return err
	}
	if err := drawn.writeTeX(base, tb, out, xLog, yLog, cut); err != nil {
		return err
	}
	if entries > MaxLegendInside {
		return saveLegendOutside(p, base, out)
	}
	fitTicks(&p.X, out.Width-yAxisRoom(out))
	top, left, covered, yOffs := chartLegendCorner(p, out, all, overflows)
	if covered > 0 {
		return saveLegendOutside(p, base, out)
	}
	p.Legend.Top, p.Legend.Left = top, left
	if top {
		p.Legend.YOffs = yOffs
	}
	return save(p, base, out)
}

// chartLegendCorner is legendCorner for a chart about to be saved at
// out's size: the legend's box and the plot area measured in points, the
// points it must not cover placed by the axes' scales, and the overflow
// marks' triangles on the top edge counted as points too. A legend at the
// top moves by yOffs to the plot area's top edge (gonum draws it from the
// top of the area above the axes, which takes in the overflow labels).
func chartLegendCorner(p *plot.Plot, out Output, pts []plotter.XY, overflows *overflowMarks) (top, left bool, covered int, yOffs vg.Length) {
	area := p.DataCanvas(draw.NewCanvas(new(recorder.Canvas), out.Width-rightMargin, out.Height))
	pw, ph := area.Max.X-area.Min.X, area.Max.Y-area.Min.Y
	if pw <= 0 || ph <= 0 {
		return true, true, 1, 0
	}
	norm := make([]plotter.XY, 0, len(pts))
	for _, pt := range pts {
		norm = append(norm, plotter.XY{X: p.X.Norm(pt.X), Y: p.Y.Norm(pt.Y)})
	}
	if overflows != nil {
		// The triangles' lower halves are in the plot area (their labels
		// are above it).
		trX := func(x float64) vg.Length { return area.Min.X + vg.Length(p.X.Norm(x))*pw }
		glyphs, _ := overflows.layout(trX, overflowRows)
		for _, g := range glyphs {
			x := float64((g.x - area.Min.X) / pw)
			norm = append(norm, plotter.XY{X: x, Y: 1}, plotter.XY{X: x, Y: 1 - float64(g.r/ph)})
		}
		above := out.Height
		if p.Title.Text != "" {
			above -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
		}
		yOffs = area.Max.Y - above
	}
	box := p.Legend.Rectangle(draw.Canvas{})
	top, left, covered = cornerFor(norm, float64((box.Max.X-box.Min.X)/pw), float64((box.Max.Y-box.Min.Y)/ph))
	return top, left, covered, yOffs
}

// cut is where the y-axis stops: YMax when some point lies above it (but
// never below a published value), else +Inf.
func (c *Chart) cut(drawable func(x, y float64) bool) float64 {
	if c.YMax <= 0 {
		return math.Inf(1)
	}
	hi := math.Inf(-1)
	for _, l := range c.Lines {
		for _, pt := range l.XY {
			if drawable(pt[0], pt[1]) {
				hi = max(hi, pt[1])
			}
		}
	}
	if hi <= c.YMax {
		return math.Inf(1)
	}
	cut := c.YMax
	// Published values are never cut: the axis reaches the highest of
	// them, at a round value.
	for _, r := range c.Refs {
		if drawable(r.X, r.Y) && r.Y > cut {
			cut = RoundUp(r.Y * 1.05)
		}
	}
	if cut >= hi {
		return math.Inf(1)
	}
	return cut
}

// interval is point j's interval, if it has one.
func (l *Line) interval(j int) (lo, hi float64, ok bool) {
	if j >= len(l.Lo) || j >= len(l.Hi) {
		return 0, 0, false
	}
	lo, hi = l.Lo[j], l.Hi[j]
	return lo, hi, finite(lo) && finite(hi)
}

// table is the chart's points as drawn: each line's points (those above
// the cut as "above cut", at their value) with their intervals, the
// saturation marks, the reference lines and the published values. Its
// marks, levels and spans are the drawable ones (Save filters them).
func (c *Chart) table(cut float64, drawable func(x, y float64) bool) *table {
	t := &table{header: []string{"series", "kind", "x", "y", "y_low", "y_high"}}
	for _, l := range c.Lines {
		for j, pt := range l.XY {
			if !drawable(pt[0], pt[1]) {
				continue
			}
			kind := "point"
			if pt[1] > cut {
				kind = "above cut"
			}
			lo, hi, ok := l.interval(j)
			if !ok {
				lo, hi = math.NaN(), math.NaN()
			}
			t.add(l.Name, kind, num(pt[0]), num(pt[1]), num(lo), num(hi))
		}
	}
	for _, m := range c.Marks {
		t.add(c.Lines[m.Line].Name, c.MarkName, num(m.X), "", "", "")
	}
	for _, lv := range c.Levels {
		if lv.Vertical {
			t.add(lv.Name, "vertical line", num(lv.Value), "", "", "")
		} else {
			t.add(lv.Name, "horizontal line", "", num(lv.Value), "", "")
		}
	}
	for _, sp := range c.Spans {
		t.add(sp.Name, "span from", num(sp.From), "", "", "")
		t.add(sp.Name, "span to", num(sp.To), "", "", "")
	}
	for _, r := range c.Refs {
		if drawable(r.X, r.Y) {
			t.add("Published: "+r.Source, "published", num(r.X), num(r.Y), "", "")
		}
	}
	return t
}

// clipsInterval reports whether an interval of l runs beyond the y axis:
// above the cut, or to 0 or below on a log axis.
func clipsInterval(l Line, cut float64, yLog bool) bool {
	for j := range l.XY {
		if lo, hi, ok := l.interval(j); ok && (hi > cut && lo < cut || yLog && lo <= 0 && hi > 0) {
			return true
		}
	}
	return false
}

// errorBars are vertical bars with caps from lo to hi at each x.
type errorBars struct {
	x, lo, hi []float64
	cut       []bool // the bar's top was cut at the axis's cut
	style     draw.LineStyle
}

// add adds a bar from lo to hi at x, its top cut at cut.
func (b *errorBars) add(x, lo, hi, cut float64, drawable func(x, y float64) bool) {
	if !drawable(x, lo) { // below a log axis: the bar starts at its foot
		lo = math.NaN()
	}
	b.x, b.lo, b.hi, b.cut = append(b.x, x), append(b.lo, lo), append(b.hi, min(hi, cut)), append(b.cut, hi > cut)
}

func (b *errorBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	capW := vg.Points(2.5)
	for i, x := range b.x {
		xp := trX(x)
		y0 := c.Min.Y
		if !math.IsNaN(b.lo[i]) {
			y0 = max(trY(b.lo[i]), c.Min.Y)
		}
		y1 := min(trY(b.hi[i]), c.Max.Y)
		if y1 <= y0 {
			continue
		}
		c.StrokeLine2(b.style, xp, y0, xp, y1)
		// A cap where the interval ends; an arrowhead where the axis cuts
		// it (below a log axis, above a cut), so that a clipped bar does
		// not read as a short one.
		if !math.IsNaN(b.lo[i]) && trY(b.lo[i]) >= c.Min.Y {
			c.StrokeLine2(b.style, xp-capW, y0, xp+capW, y0)
		} else {
			c.StrokeLines(b.style, []vg.Point{{X: xp - capW, Y: y0 + capW}, {X: xp, Y: y0}, {X: xp + capW, Y: y0 + capW}})
		}
		if trY(b.hi[i]) <= c.Max.Y && !b.cut[i] {
			c.StrokeLine2(b.style, xp-capW, y1, xp+capW, y1)
		} else {
			c.StrokeLines(b.style, []vg.Point{{X: xp - capW, Y: y1 - capW}, {X: xp, Y: y1}, {X: xp + capW, Y: y1 - capW}})
		}
	}
}

func (b *errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin, xmax, ymax = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for i, x := range b.x {
		xmin, xmax = min(xmin, x), max(xmax, x)
		if !math.IsNaN(b.lo[i]) {
			ymin = min(ymin, b.lo[i])
		}
		ymax = max(ymax, b.hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail is a short bar with caps.
func (b *errorBars) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	w := vg.Points(2.5)
	c.StrokeLine2(b.style, x, c.Min.Y, x, c.Max.Y)
	c.StrokeLine2(b.style, x-w, c.Min.Y, x+w, c.Min.Y)
	c.StrokeLine2(b.style, x-w, c.Max.Y, x+w, c.Max.Y)
}

// overflowMarks draws the points above the cut on the plot's top edge.
// The points of one x stand side by side as upward triangles, each in its
// line's colour, in the order of the lines (smaller where neighbouring x
// values leave little room), so that none hides another; where even small
// ones would not stand apart, one grey triangle stands for them all. Above
// them, over
// the plot area where no line or legend is, one label per x: the value,
// in the line's colour, where one line is beyond the cut there, or the
// lowest and highest values, in grey, where several are. Labels take one
// of two rows, and a label that would run into one beside it in both rows
// is left out (the values are in the CSV): marks and labels never
// overlap.
type overflowMarks struct {
	marks []overflow
	style text.Style
	// widthGuess is about how wide the plot area will be, to reserve the
	// label rows the marks will need above it.
	widthGuess vg.Length
}

// Sizes of the overflow marks.
const (
	overflowRadius    = vg.Length(3.5) // a triangle's radius, given room
	overflowMinRadius = vg.Length(1.5) // the smallest it shrinks to
	overflowGap       = vg.Length(1)   // between triangles, and labels
	overflowRows      = 2              // rows of labels at most
)

// overflowGrey draws what stands for several lines beyond the cut.
var overflowGrey = color.Gray{Y: 0x50}

// overflowGlyph is one triangle of an overflow layout, centred at x on the
// top edge: line's point, or (line -1) several lines' points.
type overflowGlyph struct {
	line   int
	x, r   vg.Length
	colour color.Color
}

// overflowLabel is one label of an overflow layout: its text centred at x
// in row row above the edge.
type overflowLabel struct {
	text   string
	x      vg.Length
	row    int
	width  vg.Length
	colour color.Color
}

// layout places the marks given the x transform: the triangles, and the
// labels in at most rows rows.
func (o *overflowMarks) layout(trX func(float64) vg.Length, rows int) ([]overflowGlyph, []overflowLabel) {
	marks := slices.Clone(o.marks)
	slices.SortStableFunc(marks, func(a, b overflow) int {
		if c := cmp.Compare(a.x, b.x); c != 0 {
			return c
		}
		return cmp.Compare(a.line, b.line)
	})
	type group struct {
		x      vg.Length
		lo, hi float64
		lines  []int
	}
	var groups []group
	for _, m := range marks {
		if n := len(groups); n > 0 && groups[n-1].x == trX(m.x) {
			g := &groups[n-1]
			g.lo, g.hi = min(g.lo, m.y), max(g.hi, m.y)
			g.lines = append(g.lines, m.line)
			continue
		}
		groups = append(groups, group{x: trX(m.x), lo: m.y, hi: m.y, lines: []int{m.line}})
	}
	var glyphs []overflowGlyph
	var labels []overflowLabel
	rowEnd := make([]vg.Length, rows)
	for i := range rowEnd {
		rowEnd[i] = vg.Length(math.Inf(-1))
	}
	for i, g := range groups {
		// The triangles of an x take at most 70% of the room to the
		// nearest other x, so that the groups stay apart.
		room := vg.Length(math.Inf(1))
		if i > 0 {
			room = min(room, g.x-groups[i-1].x)
		}
		if i+1 < len(groups) {
			room = min(room, groups[i+1].x-g.x)
		}
		n := vg.Length(len(g.lines))
		text, colour := overflowText(g.lo, g.hi), seriesColor(g.lines[0])
		if len(g.lines) > 1 {
			colour = overflowGrey
		}
		if r := min(overflowRadius, (0.7*room-(n-1)*overflowGap)/(2*n)); r >= overflowMinRadius || n == 1 {
			for k, line := range g.lines {
				x := g.x + (vg.Length(k)-(n-1)/2)*(2*r+overflowGap)
				glyphs = append(glyphs, overflowGlyph{line: line, x: x, r: max(r, overflowMinRadius), colour: seriesColor(line)})
			}
		} else {
			// Too many to stand apart: one grey triangle for them all
			// (the lines leaving the edge show which).
			r := max(overflowMinRadius, min(overflowRadius, 0.35*room))
			glyphs = append(glyphs, overflowGlyph{line: -1, x: g.x, r: r, colour: overflowGrey})
		}
		w := o.style.Width(text)
		for row := range rowEnd {
			if g.x-w/2 < rowEnd[row]+2*overflowGap {
				continue
			}
			rowEnd[row] = g.x + w/2
			labels = append(labels, overflowLabel{text: text, x: g.x, row: row, width: w, colour: colour})
			break
		}
	}
	return glyphs, labels
}

// labelRise is how far above the top edge row row of labels begins.
func (o *overflowMarks) labelRise(row int) vg.Length {
	return overflowRadius + 2*overflowGap + vg.Length(row)*o.style.Height("0")
}

// rowsNeeded is the number of label rows the marks need on a plot area
// about widthGuess wide.
func (o *overflowMarks) rowsNeeded(plt *plot.Plot) int {
	_, labels := o.layout(func(x float64) vg.Length { return vg.Length(plt.X.Norm(x)) * o.widthGuess }, overflowRows)
	rows := 1
	for _, l := range labels {
		rows = max(rows, l.row+1)
	}
	return rows
}

func (o *overflowMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	glyphs, labels := o.layout(trX, o.rowsNeeded(plt))
	for _, g := range glyphs {
		c.DrawGlyphNoClip(draw.GlyphStyle{Color: g.colour, Radius: g.r, Shape: draw.TriangleGlyph{}}, vg.Point{X: g.x, Y: c.Max.Y})
	}
	for _, l := range labels {
		ts := o.style
		ts.Color, ts.XAlign, ts.YAlign = l.colour, draw.XCenter, draw.YBottom
		c.FillText(ts, vg.Point{X: l.x, Y: c.Max.Y + o.labelRise(l.row)}, l.text)
	}
}

// overflowText is the label of the points beyond the cut at one x: their
// value, or their lowest and highest.
func overflowText(lo, hi float64) string {
	if shortValue(lo) == shortValue(hi) {
		return shortValue(lo)
	}
	return shortValue(lo) + "–" + shortValue(hi)
}

// GlyphBoxes are the triangles and the labels above them, so that the plot
// area leaves room for them above and at its ends.
func (o *overflowMarks) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	type group struct {
		lo, hi float64
		n      int
	}
	groups := map[float64]group{}
	for _, m := range o.marks {
		g, ok := groups[m.x]
		if !ok {
			g = group{lo: m.y, hi: m.y}
		}
		g.lo, g.hi, g.n = min(g.lo, m.y), max(g.hi, m.y), g.n+1
		groups[m.x] = g
	}
	top := o.labelRise(o.rowsNeeded(plt)) + overflowGap
	var boxes []plot.GlyphBox
	for _, x := range slices.Sorted(maps.Keys(groups)) {
		g := groups[x]
		w := max(o.style.Width(overflowText(g.lo, g.hi))/2, vg.Length(g.n)*(overflowRadius+overflowGap)) + vg.Points(1)
		boxes = append(boxes, plot.GlyphBox{X: plt.X.Norm(x), Y: 1, Rectangle: vg.Rectangle{Min: vg.Point{X: -w, Y: -overflowRadius}, Max: vg.Point{X: w, Y: top}}})
	}
	return boxes
}

// Thumbnail is the triangle in grey (each line's are in its colour).
func (o *overflowMarks) Thumbnail(c *draw.Canvas) {
	c.DrawGlyph(draw.GlyphStyle{Color: color.Gray{Y: 64}, Radius: overflowRadius, Shape: draw.TriangleGlyph{}}, c.Center())
}

// shortValue writes v to three significant digits without an exponent
// below a million: 12300, 845, 3.14.
func shortValue(v float64) string {
	if math.Abs(v) >= 1e6 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// fitLabel breaks label at the space nearest its middle when it is longer
// than length in style.
func fitLabel(label string, style text.Style, length vg.Length) string {
	if style.Width(label) <= length || strings.Contains(label, "\n") {
		return label
	}
	best := -1
	for i, r := range label {
		if r == ' ' && (best < 0 || abs(i-len(label)/2) < abs(best-len(label)/2)) {
			best = i
		}
	}
	if best < 0 {
		return label
	}
	return label[:best] + "\n" + label[best+1:]
}

func abs(n int) int { return max(n, -n) }

// hline is a horizontal line across the plot area at y.
type hline struct {
	y     float64
	style draw.LineStyle
}

func (h *hline) Plot(c draw.Canvas, plt *plot.Plot) {
	_, trY := plt.Transforms(&c)
	if y := trY(h.y); y >= c.Min.Y && y <= c.Max.Y {
		c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
	}
}

// DataRange includes y and nothing of x.
func (h *hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

// span shades the plot area between x = from and x = to.
type span struct {
	from, to float64
	fill     color.Color
}

func (s *span) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x0, x1 := max(trX(s.from), c.Min.X), min(trX(s.to), c.Max.X)
	if x1 > x0 {
		c.FillPolygon(s.fill, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}})
	}
}

func (s *span) DataRange() (xmin, xmax, ymin, ymax float64) {
	return s.from, s.to, math.Inf(1), math.Inf(-1)
}

func (s *span) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(s.fill, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Min.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Min.X, Y: c.Max.Y}})
}
