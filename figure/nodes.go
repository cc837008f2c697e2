// Figures of one panel per point (NodeMap, LeafBars) are tiled as square a
// grid of panels as fits. A NodeMap's cells are square (a k x k grid is
// drawn square) and its colour scale is shown as a vertical bar of vector
// bands with its ticks and label to the right, inside the figure. Its
// panels share one colour scale while their values are alike; when a
// panel's values span less than a third of the range of all the panels
// (spanRatio: a sweep from a low to a high load, where one shared scale
// drew the low-load panels all black), each panel gets its own scale and
// a small bar of its own, and the label at the right says "each panel's
// own scale" (up to nine panels: in four columns a bar each leaves the
// cells too small; ScaleMode overrides the choice). Panel titles are
// wrapped to their column, never running into a neighbour's.
package figure

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panel is one point's per-node values in a figure of several panels.
type Panel struct {
	Name string
	// Z[y][x] for a NodeMap (NaN: no node there); Z[0] for LeafBars.
	Z [][]float64
}

// ScaleMode says how a NodeMap colours its panels.
type ScaleMode string

const (
	// ScaleAuto (or ""): one scale for all panels unless a panel's values
	// span less than 1/spanRatio of the range of all of them; then each
	// panel its own.
	ScaleAuto ScaleMode = "auto"
	// ScaleShared: one scale for all panels, one colour bar.
	ScaleShared ScaleMode = "shared"
	// ScalePanel: each panel on its own scale, with a colour bar of its own.
	ScalePanel ScaleMode = "panel"
)

// ScaleModes are the allowed ScaleMode values ("" is ScaleAuto).
func ScaleModes() []ScaleMode { return []ScaleMode{ScaleAuto, ScaleShared, ScalePanel} }

// spanRatio: under ScaleAuto, a panel whose values span less than
// 1/spanRatio of all the panels' range would take less than that share of
// the colours on a shared scale (at a low load, one colour), so each panel
// gets its own scale.
const spanRatio = 3

// maxOwnBars is the most panels ScaleAuto gives bars of their own: in four
// columns a bar beside each panel leaves its cells too small to read.
const maxOwnBars = 9

// NodeMap is a per-node metric over the (x, y) grid of a mesh or torus, one
// heatmap panel per point, with square cells, on one colour scale or on
// one per panel (Scale; see the package doc), shown as colour bars
// labelled Label. The colour map (Kindlmann's) grows monotonically in
// luminance, so that it reads in greyscale.
type NodeMap struct {
	Title, Label string
	Panels       []Panel
	Scale        ScaleMode
}

// LeafBars is a per-node metric of a fat-tree as bars by node id, grouped by
// leaf switch (Group nodes each, alternate groups in alternate shades, a
// gap between groups), one panel per point on one y scale.
type LeafBars struct {
	Title, YLabel string
	Group         int
	Panels        []Panel
}

// valueRange is the lowest and highest finite value of the panels.
func valueRange(panels []Panel) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range panels {
		for _, row := range p.Z {
			for _, z := range row {
				if !math.IsNaN(z) && !math.IsInf(z, 0) {
					lo, hi = min(lo, z), max(hi, z)
				}
			}
		}
	}
	return lo, hi
}

// perPanel reports whether the panels are drawn each on its own scale.
func (m *NodeMap) perPanel() (bool, error) {
	switch m.Scale {
	case ScaleShared:
		return false, nil
	case ScalePanel:
		return len(m.Panels) > 1, nil
	case ScaleAuto, "":
	default:
		return false, fmt.Errorf("scale %q: allowed %v", m.Scale, ScaleModes())
	}
	if len(m.Panels) < 2 || len(m.Panels) > maxOwnBars {
		return false, nil
	}
	lo, hi := valueRange(m.Panels)
	for _, p := range m.Panels {
		plo, phi := valueRange([]Panel{p})
		if !math.IsInf(plo, 0) && (phi-plo)*spanRatio < hi-lo {
			return true, nil
		}
	}
	return false, nil
}

