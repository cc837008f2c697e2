package runner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/policies/entropy"
	"github.com/icnsim/icnsim/policies/sat"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// paperFigures draws the study's plot.paper_form, the reproduced figure in
// its paper's own form, beside the generic figures: plots/paper-FORM.*
// (see study.PaperForms). The study's check has made sure that it has the
// axes the form needs. recs are every run; per-point figures read
// replicate 0.
func paperFigures(ctx context.Context, f *study.File, pts []*pointStats, recs []*Record, pdir string, out figure.Output) error {
	form, arg := study.SplitPaperForm(f.Plot.PaperForm)
	if form == "" {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	base := filepath.Join(pdir, paperFile(form))
	refs := refRows(f, pts)
	switch form {
	case study.FormIzuFig3:
		return izuFig3(f, pts, refs).Save(base, out)
	case study.FormIzuFig4:
		g, err := izuFig4(ctx, f, pts, refs, filepath.Dir(pdir), arg)
		if err != nil {
			return err
		}
		return g.Save(base, out)
	case study.FormIzuFig5:
		return izuFig5(f, recs, refs).Save(base, out)
	case study.FormRECNFig1, study.FormRECNFig2:
		return recnLoadFig(f, pts, refs, form).Save(base, out)
	case study.FormRECNFig3:
		return recnFig3(f, pts, refs).Save(base, out)
	case study.FormHARFig6, study.FormHARFig9:
		return harFig(f, recs, refs).Save(base, out)
	case study.FormEntropyTable:
		return entropyTable2(f, pts, refs).Save(base, out)
	}
	return fmt.Errorf("plot.paper_form = %q: no such form", f.Plot.PaperForm)
}

// paperFile is the file name (without extension) of a form's figure: the
// report lists the paper- figures first.
func paperFile(form string) string { return "paper-" + form }

// paperCaption is the caption of the paper-form figure file name (without
// extension) that the study's plot.paper_form writes, a full sentence in
// words; false for any other name.
func paperCaption(f *study.File, name string) (string, bool) {
	form, arg := study.SplitPaperForm(f.Plot.PaperForm)
	if form == "" || strings.TrimSuffix(name, filepath.Ext(name)) != paperFile(form) {
		return "", false
	}
	switch form {
	case study.FormIzuFig3:
		return "In the form of Izu & Vallejo's Fig. 3: for each traffic pattern, the spread of the nodes' injection rates at full applied load, each bar running from the lowest to the highest node's rate with a glyph at the average, one bar per routing and injection policy; black crosses are the rates the paper states.", true
	case study.FormIzuFig4:
		s := "In the form of Izu & Vallejo's Fig. 4: the average and the lowest node injection rate at full applied load against the SAT quota and limit k = l, one line per traffic pattern, a row of panels per routing; black crosses are the rates the paper states."
		if arg != "" {
			s += " The broad pale lines are the rates without SAT, in the colour of their pattern, from the study " + arg + " beside this one."
		}
		return s, true
	case study.FormIzuFig5:
		return "In the form of Izu & Vallejo's Fig. 5: the injection rate of each node, by node id, at full applied load, one panel per traffic pattern and one line per injection policy; the broad pale lines are the rates the paper states, in the colour of their policy (grey when several policies share one) and labelled with their value.", true
	case study.FormRECNFig1, study.FormRECNFig2:
		n := paperFigureNumber(form)
		return "In the form of García et al.'s Fig. " + n + ": relative throughput in percent of the maximum (twice the bisection bandwidth) against the offered load in percent of the same, one panel per network configuration (columns) and traffic case (rows), lettered as the paper's panels, one line per queue organisation; black crosses are the values the paper states.", true
	case study.FormRECNFig3:
		return "In the form of García et al.'s Fig. 3: the most set-aside queues (SAQs) in use at once in any one ingress port and in any one egress port over the run, against the offered load under traffic case #3, one line per network configuration; the broad grey line is the limit of SAQs per port and black crosses are the paper's stated maximum.", true
	case study.FormHARFig6, study.FormHARFig9:
		n := paperFigureNumber(form)
		return "In the form of Liu's Fig. " + n + ": the distribution of short-message latency (the share of short messages delivered within a latency) on a logarithmic latency axis, (a) dimension-order routing and (b) Hybrid-HAR, one line per share of long messages; the broad pale vertical lines are the largest delays the paper states, in the colour of their mix (grey when several mixes share one) and labelled with their value.", true
	case study.FormEntropyTable:
		return "In the form of Yokota et al.'s Table 2: the collective duration under gt.a (random guard time) for each traffic pattern, named as in the paper, and each guard time t_G, our mean (solid bar, with ± 1 standard deviation over the replicates) beside the paper's (tinted bar with a black edge).", true
	}
	return "", false
}

// valueAt is key's value at p: its axis value, or the study's fixed one.
func valueAt(f *study.File, p *study.Point, key string) string {
	if v, ok := p.Value(key); ok {
		return v
	}
	if vs := f.KeyValues(key); len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// atof reads a formatted number (NaN if it is none).
func atof(s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return x
}

// panelLetter is "(a)", "(b)", ... for panel i.
func panelLetter(i int) string {
	if i < 0 || i >= 26 {
		return fmt.Sprintf("(%d)", i+1)
	}
	return "(" + string(rune('a'+i)) + ")"
}

// restLabel is a point's values on keys, in words: "static, sat_k=4".
func restLabel(f *study.File, p *study.Point, keys []string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, valueWords(k, valueAt(f, p, k)))
	}
	return strings.Join(parts, ", ")
}

