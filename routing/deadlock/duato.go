package deadlock

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// referenceDuato checks Duato's condition for an adaptive routing
// function with an escape sub-function (Escaper):
//
//   - from every state a packet can reach (router, input port, VC,
//     Flit.Route, and class for a ClassRouter), for every destination, the
//     escape sub-function offers a router-to-router escape channel or the
//     sink, and only candidates the routing function offers itself;
//   - the extended channel dependency graph of the escape channels (a
//     router-to-router channel whose VC is in EscapeVCs) has no cycle: an
//     edge from escape channel a to escape channel b when a packet holding
//     a may request b next (direct dependency) or after a walk through
//     non-escape channels that the routing function allows (indirect
//     dependency);
//   - under wormhole, every non-escape VC that such a walk can take is
//     allocated atomically (atomicAllocator): Duato's theory assumes that a
//     packet waiting on an adaptive channel is at the head of its buffer,
//     which a router that reallocates a VC when the previous tail has left
//     breaks (Ma, Enright Jerger and Wang, "Whole packet forwarding", 2012).
//
// It is the definition the abstract-state check (checkDuatoStates,
// duatostates.go) must match, and the check of an Escaper or network that
// check does not cover (none shipped). The search runs per destination and
// class over every state, and the graph is a dense matrix of escape
// channels, so its time and memory grow as nodes squared (hybrid-har
// meshes: 0.6 s for 16x16, 8 s for 32x32, 190 s for 64x64; it refuses a
// graph over 1 GB, from about 100x100).
func referenceDuato(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, wormhole bool) error {
	adj, W, es, err := referenceDuatoGraph(ctx, t, rf, vcs, wormhole)
	if err != nil {
		return err
	}
	return findDenseCycle(ctx, adj, W, len(es.ch), func(e int) string { return es.name(t, vcs, e) })
}

// referenceDuatoGraph is referenceDuato up to the cycle search: it returns
// the extended graph, node a's successors in bits of adj[a*W:(a+1)*W] for
// the escape channels numbered by es, or the first condition that fails.
func referenceDuatoGraph(ctx context.Context, t topology.Topology, rf routing.Func, vcs int, wormhole bool) (adj []uint64, W int, es *escapeSet, err error) {
	esc := rf.(routing.Escaper)
	E := esc.EscapeVCs()
	var atomic uint64
	if a, ok := rf.(routing.AtomicAllocator); ok {
		atomic = a.AtomicVCs()
	}
	es = newEscapeSet(t, vcs, E)
	nE := len(es.ch)
	W = (nE + 63) / 64
	if int64(nE)*int64(W)*8 > 1<<30 {
		return nil, 0, nil, fmt.Errorf("the %s has %d escape channels: Duato's check would need %d MB (at most 1024)", t, nE, int64(nE)*int64(W)*8>>20)
	}
	adj = make([]uint64, nE*W)
	q := newRefReach(t, rf, vcs, es)
	base, peer, escIdx, idx := q.base, q.peer, es.idx, q.idx
	nStates := len(q.visited)
	memo := make([]int32, nStates)   // stamp of the closure's computation
	memoAt := make([]int32, nStates) // its offset in arena, in W-word blocks
	onStack := make([]bool, nStates)
	var arena []uint64
	var adaptiveAfterEscape uint64
	var cand, ecand routing.Candidates

	// escChannel is the dense index of the escape channel out of port q of
	// router r on VC w.
	escChannel := func(r, q, w int) int32 { return escIdx[(base[r]+q)*vcs+w] }
	// markEscapes sets in into the bit of every escape channel out of
	// router r that c offers.
	markEscapes := func(r int, c *routing.Candidates, into []uint64) {
		for k := 0; k < int(c.N); k++ {
			for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
				q := bits.TrailingZeros64(pm)
				for vm := c.G[k].VCs & E; vm != 0; vm &= vm - 1 {
					if w := bits.TrailingZeros64(vm); w < vcs {
						if e := escChannel(r, q, w); e >= 0 {
							into[int(e)/64] |= 1 << (e % 64)
						}
					}
				}
			}
		}
	}
	// closure returns the escape channels a packet holding the non-escape
	// channel of state s may request after non-escape channels only (a
	// block of W words in arena), and false when it met a cycle of
	// non-escape states (the caller then falls back to a plain search).
	var closure func(s refState, cls, dst int) (int, bool)
	closure = func(s refState, cls, dst int) (int, bool) {
		i := idx(s)
		if memo[i] == q.stamp {
			return int(memoAt[i]), true
		}
		if onStack[i] {
			return 0, false
		}
		onStack[i] = true
		defer func() { onStack[i] = false }()
		adaptiveAfterEscape |= 1 << s.v
		at := len(arena) / max(W, 1)
		arena = append(arena, make([]uint64, W)...)
		var c routing.Candidates
		q.route(s, cls, dst, &c, true)
		markEscapes(s.r, &c, arena[at*W:(at+1)*W])
		q.route(s, cls, dst, &c, false)
		ok := true
		var succ []refState
		q.next(s, cls, dst, &c, func(ns refState, escape bool) {
			if !escape {
				succ = append(succ, ns)
			}
		})
		for _, ns := range succ {
			j, fine := closure(ns, cls, dst)
			if !fine {
				ok = false
				break
			}
			for w := 0; w < W; w++ {
				arena[at*W+w] |= arena[j*W+w]
			}
		}
		if ok {
			memo[i], memoAt[i] = q.stamp, int32(at)
		}
		return at, ok
	}
	// plain is closure without memory, for a destination whose non-escape
	// states form a cycle.
	plainSeen := make([]int32, nStates)
	plainStamp := int32(0)
	plain := func(s0 refState, cls, dst int, into []uint64) {
		plainStamp++
		stack := []refState{s0}
		plainSeen[idx(s0)] = plainStamp
		var c routing.Candidates
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			adaptiveAfterEscape |= 1 << s.v
			q.route(s, cls, dst, &c, true)
			markEscapes(s.r, &c, into)
			q.route(s, cls, dst, &c, false)
			q.next(s, cls, dst, &c, func(ns refState, escape bool) {
				if !escape && plainSeen[idx(ns)] != plainStamp {
					plainSeen[idx(ns)] = plainStamp
					stack = append(stack, ns)
				}
			})
		}
	}

	for dst := 0; dst < t.Nodes(); dst++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, nil, err
		}
		for cls := 0; cls < q.classes; cls++ {
			arena = arena[:0]
			q.reach(dst, cls)
			if err := q.sideConditions(dst, cls); err != nil {
				return nil, 0, nil, err
			}
			for _, s := range q.reached {
				held := peer[base[s.r]+s.p]
				if held.router < 0 || E>>s.v&1 == 0 {
					continue
				}
				q.route(s, cls, dst, &cand, false)
				q.route(s, cls, dst, &ecand, true)
				hi := int(escChannel(int(held.router), int(held.port), s.v))
				row := adj[hi*W : (hi+1)*W]
				markEscapes(s.r, &ecand, row)
				q.next(s, cls, dst, &cand, func(ns refState, escape bool) {
					if escape {
						return
					}
					if j, ok := closure(ns, cls, dst); ok {
						for w := range row {
							row[w] |= arena[j*W+w]
						}
						return
					}
					plain(ns, cls, dst, row)
				})
			}
		}
	}
	if wormhole {
		if bad := adaptiveAfterEscape &^ E &^ atomic; bad != 0 {
			return nil, 0, nil, notAtomicError(bad)
		}
	}
	return adj, W, es, nil
}

