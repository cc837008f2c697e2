package runner

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/icnsim/icnsim/figure"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// LoadKey is the offered-load key: the default x of the curves.
const LoadKey = "traffic.load_flits_per_node_cycle"

// Plot draws the study's figures into DIR/plots, from its records (every
// run, in order), replacing every figure there:
//
//   - METRIC-vs-X[-REST]: each of plot.metrics (default accepted throughput
//     and mean latency) against the x axis (plot.x, default the swept load),
//     one line per value of plot.lines (default the first other axis), one
//     figure per combination of the remaining axes; means over replicates;
//     latency figures cut at plot.y_max or plot.latency_cut times the
//     zero-load latency (plot.y_log: a log axis); on load curves, each
//     line's saturation load dotted; published values as crosses;
//   - reference-METRIC: ours beside the published values of [[reference]];
//   - heatmap-METRIC[-REST]: plot.heatmap_metric over plot.heatmap_x and
//     plot.heatmap_y, one per combination of the remaining axes;
//   - series-SERIES, latency-cdf, and per node (plot.node_figures)
//     node-*-map (mesh, torus) or node-*-by-leaf (fat-tree), or the lines
//     node-throughput and node-injected-throughput: one line or panel per
//     point (replicate 0), when the study has at most plot.max_lines points.
func Plot(ctx context.Context, dir string, f *study.File, recs []*Record) error {
	out := plotOutput(f)
	pdir := filepath.Join(dir, "plots")
	// The figures are redrawn whole: none of an earlier drawing stays
	// (a figure that options or code no longer draw would mislead).
	for _, ext := range []string{"png", "svg", "pdf", "csv", "tex"} {
		old, _ := filepath.Glob(filepath.Join(pdir, "*."+ext))
		for _, o := range old {
			if err := os.Remove(o); err != nil {
				return err
			}
		}
	}
	if len(out.Formats) == 0 {
		return nil
	}
	pts := pointMeans(f, recs)
	reduce(f, pts) // adds the speedup metric, which plots may show
	axes := f.AxisKeys()
	refs := refRows(f, pts)
	if x, lines, rest := curveAxes(f); x != "" {
		metrics := f.Plot.Metrics
		if len(metrics) == 0 {
			metrics = []string{"accepted_flits_per_node_cycle", "latency_mean_cycles"}
		}
		sats := saturations(f, pts)
		lineKeys := zipGroup(f, lines)
		if lines == "" {
			lineKeys = nil
		}
		for _, grp := range groupsOf(pts, rest) {
			for _, m := range metrics {
				c := &figure.Chart{Title: title(f, study.NoUnit(report.Label(m))+" vs "+lowerFirst(study.NoUnit(study.KeyLabel(x))), groupWords(grp.members[0], rest)), XLabel: study.KeyLabel(x), YLabel: report.Label(m), Points: true,
					YInteger: isCount(m), XInteger: integerAxis(f, x), YFromZero: isThroughput(m), XLog: wideAxis(f, x)}
				replicates := 0
				for _, ln := range groupsOf(grp.members, nonEmpty(lines)) {
					l := figure.Line{Name: groupWords(ln.members[0], lineKeys)}
					if l.Name == "" {
						l.Name = f.Name
					}
					ms := slices.Clone(ln.members)
					xOf := func(ps *pointStats) float64 {
						xv, _ := ps.point.Value(x)
						xf, _ := strconv.ParseFloat(xv, 64)
						return xf
					}
					slices.SortStableFunc(ms, func(a, b *pointStats) int { return cmp.Compare(xOf(a), xOf(b)) })
					for _, ps := range ms {
						l.XY = append(l.XY, [2]float64{xOf(ps), ps.mean[m]})
						l.Unfinished = append(l.Unfinished, finishedCell(ps) != "yes")
						// The 95% interval of the mean over the point's
						// replicates, where it has two or more.
						hw := report.CIHalfWidth95(ps.std[m], ps.n)
						l.Lo, l.Hi = append(l.Lo, ps.mean[m]-hw), append(l.Hi, ps.mean[m]+hw)
						if !math.IsNaN(hw) {
							replicates = max(replicates, ps.n)
						}
					}
					c.Lines = append(c.Lines, l)
					// A saturation load belongs on a figure of throughput
					// or latency against an offered load, nowhere else.
					if !study.IsLoadKey(x) || !(isLatency(m) || isThroughput(m)) {
						continue
					}
					for _, s := range sats {
						if s.group == grp.label && s.line == ln.label && !math.IsNaN(s.load) && !s.notReached {
							c.Marks = append(c.Marks, figure.Mark{Line: len(c.Lines) - 1, X: s.load})
						}
					}
				}
				if replicates > 0 {
					c.IntervalName = fmt.Sprintf("95%% CI of the mean (%d replicates)", replicates)
					if replicates < 3 {
						// Student's t of one degree of freedom is 12.7: two
						// replicates give an interval six times as wide as
						// the normal's.
						c.IntervalName = fmt.Sprintf("95%% CI of the mean, %d replicates only: wide (t = %.1f)", replicates, report.CIHalfWidth95(1, replicates)*math.Sqrt(float64(replicates)))
					}
				}
				if len(c.Marks) > 0 {
					c.MarkName = "saturation load"
				}
				if isLatency(m) {
					latencyAxis(f, x, c)
				}
				for _, r := range refs {
					// A saturation throughput belongs to a line, at no one
					// load: it is in the reference figure and tables only.
					if r.ref.Metric != m || r.ref.Reduce != "" || !slices.Contains(grp.members, pts[r.ref.Point]) {
						continue
					}
					xv, _ := r.point.Value(x)
					xf, _ := strconv.ParseFloat(xv, 64)
					c.Refs = append(c.Refs, figure.Ref{Source: study.PaperOf(r.ref.Source), X: xf, Y: r.ref.Value})
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := c.Save(filepath.Join(pdir, fileName(m+"-vs-"+study.ShortKey(x), grp.label)), out); err != nil {
					return err
				}
			}
		}
	}
	// Every metric with two or more published values: ours beside theirs,
	// one column per reference point (one value is a row of the report's
	// table, not a figure).
	for _, m := range refMetrics(f) {
		c := &figure.Compare{Title: title(f, study.NoUnit(report.Label(m))+": ours and published", ""), YLabel: report.Label(m)}
		var sources []string
		for _, r := range refs {
			if r.ref.Metric != m {
				continue
			}
			c.Labels = append(c.Labels, atLabel(f, r.ref))
			c.Ours = append(c.Ours, r.ours)
			c.Published = append(c.Published, r.ref.Value)
			if !slices.Contains(sources, study.PaperOf(r.ref.Source)) {
				sources = append(sources, study.PaperOf(r.ref.Source))
			}
		}
		c.Source = strings.Join(sources, "; ")
		if len(c.Labels) < 2 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.Save(filepath.Join(pdir, fileName("reference-"+m, "")), out); err != nil {
			return err
		}
	}
	if hx, hy := f.Plot.HeatmapX, f.Plot.HeatmapY; hx != "" && hy != "" {
		m := f.Plot.HeatmapMetric
		if m == "" {
			m = "accepted_flits_per_node_cycle"
		}
		xs, xAt := heatTicks(f, hx)
		ys, yAt := heatTicks(f, hy)
		// The axes zipped with either advance with it: no group of their own.
		for _, grp := range groupsOf(pts, without(axes, append(zipGroup(f, hx), zipGroup(f, hy)...))) {
			h := &figure.Heatmap{Title: title(f, study.NoUnit(report.Label(m)), grp.label), XLabel: study.KeyLabel(hx), YLabel: study.KeyLabel(hy), ZLabel: report.Label(m), XTicks: xs, YTicks: ys, Z: make([][]float64, len(ys))}
			for r := range h.Z {
				h.Z[r] = make([]float64, len(xs))
				for c := range h.Z[r] {
					h.Z[r][c] = math.NaN()
				}
			}
			for _, ps := range grp.members {
				if r, c := yAt(ps.point), xAt(ps.point); r >= 0 && c >= 0 {
					h.Z[r][c] = ps.mean[m]
				}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if !slices.ContainsFunc(h.Z, func(row []float64) bool { return slices.ContainsFunc(row, finite) }) {
				continue // no run has the metric (all unfinished, say): nothing to draw
			}
			if err := h.Save(filepath.Join(pdir, fileName("heatmap-"+m, grp.label)), out); err != nil {
				return err
			}
		}
	}
	if err := paperFigures(ctx, f, pts, recs, pdir, out); err != nil {
		return err
	}
	if len(f.Points) > f.Plot.MaxLines {
		return nil
	}
	var first []*Record // replicate 0 of each point
	for _, rec := range recs {
		if rec.Replicate == 0 {
			first = append(first, rec)
		}
	}
	name := func(rec *Record) string {
		l := pointWords(&f.Points[rec.Point], f.AxisKeys())
		if l == "" {
			l = f.Name
		}
		if rec.Result.Unfinished() != "" {
			l += " " + unfinishedMark
		}
		return l
	}
	series := []seriesPlot{
		{name: "in_flight_packets", get: func(s report.Sample) float64 { return float64(s.InFlightPackets) }},
		{name: "accepted_flits_per_node_cycle", get: func(s report.Sample) float64 { return s.AcceptedFlitsPerNodeCycle }},
	}
	// The VC router's buffer ratios; the input/output-buffered switch counts
	// no buffers per cycle (its runs would draw zeros) and has packets waiting
	// in its adapters' injection memories instead.
	ioq := func(r *Record) bool { return r.Result.Switch != nil }
	if slices.ContainsFunc(first, func(r *Record) bool { return !ioq(r) }) {
		vc := func(get func(report.Sample) float64) func(*Record, report.Sample) float64 {
			return func(r *Record, s report.Sample) float64 {
				if ioq(r) {
					return math.NaN()
				}
				return get(s)
			}
		}
		series = append(series,
			seriesPlot{name: "valid_buffer_ratio", perRun: vc(func(s report.Sample) float64 { return s.ValidBufferRatio })},
			seriesPlot{name: "mobility_ratio", perRun: vc(func(s report.Sample) float64 { return s.MobilityRatio })})
	}
	if slices.ContainsFunc(first, ioq) {
		series = append(series, seriesPlot{name: "source_queued_packets", get: func(s report.Sample) float64 { return float64(s.SourceQueuedPackets) }},
			seriesPlot{name: "injection_memory_packets", perRun: func(r *Record, s report.Sample) float64 {
				if !ioq(r) {
					return math.NaN()
				}
				return float64(s.InjectionMemoryPackets)
			}})
	}
	// With RECN: the SAQs in use and the flits they hold.
	saq := func(s report.Sample) *report.SAQSample { return s.SAQs }
	if slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.Series) > 0 && r.Result.Series[0].SAQs != nil }) {
		series = append(series,
			seriesPlot{name: "saqs_in_use_ingress", get: part(saq, func(e *report.SAQSample) float64 { return float64(e.InUseIngress) })},
			seriesPlot{name: "saqs_in_use_egress", get: part(saq, func(e *report.SAQSample) float64 { return float64(e.InUseEgress) })},
			seriesPlot{name: "saq_flits", get: part(saq, func(e *report.SAQSample) float64 { return float64(e.Flits) })},
			seriesPlot{name: "saq_fullest_flits", get: part(saq, func(e *report.SAQSample) float64 { return float64(e.FullestFlits) })})
	}
	// With entropy throttling: the extended paper's %thr, %ba and %mr (Fig. 9).
	entropy := func(s report.Sample) *report.EntropySample { return s.Entropy }
	if slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.Series) > 0 && r.Result.Series[0].Entropy != nil }) {
		series = append(series,
			seriesPlot{name: "throttled_node_share", get: part(entropy, func(e *report.EntropySample) float64 { return e.ThrottledNodeShare })},
			seriesPlot{name: "valid_buffers_per_router", get: part(entropy, func(e *report.EntropySample) float64 { return e.ValidPerRouter })},
			seriesPlot{name: "circuit_mobility_ratio", get: part(entropy, func(e *report.EntropySample) float64 { return e.CircuitMobilityRatio })},
			seriesPlot{name: "true_mobility_ratio", get: part(entropy, func(e *report.EntropySample) float64 { return e.TrueMobilityRatio })})
	}
	// With SAT: the interval and the shares of nodes waiting and starved.
	sat := func(s report.Sample) *report.SATSample { return s.SAT }
	if slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.Series) > 0 && r.Result.Series[0].SAT != nil }) {
		series = append(series,
			seriesPlot{name: "sat_interval_mean_cycles", get: part(sat, func(e *report.SATSample) float64 { return e.IntervalMeanCycles })},
			seriesPlot{name: "sat_waiting_node_share", get: part(sat, func(e *report.SATSample) float64 { return e.WaitingNodeShare })},
			seriesPlot{name: "sat_starved_node_share", get: part(sat, func(e *report.SATSample) float64 { return e.StarvedNodeShare })})
	}
	if slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.Series) > 0 }) {
		for _, s := range series {
			c := &figure.Chart{Title: title(f, study.NoUnit(report.Label(s.name))+" over time (replicate 0)", ""), XLabel: "Cycle", YLabel: report.Label(s.name),
				YFromZero: true, YInteger: isCount(s.name), Spans: phaseSpans(first)}
			for _, rec := range first {
				l := figure.Line{Name: name(rec)}
				for _, smp := range rec.Result.Series {
					if v := s.value(rec, smp); !math.IsNaN(v) {
						l.XY = append(l.XY, [2]float64{float64(smp.Cycle), v})
					}
				}
				c.Lines = append(c.Lines, l)
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			noteUnfinished(c)
			if err := c.Save(filepath.Join(pdir, "series-"+s.name), out); err != nil {
				return err
			}
		}
	}
	nodes := &figure.Chart{Title: title(f, "accepted throughput per node (replicate 0)", ""), XLabel: "Node", YLabel: "Accepted throughput (flits/cycle)", XInteger: true, YFromZero: true}
	cdf := &figure.Chart{Title: title(f, "packet latency distribution (replicate 0)", ""), XLabel: "Packet latency (cycles)", YLabel: "Share of packets at or below"}
	for _, rec := range first {
		l := figure.Line{Name: name(rec)}
		for i, v := range rec.Result.NodeAccepted {
			if !slices.Contains(rec.Result.SilentNodes, i) { // a node that never sends is no point
				l.XY = append(l.XY, [2]float64{float64(i), v})
			}
		}
		nodes.Lines = append(nodes.Lines, l)
		cdf.Lines = append(cdf.Lines, figure.Line{Name: name(rec), XY: rec.Result.LatencyCDF})
	}
	cdfForm(f, cdf, "packets")
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.Plot.NodeFigures != "topology" {
		noteUnfinished(nodes)
		if err := nodes.Save(filepath.Join(pdir, "node-throughput"), out); err != nil {
			return err
		}
	}
	if f.Plot.NodeFigures != "line" {
		if err := topologyFigures(ctx, f, first, pdir); err != nil {
			return err
		}
	}
	if err := linkFigures(ctx, f, first, pdir); err != nil {
		return err
	}
	// The fat-tree fairness paper's Fig. 5: each node's injection rate, by
	// node id, one line per point; with plot.lines, one figure per value of
	// the other axes and one line per value of plot.lines.
	if f.Plot.NodeFigures != "topology" && slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.NodeInjected) > 0 }) {
		err := perPoint(ctx, f, first, pdir, "node-injected-throughput", "injected throughput per node (replicate 0)", "Node", "Injected throughput (flits/cycle)",
			func(r *report.Result) [][2]float64 {
				var xy [][2]float64
				for i, v := range r.NodeInjected {
					if !slices.Contains(r.SilentNodes, i) {
						xy = append(xy, [2]float64{float64(i), v})
					}
				}
				return xy
			}, func(c *figure.Chart) { c.XInteger, c.YFromZero = true, true })
		if err != nil {
			return err
		}
	}
	// The Hybrid-HAR paper's Figs. 6 and 9: the latency distribution of
	// short (and of long) messages, grouped as above; request-reply's
	// requests and round trips.
	type classNames struct{ file, title, axis, share, legend string }
	classes := []classNames{
		{"short-latency-cdf", "short-message latency distribution (replicate 0)", "Short-message latency (cycles)", "Share of short messages at or below", "short messages"},
		{"long-latency-cdf", "long-message latency distribution (replicate 0)", "Long-message latency (cycles)", "Share of long messages at or below", "long messages"},
	}
	if slices.ContainsFunc(first, func(r *Record) bool { return r.Result.RequestReply != nil }) {
		classes = []classNames{
			{"request-latency-cdf", "request latency distribution (replicate 0)", "Request latency (cycles)", "Share of requests at or below", "requests"},
			{"round-trip-cdf", "round-trip distribution (replicate 0)", "Round trip (cycles)", "Share of transactions at or below", "transactions"},
		}
	}
	for k, class := range classes {
		if !slices.ContainsFunc(first, func(r *Record) bool { return len(r.Result.ClassLatencyCDF) > k && len(r.Result.ClassLatencyCDF[k]) > 0 }) {
			continue
		}
		err := perPoint(ctx, f, first, pdir, class.file, class.title, class.axis, class.share,
			func(r *report.Result) [][2]float64 {
				if len(r.ClassLatencyCDF) > k {
					return r.ClassLatencyCDF[k]
				}
				return nil
			}, func(c *figure.Chart) { cdfForm(f, c, class.legend) })
		if err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	noteUnfinished(cdf)
	return cdf.Save(filepath.Join(pdir, "latency-cdf"), out)
}

