package grid

import (
	"math/bits"
	"slices"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// State lists of the n-D routings (routing.StateLister): states.go's two
// lists, dimension-order and adaptive, carried from two dimensions to n
// on the same reasoning (a minimal route's travel along one dimension does
// not depend on the others), checked edge for edge against the reference
// search on 1- to 4-dimensional tori and meshes (TestStateListsMatchReference).

// ndProbe calls an n-D routing function on representative packets.
type ndProbe struct {
	g    *GridND
	rf   routing.Func
	all  uint64
	f    link.Flit
	cand routing.Candidates
	at   [MaxDimensions]int
}

// router is the router at coordinates a, taken modulo the radices on a
// torus.
func (p *ndProbe) router(a []int) int {
	r := 0
	for d, x := range a {
		k := p.g.Radix[d]
		if p.g.Wrap {
			x = (x%k + k) % k
		}
		r += x * p.g.Stride(d)
	}
	return r
}

// node is the first node of the router at coordinates a.
func (p *ndProbe) node(a []int) int { return p.router(a) * p.g.C }

// vcsTo is the set of VCs that the decision of the router at a for a
// packet on VC v with routing state route, for the first node of the
// router at b, offers on output port out.
func (p *ndProbe) vcsTo(a []int, v int, route uint8, b []int, out int) uint64 {
	p.f = link.Flit{Dst: int32(p.node(b)), VC: uint8(v), Route: route}
	p.cand.N = 0
	p.rf.Route(p.router(a), p.g.Local(), &p.f, &p.cand)
	var m uint64
	for i := 0; i < int(p.cand.N); i++ {
		if p.cand.G[i].Ports&routing.Bit(out) != 0 {
			m |= p.cand.G[i].VCs
		}
	}
	return m & p.all
}

// axis is the coordinates of a point a along dimension dim (0 elsewhere).
func axis(n, dim, a int) []int {
	c := make([]int, n)
	c[dim] = a
	return c
}

// plus is a with s added to coordinate dim.
func plus(a []int, dim, s int) []int {
	b := slices.Clone(a)
	b[dim] += s
	return b
}

// listDORND lists the states of an n-D dimension-order function whose
// decisions read the VC a packet holds but no routing state (dor,
// dor-dateline), as listDOR on two dimensions: a packet enters dimension
// d at a router holding the VCs it could hold on entering dimension d-1
// there, or on arriving along it (turn masks, by the coordinates of the
// dimensions before d); along each dimension the VCs follow a walk from
// every start.
func listDORND(g *GridND, rf routing.Func, all uint64, visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	p := &ndProbe{g: g, rf: rf, all: all}
	n := g.Dims()
	lines := make([]line, n)
	for d := range lines {
		lines[d] = line{g.Radix[d], g.Wrap}
	}
	hop := func(dim int) func(m uint64, a, s int) uint64 {
		return func(m uint64, a, s int) uint64 {
			from, to := axis(n, dim, a), axis(n, dim, lines[dim].at(a, s, 1))
			var next uint64
			for vm := m; vm != 0; vm &= vm - 1 {
				next |= p.vcsTo(from, bits.TrailingZeros64(vm), 0, to, ndPort(dim, s))
			}
			return next
		}
	}
	type walk struct{ all, cont []uint64 }
	walks := make([]map[uint64]walk, n)
	walkOf := func(dim int, init uint64) walk {
		if walks[dim] == nil {
			walks[dim] = map[uint64]walk{}
		}
		w, ok := walks[dim][init]
		if !ok {
			w.all, w.cont = dorWalk(lines[dim], init, hop(dim))
			walks[dim][init] = w
		}
		return w
	}
	init := rf.InjectVCs(0, p.node(axis(n, 0, 1))) & all
	a := make([]int, n)
	turn := make([]uint64, n)
	for r := range g.Routers() {
		for d := range a {
			a[d] = g.Coord(r, d)
		}
		turn[0] = init
		for d := 0; d+1 < n; d++ {
			w := walkOf(d, turn[d])
			turn[d+1] = turn[d] | w.all[2*a[d]] | w.all[2*a[d]+1]
		}
		for d := range n {
			w := walkOf(d, turn[d])
			for si, s := range dirs() {
				in := ndPort(d, -s)
				if m := w.cont[2*a[d]+si]; m != 0 && !visit(r, in, m, 0, p.node(plus(a, d, s))) {
					return
				}
				m := w.all[2*a[d]+si]
				if m == 0 {
					continue
				}
				for e := d + 1; e < n; e++ {
					for _, t := range dirs() {
						if lines[e].maxHops(a[e], t) >= 1 && !visit(r, in, m, 0, p.node(plus(a, e, t))) {
							return
						}
					}
				}
			}
		}
	}
}

func (d *ndDOR) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listDORND(d.g, d, d.all, visit)
}

