package vc

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// orderSink records the source of every packet delivered, in order.
type orderSink struct{ srcs []int32 }

func (s *orderSink) Delivered(_ clock.Cycle, f *link.Flit) { s.srcs = append(s.srcs, f.Src) }

// TestArbitrationScripted: on one switch (a 4-ary 1-tree, node i on port
// i), node 1 sends a 16-flit packet to node 3 at cycle 0; node 0 and node
// 2 each send one of 4 flits to node 3 while it holds the only output VC.
// When it frees, round robin grants the input after node 1's (node 2),
// oldest-first the packet injected first, class-priority the higher class.
func TestArbitrationScripted(t *testing.T) {
	topo, err := fattree.NewFatTree(4, 1)
	if err != nil {
		t.Fatal(err)
	}
	for p := range 4 {
		if r, port := topo.NodePort(p); r != 0 || port != p {
			t.Fatalf("node %d on router %d port %d; the script needs node i on port i", p, r, port)
		}
	}
	for _, c := range []struct {
		arb          alloc.Arbitration
		first, later *oneShot // node 0's packet, node 2's
		want         []int32
	}{
		// Node 0 is older: round robin still serves node 2 first.
		{alloc.RoundRobin, &oneShot{dst: 3, size: 4, at: 5}, &oneShot{dst: 3, size: 4, at: 10}, []int32{1, 2, 0}},
		{alloc.OldestFirst, &oneShot{dst: 3, size: 4, at: 5}, &oneShot{dst: 3, size: 4, at: 10}, []int32{1, 0, 2}},
		// Node 2 is older, node 0 of the higher class.
		{alloc.OldestFirst, &oneShot{dst: 3, size: 4, at: 10, class: 1}, &oneShot{dst: 3, size: 4, at: 5}, []int32{1, 2, 0}},
		{alloc.ClassPriority, &oneShot{dst: 3, size: 4, at: 10, class: 1}, &oneShot{dst: 3, size: 4, at: 5}, []int32{1, 0, 2}},
	} {
		for _, sa := range alloc.AllocatorNames() {
			swAlloc, _ := alloc.ParseAllocator(sa)
			t.Run(fmt.Sprintf("%v/%v/class%d", c.arb, swAlloc, c.first.class), func(t *testing.T) {
				first, later := *c.first, *c.later
				srcs := []fabric.Source{&first, &oneShot{dst: 3, size: 16}, &later, &oneShot{dst: -1}}
				sink := &orderSink{}
				sinks := []fabric.Sink{nil, nil, nil, sink}
				cfg := Config{Routing: routingNamed("fattree-static"), VCs: 1, BufferFlits: 16, RoutingDelayCycles: 1,
					LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 16, Arbitration: c.arb, SwitchAllocator: swAlloc}
				n := build(t, topo, cfg, srcs, sinks)
				runChecked(t, n, actor.Serial, 100)
				if !slices.Equal(sink.srcs, c.want) {
					t.Fatalf("delivered from %v, want %v", sink.srcs, c.want)
				}
			})
		}
	}
}

