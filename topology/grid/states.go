package grid

import (
	"math/bits"
	"slices"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// State lists of the shipped routing functions for the channel dependency
// check (routing.StateLister): every state (router, input port, VCs, routing state)
// a packet can reach from a router-to-router link, with one destination per
// routing decision it can take there, found in time linear in the network.
//
// The search the lists replace visits every state once per destination, but
// a decision of these functions depends on the destination only through the
// direction in which it lies: in each dimension of a torus or mesh, ahead
// (+1 or -1, the shorter way round) or reached (0); in a fat-tree, whether
// the switch's subtree holds it and its digit at the switch's level. So a
// list needs, per router and input port, the combinations of VCs, routing
// state and directions that some source and destination produce, and one
// destination per direction, the nearest in it; the decisions come from the
// function itself (cdg.addState calls Route or Escape on them).
//
// On a torus or mesh a minimal route's travel along one dimension does not
// depend on the other: the coordinates, and the VCs or routing state the
// function changes along the dimension, are functions of the start, the
// direction and the hops made, and a start and a destination can be chosen
// in each dimension alone. Each list follows that travel along one row (or
// column) from every start, in O(k^2) = O(routers) steps per dimension, and
// combines the dimensions per router. Its assumptions about the function
// (that a hop along a dimension changes VCs or routing state alike in every
// row, that an adaptive function's decision does not read the VC the packet
// holds) are not checked here but by TestStateListsMatchReference, which
// compares the graph a list builds with the reference search's, edge for
// edge, on every shipped function over tori, meshes and fat-trees of many
// sizes and VC counts.

// dirs are the two directions along a dimension; index si of s is 0 for +1.
func dirs() [2]int {
	return [2]int{1, -1}
}

// line is one dimension of a torus (a ring of k) or mesh (a line of k).
type line struct {
	k    int
	wrap bool
}

// maxHops is the longest minimal travel in direction s from coordinate a0:
// on a ring, up to k/2 hops the positive way (a tie goes positive) and
// (k-1)/2 the negative way; on a line, up to the end.
func (l line) maxHops(a0, s int) int {
	switch {
	case l.wrap && s > 0:
		return l.k / 2
	case l.wrap:
		return (l.k - 1) / 2
	case s > 0:
		return l.k - 1 - a0
	}
	return a0
}

// at is the coordinate h hops from a in direction s.
func (l line) at(a, s, h int) int {
	a += s * h
	if l.wrap {
		if a %= l.k; a < 0 {
			a += l.k
		}
	}
	return a
}

// gridProbe calls a grid routing function on representative packets.
type gridProbe struct {
	g    *Grid2D
	rf   routing.Func
	all  uint64 // the VCs that exist
	f    link.Flit
	cand routing.Candidates
}

// node is the first node of router (x, y), coordinates taken modulo k on a torus.
func (p *gridProbe) node(x, y int) int {
	k := p.g.K
	if p.g.Wrap {
		x, y = ((x%k)+k)%k, ((y%k)+k)%k
	}
	return p.g.Router(x, y) * p.g.C
}

// vcsTo is the set of VCs that the decision of router (x, y) for a packet
// on VC v with routing state route, for the first node of router (dx, dy),
// offers on output port out.
func (p *gridProbe) vcsTo(x, y, v int, route uint8, dx, dy, out int) uint64 {
	p.f = link.Flit{Dst: int32(p.node(dx, dy)), VC: uint8(v), Route: route}
	p.cand.N = 0
	p.rf.Route(p.g.Router(x, y), PortLocal, &p.f, &p.cand)
	var m uint64
	for i := 0; i < int(p.cand.N); i++ {
		if p.cand.G[i].Ports&routing.Bit(out) != 0 {
			m |= p.cand.G[i].VCs
		}
	}
	return m & p.all
}

// dimPort is the output port of a hop in direction s along x (dim 0) or y.
func dimPort(dim, s int) int {
	if dim == 0 {
		return xPort(s)
	}
	return yPort(s)
}

// dorWalk follows dimension-order travel along one dimension from every
// start a0 and in both directions, the VCs changing at each hop from a as
// hop says: all[2a+si] is the set of VCs a packet that started on a VC of
// init can hold on arriving at a after at least one hop in direction
// dirs()[si], and cont[2a+si] the part of it with hops still to go.
func dorWalk(l line, init uint64, hop func(vcs uint64, a, s int) uint64) (all, cont []uint64) {
	all, cont = make([]uint64, 2*l.k), make([]uint64, 2*l.k)
	for si, s := range dirs() {
		for a0 := 0; a0 < l.k; a0++ {
			n := l.maxHops(a0, s)
			m, a := init, a0
			for h := 1; h <= n; h++ {
				m = hop(m, a, s)
				a = l.at(a, s, 1)
				all[2*a+si] |= m
				if h < n {
					cont[2*a+si] |= m
				}
			}
		}
	}
	return all, cont
}

// listDOR lists the states of a dimension-order function (x first) whose
// decisions read the VC a packet holds but no routing state: dor and
// dor-dateline. The VCs a packet can hold after a hop are those the
// function offers for it, from any VC it could hold before.
func listDOR(g *Grid2D, rf routing.Func, all uint64, visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	p := &gridProbe{g: g, rf: rf, all: all}
	l := line{g.K, g.Wrap}
	hop := func(dim int) func(m uint64, a, s int) uint64 {
		return func(m uint64, a, s int) uint64 {
			x, y, dx, dy := a, 0, l.at(a, s, 1), 0
			if dim == 1 {
				x, y, dx, dy = 0, a, 0, l.at(a, s, 1)
			}
			var next uint64
			for vm := m; vm != 0; vm &= vm - 1 {
				next |= p.vcsTo(x, y, bits.TrailingZeros64(vm), 0, dx, dy, dimPort(dim, s))
			}
			return next
		}
	}
	init := rf.InjectVCs(0, p.node(1, 0)) & all
	allX, contX := dorWalk(l, init, hop(0))
	// A packet turns into y at its destination column holding a VC it
	// arrived with along x, or its injection VC if it made no x hop.
	type walk struct{ all, cont []uint64 }
	ywalks := map[uint64]walk{}
	turn := make([]uint64, l.k)
	for x := range turn {
		turn[x] = init | allX[2*x] | allX[2*x+1]
		if _, ok := ywalks[turn[x]]; !ok {
			a, c := dorWalk(l, turn[x], hop(1))
			ywalks[turn[x]] = walk{a, c}
		}
	}
	for y := 0; y < l.k; y++ {
		for x := 0; x < l.k; x++ {
			r := g.Router(x, y)
			yw := ywalks[turn[x]]
			for si, s := range dirs() {
				if m := contX[2*x+si]; m != 0 && !visit(r, xPort(-s), m, 0, p.node(x+s, y)) {
					return
				}
				if m := allX[2*x+si]; m != 0 {
					for _, t := range dirs() {
						if l.maxHops(y, t) >= 1 && !visit(r, xPort(-s), m, 0, p.node(x, y+t)) {
							return
						}
					}
				}
				if m := yw.cont[2*y+si]; m != 0 && !visit(r, yPort(-s), m, 0, p.node(x, y+s)) {
					return
				}
			}
		}
	}
}

func (d *dor) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listDOR(d.g, d, d.all, visit)
}

