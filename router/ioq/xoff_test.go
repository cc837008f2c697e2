package ioq

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/router/ioq/recn"
	"github.com/icnsim/icnsim/topology/grid"
)

// hotSources is the RECN paper's hot-spot traffic: a share of the
// sources (every fourth, here) sends every packet to node hot, the others
// to uniformly random other nodes, each a packet of size flits with
// probability rate per cycle.
func hotSources(n, hot, size int, rate float64, seed uint64) []fabric.Source {
	srcs := make([]fabric.Source, n)
	for i := range srcs {
		share := 0.0
		if i%4 == 1 && i != hot {
			share = 1
		}
		srcs[i] = &randomSource{rng: rand.New(rand.NewPCG(seed, uint64(i))), id: i, nodes: n, hot: hot, size: size, rate: rate, hotShare: share, stop: clock.Never}
	}
	return srcs
}

// TestRECNXoffBound: under a hot spot at full load (an 8x8 mesh, a
// quarter of the sources to one node, the paper's 128 KB port memories
// and 1% thresholds), with Xoff scope Feeders no SAQ holds more than
// XoffBounds, the invariants hold every 32 cycles and the network keeps
// moving; with the paper's Children scope the same traffic fills SAQs
// well past that bound (what the bound is for).
func TestRECNXoffBound(t *testing.T) {
	g, _ := grid.NewMesh(8, 1)
	const cycles = 12000
	peaks := map[recn.Scope]SAQStats{}
	for _, scope := range []recn.Scope{recn.Children, recn.Feeders} {
		cfg := testConfig(RECN, 16384, 8)
		cfg.RECN.Scope = scope
		n, err := Build(context.Background(), g, cfg, hotSources(g.Nodes(), 27, 8, 0.5/8, 5), nil)
		if err != nil {
			t.Fatal(err)
		}
		var checkErr error
		spec := actor.Spec{To: cycles, Chunk: 32, Hook: func(next clock.Cycle) bool {
			if checkErr = n.Check(next); checkErr != nil {
				return true
			}
			if _, stuck, _ := n.Stuck(next, 2000, 1); stuck > 0 {
				checkErr = errStuck
				return true
			}
			return false
		}}
		spec.Actors, spec.Units = n.Actors()
		if _, err := actor.Run(context.Background(), actor.Serial, 1, spec); err != nil {
			t.Fatal(err)
		}
		if checkErr != nil {
			t.Fatalf("%v: %v", scope, checkErr)
		}
		st := n.SAQs()
		in, eg := XoffBounds(cfg, st)
		t.Logf("%v: most flits in one SAQ %d at ingress (bound %d), %d at egress and in adapters (bound %d); Xoff at %d; %d allocations, %d refusals, most %d control messages waiting, largest swap %d",
			scope, st.PeakFlitsIngress, in, st.PeakFlitsEgress, eg, st.XoffFlits, st.Allocations, st.Refusals, st.ControlQueueMost, st.SwapFlitsMost)
		if st.Allocations == 0 || st.PeakFlitsIngress < st.XoffFlits {
			t.Fatalf("%v: no SAQ reached its Xoff threshold: the test does not load the network", scope)
		}
		if scope == recn.Feeders && (st.PeakFlitsIngress > in || st.PeakFlitsEgress > eg) {
			t.Errorf("Feeders: a SAQ held %d flits at ingress (bound %d), %d at egress (bound %d)", st.PeakFlitsIngress, in, st.PeakFlitsEgress, eg)
		}
		peaks[scope] = st
	}
	c, f := peaks[recn.Children], peaks[recn.Feeders]
	if max(c.PeakFlitsIngress, c.PeakFlitsEgress) <= 2*max(f.PeakFlitsIngress, f.PeakFlitsEgress) {
		t.Errorf("Children scope's SAQs stayed within twice Feeders' (%d, %d against %d, %d): the hot spot does not show what the bound is for",
			c.PeakFlitsIngress, c.PeakFlitsEgress, f.PeakFlitsIngress, f.PeakFlitsEgress)
	}
}

var errStuck = errors.New("memories stuck (the watchdog would fire)")

// TestRECNFeedersDrainsAndIsDeterministic: under Xoff scope Feeders, an
// overloaded small mesh with a hot spot gives the same digest under every
// executor, and once the sources stop every packet arrives, once, in
// order, and every SAQ is freed, the invariants checked every cycle of
// the overload.
func TestRECNFeedersDrainsAndIsDeterministic(t *testing.T) {
	g, _ := grid.NewMesh(4, 2)
	cfg := testConfig(RECN, 256, 8)
	cfg.RECN.Scope = recn.Feeders
	var want string
	for _, e := range []struct {
		kind    actor.Kind
		workers int
	}{{actor.Serial, 1}, {actor.Actors, 0}, {actor.Shards, 2}, {actor.Shards, 3}} {
		n, ds := buildRandom(t, g, cfg, 0.15, 0.25, 3, 3000)
		run(t, n, e.kind, e.workers, 3000, e.kind == actor.Serial)
		if got := digest(n, ds); want == "" {
			want = got
		} else if got != want {
			t.Errorf("%s/%d: digest %s, serial %s", e.kind, e.workers, got, want)
		}
		if e.kind != actor.Serial {
			continue
		}
		st := n.SAQs()
		if in, eg := XoffBounds(cfg, st); st.Allocations == 0 || st.PeakFlitsIngress > in || st.PeakFlitsEgress > eg || st.PeakFlitsIngress < st.XoffFlits {
			t.Fatalf("SAQs %+v: none allocated, none full, or past the bounds %d, %d", st, in, eg)
		}
		runFrom(t, n, actor.Serial, 1, 3000, 60000, false)
		tot := n.Totals()
		if tot.PacketsDelivered != tot.PacketsGenerated {
			t.Fatalf("%d packets generated, %d delivered after the drain", tot.PacketsGenerated, tot.PacketsDelivered)
		}
		if err := n.CheckDelivery(); err != nil {
			t.Fatal(err)
		}
		if st := n.SAQs(); st.InUseIngress+st.InUseEgress != 0 {
			t.Fatalf("SAQs left after the drain: %+v", st)
		}
	}
}
