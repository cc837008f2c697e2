package ioq

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq/recn"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/grid"
)

// oneShot sends one packet of size flits to dst at cycle at.
type oneShot struct {
	dst, size int
	at        clock.Cycle
}

func (s *oneShot) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if s.dst < 0 {
		return clock.Never
	}
	if now < s.at {
		return s.at
	}
	q.Push(now, s.dst, s.size, 0)
	return clock.Never
}

// randomSource sends a packet of size flits with probability rate each
// cycle until cycle stop: to hot with probability hotShare, else to a
// uniformly random other node.
type randomSource struct {
	rng            *rand.Rand
	id, nodes, hot int
	size           int
	rate, hotShare float64
	stop           clock.Cycle
}

func (s *randomSource) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if now >= s.stop {
		return clock.Never
	}
	if s.rng.Float64() < s.rate {
		d := s.hot
		if s.rng.Float64() >= s.hotShare || d == s.id {
			d = s.rng.IntN(s.nodes - 1)
			if d >= s.id {
				d++
			}
		}
		q.Push(now, d, s.size, 0)
	}
	return now + 1
}

// digestSink hashes every delivery (cycle and packet identity).
type digestSink struct {
	lat  []int64
	hash uint64
}

func (s *digestSink) Delivered(now clock.Cycle, f *link.Flit) {
	s.lat = append(s.lat, int64(now)-f.Gen)
	h := fnv.New64a()
	fmt.Fprint(h, now, f.Src, f.Seq, f.Dst, f.Hops, f.InjDelay)
	s.hash += h.Sum64()
}

func testConfig(org Org, memFlits, size int) Config {
	return Config{Org: org, PortMemoryFlits: memFlits, RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: size, RECN: recn.Defaults(memFlits)}
}

// run runs n to cycle to under exec, checking every invariant after every
// cycle when checks.
func run(t *testing.T, n *Network, exec actor.Kind, workers int, to clock.Cycle, checks bool) {
	runFrom(t, n, exec, workers, 0, to, checks)
}

func runFrom(t *testing.T, n *Network, exec actor.Kind, workers int, from, to clock.Cycle, checks bool) {
	t.Helper()
	var checkErr error
	spec := actor.Spec{From: from, To: to, Chunk: 1, Hook: func(next clock.Cycle) bool {
		if checks {
			if err := n.Check(next); err != nil {
				checkErr = err
				return true
			}
		}
		return false
	}}
	if !checks {
		spec.Chunk, spec.Hook = 64, nil
	}
	spec.Actors, spec.Units = n.Actors()
	if _, err := actor.Run(context.Background(), exec, workers, spec); err != nil {
		t.Fatal(err)
	}
	if checkErr != nil {
		t.Fatal(checkErr)
	}
}

var orgs = []Org{OneQ, VOQSw, VOQNet, RECN}

func TestZeroLoadLatency(t *testing.T) {
	for _, org := range orgs {
		for _, c := range []struct{ k, conc, delay, lat, size int }{{4, 1, 1, 1, 8}, {4, 4, 2, 3, 8}, {3, 2, 0, 1, 1}, {5, 1, 1, 2, 20}} {
			g, _ := grid.NewMesh(c.k, c.conc)
			N := g.Nodes()
			cfg := testConfig(org, 512, c.size)
			cfg.RoutingDelayCycles, cfg.LinkLatencyCycles = c.delay, c.lat
			for _, pair := range [][2]int{{0, N - 1}, {N - 1, 0}, {1, 0}, {N / 2, 3}} {
				src, dst := pair[0], pair[1]
				srcs := make([]fabric.Source, N)
				for i := range srcs {
					srcs[i] = &oneShot{dst: -1}
				}
				srcs[src] = &oneShot{dst: dst, size: c.size, at: 5}
				sink := &digestSink{}
				sinks := make([]fabric.Sink, N)
				for i := range sinks {
					sinks[i] = sink
				}
				n, err := Build(context.Background(), g, cfg, srcs, sinks)
				if err != nil {
					t.Fatal(err)
				}
				run(t, n, actor.Serial, 1, 300, true)
				if len(sink.lat) != 1 {
					t.Fatalf("%s %v %d->%d: %d packets delivered", org, c, src, dst, len(sink.lat))
				}
				want := ZeroLoadLatency(cfg, n.Hops(src, dst), c.size)
				if sink.lat[0] != int64(want) {
					t.Errorf("%s %s delay %d link %d size %d, %d->%d (%d hops): latency %d, want %d", org, g, c.delay, c.lat, c.size, src, dst, n.Hops(src, dst), sink.lat[0], want)
				}
			}
		}
	}
}

// buildRandom builds a network whose nodes send random traffic at rate
// packets/node/cycle (a share hot of it to node hot) until stop.
func buildRandom(t testing.TB, topo topology.Topology, cfg Config, rate, hot float64, hotNode int, stop clock.Cycle) (*Network, []*digestSink) {
	N := topo.Nodes()
	srcs := make([]fabric.Source, N)
	sinks := make([]fabric.Sink, N)
	ds := make([]*digestSink, N)
	for i := range srcs {
		srcs[i] = &randomSource{rng: rand.New(rand.NewPCG(7, uint64(i))), id: i, nodes: N, hot: hotNode, size: cfg.MaxPacketFlits, rate: rate, hotShare: hot, stop: stop}
		ds[i] = &digestSink{}
		sinks[i] = ds[i]
	}
	n, err := Build(context.Background(), topo, cfg, srcs, sinks)
	if err != nil {
		t.Fatal(err)
	}
	return n, ds
}

