package runner

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// refRow is one published value beside ours.
type refRow struct {
	ref   *study.Reference
	point *study.Point
	// ours is the mean over the point's n replicates (the expected value
	// of one run of the study's length: for a maximum, the mean of the
	// replicates' maxima, not the largest of them), lo and hi the lowest
	// and highest replicate; rel is (ours - published) / |published| (NaN
	// when published is 0 or ours missing).
	ours, rel float64
	n         int
	lo, hi    float64
}

// compared says what ours is, for reference.csv and the summary.
func (r refRow) compared() string {
	switch {
	case r.n == 0:
		return "no run"
	case r.n == 1:
		return "the one run"
	}
	return fmt.Sprintf("mean of %d replicates", r.n)
}

// refRows pairs every [[reference]] of the study with our value.
func refRows(f *study.File, pts []*pointStats) []refRow {
	var out []refRow
	for i := range f.References {
		r := &f.References[i]
		ps := pts[r.Point]
		if r.Reduce != "" {
			// The line's saturation point: ours is the metric there.
			var line []*pointStats
			for _, j := range r.Line {
				line = append(line, pts[j])
			}
			xOf := func(p *pointStats) float64 {
				v, _ := p.point.Value(r.LoadKey)
				x, _ := strconv.ParseFloat(v, 64)
				return x
			}
			slices.SortStableFunc(line, func(a, b *pointStats) int { return cmp.Compare(xOf(a), xOf(b)) })
			if s, ok := saturationOf(line, xOf); ok && s.at != nil {
				ps = s.at
			} else {
				ps = &pointStats{point: ps.point} // no saturation point: no value
			}
		}
		ours := math.NaN()
		if ps.n > 0 {
			ours = ps.mean[r.Metric]
		}
		rel := math.NaN()
		if r.Value != 0 && !math.IsNaN(ours) {
			rel = (ours - r.Value) / math.Abs(r.Value)
		}
		lo, hi := math.NaN(), math.NaN()
		if m, ok := report.MetricByName(r.Metric); ok {
			for _, res := range ps.results {
				v := m.Value(res)
				if math.IsNaN(lo) || v < lo {
					lo = v
				}
				if math.IsNaN(hi) || v > hi {
					hi = v
				}
			}
		}
		out = append(out, refRow{ref: r, point: ps.point, ours: ours, rel: rel, n: ps.n, lo: lo, hi: hi})
	}
	return out
}

// atLabel is the reference's point in "key=value" words, in axis order.
func atLabel(f *study.File, r *study.Reference) string {
	var parts []string
	for _, k := range f.AxisKeys() {
		if v, ok := r.At[k]; ok {
			parts = append(parts, study.ShortKey(k)+"="+study.FormatParam(v))
		}
	}
	return strings.Join(parts, " ")
}

// writeReferenceCSV writes reference.csv: per published value, its source,
// metric, point, the published value, ours, the relative difference, what
// ours is (the one run, or the mean of the replicates) with the lowest and
// highest replicate, and the reference's note.
func writeReferenceCSV(w io.Writer, f *study.File, rows []refRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"source", "metric", "point", "at", "published", "ours", "relative_difference", "ours_is", "replicate_lowest", "replicate_highest", "note"})
	for _, r := range rows {
		cw.Write([]string{r.ref.Source, r.ref.Metric, fmt.Sprint(r.point.Index), atLabel(f, r.ref), fmtG(r.ref.Value), fmtG(r.ours), strconv.FormatFloat(r.rel, 'g', 4, 64),
			r.compared(), fmtG(r.lo), fmtG(r.hi), r.ref.Note})
	}
	cw.Flush()
	return cw.Error()
}

// writeReferences prints the comparison with the published values in the
// summary, and the largest relative difference.
func writeReferences(w io.Writer, f *study.File, rows []refRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(w, "\npublished values beside ours (reference.csv; difference = (ours - published) / published; with replicates, ours is their mean, the lowest and highest replicate in brackets)\n")
	t := &table{head: []string{"source", "metric", "at", "published", "ours", "difference"}}
	worst := -1
	for i, r := range rows {
		ours := fmtG(r.ours)
		if r.n > 1 {
			ours += " [" + fmtG(r.lo) + ", " + fmtG(r.hi) + "]"
		}
		t.rows = append(t.rows, []string{r.ref.Source, r.ref.Metric, atLabel(f, r.ref), fmtG(r.ref.Value), ours, pct(r.rel)})
		if !math.IsNaN(r.rel) && (worst < 0 || math.Abs(r.rel) > math.Abs(rows[worst].rel)) {
			worst = i
		}
	}
	t.writeText(w)
	if worst >= 0 {
		r := rows[worst]
		fmt.Fprintf(w, "largest relative difference: %s (%s, %s, %s)\n", pct(r.rel), r.ref.Source, r.ref.Metric, atLabel(f, r.ref))
	}
}

func pct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%+.1f%%", 100*x)
}

// refMetrics are the metrics the references name, in first-seen order.
func refMetrics(f *study.File) []string {
	var out []string
	for _, r := range f.References {
		if !slices.Contains(out, r.Metric) {
			out = append(out, r.Metric)
		}
	}
	return out
}
