package long_test

import (
	"flag"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/study"
)

// TestTorusOverloadNoDeadlock: the 32x32 torus with dor-dateline (3 VCs),
// min-adaptive (6) and duato (4) runs 30,000 cycles with every source always
// backlogged (offered load 1.0) and the invariants checked after every
// cycle; it keeps delivering. The 100,000-cycle soak (about 3.5 minutes
// per routing on 2 cores, which put the package past go test's 10-minute
// limit beside the others): go test ./study/long -run TorusOverload -overload.long.
func TestTorusOverloadNoDeadlock(t *testing.T) {
	t.Parallel() // long and independent
	for _, rt := range []struct {
		routing string
		vcs     int
	}{{"dor-dateline", 3}, {"min-adaptive", 6}, {"duato", 4}} {
		t.Run(rt.routing, func(t *testing.T) {
			t.Parallel()
			overload(t, rt.routing, rt.vcs)
		})
	}
}

var overloadLong = flag.Bool("overload.long", false, "run the torus overload soak for 100,000 cycles (30,000 by default)")

func overload(t *testing.T, routing string, vcs int) {
	if testing.Short() {
		t.Skip("long: 30,000 cycles of a 1024-router torus")
	}
	cycles := int64(30000)
	switch {
	case *overloadLong:
		cycles = 100000
	case raceEnabled:
		cycles = 3000
	}
	c := study.Default()
	c.Router.Routing, c.Router.VC.VCs = routing, vcs
	c.Traffic.Pattern, c.Traffic.Process = "uniform", "saturation"
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = cycles/2, cycles/2, 0
	c.Measure.SampleCycles = 1000
	// Serial: with the checks after every cycle a second worker would only
	// wait for the checker; executors are compared elsewhere.
	r := mustRun(t, c, study.Options{Exec: actor.Serial, Checks: true})
	t.Logf("%s, %d VCs, %d cycles: accepted %.4f flits/node/cycle, Jain %.4f", routing, vcs, r.CyclesSimulated, r.AcceptedFlitsPerNodeCycle, r.PerNodeAccepted.Jain)
	if r.CyclesSimulated < cycles {
		t.Fatalf("stopped at cycle %d", r.CyclesSimulated)
	}
	for _, s := range r.Series {
		if s.AcceptedFlitsPerNodeCycle == 0 && s.InFlightPackets > 0 {
			t.Fatalf("no flit delivered in the %d cycles before %d with %d packets in flight", c.Measure.SampleCycles, s.Cycle, s.InFlightPackets)
		}
	}
}
