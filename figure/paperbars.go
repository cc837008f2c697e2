package figure

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// RangeBars draws, for each group on x (a traffic pattern), one bar per
// series from its minimum to its maximum with a glyph at its average:
// the spread of a per-node quantity. Published values are black crosses
// on their bars.
type RangeBars struct {
	Title, XLabel, YLabel string
	Groups                []string
	Series                []string
	// Min, Mean and Max are indexed [series][group]; NaN: no bar.
	Min, Mean, Max [][]float64
	Refs           []BarRef
	// YMin..YMax fixes the y range when YMax > YMin (else 0 to the data).
	YMin, YMax float64
	// RefName is the legend's words for the crosses.
	RefName string
}

// BarRef is a published value on bar (Group, Series): Stat says which of
// the bar's values it is ("minimum", "average", "maximum").
type BarRef struct {
	Group, Series int
	Stat          string
	Value         float64
	Source        string
}

// barX is the centre of bar s of n in group g, and the bars' width.
func barX(g, s, n int) (x, w float64) {
	w = 0.8 / float64(n)
	return float64(g) + (float64(s)-float64(n-1)/2)*w, w
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkGrid: m is len(series) rows of len(groups) values.
func checkGrid(base, what string, m [][]float64, series, groups int) error {
	if len(m) != series {
		return fmt.Errorf("figure %s: %s has %d rows, want one per series (%d)", base, what, len(m), series)
	}
	for i, row := range m {
		if len(row) != groups {
			return fmt.Errorf("figure %s: %s row %d has %d values, want one per group (%d)", base, what, i, len(row), groups)
		}
	}
	return nil
}

// Save writes the bars to base.FORMAT for each format, and base.csv.
func (b *RangeBars) Save(base string, out Output) error {
	out = out.withDefaults()
	ns, ng := len(b.Series), len(b.Groups)
	if ns == 0 || ng == 0 {
		return fmt.Errorf("figure %s: %d series, %d groups: need at least one of each", base, ns, ng)
	}
	for _, m := range []struct {
		what string
		v    [][]float64
	}{{"Min", b.Min}, {"Mean", b.Mean}, {"Max", b.Max}} {
		if err := checkGrid(base, m.what, m.v, ns, ng); err != nil {
			return err
		}
	}
	for _, r := range b.Refs {
		if r.Group < 0 || r.Group >= ng || r.Series < 0 || r.Series >= ns {
			return fmt.Errorf("figure %s: published value %g at group %d, series %d: out of %d groups, %d series", base, r.Value, r.Group, r.Series, ng, ns)
		}
	}
	p := barPlot(b.XLabel, b.YLabel, b.Groups, out)
	hi := math.Inf(-1)
	some := false
	for s := range b.Series {
		p.Add(&rangeBars{s: s, n: ns, lo: b.Min[s], mean: b.Mean[s], hi: b.Max[s]})
		for g := range b.Groups {
			for _, v := range []float64{b.Min[s][g], b.Mean[s][g], b.Max[s][g]} {
				if finite(v) {
					hi, some = max(hi, v), true
				}
			}
		}
	}
	if !some {
		return fmt.Errorf("figure %s: no bar has a value", base)
	}
	var refs plotter.XYs
	for _, r := range b.Refs {
		if finite(r.Value) {
			x, _ := barX(r.Group, r.Series, ns)
			refs = append(refs, plotter.XY{X: x, Y: r.Value})
			hi = max(hi, r.Value)
		}
	}
	if len(refs) > 0 {
		sc, err := plotter.NewScatter(refs)
		if err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		sc.GlyphStyle = refScatter().GlyphStyle
		p.Add(edgeGlyphs{sc})
	}
	p.X.Min, p.X.Max = -0.5, float64(ng)-0.5
	p.Y.Min, p.Y.Max = 0, hi*1.06
	if b.YMax > b.YMin {
		p.Y.Min, p.Y.Max = b.YMin, b.YMax
	}
	leg := &flowLegend{font: out.smallSize()}
	for s, name := range b.Series {
		leg.add(name, &rangeBars{s: s, n: 1})
	}
	leg.add("minimum to maximum (bar), average (glyph)")
	if len(refs) > 0 {
		name := b.RefName
		if name == "" {
			name = "Published"
		}
		leg.add(name, refScatter())
	}
	t := &table{header: []string{"group", "series", "kind", "value", "source"}}
	for g, gname := range b.Groups {
		for s, sname := range b.Series {
			for _, v := range []struct {
				kind string
				v    float64
			}{{"minimum", b.Min[s][g]}, {"average", b.Mean[s][g]}, {"maximum", b.Max[s][g]}} {
				if finite(v.v) {
					t.add(gname, sname, v.kind, num(v.v), "icnsim")
				}
			}
			for _, r := range b.Refs {
				if r.Group == g && r.Series == s && finite(r.Value) {
					t.add(gname, sname, "published "+r.Stat, num(r.Value), r.Source)
				}
			}
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	return renderPanels(base, out, b.Title, 1, []*plot.Plot{p}, leg)
}

// groupTicks labels each group at its centre; where the widest label
// would run into its neighbour on a figure width wide, labels break after
// their first hyphen ("bit-" over "complement").
func groupTicks(groups []string, st text.Style, width vg.Length) plot.ConstantTicks {
	slot := (width - vg.Inch) / vg.Length(len(groups)) // less the y axis
	wide := false
	for _, g := range groups {
		wide = wide || st.Width(g) > slot*0.92
	}
	var ticks []plot.Tick
	for i, g := range groups {
		if wide && st.Width(g) > slot*0.92 {
			g = strings.Replace(g, "-", "-\n", 1)
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: g})
	}
	return ticks
}

// rangeBars draws series s's bars (of n per group); as a thumbnail, one
// bar with its glyph.
type rangeBars struct {
	s, n         int
	lo, mean, hi []float64
}

func (r *rangeBars) style() (fill color.Color, edge draw.LineStyle, glyph draw.GlyphStyle) {
	c := seriesColor(r.s)
	return tint(c, 0.35), draw.LineStyle{Color: c, Width: vg.Points(1)}, draw.GlyphStyle{Color: c, Shape: filledShape(r.s), Radius: vg.Points(3)}
}

func (r *rangeBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	fill, edge, glyph := r.style()
	for g := range r.lo {
		x, w := barX(g, r.s, r.n)
		lo, hi := r.lo[g], r.hi[g]
		if finite(lo) && finite(hi) {
			x0, x1 := trX(x-w*0.35), trX(x+w*0.35)
			y0, y1 := trY(lo), trY(hi)
			if y1-y0 < vg.Points(1) { // a flat bar stays visible
				y0, y1 = y0-vg.Points(0.5), y1+vg.Points(0.5)
			}
			box := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}, {X: x0, Y: y0}}
			c.FillPolygon(fill, box)
			c.StrokeLines(edge, box)
		}
		if m := r.mean[g]; finite(m) {
			c.DrawGlyph(glyph, vg.Point{X: trX(x), Y: trY(m)})
		}
	}
}

