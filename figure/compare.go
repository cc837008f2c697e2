package figure

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Compare sets our values beside published ones, one column per point
// (Labels[i]): ours as filled circles, the published values as black
// crosses, so that a reader sees the difference without the paper open.
type Compare struct {
	Title, YLabel string
	Labels        []string
	Ours          []float64 // NaN: no value
	Published     []float64
	Source        string // the published values' source, for the legend
}

// Save writes the comparison to base.FORMAT for each format.
func (c *Compare) Save(base string, out Output) error {
	out = out.withDefaults()
	if len(c.Labels) == 0 || len(c.Ours) != len(c.Labels) || len(c.Published) != len(c.Labels) {
		return fmt.Errorf("figure %s: %d labels, %d of ours, %d published: need one of each per label", base, len(c.Labels), len(c.Ours), len(c.Published))
	}
	p := plot.New()
	p.Title.Text, p.Y.Label.Text = c.Title, c.YLabel
	out.style(p)
	p.Add(lightGrid())
	p.Y.Tick.Marker = UnitTicks{}
	// A few columns: one "key=value" per line under each; many: the
	// values alone on one slanted line.
	rotate := len(c.Labels) > 8
	labels := make([]string, len(c.Labels))
	for i, l := range c.Labels {
		if !rotate {
			labels[i] = strings.ReplaceAll(l, " ", "\n")
			continue
		}
		var vals []string
		for _, part := range strings.Fields(l) {
			_, v, ok := strings.Cut(part, "=")
			if !ok {
				v = part
			}
			vals = append(vals, v)
		}
		labels[i] = strings.Join(vals, ", ")
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Font.Size = out.smallSize() * 0.9
	if rotate {
		p.X.Tick.Label.Rotation = math.Pi / 4
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		p.X.Tick.Label.Font.Size = out.smallSize() * 0.8
	}
	var all []plotter.XY
	add := func(vals []float64, name string, shape draw.GlyphDrawer, col color.Color, r vg.Length) error {
		var xys plotter.XYs
		for i, v := range vals {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				xys = append(xys, plotter.XY{X: float64(i), Y: v})
			}
		}
		if len(xys) == 0 {
			return nil
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return fmt.Errorf("figure %s: %w", base, err)
		}
		sc.Shape, sc.Color, sc.Radius = shape, col, r
		all = append(all, xys...)
		p.Add(sc)
		p.Legend.Add(name, sc)
		return nil
	}
	if err := add(c.Ours, "icnsim", draw.CircleGlyph{}, plotutil.Color(0), vg.Points(4)); err != nil {
		return err
	}
	if err := add(c.Published, "Published: "+c.Source, refGlyphs[0], color.Black, vg.Points(5)); err != nil {
		return err
	}
	p.Y.Min = min(p.Y.Min, 0)
	p.Y.Max += (p.Y.Max - p.Y.Min) * 0.08 // glyphs whole below the top edge
	p.Legend.Top, p.Legend.Left = emptyCorner(p, append(all, plotter.XY{X: 0, Y: 0}), 2)
	p.X.Padding = vg.Points(10)
	t := &table{header: []string{"at", "icnsim", "published", "source"}}
	for i, l := range c.Labels {
		t.add(l, num(c.Ours[i]), num(c.Published[i]), c.Source)
	}
	if err := t.writeCSV(base); err != nil {
		return err
	}
	return save(p, base, out)
}
