package policies

import (
	"context"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology/grid"
)

// The VC router's network is a Host: both policies install on it.
var _ Host = (*vc.Network)(nil)

// closedUntil blocks new packets before cycle open.
type closedUntil struct{ open clock.Cycle }

func (g closedUntil) Allow(now clock.Cycle) bool { return now >= g.open }
func (closedUntil) Observe(clock.Cycle, int)     {}
func (closedUntil) Started(clock.Cycle)          {}
func (closedUntil) Injected(clock.Cycle)         {}

type burst struct{ dst int }

func (b burst) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	q.Push(now, b.dst, 4, 0)
	q.Push(now, b.dst, 4, 0)
	return clock.Never
}

type firstArrival struct{ at clock.Cycle }

func (f *firstArrival) Delivered(now clock.Cycle, _ *link.Flit) {
	if f.at == 0 {
		f.at = now
	}
}

// TestGateControlsInjection: the same traffic delivers its first packet
// later by exactly the time the gate stays closed.
func TestGateControlsInjection(t *testing.T) {
	first := func(g fabric.Gate) clock.Cycle {
		topo, _ := grid.NewMesh(3, 1)
		srcs := make([]fabric.Source, 9)
		sinks := make([]fabric.Sink, 9)
		sink := &firstArrival{}
		for i := range srcs {
			srcs[i] = idle{}
			sinks[i] = sink
		}
		srcs[0] = burst{dst: 8}
		net, err := vc.Build(context.Background(), topo, vc.Config{Routing: routingtest.Named("dor"), VCs: 1, BufferFlits: 4, RoutingDelayCycles: 1,
			LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 4}, srcs, sinks)
		if err != nil {
			t.Fatal(err)
		}
		net.NIs[0].SetGate(g)
		acts, _ := net.Actors()
		if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, To: 100}); err != nil {
			t.Fatal(err)
		}
		return sink.at
	}
	base := first(nil)
	if got := first(closedUntil{}); got != base {
		t.Fatalf("an open gate changed the first delivery: %d vs %d", got, base)
	}
	if got := first(closedUntil{open: 20}); got != base+20 {
		t.Fatalf("gate closed for 20 cycles: first delivery at %d, ungated %d", got, base)
	}
}

type idle struct{}

func (idle) Generate(clock.Cycle, *fabric.SourceQueue) clock.Cycle { return clock.Never }
