package grid

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// dor2Class is dimension-order routing on a torus (X then Y, the shorter
// way round, the positive direction on a tie, as dor) with the two VC
// classes per dimension of Dally & Towles (Principles and Practices of
// Interconnection Networks) and BookSim2's dim_order_torus:
// the VCs of a port are split in halves, class 0 the lower and class 1 the
// upper. On entering a dimension (at injection, or at the turn from X into
// Y) a packet takes class 1 if its route in that dimension crosses the
// wrap-around link and class 0 if not, and keeps that class to the end of
// the dimension (after crossing the wrap link it stays in class 1). At its
// destination router it may eject on any VC. Class 0 never uses a wrap
// link, and class 1 never uses the link between coordinates k/2-1 and k/2
// (k/2 rounded down; a minimal route that crosses the wrap link is too
// short to cross that one too), so neither class closes a ring; X hops
// only ever wait for Y hops, and the channel dependency graph is acyclic.
//
// The class travels in the VC the packet holds: Route reads f.VC only for
// a packet that continues in the dimension and direction it arrived in
// (input port = output port ^ 1); one that arrives from a node port or
// from the other dimension is turning, and its class comes from the
// destination. So a decision is a function of (router, input port, VC,
// destination), which is what the channel dependency check enumerates;
// Flit.Route is not used.
//
// BookSim2 differs in two ways. Its deterministic variant sets the class
// from cur > dest in both directions, so in the negative direction its
// halves are labelled the other way round (the route that crosses the wrap
// takes the lower half); that is the same scheme up to the names of the
// classes. And it draws the direction of a tie (k even, distance k/2) at
// random, where icnsim always takes the positive direction, so routes on
// ties, and the load on the two directions of a ring, differ.
type dor2Class struct {
	dor
	half  int       // VCs per class: VC v is in class 1 when v >= half
	class [2]uint64 // class 0: VCs 0..half-1, class 1: half..2*half-1
}

// dor2ClassSpec is the registry entry of dor-2class.
func dor2ClassSpec() routing.Spec {
	return routing.Spec{
		Name: "dor-2class", MinVCs: 2, Topologies: []string{"torus"}, BuildSeconds: routing.SecondsPerPort(0.3e-6),
		CheckVCs: func(_ topology.Topology, vcs int) error {
			if vcs < 2 || vcs%2 != 0 {
				return fmt.Errorf("routing function \"dor-2class\" needs an even number of VCs, at least %d: it splits them into two classes of equal size (got %d)", 2, vcs)
			}
			return nil
		},
		Doc: "dimension-order routing on a torus with two VC classes per dimension (Dally & Towles, BookSim2's dim_order_torus): on entering a dimension a packet takes the upper half of the VCs if its route in that dimension crosses the wrap-around link and the lower half if not, and keeps it to the end of the dimension; needs an even VC count",
		New: func(t topology.Topology, vcs int) routing.Func {
			return newDor2Class(t.(*Grid2D), vcs)
		},
	}
}

// newDor2Class splits vcs VCs into two classes of vcs/2 (routing.New
// refuses an odd or smaller count).
func newDor2Class(g *Grid2D, vcs int) *dor2Class {
	d := &dor2Class{dor: newDor(g, vcs), half: vcs / 2}
	d.class[0] = routing.AllVCs(d.half)
	d.class[1] = routing.AllVCs(2*d.half) &^ d.class[0]
	return d
}

// crossesWrap reports whether the route from coordinate a to b in
// direction dir (+1, -1) on a ring crosses the wrap-around link between
// k-1 and 0.
func crossesWrap(a, b, dir int) bool { return (dir > 0 && b < a) || (dir < 0 && b > a) }

// turnClass is the class a packet at router r for node dst takes on
// entering the dimension of its next hop, which leaves on port port from
// coordinate a in direction dir (as dor.hop gives them).
func (d *dor2Class) turnClass(dst, port, a, dir int) int {
	dr, _ := d.nodePort(dst)
	b := int(d.coords[dr].x)
	if port == PortYPlus || port == PortYMinus {
		b = int(d.coords[dr].y)
	}
	if crossesWrap(a, b, dir) {
		return 1
	}
	return 0
}

func (d *dor2Class) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	port, a, dir := d.hop(r, int(f.Dst))
	switch {
	case dir == 0:
		c.Add(routing.Bit(d.sink(port, f)), d.all)
	case in == port^1: // arrived in this dimension and direction: keep the class
		cl := 0
		if int(f.VC) >= d.half {
			cl = 1
		}
		c.Add(routing.Bit(port), d.class[cl])
	default: // injected here, or turning from X into Y
		c.Add(routing.Bit(port), d.class[d.turnClass(int(f.Dst), port, a, dir)])
	}
}

// InjectVCs is the class of the first dimension the packet travels, or
// every VC when it ejects at its source router.
func (d *dor2Class) InjectVCs(src, dst int) uint64 {
	sr, _ := d.nodePort(src)
	port, a, dir := d.hop(sr, dst)
	if dir == 0 {
		return d.all
	}
	return d.class[d.turnClass(dst, port, a, dir)]
}

