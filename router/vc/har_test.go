package vc

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/grid"
)

func harConfig(routing string, vcs int) Config {
	return Config{Routing: routingNamed(routing), VCs: vcs, BufferFlits: 8, Switching: Wormhole, RoutingDelayCycles: 2,
		LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 256, MinPacketFlits: 32}
}

// harChecked is harConfig for a network checked already (TestHybridHARCheck).
func harChecked(routing string, vcs int) Config {
	c := harConfig(routing, vcs)
	c.AllowDeadlock = true
	return c
}

// TestHybridHARCheck: the router's build accepts hybrid-har (both
// classes, mesh and torus) and har-dor under every router.har.free rule
// (which changes when a channel is free, not what the routing offers; the
// checks' own tests, with the unsafe variants, are routing/deadlock's),
// and refuses the free rule on another routing and a rule that does not
// exist.
func TestHybridHARCheck(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		k    int
		wrap bool
		name string
		vcs  int
	}{
		{8, false, "hybrid-har", 4}, {5, false, "hybrid-har", 3}, {7, false, "hybrid-har", 5}, {8, false, "har-dor", 4},
		{6, true, "hybrid-har", 4}, {5, true, "hybrid-har", 5}, {8, true, "hybrid-har", 4},
	} {
		g := routingtest.HARTopology(t, c.k, c.wrap, c.name)
		for _, free := range []grid.HARFree{grid.HARTailSent, grid.HARUpperEmpty, grid.HARAllEmpty} {
			cfg := harConfig(c.name, c.vcs)
			cfg.RoutingParams = routing.Params{"har.free": free.String()}
			if _, err := Check(ctx, g, cfg); err != nil {
				t.Errorf("%s on %s, %d VCs, free %s: %v", c.name, g, c.vcs, free, err)
			}
		}
	}
	g := routingtest.HARTopology(t, 6, false, "hybrid-har")
	// The free rule is Hybrid-HAR's: another routing, or a rule that does
	// not exist, is refused.
	dg, _ := grid.NewMesh(4, 1)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Routing: routingNamed("dor"), VCs: 2, BufferFlits: 4, Switching: Wormhole, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
			RoutingParams: routing.Params{"har.free": "upper-empty"}}, `har.free = upper-empty: routing "dor" has no such parameter`},
		{func() Config {
			c := harConfig("hybrid-har", 4)
			c.RoutingParams = routing.Params{"har.free": "none-empty"}
			return c
		}(),
			"har.free = none-empty: allowed: tail-sent, upper-empty, all-empty"},
	} {
		topo := topology.Topology(dg)
		if c.cfg.Routing.Name != "dor" {
			topo = g
		}
		if _, err := Check(ctx, topo, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("routing %s with %v: got %v, want %q", c.cfg.Routing.Name, c.cfg.RoutingParams, err, c.want)
		}
	}
}

