package figure

import (
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

// NodeMap is a per-node metric over the (x, y) grid of a mesh or torus, one
// heatmap panel per point, all on one colour scale (shown as a colour bar
// labelled Label). The colour map (Kindlmann's) grows monotonically in
// luminance, so that it reads in greyscale.
type NodeMap struct {
	Title, Label string
	Panels       []Panel
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

// Save writes the node map to base.FORMAT for each format.
func (m *NodeMap) Save(base string, out Output) error {
	out = out.withDefaults()
	scale, ok := newColourScale(m.Panels)
	if !ok {
		return fmt.Errorf("figure %s: node map has no values", base)
	}
	var plots []*plot.Plot
	for _, pn := range m.Panels {
		if len(pn.Z) == 0 || len(pn.Z[0]) == 0 {
			return fmt.Errorf("figure %s: panel %q is empty", base, pn.Name)
		}
		p := plot.New()
		p.Title.Text = pn.Name
		p.Title.TextStyle.Font.Size = out.FontSize
		p.Add(scale.heatMap(pn.Z))
		p.X.Label.Text, p.Y.Label.Text = "x", "y"
		p.X.Tick.Marker, p.Y.Tick.Marker = gridTicks(len(pn.Z[0])), gridTicks(len(pn.Z))
		p.X.Padding, p.Y.Padding = 0, 0
		plots = append(plots, p)
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
	return saveTiles(base, out, m.Title, plots, scale.bar(m.Label, out))
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

// colourBar draws a colour scale as a vertical stack of filled bands:
// vector shapes in every format. gonum's plotter.ColorBar draws an image one
// pixel wide, which an SVG viewer scales with its aspect ratio kept, so
// every colour bar of an SVG (and of the HTML report) was a hairline.
type colourBar struct {
	s     colourScale
	bands int
}

// Plot fills the bands bottom up, each from its lower edge to the top of
// the bar, so that the next covers all of it but its own strip: no seam
// of background or of anti-aliased edges shows between two bands.
func (b colourBar) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	x0, x1 := trX(0), trX(1)
	step := (b.s.hi - b.s.lo) / float64(b.bands)
	for i := range b.bands {
		v0, v1 := b.s.lo+float64(i)*step, b.s.hi
		col, err := b.s.cmap.At(v0 + step/2)
		if err != nil {
			continue
		}
		y0, y1 := trY(v0), trY(v1)
		c.FillPolygon(col, []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

// DataRange is the unit width by the scale's range.
func (b colourBar) DataRange() (xmin, xmax, ymin, ymax float64) { return 0, 1, b.s.lo, b.s.hi }

// bar is the scale as a vertical colour bar labelled label.
func (s colourScale) bar(label string, out Output) *plot.Plot {
	bar := plot.New()
	out.style(bar)
	bar.Add(colourBar{s: s, bands: 128})
	bar.HideX()
	bar.Y.Padding = 0
	bar.Y.Label.Text = label
	bar.Y.Tick.Marker = UnitTicks{}
	return bar
}

// gridTicks labels coordinates 0..n-1 at a step that leaves at most about
// eight labels.
func gridTicks(n int) plot.ConstantTicks {
	step := 1
	for n/step > 8 {
		step *= 2
	}
	var ts []plot.Tick
	for i := 0; i < n; i++ {
		l := ""
		if i%step == 0 {
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
		p.Title.TextStyle.Font.Size = out.FontSize
		p.Add(plotter.NewGrid())
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
	return saveTiles(base, out, b.Title, plots, nil)
}

// saveTiles draws plots as tiles (as square a grid as fits), with side
// (a colour bar, or nil) in a narrow column on the right and title above,
// into base.FORMAT for each format.
func saveTiles(base string, out Output, title string, plots []*plot.Plot, side *plot.Plot) error {
	cols := 1
	for cols*cols < len(plots) {
		cols++
	}
	rows := (len(plots) + cols - 1) / cols
	w, h := out.Width, out.Height
	if rows > 2 {
		h = vg.Length(rows) * 2.6 * vg.Inch
	}
	return render(base, out, w, h, func(dc draw.Canvas) {
		// The title, centred above the tiles.
		ts := text.Style{Color: color.Black, Font: plot.DefaultFont, XAlign: draw.XCenter, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
		ts.Font.Size = out.titleSize()
		titleH := vg.Length(0)
		if !out.NoTitle && title != "" {
			titleH = vg.Length(strings.Count(title, "\n")+1)*ts.Font.Size*1.25 + vg.Points(8)
			dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(4)}, title)
		}
		body := draw.Crop(dc, 0, 0, 0, -titleH)
		if side != nil {
			sw := vg.Inch * 1.1
			side.Draw(draw.Crop(body, body.Max.X-body.Min.X-sw, 0, vg.Points(6), -vg.Points(6)))
			body = draw.Crop(body, 0, -sw, 0, 0)
		}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(2), PadBottom: vg.Points(2), PadLeft: vg.Points(2), PadRight: vg.Points(2)}
		for i, p := range plots {
			c := i % cols
			// Axis labels once: y on the left column, x on the lowest
			// panel of each column.
			if c > 0 {
				p.Y.Label.Text = ""
			}
			if i+cols < len(plots) {
				p.X.Label.Text = ""
			}
			p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = out.smallSize()*0.9, out.smallSize()*0.9
			p.X.Label.TextStyle.Font.Size, p.Y.Label.TextStyle.Font.Size = out.FontSize, out.FontSize
			p.Draw(tiles.At(body, c, i/cols))
		}
	})
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
