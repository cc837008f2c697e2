package figure

import (
	"fmt"
	"image/color"
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
)

// The papers' own figure forms (issue 35): a grid of line panels sharing
// their series and one legend (PaperGrid), range bars (RangeBars) and
// pairs of bars, ours beside the published (PairedBars). Each is drawn at
// the Output's width and font, with a legend below its panels, and writes
// base.csv holding every value it draws, ours and the published ones, in a
// column that says which is which.

// PaperGrid is a figure of line panels, (a), (b), ..., Cols to a row, on
// one x and one y range, each series in the same colour, dash and glyph
// in every panel, with one legend below the panels.
type PaperGrid struct {
	Title, XLabel, YLabel string
	// Cols is the number of panels in a row (0: one row).
	Cols   int
	Panels []PaperPanel
	// Series names the lines, in legend order; a line's Name is one of
	// them.
	Series []string
	// Points marks every point of a line with its series' glyph.
	Points bool
	// XLog draws x on a logarithmic scale (points at x <= 0 left out).
	XLog bool
	// XMin..XMax and YMin..YMax fix the axes' ranges when Max > Min;
	// otherwise they span the data (y from 0 when every value is >= 0).
	XMin, XMax, YMin, YMax float64
	// XInteger and YInteger put ticks on whole numbers only.
	XInteger, YInteger bool
	// XStep, when positive, is the step of the x ticks (8: a fat-tree's
	// leaf switches of 4 nodes in pairs).
	XStep float64
	// RefName is the legend's words for the panels' Refs ("Published
	// (García et al.)").
	RefName string
	// Note is words under the legend, a line each: what the panels'
	// names abbreviate, what could not be drawn.
	Note string
}

// PaperPanel is one panel of a PaperGrid.
type PaperPanel struct {
	Name  string // its title: "(a) uniform"
	Lines []Line
	// HLines and VLines are horizontal and vertical lines across the
	// panel: published values, limits, a baseline.
	HLines, VLines []RefLine
	// Refs are published values, drawn as black crosses.
	Refs []Ref
}

// RefLine is a line across a panel at Value, a broad translucent band in
// the colour of the series Series (black when "" or not a series), labelled Label
// beside it; Legend names it in the legend (lines with the same Legend
// share one entry) and Kind says what it is in the CSV ("published",
// "limit", "no SAT").
type RefLine struct {
	Value         float64
	Series, Label string
	Legend, Kind  string
}

// seriesColor is series i's colour in every figure, black for none (i < 0): Okabe and
// Ito's colours, which tell apart under every common colour-vision
// deficiency and read on white (their yellow and black left out: black
// marks published values), then a grey.
func seriesColor(i int) color.Color {
	if i < 0 {
		return color.Black
	}
	switch i % 7 {
	case 0:
		return color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 255} // blue
	case 1:
		return color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 255} // vermillion
	case 2:
		return color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 255} // bluish green
	case 3:
		return color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 255} // reddish purple
	case 4:
		return color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 255} // orange
	case 5:
		return color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 255} // sky blue
	}
	return color.RGBA{R: 0x66, G: 0x66, B: 0x66, A: 255} // grey
}

// seriesShape is series i's glyph, in every figure: plotutil's without the
// cross, the plus and the filled box, which mark published values
// (refGlyphs()); plotutil.Shape gave a chart's fourth line the cross of a
// published value.
func seriesShape(i int) draw.GlyphDrawer {
	shapes := [...]draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CircleGlyph{}, draw.PyramidGlyph{}}
	return shapes[i%len(shapes)]
}

// refStyle is a reference line's style: a broad, translucent band in
// colour c, unlike every series' thin line and dash, that the data lines
// show through (it reads as a grey band in greyscale).
func refStyle(c color.Color) draw.LineStyle {
	r, g, b, _ := c.RGBA()
	return draw.LineStyle{Color: color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 90}, Width: vg.Points(4)}
}

