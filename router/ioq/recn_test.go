package ioq

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology/grid"
)

// phaseSource sends packets at rate per cycle: to hot with probability
// hotShare until cycle hotUntil, else (and afterwards) to a uniformly
// random other node.
type phaseSource struct {
	randomSource
	hotUntil clock.Cycle
}

func (s *phaseSource) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if now == s.hotUntil {
		s.hotShare = 0
	}
	return s.randomSource.Generate(now, q)
}

// hotSink records the last delivery of a packet generated before cycle
// until.
type hotSink struct{ until, last clock.Cycle }

func (s *hotSink) Delivered(now clock.Cycle, f *link.Flit) {
	if f.Gen < int64(s.until) {
		s.last = now
	}
}

// TestRECNDeallocAfterHotSpot: a hot spot overloads an 8x8 mesh under
// RECN until cycle 8000, then every source sends uniform traffic well
// below saturation. Every SAQ must be freed within a bounded time after
// the hot spot's last packet arrived: the idle time of a SAQ that never
// filled, the sweep period, and a notification's trip from the leaves to
// the root, with the per-cycle invariants checked throughout.
func TestRECNDeallocAfterHotSpot(t *testing.T) {
	g, _ := grid.NewMesh(8, 1)
	N, hot := g.Nodes(), 27
	cfg := testConfig(RECN, 16384, 8) // the paper's 128 KB of 8-byte flits: thresholds at 163 flits
	const hotUntil, end = 8000, 40000
	srcs := make([]fabric.Source, N)
	sinks := make([]fabric.Sink, N)
	hs := &hotSink{until: hotUntil}
	for i := range srcs {
		share := 0.0
		if i%4 == 1 {
			share = 1 // a quarter of the sources send to the hot spot
		}
		srcs[i] = &phaseSource{randomSource: randomSource{rng: rand.New(rand.NewPCG(3, uint64(i))), id: i, nodes: N, hot: hot, size: 8, rate: 0.02, hotShare: share, stop: end}, hotUntil: hotUntil}
		sinks[i] = &digestSink{}
	}
	sinks[hot] = hs
	n, err := Build(context.Background(), g, cfg, srcs, sinks)
	if err != nil {
		t.Fatal(err)
	}
	var peak SAQStats
	freeAt := clock.Cycle(-1)
	var checkErr error
	spec := actor.Spec{To: end, Chunk: 1, Hook: func(next clock.Cycle) bool {
		if next%16 == 0 || next > hotUntil {
			if err := n.Check(next); err != nil {
				checkErr = err
				return true
			}
		}
		st := n.SAQs()
		if st.InUseIngress+st.InUseEgress > peak.InUseIngress+peak.InUseEgress {
			peak = st
		}
		switch {
		case st.InUseIngress+st.InUseEgress > 0:
			freeAt = -1
		case freeAt < 0 && next > hotUntil:
			freeAt = next
		}
		return false
	}}
	spec.Actors, spec.Units = n.Actors()
	if _, err := actor.Run(context.Background(), actor.Serial, 1, spec); err != nil {
		t.Fatal(err)
	}
	if checkErr != nil {
		t.Fatal(checkErr)
	}
	st := n.SAQs()
	if peak.InUseIngress == 0 || st.Allocations < 10 {
		t.Fatalf("the hot spot allocated no SAQs (peak %+v): the test does not exercise RECN", peak)
	}
	if freeAt < 0 {
		t.Fatalf("SAQs still in use at cycle %d, %d cycles after the hot spot's last delivery at %d: %+v", end, end-int(hs.last), hs.last, st)
	}
	// The bound: a SAQ allocated by a notification that arrives as the
	// last hot packet passes, idle for IdleCycles, found by a sweep (64
	// cycles), then deallocations down to the root over the diameter, two
	// ports and a link per switch.
	diam := g.Diameter()
	bound := clock.Cycle(cfg.RECN.IdleCycles) + 64 + clock.Cycle(4*(diam+1)*(cfg.LinkLatencyCycles+2))
	after := freeAt - hs.last
	t.Logf("peak %d ingress and %d egress SAQs in use (%d allocations, %d refusals); all free at cycle %d, %d cycles after the hot spot's last delivery (bound %d)",
		peak.InUseIngress, peak.InUseEgress, st.Allocations, st.Refusals, freeAt, after, bound)
	if after > bound {
		t.Errorf("SAQs freed %d cycles after the hot spot's last delivery: bound %d", after, bound)
	}
	if st.MaxPerPortIngress > cfg.RECN.SAQs || st.MaxPerPortEgress > cfg.RECN.SAQs {
		t.Errorf("%+v: more SAQs in one port than the limit %d", st, cfg.RECN.SAQs)
	}
}

// TestRECNOnlyOnMeshes: RECN matches XY routes on a mesh; a torus is
// refused even where deadlock is allowed.
func TestRECNOnlyOnMeshes(t *testing.T) {
	g, _ := grid.NewTorus(4)
	cfg := testConfig(RECN, 256, 8)
	cfg.AllowDeadlock = true
	if err := Check(g, cfg); err == nil {
		t.Fatal("RECN accepted on a torus")
	}
	big, _ := grid.NewMesh(128, 1)
	if err := Check(big, testConfig(RECN, 256, 8)); err == nil {
		t.Fatal("RECN accepted on a 128x128 mesh, whose routes overflow a line's one-byte length")
	}
	if err := Check(big, testConfig(OneQ, 256, 8)); err != nil {
		t.Fatalf("1q refused on a 128x128 mesh: %v", err)
	}
	m, _ := grid.NewMesh(4, 1)
	cfg.RECN.SAQs = 61 // 5 detection queues + 61 SAQs > 64
	if err := Check(m, cfg); err == nil {
		t.Fatal("66 queues per port memory accepted")
	}
}
