package router

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/link"
)

// Duato's check on abstract states: referenceDuato's conditions and
// extended graph, found in time and memory linear in the network.
//
// The reference searches the states a packet can reach once per
// destination, and joins every pair of escape channels that a walk through
// non-escape channels connects into a dense matrix, so it grows as nodes
// squared. On a mesh the decisions of a minimal routing function depend on
// the destination only through the sign of the remaining offset in each
// dimension (+1, -1, or 0 once reached): its descriptor, one of nine, the
// same at every router for the destinations ahead in the same directions.
// An abstract state is (router, VC, class, descriptor); a hop along a
// dimension keeps that dimension's sign or, on arriving at the
// destination's coordinate, makes it 0, and keeps the other's. Any such
// walk from a source, each sign going from +-1 to 0 at most once and never
// pointing off the edge of the mesh, is made by a real destination: the
// coordinate where its sign became 0, or the next one beyond the walk
// where it did not. So the abstract states reached from the sources are
// exactly the real ones' images, with the input ports they are reached
// through, found by one search over at most routers x VCs x classes x 9
// states, calling Route on a representative destination (the nearest in
// the descriptor's directions).
//
// The extended graph is kept compact: its nodes are the escape channels
// (numbered by escapeSet, as the reference does) and the abstract lower
// states (router, VC, class, descriptor). An escape channel into input
// port p of router r on VC v has an edge to every abstract state (r, v,
// class, descriptor) reached through p; an abstract state has an edge to
// each escape channel its escape sub-function offers and to each abstract
// state a hop on a non-escape channel its routing function offers leads
// to. A path from escape channel a through abstract states to escape
// channel b is one walk, made by one destination, so it is an edge of the
// reference's extended graph (direct when it passes one abstract state,
// indirect through non-escape channels otherwise), and every such edge is
// such a path: the escape channels reach each other in the compact graph
// exactly as in the extended graph, and they lie on a cycle of one exactly
// when they lie on a cycle of the other. The compact graph has at most
// routers x VCs x classes x 9 abstract states and a handful of edges each;
// it is never stored, its edges are computed when visited.
//
// The cycle reported is the reference's (findDenseCycle's) by
// construction: that depth-first search, from escape channels in index
// order, successors in index order, blackens only channels that reach no
// cycle before it meets the first channel that does; from there it follows,
// without backtracking, the least successor that reaches a cycle until it
// meets a channel on its path. firstCycle computes which channels reach a
// cycle (strongly connected components of the compact graph) and follows
// that path, each successor set a search through abstract states. Only a
// rejected network pays for it.
//
// The abstraction assumes that Route and Escape read the destination only
// through its descriptor (and its node at the destination's router), read
// neither the input port nor the non-escape VC held apart from which VCs
// the packet may take, offer only minimal hops, and that InjectVCs is the
// same for every source of a router; TestDuatoStatesMatchReference compares
// the extended graph, edge for edge, and the result with the reference's
// on meshes of many sizes and VC counts, both routings, every free rule and
// the unsafe test variants. A non-minimal hop or routing state makes the
// check give way to the reference (ok false). On a torus the sign is not
// enough: minimal walks are at most k/2 hops long along a ring, and which
// way the rest of the route crosses the wrap link (C1's class) depends on
// how far the destination lies, so a sign abstraction would admit walks no
// destination makes; the torus keeps the reference check.

// nDesc is the number of descriptors: (sx+1)*3 + (sy+1) for signs sx, sy.
const nDesc = 9

// descHere is the descriptor of a packet at its destination's router.
const descHere = 4

// visited is the bit of duatoStates.reached that says reach visited a
// state (the bits below it are input ports: four directions, nodes, two
// loopbacks).
const visited = 1 << 7

// descSigns is descriptor d's signs.
func descSigns(d int) (sx, sy int) { return d/3 - 1, d%3 - 1 }

// duatoStates is Duato's check of one routing function on one mesh by
// abstract states.
type duatoStates struct {
	ctx          context.Context
	g            *link.Grid2D
	rf           RoutingFunc
	esc          Escaper
	vcs, classes int
	E            uint64 // the escape VCs
	es           *escapeSet
	nE           int // escape channels: compact nodes 0..nE-1; abstract states follow
	loop0        int // the first loopback port
	// reached[st] has bit portBit(p) for every input port p through which
	// abstract state st is reached (bit 4: from a node), and bit visited
	// once reach has visited it.
	reached []uint8
	// adaptive is the set of non-escape VCs of abstract states reached from
	// escape channels.
	adaptive uint64
	f        link.Flit
	c        Candidates
}

