package runner

import (
	"math"
	"testing"

	"github.com/icnsim/icnsim/study"
)

// TestSaturationRule: the saturation load is the highest load up to which
// every load's accepted throughput is within 5% of offered; a later load
// back within 5% does not count.
func TestSaturationRule(t *testing.T) {
	f := parse(t, `name = "sat"
[network]
topology = "mesh"
k = 4
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2, 0.3, 0.4]
`)
	// accepted per point: uniform within 5% up to 0.3 (0.3 * 0.96), then
	// below; transpose below already at 0.2, back within 5% at 0.3.
	accepted := []float64{0.1, 0.2, 0.288, 0.3, 0.1, 0.18, 0.3, 0.2}
	var pts []*pointStats
	for i := range f.Points {
		off, _ := f.Points[i].Value("traffic.load_flits_per_node_cycle")
		o := map[string]float64{"0.1": 0.1, "0.2": 0.2, "0.3": 0.3, "0.4": 0.4}[off]
		pts = append(pts, &pointStats{point: &f.Points[i], n: 1, mean: map[string]float64{"offered_flits_per_node_cycle": o, "accepted_flits_per_node_cycle": accepted[i]}})
	}
	sats := saturations(f, pts)
	if len(sats) != 2 {
		t.Fatalf("%d lines, want 2", len(sats))
	}
	if s := sats[0]; s.load != 0.3 || s.accepted != 0.288 || s.notReached {
		t.Errorf("uniform: %+v, want load 0.3", s)
	}
	if s := sats[1]; s.load != 0.1 || s.notReached {
		t.Errorf("transpose: %+v, want load 0.1", s)
	}
	// The latency cut: plot.latency_cut times the highest zero-load
	// latency, or plot.y_max.
	lines := []figureLine{{{0.1, 20}, {0.2, 400}}, {{0.1, 30}, {0.2, 4000}}}
	if got := latencyCut(f, LoadKey, lines); got != study.DefaultLatencyCut*30 {
		t.Errorf("latency cut %v, want %v", got, study.DefaultLatencyCut*30)
	}
	f.Plot.YMax = 77
	if got := latencyCut(f, LoadKey, lines); got != 77 {
		t.Errorf("latency cut with plot.y_max = 77: %v", got)
	}
	f.Plot.YMax, f.Plot.LatencyCut = 0, 0
	if got := latencyCut(f, LoadKey, lines); got != 0 || !math.IsInf(1/got, 1) {
		t.Errorf("latency_cut = 0 cuts at %v", got)
	}
}

// TestSaturationNeedsOfferedLoad: without an offered load (a collective,
// say) no line is listed, rather than "saturated at the lowest load"; and
// a non-load x gets no default latency cut.
func TestSaturationNeedsOfferedLoad(t *testing.T) {
	f := parse(t, `name = "sat"
[network]
topology = "mesh"
k = 4
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2]
`)
	var pts []*pointStats
	for i := range f.Points {
		pts = append(pts, &pointStats{point: &f.Points[i], n: 1, mean: map[string]float64{"offered_flits_per_node_cycle": 0, "accepted_flits_per_node_cycle": 0.1}})
	}
	if s := saturations(f, pts); len(s) != 0 {
		t.Errorf("saturation without offered load: %+v", s)
	}
	if got := latencyCut(f, "policy.sat_l", []figureLine{{{1, 20}, {2, 400}}}); got != 0 {
		t.Errorf("latency cut on x = policy.sat_l: %v, want none", got)
	}
}