// valueWords is an axis value as the papers name it (routing, injection
// policy, queue organisation, message mix), else "key=value".
func valueWords(key, v string) string {
	switch key {
	case "router.routing":
		if l := study.Routings()[v].Label; l != "" {
			return l
		}
	case "policy.injection":
		return izuPolicy(v)
	case "router.ioq.queues":
		if w, ok := map[string]string{"1q": "1Q", "voq-sw": "VOQsw", "voq-net": "VOQnet", "recn": "RECN"}[v]; ok {
			return w
		}
	case "traffic.long_volume_percent":
		return "P = " + v + "%"
	case "traffic.pattern":
		return v
	case "router.ioq.recn.xoff_scope":
		return "Xoff scope " + v
	}
	return study.ShortKey(key) + "=" + v
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

// sources are the papers of the published values of metrics, joined.
func sources(refs []refRow, metrics ...string) string {
	var out []string
	for _, r := range refs {
		if slices.Contains(metrics, r.ref.Metric) && !slices.Contains(out, paperOf(r.ref.Source)) {
			out = append(out, paperOf(r.ref.Source))
		}
	}
	return strings.Join(out, "; ")
}

// nanGrid is rows x cols of NaN.
func nanGrid(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
		for j := range g[i] {
			g[i][j] = math.NaN()
		}
	}
	return g
}

const nodeRateLabel = "Node injection rate (flits/cycle)"

// izuFig3 is Izu & Vallejo's Fig. 3: per pattern, the range of the node
// injection rates, one bar per combination of the other axes.
func izuFig3(f *study.File, pts []*pointStats, refs []refRow) *figure.RangeBars {
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
		if ps.n == 0 {
			continue
		}
		g, s := at(ps.point)
		if g < 0 || s < 0 {
			continue
		}
		b.Min[s][g] = ps.mean["node_injected_min_flits_per_cycle"]
		b.Mean[s][g] = ps.mean["injected_flits_per_node_cycle"]
		b.Max[s][g] = ps.mean["node_injected_max_flits_per_cycle"]
	}
	for _, r := range refs {
		stat, ok := statOf(r.ref.Metric)
		if !ok || r.ref.Reduce != "" {
			continue
		}
		if g, s := at(r.point); g >= 0 && s >= 0 {
			b.Refs = append(b.Refs, figure.BarRef{Group: g, Series: s, Stat: stat, Value: r.ref.Value, Source: r.ref.Source})
		}
	}
	b.RefName = "Published (" + sources(refs, "injected_flits_per_node_cycle", "node_injected_min_flits_per_cycle", "node_injected_max_flits_per_cycle") + ")"
	return b
}

