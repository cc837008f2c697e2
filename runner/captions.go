package runner

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/repro"
	"github.com/icnsim/icnsim/study"
)

// figureCaption says in words what the figure plots/NAME.* of the study
// shows, for the report: what is drawn against what, one line or panel
// per what, for which group of points, and the parameters every point
// shares. It reads the names Plot and topologyFigures give their files
// (METRIC-vs-X[-GROUP], reference-METRIC, heatmap-METRIC[-GROUP],
// series-NAME, node-throughput, node-injected-throughput[-GROUP],
// node-*-map[-GROUP][-PART], node-*-by-leaf[-GROUP][-PART], latency-cdf,
// short- and long-latency-cdf[-GROUP]) and, for the paper-form figures
// (paper-*), asks repro.Caption; a name it does not know gets a generic
// sentence. Every caption is whole sentences.
func figureCaption(f *study.File, name string) string {
	if strings.HasPrefix(name, "paper-") {
		if c, ok := repro.Caption(f, name); ok {
			return c
		}
		return "A figure in the form of a published paper's, drawn from this study's runs: " + nameWords(strings.TrimPrefix(name, "paper-")) + "." + sharedWords(f)
	}
	return captionOf(f, name) + sharedWords(f)
}

// captionOf is the caption of a figure Plot or topologyFigures draws,
// without the parameters every point shares.
func captionOf(f *study.File, name string) string {
	if m, ok := strings.CutPrefix(name, "reference-"); ok {
		if c, ok := referenceCaption(f, m); ok {
			return c
		}
	}
	if strings.HasPrefix(name, "heatmap-") {
		if c, ok := heatmapCaption(f, name); ok {
			return c
		}
	}
	if strings.Contains(name, "-vs-") {
		if c, ok := curveCaption(f, name); ok {
			return c
		}
	}
	if s, ok := strings.CutPrefix(name, "series-"); ok {
		return report.Label(s) + " against the simulated cycle, one line per " + pointLineWords(f) + "; shaded, the warm-up before the measurement window and the drain after it."
	}
	if name == "links-by-class" {
		return "Utilisation of the router output channels (flits/cycle, the share of cycles each was busy) by link class, one bar per " + pointLineWords(f) + " from the least to the busiest link of the class, its glyph at the class's mean; a cross marks the channel-load bound's busiest link of the class at the offered load, where the routing's routes could be traced (summary.txt, links/*.csv)."
	}
	if name == "links-map" {
		return "The busiest output channel to another router of each router (flits/cycle) as colours over the grid of routers (x across, y up), one panel per " + pointLineWords(f) + "."
	}
	if name == "node-throughput" {
		return "Accepted throughput of each node (flits/cycle) by node id, one line per " + pointLineWords(f) + "; a node that never sends is left out."
	}
	if c, ok := nodeCaption(f, name); ok {
		return c
	}
	if g, part, ok := figureGroup(f, name, plainFile("node-injected-throughput"), perPointRest(f)); ok {
		return "Injected throughput of each node (flits/cycle) by node id, one line per " + perPointLines(f) + groupPhrase(g, part) + "; a node that never sends is left out."
	}
	for _, class := range []string{"short", "long"} {
		if g, part, ok := figureGroup(f, name, plainFile(class+"-latency-cdf"), perPointRest(f)); ok {
			return "Distribution of " + class + "-message latency: " + cdfWords(f, class+" messages") + ", one line per " + perPointLines(f) + groupPhrase(g, part) + "."
		}
	}
	if name == "latency-cdf" {
		return "Distribution of packet latency: " + cdfWords(f, "packets") + ", one line per " + pointLineWords(f) + "."
	}
	return "A figure of this study: " + nameWords(name) + "."
}

// cdfWords says what a latency distribution of things (packets) plots,
// in plot.cdf's form.
func cdfWords(f *study.File, things string) string {
	switch f.Plot.CDF {
	case "ccdf":
		return "the share of " + things + " with a latency above each value (cycles), on log-log axes, so that the tail shows"
	case "log-x":
		return "the share of " + things + " delivered within each latency, on a log latency axis (cycles)"
	}
	return "the share of " + things + " delivered within each latency (cycles)"
}

// referenceCaption is the caption of reference-METRIC.
func referenceCaption(f *study.File, m string) (string, bool) {
	var sources []string
	n := 0
	for _, r := range f.References {
		if sanitize(r.Metric) != m {
			continue
		}
		m = r.Metric
		n++
		if !slices.Contains(sources, study.PaperOf(r.Source)) {
			sources = append(sources, study.PaperOf(r.Source))
		}
	}
	if n == 0 {
		return "", false
	}
	values := "the published value"
	if n > 1 {
		values = fmt.Sprintf("the %d published values", n)
	}
	return fmt.Sprintf("%s: ours beside %s (%s), one column per point compared; ours as filled circles, the published values as crosses.",
		report.Label(m), values, strings.Join(sources, "; ")), true
}

