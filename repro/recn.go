package repro

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/study"
)

// This file is García et al.'s RECN paper ("Efficient, Scalable
// Congestion Management for Interconnection Networks"): Figs. 1, 2 and 3.

// recnForms are the RECN paper's forms.
func recnForms() map[string]form {
	loadFig := func(_ context.Context, in *Inputs, name, _ string) (saver, error) {
		return recnLoadFig(in.File, in.Points, in.Refs, name), nil
	}
	loadCaption := func(name, _ string) string {
		n := paperFigureNumber(name)
		return "In the form of García et al.'s Fig. " + n + ": relative throughput in percent of the maximum (twice the bisection bandwidth) against the offered load in percent of the same, one panel per network configuration (columns) and traffic case (rows), lettered as the paper's panels, one line per queue organisation; black crosses are the values the paper states."
	}
	return map[string]form{
		study.FormRECNFig1: {draw: loadFig, caption: loadCaption},
		study.FormRECNFig2: {draw: loadFig, caption: loadCaption},
		study.FormRECNFig3: {draw: func(_ context.Context, in *Inputs, _, _ string) (saver, error) {
			return recnFig3(in.File, in.Points, in.Refs), nil
		},
			caption: func(name, arg string) string {
				return "In the form of García et al.'s Fig. 3: the most set-aside queues (SAQs) in use at once in any one ingress port and in any one egress port over the run, against the offered load under traffic case #3, one line per network configuration; the broad grey line is the limit of SAQs per port and black crosses are the paper's stated maximum."
			}},
	}
}

// recnConfig and recnCase are the RECN paper's configuration and traffic
// case of a point (0: none of the paper's).
func recnConfig(f *study.File, p *study.Point) int {
	k, _ := strconv.Atoi(valueAt(f, p, "network.mesh.k"))
	c, _ := strconv.Atoi(valueAt(f, p, "network.mesh.concentration"))
	return study.RECNConfiguration(k, c)
}

func recnCase(f *study.File, p *study.Point) int {
	return study.RECNCase(atof(valueAt(f, p, "traffic.hotspot_source_fraction")))
}

// recnConfigWords describes configuration n as the paper does; short, its
// mesh alone.
func recnConfigWords(n int, short bool) string {
	if short {
		return map[int]string{1: "16x16", 2: "8x8", 3: "4x4", 4: "8x8", 5: "4x4"}[n]
	}
	return map[int]string{1: "16x16, 1 endnode per switch", 2: "8x8, 4 per switch", 3: "4x4, 16 per switch", 4: "8x8, 1 per switch", 5: "4x4, 1 per switch"}[n]
}

// recnNote says what the configurations and traffic cases of a RECN
// figure are: its panels name them by number.
func recnNote(configs, cases []int) string {
	var cs, ts []string
	for _, c := range configs {
		cs = append(cs, fmt.Sprintf("#%d %s", c, recnConfigWords(c, false)))
	}
	for _, c := range cases {
		ts = append(ts, fmt.Sprintf("#%d %s", c, map[int]string{1: "uniform", 2: "12.5% of the sources to the hot spot", 3: "25% to the hot spot"}[c]))
	}
	note := "Configurations: " + strings.Join(cs, "; ")
	if len(ts) > 0 {
		note += "\nTraffic cases: " + strings.Join(ts, "; ")
	}
	return note
}

// loadPercent is the offered load at p on x: in percent of the maximum
// when it is a share of the bisection, else as it is, with its label.
func loadPercent(f *study.File) (key, label string, scale float64) {
	key = study.LoadAxes(f.AxisKeys())[0]
	if key == "traffic.load_of_bisection" {
		return key, "Offered load (% of 2 x bisection bandwidth)", 100
	}
	return key, study.KeyLabel(key), 1
}