// Save writes the grid to base.FORMAT for each format, and base.csv.
func (g *PaperGrid) Save(base string, out Output) error {
	out = out.withDefaults()
	if len(g.Panels) == 0 {
		return fmt.Errorf("figure %s: no panels", base)
	}
	cols := g.Cols
	if cols <= 0 || cols > len(g.Panels) {
		cols = len(g.Panels)
	}
	series := map[string]int{}
	for i, s := range g.Series {
		series[s] = i
	}
	styleOf := func(name string) int {
		if i, ok := series[name]; ok {
			return i
		}
		return -1
	}
	for _, pn := range g.Panels {
		for _, l := range pn.Lines {
			if _, ok := series[l.Name]; !ok {
				return fmt.Errorf("figure %s: panel %q: line %q is not one of the series %q", base, pn.Name, l.Name, g.Series)
			}
		}
	}
	xOK := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) && (!g.XLog || x > 0) }
	yOK := func(y float64) bool { return !math.IsNaN(y) && !math.IsInf(y, 0) }

	// One range for every panel: the data's, the reference lines' and
	// the published values'.
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	addX := func(x float64) {
		if xOK(x) {
			xlo, xhi = min(xlo, x), max(xhi, x)
		}
	}
	addY := func(y float64) {
		if yOK(y) {
			ylo, yhi = min(ylo, y), max(yhi, y)
		}
	}
	for _, pn := range g.Panels {
		for _, l := range pn.Lines {
			for _, pt := range l.XY {
				if xOK(pt[0]) && yOK(pt[1]) {
					addX(pt[0])
					addY(pt[1])
				}
			}
		}
		for _, h := range pn.HLines {
			addY(h.Value)
		}
		for _, v := range pn.VLines {
			addX(v.Value)
		}
		for _, r := range pn.Refs {
			if xOK(r.X) && yOK(r.Y) {
				addX(r.X)
				addY(r.Y)
			}
		}
	}
	if math.IsInf(xlo, 0) || math.IsInf(ylo, 0) {
		return fmt.Errorf("figure %s: nothing to draw", base)
	}
	if g.XMax > g.XMin {
		xlo, xhi = g.XMin, g.XMax
	}
	if g.YMax > g.YMin {
		ylo, yhi = g.YMin, g.YMax
	} else {
		if ylo >= 0 {
			ylo = 0
		}
		yhi += (yhi - ylo) * 0.06 // glyphs whole below the top edge
	}
	if xhi == xlo {
		xlo, xhi = xlo-0.5, xhi+0.5
	}
	if yhi == ylo {
		ylo, yhi = ylo-0.5, yhi+0.5
	}

	var plots []*plot.Plot
	for _, pn := range g.Panels {
		p := plot.New()
		p.Title.Text, p.X.Label.Text, p.Y.Label.Text = pn.Name, g.XLabel, g.YLabel
		out.style(p)
		p.Title.Text = pn.Name // a panel's name stays: it says which panel is which
		p.Title.TextStyle.Font.Size = out.FontSize
		p.Add(lightGrid())
		p.X.Tick.Marker = roundTicks{integer: g.XInteger, step: g.XStep}
		if g.XLog {
			p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, logTicks{}
		}
		p.Y.Tick.Marker = roundTicks{integer: g.YInteger}
		for _, l := range pn.Lines {
			var xys plotter.XYs
			for _, pt := range l.XY {
				if xOK(pt[0]) && yOK(pt[1]) {
					xys = append(xys, plotter.XY{X: pt[0], Y: pt[1]})
				}
			}
			if len(xys) == 0 {
				continue
			}
			i := styleOf(l.Name)
			line, err := plotter.NewLine(xys)
			if err != nil {
				return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
			}
			line.Color, line.Dashes, line.Width = seriesColor(i), plotutil.Dashes(i), vg.Points(1.2)
			p.Add(line)
			if g.Points {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
				}
				sc.Color, sc.Shape, sc.Radius = seriesColor(i), seriesShape(i), vg.Points(2.5)
				p.Add(sc)
			}
		}
		p.Add(&refLines{h: pn.HLines, v: pn.VLines, styleOf: styleOf, font: out.smallSize() * 0.9})
		if err := addRefs(p, pn.Refs, xOK, yOK); err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xlo, xhi, ylo, yhi
		plots = append(plots, p)
	}

	leg := &flowLegend{font: out.smallSize()}
	for i, s := range g.Series {
		if !slices.ContainsFunc(g.Panels, func(pn PaperPanel) bool {
			return slices.ContainsFunc(pn.Lines, func(l Line) bool { return l.Name == s })
		}) {
			continue
		}
		line := &plotter.Line{LineStyle: draw.LineStyle{Color: seriesColor(i), Dashes: plotutil.Dashes(i), Width: vg.Points(1.2)}}
		if g.Points {
			leg.add(s, line, &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: seriesColor(i), Shape: seriesShape(i), Radius: vg.Points(2.5)}})
		} else {
			leg.add(s, line)
		}
	}
	// One entry per kind of reference line, in its series' colour when
	// every line of the kind has the same series.
	var legends []string
	colourOf := map[string]int{}
	for _, pn := range g.Panels {
		for _, r := range slices.Concat(pn.HLines, pn.VLines) {
			if r.Legend == "" {
				continue
			}
			i := styleOf(r.Series)
			if c, ok := colourOf[r.Legend]; !ok {
				legends = append(legends, r.Legend)
				colourOf[r.Legend] = i
			} else if c != i {
				colourOf[r.Legend] = -1
			}
		}
	}
	for _, l := range legends {
		leg.add(l, &plotter.Line{LineStyle: refStyle(seriesColor(colourOf[l]))})
	}
	if slices.ContainsFunc(g.Panels, func(pn PaperPanel) bool { return len(pn.Refs) > 0 }) {
		name := g.RefName
		if name == "" {
			name = "Published"
		}
		leg.add(name, refScatter())
	}

	t := &table{header: []string{"panel", "series", "kind", "x", "y", "label"}}
	for _, pn := range g.Panels {
		for _, l := range pn.Lines {
			for _, pt := range l.XY {
				if xOK(pt[0]) && yOK(pt[1]) {
					t.add(pn.Name, l.Name, "icnsim", num(pt[0]), num(pt[1]), "")
				}
			}
		}
		for _, h := range pn.HLines {
			t.add(pn.Name, h.Series, h.Kind, "", num(h.Value), h.Label)
		}
		for _, v := range pn.VLines {
			t.add(pn.Name, v.Series, v.Kind, num(v.Value), "", v.Label)
		}
		for _, r := range pn.Refs {
			t.add(pn.Name, r.Source, "published", num(r.X), num(r.Y), "")
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	leg.note = g.Note
	return renderPanels(base, out, g.Title, cols, plots, leg)
}

// addRefs adds published values to p as black crosses.
func addRefs(p *plot.Plot, refs []Ref, xOK, yOK func(float64) bool) error {
	var xys plotter.XYs
	for _, r := range refs {
		if xOK(r.X) && yOK(r.Y) {
			xys = append(xys, plotter.XY{X: r.X, Y: r.Y})
		}
	}
	if len(xys) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xys)
	if err != nil {
		return err
	}
	sc.GlyphStyle = refScatter().GlyphStyle
	p.Add(edgeGlyphs{sc})
	return nil
}