func (r *rangeBars) Thumbnail(c *draw.Canvas) {
	fill, edge, glyph := r.style()
	mid := (c.Min.X + c.Max.X) / 2
	w := (c.Max.X - c.Min.X) * 0.18
	box := []vg.Point{{X: mid - w, Y: c.Min.Y}, {X: mid + w, Y: c.Min.Y}, {X: mid + w, Y: c.Max.Y}, {X: mid - w, Y: c.Max.Y}, {X: mid - w, Y: c.Min.Y}}
	c.FillPolygon(fill, box)
	c.StrokeLines(edge, box)
	c.DrawGlyph(glyph, c.Center())
}

// filledShape is series s's glyph, filled where plotutil's is an outline
// (the ring, the square and the triangle become a circle, a box and a
// pyramid), so that it reads on a tinted bar.
func filledShape(s int) draw.GlyphDrawer {
	shapes := []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
	return shapes[s%len(shapes)]
}

// tint is c mixed with white, share of c left.
func tint(c color.Color, share float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 { return uint8(float64(v>>8)*share + 255*(1-share)) }
	return color.RGBA{R: mix(r), G: mix(g), B: mix(b), A: 255}
}

// PairedBars sets ours beside the published values as pairs of bars: for
// each group on x (a row of the paper's table) and each series (a column),
// our bar, solid, with its interval as an error bar, and the published bar
// beside it, a tint of the same colour with a black edge.
type PairedBars struct {
	Title, XLabel, YLabel string
	Groups, Series        []string
	// Ours, Lo, Hi and Published are indexed [series][group]; NaN: none.
	// Lo and Hi (may be nil) bound our interval.
	Ours, Lo, Hi, Published [][]float64
	// IntervalName says what the interval is ("± 1 standard deviation of
	// 100 replicates"); Source names the published values.
	IntervalName, Source string
}

