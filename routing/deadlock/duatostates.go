package deadlock

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Duato's check on abstract states: referenceDuato's conditions and
// extended graph, found in time and memory linear in the network.
//
// The reference searches the states a packet can reach once per
// destination, and joins every pair of escape channels that a walk through
// non-escape channels connects into a dense matrix, so it grows as nodes
// squared. Here a destination is seen from a router through its descriptor
// in each dimension, one of a few: on a mesh the sign of the remaining
// offset (+1, -1, or 0 once reached), on a torus the direction the
// shorter way round (+1 on a tie) and whether the rest of the way crosses
// the wrap link (what picks C1's class), or reached. The decisions of the
// routing functions checked here read the destination only through its
// descriptors (and, at its router, its node). An abstract state is
// (router, VC, class, descriptors). Per dimension, a table made from the
// definition by trying every coordinate from every coordinate (O(k^2) =
// O(routers)) gives the descriptors that exist at each coordinate, the
// nearest destination coordinate of each, and the descriptors a hop the
// way a descriptor points can lead to.
//
// # Reachable states
//
// Passes over the abstract states, each visited once, find those
// reachable from the nodes with the input ports they are reached through
// (reach), calling Route and Escape on a representative destination (the
// nearest with the descriptors), and checks the side conditions at each.
// On a mesh any abstract walk from a source, each sign going from +-1 to
// 0 at most once and never pointing off the edge, is made by a real
// destination: the coordinate where its sign became 0, or the next one
// beyond the walk where it did not; so the abstract states reached are
// exactly the real ones' images. On a torus a walk is at most k/2 hops
// long along a ring, so not every abstract walk is made by a destination;
// but every state of these routings that holds a channel is also reached
// one hop from a source (a packet injected, or moved down its connection
// channel, at the router behind with any destination: the decisions there
// read the VC only as upper or lower network), so one hop is enough for
// the abstract states reached to be the real ones' images there too.
//
// # The extended graph
//
// It is kept compact and never stored: its edges are computed when
// visited. Its nodes are the escape channels (numbered by escapeSet, as
// the reference does) and intermediate nodes; a path from escape channel a
// through intermediate nodes to escape channel b must be a dependency a ->
// b of the extended graph (direct, or indirect through non-escape
// channels) made by one destination, and every such dependency must be
// such a path. Then the escape channels reach each other in the compact
// graph exactly as in the extended graph, and lie on a cycle of one
// exactly when they lie on a cycle of the other.
//
// On a mesh the intermediate nodes are the abstract lower states (router,
// VC, class, descriptors): an escape channel into input port p of router r
// on VC v has an edge to every abstract state (r, v, class, descriptors)
// reached through p; an abstract state has an edge to each escape channel
// its escape sub-function offers and to each abstract state a hop on a
// non-escape channel its routing function offers leads to. A path is one
// abstract walk, made by one destination (above).
//
// On a torus an abstract walk through C2 may be longer than a real one, so the
// walks are not followed hop by hop. A walk through C2 from router r0 for a
// destination ahead reaches, by the routing's minimal fully adaptive hops,
// every router r of the box between r0 and the destination, and there asks for
// the escape channels of its descriptors at r; along each dimension which
// coordinates of r with which descriptors a destination allows is a few
// intervals of coordinates, in closed form (torusWalk), from r0's coordinate,
// its descriptor and the most hops the destination can lie ahead (k/2 the
// positive way, (k-1)/2 the negative way, one less along the dimension of the
// hop by which the escape channel reached r0). The dimensions are independent,
// so an escape channel that reached r0 along x, or by its connection channel,
// leads through a segment tree over its row (one per row, end descriptor in x
// and class) to the routers of the row it may reach with each descriptor in x,
// from each of those through a segment tree over its column (one per column,
// descriptors and class) to the routers of the column with each descriptor in y
// (any the destination allows from r0's row: the y descriptor was free), and
// from each of those to the escape channels its escape sub-function offers
// there. One that reached r0 along y has (dimension order) its destination's
// column reached and goes straight to the column's trees (with an escape
// sub-function that is not dimension order, it goes through row trees kept
// apart by its descriptor in y, torusGraph.yKinds). An interval costs O(log k)
// tree nodes, so the graph has O(routers) nodes (120 per router for two
// classes) and O(routers log k) edges. A class whose routing takes no
// non-escape channel from escape channels (long messages, under hybrid-har)
// goes from r0 to r0 only.
//
// # The cycle reported
//
// It is the reference's (findDenseCycle's) by construction: that
// depth-first search, from escape channels in index order, successors in
// index order, blackens only channels that reach no cycle before it meets
// the first channel that does; from there it follows, without
// backtracking, the least successor that reaches a cycle until it meets a
// channel on its path. firstCycle computes which channels reach a cycle
// (strongly connected components of the compact graph) and follows that
// path, each successor set a search through intermediate nodes. Only a
// rejected network pays for it.
//
// # Assumptions
//
// Route and Escape read the destination only through its descriptors
// (and its node at its router), read neither the input port nor, beyond
// upper or lower network, the VC held; hops are minimal; InjectVCs is the
// same for every source of a router; on a torus, every state is reached
// one hop from a source (above), and the non-escape hops from escape
// channels are the minimal fully adaptive ones. TestDuatoStatesMatchReference
// compares the extended graph, edge for edge, and the result with the
// reference's on meshes and tori of many sizes, VC counts, both routings,
// every free rule and the unsafe test variants. A non-minimal hop, routing
// state, or a torus whose reached states break the independence of the
// dimensions makes the check give way to the reference (ok false).

