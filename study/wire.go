package study

import (
	"fmt"
	"math/rand/v2"

	"github.com/icnsim/icnsim/report"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/traffic"
)

// WireCapacity is the Hybrid-HAR paper's unit of load: the network's wire
// capacity, every unidirectional router-to-router channel sending a flit
// every cycle (loopback ports and node channels are not wires between
// routers). A load of 1 carries as many flit-hops per cycle as there are
// channels, so in flits/node/cycle it is channels / (nodes x mean route
// length), the mean minimal route length of the configured pattern (over
// all destinations, the source included, for uniform traffic; over the
// sources for a permutation). Its Hops are router-to-router hops of the
// configured routing function's minimal routes. Under traffic.self =
// "skip" or "redraw" uniform traffic never picks the source; under "skip"
// a permutation's fixed points send nothing and the per-node rate is that
// of the sending nodes; under "redraw" they send uniformly to the others.
func (c *Config) WireCapacity() (*report.WireCapacity, error) {
	topo, err := c.Topology()
	if err != nil {
		return nil, err
	}
	rf, err := routing.New(c.routingSpec(), topo, c.Router.VC.VCs)
	if err != nil {
		return nil, err
	}
	channels := 0
	for r := 0; r < topo.Routers(); r++ {
		for p := 0; p < topo.Ports(r); p++ {
			if q := topo.Peer(r, p); q.Router >= 0 && q.Router != r {
				channels++
			}
		}
	}
	nodes := topo.Nodes()
	self, err := traffic.ParseSelfMode(c.Traffic.Self)
	if err != nil {
		return nil, err
	}
	// meanOthers is the mean route length from s to every other node.
	meanOthers := func(s int) float64 {
		var sum int64
		for d := 0; d < nodes; d++ {
			sum += int64(rf.Hops(s, d))
		}
		return float64(sum) / float64(nodes-1)
	}
	var hops float64
	senders := nodes
	if c.Traffic.Pattern == "uniform" {
		var sum int64
		for s := 0; s < nodes; s++ {
			for d := 0; d < nodes; d++ {
				sum += int64(rf.Hops(s, d))
			}
		}
		others := nodes // loopback: the source is a destination too, 0 hops away
		if self != traffic.SelfLoopback {
			others = nodes - 1
		}
		hops = float64(sum) / float64(nodes) / float64(others)
	} else {
		spec, ok := traffic.Patterns()[c.Traffic.Pattern]
		if !ok || !spec.Permutes {
			return nil, fmt.Errorf("the wire capacity needs the mean route length: uniform or a permutation pattern, not %q", c.Traffic.Pattern)
		}
		pat, err := traffic.NewPattern(c.Traffic.Pattern, traffic.GeometryOf(topo), traffic.PatternParams{Seed: c.Seed})
		if err != nil {
			return nil, err
		}
		var sum float64
		rng := rand.New(rand.NewPCG(0, 0)) // permutations draw nothing
		for s := 0; s < nodes; s++ {
			switch d := pat.Dest(s, rng); {
			case d != s:
				sum += float64(rf.Hops(s, d))
			case self == traffic.SelfSkip:
				senders-- // a fixed point sends nothing
			case self == traffic.SelfRedraw:
				sum += meanOthers(s) // a fixed point sends uniformly to the others
			}
		}
		hops = sum / float64(max(senders, 1))
	}
	if hops == 0 || channels == 0 {
		return nil, fmt.Errorf("pattern %q on the %s moves no flit between routers: no wire capacity to compare with", c.Traffic.Pattern, topo)
	}
	return &report.WireCapacity{Channels: channels, MeanRouteHops: report.Ratio(hops, 1),
		FlitsPerNodeCycle: float64(channels) / (float64(senders) * hops)}, nil
}

// Bisection is the RECN paper's unit of load and throughput: twice the
// bisection bandwidth of the k x k router grid, the most that uniform
// traffic can carry (half of it crosses the cut each way). The cut between
// columns k/2-1 and k/2 crosses k links in each direction on a mesh and 2k
// on a torus (its wrap links too); each carries a flit per cycle. On an N x N
// mesh of 8 Gbps links that is the paper's 4N bytes/ns. Concentration
// changes the nodes, not the cut. Under traffic.self = "skip" the per-node
// rate is that of the sending nodes (a permutation's fixed points send nothing).
func (c *Config) Bisection() (*report.Bisection, error) {
	topo, err := c.Topology()
	if err != nil {
		return nil, err
	}
	g, ok := topo.(topology.Plane)
	if !ok {
		return nil, fmt.Errorf("the bisection bandwidth is defined here on meshes and tori, not on %s", topo)
	}
	channels := 2 * g.Side()
	if g.Wraps() {
		channels *= 2
	}
	senders := g.Nodes()
	if self, _ := traffic.ParseSelfMode(c.Traffic.Self); self == traffic.SelfSkip {
		fixed, err := traffic.FixedPoints(c.Traffic.Pattern, traffic.GeometryOf(topo), traffic.PatternParams{Seed: c.Seed})
		if err != nil {
			return nil, err
		}
		for _, f := range fixed {
			if f {
				senders--
			}
		}
	}
	return &report.Bisection{Channels: channels, FlitsPerNodeCycle: float64(2*channels) / float64(max(senders, 1))}, nil
}
