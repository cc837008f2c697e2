// Package figure draws the standard figures of interconnection-network
// papers with gonum.org/v1/plot: line charts (throughput and latency against
// offered load, time series, per-node throughput, latency CDFs) and heatmaps
// of a metric over two parameters. It knows nothing of studies or results:
// callers hand it lines and grids. Every figure is written in each requested
// format (png, svg) at Width x Height, atomically (write, then rename).
package figure

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/icnsim/icnsim/internal/atomicfile"
)

// Size of every figure. At the PNG backend's 96 dpi a figure is 768 x 480
// pixels.
const (
	Width  = 8 * vg.Inch
	Height = 5 * vg.Inch
)

// Line is one named line of a chart: points (x, y) in order.
type Line struct {
	Name string
	XY   [][2]float64
}

// Chart is a line chart.
type Chart struct {
	Title, XLabel, YLabel string
	Lines                 []Line
	// Points marks every point with a glyph (for sparse data such as load
	// sweeps); dense data (time series, CDFs) is drawn as plain lines.
	Points bool
}

// Save writes the chart to base.FORMAT for each format.
func (c *Chart) Save(base string, formats []string) error {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = c.Title, c.XLabel, c.YLabel
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker, p.Y.Tick.Marker = UnitTicks{}, UnitTicks{}
	var all []plotter.XY
	for i, l := range c.Lines {
		xys := make(plotter.XYs, 0, len(l.XY))
		for _, pt := range l.XY {
			if !math.IsNaN(pt[1]) && !math.IsInf(pt[1], 0) {
				xys = append(xys, plotter.XY{X: pt[0], Y: pt[1]})
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
		}
		all = append(all, xys...)
		line.Color = plotutil.Color(i)
		// A dash pattern and a glyph per line as well as a colour, so
		// that lines stay apart in greyscale.
		line.Dashes = plotutil.Dashes(i)
		p.Add(line)
		if c.Points {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return fmt.Errorf("figure %s: line %q: %w", base, l.Name, err)
			}
			sc.Color = line.Color
			sc.Shape = plotutil.Shape(i)
			p.Add(sc)
			p.Legend.Add(l.Name, line, sc)
		} else {
			p.Legend.Add(l.Name, line)
		}
	}
	p.Legend.Top, p.Legend.Left = emptyCorner(p, all, len(c.Lines))
	return save(p, base, formats)
}

// emptyCorner picks the corner of the plot area for a legend of n entries
// that covers the fewest data points (ties: top left, top right, bottom
// left, bottom right), so that the legend does not hide data where the
// data leaves a corner free.
func emptyCorner(p *plot.Plot, pts []plotter.XY, n int) (top, left bool) {
	if len(pts) == 0 {
		return true, true
	}
	xmin, xmax, ymin, ymax := pts[0].X, pts[0].X, pts[0].Y, pts[0].Y
	for _, pt := range pts {
		xmin, xmax, ymin, ymax = min(xmin, pt.X), max(xmax, pt.X), min(ymin, pt.Y), max(ymax, pt.Y)
	}
	// The legend's share of the area: a third of the width, a line of
	// about 1/16 of the height per entry.
	w := (xmax - xmin) * 0.35
	h := (ymax - ymin) * min(1, 0.07*float64(n)+0.04)
	best, bestCount := 0, -1
	for k, corner := range [4][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		count := 0
		for _, pt := range pts {
			inX := pt.X <= xmin+w
			if !corner[1] {
				inX = pt.X >= xmax-w
			}
			inY := pt.Y >= ymax-h
			if !corner[0] {
				inY = pt.Y <= ymin+h
			}
			if inX && inY {
				count++
			}
		}
		if bestCount < 0 || count < bestCount {
			best, bestCount = k, count
		}
	}
	return best < 2, best%2 == 0
}

// UnitTicks are gonum's default tick positions labelled with as many
// decimals as the major ticks need, and no more: 12500, not 12500.00;
// 0.05, 0.10, not 0.05000000000000001.
type UnitTicks struct{}

// Ticks returns the ticks between lo and hi.
func (UnitTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	var major []float64
	for _, t := range ts {
		if t.Label != "" {
			major = append(major, t.Value)
		}
	}
	// The fewest decimals that write every major tick exactly (to a
	// millionth of the range).
	eps := (hi - lo) * 1e-6
	decimals := 0
	for ; decimals < 12; decimals++ {
		exact := true
		for _, v := range major {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
			exact = exact && math.Abs(r-v) <= eps
		}
		if exact {
			break
		}
	}
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', decimals, 64)
			if ts[i].Label == "-0" {
				ts[i].Label = "0"
			}
		}
	}
	return ts
}

// Heatmap is a metric over two parameters: Z[y][x], with tick labels.
type Heatmap struct {
	Title, XLabel, YLabel string
	XTicks, YTicks        []string
	Z                     [][]float64 // NaN: no value
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

// Save writes the heatmap to base.FORMAT for each format. Each cell is
// labelled with its value (three significant digits) when the grid is small
// enough to read them.
func (h *Heatmap) Save(base string, formats []string) error {
	if len(h.Z) == 0 || len(h.Z[0]) == 0 {
		return fmt.Errorf("figure %s: empty heatmap", base)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range h.Z {
		for _, z := range row {
			if !math.IsNaN(z) {
				lo, hi = min(lo, z), max(hi, z)
			}
		}
	}
	if math.IsInf(lo, 0) {
		return fmt.Errorf("figure %s: heatmap has no values", base)
	}
	pal := palette.Heat(16, 1)
	hm := plotter.NewHeatMap(grid{h.Z}, pal)
	if lo == hi { // a flat grid still needs a range to colour
		hm.Min, hm.Max = lo-0.5, hi+0.5
	}
	hm.NaN = plotutil.Color(7)
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = h.Title, h.XLabel, h.YLabel
	p.Add(hm)
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
	if len(h.Z)*len(h.Z[0]) <= 400 {
		var cl cellLabels
		for r, row := range h.Z {
			for c, z := range row {
				if !math.IsNaN(z) {
					cl.xys = append(cl.xys, plotter.XY{X: float64(c), Y: float64(r)})
					cl.labels = append(cl.labels, fmt.Sprintf("%.3g", z))
				}
			}
		}
		labels, err := plotter.NewLabels(cl)
		if err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = -0.5, -0.5
			labels.TextStyle[i].Font.Size = vg.Points(9)
		}
		p.Add(labels)
	}
	// The legend is the colour scale: lowest and highest colour with values.
	thumbs := plotter.PaletteThumbnailers(pal)
	p.Legend.Add(fmt.Sprintf("%.3g", hm.Max), thumbs[len(thumbs)-1])
	p.Legend.Add(fmt.Sprintf("%.3g", hm.Min), thumbs[0])
	p.Legend.Top = true
	p.Legend.Left = false
	p.X.Padding, p.Y.Padding = 0, 0
	return save(p, base, formats)
}

// save renders p in each format and writes base.FORMAT atomically.
func save(p *plot.Plot, base string, formats []string) error {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return err
	}
	for _, format := range formats {
		wt, err := p.WriterTo(Width, Height, format)
		if err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return fmt.Errorf("figure %s.%s: %w", base, format, err)
		}
		if err := atomicfile.Write(base+"."+format, buf.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
