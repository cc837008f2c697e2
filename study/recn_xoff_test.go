package study

import (
	"context"
	"flag"
	"testing"

	"github.com/icnsim/icnsim/router/ioq"
)

var recnLong = flag.Bool("recn-long", false, "run RECN's Xoff bound on the paper's configurations #1, #4 and #5 under traffic cases #1-#3 at full load for 600,000 cycles (about 15 minutes)")

// TestRECNXoffBound: on the RECN paper's configurations #1 (16x16 mesh),
// #4 (8x8) and #5 (4x4), traffic cases #1-#3 (none, an eighth and a
// quarter of the sources to the hot spot) at full load (load_of_bisection
// = 1.0), for 600,000 cycles,
// no SAQ holds more than ioq.XoffBounds under Xoff scope feeders, and the
// watchdog never fires. Behind -recn-long (go test ./study -run
// TestRECNXoffBound -recn-long -v -timeout 60m); router/ioq's
// TestRECNXoffBound is the fast version, and studies/mesh-recn-xoff.toml
// runs the same points under both scopes (peaks and throughput).
func TestRECNXoffBound(t *testing.T) {
	if !*recnLong {
		t.Skip("600,000 cycles on three networks: run with -recn-long")
	}
	for _, c := range []struct {
		name    string
		k, node int
	}{{"#1", 16, 32}, {"#4", 8, 32}, {"#5", 4, 10}} {
		for _, hot := range []float64{0, 0.125, 0.25} {
			scope := "feeders"
			cfg := Default()
			cfg.Name = "recn-xoff"
			cfg.Network = netOf("mesh", "k", c.k, "concentration", 1, "node_channels", 1)
			cfg.Router.Kind, cfg.Router.Routing, cfg.Router.IOQ.Queues = "ioq", "dor", "recn"
			cfg.Router.IOQ.RECN.XoffScope, cfg.Router.IOQ.RECN.IdleCycles = scope, 0 // as mesh-recn-xoff.toml
			cfg.Traffic.Pattern, cfg.Traffic.Process, cfg.Traffic.HotspotNode = "hotspot-sources", "bernoulli", c.node
			cfg.Traffic.HotspotSourceFraction, cfg.Traffic.LoadOfBisection = hot, 1.0
			cfg.Measure.WarmupCycles, cfg.Measure.MeasureCycles, cfg.Measure.DrainCycles = 400_000, 200_000, 0
			cfg.Measure.SampleCycles = 20_000
			b, err := Build(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			r, err := b.Run(context.Background(), Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, scope, err) // the watchdog's error among others
			}
			st := b.Fabric.(*ioq.Network).SAQs()
			in, eg := ioq.XoffBounds(cfg.IOQConfig(), st)
			rel := r.AcceptedFlitsPerNodeCycle / r.Bisection.FlitsPerNodeCycle
			t.Logf("%s case #%d load 1.0, xoff_scope %s, cycles %d: most flits in one SAQ %5d at ingress (bound %d), %5d at egress and adapters (bound %d), Xoff %d (control queue at most %d, largest swap %d); most SAQs in one port %d/%d; refusals %d; relative throughput %.3f (cycles %d-%d); %d packets in flight at the end",
				c.name, 1+int(hot*8), scope, r.CyclesSimulated, st.PeakFlitsIngress, in, st.PeakFlitsEgress, eg, st.XoffFlits, st.ControlQueueMost, st.SwapFlitsMost, st.MaxPerPortIngressRun, st.MaxPerPortEgressRun, st.Refusals, rel,
				r.MeasureFromCycle, r.MeasureToCycle, r.Series[len(r.Series)-1].InFlightPackets)
			if st.PeakFlitsIngress > in || st.PeakFlitsEgress > eg {
				t.Errorf("%s: a SAQ past its bound", c.name)
			}
		}
	}
}
