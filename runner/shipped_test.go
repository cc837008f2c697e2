package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/icnsim/icnsim/study"
)

// TestShippedStudiesDraw runs every shipped study with its measurement cut
// to a few hundred cycles (the figures' values mean nothing; their forms
// are the point) and draws every figure it asks for: no study fails to
// draw, and each writes at least one figure with its CSV.
func TestShippedStudiesDraw(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every shipped study, shortened: not with -short")
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
			for i := range f.Points {
				shorten(&f.Points[i].Config.Measure)
			}
			f.Plot.Formats = []string{"svg"}
			d := t.TempDir()
			run(t, f, Options{Out: d})
			svgs, _ := filepath.Glob(filepath.Join(d, "plots", "*.svg"))
			csvs, _ := filepath.Glob(filepath.Join(d, "plots", "*.csv"))
			if len(svgs) == 0 || len(csvs) != len(svgs) {
				t.Errorf("%d SVG figures and %d CSVs", len(svgs), len(csvs))
			}
		})
	}
}

// shorten cuts a run's measurement to a few hundred cycles.
func shorten(m *study.Measure) {
	m.WarmupCycles = min(max(m.WarmupCycles, 0), 100)
	m.MeasureCycles = min(m.MeasureCycles, 300)
	m.DrainCycles = min(m.DrainCycles, 300)
	m.SampleCycles = min(m.SampleCycles, 50)
	if m.MaxCycles > 0 {
		m.MaxCycles = min(m.MaxCycles, 5000)
	}
	m.BatchCycles = min(m.BatchCycles, 100)
	m.MinBatches, m.MaxBatches = min(m.MinBatches, 2), min(m.MaxBatches, 3)
	m.BatchPackets, m.PacketBatches = min(max(m.BatchPackets, 1), 50), min(m.PacketBatches, 2)
}