// newDuatoStates prepares the check; ok is false when the abstraction does
// not cover t and rf.
func newDuatoStates(ctx context.Context, t link.Topology, rf RoutingFunc, vcs int) (s *duatoStates, ok bool) {
	g, isGrid := t.(*link.Grid2D)
	if !isGrid || g.Wrap || len(g.Loops) > 2 {
		return nil, false
	}
	if _, ok := rf.(RouteUpdater); ok {
		return nil, false
	}
	if _, ok := rf.(Injector); ok {
		return nil, false
	}
	esc := rf.(Escaper)
	s = &duatoStates{ctx: ctx, g: g, rf: rf, esc: esc, vcs: vcs, classes: 1, E: esc.EscapeVCs() & allVCs(vcs), loop0: g.LoopPort(0)}
	if c, ok := rf.(ClassRouter); ok {
		s.classes = c.Classes()
	}
	s.es = newEscapeSet(t, vcs, s.E)
	s.nE = len(s.es.ch)
	s.reached = make([]uint8, g.Routers()*vcs*s.classes*nDesc)
	return s, true
}

// checkDuatoStates is referenceDuato by abstract states, on the networks
// the abstraction covers (ok false elsewhere: the caller runs the
// reference).
func checkDuatoStates(ctx context.Context, t link.Topology, rf RoutingFunc, vcs int, wormhole bool) (ok bool, err error) {
	s, ok := newDuatoStates(ctx, t, rf, vcs)
	if !ok {
		return false, nil
	}
	if ok, err = s.reach(); !ok || err != nil {
		return ok, err
	}
	return s.search(wormhole)
}

// state is the index of abstract state (router r, VC v, class cls,
// descriptor d).
func (s *duatoStates) state(r, v, cls, d int) int { return ((r*s.vcs+v)*s.classes+cls)*nDesc + d }

// decode is state's inverse.
func (s *duatoStates) decode(st int) (r, v, cls, d int) {
	d, st = st%nDesc, st/nDesc
	cls, st = st%s.classes, st/s.classes
	return st / s.vcs, st % s.vcs, cls, d
}