// recnLoadFig is García et al.'s Fig. 1 or 2: relative throughput in
// percent against offered load, the configurations in columns and the
// traffic cases in rows, lettered as the paper's panels, one line per
// queue organisation.
func recnLoadFig(f *study.File, pts []*Point, refs []Ref, form string) *figure.PaperGrid {
	columns := []int{1, 2, 3}
	if form == study.FormRECNFig2 {
		columns = []int{1, 4, 5}
	}
	loadKey, xLabel, xScale := loadPercent(f)
	n := paperFigureNumber(form)
	g := &figure.PaperGrid{Title: title(f, "relative throughput (García et al., Fig. "+n+")", ""),
		XLabel: xLabel, YLabel: "Relative throughput (%)", Points: true, YMin: 0, YMax: 100,
		RefName: "Published (" + sources(refs, "relative_throughput") + ")"}
	if xScale == 100 {
		g.XMin, g.XMax = 0, 100 // percent; another load unit: its data's range
	}
	for _, v := range f.KeyValues("router.ioq.queues") {
		g.Series = append(g.Series, valueWords("router.ioq.queues", v))
	}
	// The study's configurations (in the figure's order) and cases.
	var cols, cases []int
	for _, ps := range pts {
		if c := recnConfig(f, ps.Point); !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		if c := recnCase(f, ps.Point); !slices.Contains(cases, c) {
			cases = append(cases, c)
		}
	}
	slices.SortFunc(cols, func(a, b int) int { return cmp.Compare(slices.Index(columns, a), slices.Index(columns, b)) })
	slices.Sort(cases)
	g.Cols = len(cols)
	panel := func(p *study.Point) int {
		return slices.Index(cases, recnCase(f, p))*len(cols) + slices.Index(cols, recnConfig(f, p))
	}
	for _, tc := range cases {
		for _, c := range cols {
			letter := panelLetter((tc-1)*len(columns) + slices.Index(columns, c))
			g.Panels = append(g.Panels, figure.PaperPanel{Name: fmt.Sprintf("%s #%d, case #%d", letter, c, tc)})
		}
	}
	g.Note = recnNote(cols, cases)
	for i := range g.Panels {
		for _, q := range f.KeyValues("router.ioq.queues") {
			l := figure.Line{Name: valueWords("router.ioq.queues", q)}
			for _, ps := range pts {
				if ps.N > 0 && panel(ps.Point) == i && valueAt(f, ps.Point, "router.ioq.queues") == q {
					l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.Point, loadKey)) * xScale, ps.Mean["relative_throughput"] * 100})
				}
			}
			slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
			g.Panels[i].Lines = append(g.Panels[i].Lines, l)
		}
	}
	for _, r := range refs {
		if r.Ref.Metric == "relative_throughput" && r.Ref.Reduce == "" {
			i := panel(r.Point)
			g.Panels[i].Refs = append(g.Panels[i].Refs, figure.Ref{Source: study.PaperOf(r.Ref.Source), X: atof(valueAt(f, r.Point, loadKey)) * xScale, Y: r.Ref.Value * 100})
		}
	}
	return g
}

// recnFig3 is García et al.'s Fig. 3: the most SAQs in use in one ingress
// and one egress port over the run against offered load, one line per
// configuration, a row of the two panels per combination of the other
// axes; the SAQs per port as a broad grey limit line.
func recnFig3(f *study.File, pts []*Point, refs []Ref) *figure.PaperGrid {
	loadKey, xLabel, xScale := loadPercent(f)
	rest := f.AxesApart("network.mesh.k", "network.mesh.concentration", loadKey)
	g := &figure.PaperGrid{Title: title(f, "most SAQs in use in one port (García et al., Fig. 3)", ""),
		XLabel: xLabel, YLabel: "Most SAQs in use in one port", Cols: 2, Points: true, YInteger: true,
		RefName: "Published: at most 8 (" + sources(refs, "saqs_max_per_port_ingress_run", "saqs_max_per_port_egress_run") + ")"}
	if xScale == 100 {
		g.XMin, g.XMax = 0, 100
	}
	var configs []int
	for _, ps := range pts {
		if c := recnConfig(f, ps.Point); !slices.Contains(configs, c) {
			configs = append(configs, c)
		}
	}
	slices.SortFunc(configs, func(a, b int) int {
		order := []int{1, 4, 5, 2, 3}
		return cmp.Compare(slices.Index(order, a), slices.Index(order, b))
	})
	for _, c := range configs {
		g.Series = append(g.Series, fmt.Sprintf("configuration #%d (%s)", c, recnConfigWords(c, true)))
	}
	rows, rowOf := valueRows(f, rest)
	sides := []struct{ metric, word string }{{"saqs_max_per_port_ingress_run", "ingress"}, {"saqs_max_per_port_egress_run", "egress"}}
	limit := math.NaN()
	if vs := f.KeyValues("router.ioq.recn.saqs"); len(vs) == 1 {
		limit = atof(vs[0])
	}
	for r, c := range rows {
		for _, side := range sides {
			pn := figure.PaperPanel{Name: panelName(len(g.Panels), side.word, rest, c)}
			for k, conf := range configs {
				l := figure.Line{Name: g.Series[k]}
				for _, ps := range pts {
					if ps.N > 0 && rowOf(ps.Point) == r && recnConfig(f, ps.Point) == conf {
						l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.Point, loadKey)) * xScale, ps.Mean[side.metric]})
					}
				}
				slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
				pn.Lines = append(pn.Lines, l)
			}
			if !math.IsNaN(limit) {
				pn.HLines = append(pn.HLines, figure.RefLine{Value: limit, Label: fmt.Sprintf("%g SAQs per port", limit), Legend: "SAQs per port (router.ioq.recn.saqs)", Kind: "limit"})
			}
			for _, rr := range refs {
				if rr.Ref.Metric == side.metric && rr.Ref.Reduce == "" && rowOf(rr.Point) == r {
					pn.Refs = append(pn.Refs, figure.Ref{Source: study.PaperOf(rr.Ref.Source), X: atof(valueAt(f, rr.Point, loadKey)) * xScale, Y: rr.Ref.Value})
				}
			}
			g.Panels = append(g.Panels, pn)
		}
	}
	return g
}
