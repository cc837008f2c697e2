package figure

import (
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// UnitTicks places major ticks at round values, 1, 2 or 5 times a power of
// ten, as many as give MinMajorTicks..MaxMajorTicks of them across the
// axis (the widest such step), with unlabelled minor ticks between, and
// labels each with as many decimals as the major ticks need and no more:
// 12000, not 12000.00; 0.1, not 0.10000000000000001.
type UnitTicks struct {
	// Integer keeps every tick on a whole number (counts: SAQs, packets,
	// node ids): no step below 1, no minor tick between two integers.
	Integer bool
	// Max, when positive, is the most major ticks (a short axis: a small
	// panel's, a colour bar's), below MaxMajorTicks.
	Max int
}

// The number of major ticks UnitTicks aims for.
const (
	MinMajorTicks = 4
	MaxMajorTicks = 8
)

// roundSteps are the mantissas of a round step.
func roundSteps() [3]float64 { return [3]float64{1, 2, 5} }

// Ticks returns the ticks between lo and hi.
func (u UnitTicks) Ticks(lo, hi float64) []plot.Tick {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	// A range too narrow beside its values to step through in float64
	// (0.3 to 0.30000000000000004) is one tick.
	if hi-lo <= 1e-9*max(math.Abs(lo), math.Abs(hi)) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 6, 64)}}
	}
	most := MaxMajorTicks
	if u.Max > 0 {
		most = max(2, min(u.Max, MaxMajorTicks))
	}
	step, mant, exp := roundStep(lo, hi, u.Integer, most)
	first, last := math.Ceil(lo/step-1e-9), math.Floor(hi/step+1e-9)
	decimals := max(0, -exp)
	var ts []plot.Tick
	for k := first; k <= last; k++ {
		label := strconv.FormatFloat(k*step, 'f', decimals, 64)
		if label == "-0" || (decimals > 0 && label == "-"+strconv.FormatFloat(0, 'f', decimals, 64)) {
			label = strconv.FormatFloat(0, 'f', decimals, 64)
		}
		// The value the label writes, not k*step: 6*0.1 is a hair above
		// 0.6, outside an axis that ends at 0.6, and gonum leaves no room
		// for the label of a tick it thinks is outside.
		v, _ := strconv.ParseFloat(label, 64)
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	// Minor ticks: fifths of a 1 or 5 step, quarters of a 2 step; none
	// that would fall between two integers on an integer axis.
	parts := 5.0
	if mant == 2 {
		parts = 4
	}
	minor := step / parts
	if u.Integer && minor < 1 {
		return ts
	}
	for k := math.Ceil(lo/minor - 1e-9); k <= math.Floor(hi/minor+1e-9); k++ {
		if math.Mod(k, parts) != 0 {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(k*minor, 'f', decimals+2, 64), 64)
			ts = append(ts, plot.Tick{Value: v})
		}
	}
	return ts
}

// roundStep is the widest round step (mant x 10^exp, mant 1, 2 or 5) that
// puts MinMajorTicks..most ticks on [lo, hi] (fewer than MinMajorTicks
// where most is below it); where none does, the step whose count comes
// nearest (an integer axis over 0..2 has 3).
func roundStep(lo, hi float64, integer bool, most int) (step, mant float64, exp int) {
	count := func(s float64) int { return int(math.Floor(hi/s+1e-9) - math.Ceil(lo/s-1e-9) + 1) }
	least := min(MinMajorTicks, most)
	e0 := int(math.Floor(math.Log10((hi - lo) / float64(most))))
	bestMiss := math.MaxInt
	for e := e0 - 1; e <= e0+2; e++ {
		for _, m := range roundSteps() {
			s := m * math.Pow10(e)
			if integer && s < 1 {
				continue
			}
			n := count(s)
			miss := 0
			if n < least {
				miss = least - n
			} else if n > most {
				miss = n - most
			}
			// Ties (including every step in range): the wider step.
			if miss <= bestMiss {
				step, mant, exp, bestMiss = s, m, e, miss
			}
		}
	}
	if mant == 0 { // an integer axis narrower than one unit
		return 1, 1, 0
	}
	if integer && exp < 0 {
		exp = 0
	}
	return step, mant, exp
}

// RoundUp is the smallest round value (1, 2 or 5 times a power of ten) at
// or above v > 0: a cut of an axis that reads at a glance.
func RoundUp(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 0) {
		return v
	}
	e := math.Floor(math.Log10(v))
	for {
		for _, m := range roundSteps() {
			if r := m * math.Pow(10, e); r >= v*(1-1e-12) {
				return r
			}
		}
		e++
	}
}