func (d *dorDateline) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listDOR(d.g, d, d.all, visit)
}

// travel is what a minimal route's travel along one dimension can be at
// some coordinate: its direction s (0: none in this dimension), whether it
// made a hop in it (moved) and has hops to go (more), and how much the
// routing state changed over the hops made (c).
type travel struct {
	s           int8
	moved, more bool
	c           uint8
}

// travels lists, per coordinate, the travels that some start and
// destination give, where delta(a, s) is the change of routing state of a
// hop from a in direction s.
func travels(l line, delta func(a, s int) uint8) [][]travel {
	ts := make([][]travel, l.k)
	for a := range ts {
		add := func(t travel) {
			if !slices.Contains(ts[a], t) {
				ts[a] = append(ts[a], t)
			}
		}
		add(travel{})
		for _, s := range dirs() {
			// m hops made (from a - s*m), rem to go: on a ring m + rem <=
			// maxHops; on a line each is bounded by its end. m + rem >= 1.
			mMax, remMax := l.maxHops(0, s), l.maxHops(0, s)
			if !l.wrap {
				mMax, remMax = l.maxHops(a, -s), l.maxHops(a, s)
			}
			var c uint8
			for m := 0; m <= mMax; m++ {
				if m > 0 {
					c += delta(l.at(a, -s, m), s)
				}
				more := remMax
				if l.wrap {
					more = mMax - m
				}
				if more >= 1 {
					add(travel{int8(s), m > 0, true, c})
				}
				if m > 0 {
					add(travel{int8(s), true, false, c})
				}
			}
		}
	}
	return ts
}