// TestHybridHARSteps: the routing algorithm's steps on hand-built router
// states of a 4x4 mesh, at router (1,1) for a message to node (3,3) (its
// productive ports are E and N, its dimension-order port E), through the
// router's own VC selection.
func TestHybridHARSteps(t *testing.T) {
	g := routingtest.HARTopology(t, 4, false, "hybrid-har")
	N := g.Nodes()
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &oneShot{dst: -1}
	}
	nets := map[grid.HARFree]*Network{}
	for _, free := range []grid.HARFree{grid.HARTailSent, grid.HARUpperEmpty, grid.HARAllEmpty} {
		cfg := harConfig("hybrid-har", 4)
		cfg.RoutingParams = routing.Params{"har.free": free.String()}
		nets[free] = build(t, g, cfg, srcs, nil)
	}
	r := g.Router(1, 1)
	E, Nn := grid.PortXPlus, grid.PortYPlus
	ccs, ccl := g.LoopPort(0), g.LoopPort(1)
	_, sink := g.NodePort(r) // the short messages' sink channel
	type vc struct{ port, v int }
	cases := []struct {
		name  string
		free  grid.HARFree
		class uint8
		inVC  uint8 // the VC the head arrived on: 0 upper, 2 C1, 3 C2
		busy  []vc  // output VCs held by other packets
		dry   []vc  // output VCs free but with fewer credits than the buffer
		want  []vc  // the allowed answers; none: the message blocks
	}{
		{"1: a free upper VC first", grid.HARTailSent, 0, 0, nil, nil, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}},
		{"1: long too", grid.HARTailSent, 1, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}}, nil, []vc{{Nn, 1}}},
		{"3.1: short moves down by CCS", grid.HARTailSent, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}, nil, []vc{{ccs, 2}}},
		{"3.2: long moves down by CCL", grid.HARTailSent, 1, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}, nil, []vc{{ccl, 2}}},
		{"4: short blocks when CCS is held, CCL free", grid.HARTailSent, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}, {ccs, 2}}, nil, nil},
		{"4: the lower network is not the upper's", grid.HARTailSent, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}, {ccs, 2}, {ccl, 2}}, nil, nil},
		{"5.1: short takes C2 first", grid.HARTailSent, 0, 2, nil, nil, []vc{{E, 3}, {Nn, 3}}},
		{"5.1: C2 adaptive", grid.HARTailSent, 0, 3, []vc{{E, 3}}, nil, []vc{{Nn, 3}}},
		{"5.2: short takes C1 on the DOR port", grid.HARTailSent, 0, 3, []vc{{E, 3}, {Nn, 3}}, nil, []vc{{E, 2}}},
		{"5.2: C2 atomic: a free C2 whose buffer is not empty is not taken", grid.HARTailSent, 0, 3, nil, []vc{{E, 3}, {Nn, 3}}, []vc{{E, 2}}},
		{"5.3: long takes C1 only", grid.HARTailSent, 1, 2, nil, nil, []vc{{E, 2}}},
		{"6: long blocks with C2 free", grid.HARTailSent, 1, 2, []vc{{E, 2}}, nil, nil},
		{"6: lower stays lower with upper VCs free", grid.HARTailSent, 0, 2, []vc{{E, 2}, {E, 3}, {Nn, 3}}, nil, nil},
		{"tail-sent: a free upper VC whose buffer is not empty is taken", grid.HARTailSent, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}}, []vc{{Nn, 1}}, []vc{{Nn, 1}}},
		{"upper-empty: a free upper VC whose buffer is not empty is not taken", grid.HARUpperEmpty, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}}, []vc{{Nn, 1}}, []vc{{ccs, 2}}},
		{"upper-empty: an empty one is", grid.HARUpperEmpty, 1, 0, []vc{{E, 0}, {Nn, 0}}, []vc{{E, 1}}, []vc{{Nn, 1}}},
		{"upper-empty: CCS whose buffer is not empty is taken", grid.HARUpperEmpty, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}, []vc{{ccs, 2}}, []vc{{ccs, 2}}},
		{"upper-empty: C1 whose buffer is not empty is taken", grid.HARUpperEmpty, 0, 3, []vc{{E, 3}, {Nn, 3}}, []vc{{E, 2}}, []vc{{E, 2}}},
		{"all-empty: CCS whose buffer is not empty is not taken", grid.HARAllEmpty, 0, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}, []vc{{ccs, 2}}, nil},
		{"all-empty: CCL empty is", grid.HARAllEmpty, 1, 0, []vc{{E, 0}, {E, 1}, {Nn, 0}, {Nn, 1}}, []vc{{ccs, 2}}, []vc{{ccl, 2}}},
		{"all-empty: C1 whose buffer is not empty is not taken", grid.HARAllEmpty, 0, 3, []vc{{E, 3}, {Nn, 3}}, []vc{{E, 2}}, nil},
		{"all-empty: the sink channel keeps the tail rule", grid.HARAllEmpty, 0, 0, nil, []vc{{sink, 0}}, []vc{{sink, 0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := nets[c.free]
			rt := n.Routers[r]
			dst := int32(g.Router(3, 3))
			if c.want != nil && c.want[0].port == sink {
				dst = int32(r) // the message is at its destination's router
			}
			for o := range rt.outs {
				if rt.port[o/4].out >= 0 {
					rt.outs[o].owner, rt.outs[o].credits = -1, 8
				}
			}
			for _, b := range c.busy {
				rt.outs[b.port*4+b.v].owner = 0
			}
			for _, d := range c.dry {
				rt.outs[d.port*4+d.v].credits = 5
			}
			for trial := 0; trial < 8; trial++ { // every tie-break rotation
				f := link.Flit{Dst: dst, VC: c.inVC, Class: c.class, Size: 32}
				var cand routing.Candidates
				n.Routing.Route(r, grid.PortXMinus, &f, &cand)
				o, op, ov := rt.selectVC(&cand, 1)
				got := vc{int(op), int(ov)}
				if o < 0 {
					if c.want != nil {
						t.Fatalf("blocked, want one of %v", c.want)
					}
					continue
				}
				if c.want == nil {
					t.Fatalf("got %v, want to block", got)
				}
				ok := false
				for _, w := range c.want {
					ok = ok || w == got
				}
				if !ok {
					t.Fatalf("got %v, want one of %v", got, c.want)
				}
			}
		})
	}
}

