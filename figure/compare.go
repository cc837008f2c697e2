package figure

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
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
	// Each column labelled by its values, one per line ("uniform" over
	// "0.3"), the keys once in the axis label; columns too narrow for their
	// labels get them turned upright, and labels of every k-th column only
	// where even those would touch.
	var keys []string
	labels := make([]string, len(c.Labels))
	lines := 1
	for i, l := range c.Labels {
		var vals []string
		if i > 0 && len(strings.Fields(l)) != len(keys) {
			keys = nil // labels of different axes: each keeps its keys
		}
		for j, part := range strings.Fields(l) {
			k, v, ok := strings.Cut(part, "=")
			if !ok {
				k, v = "", part
			}
			if i == 0 && k != "" {
				keys = append(keys, k)
			} else if i > 0 && j < len(keys) && keys[j] != k {
				keys = nil
			}
			vals = append(vals, v)
		}
		labels[i] = strings.Join(vals, "\n")
		lines = max(lines, len(vals))
	}
	if len(keys) > 0 {
		p.X.Label.Text = strings.Join(keys, " / ")
	} else {
		labels = slices.Clone(c.Labels)
		for i := range labels {
			labels[i] = strings.ReplaceAll(labels[i], " ", "\n")
		}
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Font.Size = out.smallSize() * 0.9
	column := (out.Width - yAxisRoom(out)) / vg.Length(len(labels))
	wide := vg.Length(0)
	for _, l := range labels {
		for _, line := range strings.Split(l, "\n") {
			wide = max(wide, p.X.Tick.Label.Width(line))
		}
	}
	if wide+p.X.Tick.Label.Font.Size > column {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
		// A space at the end keeps each line's top off the tick mark.
		for i := range labels {
			labels[i] = strings.ReplaceAll(labels[i], "\n", " \n") + " "
		}
		p.NominalX(labels...)
		// Upright, a label is as wide as its lines are high.
		if step := int(math.Ceil(float64(p.X.Tick.Label.Height(strings.Repeat("0\n", lines)[:2*lines-1]) * 1.2 / column))); step > 1 {
			var ticks []plot.Tick
			for i, l := range labels {
				t := plot.Tick{Value: float64(i)}
				if i%step == 0 {
					t.Label = l
				}
				ticks = append(ticks, t)
			}
			p.X.Tick.Marker = plot.ConstantTicks(ticks)
		}
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
	if err := add(c.Ours, "icnsim", draw.CircleGlyph{}, seriesColor(0), vg.Points(4)); err != nil {
		return err
	}
	if err := add(c.Published, "Published: "+c.Source, refGlyphs()[0], color.Black, vg.Points(5)); err != nil {
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
