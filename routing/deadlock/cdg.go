package deadlock

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Check reports whether routing function rf with vcs VCs can deadlock on
// t (under wormhole switching, Duato's condition also requires the
// adaptive VCs to be allocated atomically): nil, or an error naming one
// cycle of channels or the condition that fails.
//
// It builds the channel dependency graph of the routing
// function with its VC assignment, over every state (router, input port,
// VC, Flit.Route) a packet can reach from any source under the full routing
// function, and returns an error naming one cycle of channels if the graph
// has one. A channel is one VC of one router-to-router link.
//
// For a function with an escape sub-function (Escaper) the graph is that of
// the escape sub-function: from every reachable state in which the packet
// holds an escape channel, an edge to each escape channel it may request.
// Duato's condition also counts indirect dependencies, through adaptive
// channels, between escape channels; those are not enumerated here (the
// shipped duato function was checked for them separately, k = 3..8), so for
// an Escaper this check is necessary, not sufficient.
//
// Every shipped routing function lists its reachable states directly
// (routing.StateLister, in its family's package), in time linear in the network: 0.3 s for a
// 256x256 torus. A function without that list is checked by the reference
// search, one breadth-first search over the states per destination, whose
// cost grows as nodes squared (1.1 s for a 64x64 torus, 35 s for 128x128).
// Both build the same graph (TestStateListsMatchReference compares them
// edge for edge on every shipped function over many small networks), and
// the cycle search depends on the graph alone, so both report the same
// cycle. ctx stops either between states.
//
// An Escaper without a state list (hybrid-har, har-dor) is checked against
// Duato's condition instead: its extended graph, indirect dependencies
// through the adaptive channels included, for every message class, and the
// side conditions (duato.go). checkDuatoStates does it by abstract states
// (duatostates.go), in time and memory linear in the network (0.8 s for a
// 256x256 hybrid-har mesh or torus, about 400 and 600 bytes per router);
// referenceDuato, the definition, searches per destination, in time and
// memory growing as nodes squared (8 s for a 32x32 mesh, 190 s for
// 64x64), and checks what the abstraction does not cover (no shipped
// routing). Both report the same failure and the same cycle
// (TestDuatoStatesMatchReference compares their graphs edge for edge).
func Check(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, wormhole bool) error {
	if _, ok := rf.(routing.DuatoChecked); ok {
		if ok, err := checkDuatoStates(ctx, t, rf, vcs, wormhole); ok {
			return err
		}
		return referenceDuato(ctx, t, rf, vcs, wormhole)
	}
	g, err := buildCDG(ctx, t, rf, vcs)
	if err != nil {
		return err
	}
	return g.findCycle(ctx)
}

// buildCDG builds the graph from the function's own state list when it has
// one, and by the reference search otherwise. A list that can leave out
// dependencies that go up from one VC class to a higher one
// (routing.ClassLister) does so where the graph's channels are the classes,
// unless the graph it gives has a dependency going down: a cycle of the
// whole graph then has every channel in one class, its dependencies all
// within that class and in the graph, so both graphs have a cycle or
// neither (TestStateListsMatchReference; the first cycle each finds may
// differ).
func buildCDG(ctx context.Context, t topology.Topology, rf routing.Func, vcs int) (*cdg, error) {
	if cl, ok := rf.(routing.ClassLister); ok && classRanked(rf, vcs) {
		g, err := listedCDG(ctx, t, rf, vcs, cl.ListStatesWithin)
		if err != nil || !g.descends() {
			return g, err
		}
	}
	if l, ok := rf.(routing.StateLister); ok {
		return listedCDG(ctx, t, rf, vcs, l.ListStates)
	}
	return referenceDependencies(ctx, t, rf, vcs, true)
}

// listedCDG builds the graph of the states list gives.
func listedCDG(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, list func(visit func(r, in int, vcMask uint64, route uint8, dst int) bool)) (*cdg, error) {
	g := newCDG(t, rf, vcs, true)
	var stop error
	n := 0
	list(func(r, in int, vcMask uint64, route uint8, dst int) bool {
		if n++; n&1023 == 0 {
			if stop = ctx.Err(); stop != nil {
				return false
			}
		}
		g.addState(r, in, vcMask, route, dst)
		return true
	})
	if stop == nil {
		stop = ctx.Err()
	}
	return g, stop
}

