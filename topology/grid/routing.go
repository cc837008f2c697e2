package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Routings are the grids' routing functions (meshes and tori), in the
// order documentation and errors list them.
func Routings() []routing.Spec {
	l := []routing.Spec{
		{
			Name: "dor", MinVCs: 1, Topologies: []string{"mesh", "torus"}, BuildSeconds: routing.SecondsPerPort(0.15e-6),
			Doc: "dimension-order (XY) routing, the shorter way round on a torus; every VC may be used (deadlock free on a mesh only)",
			New: func(t topology.Topology, vcs int) routing.Func {
				d := newDor(t.(*Grid2D), vcs)
				return &d
			},
		},
		{
			Name: "dor-dateline", MinVCs: 3, Topologies: []string{"torus"}, BuildSeconds: routing.SecondsPerPort(0.15e-6),
			Doc: "dimension-order routing on a torus; a packet starts in VC class 0 and moves up one class at each dateline crossing (datelines at x=0, x=k/2, y=0, y=k/2); VC v belongs to class v mod 3",
			New: func(t topology.Topology, vcs int) routing.Func {
				r := &dorDateline{dor: newDor(t.(*Grid2D), vcs)}
				for c := range r.class {
					r.class[c] = routing.ClassMask(vcs, 3, c)
				}
				return r
			},
		},
		{
			Name: "min-adaptive", MinVCs: 6, Topologies: []string{"torus"}, BuildSeconds: routing.SecondsPerPort(1.05e-6),
			Doc: "minimal adaptive routing of the original entropy paper: 6 VCs, a packet starts in VC 0 when its destination lies in quadrant 1 or 3 from its source and in VC 3 for quadrants 2 or 4, and moves up one VC at each wrap-around; among the productive directions the one with most credits",
			New: func(t topology.Topology, vcs int) routing.Func {
				m := &minAdaptive{dor: newDor(t.(*Grid2D), vcs)}
				for c := range m.class {
					m.class[c] = routing.ClassMask(vcs, 6, c)
				}
				return m
			},
		},
		{
			Name: "duato", MinVCs: 4, Topologies: []string{"torus"}, EscapeLevel: true, BuildSeconds: routing.SecondsPerPort(1.65e-6),
			CheckVCs: func(_ topology.Topology, vcs int) error {
				if vcs < 4 {
					return fmt.Errorf("routing function \"duato\" needs at least %d VCs: 3 for the escape network and at least one adaptive (got %d)", 4, vcs)
				}
				return nil
			},
			Doc: "Duato's protocol: VCs 3 and up are minimal fully adaptive; VCs 0-2 are the escape network, dimension order with datelines (class = datelines crossed so far), used when no adaptive VC is free",
			New: func(t topology.Topology, vcs int) routing.Func {
				d := &duato{dor: newDor(t.(*Grid2D), vcs), adaptive: routing.AllVCs(vcs) &^ 7}
				for c := range d.escape {
					d.escape[c] = routing.ClassMask(min(vcs, 3), 3, c)
				}
				return d
			},
		},
		dor2ClassSpec(),
	}
	for _, s := range harSpecs() {
		s.EscapeLevel = true // the connection channel, then C1
		l = append(l, s)
	}
	for i := range l {
		l[i] = withND(l[i])
	}
	return l
}

