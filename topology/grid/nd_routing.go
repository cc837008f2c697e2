package grid

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// The routings of the n-dimensional grids (GridND): dor, dor-dateline,
// dor-2class, duato and min-adaptive generalised from two dimensions to
// n. Each takes, on two dimensions, the decisions of its 2-D form on
// Grid2D (the same ports in the same order with the same VCs:
// TestGridNDIsGrid2D), so a 2-D grid built through the n-D family gives
// the same digests.
//
//   - dor: dimension order, dimension 0 first, the shorter way round on a
//     torus (the positive way on a tie).
//   - dor-dateline: as dor, a packet moving up one VC class at each
//     dateline it crosses (at 0 and k/2 in every dimension); a minimal
//     route crosses at most one a dimension, so n+1 classes, VC v in class
//     v mod (n+1) (3 on two dimensions).
//   - dor-2class: two VC classes per dimension (dor2class.go), the class
//     taken on entering a dimension and kept in it.
//   - duato: minimal fully adaptive VCs n+1 and up over an escape network
//     of dor-dateline on VCs 0..n.
//   - min-adaptive: the entropy paper's quadrant scheme in orthants. The
//     signs of a packet's travel in each dimension (a dimension it does
//     not travel taking the sign of the first one it does) name an
//     orthant; an orthant and its opposite share a base, 2^(n-1) bases of
//     n+1 VCs each, the class rising by one at each wrap-around. Packets
//     of one base move monotonically in every dimension between
//     wrap-arounds, so no class closes a cycle. 2^(n-1)(n+1) VCs: 6 on two
//     dimensions, 16 on three, 40 on four; five and more need over 64.

// ndDOR is dimension-order routing on an n-D grid: the tables every n-D
// routing reads.
type ndDOR struct {
	g      *GridND
	n      int
	all    uint64
	radix  []int
	coords []int32 // n per router
	nodes  []nodeAt
}

func newNDDOR(g *GridND, vcs int) ndDOR {
	d := ndDOR{g: g, n: g.Dims(), all: routing.AllVCs(vcs), radix: g.Radix,
		coords: make([]int32, g.Routers()*g.Dims()), nodes: make([]nodeAt, g.Nodes())}
	for r := range g.Routers() {
		for dim := range d.n {
			d.coords[r*d.n+dim] = int32(g.Coord(r, dim))
		}
	}
	for nd := range d.nodes {
		r, p := g.NodePort(nd)
		d.nodes[nd] = nodeAt{int32(r), int32(p)}
	}
	return d
}

// coord is coordinate dim of router r.
func (d *ndDOR) coord(r, dim int) int { return int(d.coords[r*d.n+dim]) }

// step is the direction (+1, -1, 0) from a to b along dimension dim: the
// shorter way round on a torus (positive on a tie).
func (d *ndDOR) step(a, b, dim int) int { return lineStep(a, b, d.radix[dim], d.g.Wrap) }

// ndPort is the output port of a hop along dim in direction s.
func ndPort(dim, s int) int {
	if s > 0 {
		return 2 * dim
	}
	return 2*dim + 1
}

// hop is the dimension-order next hop from router r towards node dst: the
// output port, the dimension, coordinate a and direction s of the hop; s
// is 0 when the packet ejects at r (port is then its node port).
func (d *ndDOR) hop(r, dst int) (port, dim, a, s int) {
	at := d.nodes[dst]
	dr := int(at.router)
	for dim := range d.n {
		a, b := d.coord(r, dim), d.coord(dr, dim)
		if s := d.step(a, b, dim); s != 0 {
			return ndPort(dim, s), dim, a, s
		}
	}
	return int(at.port), 0, 0, 0
}

func (d *ndDOR) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	port, _, _, _ := d.hop(r, int(f.Dst))
	c.Add(routing.Bit(port), d.all)
}

func (d *ndDOR) InjectVCs(int, int) uint64 { return d.all }

