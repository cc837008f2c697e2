package repro

import (
	"context"
	"slices"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/study"
)

// This file is Liu's Hybrid-HAR paper: Figs. 6 and 9.

// harForms are the Hybrid-HAR paper's forms.
func harForms() map[string]form {
	fig := form{draw: func(_ context.Context, in *Inputs, _, _ string) (saver, error) {
		return harFig(in.File, in.Runs, in.Refs), nil
	},
		caption: func(name, _ string) string {
			n := paperFigureNumber(name)
			return "In the form of Liu's Fig. " + n + ": the distribution of short-message latency (the share of short messages delivered within a latency) on a logarithmic latency axis, (a) dimension-order routing and (b) Hybrid-HAR, one line per share of long messages; the broad pale vertical lines are the largest delays the paper states, in the colour of their mix (grey when several mixes share one) and labelled with their value."
		}}
	return map[string]form{study.FormHARFig6: fig, study.FormHARFig9: fig}
}

// harFig is Liu's Fig. 6 or 9: the short-message latency distribution
// (replicate 0) on a log axis, one panel per routing, one line per mix;
// the published largest delays as labelled vertical lines.
func harFig(f *study.File, recs []*Run, refs []Ref) *figure.PaperGrid {
	panelKeys := f.AxesApart("traffic.long_volume_percent")
	form, _ := study.SplitPaperForm(f.Plot.PaperForm)
	g := &figure.PaperGrid{Title: title(f, "short-message latency distribution (Liu, Fig. "+paperFigureNumber(form)+")", ""),
		XLabel: "Short-message latency (cycles)", YLabel: "Share of short messages at or below", XLog: true, YMin: 0, YMax: 1, Cols: 2}
	if len(panelKeys) == 0 {
		g.Cols = 1
	}
	for _, v := range f.KeyValues("traffic.long_volume_percent") {
		g.Series = append(g.Series, valueWords("traffic.long_volume_percent", v))
	}
	var panels []string
	for _, c := range f.ValueCombos(panelKeys...) {
		var parts []string
		for i, k := range panelKeys {
			parts = append(parts, valueWords(k, c[i]))
		}
		panels = append(panels, strings.Join(parts, ", "))
		name := strings.TrimSpace(panelLetter(len(g.Panels)) + " " + strings.Join(parts, ", "))
		g.Panels = append(g.Panels, figure.PaperPanel{Name: name})
	}
	panelOf := func(p *study.Point) int { return slices.Index(panels, restLabel(f, p, panelKeys)) }
	for _, rec := range recs {
		if rec.Replicate != 0 || rec.Result == nil || len(rec.Result.ClassLatencyCDF) == 0 {
			continue
		}
		p := &f.Points[rec.Point]
		if i := panelOf(p); i >= 0 {
			g.Panels[i].Lines = append(g.Panels[i].Lines, figure.Line{Name: valueWords("traffic.long_volume_percent", valueAt(f, p, "traffic.long_volume_percent")), XY: rec.Result.ClassLatencyCDF[0]})
		}
	}
	// The published largest delays of a panel: one line per value, in
	// the colour of its mix (black when several mixes have it).
	legend := "Published largest delay (" + sources(refs, "short_latency_max_cycles") + "), in its mix's colour"
	mixes := f.KeyValues("traffic.long_volume_percent")
	for i := range g.Panels {
		var values []float64
		at := map[float64][]string{}
		for _, r := range refs {
			if r.Ref.Metric != "short_latency_max_cycles" || r.Ref.Reduce != "" || panelOf(r.Point) != i {
				continue
			}
			if !slices.Contains(values, r.Ref.Value) {
				values = append(values, r.Ref.Value)
			}
			at[r.Ref.Value] = append(at[r.Ref.Value], valueAt(f, r.Point, "traffic.long_volume_percent"))
		}
		for _, v := range values {
			ms := at[v]
			rl := figure.RefLine{Value: v, Label: figure.Thousands(v), Legend: legend, Kind: "published largest delay"}
			switch {
			case len(ms) == 1:
				rl.Series = valueWords("traffic.long_volume_percent", ms[0])
			case len(ms) == len(mixes) && len(mixes) > 1:
				rl.Label += " (every mix)"
			default:
				rl.Label += " (P = " + strings.Join(ms, "%, ") + "%)"
			}
			g.Panels[i].VLines = append(g.Panels[i].VLines, rl)
		}
	}
	return g
}