func (d *ndDateline) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listDORND(d.g, d, d.all, visit)
}

// signsIndex encodes a vector of directions (-1, 0, +1) in base 3.
func signsIndex(s []int8) int {
	i := 0
	for d := len(s) - 1; d >= 0; d-- {
		i = 3*i + int(s[d]) + 1
	}
	return i
}

// listAdaptiveND lists the states of a minimal adaptive function on an
// n-D torus or mesh, as listAdaptive on two dimensions: its routing state
// changes at each hop by what the hop's coordinate and direction say,
// from the state InjectRoute gives by the directions of travel, and its
// decisions do not read the VC a packet holds; a packet's travels along
// the dimensions combine freely, and the VCs it can hold on arriving are
// those the decision of the router it came from offers for that hop.
// Per router it combines one travel per dimension: about (4k/2+1)^n on a
// torus of radix k.
func listAdaptiveND(g *GridND, rf routing.Func, all uint64, visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	p := &ndProbe{g: g, rf: rf, all: all}
	n := g.Dims()
	upd, _ := rf.(routing.RouteUpdater)
	inj, _ := rf.(routing.Injector)
	lines := make([]line, n)
	delta := make([][]uint8, n) // delta[dim][2a+si]: the routing-state change of a hop
	tr := make([][][]travel, n)
	for dim := range n {
		lines[dim] = line{g.Radix[dim], g.Wrap}
		delta[dim] = make([]uint8, 2*g.Radix[dim])
		for a := range g.Radix[dim] {
			for si, s := range dirs() {
				if upd != nil {
					f := link.Flit{}
					upd.Update(p.router(axis(n, dim, a)), ndPort(dim, s), &f)
					delta[dim][2*a+si] = f.Route
				}
			}
		}
		tr[dim] = travels(lines[dim], func(a, s int) uint8 { return delta[dim][2*a+dirIndex(s)] })
	}
	// route0[signsIndex(s)]: the routing state at injection of a packet
	// that travels in directions s.
	route0 := make([]uint8, pow3(n))
	if inj != nil {
		s := make([]int8, n)
		for i := range route0 {
			for d, x := 0, i; d < n; d, x = d+1, x/3 {
				s[d] = int8(x%3 - 1)
			}
			b := make([]int, n)
			for d := range b {
				b[d] = int(s[d])
			}
			route0[i] = inj.InjectRoute(p.node(make([]int, n)), p.node(b))
		}
	}
	// A state at a router is (input port, routing state, the directions
	// still to go: base 3), held densely per router; maxRoute bounds the
	// routing state.
	maxRoute := 0
	for _, r0 := range route0 {
		maxRoute = max(maxRoute, int(r0))
	}
	for d := range n {
		most := 0
		for _, ts := range tr[d] {
			for _, t := range ts {
				most = max(most, int(t.c))
			}
		}
		maxRoute += most
	}
	maxRoute++
	conts := pow3(n)
	idx := func(in, route, cont int) int { return (in*maxRoute+route)*conts + cont }
	vcsOf := make([]uint64, 2*n*maxRoute*conts)
	seen := make([]bool, len(vcsOf))
	var touched []int
	a := make([]int, n)
	pick := make([]int, n) // the travel chosen in each dimension
	s, cont := make([]int8, n), make([]int8, n)
	prev, dst := make([]int, n), make([]int, n)
	for r := range g.Routers() {
		for d := range a {
			a[d], pick[d] = g.Coord(r, d), 0
		}
		for {
			moved, going := false, false
			var c uint8
			for d := range n {
				t := tr[d][a[d]][pick[d]]
				moved, going = moved || t.moved, going || t.more
				s[d], cont[d], c = t.s, 0, c+t.c
				if t.more {
					cont[d] = t.s
				}
			}
			// At the source no link is held; at the destination none is
			// requested.
			if moved && going {
				route := route0[signsIndex(s)] + c
				ci := signsIndex(cont)
				for d := range n {
					t := tr[d][a[d]][pick[d]]
					if !t.moved {
						continue
					}
					sd := int(t.s)
					i := idx(ndPort(d, -sd), int(route), ci)
					if seen[i] {
						continue // the same hop into the same state: the same VCs
					}
					seen[i] = true
					touched = append(touched, i)
					// The last hop was along d, in direction t.s, from the
					// router behind, where the packet had hops to go along
					// d and its state lacked that hop's change.
					copy(prev, a)
					prev[d] = lines[d].at(a[d], -sd, 1)
					for e := range n {
						dst[e] = prev[e] + int(cont[e])
					}
					dst[d] = prev[d] + sd
					proute := route - delta[d][2*prev[d]+dirIndex(sd)]
					vcsOf[i] = p.vcsTo(prev, 0, proute, dst, ndPort(d, sd))
				}
			}
			// The next combination of travels (an odometer).
			d := 0
			for ; d < n; d++ {
				if pick[d]++; pick[d] < len(tr[d][a[d]]) {
					break
				}
				pick[d] = 0
			}
			if d == n {
				break
			}
		}
		stop := false
		for _, i := range touched {
			seen[i] = false
			if stop || vcsOf[i] == 0 {
				continue
			}
			ci, rest := i%conts, i/conts
			route, in := rest%maxRoute, rest/maxRoute
			for e := range n {
				dst[e] = a[e] + ci%3 - 1
				ci /= 3
			}
			stop = !visit(r, in, vcsOf[i], uint8(route), p.node(dst))
		}
		touched = touched[:0]
		if stop {
			return
		}
	}
}

