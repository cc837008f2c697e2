package vc

import (
	"context"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/routingtest"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/dragonflyplus"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/hyperx"
	"github.com/icnsim/icnsim/topology/slimfly"
)

// newTopologies are dragonflies and HyperX of several shapes, with the
// routings each has.
func newTopologies(t *testing.T) []struct {
	topo     topology.Topology
	routings []string
} {
	t.Helper()
	df1, err1 := dragonfly.NewDragonfly(2, 4, 2, 0, dragonfly.Palmtree, 5)
	df2, err2 := dragonfly.NewDragonfly(1, 4, 2, 5, dragonfly.Consecutive, 0) // two links between each pair of groups
	df3, err3 := dragonfly.NewDragonfly(2, 3, 1, 4, dragonfly.Palmtree, 3)
	hx1, err4 := hyperx.NewHyperX(4, 2, 1, 2)
	hx2, err5 := hyperx.NewHyperX(3, 3, 2, 1) // trunking 2
	dp1, err6 := dragonflyplus.New(2, 3, 2, 2, 5)
	dp2, err7 := dragonflyplus.New(1, 2, 2, 2, 3) // two links between each pair of groups
	sf1, err8 := slimfly.New(5, 2)
	sf2, err9 := slimfly.New(4, 1)
	for _, err := range []error{err1, err2, err3, err4, err5, err6, err7, err8, err9} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Local links longer than the node links (BookSim2's dragonflynew has
	// 10-cycle local and 1-cycle terminal channels), longer than the
	// global ones on df2.
	df2.LocalLatencyCycles, df3.LocalLatencyCycles = 3, 4
	dp1.GlobalLatencyCycles, dp2.LocalLatencyCycles = 6, 3
	dfR := []string{"min", "val", "ugal-l", "ugal-g", "par", "ugal-l-booksim"}
	hxR := []string{"min", "val", "ugal-l"}
	return []struct {
		topo     topology.Topology
		routings []string
	}{{df1, dfR}, {df2, dfR}, {df3, dfR}, {hx1, hxR}, {hx2, hxR}, {dp1, hxR}, {dp2, hxR}, {sf1, hxR}, {sf2, hxR}, {testGraph(t), []string{"shortest-hops"}}}
}

// checkedFree reports whether routing passes the deadlock check with its
// classes' VCs: all but ugal-l-booksim, whose BookSim2 phases have a
// cycle (TestBookSimUGALCycle), and which the tests build with
// allow_deadlock.
func checkedFree(routing string) bool { return routing != "ugal-l-booksim" }

// testGraph is a 6-router graph from a file: a ring with a chord, a
// longer link, two nodes on router 0.
func testGraph(t *testing.T) *graph.Graph {
	t.Helper()
	g, err := routingtest.Topology("file", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g.(*graph.Graph)
}

// tracePath is routingtest.TracePath on network n.
func tracePath(t *testing.T, n *Network, src, dst int, seq uint32) (hops, linkCycles int) {
	t.Helper()
	return routingtest.TracePath(t, n.Topo, n.Routing, func(r int) routing.Queues { return n.Routers[r] }, n.Cfg.LinkLatencyCycles, src, dst, seq)
}

// TestNonMinimalZeroLoadLatency: a lone packet's latency is exactly
// Linj + (H+1)*R + (its links' latencies) + Lej + (S-1), H the hops it
// took, for every routing on every new topology: the documented per-hop
// delay of a local hop (R + L) and of a global one (R + the global
// latency). Minimal paths also match Network.ZeroLoadLatency.
func TestNonMinimalZeroLoadLatency(t *testing.T) {
	for _, tc := range newTopologies(t) {
		for _, routing := range tc.routings {
			for _, delay := range []int{0, 2} {
				name := fmt.Sprintf("%s/%s/R%d", tc.topo, routing, delay)
				t.Run(name, func(t *testing.T) {
					N := tc.topo.Nodes()
					// About 12 x 12 pairs (6 x 6 under -race), dst strides
					// prime to the group and router sizes.
					step := max(1, N/12)
					if raceEnabled {
						step = max(1, N/6)
					}
					const size = 4
					for src := 0; src < N; src += step {
						for dst := (src * 7) % N; dst < N; dst += step + 1 {
							vcs := max(minVCs(routing, tc.topo), 2)
							cfg := Config{Routing: routingNamed(routing), VCs: vcs, BufferFlits: 8, RoutingDelayCycles: delay,
								LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: size, AllowDeadlock: !checkedFree(routing)}
							n, sink := loneNet(t, tc.topo, cfg, src, dst, size)
							hops, links := tracePath(t, n, src, dst, 0)
							acts, units := n.Actors()
							if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: 200}); err != nil {
								t.Fatal(err)
							}
							if err := n.Check(200); err != nil {
								t.Fatal(err)
							}
							if len(sink.lat) != 1 {
								t.Fatalf("%d->%d: %d packets delivered", src, dst, len(sink.lat))
							}
							want := 2 + (hops+1)*delay + links + 2 + size - 1
							if sink.lat[0] != int64(want) {
								t.Fatalf("%d->%d: latency %d, want %d (%d hops, %d link cycles)", src, dst, sink.lat[0], want, hops, links)
							}
							switch routing {
							case "min":
								if zl := n.ZeroLoadLatency(src, dst, size); zl != want {
									t.Fatalf("%d->%d: Network.ZeroLoadLatency %d, measured %d", src, dst, zl, want)
								}
							case "shortest-hops": // the least of the equal-hop routes: never above the one taken
								if zl := n.ZeroLoadLatency(src, dst, size); zl > want {
									t.Fatalf("%d->%d: Network.ZeroLoadLatency %d, above the measured %d", src, dst, zl, want)
								}
							}
						}
					}
				})
			}
		}
	}
}