// wideAxis reports whether axis key sweeps positive values over at least
// two orders of magnitude (message sizes from 64 bytes to a MiB): its
// curves take a logarithmic x-axis.
func wideAxis(f *study.File, key string) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range f.Points {
		v, ok := f.Points[i].Value(key)
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || !(x > 0) {
			return false
		}
		lo, hi = min(lo, x), max(hi, x)
	}
	return hi >= 100*lo
}

// cdfForm draws a latency distribution chart in plot.cdf's form: the share
// at or below each latency over a log latency axis (log-x), the share above
// it on log-log axes (ccdf: the tail on a straight scale), or both axes
// linear. what names the things counted ("packets").
func cdfForm(f *study.File, c *figure.Chart, what string) {
	switch f.Plot.CDF {
	case "ccdf":
		for i := range c.Lines {
			l := &c.Lines[i]
			xy := make([][2]float64, len(l.XY))
			for j, pt := range l.XY {
				xy[j] = [2]float64{pt[0], 1 - pt[1]}
			}
			l.XY = xy
		}
		c.XLog, c.YLog = true, true
		c.YLabel = "Share of " + what + " above (log)"
	case "log-x":
		c.XLog, c.YFromZero = true, true
	default:
		c.YFromZero = true
	}
}

// phaseSpans are the parts of the runs' time that no measurement window
// covers: the warm-up before the earliest window and the drain after the
// latest, shaded on time series.
func phaseSpans(recs []*Record) []figure.Span {
	from, to, end := int64(math.MaxInt64), int64(0), int64(0)
	for _, r := range recs {
		if len(r.Result.Series) == 0 || r.Result.MeasureToCycle <= r.Result.MeasureFromCycle {
			continue
		}
		from, to, end = min(from, r.Result.MeasureFromCycle), max(to, r.Result.MeasureToCycle), max(end, r.Result.CyclesSimulated)
	}
	var spans []figure.Span
	if from != math.MaxInt64 && from > 0 {
		spans = append(spans, figure.Span{Name: "warm-up (not measured)", From: 0, To: float64(from)})
	}
	if to > 0 && end > to {
		spans = append(spans, figure.Span{Name: "drain (not measured)", From: float64(to), To: float64(end)})
	}
	return spans
}