// visited is the bit of duatoStates.reached that says reach visited a
// state (the bits below it are input ports: four directions, nodes, two
// loopbacks).
const visited = 1 << 7

// descLine is the destination descriptors of one dimension of a mesh or
// torus of k: nd of them, none the one of a destination reached.
type descLine struct {
	k, nd, none int
	wrap        bool
	sgn         []int   // the direction each descriptor points (0 for none)
	feas        []uint8 // feas[p]: the descriptors some coordinate has from p
	rep         []int32 // rep[p*nd+d]: the nearest coordinate with descriptor d from p
	next        []uint8 // next[p*nd+d]: the descriptors from p+sgn[d] of those with d from p
}

// newDescLine makes the tables of a mesh's (signs) or a torus's (wrap)
// line from the definition, trying every coordinate from every one.
func newDescLine(k int, wrap bool) *descLine {
	l := &descLine{k: k, nd: 3, none: 1, wrap: wrap, sgn: []int{-1, 0, 1}}
	if wrap {
		l.nd, l.none, l.sgn = 5, 0, []int{0, 1, 1, -1, -1}
	}
	l.feas = make([]uint8, k)
	l.rep = make([]int32, k*l.nd)
	l.next = make([]uint8, k*l.nd)
	hops := make([]int, k*l.nd)
	for p := 0; p < k; p++ {
		for b := 0; b < k; b++ {
			d, h := l.desc(p, b)
			i := p*l.nd + d
			if l.feas[p]&(1<<d) == 0 || h < hops[i] {
				l.rep[i], hops[i] = int32(b), h
			}
			l.feas[p] |= 1 << d
			if s := l.sgn[d]; s != 0 {
				d2, _ := l.desc(l.step(p, s), b)
				l.next[i] |= 1 << d2
			}
		}
	}
	return l
}

// desc is the descriptor of coordinate b from p and the hops to it: on a
// mesh the sign of b-p; on a torus the direction the shorter way round
// (positive on a tie) and whether the way crosses the wrap link (C1's
// class, har.c1Hop).
func (l *descLine) desc(p, b int) (d, hops int) {
	if !l.wrap {
		switch {
		case b < p:
			return 0, p - b
		case b > p:
			return 2, b - p
		}
		return 1, 0
	}
	if b == p {
		return 0, 0
	}
	s, h := topology.RingStep(p, b, l.k), topology.RingDistance(p, b, l.k)
	switch {
	case s > 0 && b < p:
		return 2, h
	case s > 0:
		return 1, h
	case b > p:
		return 4, h
	}
	return 3, h
}

// step is the coordinate one hop from p in direction s.
func (l *descLine) step(p, s int) int {
	p += s
	if l.wrap {
		p = (p + l.k) % l.k
	}
	return p
}