// classRanked reports whether the graph of rf with vcs VCs has the VC
// classes of rf as its channels' VCs, class c as VC c: rf is routing.VCClassed,
// with at most vcs classes (with fewer VCs, one VC stands for several
// classes).
func classRanked(rf routing.Func, vcs int) bool {
	vc, ok := rf.(routing.VCClassed)
	return ok && vc.VCClasses() >= 1 && vc.VCClasses() <= vcs
}

// descends reports whether some dependency goes from a channel of VC w to
// one of a lower VC.
func (g *cdg) descends() bool {
	below := make([]uint64, g.W) // below: the successor bits of VCs under w
	for w := 1; w < g.vcs; w++ {
		for q := 0; q*g.vcs < g.W*64; q++ {
			if b := q*g.vcs + w - 1; b < g.W*64 {
				below[b/64] |= 1 << (b % 64)
			}
		}
		for ch := w; ch*g.W < len(g.succ); ch += g.vcs {
			for i, m := range below {
				if g.succ[ch*g.W+i]&m != 0 {
					return true
				}
			}
		}
	}
	return false
}

// peerPort is the router and port at the far end of a port (router -1:
// a node or nothing).
type peerPort struct{ router, port int32 }

// cdg is a channel dependency graph: succ[ch*W:(ch+1)*W] has bit q*vcs+w set
// when a packet holding channel ch may request VC w of port q of the router
// ch leads to; channel ch = (base[r]+p)*vcs + v for output port p of router r.
//
// For a routing.VCClassed routing function with fewer VC classes K than VCs, a
// channel is a link's VC class instead (vcs = K; "VC" w of a channel is
// class w, whose lowest VC is w): a VC class's VCs take the same decisions
// and every decision offers whole classes, so each edge between two
// classes stands for the edges between all their VCs, and the graph of
// classes has a cycle exactly when the graph of VCs has one (through the
// classes' lowest VCs, which is the cycle printed). It is K^2/V^2 of the
// size: a 16x16x16x16 HyperX with 3 VCs has 8.4 million class channels
// instead of 12.6 million, and 4/9 of the edge bits.
type cdg struct {
	t      topology.Topology
	vcs, W int
	base   []int
	peer   []peerPort
	succ   []uint64

	rf     routing.Func
	escape func(r, in int, f *link.Flit, c *routing.Candidates) // nil: not an Escaper
	escVCs uint64                                               // the VCs whose holders have edges
	flit   *link.Flit
	cand   *routing.Candidates

	linkPorts []uint64 // linkPorts[r]: the ports of r that lead to a router
	allVCs    uint64   // the VCs that exist (the routing's, not the graph's)
	// classVCs[c] is the set of VCs of class c when channels are VC
	// classes (nil when they are VCs): VCs v with v mod vcs = c.
	classVCs []uint64
	classOf  [64]uint8 // classOf[v] = v mod vcs where channels are classes
	// doneRow is the channel addState last added to, and done[:nDone] the
	// groups it added there (doneRow -1: none).
	doneRow int
	done    [8]routing.Group
	nDone   int
}

