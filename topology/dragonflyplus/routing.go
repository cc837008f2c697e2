package dragonflyplus

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// Routing on a Dragonfly+ (DragonflyPlus): min, val, ugal-l.
//
// The minimal path from a leaf to another leaf of its group goes up to
// spine dst mod S and down; to a leaf of group D != G, up to the spine
// that owns the global link to D (of several parallel copies, copy dst
// mod copies), across it, and down from the spine it arrives at: 3 hops.
// Its channels depend on each other only as up -> down, up -> global ->
// down: no cycle, so minimal routing needs one VC class (the check
// proves it on every network built).
//
// Valiant's path goes minimally to an intermediate leaf, drawn per packet
// uniformly among the leaves of an intermediate group I drawn uniformly
// among the g groups, then minimally to the destination: up, global,
// down, up, global, down, 6 hops; when I is the source's group or the
// destination's, the path is minimal (as on a dragonfly). A packet's VC
// class is the number of global links it has crossed, the global hop
// itself counted: 0 in its source group, 1 in the intermediate group, 2
// in the destination's. Within class 0 the channels go up -> down or up
// -> (global, class 1); within class 1 global -> down -> up -> (global,
// class 2), or global -> down to the sink; within class 2 global -> down:
// no cycle with 3 classes.
//
// UGAL-L decides at the source leaf between the minimal path and
// Valiant's: minimal when q_min*H_min <= q_val*H_val + T, q the occupancy
// of each path's first hop (an up port, the packet's class-0 VCs), H the
// paths' hops (2 or 3 against 6) and T router.ugal_threshold_flits.
type dfpRouting struct {
	t         *DragonflyPlus
	mode      routing.NonMinMode
	classes   int
	class     [3]uint64
	all       uint64
	threshold int
	copies    int
}

// classesOf is the number of VC classes mode needs on a Dragonfly+.
func classesOf(m routing.NonMinMode) int {
	if m == routing.ModeMin {
		return 1
	}
	return 3
}

func newRouting(t *DragonflyPlus, vcs int, m routing.NonMinMode) *dfpRouting {
	d := &dfpRouting{t: t, mode: m, classes: classesOf(m), all: routing.AllVCs(vcs), threshold: routing.UGALThresholdFlits, copies: t.Copies()}
	for c := 0; c < d.classes; c++ {
		d.class[c] = routing.ClassMask(vcs, d.classes, c)
	}
	return d
}

// Configure sets UGAL's threshold T (routing.Configurable).
func (d *dfpRouting) Configure(p routing.Params) error {
	d.threshold = p.Int("ugal_threshold_flits")
	return nil
}

// classAfter is the class of a packet of class cls after a global hop.
func (d *dfpRouting) classAfter(cls int) int { return min(cls+1, d.classes-1) }

// arrivalClass is the class of a packet at input port in of router r
// holding VC v: 0 from a node.
func (d *dfpRouting) arrivalClass(r, in int, v uint8) int {
	if d.t.IsLeaf(r) && in < d.t.P {
		return 0
	}
	return routing.VCClass(v, d.classes)
}

// draws are a packet's intermediate group, leaf of it and copy of the
// global link to it, and whether its path goes by them (false: I is the
// source's group or the destination's).
func (d *dfpRouting) draws(f *link.Flit) (I, leaf, cp int, val bool) {
	t := d.t
	I = routing.Pick(routing.Draw(f, routing.SaltFirst), t.G)
	leaf = routing.Pick(routing.Draw(f, routing.SaltFirst+8), t.L)
	cp = routing.Pick(routing.Draw(f, routing.SaltFirst+16), d.copies)
	S, D := int(f.Src)/(t.P*t.L), int(f.Dst)/(t.P*t.L)
	return I, leaf, cp, I != S && I != D
}

// minimalUp is the up port of leaf r's minimal path to node dst (not on
// r).
func (d *dfpRouting) minimalUp(r, dst int) int {
	t := d.t
	G, D := t.Group(r), dst/(t.P*t.L)
	if G == D {
		return t.P + dst%t.S
	}
	j, _ := t.GlobalLink(G, D, dst%d.copies)
	return t.P + j
}