// TestPipelineZeroLoadLatency: a lone packet's latency with the pipeline's
// stages is Linj + (H+1)*(R + A + (S-1) + X) + (its links' latencies) +
// Lej + (size-1) exactly (R the routing delay, A the VC allocation
// stage's cycles, S the switch allocation's, X the crossbar's), with and
// without internal speedup, under both switchings, on a torus, a mesh, a
// fat-tree; and ZeroLoadLatency says the same.
func TestPipelineZeroLoadLatency(t *testing.T) {
	torus, _ := grid.NewTorus(5)
	mesh, _ := grid.NewMesh(4, 2)
	tree, _ := fattree.NewFatTree(3, 3)
	for _, c := range []struct {
		topo       topology.Topology
		routing    string
		vcs        int
		sw         Switching
		R, A, S, X int
	}{
		{torus, "dor-dateline", 3, VirtualCutThrough, 1, 1, 1, 1}, // BookSim2's four stages
		{torus, "dor-dateline", 3, Wormhole, 0, 2, 3, 0},
		{mesh, "dor", 2, Wormhole, 2, 0, 1, 3},
		{mesh, "dor", 1, VirtualCutThrough, 0, 1, 0, 0},
		{tree, "fattree-adaptive", 2, VirtualCutThrough, 1, 3, 2, 2},
	} {
		for _, speedup := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/%s/%s/R%dA%dS%dX%d/speedup%d", c.topo, c.routing, c.sw, c.R, c.A, c.S, c.X, speedup), func(t *testing.T) {
				N := c.topo.Nodes()
				const size, L = 5, 2
				step := 3
				if raceEnabled {
					step = 11
				}
				for src := 0; src < N; src += step {
					for dst := (src * 5) % N; dst < N; dst += step + 2 {
						cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 8, Switching: c.sw, RoutingDelayCycles: c.R,
							LinkLatencyCycles: L, CreditLatencyCycles: 1, MaxPacketFlits: size, InternalSpeedup: speedup,
							VCAllocationCycles: c.A, SwitchAllocationCycles: c.S, CrossbarCycles: c.X}
						n, sink := loneNet(t, c.topo, cfg, src, dst, size)
						hops, links := tracePath(t, n, src, dst, 0)
						runChecked(t, n, actor.Serial, 300)
						if len(sink.lat) != 1 {
							t.Fatalf("%d->%d: %d packets delivered", src, dst, len(sink.lat))
						}
						perRouter := c.R + c.A + max(c.S, 1) - 1 + c.X
						want := L + (hops+1)*perRouter + links + L + size - 1
						if sink.lat[0] != int64(want) {
							t.Fatalf("%d->%d: latency %d, want %d (%d hops, %d link cycles)", src, dst, sink.lat[0], want, hops, links)
						}
						if z := n.ZeroLoadLatency(src, dst, size); z != want {
							t.Fatalf("%d->%d: ZeroLoadLatency %d, measured %d", src, dst, z, want)
						}
					}
				}
			})
		}
	}
}

// deliveryTrace records every delivery: cycle, source, sequence number.
type deliveryTrace struct{ log []int64 }

func (s *deliveryTrace) Delivered(now clock.Cycle, f *link.Flit) {
	s.log = append(s.log, int64(now), int64(f.Src), int64(f.Seq))
}

// traceBursts drains bursts from every node under cfg with every invariant
// checked after every cycle, and returns each node's deliveries in order,
// node by node.
func traceBursts(t *testing.T, topo topology.Topology, cfg Config, until clock.Cycle, kind actor.Kind) []int64 {
	t.Helper()
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	traces := make([]deliveryTrace, N) // one per node: the executors tick nodes in any order
	sinks := make([]fabric.Sink, N)
	for i := range srcs {
		srcs[i] = &burst{node: i, nodes: N, m: 20, size: 8, classes: 3} // three classes for class-priority
		sinks[i] = &traces[i]
	}
	n := build(t, topo, cfg, srcs, sinks)
	runChecked(t, n, kind, until)
	if tot := n.Totals(); tot.PacketsDelivered != uint64(20*N) {
		t.Fatalf("delivered %d of %d packets", tot.PacketsDelivered, 20*N)
	}
	if err := n.CheckDelivery(); err != nil {
		t.Fatal(err)
	}
	var log []int64
	for i := range traces {
		log = append(log, traces[i].log...)
	}
	return log
}

