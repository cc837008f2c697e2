package repro

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/policies/sat"
	"github.com/icnsim/icnsim/study"
)

// This file is Izu & Vallejo's SAT paper ("Throughput Fairness in
// Indirect Interconnection Networks"): Figs. 3, 4 and 5.

// izuForms are the SAT paper's forms.
func izuForms() map[string]form {
	return map[string]form{
		study.FormIzuFig3: {draw: func(_ context.Context, in *Inputs, _, _ string) (saver, error) {
			return izuFig3(in.File, in.Points, in.Refs), nil
		},
			caption: func(name, arg string) string {
				return "In the form of Izu & Vallejo's Fig. 3: for each traffic pattern, the spread of the nodes' injection rates at full applied load, each bar running from the lowest to the highest node's rate with a glyph at the average, one bar per routing and injection policy; black crosses are the rates the paper states."
			}},
		study.FormIzuFig4: {draw: func(ctx context.Context, in *Inputs, _, arg string) (saver, error) { return izuFig4(ctx, in, arg) },
			caption: func(name, arg string) string {
				s := "In the form of Izu & Vallejo's Fig. 4: the average and the lowest node injection rate at full applied load against the SAT quota and limit k = l, one line per traffic pattern, a row of panels per routing; black crosses are the rates the paper states."
				if arg != "" {
					s += " The broad pale lines are the rates without SAT, in the colour of their pattern, from the study " + arg + " beside this one."
				}
				return s
			}},
		study.FormIzuFig5: {draw: func(_ context.Context, in *Inputs, _, _ string) (saver, error) {
			return izuFig5(in.File, in.Runs, in.Refs), nil
		},
			caption: func(name, arg string) string {
				return "In the form of Izu & Vallejo's Fig. 5: the injection rate of each node, by node id, at full applied load, one panel per traffic pattern and one line per injection policy; the broad pale lines are the rates the paper states, in the colour of their policy (grey when several policies share one) and labelled with their value."
			}},
	}
}

// izuPolicy names an injection policy as Izu & Vallejo do: no SAT, or SAT
// l12k16 (with its structure when not the ring).
func izuPolicy(v string) string {
	if v == "none" {
		return "no SAT"
	}
	if g, args, err := study.ParseGate(v); err == nil && args {
		if sp, ok := g.(sat.Policy); ok {
			s := fmt.Sprintf("SAT l%dk%d", sp.Params.L, sp.Params.K)
			if sp.Params.Tree {
				s += " (" + sp.Params.Structure() + ")"
			}
			return s
		}
	}
	return v
}

// statOf is the spread statistic a node-rate metric is, in words.
func statOf(metric string) (string, bool) {
	switch metric {
	case "injected_flits_per_node_cycle":
		return "average", true
	case "node_injected_min_flits_per_cycle":
		return "minimum", true
	case "node_injected_max_flits_per_cycle":
		return "maximum", true
	}
	return "", false
}

const nodeRateLabel = "Node injection rate (flits/cycle)"

// izuFig3 is Izu & Vallejo's Fig. 3: per pattern, the range of the node
// injection rates, one bar per combination of the other axes.
func izuFig3(f *study.File, pts []*Point, refs []Ref) *figure.RangeBars {
	rest := f.AxesApart("traffic.pattern")
	b := &figure.RangeBars{Title: title(f, "node injection rate range per pattern (Izu & Vallejo, Fig. 3)", ""),
		XLabel: "Traffic pattern", YLabel: nodeRateLabel, Groups: f.KeyValues("traffic.pattern"), YMin: 0, YMax: 1}
	for _, c := range f.ValueCombos(rest...) {
		var parts []string
		for i, k := range rest {
			parts = append(parts, valueWords(k, c[i]))
		}
		b.Series = append(b.Series, strings.Join(parts, ", "))
	}
	if len(b.Series) == 0 {
		b.Series = []string{f.Name}
	}
	b.Min, b.Mean, b.Max = nanGrid(len(b.Series), len(b.Groups)), nanGrid(len(b.Series), len(b.Groups)), nanGrid(len(b.Series), len(b.Groups))
	at := func(p *study.Point) (g, s int) {
		g = slices.Index(b.Groups, valueAt(f, p, "traffic.pattern"))
		s = 0
		if len(rest) > 0 {
			s = slices.Index(b.Series, restLabel(f, p, rest))
		}
		return g, s
	}
	for _, ps := range pts {
		if ps.N == 0 {
			continue
		}
		g, s := at(ps.Point)
		if g < 0 || s < 0 {
			continue
		}
		b.Min[s][g] = ps.Mean["node_injected_min_flits_per_cycle"]
		b.Mean[s][g] = ps.Mean["injected_flits_per_node_cycle"]
		b.Max[s][g] = ps.Mean["node_injected_max_flits_per_cycle"]
	}
	for _, r := range refs {
		stat, ok := statOf(r.Ref.Metric)
		if !ok || r.Ref.Reduce != "" {
			continue
		}
		if g, s := at(r.Point); g >= 0 && s >= 0 {
			b.Refs = append(b.Refs, figure.BarRef{Group: g, Series: s, Stat: stat, Value: r.Ref.Value, Source: r.Ref.Source})
		}
	}
	b.RefName = "Published (" + sources(refs, "injected_flits_per_node_cycle", "node_injected_min_flits_per_cycle", "node_injected_max_flits_per_cycle") + ")"
	return b
}