// withND extends spec to the n-dimensional grids (GridND): their own
// construction of the routings built on them (nd_routing.go), and a
// refusal of the others and of too few VCs for n dimensions.
func withND(spec routing.Spec) routing.Spec {
	check, build, minVCs := spec.CheckVCs, spec.New, spec.MinVCs
	spec.CheckTopology = func(t topology.Topology) error {
		if g, ok := t.(*GridND); ok && ndClasses(spec.Name, 1) < 0 {
			return fmt.Errorf("built on two-dimensional grids of equal sides, not on a %s: there use dor, dor-dateline, dor-2class, duato or min-adaptive", g)
		}
		return nil
	}
	spec.MinVCsOn = func(t topology.Topology) int {
		if g, ok := t.(*GridND); ok {
			return ndClasses(spec.Name, g.Dims())
		}
		return minVCs
	}
	spec.CheckVCs = func(t topology.Topology, vcs int) error {
		if _, nd := t.(*GridND); nd {
			return checkND(spec.Name, t, vcs)
		}
		if check == nil {
			return nil
		}
		return check(t, vcs)
	}
	if ndClasses(spec.Name, 2) > 1 {
		// A packet reads its class from its VC or routing state: too few
		// VCs are refused even where the deadlock check is waived.
		spec.ClassVCs = func(t topology.Topology, vcs int) error {
			if _, nd := t.(*GridND); nd {
				return checkND(spec.Name, t, vcs)
			}
			return nil
		}
	}
	spec.New = func(t topology.Topology, vcs int) routing.Func {
		if g, ok := t.(*GridND); ok {
			return newND(spec.Name, g, vcs)
		}
		return build(t, vcs)
	}
	if seconds := spec.BuildSeconds; seconds != nil && spec.Name == "dor-dateline" {
		// The n-D family's check of dor-dateline costs about 0.3 us a port
		// on 3-D tori (its n+1 classes, measured beside the memory touched:
		// about twice the 2-D Grid2D's 0.15 us), growing with the classes.
		spec.BuildSeconds = func(t topology.Topology, vcs int) float64 {
			if g, ok := t.(*GridND); ok {
				return routing.SecondsPerPort(0.3e-6)(t, vcs) * float64(ndClasses(spec.Name, g.Dims())) / 4
			}
			return seconds(t, vcs)
		}
	}
	if seconds := spec.BuildSeconds; seconds != nil && (spec.Name == "duato" || spec.Name == "min-adaptive") {
		spec.BuildSeconds = func(t topology.Topology, vcs int) float64 {
			if g, ok := t.(*GridND); ok {
				return adaptiveListSeconds(g)
			}
			return seconds(t, vcs)
		}
	}
	return spec
}

// dor is dimension-order routing, X first, on a mesh.
type dor struct {
	g   *Grid2D
	all uint64
	// coords[r] is router r's (x, y) and nodes[n] node n's router and port:
	// tables instead of divisions by K and C on the per-hop path.
	coords []gridPos
	nodes  []nodeAt
	// lastCh is the last channel of a node (Grid2D.H - 1): a packet
	// of class c ejects by channel min(c, lastCh).
	lastCh uint8
}

// sink is the ejection port of packet f at its destination's router,
// given its channel 0's port dp.
func (d *dor) sink(dp int, f *link.Flit) int { return dp + int(min(f.Class, d.lastCh)) }

type gridPos struct{ x, y int32 }

type nodeAt struct{ router, port int32 }

func newDor(g *Grid2D, vcs int) dor {
	d := dor{g: g, all: routing.AllVCs(vcs), coords: make([]gridPos, g.Routers()), nodes: make([]nodeAt, g.Nodes()), lastCh: uint8(g.NodeChannels() - 1)}
	for r := range d.coords {
		x, y := g.XY(r)
		d.coords[r] = gridPos{int32(x), int32(y)}
	}
	for n := range d.nodes {
		r, p := g.NodePort(n)
		d.nodes[n] = nodeAt{int32(r), int32(p)}
	}
	return d
}

// xy is router r's coordinates (Grid2D.XY).
func (d *dor) xy(r int) (x, y int) {
	c := d.coords[r]
	return int(c.x), int(c.y)
}

// nodePort is node n's router and port (Grid2D.NodePort).
func (d *dor) nodePort(n int) (router, port int) {
	a := d.nodes[n]
	return int(a.router), int(a.port)
}

// step is the direction (+1, -1, 0) from a to b in one dimension: the
// shorter way round on a torus (positive on a tie).
func (d *dor) step(a, b int) int { return lineStep(a, b, d.g.K, d.g.Wrap) }

// lineStep is the direction (+1, -1, 0) from a to b on a line of k
// positions, or the shorter way round a ring of k (wrap; positive on a
// tie).
func lineStep(a, b, k int, wrap bool) int {
	if wrap {
		return topology.RingStep(a, b, k)
	}
	switch {
	case a < b:
		return 1
	case a > b:
		return -1
	}
	return 0
}

