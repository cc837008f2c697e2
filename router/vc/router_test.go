package vc

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"unsafe"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// oneShot sends one packet of size flits and message class class to dst
// at cycle at, then nothing.
type oneShot struct {
	dst, size int
	class     uint8
	at        clock.Cycle
}

func (s *oneShot) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if s.dst < 0 {
		return clock.Never
	}
	if now < s.at {
		return s.at
	}
	q.Push(now, s.dst, s.size, s.class)
	return clock.Never
}

type latencySink struct{ lat []int64 }

func (s *latencySink) Delivered(now clock.Cycle, f *link.Flit) {
	s.lat = append(s.lat, int64(now)-f.Gen)
}

// loneNet builds a network in which node src sends one packet of size
// flits to dst at cycle 3 and nothing else moves; sink records its latency.
func loneNet(t *testing.T, topo topology.Topology, cfg Config, src, dst, size int) (*Network, *latencySink) {
	t.Helper()
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &oneShot{dst: -1}
	}
	srcs[src] = &oneShot{dst: dst, size: size, at: 3}
	sink := &latencySink{}
	sinks := make([]fabric.Sink, N)
	for i := range sinks {
		sinks[i] = sink
	}
	return build(t, topo, cfg, srcs, sinks), sink
}

// drainBursts builds a network whose every node queues 20 packets of 8 and
// 4 flits at cycle 0, runs it with every invariant checked after every
// cycle until until, and checks that each packet arrived exactly once.
func drainBursts(t *testing.T, topo topology.Topology, cfg Config, until clock.Cycle) *Network {
	t.Helper()
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &burst{node: i, nodes: N, m: 20, size: 8}
	}
	n := build(t, topo, cfg, srcs, nil)
	runChecked(t, n, actor.Shards, until)
	if tot := n.Totals(); tot.PacketsDelivered != uint64(20*N) {
		t.Fatalf("delivered %d of %d packets", tot.PacketsDelivered, 20*N)
	}
	if err := n.CheckDelivery(); err != nil {
		t.Fatal(err)
	}
	return n
}

