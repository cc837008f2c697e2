package hyperx

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// Routing on a HyperX (HyperX): min, val, ugal-l.
//
// Minimal routing is dimension order: the lowest dimension in which the
// packet's router and its destination's differ is corrected in one hop,
// on whichever of the T trunk links has a free VC (most credits); the
// dimensions are corrected in increasing order, so the channel dependency
// graph has no cycle with one VC class. Valiant's path goes in dimension
// order to an intermediate router drawn per packet uniformly among all
// routers, in VC class 0, then in dimension order to the destination, in
// class 1 (the class changes at the intermediate, so each class is a
// dimension-order network of its own: 2 classes). UGAL-L decides at the
// source router between the minimal path (class 1 from the start, as a
// Valiant path whose intermediate is the source) and Valiant's: minimal
// when q_min*H_min <= q_val*H_val + T, q the least occupied trunk of each
// path's first hop, H its hops. Dimension-order minimal plus Valiant is
// the HyperX option the issue asks for instead of DAL.
type hyperxRouting struct {
	t         *HyperX
	mode      routing.NonMinMode
	classes   int
	class     [2]uint64
	all       uint64
	threshold int
	trunks    uint64 // T low bits
}

// hyperxClasses is the number of VC classes mode needs on a HyperX.
func hyperxClasses(m routing.NonMinMode) int {
	if m == routing.ModeMin {
		return 1
	}
	return 2
}

func newHyperXRouting(t *HyperX, vcs int, m routing.NonMinMode) *hyperxRouting {
	h := &hyperxRouting{t: t, mode: m, classes: hyperxClasses(m), all: routing.AllVCs(vcs), threshold: routing.UGALThresholdFlits, trunks: uint64(1)<<t.T - 1}
	for c := 0; c < h.classes; c++ {
		h.class[c] = routing.ClassMask(vcs, h.classes, c)
	}
	return h
}

// Configure sets UGAL's threshold T (routing.Configurable).
func (h *hyperxRouting) Configure(p routing.Params) error {
	h.threshold = p.Int("ugal_threshold_flits")
	return nil
}

// dorPorts is the set of ports of the dimension-order hop from router r
// towards router m (its trunks), 0 when r == m.
func (h *hyperxRouting) dorPorts(r, m int) uint64 {
	t := h.t
	for d := 0; d < t.L; d++ {
		if x := t.Coord(m, d); x != t.Coord(r, d) {
			return h.trunks << t.Port(r, d, x, 0)
		}
	}
	return 0
}

// distance is the number of coordinates in which routers a and b differ.
func (h *hyperxRouting) distance(a, b int) int {
	n := 0
	for d := 0; d < h.t.L; d++ {
		if h.t.Coord(a, d) != h.t.Coord(b, d) {
			n++
		}
	}
	return n
}

// toDst fills c with the dimension-order hop towards node dst in class cls.
func (h *hyperxRouting) toDst(r, cls, dst int, c *routing.Candidates) {
	if ports := h.dorPorts(r, dst/h.t.P); ports != 0 {
		c.Add(ports, h.class[cls])
		return
	}
	c.Add(routing.Bit(dst%h.t.P), h.all)
}

// arrival is the class of a packet at input port in holding VC v and the
// dimension of the hop it arrived by (-1 from a node).
func (h *hyperxRouting) arrival(r, in int, v uint8) (cls, dim int) {
	if in < h.t.P {
		return 0, -1
	}
	d, _, _ := h.t.PortDim(r, in)
	return routing.VCClass(v, h.classes), d
}

// Route gives, for the deadlock check, every candidate Choose may give: a
// packet of class 0 may go on in any dimension above the one it arrived
// by (towards some intermediate) in class 0, or, the router being its
// intermediate, towards its destination in class 1.
func (h *hyperxRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	dst := int(f.Dst)
	if h.mode == routing.ModeMin {
		h.toDst(r, 0, dst, c)
		return
	}
	cls, dim := h.arrival(r, in, f.VC)
	h.toDst(r, 1, dst, c)
	if cls == 1 {
		return
	}
	t := h.t
	first := t.P + (dim+1)*(t.S-1)*t.T
	if last := t.Ports(r); first < last {
		c.Add((uint64(1)<<(last-first)-1)<<first, h.class[0])
	}
}

