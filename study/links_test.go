package study

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/topology/dragonfly"
)

// linkRun runs c with link statistics (on two shard workers) and, with
// compare, checks that counting them changes nothing else of the result
// (against a serial run without them).
func linkRun(t *testing.T, c Config, compare bool) *report.Result {
	t.Helper()
	counted := c
	counted.Measure.LinkStats = true
	r := mustRun(t, counted, Options{Exec: actor.Shards, Workers: 2})
	if r.Links == nil || len(r.Links.Links) == 0 {
		t.Fatalf("%s: no link statistics", c.Name)
	}
	if compare {
		bare := *r
		bare.Links = nil
		if bare.Digest() != mustRun(t, c, Options{Exec: actor.Serial}).Digest() {
			t.Fatalf("%s: counting the links changed the run", c.Name)
		}
	}
	return r
}

// TestLinkUtilisationMeshTranspose: on an 8x8 mesh under DOR and
// transpose traffic, below saturation (1/7 flits/node/cycle: the busiest
// channels carry 7 sources' flows), the busiest channel's utilisation is
// the channel-load bound's prediction, 7 x the offered load, within 2%,
// and every channel's within four standard deviations of its count
// (single-flit packets over 30,000 cycles, so that the counts' own noise
// stays near 1% on the busiest channels).
func TestLinkUtilisationMeshTranspose(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	for _, load := range []float64{0.05, 0.12} {
		c := small(func(c *Config) {
			c.Network = netOf("mesh", "k", 8, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits = "transpose", "bernoulli", load, 1
			c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 30000
		})
		ls := linkRun(t, c, load == 0.05).Links
		if !ls.Bound {
			t.Fatalf("load %g: no bound: %s", load, ls.BoundNote)
		}
		busiest := ls.Links[ls.Busiest()]
		boundMax := 0.0
		for _, l := range ls.Links {
			boundMax = max(boundMax, l.BoundFlitsPerCycle)
			// Bernoulli arrivals: the flits over the window vary by about
			// sqrt(bound (1 - load) / cycles) flits/cycle; four of that.
			if noise := 4 * math.Sqrt(l.BoundFlitsPerCycle*(1-load)/float64(ls.Cycles)); math.Abs(l.FlitsPerCycle-l.BoundFlitsPerCycle) > noise+1e-9 {
				t.Errorf("load %g: %s carries %.4f flits/cycle, the bound %.4f", load, l.Name, l.FlitsPerCycle, l.BoundFlitsPerCycle)
			}
		}
		if math.Abs(boundMax-7*load) > 1e-9 {
			t.Errorf("load %g: the bound's busiest channel carries %g, want 7 x %g", load, boundMax, load)
		}
		t.Logf("load %g: busiest channel %s %.4f flits/cycle, bound %.4f", load, busiest.Name, busiest.FlitsPerCycle, boundMax)
		if rel := busiest.FlitsPerCycle/boundMax - 1; math.Abs(rel) > 0.02 {
			t.Errorf("load %g: busiest channel %s at %.4f flits/cycle, the bound's %.4f (%+.1f%%)", load, busiest.Name, busiest.FlitsPerCycle, boundMax, 100*rel)
		}
	}
}

// TestLinkUtilisationDragonflyWorstCase: on the balanced 1,056-node
// dragonfly (p = 4, a = 8, h = 4, g = 33) under minimal routing and the
// worst case (every node of group G sends to group G+1), all a x p = 32
// nodes of a group share the one global link G -> G+1: it is the busiest
// link, carrying 32 x the offered load (so the network saturates at
// 1/(a p) = 1/32 flits/node/cycle), and the channel-load bound says so.
func TestLinkUtilisationDragonflyWorstCase(t *testing.T) {
	t.Parallel() // long and independent: see "Parallel tests" in study_test.go
	const load = 0.02
	c := small(func(c *Config) {
		c.Network = netOf("dragonfly", "routers_per_group", 8, "global_latency_cycles", 10)
		c.Router.Routing = "min"
		c.Router.VC.VCs, c.Router.VC.BufferFlits = 3, 32
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits = "group-shift", "bernoulli", load, 1
		c.Measure.WarmupCycles, c.Measure.MeasureCycles = 2000, 10000
	})
	r := linkRun(t, c, true) // compared against serial without counting: a network of long links too
	topo, err := c.Topology()
	if err != nil {
		t.Fatal(err)
	}
	d := topo.(*dragonfly.Dragonfly)
	ls := r.Links
	var shift []report.Link
	for _, l := range ls.Links {
		if l.Class == "global" && d.GlobalTarget(l.Router, l.Port) == (d.Group(l.Router)+1)%33 {
			shift = append(shift, l)
		}
	}
	if len(shift) != 33 {
		t.Fatalf("%d global links G -> G+1, want 33", len(shift))
	}
	want := 8 * 4 * load
	mean := 0.0
	for _, l := range shift {
		mean += l.FlitsPerCycle / 33
		if math.Abs(l.BoundFlitsPerCycle-want) > 1e-9 {
			t.Errorf("%s: bound %g flits/cycle, want a p x load = %g", l.Name, l.BoundFlitsPerCycle, want)
		}
	}
	if rel := mean/want - 1; math.Abs(rel) > 0.02 {
		t.Errorf("the 33 global links G -> G+1 carry %.4f flits/cycle on average, want %.4f (%+.1f%%)", mean, want, 100*rel)
	}
	b := ls.Links[ls.Busiest()]
	t.Logf("global links G -> G+1: mean %.4f flits/cycle (want %.4f); busiest link %s %.4f", mean, want, b.Name, b.FlitsPerCycle)
	if b.Class != "global" || d.GlobalTarget(b.Router, b.Port) != (d.Group(b.Router)+1)%33 {
		t.Errorf("the busiest link is %s (%s, %.4f flits/cycle), not a global link G -> G+1", b.Name, b.Class, b.FlitsPerCycle)
	}
	for _, l := range ls.Links {
		if l.BoundFlitsPerCycle > want+1e-9 {
			t.Errorf("%s: bound %g above the global links' %g", l.Name, l.BoundFlitsPerCycle, want)
		}
	}
}

// TestFlowStats: per-flow statistics count each pair's measured packets:
// under transpose every source sends to its one destination, so every pair
// counted is (s, transpose(s)) and their packets sum to the run's measured
// packets, each pair's throughput near the offered load; listed pairs are
// reported in their order, a pair that sends nothing with zeros; and
// counting changes nothing else of the run.
func TestFlowStats(t *testing.T) {
	c := small(func(c *Config) {
		c.Network = netOf("mesh", "k", 4, "concentration", 1)
		c.Router.Routing = "dor"
		c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits = "transpose", "bernoulli", 0.2, 4
		c.Measure.WarmupCycles, c.Measure.MeasureCycles = 500, 5000
	})
	plain := mustRun(t, c, Options{Exec: actor.Serial})
	all := c
	all.Measure.FlowStats = true
	r := mustRun(t, all, Options{Exec: actor.Shards, Workers: 2})
	bare := *r
	bare.Flows = nil
	if bare.Digest() != plain.Digest() {
		t.Fatal("counting flows changed the run")
	}
	var packets uint64
	for _, f := range r.Flows {
		x, y := f.Src%4, f.Src/4
		if f.Dst != x*4+y {
			t.Errorf("flow %d -> %d under transpose", f.Src, f.Dst)
		}
		if f.Src != f.Dst && math.Abs(f.FlitsPerCycle-0.2) > 0.05 { // 250 packets: 4 sd
			t.Errorf("flow %d -> %d: %.4f flits/cycle, offered 0.2", f.Src, f.Dst, f.FlitsPerCycle)
		}
		packets += f.Packets
	}
	if len(r.Flows) != 16 || packets != r.Latency.Count {
		t.Errorf("%d flows with %d packets; want 16 with the %d measured", len(r.Flows), packets, r.Latency.Count)
	}
	some := c
	some.Measure.Flows = "1:4, 0:5"
	r = mustRun(t, some, Options{Exec: actor.Serial})
	if len(r.Flows) != 2 || r.Flows[0].Src != 1 || r.Flows[0].Dst != 4 || r.Flows[0].Packets == 0 || r.Flows[1].Packets != 0 || r.Flows[1].LatencyMeanCycles != 0 {
		t.Errorf("listed flows: %+v", r.Flows)
	}
	for _, bad := range []struct{ flows, want string }{{"1-4", "not a pair SRC:DST"}, {"1:16", "pair 1:16: nodes are 0..15"}} {
		b := c
		b.Measure.Flows = bad.flows
		if errs := b.Validate(); len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), bad.want) {
			t.Errorf("flows = %q: %v, want %q", bad.flows, errs, bad.want)
		}
	}
}

