package runner

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/icnsim/icnsim/internal/atomicfile"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// WriteOutputs writes the study's tables and figures from its records (every
// run, in order). Each file is written atomically.
//
// ctx stops it between files: a file is written whole or not at all, and
// the records it is made from stay, so icnsim plot can write the rest.
func WriteOutputs(ctx context.Context, dir string, f *study.File, recs []*Record) error {
	if err := removeTemps(dir); err != nil {
		return err
	}
	write := func(name string, fill func(io.Writer) error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			return err
		}
		if err := atomicfile.WriteFrom(filepath.Join(dir, name), fill); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	if err := write("results.csv", func(w io.Writer) error { return WriteResultsCSV(w, f, recs) }); err != nil {
		return err
	}
	if err := write("results.json", func(w io.Writer) error { return writeResultsJSON(w, f.Name, nonNil(f.AxisKeys()), recs) }); err != nil {
		return err
	}
	pts := pointMeans(f, recs)
	if err := write("replicates.csv", func(w io.Writer) error { return writeReplicatesCSV(w, f, pts) }); err != nil {
		return err
	}
	tables := reduce(f, pts)
	// A study resumed with other [[reduce]] or [[reference]] tables keeps
	// no output of the old ones.
	stale, _ := filepath.Glob(filepath.Join(dir, "reduce-*.csv"))
	if len(f.References) == 0 {
		stale = append(stale, filepath.Join(dir, "reference.csv"))
	}
	for _, s := range stale {
		if slices.ContainsFunc(tables, func(t *table) bool { return filepath.Base(s) == "reduce-"+sanitize(t.name)+".csv" }) {
			continue
		}
		if err := os.Remove(s); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for _, t := range tables {
		if err := write("reduce-"+sanitize(t.name)+".csv", t.writeCSV); err != nil {
			return err
		}
	}
	if err := write("summary.txt", func(w io.Writer) error { return writeSummary(w, f, len(recs), pts, tables) }); err != nil {
		return err
	}
	if len(f.References) > 0 {
		if err := write("reference.csv", func(w io.Writer) error { return writeReferenceCSV(w, f, refRows(f, pts)) }); err != nil {
			return err
		}
	}
	if slices.ContainsFunc(recs, func(r *Record) bool { return len(r.Result.Batches) > 0 }) {
		if err := write("batches.csv", func(w io.Writer) error { return writeBatchesCSV(w, f, recs) }); err != nil {
			return err
		}
	}
	for _, rec := range recs {
		if len(rec.Result.InjectionMatrix) == 0 {
			continue
		}
		if err := write(filepath.Join("matrices", rec.Run+".csv"), func(w io.Writer) error { return report.WriteMatrixCSV(w, rec.Result) }); err != nil {
			return err
		}
	}
	for _, rec := range recs {
		if rec.Result.Flows == nil {
			continue
		}
		if err := write(filepath.Join("flows", rec.Run+".csv"), func(w io.Writer) error { return report.WriteFlowsCSV(w, rec.Result.Flows) }); err != nil {
			return err
		}
	}
	for _, rec := range recs {
		if rec.Result.Links == nil {
			continue
		}
		if err := write(filepath.Join("links", rec.Run+".csv"), func(w io.Writer) error { return report.WriteLinksCSV(w, rec.Result.Links) }); err != nil {
			return err
		}
	}
	for _, rec := range recs {
		if len(rec.Result.Series) == 0 {
			continue
		}
		if err := write(filepath.Join("series", rec.Run+".csv"), func(w io.Writer) error { return report.WriteSeriesCSV(w, rec.Result) }); err != nil {
			return err
		}
	}
	if err := Plot(ctx, dir, f, recs); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return WriteReport(dir, f, recs)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteResultsCSV writes the tidy table: one row per run, the swept keys as
// columns (their names carry units, e.g. traffic.load_flits_per_node_cycle),
// then what the run was and what it measured.
func WriteResultsCSV(w io.Writer, f *study.File, recs []*Record) error {
	cw := csv.NewWriter(w)
	head := append([]string{"run", "point", "replicate"}, f.AxisKeys()...)
	head = append(head, report.IdentityHeader()...)
	ms := report.MetricsFor(results(recs))
	if err := cw.Write(append(head, report.MetricHeader(ms)...)); err != nil {
		return err
	}
	for _, rec := range recs {
		row := []string{rec.Run, strconv.Itoa(rec.Point), strconv.Itoa(rec.Replicate)}
		for _, k := range f.AxisKeys() {
			v, _ := f.Points[rec.Point].Value(k)
			row = append(row, v)
		}
		row = append(row, report.Identity(rec.Result)...)
		if err := cw.Write(append(row, report.MetricRow(rec.Result, ms)...)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeBatchesCSV writes one row per batch of the packet-batches method:
// the run, its swept keys, and the batch's node throughput.
func writeBatchesCSV(w io.Writer, f *study.File, recs []*Record) error {
	cw := csv.NewWriter(w)
	head := append([]string{"run", "point", "replicate"}, f.AxisKeys()...)
	cw.Write(append(head, "batch", "from_cycle", "to_cycle", "packets_delivered", "node_injected_mean_flits_per_cycle",
		"node_injected_min_flits_per_cycle", "node_injected_max_flits_per_cycle", "node_injected_jain",
		"accepted_flits_per_node_cycle", "network_latency_mean_cycles"))
	ff := report.FormatFloat
	for _, rec := range recs {
		for i, b := range rec.Result.Batches {
			row := []string{rec.Run, strconv.Itoa(rec.Point), strconv.Itoa(rec.Replicate)}
			for _, k := range f.AxisKeys() {
				v, _ := f.Points[rec.Point].Value(k)
				row = append(row, v)
			}
			row = append(row, strconv.Itoa(i+1), strconv.FormatInt(b.FromCycle, 10), strconv.FormatInt(b.ToCycle, 10),
				strconv.FormatUint(b.PacketsDelivered, 10), ff(b.NodeInjected.Mean), ff(b.NodeInjected.Min), ff(b.NodeInjected.Max),
				ff(b.NodeInjected.Jain), ff(b.AcceptedFlitsPerNodeCycle), ff(b.NetworkLatencyMeanCycles))
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

// results lists the records' results.
func results(recs []*Record) []*report.Result {
	rs := make([]*report.Result, len(recs))
	for i, rec := range recs {
		rs[i] = rec.Result
	}
	return rs
}

// pointStats is one point's metrics over its replicates.
type pointStats struct {
	point *study.Point
	n     int
	mean  map[string]float64
	std   map[string]float64
	// results are its runs' results.
	results []*report.Result
	// generated is the mean over its runs of the load the sources
	// generated in the window (generatedLoad; NaN if any run is NaN).
	generated float64
}

func pointMeans(f *study.File, recs []*Record) []*pointStats {
	pts := make([]*pointStats, len(f.Points))
	byPoint := make([][]*report.Result, len(f.Points))
	for _, rec := range recs {
		byPoint[rec.Point] = append(byPoint[rec.Point], rec.Result)
	}
	for i := range f.Points {
		ps := &pointStats{point: &f.Points[i], n: len(byPoint[i]), mean: map[string]float64{}, std: map[string]float64{}, results: byPoint[i]}
		for _, m := range report.Metrics() {
			var xs []float64
			for _, r := range byPoint[i] {
				xs = append(xs, m.Value(r))
			}
			ps.mean[m.Name], ps.std[m.Name] = report.MeanStd(xs)
		}
		var gen []float64
		for _, r := range byPoint[i] {
			gen = append(gen, generatedLoad(&f.Points[i].Config, r))
		}
		ps.generated, _ = report.MeanStd(gen)
		pts[i] = ps
	}
	return pts
}

func writeReplicatesCSV(w io.Writer, f *study.File, pts []*pointStats) error {
	cw := csv.NewWriter(w)
	head := append([]string{"point"}, f.AxisKeys()...)
	head = append(head, "replicates")
	var all []*report.Result
	for _, ps := range pts {
		all = append(all, ps.results...)
	}
	names := report.MetricHeader(report.MetricsFor(all))
	names = names[:len(names)-3] // not completed, unfinished, digest
	for _, m := range names {
		head = append(head, m+"_mean", m+"_std")
	}
	cw.Write(head)
	for _, ps := range pts {
		row := []string{strconv.Itoa(ps.point.Index)}
		for _, k := range f.AxisKeys() {
			v, _ := ps.point.Value(k)
			row = append(row, v)
		}
		row = append(row, strconv.Itoa(ps.n))
		for _, m := range names {
			row = append(row, report.FormatFloat(ps.mean[m]), report.FormatFloat(ps.std[m]))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// WriteSummary prints one row per point (the mean over its replicates, with
// the standard deviation when there are several), then the reductions.
func WriteSummary(w io.Writer, f *study.File, recs []*Record) error {
	pts := pointMeans(f, recs)
	return writeSummary(w, f, len(recs), pts, reduce(f, pts))
}

func writeSummary(w io.Writer, f *study.File, runs int, pts []*pointStats, tables []*table) error {
	fmt.Fprintf(w, "study %s: %d points x %d replicates = %d runs\n", f.Name, len(f.Points), f.Study.Replicates, runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	var head []string
	for _, k := range f.AxisKeys() {
		head = append(head, study.ShortKey(k))
	}
	collective := slices.ContainsFunc(f.Points, func(p study.Point) bool { return p.Config.Traffic.Process == "collective" })
	cols := []struct{ metric, title string }{
		{"offered_flits_per_node_cycle", "offered"}, {"accepted_flits_per_node_cycle", "accepted"},
		{"latency_mean_cycles", "lat mean"}, {"latency_p99_cycles", "lat p99"}, {"node_accepted_jain", "jain"}}
	if collective {
		cols = append(cols[1:], struct{ metric, title string }{"collective_duration_cycles", "duration"})
	}
	// The fairness method reports node throughput as the fat-tree fairness
	// paper does: the average, minimum and maximum node injection rate.
	fairness := slices.ContainsFunc(f.Points, func(p study.Point) bool { return p.Config.Measure.Method == "packet-batches" })
	if fairness {
		cols = []struct{ metric, title string }{{"injected_flits_per_node_cycle", "node avg"},
			{"node_injected_min_flits_per_cycle", "node min"}, {"node_injected_max_flits_per_cycle", "node max"},
			{"node_injected_jain", "jain"}, {"network_latency_mean_cycles", "net lat"}}
		if slices.ContainsFunc(f.Points, func(p study.Point) bool {
			return strings.HasPrefix(strings.TrimSpace(p.Config.Policy.Injection), "sat")
		}) {
			cols = append(cols, struct{ metric, title string }{"sat_interval_mean_cycles", "sat interval"})
		}
	}
	for _, c := range cols {
		head = append(head, c.title)
	}
	unfinished := unfinishedRuns(pts)
	if len(unfinished) > 0 {
		head = append(head, "finished")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, ps := range pts {
		var row []string
		for _, k := range f.AxisKeys() {
			v, _ := ps.point.Value(k)
			row = append(row, v)
		}
		for _, c := range cols {
			s := "-" // no value: a mean of nothing, an unfinished collective
			if v := ps.mean[c.metric]; !math.IsNaN(v) {
				s = strconv.FormatFloat(v, 'g', 5, 64)
				if ps.n > 1 && !math.IsNaN(ps.std[c.metric]) {
					s += " ±" + strconv.FormatFloat(ps.std[c.metric], 'g', 3, 64)
				}
			}
			row = append(row, s)
		}
		if len(unfinished) > 0 {
			row = append(row, finishedCell(ps))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(unfinished) > 0 {
		fmt.Fprintf(w, "NOT FINISHED: %d of %d runs; their numbers cover what they measured before they stopped:\n", len(unfinished), runs)
		for _, u := range unfinished {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
	writeWarmupChecks(w, pts)
	units := "units: offered and accepted in flits/node/cycle; latencies (from generation) and duration in cycles; jain: per-node accepted fairness"
	if fairness {
		units = "units: node throughput (injected) in flits/node/cycle; net lat: mean delay from injection and sat interval in cycles; jain: per-node injected fairness"
	}
	if f.Study.Replicates > 1 {
		units += "; ±: standard deviation over replicates"
	}
	fmt.Fprintln(w, units)
	for _, t := range tables {
		fmt.Fprintf(w, "\n%s\n", t.title)
		t.writeText(w)
	}
	writeSaturations(w, saturations(f, pts))
	writeReferences(w, f, refRows(f, pts))
	writeLinkClasses(w, f, pts)
	return nil
}

// writeLinkClasses prints, for the studies that count their links, the
// utilisation of each link class at each point (its first replicate):
// mean and busiest link, the channel-load bound's busiest where the
// routing's routes could be traced, and the share of cycles ready flits
// waited for a credit.
func writeLinkClasses(w io.Writer, f *study.File, pts []*pointStats) {
	var rows [][]string
	note := ""
	for _, ps := range pts {
		if len(ps.results) == 0 || ps.results[0].Links == nil {
			continue
		}
		ls := ps.results[0].Links
		if !ls.Bound && note == "" {
			note = ls.BoundNote
		}
		for _, c := range ls.Classes() {
			bound := "-"
			if !math.IsNaN(c.BoundMaxFlitsPerCycle) {
				bound = strconv.FormatFloat(c.BoundMaxFlitsPerCycle, 'f', 4, 64)
			}
			rows = append(rows, []string{strconv.Itoa(ps.point.Index), ps.point.Label(), c.Class, strconv.Itoa(c.Links),
				strconv.FormatFloat(c.MeanFlitsPerCycle, 'f', 4, 64), strconv.FormatFloat(c.MaxFlitsPerCycle, 'f', 4, 64), bound,
				strconv.FormatFloat(c.MeanStallShare, 'f', 4, 64)})
		}
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprintln(w, "\nlink utilisation per class (flits/cycle = busy share; replicate 0 of each point; links/RUN.csv has every link and VC)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "point\tat\t"
	if len(f.Axes) == 0 { // one point: no axis values to show
		head = ""
	}
	fmt.Fprintln(tw, head+"class\tlinks\tmean\tbusiest\tbound busiest\tcredit stall\t")
	for _, r := range rows {
		if len(f.Axes) == 0 {
			r = r[2:]
		}
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
	if note != "" {
		fmt.Fprintln(w, note)
	}
}

// unfinishedRuns lists the runs of pts that did not finish
// (report.Result.Unfinished), one line each: point, replicate, why.
func unfinishedRuns(pts []*pointStats) []string {
	var out []string
	for _, ps := range pts {
		for rep, r := range ps.results {
			if why := r.Unfinished(); why != "" {
				where := fmt.Sprintf("point %d", ps.point.Index)
				if l := ps.point.Label(); l != "" {
					where += " (" + l + ")"
				}
				if len(ps.results) > 1 {
					where += fmt.Sprintf(", replicate %d", rep)
				}
				out = append(out, where+": "+why)
			}
		}
	}
	return out
}

// writeWarmupChecks prints, for the runs that sought their warm-up
// (measure.warmup_detect), those whose window began inside the transient,
// or that every one began after it.
func writeWarmupChecks(w io.Writer, pts []*pointStats) {
	checked, inside := 0, []string{}
	for _, ps := range pts {
		for _, r := range ps.results {
			if r.WarmupDetectedCycles <= 0 {
				continue
			}
			checked++
			if r.WarmupDetectedCycles > r.MeasureFromCycle {
				inside = append(inside, fmt.Sprintf("  point %d (%s): transient to about cycle %d, window from cycle %d", ps.point.Index, ps.point.Label(), r.WarmupDetectedCycles, r.MeasureFromCycle))
			}
		}
	}
	switch {
	case checked == 0:
	case len(inside) == 0:
		fmt.Fprintf(w, "warm-up check (MSER-5): every one of %d runs began its window after the transient\n", checked)
	default:
		fmt.Fprintf(w, "warm-up check (MSER-5): %d of %d runs began their window inside the transient (lengthen measure.warmup_cycles):\n%s\n", len(inside), checked, strings.Join(inside, "\n"))
	}
}

// finishedCell is a point's cell of the finished column: yes, or NO with
// how many of its runs did not finish.
func finishedCell(ps *pointStats) string {
	n := 0
	for _, r := range ps.results {
		if r.Unfinished() != "" {
			n++
		}
	}
	switch {
	case n == 0:
		return "yes"
	case len(ps.results) == 1:
		return "NO"
	}
	return fmt.Sprintf("NO %d/%d", n, len(ps.results))
}

// table is a reduction's output.
type table struct {
	name, title string
	head        []string
	rows        [][]string
}

func (t *table) writeCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(t.head)
	cw.WriteAll(t.rows)
	return cw.Error()
}

func (t *table) writeText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(t.head, "\t")+"\t")
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t")+"\t")
	}
	tw.Flush()
}

// groupKey is the point's values on keys, joined.
func groupKey(p *study.Point, keys []string) string {
	var parts []string
	for _, k := range keys {
		v, _ := p.Value(k)
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, "\x00")
}

func without(all, drop []string) []string {
	return slices.DeleteFunc(slices.Clone(all), func(k string) bool { return slices.Contains(drop, k) })
}

// reduce computes the [[reduce]] tables in file order. A speedup adds the
// metric "speedup" to every point, for later geomean and best reductions.
func reduce(f *study.File, pts []*pointStats) []*table {
	axes := f.AxisKeys()
	var tables []*table
	for _, red := range f.Reduce {
		t := &table{name: red.Name}
		smaller := red.Goal == "min"
		switch red.Kind {
		case "speedup":
			base := slices.Sorted(func(yield func(string) bool) {
				for k := range red.Baseline {
					if !yield(k) {
						return
					}
				}
			})
			byKey := map[string]*pointStats{}
			for _, ps := range pts {
				byKey[groupKey(ps.point, axes)] = ps
			}
			t.title = fmt.Sprintf("speed-up of %s over the baseline %s (%s is better)", red.Metric, baselineLabel(red.Baseline, base), betterWord(smaller))
			t.head = append(slices.Clone(axes), red.Metric, "baseline_"+red.Metric, "speedup")
			for _, ps := range pts {
				// The baseline point: this point's values with the baseline's on its keys.
				var parts []string
				for _, k := range axes {
					v, _ := ps.point.Value(k)
					if bv, ok := red.Baseline[k]; ok {
						v = study.FormatParam(bv)
					}
					parts = append(parts, k+"="+v)
				}
				baseline := math.NaN() // no such point (zipped axes)
				if bp := byKey[strings.Join(parts, "\x00")]; bp != nil {
					baseline = bp.mean[red.Metric]
				}
				sp := report.SpeedUp(ps.mean[red.Metric], baseline, smaller)
				ps.mean["speedup"] = sp
				row := pointValues(ps.point, axes)
				t.rows = append(t.rows, append(row, fmtG(ps.mean[red.Metric]), fmtG(baseline), fmtG(sp)))
			}
		case "geomean":
			keep := without(axes, red.Over)
			t.title = fmt.Sprintf("geometric mean of %s over %s", red.Metric, strings.Join(red.Over, ", "))
			t.head = append(slices.Clone(keep), "points", "geomean_"+red.Metric)
			for _, g := range geoGroups(pts, keep, red.Metric) {
				t.rows = append(t.rows, append(pointValues(g.first, keep), strconv.Itoa(g.n), fmtG(g.value)))
			}
		case "saturation":
			load := study.LoadAxes(axes)[0] // validated: exactly one
			rest := without(axes, []string{load})
			t.title = fmt.Sprintf("%s at the saturation load (the highest load up to which, at every load, the accepted throughput is within %g%% of the load generated in the window and every packet generated in it was delivered), per %s; highest_%s is the largest over the whole sweep, past saturation too", red.Metric, SaturationShare*100, orAll(rest), red.Metric)
			t.head = append(slices.Clone(rest), "saturation_load", red.Metric, "highest_"+red.Metric, "note")
			xOf := func(ps *pointStats) float64 {
				v, _ := ps.point.Value(load)
				x, _ := strconv.ParseFloat(v, 64)
				return x
			}
			for _, g := range groupsOf(pts, rest) {
				ms := slices.Clone(g.members)
				slices.SortStableFunc(ms, func(a, b *pointStats) int { return cmp.Compare(xOf(a), xOf(b)) })
				s, ok := saturationOf(ms, xOf)
				if !ok {
					continue
				}
				highest := math.Inf(-1)
				for _, ps := range ms {
					highest = max(highest, ps.mean[red.Metric])
				}
				at, note := math.NaN(), ""
				switch {
				case s.at == nil:
					note = "saturated at the lowest load"
				case s.notReached:
					note = "not saturated at the highest load"
				}
				if s.at != nil {
					at = s.at.mean[red.Metric]
				}
				row := pointValues(ms[0].point, rest)
				t.rows = append(t.rows, append(row, fmtG(s.load), fmtG(at), fmtG(highest), note))
			}
		case "best":
			keep := without(axes, red.Over)
			groups := geoGroups(pts, keep, red.Metric)
			by := red.By
			rest := without(keep, by)
			what := red.Metric
			if len(red.Over) > 0 {
				what = "geometric mean over " + strings.Join(red.Over, ", ") + " of " + red.Metric
			}
			t.title = fmt.Sprintf("best point (%s %s) per %s", betterWord(smaller)+" is better:", what, orAll(by))
			t.head = append(append(slices.Clone(by), rest...), red.Metric)
			var order []string
			best := map[string]int{}
			for i, g := range groups {
				k := groupKey(g.first, by)
				j, seen := best[k]
				if !seen {
					order = append(order, k)
					best[k] = i
					continue
				}
				if report.Best([]float64{groups[j].value, g.value}, smaller) == 1 {
					best[k] = i
				}
			}
			for _, k := range order {
				g := groups[best[k]]
				row := append(pointValues(g.first, by), pointValues(g.first, rest)...)
				t.rows = append(t.rows, append(row, fmtG(g.value)))
			}
		}
		tables = append(tables, t)
	}
	return tables
}

type geoGroup struct {
	first *study.Point
	n     int
	value float64
}

// geoGroups groups the points by their values on keep (in first-seen order)
// and takes the geometric mean of metric in each group (the value itself for
// groups of one).
func geoGroups(pts []*pointStats, keep []string, metric string) []geoGroup {
	var order []string
	members := map[string][]*pointStats{}
	for _, ps := range pts {
		k := groupKey(ps.point, keep)
		if _, ok := members[k]; !ok {
			order = append(order, k)
		}
		members[k] = append(members[k], ps)
	}
	var out []geoGroup
	for _, k := range order {
		var xs []float64
		for _, ps := range members[k] {
			xs = append(xs, ps.mean[metric])
		}
		v := xs[0]
		if len(xs) > 1 {
			v = report.GeoMean(xs)
		}
		out = append(out, geoGroup{first: members[k][0].point, n: len(xs), value: v})
	}
	return out
}

func pointValues(p *study.Point, keys []string) []string {
	var row []string
	for _, k := range keys {
		v, _ := p.Value(k)
		row = append(row, v)
	}
	return row
}

func fmtG(x float64) string {
	if math.IsNaN(x) {
		return "NaN"
	}
	return report.FormatFloat(x)
}

func betterWord(smaller bool) string {
	if smaller {
		return "smaller"
	}
	return "larger"
}

func orAll(by []string) string {
	if len(by) == 0 {
		return "study (overall)"
	}
	return strings.Join(by, ", ")
}

func baselineLabel(m map[string]any, keys []string) string {
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+" = "+study.FormatParam(m[k]))
	}
	return strings.Join(parts, ", ")
}

// sanitize makes s safe as part of a file name.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		case r == '=':
			return '-'
		}
		return '_'
	}, s)
}

// WriteResultsJSON writes what a study directory's results.json holds:
// the study's name, its axes and every record, in run order.
func WriteResultsJSON(w io.Writer, f *study.File, recs []*Record) error {
	return writeResultsJSON(w, f.Name, nonNil(f.AxisKeys()), recs)
}

// writeResultsJSON writes {"study", "axes", "runs"} indented by one space a
// level, the bytes json.Encoder with SetIndent("", " ") writes for them,
// one record at a time: the encoder holds the whole document in memory,
// compact and then indented (entropy-sweep-hyst's is 1.3 GB), where this
// holds one record. The time its shipped-study test saved (61 s -> 35 s)
// came with streaming into the file (atomicfile.WriteFrom); this alone
// changed it little.
func writeResultsJSON(w io.Writer, study string, axes []string, recs []*Record) error {
	head, err := json.MarshalIndent(struct {
		Study string   `json:"study"`
		Axes  []string `json:"axes"`
	}{study, axes}, "", " ")
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)     // w itself when it is a large enough bufio.Writer
	bw.Write(head[:len(head)-2]) // without the closing "\n}"
	bw.WriteString(",\n \"runs\": ")
	switch {
	case recs == nil:
		bw.WriteString("null")
	case len(recs) == 0:
		bw.WriteString("[]")
	default:
		bw.WriteString("[\n")
		for i, rec := range recs {
			b, err := json.MarshalIndent(rec, "  ", " ")
			if err != nil {
				return err
			}
			if i > 0 {
				bw.WriteString(",\n")
			}
			bw.WriteString("  ")
			bw.Write(b)
		}
		bw.WriteString("\n ]")
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
