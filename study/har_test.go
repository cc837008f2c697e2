package study

import (
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/router/vc"
)

// harConfig is an 8x8 mesh with Hybrid-HAR's network: a channel per
// class, 4 VCs, wormhole, 2-cycle routing, 32- and 256-flit messages.
func harConfig(routing string, longPercent, load float64) Config {
	c := Default()
	c.Name = "har-" + routing
	c.Network = netOf("mesh", "k", 8, "concentration", 1, "node_channels", 2)
	c.Router = Router{Routing: routing, RoutingDelayCycles: 2, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 4, BufferFlits: 8, Switching: "wormhole", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	c.Traffic.Pattern, c.Traffic.Process = "transpose", "poisson"
	c.Traffic.PacketFlits, c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 32, 256, longPercent
	c.Traffic.LoadOfWireCapacity = load
	c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 1000, 3000, 2000
	return c
}

// TestHybridHARDeterminism: under heavy load (past saturation) with both
// classes, every executor and worker count gives the same digest, and
// both classes are measured; for
// hybrid-har also with router.har.free = all-empty (atomic VCs on every
// port kind: router-to-router and the connection channels).
func TestHybridHARDeterminism(t *testing.T) {
	for _, tc := range []struct{ routing, free string }{{"hybrid-har", ""}, {"har-dor", ""}, {"hybrid-har", "all-empty"}} {
		name := tc.routing
		if tc.free != "" {
			name += "/" + tc.free
		}
		t.Run(name, func(t *testing.T) {
			c := harConfig(tc.routing, 50, 0.8)
			c.Router.HAR.Free = tc.free
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
		c.Network.Topology = tc.topology
		setLeaf(&c.Network, "k", tc.k)
		setLeaf(&c.Network, "node_channels", 1)
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

// TestBisection: the RECN paper's unit on its configurations #1 (16x16x1),
// #3 (4x4x16) and #5 (4x4x1), where twice the bisection bandwidth is 4N
// flits per cycle for an N x N mesh, and on a torus (twice the cut); a
// uniform run offered half of it on an 8x8 mesh reports a relative
// throughput of about one half.
func TestBisection(t *testing.T) {
	for _, tc := range []struct {
		topology     string
		k, c         int
		channels     int
		flitsPerNode float64
	}{
		{"mesh", 16, 1, 32, 0.25},
		{"mesh", 4, 16, 8, 0.0625},
		{"mesh", 4, 1, 8, 1},
		{"torus", 8, 1, 32, 1},
	} {
		c := Default()
		c.Network = netOf(tc.topology, "k", tc.k, "concentration", tc.c)
		b, err := c.Bisection()
		if err != nil {
			t.Fatal(err)
		}
		if b.Channels != tc.channels || math.Abs(b.FlitsPerNodeCycle-tc.flitsPerNode) > 1e-12 {
			t.Errorf("%s %dx%dx%d: %+v, want %d channels, %g flits/node/cycle", tc.topology, tc.k, tc.k, tc.c, b, tc.channels, tc.flitsPerNode)
		}
	}
	c := Default()
	c.Network = netOf("mesh", "k", 8, "concentration", 1)
	c.Router.Routing, c.Router.VC.VCs = "dor", 2
	c.Traffic.Pattern, c.Traffic.Process, c.Traffic.LoadOfBisection = "uniform", "bernoulli", 0.5
	c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 6000
	r := mustRun(t, c, Options{Exec: actor.Serial})
	if r.Bisection == nil || math.Abs(r.OfferedFlitsPerNodeCycle-0.25) > 1e-9 {
		t.Fatalf("bisection %+v, offered %g flits/node/cycle, want 0.25", r.Bisection, r.OfferedFlitsPerNodeCycle)
	}
	var rel float64
	for _, m := range report.Metrics() {
		if m.Name == "relative_throughput" {
			rel = m.Value(r)
		}
	}
	if math.Abs(rel-0.5) > 0.03 {
		t.Errorf("relative throughput %g at an offered half of twice the bisection bandwidth, below saturation", rel)
	}
}

// TestHARFreeKey: router.har.free reaches the router (the Go zero value
// and "tail-sent" are the same run, upper-empty another), and bad values
// are refused with the key named.
func TestHARFreeKey(t *testing.T) {
	for _, tc := range []struct {
		routing, free string
		want          []string // substrings of the error; nil: valid
	}{
		{"hybrid-har", "", nil},
		{"hybrid-har", "tail-sent", nil},
		{"hybrid-har", "upper-empty", nil},
		{"har-dor", "all-empty", nil},
		{"dor", "tail-sent", nil},
		{"hybrid-har", "empty", []string{`router.har.free = "empty"`, "tail-sent, upper-empty, all-empty"}},
		{"dor", "upper-empty", []string{`router.har.free = "upper-empty"`, "hybrid-har", "har-dor"}},
	} {
		c := harConfig(tc.routing, 50, 0.3)
		c.Router.HAR.Free = tc.free
		if tc.routing == "dor" {
			c.Router.VC.VCs = 2
		}
		var msgs []string
		for _, err := range c.Validate() {
			msgs = append(msgs, err.Error())
		}
		got := strings.Join(msgs, "; ")
		switch {
		case tc.want == nil && got != "":
			t.Errorf("%s, free %q: %s", tc.routing, tc.free, got)
		case tc.want != nil:
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s, free %q: error %q lacks %q", tc.routing, tc.free, got, w)
				}
			}
		}
	}
	run := func(free string) string {
		c := harConfig("hybrid-har", 50, 0.4)
		c.Router.HAR.Free = free
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 500, 1500, 1000
		return mustRun(t, c, Options{Exec: actor.Serial}).Digest()
	}
	zero, tail, upper := run(""), run("tail-sent"), run("upper-empty")
	if zero != tail || tail == upper {
		t.Fatalf("digests: zero value %s, tail-sent %s, upper-empty %s: want the first two equal and the third different", zero, tail, upper)
	}
}