// toward fills c with the hop of a packet of class cls at router r bound
// for leaf l of group target by copy cp of the global link to it (its
// destination's leaf when it is dst's, which then takes it to dst).
func (d *dfpRouting) toward(r, cls, target, l, cp, dst int, c *routing.Candidates) {
	t := d.t
	G := t.Group(r)
	if t.IsLeaf(r) {
		switch {
		case r == t.Leaf(target, l):
			c.Add(routing.Bit(dst%t.P), d.all)
		case G == target:
			c.Add(routing.Bit(t.P+dst%t.S), d.class[cls])
		default:
			j, _ := t.GlobalLink(G, target, cp)
			c.Add(routing.Bit(t.P+j), d.class[cls])
		}
		return
	}
	if G == target {
		c.Add(routing.Bit(l), d.class[cls])
		return
	}
	_, p := t.GlobalLink(G, target, cp)
	c.Add(routing.Bit(p), d.class[d.classAfter(cls)])
}

// Choose is the decision itself.
func (d *dfpRouting) Choose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues, _ clock.Cycle) {
	t := d.t
	dst := int(f.Dst)
	D, dl := dst/(t.P*t.L), dst/t.P%t.L
	cls := d.arrivalClass(r, in, f.VC)
	leaf := t.IsLeaf(r)
	if d.mode != routing.ModeMin && cls <= 1 {
		if leaf && in < t.P {
			// The source leaf decides.
			f.Route = 0
			if I, _, cp, val := d.draws(f); val && r != t.Leaf(D, dl) && (d.mode == routing.ModeVAL || !d.minimalByQueues(r, f, I, cp, q)) {
				f.Route = routing.RouteNonMin
			}
		}
		if f.Route&routing.RouteNonMin != 0 {
			switch {
			case cls == 0: // to the intermediate group
				I, l, cp, _ := d.draws(f)
				d.toward(r, 0, I, l, cp, dst, c)
				return
			case !leaf && in >= t.L: // arrived there: down to the drawn leaf
				_, l, _, _ := d.draws(f)
				c.Add(routing.Bit(l), d.class[1])
				return
			}
		}
	}
	d.toward(r, cls, D, dl, dst%d.copies, dst, c)
}

// minimalByQueues is UGAL-L's rule at source leaf r for packet f, whose
// Valiant path leaves by copy cp of the global link to group I.
func (d *dfpRouting) minimalByQueues(r int, f *link.Flit, I, cp int, q routing.Queues) bool {
	t := d.t
	j, _ := t.GlobalLink(t.Group(r), I, cp)
	dst := int(f.Dst)
	qMin, qVal := q.QueueFlitsOn(d.minimalUp(r, dst), d.class[0]), q.QueueFlitsOn(t.P+j, d.class[0])
	return routing.UGALMinimal(qMin, d.Hops(int(f.Src), dst), qVal, 6, d.threshold)
}

// Route gives, for the deadlock check, every candidate Choose may give,
// whatever the packet's draws: exactly those of minimal routing; for the
// others, at the source leaf also every up port to a spine with a global
// link to a group other than the source's and the destination's (to an
// intermediate), at a spine of the source group every such global port,
// at a spine of an intermediate group every down port (to the drawn
// leaf).
func (d *dfpRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	t := d.t
	dst := int(f.Dst)
	G, D, dl := t.Group(r), dst/(t.P*t.L), dst/t.P%t.L
	cls := d.arrivalClass(r, in, f.VC)
	if d.mode == routing.ModeMin {
		d.toward(r, 0, D, dl, dst%d.copies, dst, c)
		return
	}
	leaf := t.IsLeaf(r)
	switch {
	case leaf && r == t.Leaf(D, dl):
		c.Add(routing.Bit(dst%t.P), d.all)
	case leaf && in < t.P: // the source leaf
		ports := routing.Bit(d.minimalUp(r, dst))
		for j := range t.S {
			if d.linksElsewhere(t.Spine(G, j), D) != 0 {
				ports |= routing.Bit(t.P + j)
			}
		}
		c.Add(ports, d.class[0])
	case leaf: // a leaf of an intermediate group, class 1
		if cls == 1 && G != D {
			d.toward(r, 1, D, dl, dst%d.copies, dst, c)
		}
	case in < t.L && cls == 0: // a spine of the source group
		if G == D {
			c.Add(routing.Bit(dl), d.class[0])
		} else if j, p := t.GlobalLink(G, D, dst%d.copies); t.Spine(G, j) == r {
			c.Add(routing.Bit(p), d.class[1])
		}
		c.Add(d.linksElsewhere(r, D), d.class[1])
	case in < t.L: // up from an intermediate leaf, class 1
		if j, p := t.GlobalLink(G, D, dst%d.copies); cls == 1 && G != D && t.Spine(G, j) == r {
			c.Add(routing.Bit(p), d.class[2])
		}
	case G == D: // down to the destination
		c.Add(routing.Bit(dl), d.class[cls])
	case cls == 1: // at an intermediate group: down to the drawn leaf
		c.Add((uint64(1)<<t.L - 1), d.class[1])
	}
}