// ListStates lists the states of dor-2class for the channel dependency
// check (routing.StateLister; see states.go). Unlike dor-dateline, the class a
// packet holds along a dimension depends on where its travel in that
// dimension ends (whether it crosses the wrap link further on), not only
// on the hops made so far, so a packet that stops at a coordinate may
// hold fewer VCs there than one that passes through it; the walk below
// keeps the two apart.
//
// Along one dimension, from every start a0 and in each direction, the
// destinations n = 1..maxHops hops away are grouped by the VCs the
// function offers at the start (a probe from a node port: the decision of
// a packet entering the dimension, at injection or at the turn); each
// group is then followed hop by hop to its farthest destination, the VCs
// after each hop being those the function offers to a packet continuing
// on the VCs it holds (a probe from the dimension's input port). That is
// O(k) probes per start and direction, O(routers) per dimension. A packet
// arriving on an X port that stops in X turns into Y, towards one
// destination per Y group of its row (the nearest of each); one that
// continues, in X or in Y, needs one destination per direction. The
// assumptions (the decision on entering a dimension reads neither the VC
// held nor the input port; a continuing one reads the VC and not how far
// the destination is; rows and columns alike) are what
// TestStateListsMatchReference checks.
func (d *dor2Class) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	g := d.g
	p := &gridProbe{g: g, rf: d, all: d.all}
	l := line{g.K, g.Wrap}
	var walks [2]dimWalk
	for dim := range walks {
		walks[dim] = walkEntering(p, l, dim)
	}
	wx, wy := &walks[0], &walks[1]
	for y := 0; y < l.k; y++ {
		for x := 0; x < l.k; x++ {
			r := g.Router(x, y)
			for si, s := range dirs() {
				in := xPort(-s)
				if m := wx.cont[2*x+si]; m != 0 && !visit(r, in, m, 0, p.node(x+s, y)) {
					return
				}
				if m := wx.stop[2*x+si]; m != 0 {
					for ti, t := range dirs() {
						for _, n := range wy.reps[2*y+ti] {
							if !visit(r, in, m, 0, p.node(x, y+t*n)) {
								return
							}
						}
					}
				}
				if m := wy.cont[2*y+si]; m != 0 && !visit(r, yPort(-s), m, 0, p.node(x, y+s)) {
					return
				}
			}
		}
	}
}

// dimWalk is what travel along one dimension gives, per coordinate a and
// direction index si (index 2a+si): the VCs a packet can hold on arriving
// at a with hops still to go in the dimension (cont) and with none (stop),
// and, for a packet entering the dimension at a, the hop counts of one
// destination per distinct decision (reps).
type dimWalk struct {
	cont, stop []uint64
	reps       [][]int
}

// walkEntering follows travel along dimension dim (X along row 0, Y along
// column 0) for a function whose class is chosen on entering a dimension
// and kept while continuing in it.
func walkEntering(p *gridProbe, l line, dim int) dimWalk {
	// pos is router (a, 0) for X, (0, a) for Y.
	pos := func(a int) (x, y int) {
		if dim == 1 {
			return 0, a
		}
		return a, 0
	}
	return walkAlong(l, PortLocal, func(s int) (out, in int) { return dimPort(dim, s), dimPort(dim, -s) },
		func(a, in, v, b, out int) uint64 {
			x, y := pos(a)
			dx, dy := pos(b)
			return p.vcsFromTo(x, y, in, v, 0, dx, dy, out)
		})
}

// walkAlong is the travel along one line of a dimension (walkEntering's):
// ports(s) are the output and input ports of a hop in direction s, and
// vcs(a, in, v, b, out) the VCs the decision of the router at coordinate
// a offers on out to a packet on VC v that arrived on in, for the node at
// coordinate b (local: entering the dimension).
func walkAlong(l line, local int, ports func(s int) (out, in int), vcs func(a, in, v, b, out int) uint64) dimWalk {
	w := dimWalk{cont: make([]uint64, 2*l.k), stop: make([]uint64, 2*l.k), reps: make([][]int, 2*l.k)}
	type group struct {
		vcs uint64
		ns  []int // hop counts of its destinations, ascending
	}
	for si, s := range dirs() {
		out, in := ports(s)
		for a0 := 0; a0 < l.k; a0++ {
			var groups []group
			for n := 1; n <= l.maxHops(a0, s); n++ {
				m := vcs(a0, local, 0, l.at(a0, s, n), out)
				i := 0
				for i < len(groups) && groups[i].vcs != m {
					i++
				}
				if i == len(groups) {
					groups = append(groups, group{vcs: m})
					w.reps[2*a0+si] = append(w.reps[2*a0+si], n)
				}
				groups[i].ns = append(groups[i].ns, n)
			}
			for _, gr := range groups {
				far := gr.ns[len(gr.ns)-1]
				m, j := gr.vcs, 0
				for h := 1; h <= far && m != 0; h++ {
					a := l.at(a0, s, h)
					if gr.ns[j] == h {
						w.stop[2*a+si] |= m
						j++
					}
					if h == far {
						break
					}
					w.cont[2*a+si] |= m
					var next uint64
					for vm := m; vm != 0; vm &= vm - 1 {
						next |= vcs(a, in, bits.TrailingZeros64(vm), l.at(a0, s, far), out)
					}
					m = next
				}
			}
		}
	}
	return w
}

// vcsFromTo is vcsTo for a packet that arrived on input port in.
func (p *gridProbe) vcsFromTo(x, y, in, v int, route uint8, dx, dy, out int) uint64 {
	p.f = link.Flit{Dst: int32(p.node(dx, dy)), VC: uint8(v), Route: route}
	p.cand.N = 0
	p.rf.Route(p.g.Router(x, y), in, &p.f, &p.cand)
	var m uint64
	for i := 0; i < int(p.cand.N); i++ {
		if p.cand.G[i].Ports&routing.Bit(out) != 0 {
			m |= p.cand.G[i].VCs
		}
	}
	return m & p.all
}
