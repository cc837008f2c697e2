package slimfly

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// Routing on a Slim Fly (SlimFly): min, val, ugal-l, with a packet's VC
// class the number of hops it has taken (Besta and Hoefler's scheme):
// every hop raises the class, so no channel waits on one of its own class
// or a lower one and the channel dependency graph has no cycle.
//
// The minimal hop from router r towards router d is d's own port when
// they are neighbours, else the port of r's lowest-numbered neighbour
// that is d's neighbour (the diameter is 2): at most 2 hops, 2 classes.
// Valiant's path goes minimally to an intermediate router drawn per packet
// uniformly among all routers, then minimally to the destination (minimal
// when the draw is the source's router or the destination's): at most 4
// hops, 4 classes. UGAL-L decides at the source router: minimal when
// q_min*H_min <= q_val*H_val + T, q the occupancy of each path's first
// hop in class 0, H its hops (1 or 2 against 2 to 4).
type sfRouting struct {
	t         *SlimFly
	mode      routing.NonMinMode
	classes   int
	class     [4]uint64
	all       uint64
	network   uint64 // every network port
	threshold int
}

// passedIntermediate is set in Flit.Route when a Valiant packet reaches
// its intermediate.
const passedIntermediate uint8 = 4

// classesOf is the number of VC classes mode needs on a Slim Fly.
func classesOf(m routing.NonMinMode) int {
	if m == routing.ModeMin {
		return 2
	}
	return 4
}

func newRouting(t *SlimFly, vcs int, m routing.NonMinMode) *sfRouting {
	s := &sfRouting{t: t, mode: m, classes: classesOf(m), all: routing.AllVCs(vcs), threshold: routing.UGALThresholdFlits,
		network: (uint64(1)<<t.k - 1) << t.P}
	for c := 0; c < s.classes; c++ {
		s.class[c] = routing.ClassMask(vcs, s.classes, c)
	}
	return s
}

// Configure sets UGAL's threshold T (routing.Configurable).
func (s *sfRouting) Configure(p routing.Params) error {
	s.threshold = p.Int("ugal_threshold_flits")
	return nil
}

// next is the port of router r's minimal hop towards router d != r.
func (s *sfRouting) next(r, d int) int {
	t := s.t
	if p := t.PortTo(r, d); p >= 0 {
		return p
	}
	for i, n := range t.nbr[r*t.k : (r+1)*t.k] {
		if t.Adjacent(int(n), d) {
			return t.P + i
		}
	}
	panic("slim fly: two routers more than 2 hops apart")
}

// distance is the hops between routers u and v.
func (s *sfRouting) distance(u, v int) int {
	switch {
	case u == v:
		return 0
	case s.t.Adjacent(u, v):
		return 1
	}
	return 2
}

// hopClass is the class of the hop a packet at input port in holding VC
// v takes next: the hops it has taken.
func (s *sfRouting) hopClass(in int, v uint8) int {
	if in < s.t.P {
		return 0
	}
	return routing.VCClass(v, s.classes) + 1
}

// Choose is the decision itself.
func (s *sfRouting) Choose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues, _ clock.Cycle) {
	t := s.t
	dst := int(f.Dst)
	dr := dst / t.P
	if dr == r {
		c.Add(routing.Bit(dst%t.P), s.all)
		return
	}
	target := dr
	if s.mode != routing.ModeMin && (in < t.P || f.Route&(routing.RouteNonMin|passedIntermediate) == routing.RouteNonMin) {
		// At the source, or bound for the intermediate: the draw.
		m := routing.Pick(routing.Draw(f, routing.SaltFirst), t.Routers())
		if in < t.P { // the source router decides
			f.Route = 0
			if m != r && m != dr && (s.mode == routing.ModeVAL || !s.minimalByQueues(r, dr, m, q)) {
				f.Route = routing.RouteNonMin
			}
		}
		if f.Route&(routing.RouteNonMin|passedIntermediate) == routing.RouteNonMin {
			if r == m {
				f.Route |= passedIntermediate
			} else {
				target = m
			}
		}
	}
	c.Add(routing.Bit(s.next(r, target)), s.class[s.hopClass(in, f.VC)])
}

// minimalByQueues is UGAL-L's rule at source router r between the
// minimal path to router dr and Valiant's through router m.
func (s *sfRouting) minimalByQueues(r, dr, m int, q routing.Queues) bool {
	qMin, qVal := q.QueueFlitsOn(s.next(r, dr), s.class[0]), q.QueueFlitsOn(s.next(r, m), s.class[0])
	return routing.UGALMinimal(qMin, s.distance(r, dr), qVal, s.distance(r, m)+s.distance(m, dr), s.threshold)
}