// refState is a packet at input port p of router r on VC v with routing
// state route, for the reference's search; the channel it holds is the
// upstream output channel.
type refState struct {
	r, p, v int
	route   uint8
}

// refReach is the reference's search of the states a packet for one
// destination and class can reach from every source.
type refReach struct {
	t            topology.Topology
	rf           routing.Func
	esc          routing.Escaper
	upd          routing.RouteUpdater
	vcs, classes int
	E            uint64
	base         []int
	peer         []peerPort
	// visited[idx(s)] == stamp when s is reached in the current search;
	// routing states are dense small integers (at most maxRoute of them).
	visited  []int32
	stamp    int32
	maxRoute int // routing states: 8, or the function's RouteStates
	queue    []refState
	reached  []refState // the states of the last search, in the order found
	f, g2    link.Flit
	cand     routing.Candidates
}

// maxRoute bounds the routing states of the reference's search where the
// function does not bound them itself (routeStater).
const maxRoute = 8

func newRefReach(t topology.Topology, rf routing.Func, vcs int, es *escapeSet) *refReach {
	q := &refReach{t: t, rf: rf, esc: rf.(routing.Escaper), vcs: vcs, classes: 1, base: es.base, peer: es.peer}
	q.E = q.esc.EscapeVCs()
	q.upd, _ = rf.(routing.RouteUpdater)
	if c, ok := rf.(routing.ClassRouter); ok {
		q.classes = c.Classes()
	}
	q.maxRoute = maxRoute
	if rs, ok := rf.(routeStater); ok {
		q.maxRoute = rs.RouteStates()
	}
	q.visited = make([]int32, es.base[t.Routers()]*vcs*q.maxRoute)
	return q
}

func (q *refReach) idx(s refState) int {
	return ((q.base[s.r]+s.p)*q.vcs+s.v)*q.maxRoute + int(s.route)
}

