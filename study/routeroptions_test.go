package study

import (
	"context"
	"fmt"
	"testing"
)

// TestRouterOptionsDeterminism: every arbitration, every switch allocator
// and a deep pipeline give one digest under every executor, worker count
// and temporal blocking, on a torus, a wormhole mesh and a dragonfly
// (blocked over its long links).
func TestRouterOptionsDeterminism(t *testing.T) {
	t.Parallel()
	for _, o := range []struct {
		arb, alloc string
		islip      int
		A, S, X    int
		mesh       bool
	}{
		{"oldest-first", "separable-input-first", 1, 0, 1, 0, false},
		{"class-priority", "separable-output-first", 1, 0, 1, 0, true},
		{"round-robin", "islip", 2, 0, 1, 0, false},
		{"oldest-first", "wavefront", 1, 0, 1, 0, true},
		{"round-robin", "separable-input-first", 1, 1, 2, 1, true},
	} {
		c := small(func(c *Config) {
			c.Name = fmt.Sprintf("%s-%s-A%dS%dX%d", o.arb, o.alloc, o.A, o.S, o.X)
			v := &c.Router.VC
			v.Arbitration, v.SwitchAllocator, v.ISLIPIterations = o.arb, o.alloc, o.islip
			v.VCAllocationCycles, v.SwitchAllocationCycles, v.CrossbarCycles = o.A, o.S, o.X
			c.Traffic.Load = 0.5
			if o.mesh {
				c.Network = netOf("mesh", "k", 6, "concentration", 1)
				c.Router.Routing, v.VCs, v.BufferFlits, v.Switching = "dor", 2, 4, "wormhole"
				c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 16, 50 // two classes for class-priority
			}
		})
		r := sameDigestEverywhere(t, c)
		t.Logf("%s: %s accepted %.3f latency %.1f", c.Name, r.Digest(), r.AcceptedFlitsPerNodeCycle, r.Latency.Mean)
		if !r.Completed {
			t.Fatalf("%s: not completed", c.Name)
		}
	}
	// A dragonfly with 5-cycle global links is blocked over its long links
	// (fabric.LeadTiling): the pipeline's flits, written further ahead on
	// their wires, shorten the leads the rings allow.
	c := dragonflySmall("ugal-l", func(c *Config) {
		v := &c.Router.VC
		v.Arbitration, v.SwitchAllocator, v.ISLIPIterations = "oldest-first", "islip", 2
		v.VCAllocationCycles, v.SwitchAllocationCycles, v.CrossbarCycles = 1, 2, 2
	})
	if !leadBlockable(t, c) {
		t.Fatal("the dragonfly with a pipeline is not blocked over its links: the test would not test the leads")
	}
	if r := sameDigestEverywhere(t, c); !r.Completed {
		t.Fatalf("%s: not completed", c.Name)
	}
}

// TestOneVCAllocatorsAgree: with one VC per port a packet holds its
// output port's only VC until its tail has left, so no two inputs ever ask
// for one output in a switch allocation and every allocator makes the
// same matches: the same digest under either arbitration
// (fattree256-transpose-arbitration.toml therefore sweeps the arbitration
// alone). The arbitration, which VC allocation reads, changes the result.
func TestOneVCAllocatorsAgree(t *testing.T) {
	t.Parallel()
	byArb := map[string]string{}
	for _, arb := range []string{"round-robin", "oldest-first"} {
		digests := map[string]string{}
		for _, sa := range []string{"separable-input-first", "separable-output-first", "islip", "wavefront"} {
			c := small(func(c *Config) {
				c.Name = arb + "-" + sa
				c.Network = netOf("fattree", "k", 4, "levels", 2)
				c.Router.Routing, c.Router.RoutingDelayCycles = "fattree-adaptive", 0
				v := &c.Router.VC
				v.VCs, v.BufferFlits, v.Selection, v.Arbitration, v.SwitchAllocator = 1, 32, "least-occupied", arb, sa
				if sa == "islip" {
					v.ISLIPIterations = 3
				}
				c.Traffic.Pattern, c.Traffic.Load, c.Traffic.PacketFlits = "uniform", 1.0, 8
			})
			r := mustRun(t, c, Options{})
			digests[sa] = r.Digest()
			t.Logf("%s %s: %s accepted %.4f", arb, sa, digests[sa], r.AcceptedFlitsPerNodeCycle)
		}
		for _, sa := range []string{"separable-output-first", "islip", "wavefront"} {
			if digests[sa] != digests["separable-input-first"] {
				t.Errorf("%s, one VC: %s gave %s, separable-input-first %s", arb, sa, digests[sa], digests["separable-input-first"])
			}
		}
		byArb[arb] = digests["separable-input-first"]
	}
	if byArb["round-robin"] == byArb["oldest-first"] {
		t.Error("oldest-first gave round robin's digest: the arbitration changed nothing")
	}
}

// TestRouterOptionsAllocateNothing: in the steady state every option
// allocates nothing per cycle (the VC allocation stage's ring, the
// Matchers and their key scratch are made at build).
func TestRouterOptionsAllocateNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("measures allocations; run without -race")
	}
	for _, o := range []struct{ arb, alloc string }{{"oldest-first", "separable-output-first"}, {"class-priority", "islip"}, {"round-robin", "wavefront"}} {
		c := small(func(c *Config) {
			c.Network = netOf("fattree", "k", 4, "levels", 3)
			c.Router.Routing, c.Traffic.Pattern, c.Traffic.Load = "fattree-adaptive", "uniform", 0.9
			c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 16, 50
			v := &c.Router.VC
			v.VCs, v.BufferFlits, v.Arbitration, v.SwitchAllocator = 3, 16, o.arb, o.alloc
			v.VCAllocationCycles, v.SwitchAllocationCycles, v.CrossbarCycles = 2, 2, 1
		})
		b, err := Build(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		run := allocationsOver(t, b)
		run(5000)
		short, long := run(1000), run(4000)
		t.Logf("%s %s: %d allocations in 1,000 cycles, %d in 4,000", o.arb, o.alloc, short, long)
		if long > short+20 {
			t.Errorf("%s %s: 4,000 cycles allocated %d times, 1,000 cycles %d times: something allocates per cycle", o.arb, o.alloc, long, short)
		}
	}
}