// duatoStates is Duato's check of one routing function on one mesh or
// torus by abstract states.
type duatoStates struct {
	ctx          context.Context
	g            topology.Plane
	line         *descLine // both dimensions: the grid is square
	rf           routing.Func
	esc          routing.Escaper
	vcs, classes int
	nd2, here    int    // descriptors of a router (nd squared), and that of a destination reached
	E            uint64 // the escape VCs
	es           *escapeSet
	nE           int // escape channels: compact nodes 0..nE-1; intermediate nodes follow
	loop0        int // the first loopback port
	// reached[st] has bit portBit(p) for every input port p through which
	// abstract state st is reached (bit 4: from a node), and bit visited
	// once reach has visited it.
	reached []uint8
	// offNon[v*classes+cls] is the set of non-escape VCs the routing
	// function offers on channels in the reached states with VC v and
	// class cls that hold a channel.
	offNon []uint64
	// adaptive is the set of non-escape VCs of walks from escape channels.
	adaptive uint64
	torus    *torusGraph // the intermediate nodes on a torus
	// xy[2r], xy[2r+1] are router r's coordinates, at[y*k+x] the router
	// at (x, y), and conc the nodes per router: the plane's geometry read
	// once, so that the search's innermost steps make no interface calls
	// (they did once the plane became an interface: validate of a 256x256
	// hybrid-har mesh took 9% longer).
	xy, at []int32
	conc   int
	f      link.Flit
	c      routing.Candidates
}

// newDuatoStates prepares the check; ok is false when the abstraction does
// not cover t and rf.
func newDuatoStates(ctx context.Context, t topology.Topology, rf routing.Func, vcs int) (s *duatoStates, ok bool) {
	g, isGrid := t.(topology.Plane)
	if !isGrid || g.Loopbacks() > 2 || g.Ports(0) > 64 {
		return nil, false
	}
	if _, ok := rf.(routing.RouteUpdater); ok {
		return nil, false
	}
	if _, ok := rf.(routing.Injector); ok {
		return nil, false
	}
	esc := rf.(routing.Escaper)
	s = &duatoStates{ctx: ctx, g: g, line: newDescLine(g.Side(), g.Wraps()), rf: rf, esc: esc, vcs: vcs, classes: 1,
		E: esc.EscapeVCs() & routing.AllVCs(vcs), loop0: g.LoopPort(0)}
	if c, ok := rf.(routing.ClassRouter); ok {
		s.classes = c.Classes()
	}
	s.nd2, s.here = s.line.nd*s.line.nd, s.line.none*s.line.nd+s.line.none
	s.es = newEscapeSet(t, vcs, s.E)
	s.nE = len(s.es.ch)
	s.reached = make([]uint8, g.Routers()*vcs*s.classes*s.nd2)
	s.offNon = make([]uint64, vcs*s.classes)
	k := g.Side()
	s.xy, s.at, s.conc = make([]int32, 2*g.Routers()), make([]int32, k*k), g.Concentration()
	for r := range g.Routers() {
		x, y := g.XY(r)
		s.xy[2*r], s.xy[2*r+1], s.at[y*k+x] = int32(x), int32(y), int32(r)
	}
	return s, true
}

// coords are router r's coordinates (the plane's XY).
func (s *duatoStates) coords(r int) (x, y int) { return int(s.xy[2*r]), int(s.xy[2*r+1]) }

// routerAt is the router at (x, y) (the plane's Router).
func (s *duatoStates) routerAt(x, y int) int { return int(s.at[y*s.line.k+x]) }

// checkDuatoStates is referenceDuato by abstract states, on the networks
// the abstraction covers (ok false elsewhere: the caller runs the
// reference).
func checkDuatoStates(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, wormhole bool) (ok bool, err error) {
	s, ok := newDuatoStates(ctx, t, rf, vcs)
	if !ok {
		return false, nil
	}
	if ok, err = s.build(); !ok || err != nil {
		return ok, err
	}
	return s.search(wormhole)
}

// build finds the reachable states and, on a torus, makes the
// intermediate nodes of the compact graph.
func (s *duatoStates) build() (ok bool, err error) {
	if ok, err = s.reach(); !ok || err != nil {
		return ok, err
	}
	if s.g.Wraps() {
		if s.torus, ok = newTorusGraph(s); !ok {
			return false, nil
		}
	}
	return true, nil
}

