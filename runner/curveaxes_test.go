package runner

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/study"
)

// TestCurveAxesZipped: an axis zipped with x advances along the curves
// and one zipped with the lines along with the lines; neither splits the
// figures (fattree64-fig4-sat's x = sat_l zipped with sat_k drew one
// figure per x value; mesh-recn-fig3's lines = k zipped with the hot spot
// split the paper's three configurations over two figures).
func TestCurveAxesZipped(t *testing.T) {
	const base = "name = \"z\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\n" +
		"[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n"
	for _, c := range []struct {
		name, axes string
		x, lines   string
		rest       []string
		// figures: the CSV of each latency figure drawn, with its lines
		// and the points of each line.
		figures map[string]map[string]int
	}{
		{"x zipped", "[plot]\nx = \"router.vc.buffer_flits\"\n" +
			"[[axis]]\nkey = \"router.vc.buffer_flits\"\nvalues = [4, 8, 16]\nzip = \"b\"\n" +
			"[[axis]]\nkey = \"traffic.packet_flits\"\nvalues = [2, 4, 8]\nzip = \"b\"\n" +
			"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n",
			"router.vc.buffer_flits", "traffic.pattern", nil,
			map[string]map[string]int{"latency_mean_cycles-vs-buffer_flits": {"uniform": 3, "transpose": 3}}},
		{"lines zipped", "[[axis]]\nkey = \"network.mesh.k\"\nvalues = [4, 6]\nzip = \"c\"\n" +
			"[[axis]]\nkey = \"traffic.hotspot_node\"\nvalues = [5, 14]\nzip = \"c\"\n" +
			"[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, 0.2]\n" +
			"[[axis]]\nkey = \"router.vc.vcs\"\nvalues = [2, 4]\n",
			"traffic.load_flits_per_node_cycle", "network.mesh.k", []string{"router.vc.vcs"},
			map[string]map[string]int{
				"latency_mean_cycles-vs-load_flits_per_node_cycle-vcs-2": {"Radix k = 4, Hotspot node = 5": 2, "Radix k = 6, Hotspot node = 14": 2},
				"latency_mean_cycles-vs-load_flits_per_node_cycle-vcs-4": {"Radix k = 4, Hotspot node = 5": 2, "Radix k = 6, Hotspot node = 14": 2},
			}},
	} {
		f, err := study.ParseFile("z.toml", []byte(base+c.axes))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		x, lines, rest := curveAxes(f)
		if x != c.x || lines != c.lines || !slices.Equal(rest, c.rest) {
			t.Errorf("%s: x %q, lines %q, rest %q; want %q, %q, %q", c.name, x, lines, rest, c.x, c.lines, c.rest)
		}
		// The figures drawn, read from their CSVs: one per combination of
		// the rest, each line with every point of its curve.
		f.Plot.Formats = []string{"svg"}
		d := t.TempDir()
		run(t, f, Options{Out: d})
		got := map[string]map[string]int{}
		files, _ := filepath.Glob(filepath.Join(d, "plots", "latency_mean_cycles-vs-*.csv"))
		for _, file := range files {
			fh, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(fh).ReadAll()
			fh.Close()
			if err != nil {
				t.Fatal(err)
			}
			lines := map[string]int{}
			for _, r := range rows[1:] {
				if r[1] == "point" || r[1] == "above cut" {
					lines[r[0]]++
				}
			}
			got[strings.TrimSuffix(filepath.Base(file), ".csv")] = lines
		}
		if fmt.Sprint(got) != fmt.Sprint(c.figures) {
			t.Errorf("%s: figures and their lines' points %v, want %v", c.name, got, c.figures)
		}
	}
}

// TestHeatmapAxesZipped: an axis zipped with a heatmap's x or y advances
// with it and splits no heatmap (mesh8-router-options' allocator axis,
// zipped with islip_iterations, drew one heatmap per iteration count, each
// with the other allocators' rows empty), and a row is a position of the
// zip, labelled with its values, so a value repeated along the zip keeps
// its rows apart.
func TestHeatmapAxesZipped(t *testing.T) {
	const src = "name = \"hz\"\n[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 4\n[router]\nrouting = \"dor\"\nvc.vcs = 2\n[traffic]\nprocess = \"bernoulli\"\n" +
		"[measure]\nwarmup_cycles = 10\nmeasure_cycles = 10\n" +
		"[[axis]]\nkey = \"traffic.pattern\"\nvalues = [\"uniform\", \"transpose\"]\n" +
		"[[axis]]\nkey = \"router.vc.switch_allocator\"\nvalues = [\"separable-input-first\", \"islip\", \"islip\"]\nzip = \"a\"\n" +
		"[[axis]]\nkey = \"router.vc.islip_iterations\"\nvalues = [1, 1, 4]\nzip = \"a\"\n" +
		"[[axis]]\nkey = \"traffic.load_flits_per_node_cycle\"\nvalues = [0.1, 0.2]\n" +
		"[plot]\nheatmap_x = \"traffic.load_flits_per_node_cycle\"\nheatmap_y = \"router.vc.switch_allocator\"\n"
	f, err := study.ParseFile("hz.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f.Plot.Formats = []string{"svg"}
	d := t.TempDir()
	run(t, f, Options{Out: d})
	files, _ := filepath.Glob(filepath.Join(d, "plots", "heatmap-*.csv"))
	var names []string
	for _, file := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(file), ".csv"))
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// A cell per load and per position of the zip: "islip" twice, with
		// 1 and 4 rounds, on rows of their own.
		if strings.Contains(string(b), "NaN") || strings.Count(string(b), "\n") != 7 ||
			!strings.Contains(string(b), "islip, iSLIP iterations = 4") || !strings.Contains(string(b), "islip, iSLIP iterations = 1") {
			t.Errorf("%s has empty cells, a wrong number of rows or rows without their zip's values:\n%s", file, b)
		}
	}
	want := []string{"heatmap-accepted_flits_per_node_cycle-pattern-transpose", "heatmap-accepted_flits_per_node_cycle-pattern-uniform"}
	if !slices.Equal(names, want) {
		t.Errorf("heatmaps %v, want %v (one per pattern)", names, want)
	}
	if got := figureCaption(f, want[0]); !strings.Contains(got, "for traffic pattern = transpose.") {
		t.Errorf("caption %q", got)
	}
}
