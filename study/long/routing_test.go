package long_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/study"
)

// TestAdaptiveBeatsDORTranspose: at full load on the 32x32 torus under
// transpose, min-adaptive and duato accept more than dor-dateline, with the
// VC count each needs and with 6 VCs for all three.
func TestAdaptiveBeatsDORTranspose(t *testing.T) {
	t.Parallel() // long and independent
	if raceEnabled {
		t.Skip("long saturation runs: without -race")
	}
	run := func(routing string, vcs int) float64 {
		c := study.Default()
		c.Name = fmt.Sprintf("%s-%dvc", routing, vcs)
		c.Router.Routing, c.Router.VC.VCs = routing, vcs
		c.Traffic.Pattern, c.Traffic.Process = "transpose", "saturation"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 5000, 0
		r := mustRun(t, c, study.Options{})
		t.Logf("%-14s %d VCs: accepted %.4f flits/node/cycle (per node min %.4f max %.4f)", routing, vcs,
			r.AcceptedFlitsPerNodeCycle, r.PerNodeInjected.Min, r.PerNodeInjected.Max)
		return r.AcceptedFlitsPerNodeCycle
	}
	dor3, dor6 := run("dor-dateline", 3), run("dor-dateline", 6)
	for _, c := range []struct {
		routing string
		vcs     int
	}{{"min-adaptive", 6}, {"duato", 4}, {"duato", 6}} {
		got := run(c.routing, c.vcs)
		if got <= dor3 || got <= dor6 {
			t.Errorf("%s with %d VCs accepts %.4f, not more than dor-dateline (%.4f with 3 VCs, %.4f with 6)", c.routing, c.vcs, got, dor3, dor6)
		}
	}
}

// mustRun runs c, failing the test on an error.
func mustRun(t *testing.T, c study.Config, opt study.Options) *report.Result {
	t.Helper()
	r, err := study.Run(context.Background(), c, opt)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	return r
}
