package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// maxSimulated is about the most runs TestShippedStudiesDraw simulates per
// study; the other runs reuse the result of a simulated run of the same
// network and process.
const maxSimulated = 16

// TestShippedStudiesDraw draws every figure of every shipped study, and its
// report. The runs are cut to a few hundred cycles (collectives to two
// packets per node) and at most about maxSimulated of a study's runs are
// simulated, the rest taking the result of a simulated run on the same
// network and process: the figures' values mean nothing, their forms are
// the point. No study fails to draw, each writes at least one figure, each
// with its CSV, and (with Chromium) its report passes the browser check.
func TestShippedStudiesDraw(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("draws every shipped study: not with -short or the race detector (the plain go test ./... runs it)")
	}
	files, err := filepath.Glob("../studies/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped studies: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := study.ParseFile(file, src)
			if err != nil {
				t.Fatal(err)
			}
			f.Plot.Formats = []string{"svg"}
			runs := f.Runs()
			most := maxSimulated
			if topo, err := f.Points[0].Config.Topology(); err == nil && (topo.Routers() > 512 || topo.Nodes() > 2048) {
				most = maxSimulated / 4 // a large network: fewer runs drawn, the same checks
			}
			stride := max(1, len(runs)/most)
			sampled := map[string]*report.Result{}
			var recs []*Record
			simulated := 0
			for i := range runs {
				r := &runs[i]
				cfg := r.Config
				shorten(&cfg.Measure)
				cfg.Traffic.PacketsPerNode = min(cfg.Traffic.PacketsPerNode, 2)
				key := fmt.Sprint(cfg.Network, cfg.Traffic.Process)
				res, ok := sampled[key]
				if !ok || i%stride == 0 {
					if res, err = study.Run(context.Background(), cfg, study.Options{Exec: "serial"}); err != nil {
						t.Fatalf("run %s: %v", r.ID(), err)
					}
					if i == 0 {
						sameBlocked(t, cfg, res)
					}
					sampled[key] = res
					simulated++
				}
				recs = append(recs, newRecord(f, r, res))
			}
			d := t.TempDir()
			if err := WriteOutputs(context.Background(), d, f, recs); err != nil {
				t.Fatal(err)
			}
			// results.json as json.Encoder writes the whole document, where
			// encoding it twice takes under a second (entropy-sweep-hyst's
			// is 1.3 GB, fattree1024-table1-sat's 230 MB).
			if st, err := os.Stat(filepath.Join(d, "results.json")); err != nil {
				t.Fatal(err)
			} else if st.Size() <= 32<<20 {
				sameAsEncoder(t, filepath.Join(d, "results.json"), f.Name, nonNil(f.AxisKeys()), recs)
			}
			if err := WriteReport(d, f, recs); err != nil {
				t.Fatal(err)
			}
			if keep := os.Getenv("ICNSIM_SHIPPED_DIR"); keep != "" { // to look at the drawings
				if err := os.CopyFS(filepath.Join(keep, filepath.Base(file)), os.DirFS(d)); err != nil {
					t.Fatal(err)
				}
			}
			svgs, _ := filepath.Glob(filepath.Join(d, "plots", "*.svg"))
			csvs, _ := filepath.Glob(filepath.Join(d, "plots", "*.csv"))
			// A study with no curve axis, no heatmap, no published values
			// and more points than plot.max_lines asks for no figure
			// (entropy-ramp draws its time series one pattern at a time).
			asks := len(f.Points) <= f.Plot.MaxLines || f.Plot.HeatmapX != "" || len(f.References) > 0 || f.Plot.X != "" || slices.Contains(f.AxisKeys(), LoadKey)
			if asks && len(svgs) == 0 || len(csvs) != len(svgs) {
				t.Errorf("%d SVG figures and %d CSVs", len(svgs), len(csvs))
			}
			t.Logf("%d runs (%d simulated), %d figures", len(runs), simulated, len(svgs))
			// In a browser, as TestReportInChromium checks its study's:
			// every figure visible, colour bars as tall as half their plot,
			// no two texts of a figure overlapping.
			if bin := chromium(); bin != "" {
				got := browse(t, bin, filepath.Join(d, ReportFile), "")
				if !strings.Contains(got, " bad=[] errors=[]") {
					t.Errorf("report in chromium: %s", got)
				}
			}
		})
	}
}

// sameBlocked fails unless cfg run in temporal blocks (forced, over small
// tiles, or over a dragonfly's long links, serial and with two shard
// workers) gives serial's digest; a run that cannot be blocked (a HyperX
// or file topology, a dragonfly whose links allow no lead, or one sampled
// every cycle) with two shards unblocked.
func sameBlocked(t *testing.T, cfg study.Config, serial *report.Result) {
	t.Helper()
	opts := []study.Options{{Exec: "serial", Blocking: study.BlockingOn, BlockSteps: 8, BlockSide: 3},
		{Exec: "shards", Workers: 2, Blocking: study.BlockingOn, BlockSteps: 5, BlockSide: 4}}
	if err := study.CheckBlocking(context.Background(), cfg, opts[0]); err != nil {
		// Not tiled (fabric.Tileable, fabric.LeadTileable: HyperX, a
		// dragonfly with a policy or UGAL-G), or sampled every cycle:
		// blocking on is refused, before and at the run, and two shards
		// run unblocked.
		if _, runErr := study.Run(context.Background(), cfg, opts[0]); runErr == nil || runErr.Error() != err.Error() {
			t.Fatalf("blocking refused by CheckBlocking (%v), but the run says %v", err, runErr)
		}
		opts = []study.Options{{Exec: "shards", Workers: 2}}
	}
	for _, o := range opts {
		res, err := study.Run(context.Background(), cfg, o)
		if err != nil {
			t.Fatalf("%s blocked: %v", o.Exec, err)
		}
		if d, want := res.Digest(), serial.Digest(); d != want {
			t.Fatalf("%s blocked: digest %s, serial %s", o.Exec, d, want)
		}
	}
}

// shorten cuts a run's measurement to a few hundred cycles.
func shorten(m *study.Measure) {
	m.WarmupCycles = min(m.Warmup(), 100)
	m.MeasureCycles = min(m.MeasureCycles, 300)
	m.DrainCycles = min(m.DrainCycles, 300)
	m.SampleCycles = min(m.SampleCycles, 50)
	m.MaxCycles = min(m.MaxCycles, 5000)
	m.BatchCycles = min(m.BatchCycles, 100)
	m.MinBatches, m.MaxBatches = min(m.MinBatches, 2), min(m.MaxBatches, 3)
	m.BatchPackets, m.PacketBatches = min(max(m.BatchPackets, 1), 50), min(m.PacketBatches, 2)
	m.StallCycles = min(m.StallCycles, 2000)
}