func (d *ndDOR) Hops(src, dst int) int {
	sr, dr := int(d.nodes[src].router), int(d.nodes[dst].router)
	h := 0
	for dim := range d.n {
		a, b := d.coord(sr, dim), d.coord(dr, dim)
		if d.g.Wrap {
			h += topology.RingDistance(a, b, d.radix[dim])
		} else {
			h += abs(b - a)
		}
	}
	return h
}

// along is the dimension, coordinate and direction of a hop out of port
// out of router r; ok is false for a node port.
func (d *ndDOR) along(r, out int) (dim, a, s int, ok bool) {
	if out >= 2*d.n {
		return 0, 0, 0, false
	}
	dim, s = out/2, 1
	if out%2 == 1 {
		s = -1
	}
	return dim, d.coord(r, dim), s, true
}

// ndDateline is dor-dateline on an n-D torus: n+1 classes.
type ndDateline struct {
	ndDOR
	class []uint64
}

func (d *ndDateline) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	classes := len(d.class)
	class := int(f.VC) % classes
	port, dim, a, s := d.hop(r, int(f.Dst))
	if s == 0 {
		c.Add(routing.Bit(port), d.all)
		return
	}
	if crossesDateline(a, s, d.radix[dim]) {
		if class++; class >= classes {
			panic(fmt.Sprintf("dor-dateline: packet %d->%d crossed a dateline in each of %d dimensions and one more at %s", f.Src, f.Dst, d.n, d.g.RouterName(r)))
		}
	}
	c.Add(routing.Bit(port), d.class[class])
}

func (d *ndDateline) InjectVCs(int, int) uint64 { return d.class[0] }

// ndDuato is Duato's protocol on an n-D torus: adaptive VCs n+1 and up,
// the escape network dor-dateline on VCs 0..n, Flit.Route counting the
// datelines crossed (the escape class).
type ndDuato struct {
	ndDOR
	adaptive uint64
	escape   []uint64
}

func (d *ndDuato) escapeGroup(r int, f *link.Flit, c *routing.Candidates, fallback bool) {
	port, dim, a, s := d.hop(r, int(f.Dst))
	add := c.Add
	if fallback {
		add = c.AddFallback
	}
	if s == 0 {
		add(routing.Bit(port), d.all)
		return
	}
	cl := int(f.Route)
	if crossesDateline(a, s, d.radix[dim]) {
		cl++
	}
	if cl >= len(d.escape) {
		panic(fmt.Sprintf("duato: packet %d->%d would cross a dateline more than once a dimension at %s", f.Src, f.Dst, d.g.RouterName(r)))
	}
	add(routing.Bit(port), d.escape[cl])
}

func (d *ndDuato) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	at := d.nodes[f.Dst]
	dr := int(at.router)
	var ports uint64
	for dim := range d.n {
		if s := d.step(d.coord(r, dim), d.coord(dr, dim), dim); s != 0 {
			ports |= routing.Bit(ndPort(dim, s))
		}
	}
	if ports == 0 {
		c.Add(routing.Bit(int(at.port)), d.all)
		return
	}
	c.Add(ports, d.adaptive)
	d.escapeGroup(r, f, c, true)
}

// Escape is the escape sub-function, for the channel dependency check.
func (d *ndDuato) Escape(r, _ int, f *link.Flit, c *routing.Candidates) {
	d.escapeGroup(r, f, c, false)
}

// RouteStates bounds Flit.Route: the datelines crossed, 0..n.
func (d *ndDuato) RouteStates() int { return d.n + 1 }

// EscapeVCs are VCs 0..n.
func (d *ndDuato) EscapeVCs() uint64 { return routing.AllVCs(d.n + 1) }

// Update counts the dateline crossed by the hop just granted.
func (d *ndDuato) Update(r, out int, f *link.Flit) {
	if dim, a, s, ok := d.along(r, out); ok && crossesDateline(a, s, d.radix[dim]) {
		f.Route++
	}
}

// ndMinAdaptive is min-adaptive on an n-D torus. Flit.Route holds the
// packet's base (its orthant pair, set at injection) above the low
// wrapBits bits, which count the wrap-arounds crossed so far.
type ndMinAdaptive struct {
	ndDOR
	class    []uint64 // base*(n+1) + wraps
	wrapBits int
}

