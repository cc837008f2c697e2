package runner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// TestSaturationRule: the saturation load is the highest load up to which
// every load's accepted throughput is within 5% of the load generated in
// the window, with every measured packet delivered; a later load back
// within 5% does not count, a generated load below the nominal one (few
// long packets in a window) is not saturation, and packets left
// undelivered after the drain (generated NaN) are.
func TestSaturationRule(t *testing.T) {
	f := parse(t, `name = "sat"
`+satSweepHead+`[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2, 0.3, 0.4]
`)
	// accepted per point: uniform within 5% of the generated load up to 0.3
	// (0.3 * 0.96), then below; at 0.1 it generated 0.093 only and
	// accepted it (7% under the nominal 0.1, not saturated). Transpose
	// below already at 0.2, back within 5% at 0.3.
	accepted := []float64{0.093, 0.2, 0.288, 0.3, 0.1, 0.18, 0.3, 0.2}
	generated := []float64{0.093, 0.2, 0.3, 0.4, 0.1, 0.2, 0.3, 0.4}
	var pts []*pointStats
	for i := range f.Points {
		off, _ := f.Points[i].Value("traffic.load_flits_per_node_cycle")
		o := map[string]float64{"0.1": 0.1, "0.2": 0.2, "0.3": 0.3, "0.4": 0.4}[off]
		pts = append(pts, &pointStats{point: &f.Points[i], n: 1, generated: generated[i], mean: map[string]float64{"offered_flits_per_node_cycle": o, "accepted_flits_per_node_cycle": accepted[i]}})
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
	// Undelivered measured packets at 0.2 saturate uniform there, even
	// with the accepted throughput at the generated load.
	pts[1].generated = math.NaN()
	if s := saturations(f, pts)[0]; s.load != 0.1 || s.notReached {
		t.Errorf("uniform with packets undelivered at 0.2: %+v, want load 0.1", s)
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

[network.mesh]
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

// TestGeneratedLoad: the load generated in the window is the measured
// packets times their sizes (per class when sizes are bimodal), per sending
// node and cycle of the window, and NaN when measured packets were left
// undelivered.
func TestGeneratedLoad(t *testing.T) {
	c := study.Default()
	c.Traffic.PacketFlits, c.Traffic.LongPacketFlits = 32, 256
	r := &report.Result{Nodes: 16, SilentNodes: []int{0, 5, 10, 15}, MeasureFromCycle: 1000, MeasureToCycle: 3000,
		Latency: report.Stats{Count: 30}, ClassLatency: []report.Stats{{Count: 20}, {Count: 10}}}
	want := (20.0*32 + 10*256) / 2000 / 12
	if got := generatedLoad(&c, r); math.Abs(got-want) > 1e-12 {
		t.Errorf("bimodal: %g flits/node/cycle, want %g", got, want)
	}
	r.ClassLatency = nil
	if got, want := generatedLoad(&c, r), 30.0*32/2000/12; math.Abs(got-want) > 1e-12 {
		t.Errorf("one size: %g, want %g", got, want)
	}
	r.MeasuredUndelivered = 1
	if got := generatedLoad(&c, r); !math.IsNaN(got) {
		t.Errorf("with an undelivered packet: %g, want NaN", got)
	}
}

// TestSaturationReduction: the saturation kind gives, per line, the
// saturation load, the metric there and the highest value of the sweep.
func TestSaturationReduction(t *testing.T) {
	f := parse(t, `name = "satred"
`+satSweepHead+satLoadAxis+satReduce)
	// uniform saturates after 0.2; transpose accepts more past its
	// saturation at 0.1 (0.25 at 0.3), which the highest value shows.
	pts := satPoints(f, []float64{0.1, 0.2, 0.22, 0.1, 0.15, 0.25})
	tables := reduce(f, pts)
	want := [][]string{{"uniform", "0.2", "0.2", "0.22", ""}, {"transpose", "0.1", "0.1", "0.25", ""}}
	if len(tables) != 1 || !reflect.DeepEqual(tables[0].rows, want) {
		t.Errorf("rows %v, want %v", tables[0].rows, want)
	}
	for _, bad := range []string{"by = [\"traffic.pattern\"]", ""} {
		src := `name = "satred"
` + satSweepHead + `[[reduce]]
kind = "saturation"
metric = "accepted_flits_per_node_cycle"
` + bad + "\n"
		path := filepath.Join(t.TempDir(), "s.toml")
		os.WriteFile(path, []byte(src), 0o644)
		if _, err := study.LoadFile(context.Background(), path); err == nil {
			t.Errorf("a saturation reduction %q without a load axis was accepted", bad)
		}
	}
}

// TestSaturationReference: a [[reference]] naming a saturation reduction
// compares the published value with the metric at the line's saturation
// load, and is refused with a load in at or a reduction of another kind.
func TestSaturationReference(t *testing.T) {
	base := `name = "satref"
` + satSweepHead + satLoadAxis + satReduce + `[[reference]]
source = "Paper, Fig. 1"
metric = "accepted_flits_per_node_cycle"
value = 0.12
`
	f := parse(t, base+`reduce = "sat"
at = { "traffic.pattern" = "transpose" }
`)
	pts := satPoints(f, []float64{0.1, 0.2, 0.22, 0.1, 0.15, 0.25})
	rows := refRows(f, pts)
	// transpose saturates after 0.1, where it accepted 0.1 (not the 0.25
	// it reaches at 0.3).
	if len(rows) != 1 || rows[0].ours != 0.1 || rows[0].point.Index != 3 {
		t.Errorf("reference rows %+v, want ours 0.1 at point 3", rows)
	}
	for _, bad := range []string{
		"reduce = \"sat\"\nat = { \"traffic.pattern\" = \"transpose\", \"traffic.load_flits_per_node_cycle\" = 0.1 }\n",
		"reduce = \"nosuch\"\nat = { \"traffic.pattern\" = \"transpose\" }\n",
		"reduce = \"sat\"\nat = {}\n",
	} {
		path := filepath.Join(t.TempDir(), "s.toml")
		os.WriteFile(path, []byte(base+bad), 0o644)
		if _, err := study.LoadFile(context.Background(), path); err == nil || !strings.Contains(err.Error(), "reference[0]") {
			t.Errorf("%q: got %v, want a reference[0] error", bad, err)
		}
	}
}

// satSweepHead, satLoadAxis and satReduce are the parts of the saturation
// tests' study files: a 4x4 mesh under two patterns, three loads, and a
// saturation reduction of the accepted throughput.
const (
	satSweepHead = `[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
[traffic]
process = "bernoulli"
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
`
	satLoadAxis = `[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.1, 0.2, 0.3]
`
	satReduce = `[[reduce]]
name = "sat"
kind = "saturation"
metric = "accepted_flits_per_node_cycle"
`
)

// satPoints gives each point of a saturation test's study the accepted
// throughput of accepted (in point order), generated and offered at its load.
func satPoints(f *study.File, accepted []float64) []*pointStats {
	var pts []*pointStats
	for i := range f.Points {
		off, _ := f.Points[i].Value("traffic.load_flits_per_node_cycle")
		o := map[string]float64{"0.1": 0.1, "0.2": 0.2, "0.3": 0.3}[off]
		pts = append(pts, &pointStats{point: &f.Points[i], n: 1, generated: o, mean: map[string]float64{"offered_flits_per_node_cycle": o, "accepted_flits_per_node_cycle": accepted[i]}})
	}
	return pts
}