// gridColour is the grid's: light enough to read through, dark enough to
// read a value off.
func gridColour() color.Color { return color.Gray{Y: 0xdc} }

// lightGrid is a light grey grid at the major ticks, behind the data.
func lightGrid() *plotter.Grid {
	g := plotter.NewGrid()
	style := draw.LineStyle{Color: gridColour(), Width: vg.Points(0.5)}
	g.Vertical, g.Horizontal = style, style
	return g
}

// LogTicks are the ticks of a log axis: major ticks at the powers of ten,
// and at 2 and 5 times them where the axis spans two decades or less (so
// that a latency axis from 20 to 300 reads 20, 50, 100, 200, not only 100);
// every other power where it spans more than eight; minor ticks at the
// other integer multiples. An axis narrower than that takes UnitTicks'
// round linear steps, at most three of them (linear steps crowd towards
// the top of a log axis).
type LogTicks struct{}

// Ticks returns the ticks between lo and hi (lo > 0).
func (LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) || math.IsInf(hi, 0) {
		return UnitTicks{}.Ticks(lo, hi)
	}
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	decades := e1 - e0
	mants := []float64{1}
	if decades <= 2 {
		mants = []float64{1, 2, 5}
	}
	every := 1
	if decades > 8 {
		every = 2
	}
	ts, majors := logTickSet(lo, hi, mants, every, decades <= 6)
	if majors < 3 && len(mants) == 1 {
		// Fewer than three powers of ten inside: 2 and 5 times them too.
		ts, majors = logTickSet(lo, hi, []float64{1, 2, 5}, 1, true)
	}
	if majors < 3 {
		// Linear steps crowd towards the top of a log axis: few of them.
		return UnitTicks{Max: 3}.Ticks(lo, hi)
	}
	return ts
}

// logTickSet are the ticks at m x 10^e for m = 1..9 within [lo, hi]: major
// (labelled) where m is one of mants and e is every-th power from the
// lowest, minor otherwise (with minor).
func logTickSet(lo, hi float64, mants []float64, every int, minor bool) (ts []plot.Tick, majors int) {
	e0, e1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	in := func(v float64) bool { return v >= lo*(1-1e-9) && v <= hi*(1+1e-9) }
	for e := e0; e <= e1; e++ {
		for m := 1; m <= 9; m++ {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(m)*math.Pow10(e), 'g', 1, 64), 64)
			if !in(v) {
				continue
			}
			major := false
			for _, mm := range mants {
				major = major || (float64(m) == mm && (e-e0)%every == 0)
			}
			if major {
				ts = append(ts, plot.Tick{Value: v, Label: logLabel(v)})
				majors++
			} else if minor {
				ts = append(ts, plot.Tick{Value: v})
			}
		}
	}
	return ts, majors
}

// logLabel writes a log axis's tick: plainly from 0.001 to 100000, else
// as a power of ten.
func logLabel(v float64) string {
	if v >= 1e-3 && v < 1e5 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	// Large values by their SI prefix: 200k, 1M, 5G.
	for _, p := range []struct {
		scale  float64
		prefix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.scale && v < 1e15 {
			return strconv.FormatFloat(v/p.scale, 'f', -1, 64) + p.prefix
		}
	}
	return strconv.FormatFloat(v, 'e', 0, 64)
}

// fitTicks thins the major ticks of a horizontal axis whose ticker is
// UnitTicks (or a paper panel's round ticks) so that their labels, side by
// side, fit in length with a gap of a character between neighbours: a plot
// narrowed by a legend beside it or a panel among several has less room
// than the 8 ticks UnitTicks allows. Call it after every Add (the axis's
// range is the data's by then).
func fitTicks(a *plot.Axis, length vg.Length) {
	most := func(n int) plot.Ticker {
		switch t := a.Tick.Marker.(type) {
		case UnitTicks:
			t.Max = n
			return t
		case roundTicks:
			if t.step > 0 {
				return nil
			}
			t.max = n
			return t
		}
		return nil
	}
	if most(0) == nil || length <= 0 {
		return
	}
	for n := MaxMajorTicks; n >= 2; n-- {
		var widths vg.Length
		majors := 0
		for _, t := range most(n).Ticks(a.Min, a.Max) {
			if t.Label != "" {
				widths += a.Tick.Label.Width(t.Label) + a.Tick.Label.Font.Size
				majors++
			}
		}
		if widths <= length || majors <= 2 {
			a.Tick.Marker = most(n)
			return
		}
	}
}