// nodes is the number of nodes of the compact graph.
func (s *duatoStates) nodes() int {
	if s.torus != nil {
		return s.torus.n
	}
	return s.nE + len(s.reached)
}

// state is the index of abstract state (router r, VC v, class cls,
// descriptors d).
func (s *duatoStates) state(r, v, cls, d int) int { return ((r*s.vcs+v)*s.classes+cls)*s.nd2 + d }

// decode is state's inverse.
func (s *duatoStates) decode(st int) (r, v, cls, d int) {
	d, st = st%s.nd2, st/s.nd2
	cls, st = st%s.classes, st/s.classes
	return st / s.vcs, st % s.vcs, cls, d
}

// portBit is the bit of input port p in reached.
func (s *duatoStates) portBit(p int) uint8 {
	switch {
	case p < topology.PlaneLocal:
		return 1 << p
	case p >= s.loop0:
		return 1 << (5 + p - s.loop0)
	}
	return 1 << 4
}

// inPort is an input port through which st is reached (the first node
// port for one reached only from nodes).
func (s *duatoStates) inPort(st int) int {
	b := bits.TrailingZeros8(s.reached[st])
	switch {
	case b < 4:
		return b
	case b > 4 && b < 7:
		return s.loop0 + b - 5
	}
	return topology.PlaneLocal
}

// feasible reports whether descriptors d exist at router (x, y).
func (s *duatoStates) feasible(x, y, d int) bool {
	l := s.line
	return l.feas[x]>>(d/l.nd)&1 != 0 && l.feas[y]>>(d%l.nd)&1 != 0
}

// rep is the representative destination of descriptors d at router r:
// the first node of the nearest router with them.
func (s *duatoStates) rep(r, d int) int {
	x, y := s.coords(r)
	l := s.line
	return s.routerAt(int(l.rep[x*l.nd+d/l.nd]), int(l.rep[y*l.nd+d%l.nd])) * s.conc
}

// decide fills s.c with the routing function's (or, with escape, the
// escape sub-function's) decision for a class-cls packet for node dst on
// VC v at input port in of router r.
func (s *duatoStates) decide(r, in, v, cls, dst int, escape bool) *routing.Candidates {
	s.f = link.Flit{Dst: int32(dst), VC: uint8(v), Class: uint8(cls)}
	s.c.N = 0
	if escape {
		s.esc.Escape(r, in, &s.f, &s.c)
	} else {
		s.rf.Route(r, in, &s.f, &s.c)
	}
	return &s.c
}

// hop is where a hop out of port q of router r takes a packet with
// descriptors d: the router and input port, and the n descriptors it may
// have there (n = 0 for a node port or an edge of the mesh); ok is false
// for a hop that is not minimal.
func (s *duatoStates) hop(r, d, q int) (r2, in2 int, ds [2]int, n int, ok bool) {
	pr := s.es.peer[s.es.base[r]+q]
	if pr.router < 0 {
		return 0, 0, ds, 0, true
	}
	r2, in2 = int(pr.router), int(pr.port)
	if r2 == r { // a loopback
		ds[0] = d
		return r2, in2, ds, 1, true
	}
	l := s.line
	dx, dy := d/l.nd, d%l.nd
	x, y := s.coords(r)
	sgn := 1 - 2*(q&1) // E and N are +1, W and S -1
	if q < topology.PlaneYPlus {
		if l.sgn[dx] != sgn {
			return 0, 0, ds, 0, false
		}
		for m := l.next[x*l.nd+dx]; m != 0; m &= m - 1 {
			ds[n] = bits.TrailingZeros8(m)*l.nd + dy
			n++
		}
		return r2, in2, ds, n, true
	}
	if l.sgn[dy] != sgn {
		return 0, 0, ds, 0, false
	}
	for m := l.next[y*l.nd+dy]; m != 0; m &= m - 1 {
		ds[n] = dx*l.nd + bits.TrailingZeros8(m)
		n++
	}
	return r2, in2, ds, n, true
}

