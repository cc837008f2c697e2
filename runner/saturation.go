package runner

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/study"
)

// SaturationShare is the saturation rule's tolerance: a line is saturated
// from the first load whose accepted throughput falls more than 5% below
// the offered load.
const SaturationShare = 0.05

// curveAxes are the axes of the curves against x: x (plot.x, default the
// swept load; "" when the study has no numeric x), lines (plot.lines,
// default the first other axis) and rest (one figure per combination).
func curveAxes(f *study.File) (x, lines string, rest []string) {
	axes := f.AxisKeys()
	x = f.Plot.X
	if x == "" && slices.Contains(axes, LoadKey) {
		x = LoadKey
	}
	if x == "" || !numericAxis(f, x) {
		return "", "", nil
	}
	lines = f.Plot.Lines
	if lines == "" {
		if others := without(axes, []string{x}); len(others) > 0 {
			lines = others[0]
		}
	}
	return x, lines, without(axes, []string{x, lines})
}

// saturation is where one line of a load sweep saturates.
type saturation struct {
	group, line string
	// load is the saturation load: the highest load up to which every
	// load's accepted throughput is within SaturationShare of the offered
	// load (NaN: already the lowest load is not); accepted is the accepted
	// throughput there.
	load, accepted float64
	// notReached: every load is within the rule (load is the highest).
	notReached bool
}

// saturations finds the saturation load of each line of the load curves,
// in figure order; none when the curves' x is not an offered load.
func saturations(f *study.File, pts []*pointStats) []saturation {
	x, lines, rest := curveAxes(f)
	if !strings.Contains(x, "load") {
		return nil
	}
	var out []saturation
	for _, grp := range groupsOf(pts, rest) {
		for _, ln := range groupsOf(grp.members, nonEmpty(lines)) {
			ms := slices.Clone(ln.members)
			xOf := func(ps *pointStats) float64 {
				v, _ := ps.point.Value(x)
				xf, _ := strconv.ParseFloat(v, 64)
				return xf
			}
			slices.SortStableFunc(ms, func(a, b *pointStats) int { return cmp.Compare(xOf(a), xOf(b)) })
			s := saturation{group: grp.label, line: ln.label, load: math.NaN(), accepted: math.NaN(), notReached: true}
			evaluated := 0
			for _, ps := range ms {
				off, acc := ps.mean["offered_flits_per_node_cycle"], ps.mean["accepted_flits_per_node_cycle"]
				if off <= 0 || math.IsNaN(off) {
					continue // no offered load (a collective, a saturation source)
				}
				evaluated++
				if acc < (1-SaturationShare)*off {
					s.notReached = false
					break
				}
				s.load, s.accepted = xOf(ps), acc
			}
			if evaluated > 0 {
				out = append(out, s)
			}
		}
	}
	return out
}

// writeSaturations prints the saturation table of the summary.
func writeSaturations(w io.Writer, sats []saturation) {
	if len(sats) == 0 {
		return
	}
	fmt.Fprintf(w, "\nsaturation throughput (the highest load up to which accepted throughput is within %g%% of offered at every load)\n", SaturationShare*100)
	t := &table{head: []string{"figure", "line", "saturation load", "accepted there", "note"}}
	for _, s := range sats {
		load, acc, note := fmtG(s.load), fmtG(s.accepted), ""
		switch {
		case math.IsNaN(s.load):
			load, acc, note = "-", "-", "saturated at the lowest load"
		case s.notReached:
			note = "not saturated at the highest load"
		}
		t.rows = append(t.rows, []string{orDash(s.group), orDash(s.line), load, acc, note})
	}
	t.writeText(w)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// latencyCut is where latency figures cut the y-axis: plot.y_max, else,
// when x is an offered load, plot.latency_cut times the zero-load latency
// (the value at the lowest load, of the line where it is highest, so that
// every line's low-load region shows); 0: no cut.
func latencyCut(f *study.File, x string, lines []figureLine) float64 {
	if f.Plot.YMax > 0 {
		return f.Plot.YMax
	}
	if f.Plot.LatencyCut <= 0 || !strings.Contains(x, "load") {
		return 0
	}
	zero := 0.0
	for _, l := range lines {
		for _, pt := range l {
			if !math.IsNaN(pt[1]) && pt[1] > 0 {
				zero = max(zero, pt[1])
				break // the lowest x: lines are sorted by x
			}
		}
	}
	if zero == 0 {
		return 0
	}
	return f.Plot.LatencyCut * zero
}

// figureLine is a line's points, sorted by x.
type figureLine = [][2]float64

// isLatency reports whether a metric is a latency (cut and log options).
func isLatency(metric string) bool { return strings.Contains(metric, "latency") }