// auditChooser wraps a non-minimal routing so that every decision the
// router takes is checked against Route's union for that state, the
// candidates the deadlock check enumerated.
type auditChooser struct {
	routing.Func
	inner routing.Chooser
	bad   *string
}

func (a *auditChooser) Choose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues, now clock.Cycle) {
	state := *f
	a.inner.Choose(r, in, f, c, q, now)
	var u routing.Candidates
	a.Func.Route(r, in, &state, &u)
	for g := 0; g < int(c.N); g++ {
		for pm := c.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			var allowed uint64
			for k := 0; k < int(u.N); k++ {
				if u.G[k].Ports&(1<<p) != 0 {
					allowed |= u.G[k].VCs
				}
			}
			if c.G[g].VCs&^allowed != 0 && *a.bad == "" {
				*a.bad = fmt.Sprintf("cycle %d at %s from port %d, packet %d->%d VC %d: Choose offers port %d VCs %b, Route allows %b",
					now, fmt.Sprintf("router %d", r), in, f.Src, f.Dst, state.VC, p, c.G[g].VCs, allowed)
			}
		}
	}
}

func (a *auditChooser) UseBoard() (*routing.GroupBoard, int, uint64) {
	if bu, ok := a.Func.(routing.BoardUser); ok {
		return bu.UseBoard()
	}
	return nil, 0, 0
}