// Save writes the node map to base.FORMAT for each format.
func (m *NodeMap) Save(base string, out Output) error {
	out = out.withDefaults()
	fig, err := m.tiled(out)
	if err != nil {
		return fmt.Errorf("figure %s: %w", base, err)
	}
	t := &table{header: []string{"panel", "x", "y", "value"}}
	for _, pn := range m.Panels {
		for y, row := range pn.Z {
			for x, z := range row {
				if !math.IsNaN(z) {
					t.add(pn.Name, fmt.Sprint(x), fmt.Sprint(y), num(z))
				}
			}
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	return fig.save(base, out)
}

// tiled is the node map's figure: a heatmap per panel on its scale.
func (m *NodeMap) tiled(out Output) (*tiled, error) {
	shared, ok := newColourScale(m.Panels)
	if !ok {
		return nil, errors.New("node map has no values")
	}
	own, err := m.perPanel()
	if err != nil {
		return nil, err
	}
	fig := &tiled{title: m.Title}
	for _, pn := range m.Panels {
		if len(pn.Z) == 0 || len(pn.Z[0]) == 0 {
			return nil, fmt.Errorf("panel %q is empty", pn.Name)
		}
		s, t := shared, tile{cols: len(pn.Z[0]), rows: len(pn.Z)}
		if own {
			// A panel without a value is all grey, and needs no bar.
			if ps, ok := newColourScale([]Panel{pn}); ok {
				s, t.bar = ps, ps.bar("", out)
			}
		}
		p := plot.New()
		p.Title.Text = pn.Name
		p.Add(s.heatMap(pn.Z))
		p.X.Label.Text, p.Y.Label.Text = "x", "y"
		p.X.Padding, p.Y.Padding = 0, 0
		t.p = p
		fig.tiles = append(fig.tiles, t)
	}
	switch {
	case own:
		fig.sideLabel = m.Label + ", each panel's own scale"
	case len(m.Panels) > 1:
		fig.side = shared.bar(m.Label+", one scale for all panels", out)
	default:
		fig.side = shared.bar(m.Label, out)
	}
	return fig, nil
}

// colourScale is one colour scale shared by heatmap panels: Kindlmann's
// map (monotone in luminance, so that it reads in greyscale) over the
// panels' finite values.
type colourScale struct {
	lo, hi float64
	cmap   palette.ColorMap
}

// newColourScale spans the panels' values (a flat grid gets a unit range
// to colour); false when there is no finite value.
func newColourScale(panels []Panel) (colourScale, bool) {
	lo, hi := valueRange(panels)
	if math.IsInf(lo, 0) {
		return colourScale{}, false
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	// lo..hi take the part of Kindlmann's map between mapLowEnd and
	// mapHighEnd of its lightness.
	cmap := moreland.Kindlmann()
	span := (hi - lo) / (mapHighEnd - mapLowEnd)
	cmap.SetMin(lo - mapLowEnd*span)
	cmap.SetMax(lo + (1-mapLowEnd)*span)
	return colourScale{lo: lo, hi: hi, cmap: cmap}, true
}

// The colour scale uses Kindlmann's map (lightness rising from black to
// white through saturated hues) from mapLowEnd to mapHighEnd only: its
// white end read as the page, or as a cell without data, so a node at the
// top of the scale looked missing. Cells without data are noDataColour, a
// grey no saturated hue of the map takes.
const (
	mapLowEnd  = 0.05
	mapHighEnd = 0.85
)

// noDataColour fills a cell that has no value (a node that received no
// packet, or that sends nothing).
func noDataColour() color.Color { return color.Gray{Y: 0xc8} }

// colours is a palette of fixed colours.
type colours []color.Color

func (c colours) Colors() []color.Color { return c }

// heatMap draws z (Z[y][x]) on the scale, NaN cells in noDataColour.
func (s colourScale) heatMap(z [][]float64) *plotter.HeatMap {
	pal := make(colours, 64)
	for i := range pal {
		c, err := s.cmap.At(s.lo + (float64(i)+0.5)/float64(len(pal))*(s.hi-s.lo))
		if err != nil {
			c = noDataColour()
		}
		pal[i] = c
	}
	hm := plotter.NewHeatMap(grid{z}, pal)
	hm.Min, hm.Max = s.lo, s.hi
	hm.NaN = noDataColour()
	return hm
}

// share is where v lies on the scale, 0 (lowest) to 1.
func (s colourScale) share(v float64) float64 { return (v - s.lo) / (s.hi - s.lo) }

// scaleBar draws a colour scale as a vertical bar of filled bands, its
// ticks and their labels to the right of it and its label (if any)
// rotated to the right of them: vector shapes in every format, all inside
// the width it reports. gonum's plotter.ColorBar draws an image one pixel
// wide, which an SVG viewer scales with its aspect ratio kept, so every
// colour bar of an SVG (and of the HTML report) was a hairline; and its
// axis sat on the left, the bar against the figure's edge.
type scaleBar struct {
	s     colourScale
	label string
	// barWidth is the coloured bar's; ticks, the tick labels' style; lab,
	// the label's.
	barWidth   vg.Length
	ticks, lab text.Style
}

// bands is how many bands of colour a bar is drawn with.
const bands = 128

// Lengths of a scale bar's ticks and of the gaps beside its labels.
var (
	majorTick = vg.Points(4)
	minorTick = vg.Points(2)
	labelGap  = vg.Points(3)
)

// bar is the scale as a colour bar labelled label ("": no label).
func (s colourScale) bar(label string, out Output) *scaleBar {
	b := &scaleBar{s: s, label: label, barWidth: vg.Points(12), ticks: textStyle(out.smallSize() * 0.9), lab: textStyle(out.FontSize)}
	if label == "" {
		b.barWidth = vg.Points(8) // a panel's own, beside it
	}
	b.ticks.XAlign, b.ticks.YAlign = draw.XLeft, draw.YCenter
	return b
}

// textStyle is black text of the default font at size.
func textStyle(size vg.Length) text.Style {
	f := plot.DefaultFont
	f.Size = size
	return text.Style{Color: color.Black, Font: f, Handler: plot.DefaultTextHandler}
}

// marks are the scale's ticks within its range, at most most of them
// (0: UnitTicks' own).
func (b *scaleBar) marks(most int) []plot.Tick {
	var ts []plot.Tick
	for _, t := range (UnitTicks{Max: most}).Ticks(b.s.lo, b.s.hi) {
		if t.Value >= b.s.lo && t.Value <= b.s.hi {
			ts = append(ts, t)
		}
	}
	return ts
}

// barAndTicks is the width of the bar with its ticks and their labels.
func (b *scaleBar) barAndTicks() vg.Length {
	w := vg.Length(0)
	for _, t := range b.marks(0) {
		w = max(w, b.ticks.Width(t.Label))
	}
	return b.barWidth + majorTick + labelGap + w
}

// draw draws the bar at x, from y0 up to y1, its ticks and label (as
// wrapped, or "") to the right.
func (b *scaleBar) draw(c draw.Canvas, x, y0, y1 vg.Length, label string) {
	y := func(v float64) vg.Length { return y0 + vg.Length(b.s.share(v))*(y1-y0) }
	// Each band from its lower edge to the top of the bar, so that the
	// next covers all of it but its own strip: no seam of background or
	// of anti-aliased edges shows between two bands.
	step := (b.s.hi - b.s.lo) / bands
	for i := range bands {
		v := b.s.lo + float64(i)*step
		col, err := b.s.cmap.At(v + step/2)
		if err != nil {
			continue
		}
		c.FillPolygon(col, []vg.Point{{X: x, Y: y(v)}, {X: x + b.barWidth, Y: y(v)}, {X: x + b.barWidth, Y: y1}, {X: x, Y: y1}})
	}
	ls := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	right := x + b.barWidth
	last := vg.Length(math.Inf(-1)) // the last label's height
	for _, t := range b.marks(int((y1 - y0) / (b.ticks.Height("0") * 1.8))) {
		l := minorTick
		if !t.IsMinor() {
			l = majorTick
			// A label too near the last one (a short bar) is left out.
			if y(t.Value)-last >= b.ticks.Font.Size*1.25 {
				c.FillText(b.ticks, vg.Point{X: right + majorTick + labelGap, Y: y(t.Value)}, t.Label)
				last = y(t.Value)
			}
		}
		c.StrokeLine2(ls, right, y(t.Value), right+l, y(t.Value))
	}
	if label != "" {
		drawSideLabel(c, b.lab, label, x+b.barAndTicks()+labelGap, y0, y1)
	}
}

// drawSideLabel writes label rotated to read upwards, centred on the
// height y0..y1, its left edge at x.
func drawSideLabel(c draw.Canvas, sty text.Style, label string, x, y0, y1 vg.Length) {
	sty.Rotation, sty.XAlign, sty.YAlign = math.Pi/2, draw.XCenter, draw.YTop
	c.FillText(sty, vg.Point{X: x, Y: (y0 + y1) / 2}, label)
}

// wrapText breaks each line of s at spaces so that no line is wider than
// width; a word wider than width alone is broken too (breakWord).
func wrapText(sty text.Style, s string, width vg.Length) string {
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		cur := ""
		for _, w := range strings.Fields(line) {
			if cur != "" && sty.Width(cur+" "+w) <= width {
				cur += " " + w
				continue
			}
			if cur != "" {
				lines = append(lines, cur)
			}
			parts := breakWord(sty, w, width)
			lines = append(lines, parts[:len(parts)-1]...)
			cur = parts[len(parts)-1]
		}
		lines = append(lines, cur)
	}
	return strings.Join(lines, "\n")
}

// breakWord splits w into parts no wider than width (a part is one
// character at least), each ending after a '=', '_', ',', '-' or '/' in
// its second half if it has one: "load_flits_per_node_cycle=0.3" in a
// narrow column is "load_flits_per_" / "node_cycle=0.3".
func breakWord(sty text.Style, w string, width vg.Length) []string {
	var parts []string
	r := []rune(w)
	for len(r) > 0 {
		n := len(r)
		if sty.Width(string(r)) > width {
			fit := 1
			for fit < len(r) && sty.Width(string(r[:fit+1])) <= width {
				fit++
			}
			n = fit
			for j := fit; j > fit/2; j-- {
				if strings.ContainsRune("=_,-/", r[j-1]) {
					n = j
					break
				}
			}
		}
		parts = append(parts, string(r[:n]))
		r = r[n:]
	}
	return parts
}

// gridTicks marks coordinates 0..n-1 and, with labels, labels them at a
// step (1, 2, 4, ...) that leaves at most about eight labels, each at least
// need apart on cells cell long: neighbouring labels never touch.
func gridTicks(n int, cell, need vg.Length, labels bool) plot.ConstantTicks {
	step := 1
	for n/step > 8 || vg.Length(step)*cell < need && step < n {
		step *= 2
	}
	var ts []plot.Tick
	for i := 0; i < n; i++ {
		l := ""
		if labels && i%step == 0 {
			l = fmt.Sprint(i)
		}
		ts = append(ts, plot.Tick{Value: float64(i), Label: l})
	}
	return ts
}

// Save writes the bars to base.FORMAT for each format.
func (b *LeafBars) Save(base string, out Output) error {
	out = out.withDefaults()
	lo, hi := valueRange(b.Panels)
	if math.IsInf(lo, 0) {
		return fmt.Errorf("figure %s: no values", base)
	}
	group := max(1, b.Group)
	var plots []*plot.Plot
	for _, pn := range b.Panels {
		if len(pn.Z) == 0 || len(pn.Z[0]) == 0 {
			return fmt.Errorf("figure %s: panel %q is empty", base, pn.Name)
		}
		vals := pn.Z[0]
		groups := (len(vals) + group - 1) / group
		p := plot.New()
		p.Title.Text = pn.Name
		p.Add(lightGrid())
		// A bar is one unit wide; a group of g bars and a gap of one unit
		// take g+1 units.
		var ticks []plot.Tick
		tickStep := 1
		for groups/tickStep > 8 {
			tickStep *= 2
		}
		for g := 0; g < groups; g++ {
			part := vals[g*group : min(len(vals), (g+1)*group)]
			shade := color.Gray{Y: 70}
			if g%2 == 1 {
				shade = color.Gray{Y: 150}
			}
			p.Add(&bars{x0: float64(g * (group + 1)), ys: part, color: shade})
			if g%tickStep == 0 {
				ticks = append(ticks, plot.Tick{Value: float64(g*(group+1)) + float64(len(part))/2, Label: fmt.Sprint(g)})
			}
		}
		p.X.Tick.Marker = plot.ConstantTicks(ticks)
		p.X.Label.Text = fmt.Sprintf("Leaf switch (%d nodes each, by node id)", group)
		p.Y.Label.Text = b.YLabel
		p.Y.Tick.Marker = UnitTicks{}
		p.Y.Min, p.Y.Max = min(0, lo), hi
		plots = append(plots, p)
	}
	t := &table{header: []string{"panel", "leaf", "node", "value"}}
	for _, pn := range b.Panels {
		for i, v := range pn.Z[0] {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				t.add(pn.Name, fmt.Sprint(i/group), fmt.Sprint(i), num(v))
			}
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	// Bars are wide, not square: aligned panels as square a grid as fits,
	// one x and one y label for all (the node maps' square tiles cut the
	// panels of a row of bars apart).
	cols := 1
	for cols*cols < len(plots) {
		cols++
	}
	for i, p := range plots {
		out.style(p)
		p.Title.Text = b.Panels[i].Name // a panel's name stays: it says which panel is which
		p.Title.TextStyle.Font.Size = out.FontSize
	}
	return renderPanels(base, out, b.Title, cols, plots, &flowLegend{font: out.smallSize()})
}

// saveTiles draws plots as tiles that fill the figure (as square a grid
// as fits), with side (a colour bar, or nil) on the right and title above,
// into base.FORMAT for each format.
func saveTiles(base string, out Output, title string, plots []*plot.Plot, side *scaleBar) error {
	fig := tiled{title: title, side: side}
	for _, p := range plots {
		fig.tiles = append(fig.tiles, tile{p: p})
	}
	return fig.save(base, out)
}

// tiled is a figure of panels in a grid: a title above, and at the right
// a colour bar for all panels (side) or the label of the panels' own bars
// (sideLabel).
type tiled struct {
	title     string
	tiles     []tile
	side      *scaleBar
	sideLabel string
	// yLabel is the panels' y label, drawn once at the left of them all
	// (a label as long as a panel is tall squeezed its plot to nothing).
	yLabel string
}

// tile is one panel: a plot whose data area is a grid of cols x rows
// square cells (cols 0: the data area fills the tile), and the panel's
// own colour bar (or nil) beside it.
type tile struct {
	p          *plot.Plot
	cols, rows int
	bar        *scaleBar
	// name and xLabel are the title and x label as given, before
	// wrapping.
	name, xLabel string
}

// Spacing of a tiled figure, around it, between columns and rows of
// panels, before the colour bar at the right and before a panel's own.
var (
	tileMargin = vg.Points(4)
	tilePadX   = vg.Points(12)
	tilePadY   = vg.Points(8)
	sideGap    = vg.Points(10)
	ownBarGap  = vg.Points(5)
)

// rowHeightCap is the most height a row of panels adds to a figure: a
// figure taller than Output.Height grows to give its cells their width,
// but at most this per row (about a page for four rows).
const rowHeightCap = 2.6 * vg.Inch

// layout is where a tiled figure's parts go on a canvas.
type layout struct {
	title  string    // wrapped to the width
	titleH vg.Length // the title's band at the top
	data   []vg.Rectangle
	// names are the panels' titles, wrapped to their columns, each
	// centred over its data area with its bottom at nameY.
	names []string
	nameY []vg.Length
	sideX vg.Length // the side bar's or label's left edge
	barLo vg.Length // the side bar's (or label's) bottom and top
	barHi vg.Length
	// sideTxt is the side bar's label, or sideLabel, wrapped; yTxt the
	// y label, wrapped, its left edge at yLabelX.
	sideTxt, yTxt string
	yLabelX       vg.Length
	need          vg.Length // the height at which cells fill their columns' width
}

// grid reports whether the tiles draw square cells (NodeMap) rather than
// filling their share of the figure (LeafBars, Heatmap).
func (f *tiled) grid() bool {
	for _, t := range f.tiles {
		if t.cols > 0 {
			return true
		}
	}
	return false
}

// shape is the tiles' columns and rows: as square a grid as fits.
func (f *tiled) shape() (cols, rows int) {
	cols = 1
	for cols*cols < len(f.tiles) {
		cols++
	}
	return cols, (len(f.tiles) + cols - 1) / cols
}

// barWidth is the width the tile's own bar takes beside its plot.
func (t tile) barWidth() vg.Length {
	if t.bar == nil {
		return 0
	}
	return ownBarGap + t.bar.barAndTicks()
}

// aspect is a tile's data height over its width (0: none).
func (t tile) aspect() vg.Length {
	if t.cols == 0 {
		return 0
	}
	return vg.Length(t.rows) / vg.Length(t.cols)
}

// save sizes the figure and renders it.
func (f *tiled) save(base string, out Output) error {
	w, h := f.size(out)
	return render(base, out, w, h, func(dc draw.Canvas) { f.draw(dc, out) })
}

// size styles the tiles (style) and sizes the figure: Output's width; its
// height, grown for rows of square cells or, filling, for more than two
// rows.
func (f *tiled) size(out Output) (w, h vg.Length) {
	cols, rows := f.shape()
	w, h = out.Width, out.Height
	f.style(out, cols)
	if f.grid() {
		// The need depends a little on the height (the side labels wrap
		// to it): a few rounds settle it.
		need := h
		for range layoutRounds {
			l := f.layout(out, w, need)
			need = max(out.Height, min(l.need, l.titleH+vg.Length(rows)*rowHeightCap))
		}
		h = need
	} else if rows > 2 {
		h = max(h, vg.Length(rows)*rowHeightCap)
	}
	return w, h
}

// style sets the tiles' fonts, and their axis labels once: y at the left
// of all (yLabel), x on the lowest panel of each column.
func (f *tiled) style(out Output, cols int) {
	same := f.sameGrid()
	for i, t := range f.tiles {
		p := t.p
		if i == 0 {
			f.yLabel = p.Y.Label.Text
		}
		p.Y.Label.Text = ""
		if i+cols < len(f.tiles) {
			p.X.Label.Text = ""
		}
		f.tiles[i].name, f.tiles[i].xLabel = p.Title.Text, p.X.Label.Text
		p.Title.Text = "" // drawn by draw, centred over the data
		p.Title.TextStyle.Font.Size = out.FontSize
		p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = out.smallSize()*0.9, out.smallSize()*0.9
		p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = out.FontSize, out.FontSize
		if t.cols > 0 {
			// Until layout knows the cells' size.
			t.setTicks(vg.Inch, vg.Inch, !same || i+cols >= len(f.tiles), !same || i%cols == 0)
		}
	}
}

// sameGrid reports whether every tile is a grid of the same size: then
// their coordinates are labelled once, on the left column and the lowest
// panel of each column.
func (f *tiled) sameGrid() bool {
	for _, t := range f.tiles {
		if t.cols == 0 || t.cols != f.tiles[0].cols || t.rows != f.tiles[0].rows {
			return false
		}
	}
	return true
}

// setTicks sets a grid tile's ticks for cells cw x ch, labelled along x
// and along y as asked.
func (t tile) setTicks(cw, ch vg.Length, xLabels, yLabels bool) {
	sty := t.p.X.Tick.Label
	t.p.X.Tick.Marker = gridTicks(t.cols, cw, sty.Width(fmt.Sprint(t.cols-1))+sty.Font.Size*0.6, xLabels)
	t.p.Y.Tick.Marker = gridTicks(t.rows, ch, sty.Font.Size*1.25, yLabels)
}

// insets are the lengths between a canvas's edges and its plot's data
// area (left, right, bottom, top).
type insets struct{ l, r, b, t vg.Length }

func insetsOf(p *plot.Plot, c draw.Canvas) insets {
	d := p.DataCanvas(c)
	return insets{d.Min.X - c.Min.X, c.Max.X - d.Max.X, d.Min.Y - c.Min.Y, c.Max.Y - d.Max.Y}
}

// layoutRounds is how many times layout sizes the tiles: the side
// labels are wrapped to the height of the panels, which depends on the
// width they leave.
const layoutRounds = 3

// titlePad is the space between a panel's title and its plot.
var titlePad = vg.Points(4)

// layout places the parts of the figure on a w x h canvas. It wraps the
// title to the width, each panel's title and x label to its column and
// the side labels to the panels' height, and sets grid tiles' ticks for
// the size of their cells.
func (f *tiled) layout(out Output, w, h vg.Length) layout {
	var l layout
	cols, rows := f.shape()
	ts := textStyle(out.titleSize())
	if !out.NoTitle && f.title != "" {
		l.title = wrapText(ts, f.title, w-2*tileMargin)
		l.titleH = vg.Length(strings.Count(l.title, "\n")+1)*ts.Font.Size*1.25 + vg.Points(8)
	}
	bodyW, bodyH := w-2*tileMargin, h-l.titleH-2*tileMargin
	labSty := textStyle(out.FontSize)
	same := f.sameGrid()
	sideH := bodyH
	n := len(f.tiles)
	l.names, l.nameY, l.data = make([]string, n), make([]vg.Length, n), make([]vg.Rectangle, n)
	for range layoutRounds {
		sideW, leftW := vg.Length(0), vg.Length(0)
		switch {
		case f.side != nil:
			sideW = sideGap + f.side.barAndTicks()
			if f.side.label != "" {
				l.sideTxt = wrapText(f.side.lab, f.side.label, sideH)
				sideW += labelGap + f.side.lab.Height(l.sideTxt)
			}
		case f.sideLabel != "":
			l.sideTxt = wrapText(labSty, f.sideLabel, sideH)
			sideW = sideGap + labSty.Height(l.sideTxt)
		}
		if f.yLabel != "" {
			l.yTxt = wrapText(labSty, f.yLabel, sideH)
			leftW = labSty.Height(l.yTxt) + 2*labelGap
		}
		colW := (bodyW - leftW - sideW - vg.Length(cols-1)*tilePadX) / vg.Length(cols)
		// The room each column and row of tiles needs around its data,
		// and the half width of its widest title.
		in, ownTop := make([]insets, n), make([]vg.Length, n)
		colL, colR, half := make([]vg.Length, cols), make([]vg.Length, cols), make([]vg.Length, cols)
		rowT, rowB, rowA := make([]vg.Length, rows), make([]vg.Length, rows), make([]vg.Length, rows)
		probe := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: colW, Y: bodyH / vg.Length(rows)}}}
		for i, t := range f.tiles {
			c, r := i%cols, i/cols
			sty := t.p.Title.TextStyle
			l.names[i] = wrapText(sty, t.name, colW-t.barWidth())
			t.p.X.Label.Text = wrapText(t.p.X.Label.TextStyle, t.xLabel, colW-t.barWidth())
			in[i] = insetsOf(t.p, probe)
			in[i].r += t.barWidth()
			ownTop[i] = in[i].t
			if l.names[i] != "" {
				in[i].t += sty.Height(l.names[i]) + titlePad
				half[c] = max(half[c], sty.Width(l.names[i])/2)
			}
			colL[c], colR[c] = max(colL[c], in[i].l), max(colR[c], in[i].r)
			rowT[r], rowB[r], rowA[r] = max(rowT[r], in[i].t), max(rowB[r], in[i].b), max(rowA[r], t.aspect())
		}
		// A column's width for data d wide: its plots' and a title
		// centred over the data.
		colL2 := func(c int, d vg.Length) vg.Length { return max(colL[c], half[c]-d/2) }
		colR2 := func(c int, d vg.Length) vg.Length { return max(colR[c], half[c]-d/2) }
		widthAt := func(d vg.Length) vg.Length {
			w := leftW + vg.Length(cols-1)*tilePadX + sideW
			for c := range cols {
				w += colL2(c, d) + d + colR2(c, d)
			}
			return w
		}
		// The widest data that fits, by bisection (widthAt grows with d).
		lo, hi := vg.Length(0), bodyW
		for range 40 {
			if mid := (lo + hi) / 2; widthAt(mid) <= bodyW {
				lo = mid
			} else {
				hi = mid
			}
		}
		d := lo
		fixedH := vg.Length(rows-1) * tilePadY
		var sumA vg.Length
		for r := range rows {
			fixedH += rowT[r] + rowB[r]
			sumA += rowA[r]
		}
		dataH := make([]vg.Length, rows)
		if f.grid() {
			l.need = l.titleH + 2*tileMargin + fixedH + d*sumA
			d = max(0, min(d, (bodyH-fixedH)/sumA))
			for r := range rows {
				dataH[r] = d * rowA[r]
			}
		} else {
			for r := range rows {
				dataH[r] = max(0, (bodyH-fixedH)/vg.Length(rows))
			}
		}
		// The block of tiles and side columns, centred.
		totalH := vg.Length(rows-1) * tilePadY
		for r := range rows {
			totalH += rowT[r] + dataH[r] + rowB[r]
		}
		colX := make([]vg.Length, cols) // the data's left edge
		x := tileMargin + (bodyW-widthAt(d))/2
		l.yLabelX = x
		x += leftW
		for c := range cols {
			colX[c] = x + colL2(c, d)
			x += colL2(c, d) + d + colR2(c, d) + tilePadX
		}
		l.sideX = x - tilePadX + sideGap
		rowY := make([]vg.Length, rows) // the data's top edge
		y := h - l.titleH - tileMargin - (bodyH-totalH)/2
		for r := range rows {
			rowY[r] = y - rowT[r]
			y -= rowT[r] + dataH[r] + rowB[r] + tilePadY
		}
		l.barHi, l.barLo = rowY[0], rowY[rows-1]-dataH[rows-1]
		for i, t := range f.tiles {
			c, r := i%cols, i/cols
			dh := dataH[r]
			if a := t.aspect(); a > 0 {
				dh = d * a
			}
			top := rowY[r] - (dataH[r]-dh)/2
			l.data[i] = vg.Rectangle{Min: vg.Point{X: colX[c], Y: top - dh}, Max: vg.Point{X: colX[c] + d, Y: top}}
			l.nameY[i] = top + ownTop[i] + titlePad
			if t.cols > 0 {
				t.setTicks(d/vg.Length(t.cols), dh/vg.Length(t.rows), !same || i+cols >= n, !same || c == 0)
			}
		}
		sideH = l.barHi - l.barLo
	}
	return l
}