// route fills c with the decision of the routing function (or, with
// escape, the escape sub-function) in state s.
func (q *refReach) route(s refState, cls, dst int, c *routing.Candidates, escape bool) {
	q.f = link.Flit{Dst: int32(dst), VC: uint8(s.v), Route: s.route, Class: uint8(cls)}
	c.N = 0
	if escape {
		q.esc.Escape(s.r, s.p, &q.f, c)
	} else {
		q.rf.Route(s.r, s.p, &q.f, c)
	}
}

// next lists the states reached from s by the candidates of c, with
// whether each holds an escape channel, and calls do for each.
func (q *refReach) next(s refState, cls, dst int, c *routing.Candidates, do func(ns refState, escape bool)) {
	for k := 0; k < int(c.N); k++ {
		for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			nx := q.peer[q.base[s.r]+p]
			if nx.router < 0 {
				continue // ejection
			}
			for vm := c.G[k].VCs; vm != 0; vm &= vm - 1 {
				w := bits.TrailingZeros64(vm)
				if w >= q.vcs {
					break
				}
				route := s.route
				if q.upd != nil {
					q.g2 = link.Flit{Dst: int32(dst), VC: uint8(w), Route: s.route, Class: uint8(cls)}
					q.upd.Update(s.r, p, &q.g2)
					route = q.g2.Route
				}
				do(refState{int(nx.router), int(nx.port), w, route}, q.E>>w&1 != 0)
			}
		}
	}
}

// reach lists in q.reached the states a class-cls packet for node dst can
// reach from every source under the full routing function.
func (q *refReach) reach(dst, cls int) {
	t := q.t
	q.stamp++
	q.queue, q.reached = q.queue[:0], q.reached[:0]
	for src := 0; src < t.Nodes(); src++ {
		r, p := t.NodePort(src)
		p += min(cls, topology.NodeChannels(t)-1)
		var route0 uint8
		if in, ok := q.rf.(routing.Injector); ok {
			route0 = in.InjectRoute(src, dst)
		}
		for m := q.rf.InjectVCs(src, dst); m != 0; m &= m - 1 {
			s := refState{r, p, bits.TrailingZeros64(m), route0}
			if s.v < q.vcs && q.visited[q.idx(s)] != q.stamp {
				q.visited[q.idx(s)] = q.stamp
				q.queue = append(q.queue, s)
			}
		}
	}
	for len(q.queue) > 0 {
		s := q.queue[len(q.queue)-1]
		q.queue = q.queue[:len(q.queue)-1]
		q.reached = append(q.reached, s)
		q.route(s, cls, dst, &q.cand, false)
		q.next(s, cls, dst, &q.cand, func(ns refState, _ bool) {
			if int(ns.route) >= q.maxRoute {
				panic(fmt.Sprintf("deadlock check: routing state %d >= %d", ns.route, q.maxRoute))
			}
			if q.visited[q.idx(ns)] != q.stamp {
				q.visited[q.idx(ns)] = q.stamp
				q.queue = append(q.queue, ns)
			}
		})
	}
}

// sideConditions checks, in the states of the last search in the order
// found, that the escape sub-function offers something, and nothing the
// routing function does not; it names the first state where it fails.
func (q *refReach) sideConditions(dst, cls int) error {
	var cand, ecand routing.Candidates
	for _, s := range q.reached {
		q.route(s, cls, dst, &cand, false)
		q.route(s, cls, dst, &ecand, true)
		where := func() string {
			return fmt.Sprintf("a class-%d packet for node %d at %s on VC %d (routing state %d)", cls, dst, q.t.PortName(s.r, s.p), s.v, s.route)
		}
		if ecand.N == 0 {
			return fmt.Errorf("the escape sub-function offers nothing to %s", where())
		}
		if p, w, ok := subsetOf(&ecand, &cand, q.vcs); !ok {
			return fmt.Errorf("the escape sub-function offers %s vc%d to %s, which the routing function does not", q.t.PortName(s.r, p), w, where())
		}
	}
	return nil
}

// firstSideFailure is the failure of the side conditions the reference
// reports first: destinations in order, classes in order, states in the
// order its search finds them. It searches destination by destination
// until one fails, so it is meant for a network known to fail.
func firstSideFailure(ctx context.Context, t topology.Topology, rf routing.Func, vcs int) error {
	q := newRefReach(t, rf, vcs, newEscapeSet(t, vcs, rf.(routing.Escaper).EscapeVCs()))
	for dst := 0; dst < t.Nodes(); dst++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for cls := 0; cls < q.classes; cls++ {
			q.reach(dst, cls)
			if err := q.sideConditions(dst, cls); err != nil {
				return err
			}
		}
	}
	return nil
}