// heatmapCaption is the caption of heatmap-METRIC[-GROUP].
func heatmapCaption(f *study.File, name string) (string, bool) {
	hx, hy := f.Plot.HeatmapX, f.Plot.HeatmapY
	if hx == "" || hy == "" {
		return "", false
	}
	m := f.Plot.HeatmapMetric
	if m == "" {
		m = "accepted_flits_per_node_cycle"
	}
	g, part, ok := figureGroup(f, name, plainFile("heatmap-"+m), without(f.AxisKeys(), append(zipGroup(f, hx), zipGroup(f, hy)...)))
	if !ok {
		return "", false
	}
	return report.Label(m) + " as a colour, with " + keyWords(hx) + " across and " + keyWords(hy) + " up" + groupPhrase(g, part) + "." + meanWords(f), true
}

// curveCaption is the caption of METRIC-vs-X[-GROUP].
func curveCaption(f *study.File, name string) (string, bool) {
	x, lines, rest := curveAxes(f)
	m, _, _ := strings.Cut(name, "-vs-")
	if x == "" {
		return "", false
	}
	g, part, ok := figureGroup(f, name, plainFile(m+"-vs-"+study.ShortKey(x)), rest)
	if !ok {
		return "", false
	}
	s := report.Label(m) + " against " + keyWords(x)
	if lines != "" {
		s += ", one line per value of " + lowerFirst(study.NoUnit(study.KeyLabel(lines)))
	}
	s += groupPhrase(g, part) + "." + meanWords(f)
	if study.IsLoadKey(x) && (isLatency(m) || isThroughput(m)) {
		s += " Where a line saturates within the sweep, its saturation load is marked on it."
	}
	if isLatency(m) {
		switch {
		case f.Plot.LatencyAxis == "cut":
			s += " The latency axis is cut; a point above it is a triangle at the top edge in its line's colour, labelled with its value."
		case f.Plot.LatencyAxis == "log" || f.Plot.YLog:
			s += " The latency axis is logarithmic."
		}
	}
	if slices.ContainsFunc(f.References, func(r study.Reference) bool { return r.Metric == m && r.Reduce == "" }) {
		s += " Crosses are published values."
	}
	return s, true
}

// nodeScaleWords says what colour scales a node map's panels are on, by
// plot.node_scale.
func nodeScaleWords(f *study.File) string {
	switch f.Plot.NodeScale {
	case "shared":
		return "one colour scale"
	case "panel":
		return "a colour scale each"
	}
	return "one colour scale, or a scale each where a panel spans less than a third of their range (the bar's label says which)"
}

// nodeCaption is the caption of the per-node figures by topology:
// node-*-map (mesh, torus) and node-*-by-leaf (fat-tree).
func nodeCaption(f *study.File, name string) (string, bool) {
	panels := "one panel per " + perPointLines(f)
	grid := "the grid of routers (x across, y up)"
	if slices.ContainsFunc(f.Points, func(p study.Point) bool {
		_, c, ok := p.Config.Network.Grid()
		return ok && c > 1
	}) {
		grid = "the grid of routers (x across, y up; a router's cell is the mean of its nodes)"
	}
	for _, q := range nodeQuantities() {
		what := upperFirst(q.what)
		if g, part, ok := figureGroup(f, name, plainFile(q.file), perPointRest(f)); ok {
			return what + ", as colours over " + grid + ": " + panels + " on " + nodeScaleWords(f) + " of " + lowerFirst(q.label) + groupPhrase(g, part) + ".", true
		}
		leaf := func(label string) string { return strings.Replace(fileName(q.file, label), "-map", "-by-leaf", 1) }
		if g, part, ok := figureGroup(f, name, leaf, perPointRest(f)); ok {
			return what + ", as bars by node id grouped by leaf switch: " + panels + " on one scale of " + lowerFirst(q.label) + groupPhrase(g, part) + ".", true
		}
	}
	return "", false
}

// plainFile names a figure file of base for a group label, as Plot does.
func plainFile(base string) func(label string) string {
	return func(label string) string { return fileName(base, label) }
}

// perPointRest are the axes that split the per-point figures (one figure
// per combination of their values): those other than plot.lines, when set.
func perPointRest(f *study.File) []string {
	if f.Plot.Lines == "" {
		return nil
	}
	return without(f.AxisKeys(), []string{f.Plot.Lines})
}

