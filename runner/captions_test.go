package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/study"
)

// captionStudy draws every kind of figure of a mesh, split into groups:
// curves and heatmaps per pattern, per-node figures per pattern and load
// (plot.lines is router.vc.vcs), short- and long-message latency, time series
// and a published value.
const captionStudy = `# A tiny study for the captions.
name = "captions"
seed = 2
[network]
topology = "mesh"

[network.mesh]
k = 4
[router]
routing = "dor"
[traffic]
process = "bernoulli"
long_packet_flits = 16
long_volume_percent = 50
[measure]
warmup_cycles = 100
measure_cycles = 300
drain_cycles = 2000
sample_cycles = 100
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "router.vc.vcs"
values = [2, 4]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.2]
[plot]
lines = "router.vc.vcs"
heatmap_x = "traffic.load_flits_per_node_cycle"
heatmap_y = "router.vc.vcs"
node_figures = "both"
[[reference]]
source = "Test paper, Table 1"
metric = "latency_mean_cycles"
value = 20
at = { "traffic.pattern" = "uniform", "router.vc.vcs" = 2, "traffic.load_flits_per_node_cycle" = 0.05 }
`

// fatTreeCaptionStudy is the fat-tree fairness form: per-node figures by
// leaf and by node id, one figure per pattern, one line per policy.
const fatTreeCaptionStudy = `name = "ft"
seed = 1
[network]
topology = "fattree"

[network.fattree]
k = 4
levels = 2
[router]
routing = "fattree-adaptive"
vc.vcs = 1
[traffic]
process = "bernoulli"
load_flits_per_node_cycle = 0.3
[[axis]]
key = "traffic.pattern"
values = ["uniform", "hot-region"]
[[axis]]
key = "policy.injection"
values = ["none", "sat(12,12,ring)"]
[plot]
lines = "policy.injection"
node_figures = "both"
`

// replicatedCaptionStudy has no plot.lines (the curves' lines are the
// first other axis, the pattern) and three replicates of each point.
const replicatedCaptionStudy = `name = "reps"
seed = 1
[study]
replicates = 3
[network]
topology = "torus"

[network.torus]
k = 4
[traffic]
process = "bernoulli"
[[axis]]
key = "traffic.pattern"
values = ["uniform", "transpose"]
[[axis]]
key = "router.vc.vcs"
values = [2, 4]
[[axis]]
key = "traffic.load_flits_per_node_cycle"
values = [0.05, 0.2]
`