// TestChooseWithinRoute runs heavy bursts on every new topology and
// routing with every invariant checked after every cycle, every decision
// checked against Route's union (so the deadlock check saw every channel
// a run uses), and every packet delivered exactly once.
func TestChooseWithinRoute(t *testing.T) {
	for _, tc := range newTopologies(t) {
		for _, rname := range tc.routings {
			t.Run(fmt.Sprintf("%s/%s", tc.topo, rname), func(t *testing.T) {
				N := tc.topo.Nodes()
				srcs := make([]fabric.Source, N)
				for i := range srcs {
					srcs[i] = &burst{node: i, nodes: N, m: 30, size: 4}
				}
				cfg := Config{Routing: routingNamed(rname), VCs: minVCs(rname, tc.topo) + 1, BufferFlits: 4, RoutingDelayCycles: 1,
					LinkLatencyCycles: 1, CreditLatencyCycles: 1, MaxPacketFlits: 4, AllowDeadlock: !checkedFree(rname)}
				rf, err := Check(context.Background(), tc.topo, cfg)
				if err != nil {
					t.Fatal(err)
				}
				bad := ""
				var use routing.Func = rf
				if ch, ok := rf.(routing.Chooser); ok {
					use = &auditChooser{Func: rf, inner: ch, bad: &bad}
				}
				n, err := wire(context.Background(), tc.topo, cfg, use, srcs, nil)
				if err != nil {
					t.Fatal(err)
				}
				runChecked(t, n, actor.Shards, 8000)
				if bad != "" {
					t.Fatal(bad)
				}
				if tot := n.Totals(); tot.PacketsDelivered != uint64(30*N) {
					t.Fatalf("delivered %d of %d packets", tot.PacketsDelivered, 30*N)
				}
				if err := n.CheckDelivery(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// TestShortestOnFile: on a graph from a file with cycles, "shortest" on
// every VC is refused with a cycle of channels, and so is "shortest-hops"
// with one VC; with as many VCs as the diameter it is accepted (between
// the two the check decides: a class may serve several hops safely).
func TestShortestOnFile(t *testing.T) {
	g := testGraph(t)
	ctx := context.Background()
	cfg := Config{Routing: routingNamed("shortest"), VCs: 4, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1, RoutingDelayCycles: 1, MaxPacketFlits: 4}
	if _, err := Check(ctx, g, cfg); err == nil || !strings.Contains(err.Error(), "channel dependency cycle: R") {
		t.Fatalf("shortest on a ring: %v", err)
	}
	cfg.Routing = routingNamed("shortest-hops")
	cfg.VCs = 1
	_, err := Check(ctx, g, cfg)
	if err == nil || !strings.Contains(err.Error(), "channel dependency cycle") || !strings.Contains(err.Error(), fmt.Sprintf("needs at least %d VCs", g.Diameter())) {
		t.Fatalf("shortest-hops with %d VCs: %v", cfg.VCs, err)
	}
	cfg.VCs = g.Diameter()
	if _, err := Check(ctx, g, cfg); err != nil {
		t.Fatalf("shortest-hops with %d VCs: %v", cfg.VCs, err)
	}
}

// TestTooFewVCsPrintShortCycle: every non-minimal routing with one VC too
// few is refused on every new topology with a cycle that closes on its
// first channel and is short enough to follow: the cycle the depth-first
// search finds is shortened to the shortest through one of its first
// channels (on a 16,512-node dragonfly it found 516 channels where two
// close the loop). On a Dragonfly+ no count of VCs below Valiant's 3
// gives the check a cycle: with 2, class 2 shares class 0's VC, which goes
// only up and down in the source group before any global link, and a
// packet read as of class 0 never turns back up in an intermediate group;
// the class rule refuses them with its own message (needs at least 3 VCs,
// one per class, TestTooFewClassesRefusedEvenAllowingDeadlock), which is
// what this test then asks for.
func TestTooFewVCsPrintShortCycle(t *testing.T) {
	for _, tc := range newTopologies(t) {
		for _, routing := range tc.routings {
			vcs := minVCs(routing, tc.topo) - 1
			if vcs < 1 || routing == "shortest-hops" {
				continue // shortest-hops' diameter is sufficient, not needed (TestShortestOnFile)
			}
			cfg := Config{Routing: routingNamed(routing), VCs: vcs, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1, RoutingDelayCycles: 1, MaxPacketFlits: 4}
			_, err := Check(context.Background(), tc.topo, cfg)
			if err == nil {
				t.Errorf("%s with %d VCs on %s: accepted", routing, vcs, tc.topo)
				continue
			}
			msg := err.Error()
			if _, ok := tc.topo.(*dragonflyplus.DragonflyPlus); ok {
				if want := fmt.Sprintf("needs at least %d VCs on a dragonflyplus, one per VC class", vcs+1); !strings.Contains(msg, want) {
					t.Errorf("%s with %d VCs on %s: %v, want %q", routing, vcs, tc.topo, err, want)
				}
				continue
			}
			i := strings.Index(msg, "channel dependency cycle: ")
			if i < 0 {
				t.Errorf("%s with %d VCs on %s: %v, want a cycle", routing, vcs, tc.topo, err)
				continue
			}
			names := strings.Split(strings.SplitN(msg[i+len("channel dependency cycle: "):], ";", 2)[0], " -> ")
			if len(names) < 3 || names[0] != names[len(names)-1] || len(names)-1 > 8 {
				t.Errorf("%s with %d VCs on %s: cycle of %d channels %v, want a closed one of 2 to 8", routing, vcs, tc.topo, len(names)-1, names)
			}
			t.Logf("%s with %d VCs on %s: %s", routing, vcs, tc.topo, strings.Join(names, " -> "))
		}
	}
}

// TestTooFewClassesRefusedEvenAllowingDeadlock: with fewer VCs than VC
// classes a non-minimal routing loses a packet's class (it is its VC's)
// and sends it back to its intermediate forever; allow_deadlock, which
// skips the deadlock check, does not let such a network be built.
func TestTooFewClassesRefusedEvenAllowingDeadlock(t *testing.T) {
	for _, tc := range newTopologies(t) {
		for _, routing := range tc.routings {
			if routing == "min" || routing == "shortest-hops" {
				continue // minimal routing reads its way from where it is
			}
			need := minVCs(routing, tc.topo)
			cfg := Config{Routing: routingNamed(routing), VCs: need - 1, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1, RoutingDelayCycles: 1,
				MaxPacketFlits: 4, AllowDeadlock: true}
			if _, err := Check(context.Background(), tc.topo, cfg); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("needs at least %d VCs", need)) {
				t.Errorf("%s with %d VCs on %s, deadlock allowed: %v, want a refusal", routing, need-1, tc.topo, err)
			}
			cfg.VCs = need
			if _, err := Check(context.Background(), tc.topo, cfg); err != nil {
				t.Errorf("%s with %d VCs on %s: %v", routing, need, tc.topo, err)
			}
		}
	}
}

// TestGraphZeroLoadLatency: on testGraph (link latency 2; the link 1-2
// takes 4, the chord 0-3 takes 3), the extra latency of the least
// shortest-hop route, worked out by hand.
func TestGraphZeroLoadLatency(t *testing.T) {
	g := testGraph(t)
	cfg := Config{Routing: routingNamed("shortest-hops"), VCs: 2, BufferFlits: 8, LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 4}
	n, _ := loneNet(t, g, cfg, 0, 1, 4)
	for _, c := range []struct{ src, dst, hops, extra int }{
		{0, 1, 0, 0}, // same router
		{6, 5, 1, 0}, // R5 -> R4
		{0, 4, 1, 1}, // the chord: 3
		{2, 3, 1, 2}, // the long link: 4
		{2, 4, 2, 1}, // R1-R0-R3 (2+3) beats R1-R2-R3 (4+2)
		{0, 3, 2, 1}, // R0-R3-R2 (3+2) beats R0-R1-R2 (2+4)
	} {
		if h := n.Routing.Hops(c.src, c.dst); h != c.hops {
			t.Errorf("%d->%d: %d hops, want %d", c.src, c.dst, h, c.hops)
		}
		if got, want := n.ZeroLoadLatency(c.src, c.dst, 4), ZeroLoadLatency(cfg, c.hops, 4)+c.extra; got != want {
			t.Errorf("%d->%d: ZeroLoadLatency %d, want %d (%d extra link cycles)", c.src, c.dst, got, want, c.extra)
		}
	}
}

// TestUpDownZeroLoadLatency: on a ring of six routers rooted at router 0
// (levels 0, 1, 2, 3, 2, 1 around it), a lone packet takes the shortest
// legal up*/down* route, worked out by hand, and arrives at the zero-load
// latency of that many hops: R2 -> R4 cannot go down to R3 and up to R4,
// so it climbs to the root and comes down the other side (4 hops, where
// the ring's shortest path has 2).
func TestUpDownZeroLoadLatency(t *testing.T) {
	// The link 5-0 takes 5 cycles, the others the network's 2: the
	// routes through it take 3 more.
	ring := "routers 6\nnode 0\nnode 1\nnode 2\nnode 3\nnode 4\nnode 5\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 4\nlink 4 5\nlink 5 0 5\nroot 0\n"
	g, err := graph.ReadGraph(context.Background(), "ring.txt", strings.NewReader(ring))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"up-down", "up-down-adaptive"} {
		cfg := Config{Routing: routingNamed(name), VCs: 1, BufferFlits: 8, Switching: VirtualCutThrough, RoutingDelayCycles: 1,
			LinkLatencyCycles: 2, CreditLatencyCycles: 1, MaxPacketFlits: 4}
		for _, c := range []struct{ src, dst, hops, extra int }{
			{2, 4, 4, 3}, // up R1, up R0, down R5 (the long link), down R4
			{4, 2, 4, 3}, // up R5, up R0 (the long link), down R1, down R2
			{1, 5, 2, 3}, // up R0, down R5
			{3, 1, 2, 0}, // up R2, up R1
			{2, 3, 1, 0}, // down
			{3, 4, 1, 0}, // up (R4 ranks above R3)
			{0, 3, 3, 0}, // down R1, down R2, down R3 (not R5, R4: the long link)
		} {
			n, sink := loneNet(t, g, cfg, c.src, c.dst, 4)
			if h := n.Routing.Hops(c.src, c.dst); h != c.hops {
				t.Errorf("%s %d->%d: %d hops, want %d", name, c.src, c.dst, h, c.hops)
			}
			runChecked(t, n, actor.Serial, 200)
			if want := ZeroLoadLatency(cfg, c.hops, 4) + c.extra; len(sink.lat) != 1 || sink.lat[0] != int64(want) || n.ZeroLoadLatency(c.src, c.dst, 4) != want {
				t.Errorf("%s %d->%d: latencies %v, want %d (%d hops)", name, c.src, c.dst, sink.lat, want, c.hops)
			}
			// Split into two virtual networks, the routes and their
			// latencies are the same.
			split := cfg
			split.VCs, split.VirtualNetworks = 2, 2
			if n2, _ := loneNet(t, g, split, c.src, c.dst, 4); n2.ZeroLoadLatency(c.src, c.dst, 4) != n.ZeroLoadLatency(c.src, c.dst, 4) {
				t.Errorf("%s %d->%d in two virtual networks: zero-load latency %d, one network's %d", name, c.src, c.dst, n2.ZeroLoadLatency(c.src, c.dst, 4), n.ZeroLoadLatency(c.src, c.dst, 4))
			}
		}
	}
}

// TestBookSimUGALCycle: ugal-l-booksim's phase 0 carries a packet both
// into a group (to its intermediate router) and out of it (from its
// source group's gateway), so the check finds a cycle of phase-0
// channels, global and local in turn, with 3 VCs and with 6 (two per
// phase) alike, on every dragonfly; with allow_deadlock it is built.
func TestBookSimUGALCycle(t *testing.T) {
	for _, tc := range newTopologies(t)[:3] {
		for _, vcs := range []int{3, 6} {
			cfg := Config{Routing: routingNamed("ugal-l-booksim"), VCs: vcs, BufferFlits: 8, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
				RoutingDelayCycles: 1, MaxPacketFlits: 4}
			_, err := Check(context.Background(), tc.topo, cfg)
			msg := fmt.Sprint(err)
			i := strings.Index(msg, "channel dependency cycle: ")
			if i < 0 {
				t.Fatalf("%s, %d VCs: %v, want a cycle", tc.topo, vcs, err)
			}
			cycle := strings.SplitN(msg[i+len("channel dependency cycle: "):], ";", 2)[0]
			global := false
			for _, ch := range strings.Split(cycle, " -> ") {
				v := ch[strings.LastIndex(ch, " vc")+3:]
				if v != "0" && v != "3" {
					t.Errorf("%s, %d VCs: channel %s of the cycle %s is not of phase 0", tc.topo, vcs, ch, cycle)
				}
				global = global || strings.Contains(ch, ".g")
			}
			if !global {
				t.Errorf("%s, %d VCs: the cycle %s crosses no global link", tc.topo, vcs, cycle)
			}
			t.Logf("%s, %d VCs: %s", tc.topo, vcs, cycle)
			cfg.AllowDeadlock = true
			if _, err := Check(context.Background(), tc.topo, cfg); err != nil {
				t.Errorf("%s, %d VCs, deadlock allowed: %v", tc.topo, vcs, err)
			}
		}
	}
}