// hop is the dimension-order next hop from router r towards node dst: the
// output port, and the coordinate a and direction dir (+1, -1) of the hop
// along its dimension; dir is 0 when the packet ejects at r.
func (d *dor) hop(r, dst int) (port, a, dir int) {
	dr, dp := d.nodePort(dst)
	x, y := d.xy(r)
	dx, dy := d.xy(dr)
	if s := d.step(x, dx); s != 0 {
		return xPort(s), x, s
	}
	if s := d.step(y, dy); s != 0 {
		return yPort(s), y, s
	}
	return dp, 0, 0
}

// along is the coordinate and direction of a hop out of port out of router
// r; ok is false for a node port.
func (d *dor) along(r, out int) (a, dir int, ok bool) {
	x, y := d.xy(r)
	switch out {
	case PortXPlus:
		return x, 1, true
	case PortXMinus:
		return x, -1, true
	case PortYPlus:
		return y, 1, true
	case PortYMinus:
		return y, -1, true
	}
	return 0, 0, false
}

func (d *dor) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	port, _, dir := d.hop(r, int(f.Dst))
	if dir == 0 {
		port = d.sink(port, f)
	}
	c.Add(routing.Bit(port), d.all)
}

func (d *dor) InjectVCs(int, int) uint64 { return d.all }

func (d *dor) Hops(src, dst int) int {
	sr, _ := d.nodePort(src)
	dr, _ := d.nodePort(dst)
	x, y := d.xy(sr)
	dx, dy := d.xy(dr)
	if d.g.Wrap {
		return topology.RingDistance(x, dx, d.g.K) + topology.RingDistance(y, dy, d.g.K)
	}
	return abs(dx-x) + abs(dy-y)
}

// dorDateline is dimension-order routing on a torus with dateline VC classes.
// In each dimension it takes the shorter way round, the positive one on a tie.
type dorDateline struct {
	dor
	class [3]uint64
}

// crossesDateline reports whether the hop from a in direction dir crosses
// one of the datelines, which sit on the links entering coordinates 0 and k/2
// from below (and leaving them downwards).
func crossesDateline(a, dir, k int) bool {
	hi := a // the upper end of the link, in ring order
	if dir > 0 {
		if hi++; hi == k {
			hi = 0
		}
	}
	return hi == 0 || hi == k/2
}

func (d *dorDateline) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	class := int(f.VC) % 3
	port, a, dir := d.hop(r, int(f.Dst))
	if dir == 0 {
		c.Add(routing.Bit(d.sink(port, f)), d.all)
		return
	}
	if crossesDateline(a, dir, d.g.K) {
		class++
		if class > 2 {
			panic(fmt.Sprintf("dor-dateline: packet %d->%d crossed a third dateline at %s", f.Src, f.Dst, d.g.RouterName(r)))
		}
	}
	c.Add(routing.Bit(port), d.class[class])
}

func (d *dorDateline) InjectVCs(int, int) uint64 { return d.class[0] }

func (d *dorDateline) Hops(src, dst int) int {
	sr, _ := d.nodePort(src)
	dr, _ := d.nodePort(dst)
	x, y := d.xy(sr)
	dx, dy := d.xy(dr)
	return topology.RingDistance(x, dx, d.g.K) + topology.RingDistance(y, dy, d.g.K)
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// productive returns, for a packet at router r heading to router dr, the
// direction (+1, -1, 0) in x and y, the shorter way round.
func (d *dor) productive(r, dr int) (sx, sy, x, y int) {
	x, y = d.xy(r)
	dx, dy := d.xy(dr)
	return d.step(x, dx), d.step(y, dy), x, y
}

// wraps reports whether the hop from coordinate a in direction s crosses
// the wrap-around link.
func wraps(a, s, k int) bool { return (s > 0 && a == k-1) || (s < 0 && a == 0) }

func xPort(s int) int {
	if s > 0 {
		return PortXPlus
	}
	return PortXMinus
}

func yPort(s int) int {
	if s > 0 {
		return PortYPlus
	}
	return PortYMinus
}

// minAdaptive is the 6-VC minimal adaptive routing of the original entropy
// paper. The VC class is base + wraps: base 0 when the destination lies in
// quadrant 1 or 3 from the source (or on an axis), 3 in quadrants 2 or 4.
// Flit.Route carries the base as bit 2 (set at injection) and the number of
// wrap-around links crossed so far in bits 0-1.
type minAdaptive struct {
	dor
	class [6]uint64
}

func (m *minAdaptive) base(src, dst int) int {
	sr, _ := m.nodePort(src)
	dr, _ := m.nodePort(dst)
	sx, sy, _, _ := m.productive(sr, dr)
	if sx*sy < 0 {
		return 3
	}
	return 0
}

func (m *minAdaptive) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	dr, dp := m.nodePort(int(f.Dst))
	sx, sy, x, y := m.productive(r, dr)
	if sx == 0 && sy == 0 {
		c.Add(routing.Bit(m.sink(dp, f)), m.all)
		return
	}
	class := 3*int(f.Route>>2) + int(f.Route&3)
	k := m.g.K
	for _, d := range [2]struct{ s, a, port int }{{sx, x, xPort(sx)}, {sy, y, yPort(sy)}} {
		if d.s == 0 {
			continue
		}
		cl := class
		if wraps(d.a, d.s, k) {
			cl++
		}
		if cl%3 == 0 && cl != class { // a third wrap: impossible on minimal routes
			panic(fmt.Sprintf("min-adaptive: packet %d->%d would cross a third wrap-around at %s", f.Src, f.Dst, m.g.RouterName(r)))
		}
		c.Add(routing.Bit(d.port), m.class[cl])
	}
}