func refScatter() *plotter.Scatter {
	return &plotter.Scatter{GlyphStyle: draw.GlyphStyle{Color: color.Black, Shape: draw.CrossGlyph{}, Radius: vg.Points(4)}}
}

// refLines draws a panel's horizontal and vertical reference lines with
// their labels, moving a label that would overlap another.
type refLines struct {
	h, v    []RefLine
	styleOf func(string) int
	font    vg.Length
}

func (r *refLines) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	ts := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	ts.Font.Size = r.font
	style := func(rl RefLine) draw.LineStyle { return refStyle(seriesColor(r.styleOf(rl.Series))) }
	pad := vg.Points(2)
	// Labels placed so far, to keep the next off them.
	var placed []vg.Rectangle
	free := func(b vg.Rectangle) bool {
		return !slices.ContainsFunc(placed, func(o vg.Rectangle) bool {
			return b.Min.X < o.Max.X && o.Min.X < b.Max.X && b.Min.Y < o.Max.Y && o.Min.Y < b.Max.Y
		})
	}
	hs := slices.Clone(r.h)
	slices.SortStableFunc(hs, func(a, b RefLine) int { return -cmpFloat(a.Value, b.Value) })
	for _, h := range hs {
		y := trY(h.Value)
		if y < c.Min.Y-0.5 || y > c.Max.Y+0.5 {
			continue
		}
		c.StrokeLine2(style(h), c.Min.X, y, c.Max.X, y)
		if h.Label == "" {
			continue
		}
		w, ht := ts.Width(h.Label), ts.Height(h.Label)
		ts.Color = seriesColor(r.styleOf(h.Series))
		// Right-aligned above the line; else below it; else further left.
		for x := c.Max.X - pad; x-w > c.Min.X; x -= w + 3*pad {
			done := false
			for _, y0 := range []vg.Length{y + pad, y - pad - ht} {
				b := vg.Rectangle{Min: vg.Point{X: x - w, Y: y0}, Max: vg.Point{X: x, Y: y0 + ht}}
				if b.Max.Y <= c.Max.Y && b.Min.Y >= c.Min.Y && free(b) {
					c.FillPolygon(labelGround(), rectPoints(b))
					c.FillText(ts, vg.Point{X: x - w, Y: y0}, h.Label)
					placed = append(placed, grow(b, pad))
					done = true
					break
				}
			}
			if done {
				break
			}
		}
	}
	vs := slices.Clone(r.v)
	slices.SortStableFunc(vs, func(a, b RefLine) int { return cmpFloat(a.Value, b.Value) })
	for _, v := range vs {
		x := trX(v.Value)
		if x < c.Min.X-0.5 || x > c.Max.X+0.5 {
			continue
		}
		c.StrokeLine2(style(v), x, c.Min.Y, x, c.Max.Y)
		if v.Label == "" {
			continue
		}
		w, ht := ts.Width(v.Label), ts.Height(v.Label)
		ts.Color = seriesColor(r.styleOf(v.Series))
		// Right of the line at the bottom (a distribution's empty
		// corner), higher while taken; else left of it; else, where
		// neither fits, at the panel's right edge.
		place := func(x0 vg.Length) bool {
			for y := c.Min.Y + pad; y+ht < c.Max.Y; y += ht + pad {
				b := vg.Rectangle{Min: vg.Point{X: x0, Y: y}, Max: vg.Point{X: x0 + w, Y: y + ht}}
				if b.Min.X >= c.Min.X && b.Max.X <= c.Max.X && free(b) {
					c.FillPolygon(labelGround(), rectPoints(b))
					c.FillText(ts, vg.Point{X: x0, Y: y}, v.Label)
					placed = append(placed, grow(b, pad))
					return true
				}
			}
			return false
		}
		_ = place(x+pad) || place(x-pad-w) || place(c.Max.X-w)
	}
}

