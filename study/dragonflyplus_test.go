package study

import (
	"context"
	"math"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/dragonflyplus"
)

// TestDragonflyPlusZeroLoadHops: hand-worked minimal and Valiant paths on
// the 32-node Dragonfly+ (4 groups of 2 leaves and 2 spines, 4 nodes a
// leaf, 3 global links a spine, 2 between each pair of groups): a packet
// to its own leaf takes no hop, to the group's other leaf 2 (up, down),
// to another group 3 (up, global, down), and Valiant's path through a
// third group 6; the latency of a lone packet is the documented
// 2 + (H+1)R + links + 2 + size-1 with 5-cycle global links, which
// Network.ZeroLoadLatency gives for the minimal paths.
func TestDragonflyPlusZeroLoadHops(t *testing.T) {
	for _, c := range []struct {
		routing          string
		src, dst         int
		hops, linkCycles int // links: 2 cycles each (node links too), globals 5
	}{
		{"min", 0, 3, 0, 4},        // one leaf
		{"min", 0, 4, 2, 8},        // the group's other leaf: up, down
		{"min", 0, 9, 3, 13},       // group 1: up, global, down
		{"min", 31, 0, 3, 13},      // group 3 to group 0
		{"val", 0, 4, 6, 22},       // within a group, through another: 4 local links, 2 global
		{"val", 0, 0 + 8*3, 6, 22}, // to group 3 through group 1 or 2
	} {
		cfg := dragonflyPlusSmall(c.routing, func(cf *Config) {
			cf.Router.LinkLatencyCycles, cf.Router.CreditLatencyCycles, cf.Router.RoutingDelayCycles = 2, 1, 1
			cf.Traffic.Process, cf.Traffic.Pattern, cf.Traffic.PacketFlits = "bernoulli", "uniform", 4
		})
		b, err := Build(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := b.Net.Topo.(*dragonflyplus.DragonflyPlus)
		if d.Nodes() != 32 || d.Copies() != 2 {
			t.Fatalf("%s: want 32 nodes and 2 links between groups", d)
		}
		// Find a sequence number whose draw takes Valiant's path (an
		// intermediate group other than the two ends).
		var hops, links int
		for seq := uint32(0); seq < 64; seq++ {
			hops, links = routingtest.TracePath(t, b.Net.Topo, b.Net.Routing, func(r int) routing.Queues { return b.Net.Routers[r] }, b.Net.Cfg.LinkLatencyCycles, c.src, c.dst, seq)
			if hops == c.hops {
				break
			}
		}
		if hops != c.hops || links != c.linkCycles-4 {
			t.Errorf("%s %d->%d: %d hops over %d link cycles, want %d over %d", c.routing, c.src, c.dst, hops, links, c.hops, c.linkCycles-4)
		}
		if c.routing == "min" {
			want := 2 + (c.hops+1)*1 + c.linkCycles - 4 + 2 + 4 - 1
			if got := b.Net.ZeroLoadLatency(c.src, c.dst, 4); got != want {
				t.Errorf("min %d->%d: ZeroLoadLatency %d, want %d", c.src, c.dst, got, want)
			}
		}
	}
}

// TestDragonflyPlusChannelLoadBounds: on a balanced 90-node Dragonfly+
// (groups of 3 leaves and 3 spines, 3 nodes a leaf, 10 groups) with
// routers of internal speedup 2, minimal routing's saturation throughput
// is within 10% of its channel-load bound under uniform traffic (the
// injection channel's 1 flit/node/cycle: no link is busier) and within 5%
// of it under the group shift (1/(p*L) = 1/9: a group's nodes share the
// one global link to the next group); Valiant's under the group shift at
// least 75% of its bound, and UGAL-L's there at least twice minimal's.
// Valiant's bound is 1/(2 - 2/g) = 1/1.8: two global, two up and two down
// links a packet unless its intermediate group is an end's, spread evenly
// over every link of each class (the trace over 256 draws a destination,
// whose busiest channel is a sample's, lies within 5% below it). Its path
// loads every channel class at once at that bound (p = S = h): with
// 16-flit buffers it reaches 0.43 of 0.556, with 64-flit ones 0.51, where
// the dragonfly's (two local, two global links on a network with twice
// the local links) reaches 94% with 16.
func TestDragonflyPlusChannelLoadBounds(t *testing.T) {
	if raceEnabled {
		// Serial runs measuring throughput: nothing for the race
		// detector, ten times slower under it; the plain pass runs them.
		t.Skip("measures saturation throughput of serial runs; run without -race")
	}
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	base := dragonflyPlusSmall("min", func(c *Config) {
		c.Network = netOf("dragonflyplus", "leaves", 3, "levels", 3, "concentration", 1, "node_channels", 1)
		c.Router.VC.InternalSpeedup = 2
		c.Traffic.Process = "saturation"
		c.Measure.Method = "window"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 6000, 0
	})
	run := func(routing, pattern string) Config { return routedAs(base, routing, pattern) }
	sat := func(routing, pattern string) float64 {
		return saturationRun(t, run(routing, pattern)).AcceptedFlitsPerNodeCycle
	}
	uniform, busiest := pathBound(t, run("min", "uniform"), 1)
	t.Logf("min uniform: bound %.4f (busiest: %s)", uniform, busiest)
	withinBound(t, "min uniform saturation", sat("min", "uniform"), uniform, 0.10)
	shift, busiest := pathBound(t, run("min", "group-shift"), 1)
	if math.Abs(shift-1.0/9) > 1e-9 {
		t.Errorf("minimal worst-case bound %.4f (busiest: %s), want 1/(p*L) = 1/9", shift, busiest)
	}
	minShift := sat("min", "group-shift")
	withinBound(t, "min group-shift saturation", minShift, shift, 0.05)
	traced, busiest := pathBound(t, run("val", "group-shift"), 256)
	valShift := 1 / (2 - 2/10.0)
	t.Logf("val group-shift: bound %.4f, traced %.4f (busiest: %s)", valShift, traced, busiest)
	if traced > valShift+1e-9 || traced < 0.95*valShift {
		t.Errorf("val group-shift: traced bound %.4f, want within 5%% below 1/(2 - 2/g) = %.4f", traced, valShift)
	}
	if v := sat("val", "group-shift"); v < 0.75*valShift {
		t.Errorf("val group-shift saturation: %.4f flits/node/cycle, less than 75%% of its bound %.4f", v, valShift)
	} else {
		t.Logf("val group-shift saturation: %.4f flits/node/cycle, %.0f%% of its bound %.4f", v, 100*v/valShift, valShift)
	}
	if u := sat("ugal-l", "group-shift"); u < 2*minShift {
		t.Errorf("ugal-l under the group shift: %.4f flits/node/cycle, less than twice minimal's %.4f", u, minShift)
	} else {
		t.Logf("ugal-l group-shift saturation: %.4f (minimal %.4f)", u, minShift)
	}
}

// TestDragonflyPlusBadInput: impossible sizes, latencies and routings on
// a Dragonfly+ each get one keyed error naming the value, what it derives
// and what is allowed; sizes left out are the balanced ones, and written
// as 0 they are refused with their key.
func TestDragonflyPlusBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		key  string
		says string
	}{
		{"no leaves", func(c *Config) { setLeaf(&c.Network, "leaves", 0) }, "network.dragonflyplus.leaves = 0", "allowed: 1..32 leaf routers per group"},
		{"too many leaves", func(c *Config) { setLeaf(&c.Network, "leaves", 33) }, "network.dragonflyplus.leaves = 33", "allowed: 1..32"},
		{"negative spines", func(c *Config) { setLeaf(&c.Network, "spines", -1) }, "network.dragonflyplus.spines = -1", "left out: leaves"},
		{"nodes per leaf", func(c *Config) { setLeaf(&c.Network, "nodes_per_leaf", 33) }, "network.dragonflyplus.nodes_per_leaf = 33", "allowed: 1..32 nodes per leaf"},
		{"global per spine", func(c *Config) { setLeaf(&c.Network, "global_per_spine", 40) }, "network.dragonflyplus.global_per_spine = 40", "allowed: 1..32 global links per spine"},
		{"too many groups", func(c *Config) { setLeaf(&c.Network, "groups", 8) }, "network.dragonflyplus.groups = 8", "S*h = 2*3 = 6 global links, too few to reach 7 other groups"},
		{"groups not dividing", func(c *Config) { setLeaf(&c.Network, "groups", 5) }, "network.dragonflyplus.groups = 5", "must split evenly over the g-1 = 4 other groups"},
		{"one group", func(c *Config) { setLeaf(&c.Network, "groups", 1) }, "network.dragonflyplus.groups = 1", "allowed: 2..255 groups"},
		{"derived groups", func(c *Config) {
			setLeaf(&c.Network, "leaves", 32)
			setLeaf(&c.Network, "groups", 0)
			setLeaf(&c.Network, "nodes_per_leaf", 1)
			setLeaf(&c.Network, "global_per_spine", 0)
		}, "network.dragonflyplus.leaves = 32", "give g = S*h+1 = 32*32+1 = 1025 groups (groups left out); at most 255"},
		{"short global links", func(c *Config) { c.Router.LinkLatencyCycles = 6 }, "network.dragonflyplus.global_latency_cycles = 5", "at least router.link_latency_cycles (6)"},
		{"long local links", func(c *Config) { setLeaf(&c.Network, "local_latency_cycles", 1001) }, "network.dragonflyplus.local_latency_cycles = 1001", "1..1000 cycles"},
		{"ugal-g", func(c *Config) { c.Router.Routing = "ugal-g" }, `router.routing = "ugal-g"`, "defined on dragonfly only"},
		{"dimension-shift", func(c *Config) { c.Traffic.Pattern = "dimension-shift" }, `traffic.pattern = "dimension-shift"`, "defined on a hyperx or slimfly only"},
		{"too few VCs for Valiant", func(c *Config) { c.Router.Routing, c.Router.VC.VCs = "val", 2 }, "router.vc.vcs = 2", `routing "val" needs at least 3 VCs on a dragonflyplus`},
	} {
		t.Run(c.name, func(t *testing.T) { oneKeyedError(t, dragonflyPlusSmall("ugal-l", c.edit), c.key, c.says) })
	}
}