// Update counts the wrap-around crossed by the hop just granted.
func (m *minAdaptive) Update(r, out int, f *link.Flit) {
	if a, dir, ok := m.along(r, out); ok && wraps(a, dir, m.g.K) {
		f.Route++
	}
}

func (m *minAdaptive) InjectVCs(src, dst int) uint64 { return m.class[m.base(src, dst)] }

// InjectRoute records the packet's quadrant base in bit 2.
func (m *minAdaptive) InjectRoute(src, dst int) uint8 { return uint8(m.base(src, dst) / 3 << 2) }

// duato is Duato's protocol on a torus: fully adaptive minimal VCs (3 and
// up) with an escape network of dimension-order routing with datelines on
// VCs 0-2. Flit.Route counts the datelines crossed so far (at most one per
// dimension on a minimal route), which is the escape VC class.
type duato struct {
	dor
	adaptive uint64
	escape   [3]uint64
}

func (d *duato) escapeGroup(r int, f *link.Flit, c *routing.Candidates, fallback bool) {
	port, a, s := d.hop(r, int(f.Dst))
	add := c.Add
	if fallback {
		add = c.AddFallback
	}
	if s == 0 {
		add(routing.Bit(d.sink(port, f)), d.all)
		return
	}
	cl := int(f.Route)
	if crossesDateline(a, s, d.g.K) {
		cl++
	}
	if cl > 2 {
		panic(fmt.Sprintf("duato: packet %d->%d would cross a third dateline at %s", f.Src, f.Dst, d.g.RouterName(r)))
	}
	add(routing.Bit(port), d.escape[cl])
}

func (d *duato) Route(r, _ int, f *link.Flit, c *routing.Candidates) {
	dr, dp := d.nodePort(int(f.Dst))
	sx, sy, _, _ := d.productive(r, dr)
	if sx == 0 && sy == 0 {
		c.Add(routing.Bit(d.sink(dp, f)), d.all)
		return
	}
	var ports uint64
	if sx != 0 {
		ports |= routing.Bit(xPort(sx))
	}
	if sy != 0 {
		ports |= routing.Bit(yPort(sy))
	}
	c.Add(ports, d.adaptive)
	d.escapeGroup(r, f, c, true)
}

// Escape is the escape sub-function, for the channel dependency check.
func (d *duato) Escape(r, _ int, f *link.Flit, c *routing.Candidates) { d.escapeGroup(r, f, c, false) }

// EscapeVCs are VCs 0-2.
func (d *duato) EscapeVCs() uint64 { return 7 }

// Update counts the dateline crossed by the hop just granted.
func (d *duato) Update(r, out int, f *link.Flit) {
	if a, dir, ok := d.along(r, out); ok && crossesDateline(a, dir, d.g.K) {
		f.Route++
	}
}

func (d *duato) InjectVCs(int, int) uint64 { return d.all }
