package study

import (
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
)

// ioqSmall is a small mesh of ioq switches with queue organisation org.
func ioqSmall(org string, mod func(*Config)) Config {
	return small(func(c *Config) {
		c.Name = "ioq-" + org
		c.Network = netOf("mesh", "k", 6, "concentration", 2)
		c.Router.Kind, c.Router.IOQ.Queues, c.Router.Routing = "ioq", org, "dor"
		if org == "recn-feeders" {
			c.Router.IOQ.Queues, c.Router.IOQ.RECN.XoffScope = "recn", "feeders"
		}
		c.Router.IOQ.PortMemoryBytes = 2048 * 8 // VOQnet: 72 queues of 28 flits
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.HotspotNode = "hotspot-sources", "bernoulli", 8
		mod(c)
	})
}

// ioqOrgs are the queue organisations, and RECN with Xoff scope feeders.
var ioqOrgs = []string{"1q", "voq-sw", "voq-net", "recn", "recn-feeders"}

// TestIOQDeterminism: every queue organisation gives the same digest under
// every executor, over saturation with a hot spot.
func TestIOQDeterminism(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	orgs := ioqOrgs
	if raceEnabled {
		// The race detector (ten times slower; this test took 447 s of
		// CI's race pass) looks for unsynchronised memory, not for equal
		// digests: the single queue and RECN with feeders cover the
		// switch, the adapters, the SAQs and the control lanes that every
		// organisation shares; the plain pass compares all five.
		orgs = []string{"1q", "recn-feeders"}
	}
	for _, org := range orgs {
		t.Run(org, func(t *testing.T) {
			r := sameDigestEverywhere(t, ioqSmall(org, func(c *Config) { c.Traffic.LoadOfBisection = 0.8 }))
			if r.PacketsDelivered == 0 || r.Bisection == nil {
				t.Fatalf("delivered %d, bisection %v", r.PacketsDelivered, r.Bisection)
			}
			if strings.HasPrefix(org, "recn") && (r.SAQs == nil || r.SAQs.Allocations == 0 || r.SAQs.PeakFlitsIngress == 0 || r.SAQs.MaxPerPortIngressRun < r.SAQs.MaxPerPortIngress) {
				t.Fatalf("RECN allocated no SAQs in the window: %+v", r.SAQs)
			}
		})
	}
}

// TestIOQInvariantsEveryCycle checks memory accounting, credits and flit
// conservation after every cycle of a hot-spot run over saturation, and
// exactly-once delivery at the end of a drained collective.
func TestIOQInvariantsEveryCycle(t *testing.T) {
	for _, org := range ioqOrgs {
		t.Run(org, func(t *testing.T) {
			mustRun(t, ioqSmall(org, func(c *Config) {
				c.Traffic.LoadOfBisection = 1
				c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 300, 600, 0
			}), Options{Exec: actor.Shards, Workers: 2, Checks: true})
			r := mustRun(t, ioqSmall(org, func(c *Config) {
				c.Traffic.Pattern, c.Traffic.Process, c.Traffic.PacketsPerNode = "uniform", "collective", 20
			}), Options{Checks: true})
			if !r.Completed || r.PacketsDelivered != 72*20 {
				t.Fatalf("collective: completed %v, delivered %d", r.Completed, r.PacketsDelivered)
			}
		})
	}
}

// TestIOQAcceptedTracksOffered: under uniform traffic (the RECN paper's
// traffic case #1) below saturation, every organisation accepts the
// offered load.
func TestIOQAcceptedTracksOffered(t *testing.T) {
	if raceEnabled {
		t.Skip("checks rates, not concurrency (TestIOQDeterminism runs the switch's executors under the race detector); the plain pass runs it")
	}
	for _, org := range ioqOrgs {
		for _, load := range []float64{0.3, 0.6} {
			c := ioqSmall(org, func(c *Config) {
				c.Network = netOf("mesh", "k", 8, "concentration", 1)
				c.Router.IOQ.PortMemoryBytes = 128 << 10
				c.Traffic.Pattern, c.Traffic.LoadOfBisection = "uniform", load
				c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 8000
			})
			r := mustRun(t, c, Options{})
			if rel := math.Abs(r.AcceptedFlitsPerNodeCycle-r.OfferedFlitsPerNodeCycle) / r.OfferedFlitsPerNodeCycle; rel > 0.03 {
				t.Errorf("%s at %.1f of 2 x bisection: offered %.4f, accepted %.4f (%.1f%% off)", org, load, r.OfferedFlitsPerNodeCycle, r.AcceptedFlitsPerNodeCycle, 100*rel)
			}
			if r.MeasuredUndelivered != 0 {
				t.Errorf("%s at %.1f: %d measured packets undelivered", org, load, r.MeasuredUndelivered)
			}
		}
	}
}