func build(t *testing.T, topo topology.Topology, cfg Config, srcs []fabric.Source, sinks []fabric.Sink) *Network {
	t.Helper()
	n, err := Build(context.Background(), topo, cfg, srcs, sinks)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func runChecked(t *testing.T, n *Network, kind actor.Kind, until clock.Cycle) {
	t.Helper()
	acts, units := n.Actors()
	var checkErr error
	_, err := actor.Run(context.Background(), kind, 2, actor.Spec{Actors: acts, Units: units, To: until, Chunk: 1,
		Hook: func(next clock.Cycle) bool {
			checkErr = n.Check(next)
			return checkErr != nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if checkErr != nil {
		t.Fatal(checkErr)
	}
}

// TestZeroLoadLatency sends a lone packet between many pairs and compares
// its latency with Linj + (H+1)*R + H*L + Lej + (S-1) exactly.
func TestZeroLoadLatency(t *testing.T) {
	torus, _ := grid.NewTorus(6)
	torus5, _ := grid.NewTorus(5)
	mesh, _ := grid.NewMesh(5, 2)
	tree, _ := fattree.NewFatTree(4, 3)
	tree2, _ := fattree.NewFatTree(2, 4)
	cases := []struct {
		topo    topology.Topology
		routing string
		vcs     int
		delay   int
		linkLat int
		size    int
		sw      Switching
	}{
		{torus, "dor-dateline", 3, 1, 1, 8, VirtualCutThrough},
		{torus, "dor-dateline", 4, 2, 3, 5, Wormhole},
		{torus5, "dor-dateline", 3, 0, 1, 1, VirtualCutThrough},
		{torus, "dor-2class", 2, 1, 1, 8, VirtualCutThrough},
		{torus5, "dor-2class", 4, 2, 2, 4, Wormhole},
		{mesh, "dor", 1, 1, 1, 8, VirtualCutThrough},
		{mesh, "dor", 2, 3, 2, 16, Wormhole},
		{torus, "min-adaptive", 6, 1, 1, 8, VirtualCutThrough},
		{torus5, "duato", 5, 2, 1, 4, VirtualCutThrough},
		{tree, "fattree-static", 1, 1, 1, 16, VirtualCutThrough},
		{tree, "fattree-adaptive", 2, 2, 1, 4, Wormhole},
		{tree2, "fattree-static", 1, 0, 3, 8, VirtualCutThrough},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%s/R%d/L%d/S%d/%s", c.topo, c.routing, c.delay, c.linkLat, c.size, c.sw)
		t.Run(name, func(t *testing.T) {
			N := c.topo.Nodes()
			srcStep, dstStep := 3, 2
			if raceEnabled {
				srcStep, dstStep = 11, 7 // the exactness is checked without -race
			}
			for src := 0; src < N; src += srcStep {
				for dst := 0; dst < N; dst += dstStep {
					cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 16, Switching: c.sw, RoutingDelayCycles: c.delay,
						LinkLatencyCycles: c.linkLat, CreditLatencyCycles: 1, MaxPacketFlits: c.size}
					n, sink := loneNet(t, c.topo, cfg, src, dst, c.size)
					runChecked(t, n, actor.Serial, 200)
					if len(sink.lat) != 1 {
						t.Fatalf("%d->%d: %d packets delivered", src, dst, len(sink.lat))
					}
					if want := n.ZeroLoadLatency(src, dst, c.size); sink.lat[0] != int64(want) {
						t.Fatalf("%d->%d: latency %d, analytical %d (hops %d)", src, dst, sink.lat[0], want, n.Routing.Hops(src, dst))
					}
					if err := n.CheckDelivery(); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// burst queues m packets per node to random-ish destinations at cycle 0.
// With classes > 1 the packets' message classes cycle through
// 0..classes-1.
type burst struct {
	node, nodes, m, size int
	classes              int
}

func (b *burst) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	for i := 0; i < b.m; i++ {
		q.Push(now, (b.node*7+i*13+1)%b.nodes, b.size-(i%2)*(b.size/2), uint8(i%max(b.classes, 1)))
	}
	return clock.Never
}

// TestInvariantsUnderLoad drains a heavy burst with every invariant checked
// after every cycle, on both switching modes and on a mesh and a torus.
func TestInvariantsUnderLoad(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 3)
	for _, c := range []struct {
		topo    topology.Topology
		routing string
		vcs     int
		buf     int
		sw      Switching
	}{
		{torus, "dor-dateline", 3, 8, VirtualCutThrough},
		{torus, "dor-dateline", 5, 3, Wormhole},
		{mesh, "dor", 2, 4, Wormhole},
		{mesh, "dor", 1, 8, VirtualCutThrough},
		{torus, "min-adaptive", 6, 8, VirtualCutThrough},
		{torus, "duato", 4, 8, VirtualCutThrough},
	} {
		t.Run(fmt.Sprintf("%s/%s/%s", c.topo, c.routing, c.sw), func(t *testing.T) {
			drainBursts(t, c.topo, Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: c.buf, Switching: c.sw, RoutingDelayCycles: 1,
				LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 8}, 6000)
		})
	}
}

func TestBuildRejects(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 1)
	srcs := make([]fabric.Source, 16)
	ok := Config{Routing: routingNamed("dor-dateline"), VCs: 3, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}
	for _, c := range []struct {
		name string
		topo topology.Topology
		mod  func(*Config)
	}{
		{"too few VCs", torus, func(c *Config) { c.VCs = 2 }},
		{"dor-dateline on a mesh", mesh, func(c *Config) {}},
		{"dor on a torus", torus, func(c *Config) { c.Routing = routingNamed("dor") }},
		{"vct with small buffers", torus, func(c *Config) { c.BufferFlits = 4 }},
		{"zero link latency", torus, func(c *Config) { c.LinkLatencyCycles = 0 }},
		{"unknown routing", torus, func(c *Config) { c.Routing = routingNamed("xy") }},
		{"duato under wormhole", torus, func(c *Config) { c.Routing, c.VCs, c.Switching = routingNamed("duato"), 4, Wormhole }},
	} {
		cfg := ok
		c.mod(&cfg)
		if _, err := Build(context.Background(), c.topo, cfg, srcs, nil); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// TestRouterLayout: a router is a whole number of cache lines, so that
// the fields every cycle reads (the first line) stay in one line of the
// router arena.
func TestRouterLayout(t *testing.T) {
	if n := unsafe.Sizeof(Router{}); n%64 != 0 {
		t.Errorf("Router is %d bytes, not a multiple of 64", n)
	}
	if off := unsafe.Offsetof(Router{}.plane); off+8 > 64 {
		t.Errorf("Router.plane's type word at offset %d is not in the first cache line", off)
	}
	if n := unsafe.Sizeof(inVC{}); 64%n != 0 {
		t.Errorf("inVC is %d bytes, not a divisor of 64", n)
	}
}

// TestNILayout: an NI is a whole number of cache lines, its idle cycle's
// fields in the first.
func TestNILayout(t *testing.T) {
	if n := unsafe.Sizeof(NI{}); n%64 != 0 {
		t.Errorf("NI is %d bytes, not a multiple of 64", n)
	}
	var n NI
	ch := unsafe.Offsetof(n.ch)
	for _, f := range []struct {
		name string
		end  uintptr
	}{
		{"sh", unsafe.Offsetof(n.sh) + unsafe.Sizeof(n.sh)},
		{"nextGen", unsafe.Offsetof(n.nextGen) + unsafe.Sizeof(n.nextGen)},
		{"gate", unsafe.Offsetof(n.gate) + unsafe.Sizeof(n.gate)},
		{"ch.next", ch + unsafe.Offsetof(n.ch.next) + unsafe.Sizeof(n.ch.next)},
		{"ch.in", ch + unsafe.Offsetof(n.ch.in) + unsafe.Sizeof(n.ch.in)},
		{"ch.sending", ch + unsafe.Offsetof(n.ch.sending) + unsafe.Sizeof(n.ch.sending)},
		{"ch.q's head and length", ch + unsafe.Offsetof(n.ch.q) + 8}, // the first 8 bytes of a fabric.SourceQueue
	} {
		if f.end > 64 {
			t.Errorf("NI.%s ends at offset %d, past the first cache line", f.name, f.end)
		}
	}
}

// TestPrefetchChangesNothing: a run that prefetches (forced here on
// networks small enough that Prefetcher would not) ends in the same state
// as one that does not, under the serial and shards executors, on a torus
// (wires alike) and a dragonfly whose global links are longer (a ring per
// wire); a large network gets a prefetcher, and so does a smaller one with
// long wires, but not the same one with short wires.
func TestPrefetchChangesNothing(t *testing.T) {
	torus, _ := grid.NewTorus(6)
	df, err := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		topo    topology.Topology
		routing string
	}{{torus, "dor-dateline"}, {df, "min"}} {
		N := c.topo.Nodes()
		run := func(kind actor.Kind, prefetch bool) (fabric.Totals, []uint64) {
			srcs := make([]fabric.Source, N)
			for i := range srcs {
				srcs[i] = &burst{node: i, nodes: N, m: 30, size: 8}
			}
			cfg := Config{Routing: routingNamed(c.routing), VCs: 3, BufferFlits: 8, Switching: Wormhole, RoutingDelayCycles: 1,
				LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 8}
			n := build(t, c.topo, cfg, srcs, nil)
			if n.Prefetcher() != nil {
				t.Fatalf("a %s with %d bytes of state gets a prefetcher", c.topo, n.StateBytes())
			}
			acts, units := n.Actors()
			spec := actor.Spec{Actors: acts, Units: units, To: 3000, Chunk: 100}
			if prefetch {
				spec.Prefetch = n.prefetch
			}
			if _, err := actor.Run(context.Background(), kind, 2, spec); err != nil {
				t.Fatal(err)
			}
			var hashes []uint64
			for _, ni := range n.NIs {
				hashes = append(hashes, ni.recvHash, uint64(ni.LastDelivery))
			}
			return n.Totals(), hashes
		}
		want, wantH := run(actor.Serial, false)
		if want.PacketsDelivered != uint64(30*N) {
			t.Fatalf("%s: delivered %d of %d", c.topo, want.PacketsDelivered, 30*N)
		}
		for _, kind := range []actor.Kind{actor.Serial, actor.Shards} {
			got, gotH := run(kind, true)
			if got != want || !slices.Equal(gotH, wantH) {
				t.Errorf("%s, %s with prefetching: %+v, want %+v", c.topo, kind, got, want)
			}
		}
	}
	for _, c := range []struct {
		k, linkLatencyCycles int
		want                 bool
	}{{96, 1, true}, {32, 1, false}, {32, 10, true}} {
		big, _ := grid.NewTorus(c.k)
		srcs := make([]fabric.Source, big.Nodes())
		for i := range srcs {
			srcs[i] = &burst{node: i, nodes: big.Nodes()}
		}
		n := build(t, big, Config{Routing: routingNamed("dor-dateline"), VCs: 4, BufferFlits: 16, Switching: Wormhole, RoutingDelayCycles: 1,
			LinkLatencyCycles: c.linkLatencyCycles, CreditLatencyCycles: c.linkLatencyCycles, MaxPacketFlits: 8}, srcs, nil)
		if got := n.Prefetcher() != nil; got != c.want {
			t.Errorf("a %s with %d-cycle links and %d bytes of state: prefetcher %v, want %v", big, c.linkLatencyCycles, n.StateBytes(), got, c.want)
		}
	}
}

// TestFootprintIsExact: the footprint estimated without building is what
// the built network holds, for tori, meshes and fat-trees with several
// VC counts and link latencies.
func TestFootprintIsExact(t *testing.T) {
	torus, _ := grid.NewTorus(9)
	mesh, _ := grid.NewMesh(5, 3)
	tree, _ := fattree.NewFatTree(3, 3)
	for _, c := range []struct {
		topo    topology.Topology
		routing string
		vcs     int
		lat     int
	}{{torus, "dor-dateline", 4, 1}, {torus, "duato", 5, 3}, {mesh, "dor", 2, 1}, {tree, "fattree-static", 1, 2}, {tree, "fattree-adaptive", 3, 1}} {
		cfg := Config{Routing: routingNamed(c.routing), VCs: c.vcs, BufferFlits: 16, RoutingDelayCycles: 1,
			LinkLatencyCycles: c.lat, CreditLatencyCycles: 1, MaxPacketFlits: 8}
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

// TestEscapeLevelRegistry: a routing function is registered with an escape
// level exactly when it implements Escaper (the least-occupied selection
// is refused on those).
func TestEscapeLevelRegistry(t *testing.T) {
	for name, spec := range routingtest.All() {
		topo, err := routingtest.Topology(spec.Topologies[0], 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		topo, err = grid.WithPorts(topo, routingNamed(name).Loops, 1)
		if err != nil {
			t.Fatal(err)
		}
		_, escaper := spec.New(topo, max(spec.MinVCs, 4)).(routing.Escaper)
		if escaper != spec.EscapeLevel {
			t.Errorf("%s: EscapeLevel %v, implements Escaper %v", name, spec.EscapeLevel, escaper)
		}
		if err := checkSelection(SelectLeastOccupied, TiesRotation, spec); (err != nil) != spec.EscapeLevel {
			t.Errorf("%s: least-occupied selection refused: %v", name, err)
		}
	}
}

// TestSelectionTiesDraw: with three of four offered VCs equally and least
// occupied, a uniform draw takes each a third of the time and FSIN's draw
// takes the first of them half the time and the others a quarter each (it
// lists the first twice); the fuller VC is never taken, and a single least
// occupied VC is always taken, with no draw deciding it.
func TestSelectionTiesDraw(t *testing.T) {
	const draws = 40000
	for _, c := range []struct {
		ties SelectionTies
		want [4]float64
	}{
		{TiesRandom, [4]float64{1.0 / 3, 1.0 / 3, 0, 1.0 / 3}},
		{TiesFSIN, [4]float64{0.5, 0.25, 0, 0.25}},
	} {
		r := &Router{vcs: 1, outs: make([]outVC, 4), sh: &routerShared{depth: 16, ties: c.ties, tieRand: newTieStreams(1, 7)}}
		for o := range r.outs {
			r.outs[o] = outVC{credits: 16, owner: -1}
		}
		r.outs[2].credits = 8
		var cands routing.Candidates
		cands.Add(0b1111, 1)
		var got [4]float64
		for range draws {
			best, _, _ := r.selectLeastOccupied(&cands, 1)
			if best < 0 {
				t.Fatalf("%s: no VC selected among free ones", c.ties)
			}
			got[best]++
		}
		for o := range got {
			if share := got[o] / draws; math.Abs(share-c.want[o]) > 0.015 {
				t.Errorf("%s: VC %d taken %.3f of the time, want %.3f", c.ties, o, share, c.want[o])
			}
		}
		// The drawn VC is granted only if it is free and has room: held
		// or short of room, the head waits (no other tied VC is taken).
		for _, o := range []int{0, 1, 3} {
			r.outs[o].owner = 7
		}
		if best, _, _ := r.selectLeastOccupied(&cands, 1); best != -1 {
			t.Errorf("%s: took VC %d while every least occupied VC is held", c.ties, best)
		}
		for _, o := range []int{0, 1, 3} {
			r.outs[o].owner = -1
		}
		if best, _, _ := r.selectLeastOccupied(&cands, 17); best != -1 {
			t.Errorf("%s: took VC %d for a head that needs more room than any VC has", c.ties, best)
		}
		r.outs[1].credits = 16
		r.outs[0].credits, r.outs[3].credits = 4, 4
		for range 100 {
			if best, _, _ := r.selectLeastOccupied(&cands, 1); best != 1 {
				t.Fatalf("%s: took VC %d, want the single least occupied VC 1", c.ties, best)
			}
		}
	}
}

// routingNamed is the registry entry of routing name.
func routingNamed(name string) routing.Spec { return routingtest.Named(name) }

// minVCs is the smallest deadlock-free VC count of routing name on t.
func minVCs(name string, t topology.Topology) int { return routingNamed(name).MinVCsFor(t) }