// Choose is the decision itself.
func (h *hyperxRouting) Choose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues, _ clock.Cycle) {
	dst := int(f.Dst)
	if h.mode == routing.ModeMin {
		h.toDst(r, 0, dst, c)
		return
	}
	cls, _ := h.arrival(r, in, f.VC)
	m := routing.Pick(routing.Draw(f, routing.SaltFirst), h.t.Routers())
	if in < h.t.P {
		f.Route = routing.RouteNonMin
		if h.mode == routing.ModeUGALL {
			dr := dst / h.t.P
			pMin, pNon := h.dorPorts(r, dr), h.dorPorts(r, m)
			if pMin == 0 || pNon == 0 || routing.UGALMinimal(h.leastQueue(pMin, q), h.distance(r, dr), h.leastQueue(pNon, q), h.distance(r, m)+h.distance(m, dr), h.threshold) {
				f.Route = 0
			}
		}
	}
	if cls == 0 && f.Route&routing.RouteNonMin != 0 && r != m {
		c.Add(h.dorPorts(r, m), h.class[0])
		return
	}
	h.toDst(r, 1, dst, c)
}

// leastQueue is the occupancy of the least occupied port of ports.
func (h *hyperxRouting) leastQueue(ports uint64, q routing.Queues) int {
	best := -1
	for ; ports != 0; ports &= ports - 1 {
		if n := q.QueueFlits(routing.TrailingZeros(ports)); best < 0 || n < best {
			best = n
		}
	}
	return best
}

func (h *hyperxRouting) InjectVCs(int, int) uint64 { return h.all }

// Hops is the minimal path's router-to-router hops.
func (h *hyperxRouting) Hops(src, dst int) int { return h.distance(src/h.t.P, dst/h.t.P) }

// VCClasses: Route reads a packet's VC only through its class (routing.VCClassed).
func (h *hyperxRouting) VCClasses() int { return h.classes }

// ListStates of a HyperX. A packet that arrived by a port of dimension d
// on its dimension-order path to its destination (minimal routing, or
// class 1 of Valiant's) agrees with it in dimensions up to d: one
// destination per router differing from this one in a single higher
// dimension gives every decision. One of class 0 (bound for its
// intermediate) may also be at its intermediate, so be bound for a
// destination differing in any dimension.
func (h *hyperxRouting) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	h.list(visit, false)
}

// ListStatesWithin is ListStates with one destination for a packet of
// class 0: its class-0 candidates (every port of a higher dimension) are
// the same for every destination, and the others differ only in the
// class-1 hop it would take at its intermediate, a dependency from class
// 0 up to class 1 (routing.ClassLister). It leaves out 60 of every 61 visits of a
// 16x16x16x16 HyperX's Valiant check.
func (h *hyperxRouting) ListStatesWithin(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	h.list(visit, true)
}

func (h *hyperxRouting) list(visit func(r, in int, vcMask uint64, route uint8, dst int) bool, within bool) {
	t := h.t
	for r := 0; r < t.Routers(); r++ {
		for in := t.P; in < t.Ports(r); in++ {
			din, _, _ := t.PortDim(r, in)
			class0 := h.mode != routing.ModeMin
			for d := 0; d < t.L; d++ {
				for x := 0; x < t.S; x++ {
					if x == t.Coord(r, d) {
						continue
					}
					dst := t.WithCoord(r, d, x) * t.P
					if d > din {
						if !visit(r, in, h.class[h.classes-1], 0, dst) {
							return
						}
					}
					if class0 && !visit(r, in, h.class[0], 0, dst) {
						return
					}
					class0 = class0 && !within
				}
			}
		}
	}
}

// NonMinimal is the HyperX's routing function of mode m
// (routing.NonMinimalTopology).
func (t *HyperX) NonMinimal(m routing.NonMinMode, vcs int) routing.Func {
	return newHyperXRouting(t, vcs, m)
}

// NonMinimalClasses is the VC classes mode m needs on a HyperX.
func (t *HyperX) NonMinimalClasses(m routing.NonMinMode) int { return hyperxClasses(m) }

// NonMinimalSecondsPerPortPair is the build time of mode m per port pair:
// Valiant's class-0 states take one visit (routing.ClassLister).
func (t *HyperX) NonMinimalSecondsPerPortPair(routing.NonMinMode) float64 { return 12e-9 }

// NonMinimalFamily is what the HyperX offers of the shared non-minimal
// routings: min, val and ugal-l (no groups: no UGAL-G, no PAR).
func NonMinimalFamily() routing.NonMinimalFamily {
	return routing.NonMinimalFamily{Kind: (&HyperX{}).Kind(), Modes: []routing.NonMinMode{routing.ModeMin, routing.ModeVAL, routing.ModeUGALL}}
}