// izuFig4 is Izu & Vallejo's Fig. 4: the average and the minimum node rate
// against k = l, one line per pattern, a row of panels per combination of
// the other axes; with baseline, the no-SAT rates of the study directory
// beside this one (dir's sibling) as broad pale lines.
func izuFig4(ctx context.Context, f *study.File, pts []*pointStats, refs []refRow, dir, baseline string) (*figure.PaperGrid, error) {
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
					if ps.n > 0 && rowOf(ps.point) == r && valueAt(f, ps.point, "traffic.pattern") == pat {
						l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.point, "policy.sat_l")), ps.mean[st.metric]})
					}
				}
				slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
				pn.Lines = append(pn.Lines, l)
			}
			for _, rr := range refs {
				if rr.ref.Metric == st.metric && rr.ref.Reduce == "" && rowOf(rr.point) == r {
					pn.Refs = append(pn.Refs, figure.Ref{Source: paperOf(rr.ref.Source), X: atof(valueAt(f, rr.point, "policy.sat_l")), Y: rr.ref.Value})
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
	bdir := filepath.Join(filepath.Dir(dir), baseline)
	bf, brecs, err := Reload(ctx, bdir)
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
	for _, ps := range pointMeans(bf, brecs) {
		if ps.n == 0 || valueAt(bf, ps.point, "policy.injection") != "none" {
			continue
		}
		pat := valueAt(bf, ps.point, "traffic.pattern")
		if !slices.Contains(g.Series, pat) {
			continue
		}
		r := slices.IndexFunc(rows, func(c []string) bool {
			for i, k := range rest {
				if valueAt(bf, ps.point, k) != c[i] {
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
			pn.HLines = append(pn.HLines, figure.RefLine{Value: ps.mean[st.metric], Series: pat, Legend: legend, Kind: "no SAT"})
		}
	}
	return g, nil
}

// izuFig5 is Izu & Vallejo's Fig. 5: each node's injection rate (replicate
// 0), one panel per pattern (and combination of the other axes), one line
// per policy; the published rates as broad pale lines in their policy's
// colour, labelled with their value.
func izuFig5(f *study.File, recs []*Record, refs []refRow) *figure.PaperGrid {
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
		stat, ok := statOf(r.ref.Metric)
		if !ok || r.ref.Reduce != "" {
			continue
		}
		i := panelOf(r.point)
		if i < 0 {
			continue
		}
		pol := izuPolicy(valueAt(f, r.point, "policy.injection"))
		k := slices.IndexFunc(byPanel[i], func(p *pub) bool { return p.value == r.ref.Value })
		if k < 0 {
			byPanel[i] = append(byPanel[i], &pub{value: r.ref.Value})
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
func recnLoadFig(f *study.File, pts []*pointStats, refs []refRow, form string) *figure.PaperGrid {
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
		if c := recnConfig(f, ps.point); !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		if c := recnCase(f, ps.point); !slices.Contains(cases, c) {
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
				if ps.n > 0 && panel(ps.point) == i && valueAt(f, ps.point, "router.ioq.queues") == q {
					l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.point, loadKey)) * xScale, ps.mean["relative_throughput"] * 100})
				}
			}
			slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
			g.Panels[i].Lines = append(g.Panels[i].Lines, l)
		}
	}
	for _, r := range refs {
		if r.ref.Metric == "relative_throughput" && r.ref.Reduce == "" {
			i := panel(r.point)
			g.Panels[i].Refs = append(g.Panels[i].Refs, figure.Ref{Source: paperOf(r.ref.Source), X: atof(valueAt(f, r.point, loadKey)) * xScale, Y: r.ref.Value * 100})
		}
	}
	return g
}

