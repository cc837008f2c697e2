package runner

import (
	"context"
	"math"
	"path/filepath"
	"slices"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/study"
)

// linkFigures draws the link statistics (measure.link_stats) of the
// points' first replicates: links-by-class, per link class a bar from the
// least to the busiest link's utilisation with a glyph at the mean, one
// bar per point, and a cross at the channel-load bound's busiest link;
// and on a mesh or torus links-map, each router's busiest output channel
// as colours over the grid, one panel per point (at most maxPanels).
func linkFigures(ctx context.Context, f *study.File, first []*Record, pdir string) error {
	var recs []*Record
	for _, r := range first {
		if r.Result.Links != nil {
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	bars := &figure.RangeBars{Title: title(f, "link utilisation by class (replicate 0)", ""), XLabel: "Link class", YLabel: "Utilisation (flits/cycle)",
		RefName: "Channel-load bound, busiest link", YMin: 0, YMax: 1}
	for _, rec := range recs {
		for _, c := range rec.Result.Links.Classes() {
			if !slices.Contains(bars.Groups, c.Class) {
				bars.Groups = append(bars.Groups, c.Class)
			}
		}
	}
	for s, rec := range recs {
		name := pointWords(&f.Points[rec.Point], f.AxisKeys())
		if name == "" {
			name = f.Name
		}
		bars.Series = append(bars.Series, name)
		lo, mean, hi := nanRow(len(bars.Groups)), nanRow(len(bars.Groups)), nanRow(len(bars.Groups))
		for _, c := range rec.Result.Links.Classes() {
			g := slices.Index(bars.Groups, c.Class)
			mean[g], hi[g] = c.MeanFlitsPerCycle, c.MaxFlitsPerCycle
			if !math.IsNaN(c.BoundMaxFlitsPerCycle) {
				bars.Refs = append(bars.Refs, figure.BarRef{Group: g, Series: s, Stat: "maximum", Value: c.BoundMaxFlitsPerCycle, Source: "channel-load bound"})
			}
		}
		for _, l := range rec.Result.Links.Links {
			g := slices.Index(bars.Groups, l.Class)
			if math.IsNaN(lo[g]) || l.FlitsPerCycle < lo[g] {
				lo[g] = l.FlitsPerCycle
			}
		}
		bars.Min, bars.Mean, bars.Max = append(bars.Min, lo), append(bars.Mean, mean), append(bars.Max, hi)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := bars.Save(filepath.Join(pdir, "links-by-class"), plotOutput(f)); err != nil {
		return err
	}
	// The grid map: each router's busiest output channel to another router.
	var panels []figure.Panel
	for _, rec := range recs {
		side, _, ok := f.Points[rec.Point].Config.Network.Grid()
		if !ok || len(panels) == maxPanels {
			continue
		}
		z := make([][]float64, side)
		for y := range z {
			z[y] = nanRow(side)
		}
		for _, l := range rec.Result.Links.Links {
			if l.Class == "ejection" {
				continue
			}
			x, y := l.Router%side, l.Router/side
			if math.IsNaN(z[y][x]) || l.FlitsPerCycle > z[y][x] {
				z[y][x] = l.FlitsPerCycle
			}
		}
		name := pointWords(&f.Points[rec.Point], f.AxisKeys())
		if name == "" {
			name = f.Name
		}
		panels = append(panels, figure.Panel{Name: name, Z: z})
	}
	if len(panels) == 0 {
		return nil
	}
	return (&figure.NodeMap{Title: title(f, "busiest output channel of each router (replicate 0)", ""), Label: "Utilisation (flits/cycle)",
		Panels: panels, Scale: figure.ScaleMode(f.Plot.NodeScale)}).Save(filepath.Join(pdir, "links-map"), plotOutput(f))
}

// nanRow is n NaNs.
func nanRow(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = math.NaN()
	}
	return out
}