// Route gives, for the deadlock check, every candidate Choose may give,
// whatever the packet's draw: the minimal hop, and under Valiant and
// UGAL-L, on the first two hops (towards some intermediate), every
// network port.
func (s *sfRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	t := s.t
	dst := int(f.Dst)
	dr := dst / t.P
	if dr == r {
		c.Add(routing.Bit(dst%t.P), s.all)
		return
	}
	cls := s.hopClass(in, f.VC)
	switch {
	case cls >= s.classes: // past the longest path: reached by no packet
	case s.mode != routing.ModeMin && cls <= 1:
		c.Add(s.network, s.class[cls])
	default:
		c.Add(routing.Bit(s.next(r, dr)), s.class[cls])
	}
}

func (s *sfRouting) InjectVCs(int, int) uint64 { return s.all }

// Hops is the minimal path's router-to-router hops: 0, 1 or 2.
func (s *sfRouting) Hops(src, dst int) int { return s.distance(src/s.t.P, dst/s.t.P) }

// VCClasses: Route reads a packet's VC only through its class (routing.VCClassed).
func (s *sfRouting) VCClasses() int { return s.classes }

// ListStates of a Slim Fly (routing.StateLister): per router r and
// neighbour n it arrived from, with a destination per decision. A packet
// that took its first hop from n to r (class 0) under minimal routing,
// or its third (class 2) under the others, is bound for a router d two
// hops from n whose minimal hop from n is r (n's lowest-numbered
// neighbour next to d): one destination per such d, found for all of n's
// neighbours at once by walking them in order. Under Valiant and UGAL-L a
// packet after its first hop (class 0) may go anywhere but back to n's
// nodes (one destination), and after its second (class 1) towards any
// router but n (one destination per port of r: the neighbour itself, or,
// for the port back to n, a router two hops away whose minimal hop from r
// is n).
func (s *sfRouting) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	t := s.t
	R, k := t.Routers(), t.k
	val := s.mode != routing.ModeMin
	designatedClass := 0
	if val {
		designatedClass = 2
	}
	// via[x*k+i] is a router two hops from x whose minimal hop from x is
	// x's i-th neighbour, -1 for none.
	via := make([]int32, R*k)
	stamp := make([]int32, R) // stamp[d] == x+1: d is x or x's neighbour, or has its hop from x
	for x := range R {
		stamp[x] = int32(x + 1)
		for _, n := range t.nbr[x*k : (x+1)*k] {
			stamp[n] = int32(x + 1)
		}
		for i, n := range t.nbr[x*k : (x+1)*k] {
			via[x*k+i] = -1
			in := t.P + int(t.back[x*k+i]) // n's port from x
			for _, d := range t.nbr[int(n)*k : (int(n)+1)*k] {
				if stamp[d] == int32(x+1) {
					continue
				}
				stamp[d] = int32(x + 1)
				if via[x*k+i] < 0 {
					via[x*k+i] = d
				}
				if !visit(int(n), in, s.class[designatedClass], 0, int(d)*t.P) {
					return
				}
			}
		}
	}
	if !val {
		return
	}
	for r := range R {
		ns := t.nbr[r*k : (r+1)*k]
		for j, n := range ns {
			in := t.P + j
			other := ns[0]
			if other == n {
				other = ns[1]
			}
			if !visit(r, in, s.class[0], 0, int(other)*t.P) {
				return
			}
			for i, d := range ns {
				if d == n {
					if d = via[r*k+i]; d < 0 {
						continue
					}
				}
				if !visit(r, in, s.class[1], 0, int(d)*t.P) {
					return
				}
			}
		}
	}
}

// NonMinimal is the Slim Fly's routing function of mode m
// (routing.NonMinimalTopology).
func (t *SlimFly) NonMinimal(m routing.NonMinMode, vcs int) routing.Func {
	return newRouting(t, vcs, m)
}

// NonMinimalClasses is the VC classes mode m needs on a Slim Fly.
func (t *SlimFly) NonMinimalClasses(m routing.NonMinMode) int { return classesOf(m) }

// NonMinimalSecondsPerPortPair is the build time of mode m per port
// pair: the state lists visit, per port, a destination per router two
// hops away through it (Valiant's also one per neighbour)
// (TestBuildSecondsEstimate: q = 19, 23 and 29, 2026-12-07).
func (t *SlimFly) NonMinimalSecondsPerPortPair(m routing.NonMinMode) float64 {
	if m == routing.ModeMin {
		return 22e-9
	}
	return 52e-9
}

// NonMinimalFamily is what the Slim Fly offers of the shared non-minimal
// routings: min, val and ugal-l.
func NonMinimalFamily() routing.NonMinimalFamily {
	return routing.NonMinimalFamily{Kind: (&SlimFly{}).Kind(), Modes: []routing.NonMinMode{routing.ModeMin, routing.ModeVAL, routing.ModeUGALL}}
}