// pointLineWords says what a line of a figure with one line per point is.
func pointLineWords(f *study.File) string {
	if f.Study.Replicates > 1 {
		return "point of the study (its first replicate)"
	}
	return "point of the study"
}

// perPointLines says what a line (or panel) of a per-point figure split by
// plot.lines is: a value of plot.lines, or a point.
func perPointLines(f *study.File) string {
	if f.Plot.Lines == "" {
		return pointLineWords(f)
	}
	what := "value of " + lowerFirst(study.NoUnit(study.KeyLabel(f.Plot.Lines)))
	if f.Study.Replicates > 1 {
		what += " (the first replicate of each point)"
	}
	return what
}

// meanWords says what a point of a curve or heatmap is, with replicates.
func meanWords(f *study.File) string {
	if f.Study.Replicates > 1 {
		return fmt.Sprintf(" Each point is the mean of %d replicates, its bar the 95%% confidence interval of that mean.", f.Study.Replicates)
	}
	return ""
}

// sharedWords is the sentence on the parameters every point shares.
func sharedWords(f *study.File) string {
	s := ""
	if w := f.FixedWords(); w != "" {
		s = " Every point: " + w + "."
	}
	if w := f.RunWords(); w != "" {
		s += " Runs: " + w + "."
	}
	return s
}

// groupPhrase is ", for GROUP" with the part of a split figure.
func groupPhrase(group string, part int) string {
	s := ""
	if group != "" {
		s = ", for " + group
	}
	if part > 0 {
		s += fmt.Sprintf(" (part %d: the panels past the first %d)", part, (part-1)*maxPanels)
	}
	return s
}

// keyWords is an axis key in words, lower case, with its unit.
func keyWords(key string) string { return lowerFirst(study.KeyLabel(key)) }

// nameWords is a file name in words, for a figure whose name says no more.
func nameWords(name string) string {
	return strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' }), " ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// partSuffix is a split figure's part number after its name ("-2").
var partSuffix = regexp.MustCompile(`-([0-9]+)$`)

// maxGroupAxes is the most axes whose every combination figureGroup tries
// when the expected ones do not name the figure.
const maxGroupAxes = 10

// figureGroup finds the group of points a figure file stands for. file
// names the figure of a group label (as fileName does); name is file("")
// for a figure of every point, or file(label) for the label of some
// points' values on keys (groupsOf's "key=value key=value", or the per-point
// figures' "value, value"), possibly followed by a part number ("-2") when
// the figure is split. keys are the axes expected to split the figures;
// failing them, every combination of the study's axes is tried. It returns
// the group in words ("traffic pattern = uniform, offered load
// (flits/node/cycle) = 0.5") and the part (0: not split).
func figureGroup(f *study.File, name string, file func(label string) string, keys []string) (group string, part int, ok bool) {
	if g, ok := matchGroup(f, name, file, keys); ok {
		return g, 0, true
	}
	if m := partSuffix.FindStringSubmatch(name); m != nil {
		if g, ok := matchGroup(f, strings.TrimSuffix(name, m[0]), file, keys); ok {
			part, _ = strconv.Atoi(m[1])
			return g, part, true
		}
	}
	return "", 0, false
}

// matchGroup is figureGroup without the part number.
func matchGroup(f *study.File, name string, file func(label string) string, keys []string) (string, bool) {
	if name == file("") {
		return "", true
	}
	try := func(keys []string) (string, bool) {
		if len(keys) == 0 {
			return "", false
		}
		short := make([]string, len(keys))
		for j, k := range keys {
			short[j] = study.ShortKey(k)
		}
		for i := range f.Points {
			p := &f.Points[i]
			var pairs, values []string
			for j, k := range keys {
				v, _ := p.Value(k)
				pairs = append(pairs, short[j]+"="+v)
				values = append(values, v)
			}
			if name == file(strings.Join(pairs, " ")) || name == file(strings.Join(values, ", ")) {
				// The words only for the point that matches: KeyLabel
				// per point of a study of thousands took seconds.
				var words []string
				for j, k := range keys {
					words = append(words, keyWords(k)+" = "+values[j])
				}
				return strings.Join(words, ", "), true
			}
		}
		return "", false
	}
	if g, ok := try(keys); ok {
		return g, true
	}
	axes := f.AxisKeys()
	if len(axes) > maxGroupAxes {
		return "", false
	}
	for set := 1; set < 1<<len(axes); set++ {
		var sub []string
		for i, k := range axes {
			if set&(1<<i) != 0 {
				sub = append(sub, k)
			}
		}
		if g, ok := try(sub); ok {
			return g, true
		}
	}
	return "", false
}