// TestFigureCaption: each naming form of plots/ gets a caption in words
// that says what is drawn against what, per what line or panel, for which
// group, with the shared parameters.
func TestFigureCaption(t *testing.T) {
	mesh, ft, reps := parse(t, captionStudy), parse(t, fatTreeCaptionStudy), parse(t, replicatedCaptionStudy)
	for _, c := range []struct {
		study   string
		name    string
		want    []string
		notWant []string
	}{
		{"mesh", "accepted_flits_per_node_cycle-vs-load_flits_per_node_cycle-pattern-transpose",
			[]string{"Accepted throughput (flits/node/cycle) against offered load (flits/node/cycle), one line per value of virtual channels per port, for traffic pattern = transpose.", "saturation load", "Every point: 4x4 mesh, bernoulli injection, dor routing"},
			[]string{"arrow", "Crosses", "replicates"}},
		{"mesh", "latency_mean_cycles-vs-load_flits_per_node_cycle-pattern-uniform",
			[]string{"Mean packet latency (cycles) against offered load", "for traffic pattern = uniform.", "The latency axis is logarithmic.", "Crosses are published values."}, nil},
		{"mesh", "reference-latency_mean_cycles",
			[]string{"Mean packet latency (cycles): ours beside the published value (Test paper), one column per point compared"}, nil},
		{"mesh", "heatmap-accepted_flits_per_node_cycle-pattern-uniform",
			[]string{"Accepted throughput (flits/node/cycle) as a colour, with offered load (flits/node/cycle) across and virtual channels per port up, for traffic pattern = uniform."}, nil},
		{"mesh", "series-in_flight_packets", []string{"In flight packets against the simulated cycle, one line per point of the study; shaded, the warm-up before the measurement window and the drain after it."}, nil},
		{"mesh", "node-throughput", []string{"Accepted throughput of each node (flits/cycle) by node id, one line per point of the study"}, nil},
		{"mesh", "node-latency-map-transpose__0.2",
			[]string{"Mean latency of packets delivered to each node", "grid of routers", "one panel per value of virtual channels per port", "for traffic pattern = transpose, offered load (flits/node/cycle) = 0.2."},
			[]string{"part"}},
		{"mesh", "node-throughput-map-uniform__0.05-2", []string{"Accepted throughput per node", "offered load (flits/node/cycle) = 0.05 (part 2: the panels past the first 9)."}, nil},
		{"mesh", "short-latency-cdf-uniform__0.05", []string{"Distribution of short-message latency", "one line per value of virtual channels per port, for traffic pattern = uniform, offered load (flits/node/cycle) = 0.05."}, nil},
		{"mesh", "long-latency-cdf-transpose__0.2", []string{"Distribution of long-message latency", "traffic pattern = transpose"}, nil},
		{"mesh", "latency-cdf", []string{"Distribution of packet latency: the share of packets delivered within each latency, on a log latency axis (cycles), one line per point of the study."}, nil},
		{"mesh", "paper-fig9-uniform", []string{"in the form of a published paper's", "fig9 uniform."}, nil},
		{"mesh", "something-new_here", []string{"A figure of this study: something new here."}, nil},
		{"ft", "node-injected-throughput-hot-region",
			[]string{"Injected throughput of each node (flits/cycle) by node id, one line per value of injection policy, for traffic pattern = hot-region;", "Every point: 4-ary 2-tree (16 nodes)"}, nil},
		{"ft", "node-throughput-by-leaf-uniform", []string{"Accepted throughput per node, as bars by node id grouped by leaf switch: one panel per value of injection policy", "for traffic pattern = uniform."}, nil},
		{"ft", "node-latency-by-leaf-hot-region", []string{"Mean latency of packets delivered to each node", "leaf switch", "hot-region"}, nil},
		{"reps", "accepted_flits_per_node_cycle-vs-load_flits_per_node_cycle-vcs-4",
			[]string{"one line per value of traffic pattern, for virtual channels per port = 4.", "Each point is the mean of 3 replicates, its bar the 95% confidence interval of that mean.", "4x4 torus"}, nil},
		{"reps", "latency-cdf", []string{"one line per point of the study (its first replicate)."}, nil},
	} {
		t.Run(c.study+"/"+c.name, func(t *testing.T) {
			f := map[string]*study.File{"mesh": mesh, "ft": ft, "reps": reps}[c.study]
			got := figureCaption(f, c.name)
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("caption lacks %q:\n%s", w, got)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(got, w) {
					t.Errorf("caption has %q:\n%s", w, got)
				}
			}
			if !strings.HasSuffix(got, ".") || strings.Contains(got, c.name) && !strings.HasPrefix(c.name, "paper-") {
				t.Errorf("caption is not sentences without the file name:\n%s", got)
			}
		})
	}
}

// TestFigureCaptionEveryDrawnFigure: every figure a real run draws gets a
// caption of its own kind (not the generic one), in sentences, without
// the file's name or its snake_case words, and no two figures share one.
func TestFigureCaptionEveryDrawnFigure(t *testing.T) {
	f := parse(t, captionStudy)
	d := t.TempDir()
	run(t, f, Options{Out: d})
	svgs, _ := filepath.Glob(filepath.Join(d, "plots", "*.svg"))
	if len(svgs) < 30 {
		t.Fatalf("%d figures drawn, want every kind (30 or more)", len(svgs))
	}
	seen := map[string]string{}
	for _, s := range svgs {
		name := strings.TrimSuffix(filepath.Base(s), ".svg")
		got := figureCaption(f, name)
		if strings.HasPrefix(got, "A figure of this study") || strings.Contains(got, "_") || !strings.HasSuffix(got, ".") {
			t.Errorf("%s: caption %q", name, got)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%s and %s share the caption %q", name, other, got)
		}
		seen[got] = name
	}
}