// TestInvariantsUnderLoad runs every organisation over saturation with a
// hot spot, checking memory, credits and conservation every cycle, then
// drains it and checks that every packet arrived once.
func TestInvariantsUnderLoad(t *testing.T) {
	g, _ := grid.NewMesh(4, 2)
	for _, org := range orgs {
		t.Run(org.String(), func(t *testing.T) {
			cfg := testConfig(org, 6*16*8, 8) // VOQnet: 32 queues of 24 flits
			n, _ := buildRandom(t, g, cfg, 0.2, 0.3, 5, 1500)
			run(t, n, actor.Serial, 1, 1500, true)
			tot := n.Totals()
			if tot.FlitsBuffered == 0 {
				t.Fatal("nothing buffered at the end of an overloaded phase: the test does not load the network")
			}
			runFrom(t, n, actor.Serial, 1, 1500, 40000, false)
			tot = n.Totals()
			if tot.PacketsDelivered != tot.PacketsGenerated || tot.PacketsGenerated < 1000 {
				t.Fatalf("%d packets generated, %d delivered after the drain", tot.PacketsGenerated, tot.PacketsDelivered)
			}
			if err := n.CheckDelivery(); err != nil {
				t.Fatal(err)
			}
			if err := n.Check(40000); err != nil {
				t.Fatal(err)
			}
			st := n.SAQs()
			t.Logf("%s: %d packets, %d flit hops, SAQs %+v", org, tot.PacketsDelivered, tot.FlitHops, st)
			if org == RECN && (st.Allocations == 0 || st.InUseIngress+st.InUseEgress != 0) {
				t.Fatalf("SAQs %+v: none allocated under overload, or some left after the drain", st)
			}
		})
	}
}

func digest(n *Network, ds []*digestSink) string {
	h := fnv.New64a()
	for i, a := range n.Adapters {
		fmt.Fprint(h, a.PacketsGenerated, a.PacketsInjected, a.PacketsDelivered, a.FlitsInjected, a.LastDelivery, ds[i].hash)
	}
	return fmt.Sprintf("%x", h.Sum64())
}

func TestDeterminism(t *testing.T) {
	g, _ := grid.NewMesh(4, 2)
	for _, org := range orgs {
		var want string
		for _, e := range []struct {
			kind    actor.Kind
			workers int
		}{{actor.Serial, 1}, {actor.Actors, 0}, {actor.Shards, 1}, {actor.Shards, 2}, {actor.Shards, 3}} {
			n, ds := buildRandom(t, g, testConfig(org, 256, 8), 0.15, 0.25, 3, 3000)
			run(t, n, e.kind, e.workers, 3000, false)
			got := digest(n, ds)
			if st := n.SAQs(); org == RECN && (st.Allocations == 0 || int(st.Allocations) == st.InUseIngress+st.InUseEgress) {
				t.Fatalf("%s/%d: SAQs %+v: none allocated and freed during the run", e.kind, e.workers, st)
			}
			if want == "" {
				want = got
			} else if got != want {
				t.Errorf("%s: %s/%d digest %s, serial %s", org, e.kind, e.workers, got, want)
			}
		}
	}
}

// TestForcedDeadlock builds dimension order on a torus, which the switch
// refuses unless deadlock is allowed, and overloads it: Stuck names the
// queues that stopped moving.
func TestForcedDeadlock(t *testing.T) {
	g, _ := grid.NewTorus(4)
	cfg := testConfig(OneQ, 16, 8)
	if err := Check(g, cfg); err == nil {
		t.Fatal("dimension order on a torus accepted without allow_deadlock")
	}
	cfg.AllowDeadlock = true
	n, _ := buildRandom(t, g, cfg, 0.5, 0, 0, 4000)
	run(t, n, actor.Serial, 1, 4000, false)
	lines, total, _ := n.Stuck(4000, 1000, 5)
	if total == 0 {
		t.Fatalf("no memory stuck on an overloaded torus with dimension order and no datelines: %+v", n.Totals())
	}
	t.Logf("%d stuck, e.g. %s", total, lines[0])
	// A mesh under the same load keeps moving, under every organisation,
	// with and without a hot spot.
	m, _ := grid.NewMesh(4, 1)
	for _, org := range orgs {
		for _, hot := range []float64{0, 0.5} {
			cfg := testConfig(org, 16*16, 8)
			n, _ = buildRandom(t, m, cfg, 0.5, hot, 5, 4000)
			run(t, n, actor.Serial, 1, 4000, false)
			if _, total, _ := n.Stuck(4000, 1000, 5); total != 0 {
				t.Fatalf("%s, hot-spot share %v: %d memories stuck on a mesh", org, hot, total)
			}
		}
	}
}

// TestMostStateBytes: the paper's configuration #1 (a 16x16 mesh, 128 KB
// per port memory, 64-byte packets of 8 flits) fits in a few hundred MB
// with every memory full, under every organisation.
func TestMostStateBytes(t *testing.T) {
	g, _ := grid.NewMesh(16, 1)
	for _, org := range orgs {
		cfg := testConfig(org, 16384, 8)
		cfg.MinPacketFlits = 8
		mb := float64(MostStateBytes(g, cfg)) / (1 << 20)
		t.Logf("%s: at most %.0f MiB of state with every memory full", org, mb)
		if mb > 400 {
			t.Errorf("%s: %.0f MiB with every memory full", org, mb)
		}
	}
}