// linksElsewhere is the set of global ports of spine r leading to a
// group other than r's and D (an intermediate group of a packet bound
// for D).
func (d *dfpRouting) linksElsewhere(r, D int) uint64 {
	t := d.t
	return (uint64(1)<<t.H - 1) << t.L &^ t.portsTo(r, D)
}

func (d *dfpRouting) InjectVCs(int, int) uint64 { return d.all }

// Hops is the minimal path's router-to-router hops: 0 on one leaf, 2
// within a group, 3 between groups.
func (d *dfpRouting) Hops(src, dst int) int {
	t := d.t
	switch {
	case src/t.P == dst/t.P:
		return 0
	case src/(t.P*t.L) == dst/(t.P*t.L):
		return 2
	}
	return 3
}

// VCClasses: Route reads a packet's VC only through its class (routing.VCClassed).
func (d *dfpRouting) VCClasses() int { return d.classes }

// NonMinimal is the Dragonfly+'s routing function of mode m
// (routing.NonMinimalTopology).
func (t *DragonflyPlus) NonMinimal(m routing.NonMinMode, vcs int) routing.Func {
	return newRouting(t, vcs, m)
}

// NonMinimalClasses is the VC classes mode m needs on a Dragonfly+.
func (t *DragonflyPlus) NonMinimalClasses(m routing.NonMinMode) int { return classesOf(m) }

// NonMinimalSecondsPerPortPair is the build time of mode m per port
// pair: the state lists visit, per port, states in proportion to the
// radix (a destination per leaf, per global link, per spine), Valiant's
// in three classes (TestBuildSecondsEstimate: balanced networks of 10,
// 12 and 14 leaves a group, 2026-12-07).
func (t *DragonflyPlus) NonMinimalSecondsPerPortPair(m routing.NonMinMode) float64 {
	if m == routing.ModeMin {
		return 16e-9
	}
	return 38e-9
}

// NonMinimalFamily is what the Dragonfly+ offers of the shared non-minimal
// routings: min, val and ugal-l.
func NonMinimalFamily() routing.NonMinimalFamily {
	return routing.NonMinimalFamily{Kind: (&DragonflyPlus{}).Kind(), Modes: []routing.NonMinMode{routing.ModeMin, routing.ModeVAL, routing.ModeUGALL}}
}

