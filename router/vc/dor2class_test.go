package vc

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/topology/grid"
)

// uniformSource generates packets of size flits to uniformly random other
// nodes, a Bernoulli process of load flits per cycle, until cycle until.
type uniformSource struct {
	node, nodes, size int
	load              float64
	until             clock.Cycle
	rng               *rand.Rand
}

func (s *uniformSource) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if now >= s.until {
		return clock.Never
	}
	if s.rng.Float64() < s.load/float64(s.size) {
		dst := s.rng.IntN(s.nodes - 1)
		if dst >= s.node {
			dst++
		}
		q.Push(now, dst, s.size, 0)
	}
	return now + 1
}

// TestDor2ClassUnderLoad: a 6x6 torus with dor-2class under uniform
// traffic at a moderate load, every invariant checked after every cycle,
// delivers every packet exactly once, under both switching modes.
func TestDor2ClassUnderLoad(t *testing.T) {
	torus, _ := grid.NewTorus(6)
	const gen, until = 1500, 4000
	for _, c := range []struct {
		vcs, buf int
		sw       Switching
		load     float64
	}{
		{2, 8, VirtualCutThrough, 0.3},
		{4, 4, Wormhole, 0.3},
	} {
		t.Run(fmt.Sprintf("%dVCs/%s", c.vcs, c.sw), func(t *testing.T) {
			N := torus.Nodes()
			srcs := make([]fabric.Source, N)
			for i := range srcs {
				srcs[i] = &uniformSource{node: i, nodes: N, size: 8, load: c.load, until: gen, rng: rand.New(rand.NewPCG(1, uint64(i)))}
			}
			cfg := Config{Routing: routingNamed("dor-2class"), VCs: c.vcs, BufferFlits: c.buf, Switching: c.sw, RoutingDelayCycles: 1,
				LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}
			n := build(t, torus, cfg, srcs, nil)
			runChecked(t, n, actor.Shards, until)
			tot := n.Totals()
			// About load/8 packets per node per cycle over gen cycles.
			if want := c.load / 8 * gen * float64(N); float64(tot.PacketsGenerated) < 0.8*want {
				t.Fatalf("generated %d packets, expected about %.0f", tot.PacketsGenerated, want)
			}
			if tot.PacketsDelivered != tot.PacketsGenerated {
				t.Fatalf("delivered %d of %d packets", tot.PacketsDelivered, tot.PacketsGenerated)
			}
			if err := n.CheckDelivery(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