// TestLinkBoundSeedAndSelf: the bound follows the run's own random
// permutation (random-pair draws it from the seed) and its self mode: a
// node skips itself under uniform traffic with self = "skip", so its
// ejection channel carries the offered load, not n/(n-1) of it.
func TestLinkBoundSeedAndSelf(t *testing.T) {
	for _, tc := range []struct{ pattern, self string }{{"random-pair", "loopback"}, {"uniform", "skip"}, {"transpose", "skip"}} {
		c := small(func(c *Config) {
			c.Seed = 5
			c.Network = netOf("mesh", "k", 4, "concentration", 1)
			c.Router.Routing = "dor"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits, c.Traffic.Self = tc.pattern, "bernoulli", 0.2, 1, tc.self
			c.Measure.WarmupCycles, c.Measure.MeasureCycles = 1000, 20000
		})
		ls := linkRun(t, c, false).Links
		if !ls.Bound {
			t.Fatalf("%s: no bound: %s", tc.pattern, ls.BoundNote)
		}
		for _, l := range ls.Links {
			noise := 4*math.Sqrt(l.BoundFlitsPerCycle/float64(ls.Cycles)) + 1e-9
			if math.Abs(l.FlitsPerCycle-l.BoundFlitsPerCycle) > noise {
				t.Errorf("%s, self %s: %s carries %.4f flits/cycle, the bound %.4f", tc.pattern, tc.self, l.Name, l.FlitsPerCycle, l.BoundFlitsPerCycle)
			}
		}
	}
}