// latencyAxis sets a latency chart's y-axis by plot.latency_axis: the
// whole range on a log axis; a linear axis cut at plot.y_max, or at
// plot.latency_cut times the zero-load latency rounded up to a round value;
// or the whole range on a linear axis.
func latencyAxis(f *study.File, x string, c *figure.Chart) {
	switch {
	case f.Plot.LatencyAxis == "cut":
		var xys []figureLine
		for _, l := range c.Lines {
			xys = append(xys, l.XY)
		}
		c.YMax = latencyCut(f, x, xys)
		if f.Plot.YMax <= 0 {
			c.YMax = figure.RoundUp(c.YMax)
		}
		c.YFromZero = true
	case f.Plot.LatencyAxis == "log" || f.Plot.YLog:
		c.YLog = true
	default:
		c.YFromZero = true
	}
}

// groupWords is a point's values on keys in words: "Traffic pattern =
// uniform, Offered load = 0.5", for legends and titles.
func groupWords(ps *pointStats, keys []string) string { return pointWords(ps.point, keys) }

// pointWords is groupWords of a point.
func pointWords(p *study.Point, keys []string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, p.Phrase(k))
	}
	return strings.Join(parts, ", ")
}

// isCount reports whether a metric counts whole things (SAQs, packets):
// its axis takes integer ticks.
func isCount(metric string) bool {
	return strings.HasPrefix(metric, "saqs_") || strings.HasSuffix(metric, "_packets") || metric == "in_flight_packets"
}

