package repro

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/policies/entropy"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// This file is Yokota et al.'s entropy-throttling paper: Table 2.

// entropyForms are the entropy paper's forms.
func entropyForms() map[string]form {
	return map[string]form{
		study.FormEntropyTable: {draw: func(_ context.Context, in *Inputs, _, _ string) (saver, error) {
			return entropyTable2(in.File, in.Points, in.Refs), nil
		},
			caption: func(name, arg string) string {
				return "In the form of Yokota et al.'s Table 2: the collective duration under gt.a (random guard time) for each traffic pattern, named as in the paper, and each guard time t_G, our mean (solid bar, with ± 1 standard deviation over the replicates) beside the paper's (tinted bar with a black edge)."
			}},
	}
}

// entropyPattern is the name of a traffic pattern in the entropy papers'
// tables.
func entropyPattern(p string) string {
	if w, ok := map[string]string{"transpose": "trns", "shuffle": "shfl", "bit-complement": "bcmp", "bit-reverse": "brev", "bit-rotation": "brot",
		"tornado": "torn", "uniform": "rand", "random-pair": "rpar"}[p]; ok {
		return w
	}
	return p
}

// entropyTable2 is Yokota et al.'s Table 2: per pattern (row) and gt.a
// guard time (column), our mean collective duration with ± 1 standard
// deviation beside the published one.
func entropyTable2(f *study.File, pts []*Point, refs []Ref) *figure.PairedBars {
	const metric = "collective_duration_cycles"
	b := &figure.PairedBars{Title: title(f, "collective duration under gt.a (Yokota et al. 2016, Table 2)", ""),
		XLabel: "Traffic pattern (the paper's names)", YLabel: report.Label(metric), Source: sources(refs, metric)}
	if b.Source == "" {
		b.Source = "published"
	}
	patterns := f.KeyValues("traffic.pattern")
	for _, p := range patterns {
		b.Groups = append(b.Groups, entropyPattern(p))
	}
	var gta []string // the gt.a models, by series
	for _, v := range f.KeyValues("policy.injection") {
		g, args, err := study.ParseGate(v)
		if ep, ok := g.(entropy.Policy); err == nil && args && ok && ep.Params.Model == entropy.GuardRandom {
			gta = append(gta, v)
			b.Series = append(b.Series, "t_G = "+strconv.Itoa(ep.Params.GuardCycles))
		}
	}
	ns, ng := len(b.Series), len(b.Groups)
	b.Ours, b.Published = nanGrid(ns, ng), nanGrid(ns, ng)
	if f.Study.Replicates > 1 {
		b.Lo, b.Hi = nanGrid(ns, ng), nanGrid(ns, ng)
		b.IntervalName = fmt.Sprintf("± 1 std. dev. of %d replicates", f.Study.Replicates)
	}
	at := func(p *study.Point) (s, g int) {
		return slices.Index(gta, valueAt(f, p, "policy.injection")), slices.Index(patterns, valueAt(f, p, "traffic.pattern"))
	}
	for _, ps := range pts {
		s, g := at(ps.Point)
		if s < 0 || g < 0 || ps.N == 0 {
			continue
		}
		m := ps.Mean[metric]
		b.Ours[s][g] = m
		if b.Lo != nil && ps.N > 1 {
			b.Lo[s][g], b.Hi[s][g] = m-ps.Std[metric], m+ps.Std[metric]
		}
	}
	for _, r := range refs {
		if r.Ref.Metric != metric || r.Ref.Reduce != "" {
			continue
		}
		if s, g := at(r.Point); s >= 0 && g >= 0 {
			b.Published[s][g] = r.Ref.Value
		}
	}
	return b
}