// listAdaptive lists the states of a minimal adaptive function on a torus
// or mesh whose routing state adds, at each hop, a change that depends only
// on the coordinate and direction of the hop (min-adaptive counts wrap-
// arounds, duato datelines), starting from the state InjectRoute gives by
// the directions of travel, and whose decisions do not read the VC a packet
// holds. A packet may make its hops in any order, so its travels along x
// and y combine freely; the VCs it can hold on arriving are those the
// decision of the router it came from offers for that hop.
func listAdaptive(g *Grid2D, rf routing.Func, all uint64, visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	p := &gridProbe{g: g, rf: rf, all: all}
	l := line{g.K, g.Wrap}
	upd, _ := rf.(routing.RouteUpdater)
	inj, _ := rf.(routing.Injector)
	// delta[dim][2a+si]: the routing-state change of a hop from a in direction dirs()[si].
	var delta [2][]uint8
	for dim := range delta {
		delta[dim] = make([]uint8, 2*l.k)
		for a := 0; a < l.k; a++ {
			for si, s := range dirs() {
				if upd == nil {
					continue
				}
				f := link.Flit{}
				x, y := a, 0
				if dim == 1 {
					x, y = 0, a
				}
				upd.Update(g.Router(x, y), dimPort(dim, s), &f)
				delta[dim][2*a+si] = f.Route
			}
		}
	}
	tr := [2][][]travel{}
	for dim := range tr {
		tr[dim] = travels(l, func(a, s int) uint8 { return delta[dim][2*a+dirIndex(s)] })
	}
	// route0[sx+1][sy+1]: the routing state at injection of a packet that
	// travels in directions sx, sy.
	var route0 [3][3]uint8
	if inj != nil {
		for sx := -1; sx <= 1; sx++ {
			for sy := -1; sy <= 1; sy++ {
				route0[sx+1][sy+1] = inj.InjectRoute(p.node(0, 0), p.node(sx, sy))
			}
		}
	}
	type key struct {
		in     int
		route  uint8
		sx, sy int
	}
	type state struct {
		key
		vcs uint64
	}
	var states []state
	for y := 0; y < l.k; y++ {
		for x := 0; x < l.k; x++ {
			states = states[:0]
			for _, tx := range tr[0][x] {
				for _, ty := range tr[1][y] {
					if !tx.moved && !ty.moved {
						continue // at the source: no link held
					}
					sx, sy := 0, 0
					if tx.more {
						sx = int(tx.s)
					}
					if ty.more {
						sy = int(ty.s)
					}
					if sx == 0 && sy == 0 {
						continue // ejects: no link requested
					}
					route := route0[tx.s+1][ty.s+1] + tx.c + ty.c
					for dim, t := range [2]travel{tx, ty} {
						if !t.moved {
							continue
						}
						// The last hop was along dim, in direction t.s, from
						// the router behind; there the packet had hops to go
						// along dim and its state lacked that hop's change.
						s := int(t.s)
						px, py, psx, psy := l.at(x, -s, 1), y, s, sy
						if dim == 1 {
							px, py, psx, psy = x, l.at(y, -s, 1), sx, s
						}
						pa := px
						if dim == 1 {
							pa = py
						}
						proute := route - delta[dim][2*pa+dirIndex(s)]
						vcs := p.vcsTo(px, py, 0, proute, px+psx, py+psy, dimPort(dim, s))
						k := key{dimPort(dim, -s), route, sx, sy}
						i := slices.IndexFunc(states, func(st state) bool { return st.key == k })
						if i < 0 {
							states = append(states, state{key: k})
							i = len(states) - 1
						}
						states[i].vcs |= vcs
					}
				}
			}
			r := g.Router(x, y)
			for _, st := range states {
				if st.vcs != 0 && !visit(r, st.in, st.vcs, st.route, p.node(x+st.sx, y+st.sy)) {
					return
				}
			}
		}
	}
}

// dirIndex is the index in dirs() of direction s.
func dirIndex(s int) int {
	if s > 0 {
		return 0
	}
	return 1
}

func (m *minAdaptive) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listAdaptive(m.g, m, m.all, visit)
}

func (d *duato) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listAdaptive(d.g, d, d.all, visit)
}
