package study

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/slimfly"
)

// TestSlimFlyZeroLoadHops: hand-worked minimal paths on the 54-node Slim
// Fly (q = 3): a packet to its own router takes no hop, to a neighbouring
// router one, to a router two hops away two (the MMS graph's diameter),
// through their common neighbour; a lone packet's latency on them is
// the documented 2 + (H+1)R + links + 2 + size-1, which
// Network.ZeroLoadLatency gives; Valiant's paths take at most 4 hops.
func TestSlimFlyZeroLoadHops(t *testing.T) {
	build := func(routing string) *Built {
		b, err := Build(context.Background(), slimflySmall(routing, func(cf *Config) {
			cf.Router.LinkLatencyCycles, cf.Router.CreditLatencyCycles, cf.Router.RoutingDelayCycles = 2, 1, 1
			cf.Traffic.Process, cf.Traffic.Pattern, cf.Traffic.PacketFlits = "bernoulli", "uniform", 4
		}))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	b := build("min")
	sf := b.Net.Topo.(*slimfly.SlimFly)
	queues := func(r int) routing.Queues { return b.Net.Routers[r] }
	// Router (0, x, y) is y*3 + x, (1, m, c) 9 + c*3 + m. With q = 3 the
	// field is the integers mod 3 and X = X' = {1, 2}: (0,0,0) is joined
	// to (0,0,1), (0,0,2) and to (1,m,0) for every m (c = y - m*x = 0).
	// (0,0,0) and (0,1,0) meet only at (1,0,0) (m = (0-0)/(0-1) = 0, c =
	// 0); (1,0,0) and (1,1,0) only at (0,0,0) (x = 0, y = c).
	for _, c := range []struct {
		from, to, hops int
		via            string // the router of the first hop of a 2-hop path
	}{
		{0, 0, 0, ""},
		{0, 3, 1, ""},  // (0,0,0) -> (0,0,1)
		{0, 9, 1, ""},  // (0,0,0) -> (1,0,0)
		{0, 10, 1, ""}, // (0,0,0) -> (1,1,0)
		{0, 1, 2, "R(1,0,0)"},
		{9, 10, 2, "R(0,0,0)"},
	} {
		src, dst := c.from*sf.P, c.to*sf.P+1
		hops, links := routingtest.TracePath(t, sf, b.Net.Routing, queues, 2, src, dst, 0)
		if hops != c.hops || links != 2*c.hops {
			t.Errorf("%s -> %s: %d hops over %d link cycles, want %d", sf.RouterName(c.from), sf.RouterName(c.to), hops, links, c.hops)
		}
		if want := 2 + (c.hops+1)*1 + 2*c.hops + 2 + 4 - 1; b.Net.ZeroLoadLatency(src, dst, 4) != want {
			t.Errorf("%s -> %s: ZeroLoadLatency %d, want %d", sf.RouterName(c.from), sf.RouterName(c.to), b.Net.ZeroLoadLatency(src, dst, 4), want)
		}
		if c.via != "" {
			var cand routing.Candidates
			f := link.Flit{Src: int32(src), Dst: int32(dst)}
			r, in := sf.NodePort(src)
			b.Net.Routing.(routing.Chooser).Choose(r, in, &f, &cand, queues(r), 0)
			if got := sf.RouterName(sf.Peer(r, bits.TrailingZeros64(cand.G[0].Ports)).Router); got != c.via {
				t.Errorf("%s -> %s: first hop to %s, want %s", sf.RouterName(c.from), sf.RouterName(c.to), got, c.via)
			}
		}
	}
	val := build("val")
	most := 0
	for src := 0; src < sf.Nodes(); src += 5 {
		for dst := 0; dst < sf.Nodes(); dst += 7 {
			for seq := uint32(0); seq < 8; seq++ {
				hops, _ := routingtest.TracePath(t, sf, val.Net.Routing, func(r int) routing.Queues { return val.Net.Routers[r] }, 2, src, dst, seq)
				most = max(most, hops)
			}
		}
	}
	if most != 4 {
		t.Errorf("Valiant's longest path: %d hops, want 4 (two to the intermediate, two from it)", most)
	}
}

// TestSlimFlyChannelLoadBounds: on the 200-node Slim Fly of q = 5 (50
// routers of network radix 7, 4 nodes a router: Besta and Hoefler's
// ceil(k'/2)) with routers of internal speedup 2, minimal routing's
// saturation throughput is within 10% of its channel-load bound under
// uniform traffic, and within 5% of it under the coordinate shift
// (dimension-shift), whose two-hop paths meet two by two on the links of
// the routers with coordinate 0: 1/(2p) = 1/8. The shift loads those
// links only, so under saturation the nodes whose paths avoid them
// inject more (the mean is 0.20): the bound is the rate every node keeps,
// the least node's. Valiant's mean under the shift is at least 75% of its
// bound, and UGAL-L's least node at least twice minimal's.
func TestSlimFlyChannelLoadBounds(t *testing.T) {
	if raceEnabled {
		// Serial runs measuring throughput: nothing for the race
		// detector, ten times slower under it; the plain pass runs them.
		t.Skip("measures saturation throughput of serial runs; run without -race")
	}
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	base := slimflySmall("min", func(c *Config) {
		setLeaf(&c.Network, "q", 5)
		c.Router.VC.InternalSpeedup = 2
		c.Traffic.Process = "saturation"
		c.Measure.Method = "window"
		c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 3000, 6000, 0
	})
	run := func(routing, pattern string) Config { return routedAs(base, routing, pattern) }
	sat := func(routing, pattern string) *Result { return saturationRun(t, run(routing, pattern)) }
	uniform, busiest := pathBound(t, run("min", "uniform"), 1)
	t.Logf("min uniform: bound %.4f (busiest: %s)", uniform, busiest)
	withinBound(t, "min uniform saturation", sat("min", "uniform").AcceptedFlitsPerNodeCycle, uniform, 0.10)
	shift, busiest := pathBound(t, run("min", "dimension-shift"), 1)
	if math.Abs(shift-1.0/8) > 1e-9 {
		t.Errorf("minimal coordinate-shift bound %.4f (busiest: %s), want 1/(2p) = 1/8", shift, busiest)
	}
	minShift := sat("min", "dimension-shift")
	t.Logf("min dimension-shift: mean %.4f flits/node/cycle", minShift.AcceptedFlitsPerNodeCycle)
	withinBound(t, "min dimension-shift saturation, least node", minShift.PerNodeInjected.Min, shift, 0.05)
	valShift, busiest := pathBound(t, run("val", "dimension-shift"), 64)
	t.Logf("val dimension-shift: bound %.4f (busiest: %s)", valShift, busiest)
	if v := sat("val", "dimension-shift").AcceptedFlitsPerNodeCycle; v < 0.75*valShift {
		t.Errorf("val dimension-shift saturation: %.4f flits/node/cycle, less than 75%% of its bound %.4f", v, valShift)
	} else {
		t.Logf("val dimension-shift saturation: %.4f flits/node/cycle, %.0f%% of its bound %.4f", v, 100*v/valShift, valShift)
	}
	if u := sat("ugal-l", "dimension-shift").PerNodeInjected.Min; u < 2*minShift.PerNodeInjected.Min {
		t.Errorf("ugal-l under the shift: least node %.4f flits/node/cycle, less than twice minimal's %.4f", u, minShift.PerNodeInjected.Min)
	} else {
		t.Logf("ugal-l dimension-shift saturation: least node %.4f (minimal %.4f)", u, minShift.PerNodeInjected.Min)
	}
}

// TestSlimFlyBadInput: impossible orders and sizes on a Slim Fly each get
// one keyed error naming the value, what it derives and what is allowed.
func TestSlimFlyBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Config)
		key  string
		says string
	}{
		{"q too small", func(c *Config) { setLeaf(&c.Network, "q", 2) }, "network.slimfly.q = 2", "allowed: a prime power 3..41"},
		{"q not a prime power", func(c *Config) { setLeaf(&c.Network, "q", 6) }, "network.slimfly.q = 6", "the MMS graph is built over the field of q elements"},
		{"q = 2 mod 4", func(c *Config) { setLeaf(&c.Network, "q", 10) }, "network.slimfly.q = 10", "a prime power"},
		{"q too large", func(c *Config) { setLeaf(&c.Network, "q", 43) }, "network.slimfly.q = 43", "q = 43 has routers of 65 network ports"},
		{"ports from q", func(c *Config) { setLeaf(&c.Network, "q", 41) }, "network.slimfly.q = 41", "q = 41, p = 31 (left out: ceil(k'/2)): a router has p + k' = 31 + 61 = 92 ports"},
		{"ports from p", func(c *Config) { setLeaf(&c.Network, "q", 29); setLeaf(&c.Network, "nodes_per_router", 30) }, "network.slimfly.nodes_per_router = 30", "a router has p + k' = 30 + 43 = 73 ports"},
		{"nodes per router", func(c *Config) { setLeaf(&c.Network, "nodes_per_router", 33) }, "network.slimfly.nodes_per_router = 33", "allowed: 1..32"},
		{"ugal-g", func(c *Config) { c.Router.Routing = "ugal-g" }, `router.routing = "ugal-g"`, "defined on dragonfly only"},
		{"group-shift", func(c *Config) { c.Traffic.Pattern = "group-shift" }, `traffic.pattern = "group-shift"`, "defined on a dragonfly, dragonflyplus or fattree only"},
		{"too few VCs for UGAL-L", func(c *Config) { c.Router.VC.VCs = 3 }, "router.vc.vcs = 3", "can deadlock (ugal-l needs at least 4 VCs): channel dependency cycle: R("},
	} {
		t.Run(c.name, func(t *testing.T) { oneKeyedError(t, slimflySmall("ugal-l", c.edit), c.key, c.says) })
	}
	// Two bad keys at once: an error for each, the order not hidden
	// behind the other's range.
	cfg := slimflySmall("ugal-l", func(c *Config) { setLeaf(&c.Network, "q", 6); setLeaf(&c.Network, "nodes_per_router", 40) })
	if errs := cfg.Validate(); len(errs) != 2 || !strings.Contains(fmt.Sprint(errs), "network.slimfly.q = 6") || !strings.Contains(fmt.Sprint(errs), "network.slimfly.nodes_per_router = 40") {
		t.Errorf("q = 6 and nodes_per_router = 40: %v, want an error for each", errs)
	}
}