// reach finds the abstract states reachable from the nodes, with the
// input ports they are reached through, and checks at each that the
// escape sub-function offers something, and nothing the routing function
// does not.
//
// It needs no queue: a minimal hop keeps the signs of a router's
// descriptors or clears one, and goes the way one points. So it visits the
// descriptors with two signs first, then one, then none, and the routers
// of each in the order its signs point (ascending x for a positive sign,
// descending for a negative one, and likewise y), which puts every state
// after those it is reached from, except at the same router through a
// loopback (a router's states are visited until none is left unvisited)
// and, on a torus, across the wrap link: passes repeat until one visits
// nothing (a mesh takes one and one that finds nothing, a torus two and one).
func (s *duatoStates) reach() (ok bool, err error) {
	g, vcs, k, l := s.g, s.vcs, s.g.Side(), s.line
	all := routing.AllVCs(vcs)
	nodeBit := s.portBit(topology.PlaneLocal)
	for r := 0; r < g.Routers(); r++ {
		x, y := s.coords(r)
		for d := 0; d < s.nd2; d++ {
			if !s.feasible(x, y, d) {
				continue
			}
			for m := s.rf.InjectVCs(r*g.Concentration(), s.rep(r, d)) & all; m != 0; m &= m - 1 {
				for cls := 0; cls < s.classes; cls++ {
					s.reached[s.state(r, bits.TrailingZeros64(m), cls, d)] |= nodeBit
				}
			}
		}
	}
	var cand, ecand routing.Candidates
	// visit processes the reached state st once: its conditions, and the
	// states it reaches.
	visit := func(st int) (ok bool, err error) {
		s.reached[st] |= visited
		r, v, cls, d := s.decode(st)
		in := s.inPort(st)
		// The conditions, for every destination at this router when the
		// packet is there (the sink differs), else for the representative.
		dst, dsts := s.rep(r, d), 1
		if d == s.here {
			dsts = g.Concentration()
		}
		for i := 0; i < dsts; i++ {
			cand = *s.decide(r, in, v, cls, dst+i, false)
			ecand = *s.decide(r, in, v, cls, dst+i, true)
			where := func() string {
				return fmt.Sprintf("a class-%d packet for node %d at %s on VC %d (routing state 0)", cls, dst+i, g.PortName(r, in), v)
			}
			if ecand.N == 0 {
				return true, s.sideFailure(fmt.Errorf("the escape sub-function offers nothing to %s", where()))
			}
			if q, w, ok := subsetOf(&ecand, &cand, vcs); !ok {
				return true, s.sideFailure(fmt.Errorf("the escape sub-function offers %s vc%d to %s, which the routing function does not", g.PortName(r, q), w, where()))
			}
		}
		held := s.reached[st]&^(visited|nodeBit) != 0
		for i := 0; i < int(cand.N); i++ {
			for pm := cand.G[i].Ports; pm != 0; pm &= pm - 1 {
				r2, in2, ds, nd, ok := s.hop(r, d, bits.TrailingZeros64(pm))
				if !ok {
					return false, nil
				}
				if held && nd > 0 {
					s.offNon[v*s.classes+cls] |= cand.G[i].VCs & all &^ s.E
				}
				for vm := cand.G[i].VCs & all; vm != 0; vm &= vm - 1 {
					for j := 0; j < nd; j++ {
						s.reached[s.state(r2, bits.TrailingZeros64(vm), cls, ds[j])] |= s.portBit(in2)
					}
				}
			}
		}
		return true, nil
	}
	// The descriptors by the number of signs they have, most first.
	var order []int
	for signs := 2; signs >= 0; signs-- {
		for d := 0; d < s.nd2; d++ {
			if (l.sgn[d/l.nd] != 0 && l.sgn[d%l.nd] != 0 && signs == 2) || (signs == 1 && (l.sgn[d/l.nd] != 0) != (l.sgn[d%l.nd] != 0)) || (signs == 0 && d == s.here) {
				order = append(order, d)
			}
		}
	}
	for again := true; again; {
		again = false
		for _, d := range order {
			if err := s.ctx.Err(); err != nil {
				return true, err
			}
			sx, sy := l.sgn[d/l.nd], l.sgn[d%l.nd]
			for i := 0; i < k; i++ {
				y := i
				if sy < 0 {
					y = k - 1 - i
				}
				for j := 0; j < k; j++ {
					x := j
					if sx < 0 {
						x = k - 1 - j
					}
					st0 := s.state(s.routerAt(x, y), 0, 0, d)
					for more := true; more; {
						more = false
						for st := st0; st < st0+vcs*s.classes*s.nd2; st += s.nd2 {
							if b := s.reached[st]; b != 0 && b&visited == 0 {
								if ok, err := visit(st); !ok || err != nil {
									return ok, err
								}
								more, again = true, true
							}
						}
					}
				}
			}
		}
	}
	return true, nil
}