// portBit is the bit of input port p in reached.
func (s *duatoStates) portBit(p int) uint8 {
	switch {
	case p < link.PortLocal:
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
	return link.PortLocal
}

// feasible reports whether descriptor d exists at router (x, y): no sign
// points off the edge of the mesh.
func (s *duatoStates) feasible(x, y, d int) bool {
	sx, sy := descSigns(d)
	k := s.g.K
	return x+sx >= 0 && x+sx < k && y+sy >= 0 && y+sy < k
}

// rep is the representative destination of descriptor d at router r: the
// first node of the nearest router in its directions.
func (s *duatoStates) rep(r, d int) int {
	x, y := s.g.XY(r)
	sx, sy := descSigns(d)
	return s.g.Router(x+sx, y+sy) * s.g.C
}

// decide fills s.c with the routing function's (or, with escape, the
// escape sub-function's) decision for a class-cls packet for node dst on
// VC v at input port in of router r.
func (s *duatoStates) decide(r, in, v, cls, dst int, escape bool) *Candidates {
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
// descriptor d: the router and input port, and the n descriptors it may
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
	sx, sy := descSigns(d)
	x2, y2 := s.g.XY(r2)
	sgn := 1 - 2*(q&1) // E and N are +1, W and S -1
	k := s.g.K
	if q < link.PortYPlus {
		if sx != sgn {
			return 0, 0, ds, 0, false
		}
		ds[0], n = (0+1)*3+sy+1, 1
		if x2+sgn >= 0 && x2+sgn < k {
			ds[1], n = d, 2
		}
		return r2, in2, ds, n, true
	}
	if sy != sgn {
		return 0, 0, ds, 0, false
	}
	ds[0], n = (sx+1)*3+1, 1
	if y2+sgn >= 0 && y2+sgn < k {
		ds[1], n = d, 2
	}
	return r2, in2, ds, n, true
}

// reach finds the abstract states reachable from the nodes, with the
// input ports they are reached through, and checks at each that the
// escape sub-function offers something, and nothing the routing function
// does not.
//
// It needs no queue: a minimal hop keeps a descriptor or clears one of its
// signs, and goes the way its signs point. So the descriptors are visited
// two signs first, then one, then none, and the routers of each in the
// order its signs point (ascending x for sx = +1, descending for -1, and
// likewise y), which puts every state after those it is reached from,
// except at the same router through a loopback: a router's states are
// visited until none is left unvisited.
func (s *duatoStates) reach() (ok bool, err error) {
	g, vcs, k := s.g, s.vcs, s.g.K
	all := allVCs(vcs)
	nodeBit := s.portBit(link.PortLocal)
	for r := 0; r < g.Routers(); r++ {
		x, y := g.XY(r)
		for d := 0; d < nDesc; d++ {
			if !s.feasible(x, y, d) {
				continue
			}
			for m := s.rf.InjectVCs(r*g.C, s.rep(r, d)) & all; m != 0; m &= m - 1 {
				for cls := 0; cls < s.classes; cls++ {
					s.reached[s.state(r, bits.TrailingZeros64(m), cls, d)] |= nodeBit
				}
			}
		}
	}
	var cand, ecand Candidates
	// visit processes the reached state st once: its conditions, and the
	// states it reaches.
	visit := func(st int) (ok bool, err error) {
		s.reached[st] |= visited
		r, v, cls, d := s.decode(st)
		in := s.inPort(st)
		// The conditions, for every destination at this router when the
		// packet is there (the sink differs), else for the representative.
		dst, dsts := s.rep(r, d), 1
		if d == descHere {
			dsts = g.C
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
		for i := 0; i < int(cand.N); i++ {
			for pm := cand.G[i].Ports; pm != 0; pm &= pm - 1 {
				r2, in2, ds, nd, ok := s.hop(r, d, bits.TrailingZeros64(pm))
				if !ok {
					return false, nil
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
	for _, d := range [nDesc]int{0, 2, 6, 8, 1, 3, 5, 7, descHere} {
		if err := s.ctx.Err(); err != nil {
			return true, err
		}
		sx, sy := descSigns(d)
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
				st0 := s.state(g.Router(x, y), 0, 0, d)
				for again := true; again; {
					again = false
					for st := st0; st < st0+vcs*s.classes*nDesc; st += nDesc {
						if b := s.reached[st]; b != 0 && b&visited == 0 {
							if ok, err := visit(st); !ok || err != nil {
								return ok, err
							}
							again = true
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

// succ appends the successors of compact node u to out: an escape
// channel's are the abstract states it leads to, an abstract state's the
// escape channels its escape sub-function offers and the abstract states
// its routing function's non-escape hops lead to. ok is false for a hop
// that is not minimal.
func (s *duatoStates) succ(u int, out []int32) ([]int32, bool) {
	vcs, es := s.vcs, s.es
	if u < s.nE {
		ch := int(es.ch[u])
		pr := es.peer[ch/vcs]
		b := s.portBit(int(pr.port))
		for cls := 0; cls < s.classes; cls++ {
			st := s.state(int(pr.router), ch%vcs, cls, 0)
			for d := 0; d < nDesc; d++ {
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
	c := s.decide(r, in, v, cls, dst, true)
	for k := 0; k < int(c.N); k++ {
		for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
			q := bits.TrailingZeros64(pm)
			for vm := c.G[k].VCs & s.E; vm != 0; vm &= vm - 1 {
				if e := es.idx[(es.base[r]+q)*vcs+bits.TrailingZeros64(vm)]; e >= 0 {
					out = append(out, e)
				}
			}
		}
	}
	c = s.decide(r, in, v, cls, dst, false)
	for k := 0; k < int(c.N); k++ {
		adaptive := c.G[k].VCs & allVCs(vcs) &^ s.E
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

// search visits the compact graph from every escape channel: it collects
// the non-escape VCs of walks from escape channels for the wormhole
// condition, and looks for a cycle, which firstCycle then names as the
// reference would.
func (s *duatoStates) search(wormhole bool) (ok bool, err error) {
	const white, grey, black = 0, 1, 2
	colour := make([]uint8, s.nE+len(s.reached))
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
		if a, ok := s.rf.(atomicAllocator); ok {
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
	n := s.nE + len(s.reached)
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
	seen := make([]int32, len(s.reached))
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
// channel e reaches through abstract states only, its successors in the
// extended graph (some more than once). seen marks the abstract states
// visited with stamp, which must differ from every earlier call's.
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
// function with escape VCs E, non-escape VCs adaptive that walks from
// escape channels take (C2), and the given number of message classes
// takes on t with vcs VCs at its largest: checkDuatoStates' on a mesh,
// referenceDuato's elsewhere.
func duatoCheckBytes(t link.Topology, vcs int, E, adaptive uint64, classes int) int64 {
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
	nE = links * int64(bits.OnesCount64(E&allVCs(vcs)))
	// escapeSet: port bases, peers, a dense index per channel, a channel
	// per escape channel.
	esBytes := 8*(nr+1) + 8*nports + 4*nports*V + 4*nE
	if g, ok := t.(*link.Grid2D); ok && !g.Wrap {
		// reached, one byte per abstract state, and a colour per compact
		// node; the search's stack, a path through the compact graph of a
		// few nodes per coordinate, each with its successors (measured:
		// at most 500 bytes per coordinate, the stack's growth included).
		nStates := nr * V * int64(classes) * nDesc
		return esBytes + nStates + nE + nStates + 512*int64(g.K) + 16<<10
	}
	// The reference: the dense matrix, a block of it per non-escape state
	// a walk takes for one destination (arena), and per state (router,
	// port, VC, 8 routing states) visited, memo, memoAt, plainSeen (4 bytes
	// each) and onStack, and the states reached for one destination (32
	// bytes each, and as many queued at most).
	W := (nE + 63) / 64
	nStates := nports * V * maxRoute
	walks := links * int64(bits.OnesCount64(adaptive&allVCs(vcs)))
	return esBytes + nE*W*8 + walks*W*8 + nStates*17 + 2*32*nports*V
}
