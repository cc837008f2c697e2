package study

import (
	"math"
	"testing"

	"github.com/icnsim/icnsim/actor"
)

// harConfig is an 8x8 mesh with Hybrid-HAR's network: a channel per
// class, 4 VCs, wormhole, 2-cycle routing, 32- and 256-flit messages.
func harConfig(routing string, longPercent, load float64) Config {
	c := Default()
	c.Name = "har-" + routing
	c.Network = Network{Topology: "mesh", K: 8, Concentration: 1, NodeChannels: 2}
	c.Router = Router{Routing: routing, VCs: 4, BufferFlits: 8, Switching: "wormhole", RoutingDelayCycles: 2, LinkLatencyCycles: 1, CreditLatencyCycles: 1}
	c.Traffic.Pattern, c.Traffic.Process = "transpose", "poisson"
	c.Traffic.PacketFlits, c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 32, 256, longPercent
	c.Traffic.LoadOfWireCapacity = load
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 1000, 3000, 2000
	return c
}

// TestHybridHARDeterminism: under heavy load (past saturation) with both
// classes, every executor and worker count gives the same digest, and
// both classes are measured.
func TestHybridHARDeterminism(t *testing.T) {
	for _, routing := range []string{"hybrid-har", "har-dor"} {
		t.Run(routing, func(t *testing.T) {
			c := harConfig(routing, 50, 0.8)
			if raceEnabled {
				// Five runs each: shorter under the race detector.
				c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 500, 1500, 1000
			}
			r := sameDigestEverywhere(t, c)
			if len(r.ClassLatency) != 2 || r.ClassLatency[0].Count == 0 || r.ClassLatency[1].Count == 0 {
				t.Fatalf("class latencies %+v", r.ClassLatency)
			}
			if r.WireCapacity == nil || r.WireCapacity.Channels != 2*2*8*7 {
				t.Fatalf("wire capacity %+v, want 224 channels", r.WireCapacity)
			}
		})
	}
}

// TestHybridHARShortLatencyUnderTranspose: the paper's trend on a small
// mesh: under transpose at a load DOR cannot carry, Hybrid-HAR keeps the
// short messages' p99 latency well below har-dor's.
func TestHybridHARShortLatencyUnderTranspose(t *testing.T) {
	if raceEnabled {
		t.Skip("statistical latency test: runs without -race")
	}
	var p99 [2]uint64
	for i, routing := range []string{"har-dor", "hybrid-har"} {
		c := harConfig(routing, 50, 0.3)
		c.Measure.WarmupCycles, c.Measure.MeasureCycles = 3000, 6000
		r := mustRun(t, c, Options{Exec: actor.Shards, Workers: 2})
		p99[i] = r.ClassLatency[0].P99
	}
	t.Logf("short-message p99 latency: har-dor %d, hybrid-har %d cycles", p99[0], p99[1])
	if 2*p99[1] > p99[0] {
		t.Fatalf("hybrid-har's short p99 %d is not below half of har-dor's %d", p99[1], p99[0])
	}
}

// TestWireCapacity: the unit of traffic.load_of_wire_capacity against its
// closed forms: router-to-router channels, and the mean minimal route
// length over all pairs (uniform, 2(k^2-1)/3k on a k-mesh, k/2 on an even
// k-torus) or over the sources (transpose on a k-mesh: 2 E|x-y|).
func TestWireCapacity(t *testing.T) {
	for _, tc := range []struct {
		topology, pattern string
		k                 int
		channels          int
		hops, flits       float64
	}{
		{"mesh", "uniform", 16, 2 * 2 * 16 * 15, 10.625, 960 / (256 * 10.625)},
		{"torus", "uniform", 8, 4 * 64, 4, 1},
		{"mesh", "transpose", 8, 2 * 2 * 8 * 7, 5.25, 224 / (64 * 5.25)},
	} {
		c := harConfig("dor", 0, 0.5)
		c.Network.Topology, c.Network.K, c.Network.NodeChannels = tc.topology, tc.k, 1
		c.Traffic.Pattern = tc.pattern
		wc, err := c.WireCapacity()
		if err != nil {
			t.Fatal(err)
		}
		if wc.Channels != tc.channels || math.Abs(wc.MeanRouteHops-tc.hops) > 1e-9 || math.Abs(wc.FlitsPerNodeCycle-tc.flits) > 1e-9 {
			t.Errorf("%s %d %s: %+v, want %d channels, %g hops, %g flits/node/cycle", tc.topology, tc.k, tc.pattern, wc, tc.channels, tc.hops, tc.flits)
		}
		if got := c.TrafficConfig().LoadFlits; math.Abs(got-0.5*tc.flits) > 1e-9 {
			t.Errorf("%s %d %s: offered load %g flits/node/cycle at half the wire capacity, want %g", tc.topology, tc.k, tc.pattern, got, 0.5*tc.flits)
		}
	}
}