// notAtomicError is the failure of Duato's condition under wormhole: the
// non-escape VCs bad, which packets holding escape channels may wait on,
// are not allocated atomically.
func notAtomicError(bad uint64) error {
	return fmt.Errorf("under wormhole, packets holding escape channels may wait on VCs %s, which are not allocated atomically (only when their buffer is empty); Duato's condition needs that", vcList(bad))
}

// escapeSet numbers the escape channels of a topology densely, in the
// order of their channel index (link*vcs + v, links numbered router by
// router, port by port): both Duato checks number, order and name them
// alike, so their cycle searches report the same cycle.
type escapeSet struct {
	base []int      // base[r]: router r's first link
	peer []peerPort // the far end of every link
	idx  []int32    // channel -> dense index, -1 for a channel that is not an escape channel
	ch   []int32    // dense index -> channel
}

// newEscapeSet numbers the escape channels of t: the router-to-router and
// loopback channels on the VCs of E.
func newEscapeSet(t topology.Topology, vcs int, E uint64) *escapeSet {
	nr := t.Routers()
	es := &escapeSet{base: make([]int, nr+1)}
	for r := 0; r < nr; r++ {
		es.base[r+1] = es.base[r] + t.Ports(r)
	}
	es.peer = make([]peerPort, es.base[nr])
	for r := 0; r < nr; r++ {
		for p := 0; p < t.Ports(r); p++ {
			q := t.Peer(r, p)
			es.peer[es.base[r]+p] = peerPort{int32(q.Router), int32(q.Port)}
		}
	}
	es.idx = make([]int32, es.base[nr]*vcs)
	n := 0
	for l := range es.peer {
		for v := 0; v < vcs; v++ {
			if es.peer[l].router >= 0 && E>>v&1 != 0 {
				n++
			}
		}
	}
	es.ch = make([]int32, 0, n)
	for l := range es.peer {
		for v := 0; v < vcs; v++ {
			es.idx[l*vcs+v] = -1
			if es.peer[l].router >= 0 && E>>v&1 != 0 {
				es.idx[l*vcs+v] = int32(len(es.ch))
				es.ch = append(es.ch, int32(l*vcs+v))
			}
		}
	}
	return es
}

// name is escape channel e's name, as channel dependency cycles print it.
func (es *escapeSet) name(t topology.Topology, vcs, e int) string {
	return channelName(t, es.base, vcs, int(es.ch[e]))
}

// subsetOf reports whether every (port, VC) of a is offered by b, and the
// first that is not.
func subsetOf(a, b *routing.Candidates, vcs int) (port, vc int, ok bool) {
	for k := 0; k < int(a.N); k++ {
		for pm := a.G[k].Ports; pm != 0; pm &= pm - 1 {
			q := bits.TrailingZeros64(pm)
			for vm := a.G[k].VCs & routing.AllVCs(vcs); vm != 0; vm &= vm - 1 {
				w := bits.TrailingZeros64(vm)
				found := false
				for j := 0; j < int(b.N) && !found; j++ {
					found = b.G[j].Ports>>q&1 != 0 && b.G[j].VCs>>w&1 != 0
				}
				if !found {
					return q, w, false
				}
			}
		}
	}
	return 0, 0, true
}

func vcList(m uint64) string {
	var s []string
	for ; m != 0; m &= m - 1 {
		s = append(s, fmt.Sprint(bits.TrailingZeros64(m)))
	}
	return strings.Join(s, ", ")
}

// findDenseCycle looks for a cycle in a graph of n nodes whose node a has
// an edge to b when bit b of adj[a*W:(a+1)*W] is set, and names one.
func findDenseCycle(ctx context.Context, adj []uint64, W, n int, name func(int) string) error {
	const white, grey, black = 0, 1, 2
	color := make([]uint8, n)
	type frame struct {
		node, word int
		rest       uint64
	}
	var stack []frame
	for start := 0; start < n; start++ {
		if color[start] != white {
			continue
		}
		if start&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		color[start] = grey
		stack = append(stack[:0], frame{node: start, rest: adj[start*W]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			for top.rest == 0 && top.word+1 < W {
				top.word++
				top.rest = adj[top.node*W+top.word]
			}
			if top.rest == 0 {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			b := top.word*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			switch color[b] {
			case grey:
				i := 0
				for stack[i].node != b {
					i++
				}
				var names []string
				for ; i < len(stack); i++ {
					names = append(names, name(stack[i].node))
				}
				names = append(names, name(b))
				return escapeCycleError(names)
			case white:
				color[b] = grey
				stack = append(stack, frame{node: b, rest: adj[b*W]})
			}
		}
	}
	return nil
}

// escapeCycleError names a cycle of the extended graph, its first channel
// repeated at the end.
func escapeCycleError(names []string) error {
	return fmt.Errorf("channel dependency cycle among the escape channels (direct and indirect dependencies): %s", strings.Join(names, " -> "))
}