// TestHybridHARZeroLoad: a lone short (32 flits) or long (256 flits)
// message takes exactly Linj + (H+1)*2 + H + Lej + (S-1) cycles on the
// 16x16 mesh under hybrid-har and har-dor (2-cycle routing, wormhole).
func TestHybridHARZeroLoad(t *testing.T) {
	for _, routing := range []string{"hybrid-har", "har-dor"} {
		g := routingtest.HARTopology(t, 16, false, routing)
		N := g.Nodes()
		rng := rand.New(rand.NewPCG(1, 2))
		for trial := 0; trial < 6; trial++ {
			src, dst := rng.IntN(N), rng.IntN(N)
			class := uint8(trial % 2)
			size := []int{32, 256}[class]
			srcs := make([]fabric.Source, N)
			for i := range srcs {
				srcs[i] = &oneShot{dst: -1}
			}
			srcs[src] = &oneShot{dst: dst, size: size, class: class, at: 5}
			sink := &latencySink{}
			sinks := make([]fabric.Sink, N)
			for i := range sinks {
				sinks[i] = sink
			}
			n := build(t, g, harChecked(routing, 4), srcs, sinks)
			runChecked(t, n, actor.Serial, 400)
			want := ZeroLoadLatency(n.Cfg, n.Routing.Hops(src, dst), size)
			if len(sink.lat) != 1 || sink.lat[0] != int64(want) {
				t.Fatalf("%s %d->%d class %d: latencies %v, analytical %d", routing, src, dst, class, sink.lat, want)
			}
		}
	}
}

// harSource is Poisson-like traffic for the HAR tests: each cycle a
// message with probability p, long with probability pLong.
type harSource struct {
	node, nodes int
	p, pLong    float64
	rng         *rand.Rand
	dest        func(src int, rng *rand.Rand) int
}

func (s *harSource) Generate(now clock.Cycle, q *fabric.SourceQueue) clock.Cycle {
	if s.rng.Float64() < s.p {
		size, class := 32, uint8(0)
		if s.rng.Float64() < s.pLong {
			size, class = 256, 1
		}
		q.Push(now, s.dest(s.node, s.rng), size, class)
	}
	return now + 1
}

// shortBehindLong counts, after cycle now, the short heads that were
// ready for a VC in the upper network in cycle now and are still waiting
// although the connection channel for short messages (CCS) of their
// router was free when the cycle's VC allocation ran (free with a credit
// after cycle now-1, as recorded in ccsFree, and not taken since); it
// then records CCS's state for the next cycle.
func shortBehindLong(n *Network, now clock.Cycle, ccsFree []bool) int {
	g := n.Topo.(*grid.Grid2D)
	h := n.Routing.(*grid.HAR).Layout()
	ccs := g.LoopPort(0)
	bad := 0
	for r, rt := range n.Routers {
		V := int(rt.vcs)
		cc := &rt.outs[ccs*V+2]
		wasFree := ccsFree[r]
		ccsFree[r] = cc.owner < 0 && cc.credits > 0
		if !wasFree || cc.owner >= 0 {
			continue
		}
		for i := range rt.ivc {
			s := &rt.ivc[i]
			if s.state != vcRouted || !readyBy(s.ready, now) {
				continue
			}
			f := &rt.pkts[s.pkFront].hdr
			if f.Class == 0 && routing.Bit(i%V)&h.Lower == 0 {
				if dr, _ := g.NodePort(int(f.Dst)); dr != int(rt.id) {
					bad++
				}
			}
		}
	}
	return bad
}

// TestHybridHARShortNeverBehindLong: on an 8x8 mesh at a load past
// saturation with half the volume in long messages, at every cycle no
// short head waits in the upper network while its router's CCS is free;
// the invariants hold every cycle and every message arrives.
func TestHybridHARShortNeverBehindLong(t *testing.T) {
	g := routingtest.HARTopology(t, 8, false, "hybrid-har")
	N := g.Nodes()
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &harSource{node: i, nodes: N, p: 0.012, pLong: 1.0 / 9, rng: rand.New(rand.NewPCG(3, uint64(i))),
			dest: func(_ int, rng *rand.Rand) int { return rng.IntN(N) }}
	}
	n := build(t, g, harConfig("hybrid-har", 4), srcs, nil)
	acts, units := n.Actors()
	waits, heads := 0, 0
	ccsFree := make([]bool, len(n.Routers))
	var checkErr error
	_, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: 6000, Chunk: 1,
		Hook: func(next clock.Cycle) bool {
			waits += shortBehindLong(n, next-1, ccsFree)
			for _, rt := range n.Routers {
				for i := range rt.ivc {
					if rt.ivc[i].state == vcRouted {
						heads++
					}
				}
			}
			if next%10 == 0 {
				checkErr = n.Check(next)
			}
			return checkErr != nil
		}})
	if err != nil || checkErr != nil {
		t.Fatal(err, checkErr)
	}
	if waits != 0 {
		t.Fatalf("%d head-cycles of short messages waited in the upper network with CCS free", waits)
	}
	if heads < 1000 {
		t.Fatalf("only %d head-cycles waited for a VC: the network was not loaded", heads)
	}
	t.Logf("%d head-cycles waited for a VC, none of a short message with CCS free; %d packets delivered", heads, n.Totals().PacketsDelivered)
}

