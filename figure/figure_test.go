package figure

import (
	"testing"

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