// draw draws the figure on dc.
func (f *tiled) draw(dc draw.Canvas, out Output) {
	w, h := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
	l := f.layout(out, w, h)
	at := func(x, y vg.Length) vg.Point { return vg.Point{X: dc.Min.X + x, Y: dc.Min.Y + y} }
	if l.title != "" {
		ts := textStyle(out.titleSize())
		ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
		dc.FillText(ts, at(w/2, h-vg.Points(4)), l.title)
	}
	for i, t := range f.tiles {
		want := l.data[i]
		want.Min, want.Max = at(want.Min.X, want.Min.Y), at(want.Max.X, want.Max.Y)
		// The canvas whose data area is want: its insets, corrected once
		// for what they change with the canvas's size.
		c := dc
		for range 2 {
			in := insetsOf(t.p, c)
			c.Rectangle = vg.Rectangle{Min: vg.Point{X: want.Min.X - in.l, Y: want.Min.Y - in.b}, Max: vg.Point{X: want.Max.X + in.r, Y: want.Max.Y + in.t}}
		}
		t.p.Draw(c)
		if l.names[i] != "" {
			sty := t.p.Title.TextStyle
			sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
			dc.FillText(sty, at((l.data[i].Min.X+l.data[i].Max.X)/2, l.nameY[i]), l.names[i])
		}
		if t.bar != nil {
			t.bar.draw(dc, want.Max.X+ownBarGap, want.Min.Y, want.Max.Y, "")
		}
	}
	lo, hi := dc.Min.Y+l.barLo, dc.Min.Y+l.barHi
	if l.yTxt != "" {
		drawSideLabel(dc, textStyle(out.FontSize), l.yTxt, dc.Min.X+l.yLabelX, lo, hi)
	}
	switch {
	case f.side != nil:
		f.side.draw(dc, dc.Min.X+l.sideX, lo, hi, l.sideTxt)
	case l.sideTxt != "":
		drawSideLabel(dc, textStyle(out.FontSize), l.sideTxt, dc.Min.X+l.sideX, lo, hi)
	}
}

// bars are bars one unit wide, the first centred on x0+0.5, in one colour;
// NaN and infinite values are left out.
type bars struct {
	x0    float64
	ys    []float64
	color color.Color
}

func (b *bars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	base := max(plt.Y.Min, 0)
	for i, y := range b.ys {
		if math.IsNaN(y) || math.IsInf(y, 0) {
			continue
		}
		x := b.x0 + float64(i)
		// A hair of white between bars keeps neighbours apart.
		x0, x1 := trX(x)+vg.Points(0.3), trX(x+1)-vg.Points(0.3)
		y0, y1 := trY(base), trY(y)
		c.FillPolygon(b.color, c.ClipPolygonY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}

func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = 0, 0
	for _, y := range b.ys {
		if !math.IsNaN(y) && !math.IsInf(y, 0) {
			ymin, ymax = min(ymin, y), max(ymax, y)
		}
	}
	return b.x0, b.x0 + float64(len(b.ys)), ymin, ymax
}
