package runner

import (
	"cmp"

	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/icnsim/icnsim/report"

	"github.com/icnsim/icnsim/study"
)

// SaturationShare is the saturation rule's tolerance: a line is saturated
// from the first load at which the accepted throughput falls more than 5%
// below the load the sources generated in the window, or some packet
// generated in the window was still undelivered at the end of the drain.
//
// The generated load (generatedLoad), not the nominal one, is what the
// accepted throughput is held against: with long packets (the Hybrid-HAR
// studies' 256-flit messages) a window holds few of them per node, and the
// flits generated in it stray from the nominal rate by more than 5% at low
// load (100% long at 0.05 of the wire capacity: 0.0165 generated and
// accepted against 0.0176 nominal), which the nominal rule read as
// saturation at the lowest load. Nor can it be the injected load: past
// saturation the network accepts what it lets in and the source queues
// take the rest, so accepted and injected stay equal.
const SaturationShare = 0.05

// curveAxes are the axes of the curves against x: x (plot.x, default the
// swept load; "" when the study has no numeric x), lines (plot.lines,
// default the first other axis) and rest (one figure per combination).
// An axis zipped with x advances along the curve, and one zipped with
// lines along with the lines: neither is a line or a figure of its own.
func curveAxes(f *study.File) (x, lines string, rest []string) {
	axes := f.AxisKeys()
	x = f.Plot.X
	if x == "" && slices.Contains(axes, LoadKey) {
		x = LoadKey
	}
	if x == "" || !numericAxis(f, x) {
		return "", "", nil
	}
	withX := zipGroup(f, x)
	lines = f.Plot.Lines
	if lines == "" {
		if others := without(axes, withX); len(others) > 0 {
			lines = others[0]
		}
	}
	return x, lines, without(axes, append(withX, zipGroup(f, lines)...))
}

// zipGroup is key with the axes zipped with it (key alone when it is not
// zipped, or not swept).
func zipGroup(f *study.File, key string) []string {
	group := []string{key}
	for _, a := range f.Axes {
		if a.Key == key && a.Zip != "" {
			for _, b := range f.Axes {
				if b.Zip == a.Zip && b.Key != key {
					group = append(group, b.Key)
				}
			}
		}
	}
	return group
}

// saturation is where one line of a load sweep saturates.
type saturation struct {
	group, line string
	// load is the saturation load: the highest load up to which every
	// load's accepted throughput is within SaturationShare of the load
	// generated in the window and every measured packet was delivered
	// (NaN: already the lowest load is not); accepted is the accepted
	// throughput there, at the point.
	load, accepted float64
	at             *pointStats
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
			if s, ok := saturationOf(ms, xOf); ok {
				s.group, s.line = grp.label, ln.label
				out = append(out, s)
			}
		}
	}
	return out
}

// saturationOf applies the saturation rule to one line's points, sorted by
// load (xOf); ok is false when no point has an offered load.
func saturationOf(ms []*pointStats, xOf func(*pointStats) float64) (s saturation, ok bool) {
	s = saturation{load: math.NaN(), accepted: math.NaN(), notReached: true}
	for _, ps := range ms {
		if off := ps.mean["offered_flits_per_node_cycle"]; off <= 0 || math.IsNaN(off) {
			continue // no offered load (a collective, a saturation source)
		}
		ok = true
		gen, acc := ps.generated, ps.mean["accepted_flits_per_node_cycle"]
		if math.IsNaN(gen) || acc < (1-SaturationShare)*gen {
			s.notReached = false
			break
		}
		s.load, s.accepted, s.at = xOf(ps), acc, ps
	}
	return s, ok
}

// generatedLoad is the load the sources of a run generated in its
// measurement window, flits per sending node per cycle: the packets
// generated in the window (the measured ones, counted per message class)
// times their sizes. It is NaN when some of them were still undelivered at
// the end of the drain (the network did not keep up; their sizes are not
// known) and for runs without a window.
func generatedLoad(c *study.Config, r *report.Result) float64 {
	w := float64(r.MeasureToCycle - r.MeasureFromCycle)
	senders := float64(r.Nodes - len(r.SilentNodes))
	if r.MeasuredUndelivered > 0 || w <= 0 || senders <= 0 {
		return math.NaN()
	}
	flits := float64(r.Latency.Count) * float64(c.Traffic.PacketFlits)
	if len(r.ClassLatency) > 1 && r.RequestReply != nil {
		flits = float64(r.ClassLatency[0].Count)*float64(c.Traffic.RequestFlits) + float64(r.ClassLatency[1].Count)*float64(c.Traffic.ReplyFlits)
	} else if len(r.ClassLatency) > 1 {
		flits = float64(r.ClassLatency[0].Count)*float64(c.Traffic.PacketFlits) + float64(r.ClassLatency[1].Count)*float64(c.Traffic.LongPacketFlits)
	}
	return flits / w / senders
}

// writeSaturations prints the saturation table of the summary.
func writeSaturations(w io.Writer, sats []saturation) {
	if len(sats) == 0 {
		return
	}
	fmt.Fprintf(w, "\nsaturation throughput (the highest load up to which, at every load, the accepted throughput is within %g%% of the load the sources generated in the window and every packet generated in it was delivered by the end of the drain)\n", SaturationShare*100)
	// The figure (the other axes' values) and line columns only where a
	// study has more than one of them.
	groups := slices.ContainsFunc(sats, func(s saturation) bool { return s.group != "" })
	lines := slices.ContainsFunc(sats, func(s saturation) bool { return s.line != "" })
	t := &table{}
	if groups {
		t.head = append(t.head, "figure")
	}
	if lines {
		t.head = append(t.head, "line")
	}
	t.head = append(t.head, "saturation load", "accepted there", "note")
	for _, s := range sats {
		load, acc, note := fmtG(s.load), fmtG(s.accepted), ""
		switch {
		case math.IsNaN(s.load):
			load, acc, note = "-", "-", "saturated at the lowest load"
		case s.notReached:
			note = "not saturated at the highest load"
		}
		var row []string
		if groups {
			row = append(row, orDash(s.group))
		}
		if lines {
			row = append(row, orDash(s.line))
		}
		t.rows = append(t.rows, append(row, load, acc, note))
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