// minAdaptiveVCs is the VCs min-adaptive needs on n dimensions,
// 2^(n-1) (n+1).
func minAdaptiveVCs(n int) int { return (1 << (n - 1)) * (n + 1) }

// base is the orthant pair of a packet from src to dst: the signs of its
// travel in each dimension, a dimension it does not travel taking the
// sign of the first one it does, read relative to dimension 0's (bit d-1
// set where dimension d's differs).
func (m *ndMinAdaptive) base(src, dst int) int {
	sr, dr := int(m.nodes[src].router), int(m.nodes[dst].router)
	first := 0
	var signs [MaxDimensions]int
	for dim := range m.n {
		s := m.step(m.coord(sr, dim), m.coord(dr, dim), dim)
		if first == 0 {
			first = s
		}
		signs[dim] = s
	}
	b := 0
	for dim := 1; dim < m.n; dim++ {
		s0, s := signs[0], signs[dim]
		if s0 == 0 {
			s0 = first
		}
		if s == 0 {
			s = first
		}
		if s != s0 {
			b |= 1 << (dim - 1)
		}
	}
	return b
}

func (m *ndMinAdaptive) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	at := m.nodes[f.Dst]
	dr := int(at.router)
	crossed := int(f.Route) & (1<<m.wrapBits - 1)
	class := (int(f.Route)>>m.wrapBits)*(m.n+1) + crossed
	added := false
	for dim := range m.n {
		a := m.coord(r, dim)
		s := m.step(a, m.coord(dr, dim), dim)
		if s == 0 {
			continue
		}
		cl := class
		if wraps(a, s, m.radix[dim]) {
			if cl++; crossed+1 > m.n {
				panic(fmt.Sprintf("min-adaptive: packet %d->%d would cross more wrap-arounds than dimensions at %s", f.Src, f.Dst, m.g.RouterName(r)))
			}
		}
		c.Add(routing.Bit(ndPort(dim, s)), m.class[cl])
		added = true
	}
	if !added {
		c.Add(routing.Bit(int(at.port)), m.all)
	}
}

// Update counts the wrap-around crossed by the hop just granted.
func (m *ndMinAdaptive) Update(r, out int, f *link.Flit) {
	if dim, a, s, ok := m.along(r, out); ok && wraps(a, s, m.radix[dim]) {
		f.Route++
	}
}

func (m *ndMinAdaptive) InjectVCs(src, dst int) uint64 {
	return m.class[m.base(src, dst)*(m.n+1)]
}

// RouteStates bounds Flit.Route: the last base, wrap counts up to n.
func (m *ndMinAdaptive) RouteStates() int { return (1<<(m.n-1)-1)<<m.wrapBits + m.n + 1 }

// InjectRoute records the packet's base above the wrap count.
func (m *ndMinAdaptive) InjectRoute(src, dst int) uint8 {
	return uint8(m.base(src, dst) << m.wrapBits)
}

// newND builds routing name on the n-D grid g with vcs VCs (the specs'
// New on a GridND; their CheckVCs has refused too few).
func newND(name string, g *GridND, vcs int) routing.Func {
	d := newNDDOR(g, vcs)
	n := d.n
	switch name {
	case "dor-2class":
		return newNDDor2Class(d, vcs)
	case "dor-dateline":
		r := &ndDateline{ndDOR: d, class: make([]uint64, n+1)}
		for c := range r.class {
			r.class[c] = routing.ClassMask(vcs, n+1, c)
		}
		return r
	case "duato":
		r := &ndDuato{ndDOR: d, adaptive: routing.AllVCs(vcs) &^ routing.AllVCs(n+1), escape: make([]uint64, n+1)}
		for c := range r.escape {
			r.escape[c] = routing.ClassMask(min(vcs, n+1), n+1, c)
		}
		return r
	case "min-adaptive":
		classes := minAdaptiveVCs(n)
		r := &ndMinAdaptive{ndDOR: d, class: make([]uint64, classes), wrapBits: bits.Len(uint(n))}
		for c := range r.class {
			r.class[c] = routing.ClassMask(vcs, classes, c)
		}
		return r
	}
	return &d
}

