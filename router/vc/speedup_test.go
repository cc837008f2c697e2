package vc

import (
	"fmt"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// TestSpeedupZeroLoadLatency: internal speedup adds no cycle to a lone
// packet: its latency is Linj + (H+1)*R + (its links' latencies) + Lej +
// (S-1) exactly, as without speedup, on a torus, a mesh under wormhole, a
// fat-tree and a dragonfly with minimal and Valiant routing.
func TestSpeedupZeroLoadLatency(t *testing.T) {
	torus, _ := grid.NewTorus(5)
	mesh, _ := grid.NewMesh(4, 2)
	tree, _ := fattree.NewFatTree(3, 3)
	df, err := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		topo     topology.Topology
		routing  string
		vcs, buf int
		sw       Switching
	}{
		{torus, "dor-dateline", 3, 16, VirtualCutThrough},
		{mesh, "dor", 2, 16, Wormhole},
		{tree, "fattree-adaptive", 2, 16, VirtualCutThrough},
		{df, "min", 2, 16, VirtualCutThrough},
		{df, "val", 3, 16, VirtualCutThrough},
	} {
		for _, speedup := range []int{2, 3} {
			t.Run(fmt.Sprintf("%s/%s/S%d", c.topo, c.routing, speedup), func(t *testing.T) {
				N := c.topo.Nodes()
				step := 3
				if raceEnabled {
					step = 11
				}
				const size = 5
				for src := 0; src < N; src += step {
					for dst := (src * 5) % N; dst < N; dst += step + 2 {
						cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: c.buf, Switching: c.sw, RoutingDelayCycles: 1,
							LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: size, InternalSpeedup: speedup}
						n, sink := loneNet(t, c.topo, cfg, src, dst, size)
						hops, links := tracePath(t, n, src, dst, 0)
						runChecked(t, n, actor.Serial, 200)
						if len(sink.lat) != 1 {
							t.Fatalf("%d->%d: %d packets delivered", src, dst, len(sink.lat))
						}
						if want := 2 + (hops+1)*1 + links + 2 + size - 1; sink.lat[0] != int64(want) {
							t.Fatalf("%d->%d: latency %d, want %d (%d hops, %d link cycles)", src, dst, sink.lat[0], want, hops, links)
						}
					}
				}
			})
		}
	}
}

// TestSpeedupInvariantsUnderLoad drains heavy bursts through routers with
// internal speedup with every invariant checked after every cycle (flits
// and credits in the output and credit queues counted): flit conservation,
// credits per VC, every packet delivered once and in order. It also checks
// that the speedup happened: some input VC sent two flits in one cycle.
func TestSpeedupInvariantsUnderLoad(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 3)
	df, err := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		topo     topology.Topology
		routing  string
		vcs, buf int
		sw       Switching
		speedup  int
	}{
		{torus, "dor-dateline", 3, 8, VirtualCutThrough, 2},
		{torus, "duato", 4, 8, VirtualCutThrough, 3},
		{mesh, "dor", 2, 8, Wormhole, 2},
		{df, "ugal-l", 3, 8, VirtualCutThrough, 2},
		{df, "par", 4, 8, VirtualCutThrough, 4},
	} {
		t.Run(fmt.Sprintf("%s/%s/%s/S%d", c.topo, c.routing, c.sw, c.speedup), func(t *testing.T) {
			n := drainBursts(t, c.topo, Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: c.buf, Switching: c.sw, RoutingDelayCycles: 1,
				LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 8, InternalSpeedup: c.speedup}, 8000)
			tot := n.Totals()
			hops, active := uint64(0), uint64(0)
			for _, r := range n.Routers {
				hops += r.sq.traversals
				active += r.SumActive
			}
			if tot.FlitHops != hops || hops <= active {
				t.Errorf("flit hops %d, traversals %d, sum of N_a %d: want hops = traversals > N_a (a VC that moves twice in a cycle is one active buffer)", tot.FlitHops, hops, active)
			}
		})
	}
}

// TestSpeedupFootprintIsExact: the footprint estimated without building
// counts the queues of internal speedup at their initial sizes.
func TestSpeedupFootprintIsExact(t *testing.T) {
	torus, _ := grid.NewTorus(5)
	df, _ := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	for _, c := range []struct {
		topo    topology.Topology
		routing string
		vcs     int
	}{{torus, "dor-dateline", 3}, {df, "min", 2}} {
		cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 16, RoutingDelayCycles: 1,
			LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 6, InternalSpeedup: 2}
		srcs := make([]fabric.Source, c.topo.Nodes())
		for i := range srcs {
			srcs[i] = &burst{node: i, nodes: c.topo.Nodes()}
		}
		n := build(t, c.topo, cfg, srcs, nil)
		if got, want := EstimateFootprint(c.topo, cfg).StateBytes, int64(n.StateBytes()); got != want {
			t.Errorf("%s %s: estimated %d bytes of state, built %d", c.topo, c.routing, got, want)
		}
	}
}
