package runner

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// maxPanels is the most points one per-node topology figure shows (three
// columns of three: with a colour bar each, a fourth column leaves the
// cells too small); more are split evenly over several figures (-2, -3,
// ...).
const maxPanels = 9

// nodeValues is one per-node quantity the topology figures draw.
type nodeValues struct {
	file, what, label string
	get               func(*report.Result) []float64
}

func nodeQuantities() []nodeValues {
	return []nodeValues{
		{"node-throughput-map", "accepted throughput per node", "Accepted throughput (flits/cycle)", func(r *report.Result) []float64 { return r.NodeAccepted }},
		{"node-injected-map", "injected throughput per node", "Injected throughput (flits/cycle)", func(r *report.Result) []float64 {
			if r.NodeViews != nil {
				return r.NodeViews.InjectedFlitsPerCycle
			}
			return r.NodeInjected // the packet-batches method's, in records from before NodeViews
		}},
		{"node-latency-map", "mean latency of packets delivered to each node (grey: none delivered)", "Mean packet latency (cycles)", func(r *report.Result) []float64 {
			if r.NodeViews == nil {
				return nil
			}
			// 0: no measured packet arrived there (a latency is >= 1 cycle);
			// NaN leaves the cell blank rather than coloured as fast.
			out := slices.Clone(r.NodeViews.LatencyMeanCycles)
			for i, v := range out {
				if v == 0 {
					out[i] = math.NaN()
				}
			}
			return out
		}},
	}
}

// topologyFigures draws the per-node figures by topology (plot.node_figures
// "topology" or "both"): on a mesh or torus a heatmap over the (x, y) grid
// of routers (with concentration, the mean of a router's nodes), one panel
// per point on one colour scale or on one each (plot.node_scale; see
// figure.NodeMap); on a fat-tree bars by node id grouped by leaf switch,
// one panel per point on one y scale. With plot.lines, one figure per value
// of the other axes (as the line form); points whose network is not of the
// first's kind (grid, or fat-tree of its arity) are left out of a figure's
// panels. A panel is titled by its values alone ("transpose, 0.3"), the
// figure's title naming the axes they are of in words ("panels by traffic
// pattern, offered load"): "key=value" pairs ran into each other.
func topologyFigures(ctx context.Context, f *study.File, first []*Record, pdir string) error {
	var rest []string
	panelKeys := f.AxisKeys()
	if f.Plot.Lines != "" {
		rest = without(f.AxisKeys(), []string{f.Plot.Lines})
		panelKeys = []string{f.Plot.Lines}
	}
	what := func(q nodeValues, net study.Network) string {
		w := q.what + " (replicate 0)"
		if net.NodesPerLeaf() > 0 {
			w = strings.Replace(w, "grey:", "no bar:", 1) // NaN: a bar left out
		}
		if len(panelKeys) > 0 {
			var short []string
			for _, k := range panelKeys {
				short = append(short, lowerFirst(study.NoUnit(study.KeyLabel(k))))
			}
			w += ", panels by " + strings.Join(short, ", ")
		}
		return w
	}
	var labels []string
	groups := map[string][]*Record{}
	for _, rec := range first {
		label := strings.Join(pointValues(&f.Points[rec.Point], rest), ", ")
		if _, ok := groups[label]; !ok {
			labels = append(labels, label)
		}
		groups[label] = append(groups[label], rec)
	}
	for _, q := range nodeQuantities() {
		for _, label := range labels {
			recs := groups[label]
			// One figure holds grids (meshes and tori of any size, one
			// panel each) or fat-trees of one arity (the bars' groups).
			net := f.Points[recs[0].Point].Config.Network
			_, _, netGrid := net.Grid()
			concentrated := false
			recs = slices.DeleteFunc(slices.Clone(recs), func(r *Record) bool {
				n := f.Points[r.Point].Config.Network
				_, c, isGrid := n.Grid()
				kin := isGrid && netGrid || !isGrid && !netGrid && n.NodesPerLeaf() > 0 && n.NodesPerLeaf() == net.NodesPerLeaf()
				concentrated = concentrated || kin && c > 1
				return !kin || len(q.get(r.Result)) != f.Points[r.Point].Config.Nodes()
			})
			parts := (len(recs) + maxPanels - 1) / maxPanels
			for part := range parts {
				chunk := recs[part*len(recs)/parts : (part+1)*len(recs)/parts]
				var panels []figure.Panel
				for _, rec := range chunk {
					p := &f.Points[rec.Point]
					name := pointWords(p, panelKeys)
					z := layout(p.Config.Network, blankSilent(rec.Result, q.get(rec.Result)))
					if !slices.ContainsFunc(z, func(row []float64) bool {
						return slices.ContainsFunc(row, func(v float64) bool { return !math.IsNaN(v) })
					}) {
						continue // no value at all (say, no packet arrived anywhere)
					}
					panels = append(panels, figure.Panel{Name: name, Z: z})
				}
				if len(panels) == 0 {
					continue
				}
				file := fileName(q.file, label)
				if part > 0 {
					file += fmt.Sprintf("-%d", part+1)
				}
				title := title(f, what(q, net), label)
				if err := ctx.Err(); err != nil {
					return err
				}
				var err error
				switch {
				case netGrid:
					l := q.label
					if concentrated {
						l = strings.Replace(l, "(", "(mean of a router's nodes, ", 1)
					}
					err = (&figure.NodeMap{Title: title, Label: l, Panels: panels, Scale: figure.ScaleMode(f.Plot.NodeScale)}).Save(filepath.Join(pdir, file), plotOutput(f))
				case net.NodesPerLeaf() > 0:
					file = strings.Replace(file, "-map", "-by-leaf", 1)
					err = (&figure.LeafBars{Title: title, YLabel: q.label, Group: net.NodesPerLeaf(), Panels: panels}).Save(filepath.Join(pdir, file), plotOutput(f))
				}
				if err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// blankSilent returns vals with the entries of the nodes that never send
// (Result.SilentNodes, traffic.self = "skip") set to NaN, so that figures
// leave them blank rather than drawing them as zeros.
func blankSilent(r *report.Result, vals []float64) []float64 {
	if len(r.SilentNodes) == 0 || vals == nil {
		return vals
	}
	out := slices.Clone(vals)
	for _, n := range r.SilentNodes {
		if n < len(out) {
			out[n] = math.NaN()
		}
	}
	return out
}

// layout arranges per-node values for the network's figure: Z[y][x] over
// the routers of a mesh or torus (the mean of a router's nodes), one row
// by node id on a fat-tree.
func layout(net study.Network, vals []float64) [][]float64 {
	k, c, ok := net.Grid()
	if !ok {
		return [][]float64{vals}
	}
	c = max(c, 1)
	z := make([][]float64, k)
	for y := range z {
		z[y] = make([]float64, k)
		for x := range z[y] {
			r := y*k + x // grid.Grid2D.Router(x, y); node n hangs from router n / c
			// The mean of the router's nodes that have a value (NaN:
			// none has).
			sum, n := 0.0, 0
			for j := 0; j < c; j++ {
				if v := vals[r*c+j]; !math.IsNaN(v) {
					sum, n = sum+v, n+1
				}
			}
			z[y][x] = math.NaN()
			if n > 0 {
				z[y][x] = sum / float64(n)
			}
		}
	}
	return z
}