// TestGeneralSwitchMatchesDefault: the Matcher's separable input-first
// (every allocation through it: forceMatch) moves every flit in the cycle
// the written-out one does, under every arbitration (the packets of three
// classes).
func TestGeneralSwitchMatchesDefault(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 3)
	for _, c := range []struct {
		topo    topology.Topology
		routing string
		vcs     int
		sw      Switching
	}{{torus, "dor-dateline", 3, VirtualCutThrough}, {mesh, "dor", 2, Wormhole}, {torus, "min-adaptive", 6, VirtualCutThrough}} {
		for _, arb := range []alloc.Arbitration{alloc.RoundRobin, alloc.OldestFirst, alloc.ClassPriority} {
			cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 8, Switching: c.sw, RoutingDelayCycles: 1,
				LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 8, Arbitration: arb}
			want := traceBursts(t, c.topo, cfg, 6000, actor.Serial)
			cfg.forceMatch = true
			if got := traceBursts(t, c.topo, cfg, 6000, actor.Serial); !slices.Equal(got, want) {
				t.Errorf("%s %s %v: the Matcher's separable input-first delivered differently", c.topo, c.routing, arb)
			}
		}
	}
}

// TestSettledAllocationsMatchTheMatcher: the allocations the router
// settles without its Matcher (inputs asking for one output each, or for
// several none of which another asks for) are the Matcher's own: under
// every allocator and arbitration a run moves every flit in the cycle it
// moves when every allocation goes through the Matcher.
func TestSettledAllocationsMatchTheMatcher(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 3)
	for _, arb := range alloc.ArbitrationNames() {
		for _, sa := range alloc.AllocatorNames()[1:] {
			a, _ := alloc.ParseArbitration(arb)
			s, _ := alloc.ParseAllocator(sa)
			for _, c := range []struct {
				topo    topology.Topology
				routing string
				vcs     int
				sw      Switching
			}{{torus, "dor-dateline", 4, VirtualCutThrough}, {mesh, "dor", 3, Wormhole}, {torus, "min-adaptive", 6, VirtualCutThrough}} {
				cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 8, Switching: c.sw, RoutingDelayCycles: 1,
					LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8, Arbitration: a, SwitchAllocator: s, ISLIPIterations: 2}
				want := traceBursts(t, c.topo, cfg, 8000, actor.Serial)
				cfg.forceMatch = true
				if got := traceBursts(t, c.topo, cfg, 8000, actor.Serial); !slices.Equal(got, want) {
					t.Errorf("%s %s, %s %s: the router's own allocations differ from the Matcher's", arb, sa, c.topo, c.routing)
				}
			}
		}
	}
}

// TestOptionsUnderLoad drains heavy bursts under every arbitration and
// switch allocator, and a deep pipeline, with every invariant checked
// after every cycle and every packet delivered once, serially and sharded
// alike.
func TestOptionsUnderLoad(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 3)
	for _, arb := range alloc.ArbitrationNames() {
		for _, sa := range alloc.AllocatorNames() {
			a, _ := alloc.ParseArbitration(arb)
			s, _ := alloc.ParseAllocator(sa)
			for _, c := range []struct {
				topo    topology.Topology
				routing string
				vcs     int
				sw      Switching
				A, S, X int
			}{{torus, "dor-dateline", 3, VirtualCutThrough, 0, 1, 0}, {mesh, "dor", 2, Wormhole, 1, 2, 1}} {
				t.Run(fmt.Sprintf("%s/%s/%s/A%dS%dX%d", arb, sa, c.topo, c.A, c.S, c.X), func(t *testing.T) {
					cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 8, Switching: c.sw, RoutingDelayCycles: 1,
						LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 8, Arbitration: a, SwitchAllocator: s, ISLIPIterations: 2,
						VCAllocationCycles: c.A, SwitchAllocationCycles: c.S, CrossbarCycles: c.X}
					serial := traceBursts(t, c.topo, cfg, 8000, actor.Serial)
					if sharded := traceBursts(t, c.topo, cfg, 8000, actor.Shards); !slices.Equal(serial, sharded) {
						t.Fatal("sharded run delivered differently from the serial one")
					}
				})
			}
		}
	}
}