// sideFailure is the failure of the side conditions that the reference
// names (firstSideFailure), given one found here: the first destination in
// the reference's order that fails, found by its search per destination,
// which only a failing network pays for.
func (s *duatoStates) sideFailure(found error) error {
	if err := firstSideFailure(s.ctx, s.g, s.rf, s.vcs); err != nil {
		return err
	}
	return found
}

// succ appends the successors of compact node u to out; ok is false for
// a hop that is not minimal.
func (s *duatoStates) succ(u int, out []int32) ([]int32, bool) {
	if s.torus != nil {
		return s.torus.succ(u, out), true
	}
	return s.meshSucc(u, out)
}

// meshSucc is succ on a mesh: an escape channel's successors are the
// abstract states it leads to, an abstract state's the escape channels its
// escape sub-function offers and the abstract states its routing
// function's non-escape hops lead to.
func (s *duatoStates) meshSucc(u int, out []int32) ([]int32, bool) {
	vcs, es := s.vcs, s.es
	if u < s.nE {
		ch := int(es.ch[u])
		pr := es.peer[ch/vcs]
		b := s.portBit(int(pr.port))
		for cls := 0; cls < s.classes; cls++ {
			st := s.state(int(pr.router), ch%vcs, cls, 0)
			for d := 0; d < s.nd2; d++ {
				if s.reached[st+d]&b != 0 {
					out = append(out, int32(s.nE+st+d))
				}
			}
		}
		return out, true
	}
	st := u - s.nE
	r, v, cls, d := s.decode(st)
	in, dst := s.inPort(st), s.rep(r, d)
	out = s.escapes(r, in, v, cls, dst, out)
	c := s.decide(r, in, v, cls, dst, false)
	for k := 0; k < int(c.N); k++ {
		adaptive := c.G[k].VCs & routing.AllVCs(vcs) &^ s.E
		if adaptive == 0 {
			continue
		}
		for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
			r2, _, ds, nd, ok := s.hop(r, d, bits.TrailingZeros64(pm))
			if !ok {
				return out, false
			}
			if nd == 0 {
				continue
			}
			s.adaptive |= adaptive
			for vm := adaptive; vm != 0; vm &= vm - 1 {
				for j := 0; j < nd; j++ {
					out = append(out, int32(s.nE+s.state(r2, bits.TrailingZeros64(vm), cls, ds[j])))
				}
			}
		}
	}
	return out, true
}

// escapes appends the escape channels the escape sub-function offers a
// class-cls packet for node dst on VC v at input port in of router r.
func (s *duatoStates) escapes(r, in, v, cls, dst int, out []int32) []int32 {
	es := s.es
	c := s.decide(r, in, v, cls, dst, true)
	for k := 0; k < int(c.N); k++ {
		for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
			q := bits.TrailingZeros64(pm)
			for vm := c.G[k].VCs & s.E; vm != 0; vm &= vm - 1 {
				if e := es.idx[(es.base[r]+q)*s.vcs+bits.TrailingZeros64(vm)]; e >= 0 {
					out = append(out, e)
				}
			}
		}
	}
	return out
}