// recnFig3 is García et al.'s Fig. 3: the most SAQs in use in one ingress
// and one egress port over the run against offered load, one line per
// configuration, a row of the two panels per combination of the other
// axes; the SAQs per port as a broad grey limit line.
func recnFig3(f *study.File, pts []*pointStats, refs []refRow) *figure.PaperGrid {
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
		if c := recnConfig(f, ps.point); !slices.Contains(configs, c) {
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
					if ps.n > 0 && rowOf(ps.point) == r && recnConfig(f, ps.point) == conf {
						l.XY = append(l.XY, [2]float64{atof(valueAt(f, ps.point, loadKey)) * xScale, ps.mean[side.metric]})
					}
				}
				slices.SortStableFunc(l.XY, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
				pn.Lines = append(pn.Lines, l)
			}
			if !math.IsNaN(limit) {
				pn.HLines = append(pn.HLines, figure.RefLine{Value: limit, Label: fmt.Sprintf("%g SAQs per port", limit), Legend: "SAQs per port (router.ioq.recn.saqs)", Kind: "limit"})
			}
			for _, rr := range refs {
				if rr.ref.Metric == side.metric && rr.ref.Reduce == "" && rowOf(rr.point) == r {
					pn.Refs = append(pn.Refs, figure.Ref{Source: paperOf(rr.ref.Source), X: atof(valueAt(f, rr.point, loadKey)) * xScale, Y: rr.ref.Value})
				}
			}
			g.Panels = append(g.Panels, pn)
		}
	}
	return g
}

// harFig is Liu's Fig. 6 or 9: the short-message latency distribution
// (replicate 0) on a log axis, one panel per routing, one line per mix;
// the published largest delays as labelled vertical lines.
func harFig(f *study.File, recs []*Record, refs []refRow) *figure.PaperGrid {
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
			if r.ref.Metric != "short_latency_max_cycles" || r.ref.Reduce != "" || panelOf(r.point) != i {
				continue
			}
			if !slices.Contains(values, r.ref.Value) {
				values = append(values, r.ref.Value)
			}
			at[r.ref.Value] = append(at[r.ref.Value], valueAt(f, r.point, "traffic.long_volume_percent"))
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
func entropyTable2(f *study.File, pts []*pointStats, refs []refRow) *figure.PairedBars {
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
		s, g := at(ps.point)
		if s < 0 || g < 0 || ps.n == 0 {
			continue
		}
		m := ps.mean[metric]
		b.Ours[s][g] = m
		if b.Lo != nil && ps.n > 1 {
			b.Lo[s][g], b.Hi[s][g] = m-ps.std[metric], m+ps.std[metric]
		}
	}
	for _, r := range refs {
		if r.ref.Metric != metric || r.ref.Reduce != "" {
			continue
		}
		if s, g := at(r.point); s >= 0 && g >= 0 {
			b.Published[s][g] = r.ref.Value
		}
	}
	return b
}

// panelName is a panel's title: its letter (the n-th panel), what it shows,
// and the values c of the axes rest it is drawn for, in words.
func panelName(n int, word string, rest, c []string) string {
	name := panelLetter(n) + " " + word
	for i, k := range rest {
		name += ", " + valueWords(k, c[i])
	}
	return name
}

// valueRows are the combinations of the values of rest in the study, and
// the index among them of a point's.
func valueRows(f *study.File, rest []string) ([][]string, func(*study.Point) int) {
	rows := f.ValueCombos(rest...)
	return rows, func(p *study.Point) int {
		return slices.IndexFunc(rows, func(c []string) bool {
			for i, k := range rest {
				if valueAt(f, p, k) != c[i] {
					return false
				}
			}
			return true
		})
	}
}

// paperFigureNumber is the number of the paper's figure a form draws
// ("1" for recn-fig1, "6" for har-fig6).
func paperFigureNumber(form string) string {
	_, n, _ := strings.Cut(form, "-fig")
	return n
}