// TestOptionsRejected: Build refuses options out of range and
// combinations it cannot run.
func TestOptionsRejected(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	srcs := make([]fabric.Source, 16)
	ok := Config{Routing: routingNamed("dor-dateline"), VCs: 3, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}
	for _, c := range []struct {
		name string
		mod  func(*Config)
	}{
		{"unknown arbitration", func(c *Config) { c.Arbitration = alloc.ClassPriority + 1 }},
		{"unknown allocator", func(c *Config) { c.SwitchAllocator = alloc.Wavefront + 1 }},
		{"too many iSLIP rounds", func(c *Config) { c.ISLIPIterations = alloc.MaxISLIPIterations + 1 }},
		{"negative VC allocation stage", func(c *Config) { c.VCAllocationCycles = -1 }},
		{"long crossbar", func(c *Config) { c.CrossbarCycles = MaxStageCycles + 1 }},
		{"speedup with oldest-first", func(c *Config) { c.InternalSpeedup, c.Arbitration = 2, alloc.OldestFirst }},
		{"speedup with iSLIP", func(c *Config) { c.InternalSpeedup, c.SwitchAllocator = 2, alloc.ISLIP }},
	} {
		cfg := ok
		c.mod(&cfg)
		if _, err := Build(context.Background(), torus, cfg, srcs, nil); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// TestOptionsFootprintIsExact: EstimateFootprint counts the options'
// state and the rings' room for a pipeline's flits exactly.
func TestOptionsFootprintIsExact(t *testing.T) {
	torus, _ := grid.NewTorus(5)
	for _, mod := range []func(*Config){
		func(c *Config) { c.Arbitration = alloc.OldestFirst },
		func(c *Config) { c.Arbitration, c.SwitchAllocator = alloc.ClassPriority, alloc.SeparableOutputFirst },
		func(c *Config) { c.SwitchAllocator, c.ISLIPIterations = alloc.ISLIP, 3 },
		func(c *Config) { c.SwitchAllocator = alloc.Wavefront },
		func(c *Config) { c.VCAllocationCycles, c.SwitchAllocationCycles, c.CrossbarCycles = 2, 3, 4 },
		func(c *Config) { c.CrossbarCycles, c.LinkLatencyCycles = 1, 3 },
	} {
		cfg := Config{Routing: routingNamed("dor-dateline"), VCs: 3, BufferFlits: 8, RoutingDelayCycles: 1,
			LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}
		mod(&cfg)
		n := build(t, torus, cfg, make([]fabric.Source, torus.Nodes()), nil)
		if got, want := EstimateFootprint(torus, cfg).StateBytes, int64(n.StateBytes()); got != want {
			t.Errorf("%+v: estimated %d bytes of state, built %d", cfg, got, want)
		}
	}
}

// TestOptionsStateStaysEstimated: after a heavy run under every option the
// options' state of every router is still what the estimate counts (the VC
// allocation stage's ring and the Matchers' scratch are made at build and
// never grow).
func TestOptionsStateStaysEstimated(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	for _, sa := range alloc.AllocatorNames() {
		s, _ := alloc.ParseAllocator(sa)
		cfg := Config{Routing: routingNamed("dor-dateline"), VCs: 3, BufferFlits: 8, RoutingDelayCycles: 1, LinkLatencyCycles: 1,
			CreditLatencyCycles: 1, MaxPacketFlits: 8, Arbitration: alloc.OldestFirst, SwitchAllocator: s, VCAllocationCycles: 3, SwitchAllocationCycles: 2}
		N := torus.Nodes()
		srcs := make([]fabric.Source, N)
		for i := range srcs {
			srcs[i] = &burst{node: i, nodes: N, m: 60, size: 8}
		}
		n := build(t, torus, cfg, srcs, nil)
		runChecked(t, n, actor.Serial, 3000)
		for _, r := range n.Routers {
			if got, want := int64(r.ext.bytes()), extrasBytes(cfg, r.Ports()); got != want {
				t.Fatalf("%s: %s holds %d bytes of options' state, the estimate %d", sa, r.Name(), got, want)
			}
		}
	}
}