// newCDG allocates the graph of rf on t with vcs VCs, its channels VC
// classes where rf is routing.VCClassed and byClass.
func newCDG(t topology.Topology, rf routing.Func, vcs int, byClass bool) *cdg {
	nr := t.Routers()
	g := &cdg{t: t, vcs: vcs, base: make([]int, nr+1), rf: rf, escVCs: ^uint64(0), flit: new(link.Flit), cand: new(routing.Candidates),
		linkPorts: make([]uint64, nr), allVCs: routing.AllVCs(vcs), doneRow: -1}
	if vc, ok := rf.(routing.VCClassed); ok && byClass && vc.VCClasses() >= 1 && vc.VCClasses() < vcs {
		g.vcs = vc.VCClasses()
		g.classVCs = make([]uint64, g.vcs)
		for v := 0; v < vcs; v++ {
			g.classVCs[v%g.vcs] |= 1 << v
			g.classOf[v] = uint8(v % g.vcs)
		}
		vcs = g.vcs
	}
	maxPV := 0
	for r := 0; r < nr; r++ {
		g.base[r+1] = g.base[r] + t.Ports(r)
		maxPV = max(maxPV, t.Ports(r)*vcs)
	}
	g.W = (maxPV + 63) / 64
	g.peer = make([]peerPort, g.base[nr])
	for r := 0; r < nr; r++ {
		for p := 0; p < t.Ports(r); p++ {
			q := t.Peer(r, p)
			g.peer[g.base[r]+p] = peerPort{int32(q.Router), int32(q.Port)}
			if q.Router >= 0 {
				g.linkPorts[r] |= 1 << p
			}
		}
	}
	g.succ = make([]uint64, g.base[nr]*vcs*g.W)
	if e, ok := rf.(routing.Escaper); ok {
		g.escape, g.escVCs = e.Escape, e.EscapeVCs()
	}
	return g
}

func (g *cdg) channel(r, p, v int) int { return (g.base[r]+p)*g.vcs + v }

// hasEdge reports whether channel a may be followed by channel b.
func (g *cdg) hasEdge(a, b int) bool {
	q := g.peer[a/g.vcs]
	if q.router < 0 || b/g.vcs < g.base[q.router] || b/g.vcs >= g.base[q.router+1] {
		return false
	}
	bit := (b/g.vcs-g.base[q.router])*g.vcs + b%g.vcs
	return g.succ[a*g.W+bit/64]&(1<<(bit%64)) != 0
}

// addState adds the dependencies of a packet for node dst with routing
// state route that holds VC v of the channel into input port in of router
// r, for every v in vcMask: an edge from that channel to every VC of a
// router-to-router channel its routing decision (its escape decision, for
// an Escaper) offers. A state reached from a node, or holding a VC outside
// the escape set of an Escaper, has none. Where channels are VC classes,
// Route is asked once per class in vcMask, with its lowest VC there.
//
// A state list visits one held channel with many destinations in a row
// (a HyperX's Valiant packet at its intermediate: one per output port),
// and most of their decisions share groups of candidates (the ports
// towards any intermediate): a group already added to the held channel's
// row since the row last changed is not added again (g.done), so the cost
// of a visit is its new groups, not the ports of all of them.
func (g *cdg) addState(r, in int, vcMask uint64, route uint8, dst int) {
	up := g.peer[g.base[r]+in]
	if up.router < 0 {
		return
	}
	f, c := g.flit, g.cand
	links := g.linkPorts[r]
	heldPort := g.base[up.router] + int(up.port)
	for vm := vcMask & g.escVCs & g.allVCs; vm != 0; {
		v := bits.TrailingZeros64(vm)
		held := heldPort * g.vcs
		if g.classVCs != nil {
			cls := int(g.classOf[v])
			vm &^= g.classVCs[cls]
			held += cls
		} else {
			vm &= vm - 1
			held += v
		}
		*f = link.Flit{Dst: int32(dst), VC: uint8(v), Route: route}
		c.N = 0
		if g.escape != nil {
			g.escape(r, in, f, c)
		} else {
			g.rf.Route(r, in, f, c)
		}
		if held != g.doneRow {
			g.doneRow, g.nDone = held, 0
		}
		row := g.succ[held*g.W : (held+1)*g.W]
		for k := 0; k < int(c.N); k++ {
			grp := routing.Group{Ports: c.G[k].Ports & links, VCs: c.G[k].VCs & g.escVCs & g.allVCs}
			if grp.Ports == 0 || grp.VCs == 0 || g.added(grp) {
				continue
			}
			w := grp.VCs
			if g.classVCs != nil {
				w = 0
				for m := grp.VCs; m != 0; m &= m - 1 {
					w |= 1 << g.classOf[bits.TrailingZeros64(m)]
				}
			}
			for pm := grp.Ports; pm != 0; pm &= pm - 1 {
				off := uint(bits.TrailingZeros64(pm) * g.vcs)
				row[off/64] |= w << (off % 64)
				if off%64+uint(g.vcs) > 64 {
					row[off/64+1] |= w >> (64 - off%64)
				}
			}
		}
	}
}