// grow is b larger by d on every side.
func grow(b vg.Rectangle, d vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: b.Min.X - d, Y: b.Min.Y - d}, Max: vg.Point{X: b.Max.X + d, Y: b.Max.Y + d}}
}

// labelGround is the background of a reference line's label: white, a
// little transparent, so that the lines it crosses do not cut its text.
func labelGround() color.Color { return color.NRGBA{R: 255, G: 255, B: 255, A: 220} }

func rectPoints(b vg.Rectangle) []vg.Point {
	return []vg.Point{b.Min, {X: b.Max.X, Y: b.Min.Y}, b.Max, {X: b.Min.X, Y: b.Max.Y}}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// flowLegend is a legend laid out in columns across the figure's width,
// below its panels.
type flowLegend struct {
	font    vg.Length
	entries []legendItem
	// note is lines of words under the entries.
	note string
}

type legendItem struct {
	name   string
	thumbs []plot.Thumbnailer
}

func (l *flowLegend) add(name string, thumbs ...plot.Thumbnailer) {
	l.entries = append(l.entries, legendItem{name, thumbs})
}

func (l *flowLegend) style() text.Style {
	ts := text.Style{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler}
	ts.Font.Size = l.font
	return ts
}

// layout is the most columns whose widths (each its widest entry's)
// fit width, filled column by column (so that a kind of entry, added
// together, stays together), each column's width and the row height.
func (l *flowLegend) layout(width vg.Length) (colW []vg.Length, rowH vg.Length, rows int) {
	rowH = l.font * 1.5
	if len(l.entries) == 0 {
		return nil, rowH, 0
	}
	ts := l.style()
	w := func(e legendItem) vg.Length { return l.font*2.4 + l.font*0.6 + ts.Width(e.name) + l.font*1.2 }
	for cols := len(l.entries); cols >= 1; cols-- {
		rows = (len(l.entries) + cols - 1) / cols
		colW = make([]vg.Length, (len(l.entries)+rows-1)/rows)
		var sum vg.Length
		for i, e := range l.entries {
			colW[i/rows] = max(colW[i/rows], w(e))
		}
		for _, c := range colW {
			sum += c
		}
		if sum <= width || cols == 1 {
			break
		}
	}
	return colW, rowH, rows
}

func (l *flowLegend) height(width vg.Length) vg.Length {
	_, rowH, rows := l.layout(width)
	if l.note != "" {
		rows += strings.Count(l.note, "\n") + 1
	}
	if rows == 0 {
		return 0
	}
	return vg.Length(rows)*rowH + l.font*0.8
}

// draw draws the legend, centred, from the top of c down.
func (l *flowLegend) draw(c draw.Canvas) {
	colW, rowH, rows := l.layout(c.Max.X - c.Min.X)
	ts := l.style()
	if l.note != "" {
		nt := ts
		nt.XAlign, nt.YAlign = draw.XCenter, draw.YTop
		for i, line := range strings.Split(l.note, "\n") {
			c.FillText(nt, vg.Point{X: (c.Min.X + c.Max.X) / 2, Y: c.Max.Y - vg.Length(rows+i)*rowH - l.font*0.3}, line)
		}
	}
	if len(colW) == 0 {
		return
	}
	ts.YAlign = draw.YCenter
	thumb := l.font * 2.4
	var total vg.Length
	for _, w := range colW {
		total += w
	}
	left := c.Min.X + max(0, c.Max.X-c.Min.X-total)/2
	for i, e := range l.entries {
		x := left
		for k := range i / rows {
			x += colW[k]
		}
		y := c.Max.Y - vg.Length(i%rows)*rowH - rowH/2
		tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: x, Y: y - rowH*0.35}, Max: vg.Point{X: x + thumb, Y: y + rowH*0.35}}}
		for _, t := range e.thumbs {
			t.Thumbnail(&tc)
		}
		c.FillText(ts, vg.Point{X: x + thumb + l.font*0.6, Y: y}, e.name)
	}
}

