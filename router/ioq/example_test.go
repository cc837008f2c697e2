package ioq_test

import (
	"context"
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/topology/grid"
)

// once sends one 8-flit packet to node dst at cycle 0.
type once struct{ dst int }

func (o once) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if o.dst >= 0 {
		q.Push(now, o.dst, 8, 0)
	}
	return clock.Never
}

type arrival struct{ at clock.Cycle }

func (a *arrival) Delivered(now clock.Cycle, f *link.Flit) { a.at = now }

// A packet crosses a 4x4 mesh of the RECN paper's switches, VOQsw
// organised, from corner to corner in its zero-load latency.
func ExampleBuild() {
	mesh, _ := grid.NewMesh(4, 1)
	cfg := ioq.Config{Org: ioq.VOQSw, PortMemoryFlits: 16384, RoutingDelayCycles: 1,
		LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8, MinPacketFlits: 8}
	srcs := make([]fabric.Source, mesh.Nodes())
	for i := range srcs {
		srcs[i] = once{dst: -1}
	}
	srcs[0] = once{dst: 15}
	sink := &arrival{}
	sinks := make([]fabric.Sink, mesh.Nodes())
	sinks[15] = sink
	n, err := ioq.Build(context.Background(), mesh, cfg, srcs, sinks)
	if err != nil {
		fmt.Println(err)
		return
	}
	acts, units := n.Actors()
	if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: 100, Chunk: 100}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hops", n.Hops(0, 15), "latency", sink.at, "zero-load", ioq.ZeroLoadLatency(cfg, n.Hops(0, 15), 8))
	fmt.Println(n.CheckDelivery())
	// Output:
	// hops 6 latency 22 zero-load 22
	// <nil>
}