// izuFig4 is Izu & Vallejo's Fig. 4: the average and the minimum node rate
// against k = l, one line per pattern, a row of panels per combination of
// the other axes; with baseline, the no-SAT rates of the study directory
// beside this one (dir's sibling) as broad pale lines.
func izuFig4(ctx context.Context, in *Inputs, baseline string) (*figure.PaperGrid, error) {
	f, pts, refs := in.File, in.Points, in.Refs
	rest := f.AxesApart("policy.sat_l", "traffic.pattern")
	xMax := 0.0 // x from 0 to the largest l
	for _, v := range f.KeyValues("policy.sat_l") {
		xMax = max(xMax, atof(v))
	}
	g := &figure.PaperGrid{Title: title(f, "node injection rate against k = l (Izu & Vallejo, Fig. 4)", ""),
		XLabel: "SAT quota and limit k = l", YLabel: nodeRateLabel, Cols: 2, Series: f.KeyValues("traffic.pattern"),
		Points: true, YMin: 0, YMax: 1, XInteger: true, XMin: 0, XMax: xMax, RefName: "Published (" + sources(refs, "injected_flits_per_node_cycle", "node_injected_min_flits_per_cycle") + ")"}
	stats := []struct{ metric, word string }{{"injected_flits_per_node_cycle", "average"}, {"node_injected_min_flits_per_cycle", "minimum"}}
	rows, rowOf := valueRows(f, rest)
	for r, c := range rows {
		for _, st := range stats {
			pn := figure.PaperPanel{Name: panelName(len(g.Panels), st.word, rest, c)}
			for _, pat := range g.Series {
				l := figure.Line{Name: pat}
				for _, ps := range pts {
					if ps.N > 0 && rowOf(ps.Point) == r && valueAt(f, ps.Point, "traffic.pattern") == pat {
						l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.Point, "policy.sat_l")), ps.Mean[st.metric]})
					}
				}
				slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
				pn.Lines = append(pn.Lines, l)
			}
			for _, rr := range refs {
				if rr.Ref.Metric == st.metric && rr.Ref.Reduce == "" && rowOf(rr.Point) == r {
					pn.Refs = append(pn.Refs, figure.Ref{Source: study.PaperOf(rr.Ref.Source), X: atof(valueAt(f, rr.Point, "policy.sat_l")), Y: rr.Ref.Value})
				}
			}
			g.Panels = append(g.Panels, pn)
		}
	}
	if baseline == "" {
		return g, nil
	}
	// The no-SAT rates: the baseline study's points without SAT, on the
	// same network, matched on the pattern and the rows' values.
	bdir := filepath.Join(filepath.Dir(in.Dir), baseline)
	bf, bpts, err := in.Load(ctx, bdir)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		g.Note = fmt.Sprintf("No-SAT rates not drawn: ../%s holds no finished study", baseline)
		return g, nil
	}
	if !bf.Config.Network.Same(f.Config.Network) || slices.ContainsFunc(bf.AxisKeys(), func(k string) bool { return strings.HasPrefix(k, "network.") }) {
		g.Note = fmt.Sprintf("No-SAT rates not drawn: ../%s is of another network", baseline)
		return g, nil
	}
	legend := "no SAT (" + baseline + ")"
	for _, ps := range bpts {
		if ps.N == 0 || valueAt(bf, ps.Point, "policy.injection") != "none" {
			continue
		}
		pat := valueAt(bf, ps.Point, "traffic.pattern")
		if !slices.Contains(g.Series, pat) {
			continue
		}
		r := slices.IndexFunc(rows, func(c []string) bool {
			for i, k := range rest {
				if valueAt(bf, ps.Point, k) != c[i] {
					return false
				}
			}
			return true
		})
		if r < 0 {
			continue
		}
		for k, st := range stats {
			pn := &g.Panels[r*len(stats)+k]
			pn.HLines = append(pn.HLines, figure.RefLine{Value: ps.Mean[st.metric], Series: pat, Legend: legend, Kind: "no SAT"})
		}
	}
	return g, nil
}

