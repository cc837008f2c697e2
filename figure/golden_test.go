package figure

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/")

// golden compares the SVG the test drew at base.svg with
// testdata/NAME.svg, or with -update rewrites the latter, so that a change
// to a figure shows in review as a diff of its SVG.
func golden(t *testing.T, base, name string) {
	t.Helper()
	got, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".svg")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./figure -run Golden -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (%d vs %d bytes): look at both and, if the change is meant, go test ./figure -run Golden -update", base+".svg", path, len(got), len(want))
	}
}

// TestGoldenLatencyChart: a latency curve against load with the y-axis cut,
// points above it, a saturation mark per line and published values.
func TestGoldenLatencyChart(t *testing.T) {
	c := &Chart{Title: "golden: mean packet latency vs offered load\n8x8 mesh, uniform traffic", XLabel: "Offered load (flits/node/cycle)",
		YLabel: "Mean packet latency (cycles)", Points: true, YMax: 100,
		Lines: []Line{
			{Name: "dor", XY: [][2]float64{{0.1, 20}, {0.2, 22}, {0.3, 30}, {0.4, 80}, {0.5, 1000}, {0.6, 5000}},
				Lo: []float64{19, 21, 27, 60, 800, 4000}, Hi: []float64{21, 23, 33, 100, 1200, 6000}},
			{Name: "adaptive", XY: [][2]float64{{0.1, 21}, {0.2, 24}, {0.3, 40}, {0.4, 400}, {0.5, 2000}, {0.6, math.NaN()}}},
		},
		IntervalName: "95% CI of the mean, 5 replicates",
		Marks:        []Mark{{0, 0.4}, {1, 0.3}}, MarkName: "saturation load",
		Refs: []Ref{{"Paper A", 0.2, 25}, {"Paper A", 0.3, 33}, {"Paper B", 0.4, 150}}}
	base := filepath.Join(t.TempDir(), "latency")
	if err := c.Save(base, Output{Formats: []string{"svg", "png"}}); err != nil {
		t.Fatal(err)
	}
	golden(t, base, "latency-chart")
	if dir := os.Getenv("ICNSIM_FIGURE_DIR"); dir != "" {
		b, _ := os.ReadFile(base + ".png")
		os.WriteFile(filepath.Join(dir, "latency-chart.png"), b, 0o644)
	}
}

// TestGoldenNodeMap: per-node heatmaps of two points on one colour scale.
func TestGoldenNodeMap(t *testing.T) {
	var panels []Panel
	for k, name := range []string{"load=0.1", "load=0.4"} {
		z := make([][]float64, 4)
		for y := range z {
			z[y] = make([]float64, 4)
			for x := range z[y] {
				z[y][x] = float64(x+y+4*k) / 10
			}
		}
		panels = append(panels, Panel{Name: name, Z: z})
	}
	m := &NodeMap{Title: "golden: accepted throughput per node\n4x4 torus, transpose traffic", Label: "Accepted throughput (flits/cycle)", Panels: panels}
	base := filepath.Join(t.TempDir(), "map")
	if err := m.Save(base, Output{Formats: []string{"svg"}}); err != nil {
		t.Fatal(err)
	}
	golden(t, base, "node-map")
}

// TestGoldenWideLegend: more lines than fit inside, named by every axis
// value of a study: the legend goes below the plot, taking its height
// from the plot (the figure keeps the size asked for), the plot area as
// wide as without a legend; names too long to fit across the figure, or
// a legend too tall, get a smaller font.
func TestGoldenWideLegend(t *testing.T) {
	for _, c := range []struct{ name, prefix string }{
		{"wide-legend", "k=4 concentration=1 hotspot_node=10"},
		{"wider-legend", "k=16 concentration=1 hotspot_node=32 load_of_bisection=1 port_memory_bytes=131072 queues=recn"},
	} {
		ch := &Chart{Title: "golden: flits in the fullest SAQ over time", XLabel: "Cycle", YLabel: "Flits in the fullest SAQ (flits)"}
		for i := range 9 {
			l := Line{Name: fmt.Sprintf("%s hotspot_source_fraction=%d xoff_scope=children", c.prefix, i)}
			for x := range 5 {
				l.XY = append(l.XY, [2]float64{float64(x * 1000), float64((i + 1) * x * 100)})
			}
			ch.Lines = append(ch.Lines, l)
		}
		base := filepath.Join(t.TempDir(), c.name)
		if err := ch.Save(base, Output{Formats: []string{"svg", "png"}, DPI: 96}); err != nil {
			t.Fatal(err)
		}
		golden(t, base, c.name)
		f, err := os.Open(base + ".png")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if w, h := float64(cfg.Width), float64(cfg.Height); w != DefaultWidth.Dots(96) || h != DefaultHeight.Dots(96) {
			t.Errorf("%s: figure %vx%v dots, want %vx%v, the size asked for", c.name, w, h, DefaultWidth.Dots(96), DefaultHeight.Dots(96))
		}
	}
}