// TestHybridHARNoDeadlock: every mix of short and long messages at an
// offered load of 1.0 flit/node/cycle (far past saturation) under uniform,
// transpose and centre reflection, on an 8x8 mesh, keeps moving: flits
// are delivered in every window of 2,000 cycles, the invariants hold, and
// the watchdog-like check (no flit moved for 1,000 cycles) never fires;
// the router.har.free rules other than the default at 50% long (every mix
// with -har.long).
// The 16x16 mesh for 100,000 cycles: go test ./router/vc -run NoDeadlock -har.long.
func TestHybridHARNoDeadlock(t *testing.T) {
	k, cycles := 8, clock.Cycle(8000)
	if *harLong {
		k, cycles = 16, 100_000
	} else if raceEnabled {
		cycles = 2000 // the full soak runs without -race
	}
	for _, routing := range []string{"hybrid-har", "har-dor"} {
		for _, pattern := range []string{"uniform", "transpose", "centre-reflection"} {
			for _, free := range []grid.HARFree{grid.HARTailSent, grid.HARUpperEmpty, grid.HARAllEmpty} {
				for _, longPct := range []float64{0, 25, 50, 75, 100} {
					if free != grid.HARTailSent && !*harLong && longPct != 50 {
						continue // the other rules at one mix, but the long soak
					}
					t.Run(fmt.Sprintf("%s/%s/%s/%g", routing, pattern, free, longPct), func(t *testing.T) {
						if testing.Short() && k == 8 && longPct != 50 {
							t.Skip("short: one mix")
						}
						noDeadlock(t, k, routing, pattern, free, longPct, cycles)
					})
				}
			}
		}
	}
}

func noDeadlock(t *testing.T, k int, rname, pattern string, free grid.HARFree, longPct float64, cycles clock.Cycle) {
	g := routingtest.HARTopology(t, k, false, rname)
	N := g.Nodes()
	dest := func(src int, rng *rand.Rand) int {
		x, y := g.XY(src)
		switch pattern {
		case "transpose":
			return g.Router(y, x)
		case "centre-reflection":
			return g.Router(k-1-x, k-1-y)
		}
		return rng.IntN(N)
	}
	// Load 1 flit/node/cycle: messages per cycle = 1 / mean size.
	s := longPct / 100
	mean := 1 / ((1-s)/32 + s/256)
	pLong := s / 256 * mean
	srcs := make([]fabric.Source, N)
	for i := range srcs {
		srcs[i] = &harSource{node: i, nodes: N, p: 1 / mean, pLong: pLong, rng: rand.New(rand.NewPCG(5, uint64(i))), dest: dest}
	}
	cfg := harConfig(rname, 4)
	cfg.RoutingParams = routing.Params{"har.free": free.String()}
	n := build(t, g, cfg, srcs, nil)
	acts, units := n.Actors()
	var checkErr error
	var lastDelivered uint64
	var lastHops uint64
	stuckSince := clock.Cycle(0)
	_, err := actor.Run(context.Background(), actor.Shards, 2, actor.Spec{Actors: acts, Units: units, To: cycles, Chunk: 100,
		Hook: func(next clock.Cycle) bool {
			tot := n.Totals()
			if tot.FlitHops != lastHops {
				lastHops, stuckSince = tot.FlitHops, next
			}
			if next-stuckSince > 1000 {
				checkErr = fmt.Errorf("no flit moved from cycle %d to %d: deadlock", stuckSince, next)
				return true
			}
			if next%2000 == 0 {
				if tot.PacketsDelivered == lastDelivered {
					checkErr = fmt.Errorf("no packet delivered in cycles %d..%d", next-2000, next)
					return true
				}
				lastDelivered = tot.PacketsDelivered
			}
			if next%1000 == 0 {
				checkErr = n.Check(next)
			}
			return checkErr != nil
		}})
	if err != nil || checkErr != nil {
		t.Fatal(err, checkErr)
	}
	t.Logf("%d packets delivered in %d cycles", n.Totals().PacketsDelivered, cycles)
}

var harLong = flag.Bool("har.long", false, "run the Hybrid-HAR deadlock soak and the short-behind-long count (TestShortBehindLong) on the paper's 16x16 mesh for 100,000 cycles")
