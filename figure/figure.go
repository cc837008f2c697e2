// Package figure draws the standard figures of interconnection-network
// papers with gonum.org/v1/plot: line charts (throughput and latency against
// offered load, time series, per-node throughput, latency CDFs) and heatmaps
// of a metric over two parameters. It knows nothing of studies or results:
// callers hand it lines and grids. Every figure is written in each requested
// format (svg, png, pdf) at the Output's size, atomically (write, then rename),
// beside a CSV of the points it draws.
//
// It may import internal packages only: it draws tables and knows nothing
// of networks.
package figure

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// MaxLegendInside is the most legend entries drawn inside the plot area;
// a longer legend, or one that would cover data in every corner, goes to
// the right of the plot area.
const MaxLegendInside = 8

// saveLegendOutside draws p with its legend in a column to the right of
// the plot, top-aligned with the plot area, so that it covers no data; a
// legend wider than WideLegendShare of the figure (long line names: a
// study's every axis value) goes below the plot instead, taking its height
// from the plot (the figure keeps the size asked for), in a smaller font
// if it would not fit across the figure or would take more than
// maxLegendShare of its height.
func saveLegendOutside(p *plot.Plot, base string, out Output) error {
	leg := p.Legend
	p.Legend = plot.NewLegend()
	leg.Top, leg.Left = true, true
	title, ts := p.Title.Text, p.Title.TextStyle
	p.Title.Text = ""
	ts.XAlign, ts.YAlign = draw.XCenter, draw.YTop
	const gap = vg.Length(8)             // points between the plot's axis label and a legend below
	size := leg.Rectangle(draw.Canvas{}) // the size only: no canvas needed
	lw := size.Max.X - size.Min.X + vg.Points(14)
	below := lw > vg.Length(WideLegendShare)*out.Width
	if room := out.Width - 2*gap; below && lw > room {
		leg.TextStyle.Font.Size = max(leg.TextStyle.Font.Size*room/lw, vg.Points(6))
		size = leg.Rectangle(draw.Canvas{})
	}
	h, lh := out.Height, size.Max.Y-size.Min.Y+gap+vg.Points(6)
	// The figure keeps the size asked for (two figures of a study stand
	// side by side in a paper): a legend below takes its height from the
	// plot, and where it would take more than maxLegendShare of it, its
	// font shrinks to fit (to 5 points at least).
	if most := vg.Length(maxLegendShare) * out.Height; below && lh > most {
		font, padding, full := leg.TextStyle.Font.Size, leg.Padding, lh
		leg.TextStyle.Font.Size = max(font*(most-gap-vg.Points(6))/(lh-gap-vg.Points(6)), minLegendFont)
		// Rows of a small font a little apart: gonum spaces them by the
		// font's height, which a browser's glyph boxes exceed.
		leg.Padding = max(leg.Padding, leg.TextStyle.Font.Size*0.25)
		size = leg.Rectangle(draw.Canvas{})
		lh = size.Max.Y - size.Min.Y + gap + vg.Points(6)
		if lh > most {
			// Too many entries to fit the share even at the smallest
			// font: the legend keeps its font and the figure grows by
			// it, the plot keeping the height asked for, rather than the
			// plot shrinking to a strip.
			leg.TextStyle.Font.Size, leg.Padding, lh = font, padding, full
			h += lh
		}
	}
	return render(base, out, out.Width, h, func(dc draw.Canvas) {
		// The title centred over the whole figure.
		th := vg.Length(0)
		if title != "" {
			th = ts.Height(title) + p.Title.Padding + vg.Points(4)
			dc.FillText(ts, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - vg.Points(2)}, title)
		}
		body := draw.Crop(dc, 0, 0, 0, -th)
		if below {
			fitTicks(&p.X, out.Width-yAxisRoom(out))
			p.Draw(draw.Crop(body, 0, -rightMargin, lh, 0))
			leg.Draw(draw.Crop(body, gap, 0, vg.Points(4), -(body.Max.Y - body.Min.Y - lh + gap)))
			return
		}
		fitTicks(&p.X, out.Width-lw-yAxisRoom(out))
		p.Draw(draw.Crop(body, 0, -lw, 0, 0))
		leg.Draw(draw.Crop(body, body.Max.X-body.Min.X-lw+vg.Points(8), 0, 0, -vg.Points(6)))
	})
}