// added reports whether group grp was added to row g.doneRow since it last
// changed, and remembers it if not (up to len(g.done) groups).
func (g *cdg) added(grp routing.Group) bool {
	for _, d := range g.done[:g.nDone] {
		if d == grp {
			return true
		}
	}
	if g.nDone < len(g.done) {
		g.done[g.nDone] = grp
		g.nDone++
	}
	return false
}

// referenceDependencies builds the graph by a search over the states
// (router, input port, VC, Flit.Route) reached from every source, one
// destination at a time: the definition the state lists must match, and
// the check of a routing function without one. Its cost grows as nodes
// squared. byClass: the graph's channels are VC classes where rf is
// routing.VCClassed (as the check's), or VCs (its tests compare the verdicts).
func referenceDependencies(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, byClass bool) (*cdg, error) {
	g := newCDG(t, rf, vcs, byClass)
	upd, _ := rf.(routing.RouteUpdater)
	base, peer := g.base, g.peer
	nr := t.Routers()
	// A state is a packet at input port p of router r on VC v with routing
	// state s; the input channel is the upstream output channel.
	type state struct {
		r, p, v int
		route   uint8
	}
	// visited[idx(s)] == dst+1 when state s was reached for destination dst;
	// routing states are dense small integers (at most maxRoute of them).
	maxRoute := maxRoute
	if rs, ok := rf.(routeStater); ok {
		maxRoute = rs.RouteStates()
	}
	visited := make([]int32, base[nr]*vcs*maxRoute)
	idx := func(s state) int { return ((base[s.r]+s.p)*vcs+s.v)*maxRoute + int(s.route) }
	visit := func(s state, dst int) bool {
		if int(s.route) >= maxRoute {
			panic(fmt.Sprintf("deadlock check: routing state %d >= %d", s.route, maxRoute))
		}
		i := idx(s)
		if visited[i] == int32(dst+1) {
			return false
		}
		visited[i] = int32(dst + 1)
		return true
	}
	var queue []state
	// f and g2 are passed by pointer through interfaces and escape; declared
	// once here, they are allocated once instead of once per state.
	var cand routing.Candidates
	f, g2 := new(link.Flit), new(link.Flit)
	for dst := 0; dst < t.Nodes(); dst++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		queue = queue[:0]
		for src := 0; src < t.Nodes(); src++ {
			r, p := t.NodePort(src)
			var route0 uint8
			if in, ok := rf.(routing.Injector); ok {
				route0 = in.InjectRoute(src, dst)
			}
			for m := rf.InjectVCs(src, dst); m != 0; m &= m - 1 {
				s := state{r, p, bits.TrailingZeros64(m), route0}
				if s.v < vcs && visit(s, dst) {
					queue = append(queue, s)
				}
			}
		}
		for n := 1; len(queue) > 0; n++ {
			if n&65535 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			g.addState(s.r, s.p, 1<<s.v, s.route, dst)
			// Reachability follows the full routing function.
			*f = link.Flit{Dst: int32(dst), VC: uint8(s.v), Route: s.route}
			cand.N = 0
			rf.Route(s.r, s.p, f, &cand)
			for k := 0; k < int(cand.N); k++ {
				for pm := cand.G[k].Ports; pm != 0; pm &= pm - 1 {
					q := bits.TrailingZeros64(pm)
					nx := peer[base[s.r]+q]
					if nx.router < 0 {
						continue // ejection
					}
					for vm := cand.G[k].VCs; vm != 0; vm &= vm - 1 {
						w := bits.TrailingZeros64(vm)
						if w >= vcs {
							break
						}
						*g2 = *f
						g2.VC = uint8(w)
						if upd != nil {
							upd.Update(s.r, q, g2)
						}
						if ns := (state{int(nx.router), int(nx.port), w, g2.Route}); visit(ns, dst) {
							queue = append(queue, ns)
						}
					}
				}
			}
		}
	}
	return g, nil
}