// ndClasses is the VCs routing name needs on n dimensions (its VC
// classes), -1 for a routing not built on n-D grids.
func ndClasses(name string, n int) int {
	switch name {
	case "dor":
		return 1
	case "dor-2class":
		return 2
	case "dor-dateline":
		return n + 1
	case "duato":
		return n + 2
	case "min-adaptive":
		return minAdaptiveVCs(n)
	}
	return -1
}

// checkND refuses too few VCs for routing name on the n-D grid t, or more
// classes than a router holds; nil on a 2-D Grid2D.
func checkND(name string, t topology.Topology, vcs int) error {
	g, ok := t.(*GridND)
	if !ok {
		return nil
	}
	n := g.Dims()
	need := ndClasses(name, n)
	switch {
	case need < 0:
		return fmt.Errorf("routing function %q is built on two-dimensional grids of equal sides, not on a %s", name, g)
	case need > 64:
		return fmt.Errorf("routing function %q on %d dimensions needs 2^(n-1)(n+1) = %d VCs, more than the 64 a router holds: use duato or dor-dateline", name, n, need)
	case vcs < need:
		return fmt.Errorf("routing function %q needs at least %d VCs on %d dimensions, one per VC class (got %d)", name, need, n, vcs)
	case name == "dor-2class" && vcs%2 != 0:
		return fmt.Errorf("routing function %q needs an even number of VCs, at least 2: it splits them into two classes of equal size (got %d)", name, vcs)
	}
	if s := adaptiveListSeconds(g); (name == "duato" || name == "min-adaptive") && s > MaxAdaptiveListSeconds {
		return fmt.Errorf("routing function %q on the %s: its channel-dependency check visits about 7^n combinations of travel at each of %d routers, about %.0f s, more than %.0f (use dor-dateline, or fewer dimensions or routers)", name, g, g.Routers(), s, MaxAdaptiveListSeconds)
	}
	return nil
}

// MaxAdaptiveListSeconds is the longest estimated state list of an
// adaptive n-D routing that is built (adaptiveListSeconds): its cost grows
// as 7^n a router, 24 s on a 4^6 torus, 3.8 hours on a 4^8 one.
const MaxAdaptiveListSeconds = 300.0

// ndDor2Class is dor-2class on an n-D torus: dimension order with two VC
// classes per dimension (dor2class.go), the class taken on entering a
// dimension (the upper half where the rest of the way in it crosses the
// wrap-around link) and kept while continuing in it.
type ndDor2Class struct {
	ndDOR
	half  int
	class [2]uint64
}

func newNDDor2Class(d ndDOR, vcs int) *ndDor2Class {
	r := &ndDor2Class{ndDOR: d, half: vcs / 2}
	r.class[0] = routing.AllVCs(r.half)
	r.class[1] = routing.AllVCs(2*r.half) &^ r.class[0]
	return r
}

// turnClass is the class of a packet for node dst entering, at coordinate
// a, the dimension dim of its next hop in direction s.
func (d *ndDor2Class) turnClass(dst, dim, a, s int) int {
	if crossesWrap(a, d.coord(int(d.nodes[dst].router), dim), s) {
		return 1
	}
	return 0
}

func (d *ndDor2Class) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	port, dim, a, s := d.hop(r, int(f.Dst))
	switch {
	case s == 0:
		c.Add(routing.Bit(port), d.all)
	case in == port^1: // arrived in this dimension and direction: keep the class
		cl := 0
		if int(f.VC) >= d.half {
			cl = 1
		}
		c.Add(routing.Bit(port), d.class[cl])
	default: // injected here, or turning into this dimension
		c.Add(routing.Bit(port), d.class[d.turnClass(int(f.Dst), dim, a, s)])
	}
}

// InjectVCs is the class of the first dimension the packet travels, or
// every VC when it ejects at its source router.
func (d *ndDor2Class) InjectVCs(src, dst int) uint64 {
	_, dim, a, s := d.hop(int(d.nodes[src].router), dst)
	if s == 0 {
		return d.all
	}
	return d.class[d.turnClass(dst, dim, a, s)]
}