// maxLegendShare is the most of a figure's height a legend below the plot
// takes, in a font down to minLegendFont; a longer legend keeps its font
// and grows the figure by its height.
const maxLegendShare = 0.45

// minLegendFont is the smallest legend font a figure shrinks to.
const minLegendFont = vg.Length(6)

// WideLegendShare is the share of the figure's width beyond which a legend
// outside the plot goes below it rather than to its right.
const WideLegendShare = 0.4

// refGlyphs are the glyphs of published values, one per source: none is
// used by seriesShape for our lines.
func refGlyphs() []draw.GlyphDrawer {
	return []draw.GlyphDrawer{draw.CrossGlyph{}, draw.PlusGlyph{}, draw.BoxGlyph{}}
}

// edgeGlyphs draws a scatter's glyphs unclipped, so that a glyph on the
// plot area's edge (a point above the cut) is drawn whole.
type edgeGlyphs struct{ *plotter.Scatter }

func (e edgeGlyphs) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, p := range e.XYs {
		c.DrawGlyphNoClip(e.GlyphStyle, vg.Point{X: trX(p.X), Y: trY(p.Y)})
	}
}

// vline is a vertical line across the plot area at x; as a legend
// thumbnail, a short horizontal line in its style.
type vline struct {
	x     float64
	style draw.LineStyle
}

func (v *vline) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, _ := plt.Transforms(&c)
	x := trX(v.x)
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

// DataRange includes x and nothing of y.
func (v *vline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return v.x, v.x, math.Inf(1), math.Inf(-1)
}

func (v *vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.style, c.Min.X, y, c.Max.X, y)
}

// emptyCorner picks the corner of the plot area for a legend of n entries
// that covers the fewest data points (ties: top left, top right, bottom
// left, bottom right), so that the legend does not hide data where the
// data leaves a corner free.
func emptyCorner(p *plot.Plot, pts []plotter.XY, n int) (top, left bool) {
	top, left, _ = legendCorner(pts, n)
	return top, left
}

// legendCorner is emptyCorner with the number of points the legend would
// cover there, for a legend whose size is guessed from its entries: a
// third of the width, a line of about 1/16 of the height per entry, over
// the points' extent.
func legendCorner(pts []plotter.XY, n int) (top, left bool, covered int) {
	if len(pts) == 0 {
		return true, true, 0
	}
	xmin, xmax, ymin, ymax := pts[0].X, pts[0].X, pts[0].Y, pts[0].Y
	for _, pt := range pts {
		xmin, xmax, ymin, ymax = min(xmin, pt.X), max(xmax, pt.X), min(ymin, pt.Y), max(ymax, pt.Y)
	}
	norm := make([]plotter.XY, len(pts))
	for i, pt := range pts {
		norm[i] = plotter.XY{X: unitShare(pt.X, xmin, xmax), Y: unitShare(pt.Y, ymin, ymax)}
	}
	return cornerFor(norm, 0.35, min(1, 0.07*float64(n)+0.04))
}

// unitShare is where v lies from lo (0) to hi (1); 0 where lo = hi.
func unitShare(v, lo, hi float64) float64 {
	if hi <= lo {
		return 0
	}
	return (v - lo) / (hi - lo)
}

// cornerFor picks the corner of the unit square in which a box w wide and
// h high covers the fewest of pts (ties: top left, top right, bottom
// left, bottom right), with that count.
func cornerFor(pts []plotter.XY, w, h float64) (top, left bool, covered int) {
	best, bestCount := 0, -1
	for k, corner := range [4][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		count := 0
		for _, pt := range pts {
			inX := pt.X <= w
			if !corner[1] {
				inX = pt.X >= 1-w
			}
			inY := pt.Y >= 1-h
			if !corner[0] {
				inY = pt.Y <= h
			}
			if inX && inY {
				count++
			}
		}
		if bestCount < 0 || count < bestCount {
			best, bestCount = k, count
		}
	}
	return best < 2, best%2 == 0, bestCount
}