// panelHeight is the height of a row of panels: the figure's height for
// one row; for more, enough to read each panel at a paper's size.
func panelHeight(out Output, rows int) vg.Length {
	if rows <= 1 {
		return out.Height
	}
	return max(out.Height*0.55, 1.8*vg.Inch)
}

// renderPanels draws the title, the panels (cols to a row, aligned on
// their data areas) and the legend below them: one panel at the size
// asked for, several growing with the rows and the legend.
func renderPanels(base string, out Output, title string, cols int, plots []*plot.Plot, leg *flowLegend) error {
	rows := (len(plots) + cols - 1) / cols
	ts := text.Style{Color: color.Black, Font: plot.DefaultFont, XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	ts.Font.Size = out.titleSize()
	titleH := vg.Length(0)
	if !out.NoTitle && title != "" {
		title = wrapText(ts, title, out.Width-vg.Points(16))
		titleH = ts.Height(title) + vg.Points(8)
	}
	margin := vg.Points(6)
	legH := leg.height(out.Width - 2*margin)
	h := titleH + vg.Length(rows)*panelHeight(out, rows) + legH
	if rows == 1 {
		// One panel: the figure keeps the size asked for, the legend and
		// title taking their height from the plot, the legend's font
		// shrinking where it would take more than maxLegendShare of it.
		if most := vg.Length(maxLegendShare) * out.Height; legH > most && leg != nil {
			leg.font = max(leg.font*most/legH, vg.Points(5))
			legH = leg.height(out.Width - 2*margin)
		}
		h = out.Height
	}
	// One x and one y label for a grid, centred on it: a long label on
	// each panel would shrink the panels that carry it, and the data
	// areas would no longer align.
	xl, yl := plots[0].X.Label, plots[0].Y.Label
	if len(plots) > 1 {
		for _, p := range plots {
			p.X.Label.Text, p.Y.Label.Text = "", ""
		}
	}
	return render(base, out, out.Width, h, func(dc draw.Canvas) {
		if titleH > 0 {
			dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(3)}, title)
		}
		body := draw.Crop(dc, 0, 0, legH, -titleH)
		grid := make([][]*plot.Plot, rows)
		for r := range grid {
			grid[r] = make([]*plot.Plot, cols)
			for c := range cols {
				if i := r*cols + c; i < len(plots) {
					grid[r][c] = plots[i]
				}
			}
		}
		if len(plots) > 1 {
			lh := out.FontSize * 1.6
			if yl.Text != "" {
				st := yl.TextStyle
				st.Rotation, st.XAlign, st.YAlign = math.Pi/2, draw.XCenter, draw.YTop
				dc.FillText(st, vg.Point{X: body.Min.X + vg.Points(2), Y: (body.Min.Y + body.Max.Y + lh) / 2}, yl.Text)
				body = draw.Crop(body, lh, 0, 0, 0)
			}
			if xl.Text != "" {
				st := xl.TextStyle
				st.XAlign, st.YAlign = draw.XCenter, draw.YBottom
				dc.FillText(st, vg.Point{X: (body.Min.X + body.Max.X) / 2, Y: body.Min.Y + vg.Points(2)}, xl.Text)
				body = draw.Crop(body, 0, 0, lh, 0)
			}
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(10), PadY: vg.Points(8), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(8)}
		canvases := plot.Align(grid, tiles, body)
		for r := range grid {
			for c, p := range grid[r] {
				if p != nil {
					cv := canvases[r][c]
					fitTicks(&p.X, cv.Max.X-cv.Min.X-yAxisRoom(out)/2)
					p.Draw(cv)
				}
			}
		}
		leg.draw(draw.Crop(dc, margin, -margin, 0, -(dc.Max.Y - dc.Min.Y - legH)))
	})
}

// roundTicks are UnitTicks (4 to 8 major ticks at 1, 2 or 5 x 10^n, on
// whole numbers when integer), or with step > 0 major ticks at every
// multiple of step (node ids by leaf switch of 8).
type roundTicks struct {
	integer bool
	step    float64 // > 0: this step instead
	max     int     // > 0: at most this many major ticks (UnitTicks.Max)
}

func (t roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if t.step <= 0 || !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return UnitTicks{Integer: t.integer, Max: t.max}.Ticks(lo, hi)
	}
	var ts []plot.Tick
	eps := t.step * 1e-9
	for k := math.Ceil((lo - eps) / t.step); k*t.step <= hi+eps; k++ {
		v := k * t.step
		if v == 0 {
			v = 0 // not -0, which would print "-0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	return ts
}

// logTicks are LogTicks.
type logTicks = LogTicks

// thousands writes v with commas between thousands ("10,000"), with no
// decimals at 1 and above.
func thousands(v float64) string {
	if math.Abs(v) < 1 {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	s := strconv.FormatFloat(math.Round(math.Abs(v)), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Thousands writes a whole number with commas between thousands
// ("3,400"): labels of published values.
func Thousands(v float64) string { return thousands(v) }
