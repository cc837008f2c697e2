package study

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// A paper form (plot.paper_form) draws a reproduced figure of one of the
// papers in the paper's own form, beside the generic figures: its panels,
// axes and units, with the published values on it (plots/paper-FORM.*).
// Each form needs the axes and the configuration the paper's figure has;
// checkPaperForm refuses a form that the study cannot draw.

// PaperForm is one allowed value of plot.paper_form.
type PaperForm struct {
	// Name is the value of plot.paper_form.
	Name string
	// What is the figure, in words, for the error that lists the forms.
	What string
	// need says what the study lacks to draw the form ("" when nothing).
	need func(f *File) string
}

// Paper-form names, shared by the check and the runner that draws them.
const (
	FormIzuFig3      = "izu-fig3"
	FormIzuFig4      = "izu-fig4"
	FormIzuFig5      = "izu-fig5"
	FormRECNFig1     = "recn-fig1"
	FormRECNFig2     = "recn-fig2"
	FormRECNFig3     = "recn-fig3"
	FormHARFig6      = "har-fig6"
	FormHARFig9      = "har-fig9"
	FormEntropyTable = "entropy-table2"
)

// PaperForms lists the allowed values of plot.paper_form (a fresh slice).
func PaperForms() []PaperForm {
	return []PaperForm{
		{FormIzuFig3, "Izu & Vallejo Fig. 3: min/average/max node injection rate per traffic pattern as range bars; fat-tree, a traffic.pattern axis",
			func(f *File) string {
				return firstNeed(f.needAll("network.topology", "fattree"), f.needAxis("traffic.pattern"), f.needApart(8, "bars of one pattern", "traffic.pattern"))
			}},
		{FormIzuFig4, `Izu & Vallejo Fig. 4: average and minimum node rate against k = l, one line per pattern; "izu-fig4:STUDY" adds the no-SAT rates of the sibling study directory ../STUDY; fat-tree, policy.injection = "sat", policy.sat_l zipped with policy.sat_k, a traffic.pattern axis`,
			func(f *File) string {
				return firstNeed(f.needAll("network.topology", "fattree"), f.needAll("policy.injection", "sat"), f.needAxis("policy.sat_l"), f.needKEqualsL(),
					f.needAxis("traffic.pattern"), f.needApart(3, "rows of panels", "policy.sat_l", "traffic.pattern"))
			}},
		{FormIzuFig5, "Izu & Vallejo Fig. 5: each node's injection rate by node id, one panel per pattern, one line per policy; fat-tree, traffic.pattern and policy.injection axes, measure.method = \"packet-batches\" (which records each node's rate)",
			func(f *File) string {
				return firstNeed(f.needAll("network.topology", "fattree"), f.needAxis("traffic.pattern"), f.needAxis("policy.injection"),
					f.needAll("measure.method", "packet-batches"), f.needApart(6, "panels", "policy.injection"), f.needApart(8, "lines of one panel", "traffic.pattern"))
			}},
		{FormRECNFig1, "García et al. Fig. 1: relative throughput (%) against offered load, configurations #1-#3 x traffic cases #1-#3, one line per queue organisation; mesh, a router.ioq.queues axis, one offered-load axis",
			func(f *File) string { return f.needRECNLoad([]int{1, 2, 3}) }},
		{FormRECNFig2, "García et al. Fig. 2: as Fig. 1 on configurations #1, #4, #5",
			func(f *File) string { return f.needRECNLoad([]int{1, 4, 5}) }},
		{FormRECNFig3, "García et al. Fig. 3: most SAQs in use in one ingress and one egress port against offered load, one line per configuration (#1, #4, #5), the SAQ limit drawn; mesh, router.ioq.queues = \"recn\", traffic case #3, one offered-load axis",
			func(f *File) string {
				return firstNeed(f.needAll("network.topology", "mesh"), f.needAll("router.ioq.queues", "recn"), f.needOneLoad(),
					f.needConfigurations([]int{1, 4, 5}), f.needCases([]int{3}),
					f.needApart(3, "rows of panels", append([]string{"network.mesh.k", "network.mesh.concentration"}, LoadAxes(f.AxisKeys())...)...))
			}},
		{FormHARFig6, "Liu Fig. 6: short-message latency distribution on a log axis, (a) DOR (b) Hybrid-HAR, one line per mix, the quoted maxima drawn; uniform traffic with long messages",
			func(f *File) string { return f.needHAR("uniform") }},
		{FormHARFig9, "Liu Fig. 9: as Fig. 6 under transpose traffic",
			func(f *File) string { return f.needHAR("transpose") }},
		{FormEntropyTable, "Yokota et al. 2016 Table 2: collective duration per pattern and guard time t_G of gt.a, ours beside the published, as grouped bars; traffic.process = \"collective\", traffic.pattern and policy.injection axes with gt.a(...) values",
			func(f *File) string {
				return firstNeed(f.needAll("traffic.process", "collective"), f.needAxis("traffic.pattern"), f.needAxis("policy.injection"), f.needGTA(),
					f.needNoneApart("traffic.pattern", "policy.injection"))
			}},
	}
}