// Save writes the bars to base.FORMAT for each format, and base.csv.
func (b *PairedBars) Save(base string, out Output) error {
	out = out.withDefaults()
	ns, ng := len(b.Series), len(b.Groups)
	if ns == 0 || ng == 0 {
		return fmt.Errorf("figure %s: %d series, %d groups: need at least one of each", base, ns, ng)
	}
	if err := checkGrid(base, "Ours", b.Ours, ns, ng); err != nil {
		return err
	}
	if err := checkGrid(base, "Published", b.Published, ns, ng); err != nil {
		return err
	}
	if (b.Lo == nil) != (b.Hi == nil) {
		return fmt.Errorf("figure %s: an interval needs both Lo and Hi", base)
	}
	if b.Lo != nil {
		if err := checkGrid(base, "Lo", b.Lo, ns, ng); err != nil {
			return err
		}
		if err := checkGrid(base, "Hi", b.Hi, ns, ng); err != nil {
			return err
		}
	}
	p := barPlot(b.XLabel, b.YLabel, b.Groups, out)
	hi := math.Inf(-1)
	for s := range b.Series {
		pb := &pairBars{s: s, n: ns, ours: b.Ours[s], pub: b.Published[s]}
		if b.Lo != nil {
			pb.lo, pb.hi = b.Lo[s], b.Hi[s]
		}
		p.Add(pb)
		for g := range b.Groups {
			for _, v := range []float64{b.Ours[s][g], b.Published[s][g], pb.at(pb.hi, g)} {
				if finite(v) {
					hi = max(hi, v)
				}
			}
		}
	}
	if math.IsInf(hi, 0) {
		return fmt.Errorf("figure %s: no bar has a value", base)
	}
	p.X.Min, p.X.Max = -0.5, float64(ng)-0.5
	p.Y.Min, p.Y.Max = 0, hi*1.06
	leg := &flowLegend{font: out.smallSize()}
	for s, name := range b.Series {
		leg.add("icnsim, "+name, &pairBars{s: s, n: 1, thumb: 1})
		leg.add(b.Source+", "+name, &pairBars{s: s, n: 1, thumb: 2})
	}
	if b.Lo != nil && b.IntervalName != "" {
		leg.add("icnsim "+b.IntervalName, &errThumb{})
	}
	t := &table{header: []string{"group", "series", "kind", "value", "low", "high", "source"}}
	for g, gname := range b.Groups {
		for s, sname := range b.Series {
			if v := b.Ours[s][g]; finite(v) {
				lo, hi := math.NaN(), math.NaN()
				if b.Lo != nil {
					lo, hi = b.Lo[s][g], b.Hi[s][g]
				}
				t.add(gname, sname, "icnsim", num(v), num(lo), num(hi), "icnsim")
			}
			if v := b.Published[s][g]; finite(v) {
				t.add(gname, sname, "published", num(v), "", "", b.Source)
			}
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	return renderPanels(base, out, b.Title, 1, []*plot.Plot{p}, leg)
}

// pairBars draws series s's pairs of bars (of n pairs per group); as a
// thumbnail (thumb 1: ours, 2: published) one bar.
type pairBars struct {
	s, n              int
	ours, pub, lo, hi []float64
	thumb             int
}

func (b *pairBars) at(v []float64, g int) float64 {
	if g < len(v) {
		return v[g]
	}
	return math.NaN()
}

func (b *pairBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	col := seriesColor(b.s)
	edge := draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}
	bar := func(x0, x1, v float64, fill color.Color, outline bool) {
		if !finite(v) {
			return
		}
		y0, y1 := trY(max(plt.Y.Min, 0)), trY(v)
		box := []vg.Point{{X: trX(x0), Y: y0}, {X: trX(x1), Y: y0}, {X: trX(x1), Y: y1}, {X: trX(x0), Y: y1}, {X: trX(x0), Y: y0}}
		c.FillPolygon(fill, box)
		if outline {
			c.StrokeLines(edge, box)
		}
	}
	for g := range b.ours {
		x, w := barX(g, b.s, b.n)
		// Ours on the left half of the slot, the published on the right.
		bar(x-w*0.45, x, b.ours[g], col, false)
		bar(x, x+w*0.45, b.pub[g], tint(col, 0.3), true)
		if lo, hi := b.at(b.lo, g), b.at(b.hi, g); finite(lo) && finite(hi) {
			xm := trX(x - w*0.225)
			capW := (trX(x) - trX(x-w*0.45)) * 0.3
			st := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
			c.StrokeLine2(st, xm, trY(lo), xm, trY(hi))
			c.StrokeLine2(st, xm-capW, trY(lo), xm+capW, trY(lo))
			c.StrokeLine2(st, xm-capW, trY(hi), xm+capW, trY(hi))
		}
	}
}

func (b *pairBars) Thumbnail(c *draw.Canvas) {
	col := seriesColor(b.s)
	w := (c.Max.X - c.Min.X) * 0.25
	mid := (c.Min.X + c.Max.X) / 2
	box := []vg.Point{{X: mid - w, Y: c.Min.Y}, {X: mid + w, Y: c.Min.Y}, {X: mid + w, Y: c.Max.Y}, {X: mid - w, Y: c.Max.Y}, {X: mid - w, Y: c.Min.Y}}
	if b.thumb == 2 {
		c.FillPolygon(tint(col, 0.3), box)
		c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.6)}, box)
		return
	}
	c.FillPolygon(col, box)
}

// errThumb is an error bar's thumbnail.
type errThumb struct{}

func (errThumb) Thumbnail(c *draw.Canvas) {
	st := draw.LineStyle{Color: color.Black, Width: vg.Points(0.8)}
	mid := (c.Min.X + c.Max.X) / 2
	capW := (c.Max.X - c.Min.X) * 0.15
	c.StrokeLine2(st, mid, c.Min.Y, mid, c.Max.Y)
	c.StrokeLine2(st, mid-capW, c.Min.Y, mid+capW, c.Min.Y)
	c.StrokeLine2(st, mid-capW, c.Max.Y, mid+capW, c.Max.Y)
}

// barPlot is the plot of a bar chart over groups: its labels, fonts, grid
// and ticks (the title goes over the figure: renderPanels).
func barPlot(xLabel, yLabel string, groups []string, out Output) *plot.Plot {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	out.style(p)
	p.Add(lightGrid())
	p.Y.Tick.Marker = roundTicks{}
	p.X.Tick.Marker = groupTicks(groups, p.X.Tick.Label, out.Width)
	return p
}