// Heatmap is a metric over two parameters: Z[y][x], with tick labels, on
// Kindlmann's colour map (monotone in luminance, so it reads in greyscale),
// with a colour bar labelled ZLabel beside the plot.
type Heatmap struct {
	Title, XLabel, YLabel, ZLabel string
	XTicks, YTicks                []string
	Z                             [][]float64 // NaN: no value
}

type grid struct{ z [][]float64 }

func (g grid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g grid) Z(c, r int) float64 { return g.z[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

type cellLabels struct {
	xys    plotter.XYs
	labels []string
}

func (l cellLabels) Len() int                    { return len(l.xys) }
func (l cellLabels) XY(i int) (float64, float64) { return l.xys[i].X, l.xys[i].Y }
func (l cellLabels) Label(i int) string          { return l.labels[i] }

// maxLabelledColumns is the widest grid whose cells are labelled with
// their values: wider, the labels would run into each other.
const maxLabelledColumns = 12

// Save writes the heatmap to base.FORMAT for each format. Each cell is
// labelled with its value (three significant digits) when the grid is
// narrow enough to read them; grey cells (noDataColour) have no value.
func (h *Heatmap) Save(base string, out Output) error {
	out = out.withDefaults()
	if len(h.Z) == 0 || len(h.Z[0]) == 0 {
		return fmt.Errorf("figure %s: empty heatmap", base)
	}
	scale, ok := newColourScale([]Panel{{Z: h.Z}})
	if !ok {
		return fmt.Errorf("figure %s: heatmap has no values", base)
	}
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = h.XLabel, h.YLabel
	out.style(p)
	p.Add(scale.heatMap(h.Z))
	ticks := func(labels []string) plot.ConstantTicks {
		step := max(1, len(labels)/12)
		var ts []plot.Tick
		for i, l := range labels {
			if i%step == 0 {
				ts = append(ts, plot.Tick{Value: float64(i), Label: l})
			}
		}
		return ts
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = ticks(h.XTicks), ticks(h.YTicks)
	// Column labels wider than their columns (pattern names) stand
	// upright.
	labelled := len(h.XTicks) / max(1, len(h.XTicks)/12)
	wide := vg.Length(0)
	for _, l := range h.XTicks {
		wide = max(wide, p.X.Tick.Label.Width(l))
	}
	if wide+p.X.Tick.Label.Font.Size > (out.Width-yAxisRoom(out)-1.1*vg.Inch)/vg.Length(max(1, labelled)) {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		// A space at the end keeps the label's top off the tick mark.
		xt := p.X.Tick.Marker.(plot.ConstantTicks)
		for i := range xt {
			if xt[i].Label != "" {
				xt[i].Label += " "
			}
		}
	}
	if len(h.Z[0]) <= maxLabelledColumns && len(h.Z) <= 2*maxLabelledColumns {
		var cl cellLabels
		for r, row := range h.Z {
			for c, z := range row {
				if !math.IsNaN(z) {
					cl.xys = append(cl.xys, plotter.XY{X: float64(c), Y: float64(r)})
					cl.labels = append(cl.labels, shortValue(z))
				}
			}
		}
		labels, err := plotter.NewLabels(cl)
		if err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = -0.5, -0.5
			labels.TextStyle[i].Font.Size = out.smallSize()
			// Dark text on the light end of the map, light on the dark.
			if v := h.Z[int(cl.xys[i].Y)][int(cl.xys[i].X)]; scale.share(v) < 0.55 {
				labels.TextStyle[i].Color = color.White
			}
		}
		p.Add(labels)
	}
	p.X.Padding, p.Y.Padding = 0, 0
	t := &table{header: []string{"x", "y", "value"}}
	for r, row := range h.Z {
		for c, z := range row {
			if !math.IsNaN(z) {
				t.add(h.XTicks[c], h.YTicks[r], num(z))
			}
		}
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	return saveTiles(base, out, h.Title, []*plot.Plot{p}, scale.bar(h.ZLabel, out))
}