// SplitPaperForm splits a plot.paper_form value into the form's name and
// its argument after a colon ("izu-fig4:fattree64-fig3-sat").
func SplitPaperForm(v string) (form, arg string) {
	form, arg, _ = strings.Cut(v, ":")
	return form, arg
}

// checkPaperForm checks plot.paper_form: one of PaperForms that the study
// can draw, with an argument only where the form takes one.
func (f *File) checkPaperForm(add addFunc) {
	v := f.Plot.PaperForm
	if v == "" {
		return
	}
	forms := PaperForms()
	name, arg := SplitPaperForm(v)
	i := slices.IndexFunc(forms, func(p PaperForm) bool { return p.Name == name })
	if i < 0 {
		var names, list []string
		for _, p := range forms {
			names = append(names, p.Name)
			list = append(list, fmt.Sprintf("%q (%s)", p.Name, p.What))
		}
		add("plot.paper_form", v, `allowed: "" (no paper form), `+strings.Join(list, "; ")+didYouMean(name, names))
		return
	}
	switch {
	case strings.Contains(v, ":") && name != FormIzuFig4:
		add("plot.paper_form", v, fmt.Sprintf("%q takes no argument after a colon (only %q takes the no-SAT study's name)", name, FormIzuFig4))
		return
	case strings.Contains(v, ":") && (arg == "" || arg == "." || arg == ".." || strings.ContainsAny(arg, `/\`)):
		add("plot.paper_form", v, fmt.Sprintf("%q:STUDY names a study directory beside this study's (a name, no path): the study whose policy.injection = \"none\" points give the no-SAT rates", FormIzuFig4))
		return
	}
	if msg := forms[i].need(f); msg != "" {
		add("plot.paper_form", v, fmt.Sprintf("this study cannot draw %s: %s", name, msg))
	}
}

// firstNeed is the first non-empty need.
func firstNeed(needs ...string) string {
	for _, n := range needs {
		if n != "" {
			return n
		}
	}
	return ""
}

// KeyValues are key's values in the study, in sweep order: its axis's
// values when it is swept, else the base configuration's value.
func (f *File) KeyValues(key string) []string {
	var out []string
	for _, c := range f.ValueCombos(key) {
		out = append(out, c[0])
	}
	return out
}

// ValueCombos lists the distinct combinations of keys' values over the
// study's points, in sweep order: a swept key takes its axis's values,
// advancing together with the axes zipped with it, and a fixed key the
// base configuration's value.
func (f *File) ValueCombos(keys ...string) [][]string {
	// The independent dimensions: a lone axis, or a zip group.
	type dim struct{ n int }
	var dims []dim
	dimOf := map[int]int{} // axis index -> dimension
	zipDim := map[string]int{}
	for _, k := range keys {
		ai := f.axisIndex(k)
		if ai < 0 {
			continue
		}
		if _, ok := dimOf[ai]; ok {
			continue
		}
		a := &f.Axes[ai]
		if a.Zip != "" {
			if d, ok := zipDim[a.Zip]; ok {
				dimOf[ai] = d
				dims[d].n = min(dims[d].n, len(a.Values))
				continue
			}
			zipDim[a.Zip] = len(dims)
		}
		dimOf[ai] = len(dims)
		dims = append(dims, dim{n: len(a.Values)})
	}
	var out [][]string
	seen := map[string]bool{}
	idx := make([]int, len(dims))
	for {
		combo := make([]string, len(keys))
		for ki, k := range keys {
			if ai := f.axisIndex(k); ai >= 0 {
				if d := dims[dimOf[ai]]; d.n > 0 {
					combo[ki] = FormatParam(f.Axes[ai].Values[idx[dimOf[ai]]])
				}
				continue
			}
			if v, ok := keyValue(&f.Config, k); ok {
				combo[ki] = FormatParam(v)
			}
		}
		if id := strings.Join(combo, "\x00"); !seen[id] {
			seen[id] = true
			out = append(out, combo)
		}
		// The next index, the last dimension fastest.
		d := len(dims) - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < dims[d].n {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return out
		}
	}
}

// needAll: every value of key is want.
func (f *File) needAll(key, want string) string {
	for _, v := range f.KeyValues(key) {
		if v != want {
			return fmt.Sprintf("%s = %q, not %q", key, v, want)
		}
	}
	return ""
}

// needAxis: key is swept.
func (f *File) needAxis(key string) string {
	if f.axisIndex(key) < 0 {
		return fmt.Sprintf("it needs an [[axis]] of %s", key)
	}
	return ""
}

// AxesApart are the swept keys other than keys and the axes zipped with
// one of them, in file order: what splits a figure whose lines and x are
// keys into panels, or its groups into bars.
func (f *File) AxesApart(keys ...string) []string {
	zips := map[string]bool{}
	for _, a := range f.Axes {
		if a.Zip != "" && slices.Contains(keys, a.Key) {
			zips[a.Zip] = true
		}
	}
	var out []string
	for _, a := range f.Axes {
		if !slices.Contains(keys, a.Key) && !(a.Zip != "" && zips[a.Zip]) {
			out = append(out, a.Key)
		}
	}
	return out
}

// needApart: at most n combinations of the axes apart from keys, which
// would be what (panels, bars of a group).
func (f *File) needApart(n int, what string, keys ...string) string {
	rest := f.AxesApart(keys...)
	if c := len(f.ValueCombos(rest...)); len(rest) > 0 && c > n {
		return fmt.Sprintf("its %d combinations of %s would be %s; at most %d", c, strings.Join(rest, ", "), what, n)
	}
	return ""
}

// needNoneApart: no axis apart from keys.
func (f *File) needNoneApart(keys ...string) string {
	if rest := f.AxesApart(keys...); len(rest) > 0 {
		return fmt.Sprintf("the figure has no place for the axes %s (only %s and the axes zipped with them)", strings.Join(rest, ", "), strings.Join(keys, ", "))
	}
	return ""
}

// needKEqualsL: policy.sat_k is policy.sat_l at every point (zipped with
// it, with the same values), the paper's k = l.
func (f *File) needKEqualsL() string {
	for _, c := range f.ValueCombos("policy.sat_l", "policy.sat_k") {
		if c[0] != c[1] {
			return fmt.Sprintf("the figure is drawn at k = l, and a point has policy.sat_l = %s, policy.sat_k = %s (zip policy.sat_k with policy.sat_l, with the same values)", c[0], c[1])
		}
	}
	return ""
}

// needOneLoad: exactly one offered-load axis.
func (f *File) needOneLoad() string {
	if loads := LoadAxes(f.AxisKeys()); len(loads) != 1 {
		return fmt.Sprintf("it needs exactly one swept offered-load axis (%s); this study sweeps %d", strings.Join(loadKeys(), ", "), len(loads))
	}
	return ""
}

// RECNConfiguration is the number of the RECN paper's mesh configuration
// of k x k switches with concentration endnodes each (#1 16x16 x 1, #2
// 8x8 x 4, #3 4x4 x 16, #4 8x8 x 1, #5 4x4 x 1), 0 for another.
func RECNConfiguration(k, concentration int) int {
	for i, c := range [][2]int{{16, 1}, {8, 4}, {4, 16}, {8, 1}, {4, 1}} {
		if c == [2]int{k, concentration} {
			return i + 1
		}
	}
	return 0
}

// RECNCase is the number of the RECN paper's traffic case of a share of
// sources sending to the hot spot (#1 none, #2 12.5%, #3 25%), 0 for
// another.
func RECNCase(share float64) int {
	switch share {
	case 0:
		return 1
	case 0.125:
		return 2
	case 0.25:
		return 3
	}
	return 0
}

// needConfigurations: every (network.mesh.k, network.mesh.concentration) is one of
// the figure's configurations.
func (f *File) needConfigurations(allowed []int) string {
	for _, c := range f.ValueCombos("network.mesh.k", "network.mesh.concentration") {
		k, _ := strconv.Atoi(c[0])
		conc, _ := strconv.Atoi(c[1])
		if n := RECNConfiguration(k, conc); !slices.Contains(allowed, n) {
			return fmt.Sprintf("network.mesh.k = %s with network.mesh.concentration = %s is not one of the figure's configurations %s", c[0], c[1], configList(allowed))
		}
	}
	return ""
}

func configList(ns []int) string {
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("#%d", n))
	}
	return strings.Join(parts, ", ") + " (#1 16x16 mesh, #2 8x8 with 4 endnodes per switch, #3 4x4 with 16, #4 8x8, #5 4x4)"
}

// needCases: every traffic.hotspot_source_fraction is one of the figure's
// traffic cases.
func (f *File) needCases(allowed []int) string {
	for _, v := range f.KeyValues("traffic.hotspot_source_fraction") {
		x, err := strconv.ParseFloat(v, 64)
		if n := RECNCase(x); err != nil || !slices.Contains(allowed, n) {
			var parts []string
			for _, a := range allowed {
				parts = append(parts, fmt.Sprintf("#%d", a))
			}
			return fmt.Sprintf("traffic.hotspot_source_fraction = %s is not one of the figure's traffic cases %s (#1: 0, #2: 0.125, #3: 0.25)", v, strings.Join(parts, ", "))
		}
	}
	return ""
}

// needRECNLoad: what Figs. 1 and 2 of the RECN paper need.
func (f *File) needRECNLoad(configs []int) string {
	return firstNeed(f.needAll("network.topology", "mesh"), f.needAxis("router.ioq.queues"), f.needOneLoad(),
		f.needConfigurations(configs), f.needCases([]int{1, 2, 3}),
		f.needNoneApart(append([]string{"router.ioq.queues", "network.mesh.k", "network.mesh.concentration", "traffic.hotspot_source_fraction"}, LoadAxes(f.AxisKeys())...)...))
}

// needHAR: what Figs. 6 and 9 of the Hybrid-HAR paper need: two message
// classes (the short-message latency distribution) under pattern.
func (f *File) needHAR(pattern string) string {
	for _, v := range f.KeyValues("traffic.long_packet_flits") {
		if n, _ := strconv.Atoi(v); n <= 0 {
			return fmt.Sprintf("traffic.long_packet_flits = %s: it needs long messages (two classes) for the short-message latency distribution", v)
		}
	}
	return firstNeed(f.needAll("traffic.pattern", pattern), f.needApart(4, "panels", "traffic.long_volume_percent"),
		f.needApart(8, "lines of one panel", f.AxesApart("traffic.long_volume_percent")...))
}

// needGTA: some policy.injection value is gt.a(...), Table 2's model.
func (f *File) needGTA() string {
	if !slices.ContainsFunc(f.KeyValues("policy.injection"), func(v string) bool { return strings.HasPrefix(v, "gt.a(") }) {
		return "Table 2 is of gt.a (random guard time): no policy.injection value is gt.a(...)"
	}
	return ""
}
