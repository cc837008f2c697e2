package vc

import (
	"context"
	"testing"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/topology/grid"
)

// steady offers every node one 4-flit packet every 16 cycles (0.25
// flits/node/cycle, below an 8x8 torus's saturation) to a destination
// that walks over the network, so the router cycle measured moves flits
// on every port.
type steady struct{ node, nodes, sent int }

func (s *steady) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	s.sent++
	q.Push(now, (s.node+s.sent*7+1)%s.nodes, 4, 0)
	return now + 16
}

// BenchmarkVCRouterCycle is one cycle of every actor of an 8x8 torus of
// VC routers (dor-dateline, 3 VCs x 8 flits, virtual cut-through) under
// steady traffic, reported per router-cycle; it allocates nothing.
func BenchmarkVCRouterCycle(b *testing.B) {
	benchRouterCycle(b, func(*Config) {})
}

// BenchmarkVCRouterOptions is BenchmarkVCRouterCycle under each
// arbitration and switch allocator but the defaults (the default router
// runs without routerExtras; the general switch allocation under the
// default options is "general").
func BenchmarkVCRouterOptions(b *testing.B) {
	for _, c := range []struct {
		name string
		mod  func(*Config)
	}{
		{"default", func(*Config) {}},
		{"general", func(c *Config) { c.forceMatch = true }},
		{"oldest-first", func(c *Config) { c.Arbitration = alloc.OldestFirst }},
		{"class-priority", func(c *Config) { c.Arbitration = alloc.ClassPriority }},
		{"output-first", func(c *Config) { c.SwitchAllocator = alloc.SeparableOutputFirst }},
		{"islip1", func(c *Config) { c.SwitchAllocator = alloc.ISLIP }},
		{"islip3", func(c *Config) { c.SwitchAllocator, c.ISLIPIterations = alloc.ISLIP, 3 }},
		{"wavefront", func(c *Config) { c.SwitchAllocator = alloc.Wavefront }},
		{"pipeline", func(c *Config) { c.VCAllocationCycles, c.CrossbarCycles = 1, 1 }},
	} {
		b.Run(c.name, func(b *testing.B) { benchRouterCycle(b, c.mod) })
	}
}

func benchRouterCycle(b *testing.B, mod func(*Config)) {
	topo, _ := grid.NewTorus(8)
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &steady{node: i, nodes: N}
	}
	cfg := Config{Routing: routingNamed("dor-dateline"), VCs: 3, BufferFlits: 8, Switching: VirtualCutThrough,
		RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 4}
	mod(&cfg)
	n, err := Build(context.Background(), topo, cfg, srcs, nil)
	if err != nil {
		b.Fatal(err)
	}
	acts, _ := n.Actors()
	now := clock.Cycle(0)
	for ; now < 2000; now++ { // warm up: the queues fill to their steady state
		for _, a := range acts {
			a.Tick(now)
		}
	}
	b.ReportAllocs()
	cycles := 0
	for b.Loop() {
		for _, a := range acts {
			a.Tick(now)
		}
		now++
		cycles++
	}
	if tot := n.Totals(); tot.FlitsDelivered == 0 {
		b.Fatal("no flit delivered: the benchmark measured an idle network")
	}
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(cycles*topo.Routers()), "ns/router-cycle")
}