// isThroughput reports whether a metric is a throughput (saturation marks
// belong on it).
func isThroughput(metric string) bool {
	return strings.Contains(metric, "accepted") || strings.Contains(metric, "throughput") || strings.HasPrefix(metric, "injected") || strings.Contains(metric, "_injected_")
}

// integerAxis reports whether every value of axis key is a whole number.
func integerAxis(f *study.File, key string) bool {
	vals := axisValues(f, key)
	for _, v := range vals {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x != math.Trunc(x) {
			return false
		}
	}
	return len(vals) > 0
}

// plotOutput is how the study's figures are written: [plot]'s formats,
// size, font and title.
func plotOutput(f *study.File) figure.Output {
	return figure.Output{Formats: f.Plot.Formats, Width: vg.Length(f.Plot.WidthIn) * vg.Inch, Height: vg.Length(f.Plot.HeightIn) * vg.Inch,
		FontSize: vg.Points(f.Plot.FontPt), DPI: f.Plot.DPI, NoTitle: !f.Plot.Title}
}

// perPoint draws one line per point (replicate 0) of xy's values; with
// plot.lines, one figure per value of the other axes and one line per
// value of plot.lines.
func perPoint(ctx context.Context, f *study.File, first []*Record, pdir, file, what, xLabel, yLabel string, xy func(*report.Result) [][2]float64, form func(*figure.Chart)) error {
	var rest []string
	if f.Plot.Lines != "" {
		rest = without(f.AxisKeys(), []string{f.Plot.Lines})
	}
	var labels []string
	charts := map[string]*figure.Chart{}
	for _, rec := range first {
		p := &f.Points[rec.Point]
		label := strings.Join(pointValues(p, rest), ", ")
		c, ok := charts[label]
		if !ok {
			c = &figure.Chart{Title: title(f, what, pointWords(p, rest)), XLabel: xLabel, YLabel: yLabel}
			charts[label] = c
			labels = append(labels, label)
		}
		l := figure.Line{Name: pointWords(p, f.AxisKeys())}
		if f.Plot.Lines != "" {
			l.Name = pointWords(p, zipGroup(f, f.Plot.Lines))
		}
		if l.Name == "" {
			l.Name = f.Name
		}
		if rec.Result.Unfinished() != "" {
			l.Name += " " + unfinishedMark
		}
		l.XY = xy(rec.Result)
		c.Lines = append(c.Lines, l)
	}
	for _, label := range labels {
		if err := ctx.Err(); err != nil {
			return err
		}
		form(charts[label])
		noteUnfinished(charts[label])
		if err := charts[label].Save(filepath.Join(pdir, fileName(file, label)), plotOutput(f)); err != nil {
			return err
		}
	}
	return nil
}