// shortenCycle returns the shortest cycle through one of the first
// channels of cycle (a breadth-first search from each of up to 8 of them),
// or cycle itself when none is shorter: the depth-first search that found
// it can wander through hundreds of channels where a few close a loop, and
// the shorter one is what a reader can follow.
func (g *cdg) shortenCycle(cycle []int) []int {
	vcs, W, base, peer, succ := g.vcs, g.W, g.base, g.peer, g.succ
	from := make([]int32, len(succ)/W)
	best := cycle
	for _, start := range cycle[:min(len(cycle), 8)] {
		for i := range from {
			from[i] = -1
		}
		queue := []int{start}
		for len(queue) > 0 && from[start] < 0 {
			ch := queue[0]
			queue = queue[1:]
			to := int(peer[ch/vcs].router)
			for word := 0; word < W; word++ {
				for m := succ[ch*W+word]; m != 0; m &= m - 1 {
					b := word*64 + bits.TrailingZeros64(m)
					next := (base[to]+b/vcs)*vcs + b%vcs
					if from[next] < 0 {
						from[next] = int32(ch)
						queue = append(queue, next)
					}
				}
			}
		}
		if from[start] < 0 {
			continue // unreachable: start is on cycle, so it cannot be
		}
		var loop []int
		for c := int(from[start]); c != start; c = int(from[c]) {
			loop = append(loop, c)
		}
		loop = append(loop, start)
		slices.Reverse(loop)
		if len(loop) < len(best) {
			best = loop
		}
	}
	return best
}

// findCycle runs an iterative DFS; a grey successor closes a cycle.
func (g *cdg) findCycle(ctx context.Context) error {
	t, vcs, W, base, peer, succ := g.t, g.vcs, g.W, g.base, g.peer, g.succ
	nch := len(succ) / W
	const white, grey, black = 0, 1, 2
	color := make([]uint8, nch)
	type frame struct {
		ch, to, word int
		rest         uint64
	}
	push := func(stack []frame, ch int) []frame {
		color[ch] = grey
		return append(stack, frame{ch: ch, to: int(peer[ch/vcs].router), rest: succ[ch*W]})
	}
	var stack []frame
	for start := 0; start < nch; start++ {
		if color[start] != white {
			continue
		}
		if start&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		stack = push(stack[:0], start)
		for n := 1; len(stack) > 0; n++ {
			if n&65535 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			top := &stack[len(stack)-1]
			for top.rest == 0 && top.word+1 < W {
				top.word++
				top.rest = succ[top.ch*W+top.word]
			}
			if top.rest == 0 {
				color[top.ch] = black
				stack = stack[:len(stack)-1]
				continue
			}
			b := top.word*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			q, w := b/vcs, b%vcs
			ch := (base[top.to]+q)*vcs + w
			switch color[ch] {
			case grey:
				i := 0
				for stack[i].ch != ch {
					i++
				}
				var cycle []int
				for ; i < len(stack); i++ {
					cycle = append(cycle, stack[i].ch)
				}
				cycle = g.shortenCycle(cycle)
				names := make([]string, 0, len(cycle)+1)
				for _, c := range append(cycle, cycle[0]) {
					names = append(names, channelName(t, base, vcs, c))
				}
				return fmt.Errorf("channel dependency cycle: %s", strings.Join(names, " -> "))
			case white:
				stack = push(stack, ch)
			}
		}
	}
	return nil
}

func channelName(t topology.Topology, base []int, vcs, ch int) string {
	l, v := ch/vcs, ch%vcs
	// The router whose ports hold link l: the last r with base[r] <= l.
	r := sort.Search(len(base), func(i int) bool { return base[i] > l }) - 1
	return fmt.Sprintf("%s vc%d", t.PortName(r, l-base[r]), v)
}

// routeStater is a routing function whose routing states (Flit.Route) may
// reach more than the 8 values the reference search provides for by
// default: RouteStates bounds them (n-D min-adaptive's base and wrap count).
type routeStater interface{ RouteStates() int }
