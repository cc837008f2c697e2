package figure

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// TestEmptyCorner: the legend goes to the corner the data leaves free.
func TestEmptyCorner(t *testing.T) {
	line := func(f func(x float64) float64) []plotter.XY {
		var pts []plotter.XY
		for x := 0.0; x <= 1; x += 0.05 {
			pts = append(pts, plotter.XY{X: x, Y: f(x)})
		}
		return pts
	}
	for _, c := range []struct {
		name      string
		pts       []plotter.XY
		top, left bool
	}{
		{"rising (throughput against load)", line(func(x float64) float64 { return x }), true, true},
		{"falling", line(func(x float64) float64 { return 1 - x }), true, false},
		{"latency blowing up at the right", line(func(x float64) float64 { return 1 + x*x*x*x*100 }), true, true},
		{"latency, and a busy top left", append(line(func(x float64) float64 { return 1 + x*x*x*x*100 }), plotter.XY{X: 0, Y: 101}, plotter.XY{X: 0.05, Y: 100}, plotter.XY{X: 0.1, Y: 99}), true, false}, // top right and bottom right hold 2 points each: top first
		{"flat in the middle, high at both ends", append(line(func(x float64) float64 { return 0.5 }), plotter.XY{X: 0, Y: 1}, plotter.XY{X: 1, Y: 1}, plotter.XY{X: 0, Y: 0}), false, false},
	} {
		top, left := emptyCorner(plot.New(), c.pts, 3)
		if top != c.top || left != c.left {
			t.Errorf("%s: legend top %v left %v, want top %v left %v", c.name, top, left, c.top, c.left)
		}
	}
}

// TestUnitTicksRound: over ranges of every scale, 4 to 8 major ticks (or
// the nearest count an integer axis allows), each a whole multiple of a
// step of 1, 2 or 5 times a power of ten, every label reading back its
// value; on an integer axis every tick is a whole number.
func TestUnitTicksRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 1))
	for i := range 5000 {
		scale := math.Pow(10, float64(rng.IntN(16)-8))
		lo := (rng.Float64() - 0.3) * scale * 10
		hi := lo + rng.Float64()*scale*10 + scale*1e-3
		integer := i%3 == 0
		if integer {
			lo, hi = math.Round(lo), math.Round(hi)+float64(rng.IntN(3))
		}
		ts := UnitTicks{Integer: integer}.Ticks(lo, hi)
		var major []float64
		for _, tk := range ts {
			if integer && tk.Value != math.Round(tk.Value) {
				t.Fatalf("[%g, %g] integer: tick at %g", lo, hi, tk.Value)
			}
			if tk.Label == "" {
				continue
			}
			major = append(major, tk.Value)
			if v, err := strconv.ParseFloat(tk.Label, 64); err != nil || math.Abs(v-tk.Value) > (hi-lo)*1e-9 {
				t.Fatalf("[%g, %g]: label %q for %g", lo, hi, tk.Label, tk.Value)
			}
		}
		if len(major) < MinMajorTicks || len(major) > MaxMajorTicks {
			// Only where no round step gives 4 to 8 (a narrow range between
			// two steps' counts, or an integer axis under 3 units).
			for e := -10; e <= 10; e++ {
				for _, m := range []float64{1, 2, 5} {
					s := m * math.Pow10(e)
					n := int(math.Floor(hi/s+1e-9) - math.Ceil(lo/s-1e-9) + 1)
					if n >= MinMajorTicks && n <= MaxMajorTicks && (!integer || s >= 1) {
						t.Fatalf("[%g, %g] integer=%v: %d major ticks %v, but a step of %g gives %d", lo, hi, integer, len(major), major, s, n)
					}
				}
			}
		}
		if len(major) >= 2 {
			step := major[1] - major[0]
			e := math.Floor(math.Log10(step * (1 + 1e-9)))
			m := math.Round(step / math.Pow(10, e))
			if m != 1 && m != 2 && m != 5 || math.Abs(step/math.Pow(10, e)-m) > 1e-6 {
				t.Fatalf("[%g, %g]: step %g is not 1, 2 or 5 x 10^n", lo, hi, step)
			}
			if k := major[0] / step; math.Abs(k-math.Round(k)) > 1e-6 {
				t.Fatalf("[%g, %g]: first tick %g is not a multiple of the step %g", lo, hi, major[0], step)
			}
		}
	}
}

func TestRoundUp(t *testing.T) {
	for _, c := range [][2]float64{{108.9, 200}, {199.3, 200}, {200, 200}, {0.031, 0.05}, {7, 10}, {1, 1}, {1.5, 2}, {3e5, 5e5}} {
		if got := RoundUp(c[0]); math.Abs(got-c[1]) > c[1]*1e-12 {
			t.Errorf("RoundUp(%g) = %g, want %g", c[0], got, c[1])
		}
	}
}

// TestLogTicks: a log axis over less than three decades labels 1, 2 and 5
// times the powers of ten; over more, the powers alone; from 100,000 on by
// their SI prefix, below 0.001 in exponent form.
func TestLogTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		want   string
	}{
		{20, 300, "[20 50 100 200]"},
		{6, 3000, "[10 100 1000]"},
		{0.5, 2e6, "[1 10 100 1000 10000 100k 1M]"},
		{1.5e4, 5e6, "[20000 50000 100k 200k 500k 1M 2M 5M]"},
		{2e-5, 0.5, "[1e-04 0.001 0.01 0.1]"},
		{30, 45, "[30 40]"},
	} {
		var labels []string
		for _, tk := range (LogTicks{}).Ticks(c.lo, c.hi) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := fmt.Sprint(labels); got != c.want {
			t.Errorf("LogTicks(%g, %g) = %s, want %s", c.lo, c.hi, got, c.want)
		}
	}
}

// TestChartEdgeCases: what a review found: a range too narrow to step
// through in float64 gives one tick instead of a loop that never ends;
// levels, marks and spans at or below 0 on a log axis are left out (gonum's
// log scale panics on them) and out of the CSV too.
func TestChartEdgeCases(t *testing.T) {
	done := make(chan []plot.Tick, 1)
	go func() { done <- (UnitTicks{}).Ticks(0.3, 0.30000000000000004) }()
	select {
	case ts := <-done:
		if len(ts) != 1 {
			t.Errorf("ticks over [0.3, 0.30000000000000004]: %v, want one", ts)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("UnitTicks over [0.3, 0.30000000000000004] did not return")
	}
	c := &Chart{XLog: true, YLog: true, Lines: []Line{{Name: "a", XY: [][2]float64{{1, 10}, {10, 100}, {100, 1000}}}},
		Levels: []Level{{Name: "below", Value: -1}, {Name: "zero", Value: 0, Vertical: true}, {Name: "kept", Value: 50}},
		Marks:  []Mark{{Line: 0, X: 0}}, MarkName: "mark", Spans: []Span{{Name: "warm-up", From: 0, To: 5}}}
	base := filepath.Join(t.TempDir(), "log")
	if err := c.Save(base, Output{Formats: []string{"svg"}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(base + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{"below", "zero", "mark", "warm-up"} {
		if strings.Contains(string(b), gone) {
			t.Errorf("the CSV has %q, which a log axis cannot draw:\n%s", gone, b)
		}
	}
	if !strings.Contains(string(b), "kept,horizontal line,,50") {
		t.Errorf("the CSV lacks the level at 50:\n%s", b)
	}
}