// seriesPlot is one time-series figure: its name and the value of a sample.
type seriesPlot struct {
	name string
	get  func(report.Sample) float64
	// perRun, when set instead of get, reads a value that depends on the
	// run too (NaN, not drawn, for runs that do not have it).
	perRun func(*Record, report.Sample) float64
}

func (p seriesPlot) value(r *Record, s report.Sample) float64 {
	if p.perRun != nil {
		return p.perRun(r, s)
	}
	return p.get(s)
}

// part reads a value of a mechanism's part of a sample, NaN (not drawn)
// in samples without that part.
func part[T any](of func(report.Sample) *T, get func(*T) float64) func(report.Sample) float64 {
	return func(s report.Sample) float64 {
		if p := of(s); p != nil {
			return get(p)
		}
		return math.NaN()
	}
}

// lowerFirst lowers a label's first letter for the middle of a title.
func lowerFirst(s string) string {
	if len(s) < 2 || strings.ToUpper(s[:2]) == s[:2] {
		return s // empty, or an acronym such as "SAQ"
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func nonEmpty(k string) []string {
	if k == "" {
		return nil
	}
	return []string{k}
}

// title is a figure's title: the study's name, what the figure shows and
// the group's axis values, over a line with the parameters every point of
// the study shares, in words.
func title(f *study.File, what, group string) string {
	return figure.Title(f.Name, what, group, f.FixedWords())
}

func fileName(base, group string) string {
	if group == "" {
		return sanitize(base)
	}
	return sanitize(base + "-" + strings.ReplaceAll(group, " ", "_"))
}

// numericAxis reports whether every value of axis key is a number.
func numericAxis(f *study.File, key string) bool {
	for _, v := range axisValues(f, key) {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return false
		}
	}
	return true
}

// axisValues lists axis key's values, formatted, in file order.
func axisValues(f *study.File, key string) []string {
	for _, a := range f.Axes {
		if a.Key == key {
			var out []string
			for _, v := range a.Values {
				out = append(out, study.FormatParam(v))
			}
			return out
		}
	}
	return nil
}

// heatTicks is a heatmap axis's tick labels, key's values, and the tick
// of a point. An axis zipped with others has a tick per position of the
// zip, labelled with each zipped key's value ("islip, iSLIP iterations =
// 2"): its own values may repeat along the zip.
func heatTicks(f *study.File, key string) (labels []string, at func(*study.Point) int) {
	group := zipGroup(f, key)
	labels = axisValues(f, key)
	if len(group) == 1 {
		return labels, func(p *study.Point) int {
			v, _ := p.Value(key)
			return slices.Index(labels, v)
		}
	}
	cols := make([][]string, len(group))
	for g, k := range group {
		cols[g] = axisValues(f, k)
	}
	for j := range labels {
		for g := 1; g < len(group); g++ {
			labels[j] += ", " + study.KeyLabel(group[g]) + " = " + cols[g][j]
		}
	}
	return labels, func(p *study.Point) int {
	next:
		for j := range labels {
			for g, k := range group {
				if v, _ := p.Value(k); v != cols[g][j] {
					continue next
				}
			}
			return j
		}
		return -1
	}
}

type pointGroup struct {
	label   string
	members []*pointStats
}

// groupsOf groups points by their values on keys, in first-seen order,
// labelled "key=value ...".
func groupsOf(pts []*pointStats, keys []string) []pointGroup {
	var out []pointGroup
	idx := map[string]int{}
	for _, ps := range pts {
		var parts []string
		for _, k := range keys {
			v, _ := ps.point.Value(k)
			parts = append(parts, study.ShortKey(k)+"="+v)
		}
		label := strings.Join(parts, " ")
		i, ok := idx[label]
		if !ok {
			i = len(out)
			idx[label] = i
			out = append(out, pointGroup{label: label})
		}
		out[i].members = append(out[i].members, ps)
	}
	return out
}

// unfinishedMark ends the name of a line of a run that did not finish, in
// the figures of one line per run; noteUnfinished says what it means.
const unfinishedMark = "*"

// noteUnfinished adds the legend's note on unfinishedMark to c where a
// line carries it.
func noteUnfinished(c *figure.Chart) {
	if slices.ContainsFunc(c.Lines, func(l figure.Line) bool { return strings.HasSuffix(l.Name, " "+unfinishedMark) }) {
		c.Notes = append(c.Notes, unfinishedMark+" not finished")
	}
}

// finite reports whether v is a number (not NaN or infinite).
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