// search visits the compact graph from every escape channel: it collects
// the non-escape VCs of walks from escape channels for the wormhole
// condition, and looks for a cycle, which firstCycle then names as the
// reference would.
func (s *duatoStates) search(wormhole bool) (ok bool, err error) {
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, s.nodes())
	type frame struct{ node, next, end int32 }
	var frames []frame
	var arena []int32
	cyclic := false
	for start, n := 0, 0; start < s.nE; start++ {
		if colour[start] != white {
			continue
		}
		colour[start] = grey
		if arena, ok = s.succ(start, arena[:0]); !ok {
			return false, nil
		}
		frames = append(frames[:0], frame{int32(start), 0, int32(len(arena))})
		for len(frames) > 0 {
			if n++; n&4095 == 0 {
				if err := s.ctx.Err(); err != nil {
					return true, err
				}
			}
			top := &frames[len(frames)-1]
			if top.next == top.end {
				colour[top.node] = black
				frames = frames[:len(frames)-1]
				arena = arena[:0]
				if len(frames) > 0 {
					arena = arena[:frames[len(frames)-1].end]
				}
				continue
			}
			w := arena[top.next]
			top.next++
			switch colour[w] {
			case grey:
				cyclic = true
			case white:
				colour[w] = grey
				lo := int32(len(arena))
				if arena, ok = s.succ(int(w), arena); !ok {
					return false, nil
				}
				frames = append(frames, frame{w, lo, int32(len(arena))})
			}
		}
	}
	if wormhole {
		var atomic uint64
		if a, ok := s.rf.(routing.AtomicAllocator); ok {
			atomic = a.AtomicVCs()
		}
		if bad := s.adaptive &^ s.E &^ atomic; bad != 0 {
			return true, notAtomicError(bad)
		}
	}
	if !cyclic {
		return true, nil
	}
	return s.firstCycle()
}

// firstCycle names the cycle findDenseCycle would find in the extended
// graph (see the top of this file); the compact graph has a cycle.
func (s *duatoStates) firstCycle() (ok bool, err error) {
	n := s.nodes()
	// Tarjan's strongly connected components, iteratively. A component is
	// a cycle of the extended graph when it holds an escape channel and
	// more than one node; a node reaches a cycle when its component is one
	// or has an edge to a component that reaches one.
	const (
		onStack = 1 << iota
		done
		reaches
		edgeToReaching
	)
	index := make([]int32, n)
	low := make([]int32, n)
	flags := make([]uint8, n)
	var comp []int32
	type frame struct{ node, next, end int32 }
	var frames []frame
	var arena []int32
	counter := int32(0)
	open := func(u int32) bool {
		counter++
		index[u], low[u] = counter, counter
		flags[u] |= onStack
		comp = append(comp, u)
		lo := int32(len(arena))
		if arena, ok = s.succ(int(u), arena); !ok {
			return false
		}
		frames = append(frames, frame{u, lo, int32(len(arena))})
		return true
	}
	for root := int32(0); int(root) < s.nE; root++ {
		if index[root] != 0 {
			continue
		}
		if err := s.ctx.Err(); err != nil {
			return true, err
		}
		if !open(root) {
			return false, nil
		}
		for len(frames) > 0 {
			top := &frames[len(frames)-1]
			if top.next < top.end {
				w := arena[top.next]
				top.next++
				switch {
				case index[w] == 0:
					if !open(w) {
						return false, nil
					}
				case flags[w]&onStack != 0:
					low[top.node] = min(low[top.node], index[w])
				case flags[w]&reaches != 0:
					flags[top.node] |= edgeToReaching
				}
				continue
			}
			u := top.node
			frames = frames[:len(frames)-1]
			arena = arena[:0]
			if len(frames) > 0 {
				arena = arena[:frames[len(frames)-1].end]
			}
			if low[u] == index[u] {
				i := len(comp) - 1
				for comp[i] != u {
					i--
				}
				members := comp[i:]
				cycle, reach := false, false
				for _, m := range members {
					cycle = cycle || int(m) < s.nE
					reach = reach || flags[m]&edgeToReaching != 0
				}
				reach = reach || (cycle && len(members) > 1)
				for _, m := range members {
					flags[m] = flags[m]&^onStack | done
					if reach {
						flags[m] |= reaches
					}
				}
				comp = comp[:i]
			}
			if len(frames) > 0 {
				p := frames[len(frames)-1].node
				if flags[u]&onStack != 0 {
					low[p] = min(low[p], low[u])
				} else if flags[u]&reaches != 0 {
					flags[p] |= edgeToReaching
				}
			}
		}
	}
	// The path of least successors that reach a cycle, from the first
	// escape channel that reaches one.
	cur := -1
	for e := 0; e < s.nE && cur < 0; e++ {
		if flags[e]&reaches != 0 {
			cur = e
		}
	}
	if cur < 0 {
		return true, nil // the compact graph's cycles avoid the escape channels
	}
	seen := make([]int32, n-s.nE)
	pos := map[int]int{cur: 0}
	path := []int{cur}
	for stamp := int32(1); ; stamp++ {
		if err := s.ctx.Err(); err != nil {
			return true, err
		}
		next := -1
		ok := s.extendedSuccessors(cur, seen, stamp, func(b int) {
			if flags[b]&reaches != 0 && (next < 0 || b < next) {
				next = b
			}
		})
		if !ok {
			return false, nil
		}
		if j, on := pos[next]; on {
			var names []string
			for _, e := range append(path[j:], next) {
				names = append(names, s.es.name(s.g, s.vcs, e))
			}
			return true, escapeCycleError(names)
		}
		pos[next] = len(path)
		path = append(path, next)
		cur = next
	}
}