// adaptiveListSeconds estimates the build of an adaptive n-D routing on
// g, its state list's: a combination of one travel per dimension at every
// router, about 0.125 us each (measured on 3-D tori of k = 12..20, 2-vCPU
// VM), where a dimension of radix k has about 7 travels a coordinate on a
// torus (k/2 ahead the positive way, fewer the negative way).
func adaptiveListSeconds(g *GridND) float64 {
	combos := float64(g.Routers())
	mean := map[int]float64{}
	for _, k := range g.Radix {
		m, ok := mean[k]
		if !ok {
			n := 0
			for _, ts := range travels(line{k, g.Wrap}, func(int, int) uint8 { return 0 }) {
				n += len(ts)
			}
			m = float64(n) / float64(k)
			mean[k] = m
		}
		combos *= m
	}
	return combos * 0.125e-6
}

// pow3 is 3^n.
func pow3(n int) int {
	p := 1
	for range n {
		p *= 3
	}
	return p
}

func (d *ndDuato) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listAdaptiveND(d.g, d, d.all, visit)
}

func (m *ndMinAdaptive) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	listAdaptiveND(m.g, m, m.all, visit)
}

// vcsFromTo is vcsTo for a packet that arrived on input port in.
func (p *ndProbe) vcsFromTo(a []int, in, v int, route uint8, b []int, out int) uint64 {
	p.f = link.Flit{Dst: int32(p.node(b)), VC: uint8(v), Route: route}
	p.cand.N = 0
	p.rf.Route(p.router(a), in, &p.f, &p.cand)
	var m uint64
	for i := 0; i < int(p.cand.N); i++ {
		if p.cand.G[i].Ports&routing.Bit(out) != 0 {
			m |= p.cand.G[i].VCs
		}
	}
	return m & p.all
}

// walkEnteringND is walkEntering along dimension dim of an n-D grid (its
// line through the origin).
func walkEnteringND(p *ndProbe, l line, dim, n int) dimWalk {
	return walkAlong(l, p.g.Local(), func(s int) (out, in int) { return ndPort(dim, s), ndPort(dim, -s) },
		func(a, in, v, b, out int) uint64 { return p.vcsFromTo(axis(n, dim, a), in, v, 0, axis(n, dim, b), out) })
}

// ListStates lists the states of dor-2class on an n-D grid, as its 2-D
// list (dor2class.go): the VCs a packet holds along a dimension come from
// its travel in that dimension alone; one that stops in a dimension turns
// into a later one, towards one destination per decision there.
func (d *ndDor2Class) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	g := d.g
	p := &ndProbe{g: g, rf: d, all: d.all}
	n := g.Dims()
	walks := make([]dimWalk, n)
	for dim := range walks {
		walks[dim] = walkEnteringND(p, line{g.Radix[dim], g.Wrap}, dim, n)
	}
	a := make([]int, n)
	for r := range g.Routers() {
		for dim := range a {
			a[dim] = g.Coord(r, dim)
		}
		for dim := range n {
			w := &walks[dim]
			for si, s := range dirs() {
				in := ndPort(dim, -s)
				if m := w.cont[2*a[dim]+si]; m != 0 && !visit(r, in, m, 0, p.node(plus(a, dim, s))) {
					return
				}
				m := w.stop[2*a[dim]+si]
				for e := dim + 1; e < n && m != 0; e++ {
					for ti, t := range dirs() {
						for _, hops := range walks[e].reps[2*a[e]+ti] {
							if !visit(r, in, m, 0, p.node(plus(a, e, t*hops))) {
								return
							}
						}
					}
				}
			}
		}
	}
}