// izuFig5 is Izu & Vallejo's Fig. 5: each node's injection rate (replicate
// 0), one panel per pattern (and combination of the other axes), one line
// per policy; the published rates as broad pale lines in their policy's
// colour, labelled with their value.
func izuFig5(f *study.File, recs []*Run, refs []Ref) *figure.PaperGrid {
	panelKeys := f.AxesApart("policy.injection")
	g := &figure.PaperGrid{Title: title(f, "injection rate of each node (Izu & Vallejo, Fig. 5)", ""),
		XLabel: "Node", YLabel: nodeRateLabel, Cols: 1, YMin: 0, YMax: 1, XInteger: true, XStep: 8}
	for _, v := range f.KeyValues("policy.injection") {
		g.Series = append(g.Series, izuPolicy(v))
	}
	var panels []string
	panelOf := func(p *study.Point) int { return slices.Index(panels, restLabel(f, p, panelKeys)) }
	for _, c := range f.ValueCombos(panelKeys...) {
		var parts []string
		for i, k := range panelKeys {
			parts = append(parts, valueWords(k, c[i]))
		}
		panels = append(panels, strings.Join(parts, ", "))
		g.Panels = append(g.Panels, figure.PaperPanel{Name: panelLetter(len(g.Panels)) + " " + strings.Join(parts, ", ")})
	}
	for _, rec := range recs {
		if rec.Replicate != 0 || rec.Result == nil {
			continue
		}
		p := &f.Points[rec.Point]
		i := panelOf(p)
		if i < 0 {
			continue
		}
		l := figure.Line{Name: izuPolicy(valueAt(f, p, "policy.injection"))}
		for n, v := range rec.Result.NodeInjected {
			if !slices.Contains(rec.Result.SilentNodes, n) {
				l.XY = append(l.XY, [2]float64{float64(n), v})
			}
		}
		g.Panels[i].Lines = append(g.Panels[i].Lines, l)
	}
	// The published rates of a panel: one line per value, naming every
	// policy and statistic that has it.
	type pub struct {
		value    float64
		policies []string
		stats    []string
	}
	byPanel := make([][]*pub, len(g.Panels))
	for _, r := range refs {
		stat, ok := statOf(r.Ref.Metric)
		if !ok || r.Ref.Reduce != "" {
			continue
		}
		i := panelOf(r.Point)
		if i < 0 {
			continue
		}
		pol := izuPolicy(valueAt(f, r.Point, "policy.injection"))
		k := slices.IndexFunc(byPanel[i], func(p *pub) bool { return p.value == r.Ref.Value })
		if k < 0 {
			byPanel[i] = append(byPanel[i], &pub{value: r.Ref.Value})
			k = len(byPanel[i]) - 1
		}
		p := byPanel[i][k]
		if !slices.Contains(p.policies, pol) {
			p.policies = append(p.policies, pol)
		}
		if !slices.Contains(p.stats, stat) {
			p.stats = append(p.stats, stat)
		}
	}
	for i, ps := range byPanel {
		for _, p := range ps {
			series := p.policies[0]
			if len(p.policies) > 1 {
				series = ""
			}
			what := strings.Join(p.stats, ", ")
			if len(p.stats) == 3 {
				what = "every node"
			}
			label := strconv.FormatFloat(p.value, 'g', -1, 64)
			g.Panels[i].HLines = append(g.Panels[i].HLines, figure.RefLine{Value: p.value, Series: series, Label: label, Kind: "published " + what,
				Legend: fmt.Sprintf("Published: %s, %s %s", strings.Join(p.policies, " & "), what, label)})
		}
	}
	return g
}