// extendedSuccessors calls visit for every escape channel that escape
// channel e reaches through intermediate nodes only, its successors in the
// extended graph (some more than once). seen, indexed by node - nE, marks
// the intermediate nodes visited with stamp, which must differ from every
// earlier call's.
func (s *duatoStates) extendedSuccessors(e int, seen []int32, stamp int32, visit func(b int)) bool {
	stack, ok := s.succ(e, nil)
	if !ok {
		return false
	}
	for _, u := range stack {
		seen[int(u)-s.nE] = stamp
	}
	var next []int32
	for len(stack) > 0 {
		u := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if next, ok = s.succ(u, next[:0]); !ok {
			return false
		}
		for _, w := range next {
			switch {
			case int(w) < s.nE:
				visit(int(w))
			case seen[int(w)-s.nE] != stamp:
				seen[int(w)-s.nE] = stamp
				stack = append(stack, w)
			}
		}
	}
	return true
}

// duatoCheckBytes is the memory Duato's extended check of a routing
// function with escape VCs E and the given number of message classes
// takes on t with vcs VCs at its largest (checkDuatoStates').
func duatoCheckBytes(t topology.Topology, vcs int, E uint64, classes int) int64 {
	nr, V := int64(t.Routers()), int64(vcs)
	var nports, nE, links int64
	for r := 0; r < t.Routers(); r++ {
		for p := 0; p < t.Ports(r); p++ {
			nports++
			if t.Peer(r, p).Router >= 0 {
				links++
			}
		}
	}
	nE = links * int64(bits.OnesCount64(E&routing.AllVCs(vcs)))
	// escapeSet: port bases, peers, a dense index per channel, a channel
	// per escape channel.
	esBytes := 8*(nr+1) + 8*nports + 4*nports*V + 4*nE
	g, ok := t.(topology.Plane)
	if !ok {
		return esBytes
	}
	k, nd := int64(g.Side()), int64(3)
	if g.Wraps() {
		nd = 5
	}
	// reached, one byte per abstract state, and a colour per compact
	// node (the escape channels, and on a mesh the abstract states, on a
	// torus the segment trees: 2k nodes per row and end descriptor and per
	// column and descriptors, by class); the search's stack, a path
	// through the compact graph of a few nodes per coordinate, each with
	// its successors (measured: at most 500 bytes per coordinate, the
	// stack's growth included); the lines' tables; the plane's geometry
	// (12 bytes per router).
	nStates := nr * V * int64(classes) * nd * nd
	inter := nStates
	if g.Wraps() {
		inter = 2 * k * k * nd * int64(classes) * (1 + nd)
		// The walks' tree nodes: per coordinate, descriptor, along or not
		// and end descriptor, and per coordinate and end descriptor (free),
		// a slice and its nodes (measured: 1.1 to 2 of 4 bytes from 32x32
		// to 256x256, the slices' growth included), and the search's stack
		// (twice as deep as on a mesh).
		lists := k * nd * (2*nd + 1)
		inter += lists*(24+2*int64(bits.Len(uint(k)))) + 512*k
	}
	return esBytes + nStates + nE + inter + 13*k*nd + 512*k + 12*nr + 16<<10
}