// ListStates of a Dragonfly+ (routing.StateLister): per router, the
// states a packet can hold on arrival from another router, with one
// destination per decision Route takes there, as the reference search
// over every destination reaches them (TestStateListsMatchReference holds
// the two graphs equal, edge for edge). Only states with a hop to another
// router are listed (a packet at its destination's leaf leaves the
// network).
//
// Under minimal routing a spine holds, from a leaf, packets bound for
// another leaf of its group by it (dst mod S) or for another group by
// its global links, and from a global link those of its group that the
// link's copy carries. Under Valiant and UGAL-L (Route's candidates, by
// class):
//
//   - a spine of the source group, from a leaf, class 0: any destination
//     not on that leaf (to the intermediate through any global link to a
//     group other than the destination's);
//   - a spine, from a global link, class 1: a destination in its group
//     carried by that copy (minimal), or any other (at an intermediate
//     group, down to the drawn leaf), and class 2: one in its group carried
//     by that copy (from the intermediate);
//   - a leaf, from a spine, class 1, and the spine that owns the link
//     onwards, from a leaf, class 1: a destination in another group (at
//     the intermediate group, on its way to the destination's).
//
// Valiant reaches an intermediate group G from group E for a destination
// in D != G when D != E, or when the destination's group sent it (E = D),
// which needs a leaf other than the destination's (L >= 2).
func (d *dfpRouting) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	t := d.t
	PL := t.P * t.L
	// withCopy is a node of group D on leaf l (-1: any leaf) carried by
	// copy c of the global links (dst mod copies = c), -1 for none.
	withCopy := func(D, l, c int) int {
		first, n := D*PL, PL
		if l >= 0 {
			first, n = (D*t.L+l)*t.P, t.P
		}
		for dst := first; dst < first+min(n, d.copies); dst++ {
			if dst%d.copies == c {
				return dst
			}
		}
		return -1
	}
	// fromElsewhere reports whether spine r has a global link from a group
	// that sends a Valiant packet bound for group D through r's group:
	// with two leaves any group does (its own packets, from a leaf other
	// than the destination's), with one a group other than D.
	fromElsewhere := func(r, D int) bool {
		return t.L >= 2 || t.portsTo(r, D) != (uint64(1)<<t.H-1)<<t.L
	}
	// Some spine of a group passes Valiant packets bound for any other
	// group D: only with one leaf and two groups does none.
	reachedVia := t.L >= 2 || t.G >= 3
	val := d.mode != routing.ModeMin
	for G := range t.G {
		for j := range t.S {
			r := t.Spine(G, j)
			// From a leaf l: a packet from a node of l.
			for l := range t.L {
				for l2 := range t.L {
					if l2 == l {
						continue
					}
					// Bound for leaf l2 of this group: minimally by spine
					// dst mod S; Valiant's by any spine.
					dst := (G*t.L + l2) * t.P
					for ; !val && dst%t.S != j && dst < (G*t.L+l2+1)*t.P; dst++ {
					}
					if dst < (G*t.L+l2+1)*t.P && !visit(r, l, d.class[0], 0, dst) {
						return
					}
				}
				// Bound for another group: a group this spine's links
				// reach, each copy (the link of its minimal path, or
				// another to an intermediate), and, for Valiant, a group
				// they do not reach (every link to an intermediate).
				other := val
				for p := t.L; p < t.L+t.H; p++ {
					T, cp := t.GlobalTarget(r, p)
					for c := range d.copies {
						dst := withCopy(T, -1, c)
						if dst < 0 || c != cp && !val {
							continue
						}
						if !visit(r, l, d.class[0], 0, dst) {
							return
						}
						if val && c == cp && reachedVia && !visit(r, l, d.class[1], 0, dst) {
							return
						}
					}
				}
				for D := 0; other && D < t.G; D++ {
					if D != G && t.portsTo(r, D) == 0 {
						if !visit(r, l, d.class[0], 0, D*PL) {
							return
						}
						other = false
					}
				}
			}
			// From a global link from group F, copy c.
			for p := t.L; p < t.L+t.H; p++ {
				F, c := t.GlobalTarget(r, p)
				for l := range t.L {
					dst := withCopy(G, l, c)
					if dst < 0 {
						continue
					}
					if !visit(r, p, d.class[d.classAfter(0)], 0, dst) {
						return
					}
					if val && reachedVia && !visit(r, p, d.class[2], 0, dst) {
						return
					}
				}
				for D := 0; val && D < t.G; D++ {
					if D != G && (D != F || t.L >= 2) {
						if !visit(r, p, d.class[1], 0, D*PL) {
							return
						}
						break
					}
				}
			}
		}
		if !val {
			continue
		}
		// A leaf of an intermediate group, from spine x, class 1: bound
		// for another group by the link of one spine; a destination per
		// spine.
		for l := range t.L {
			r := t.Leaf(G, l)
			for x := range t.S {
				for j := range t.S {
					owner := t.Spine(G, j)
					for p := t.L; p < t.L+t.H; p++ {
						T, c := t.GlobalTarget(owner, p)
						if dst := withCopy(T, -1, c); dst >= 0 && fromElsewhere(t.Spine(G, x), T) {
							if !visit(r, t.P+x, d.class[1], 0, dst) {
								return
							}
							break
						}
					}
				}
			}
		}
	}
}
