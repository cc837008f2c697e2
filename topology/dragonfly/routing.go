package dragonfly

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// State lists of the dragonfly and HyperX routings for the channel
// dependency check (routing.StateLister, routing/deadlock): per router, the states a
// packet can hold on arrival from another router, with one destination per
// decision Route can take there, in time linear in the network (a 16,512-
// node dragonfly in about a second). TestStateListsMatchReference compares
// the graphs they build with the reference search's, edge for edge.

// Routing on a dragonfly (Dragonfly): min, val, ugal-l, ugal-g, par, and
// ugal-l-booksim (booksim.go: UGAL-L in BookSim2's reading).
//
// A packet's VC class is the number of global links it has crossed: class
// 0 in its source group, 1 after the first global hop, 2 after the second
// (Valiant's path only), and class 3 for the second local hop in the source
// group of a packet that PAR re-routed there. Along every path the classes
// come in the order 0, 3, 1, 2: a local hop keeps the class (but PAR's
// second local hop, 0 to 3) and a global hop raises it, so no channel
// waits on one of an earlier class, and within a class a local hop is
// followed only by a global hop or the sink: the channel dependency graph
// has no cycle (Kim et al.; Jiang, Kim and Dally, ISCA 2009, for PAR's
// extra class). Minimal routing needs 2 classes, Valiant and UGAL 3, PAR 4.
// VC v belongs to class v mod classes.
//
// The minimal path from group S to group D (S != D) takes the global link
// between them (of several parallel copies, copy dst mod copies), reached
// by a local hop when the source router does not own it, and a local hop
// in D to the destination's router. Valiant's path goes minimally to an
// intermediate group I drawn per packet uniformly among all g groups, then
// minimally to D; when I is S or D the path is minimal (Kim et al.; BookSim2
// draws an intermediate router anywhere and does the same). Packets within
// one group travel by a local hop, or by Valiant's path through I.
//
// UGAL (Singh's universal globally adaptive load balancing, as the
// dragonfly paper applies it) decides at the source router between the
// minimal path and Valiant's path through the packet's draw: minimal when
// q_min*H_min <= q_val*H_val + T, with H the paths' router-to-router hops
// and T the threshold (router.ugal_threshold_flits). A queue q is that of
// an output port as an input-queued router has it (Router.QueueFlitsOn):
// the flits of the packet's VC class sent out of the port whose credits
// are not back, plus the flits waiting in the router's input buffers for
// that port. UGAL-L's q is the first hop's, at the source router. UGAL-G's
// is that of the global link each path takes out of the source group: the
// source router's own when it owns the link, else what that link's router
// published for its group at the end of the previous cycle (GroupBoard: a
// lane of latency one, so the paper's ideal "global" information arrives a
// cycle late). PAR decides as UGAL-L at the source router, and a packet
// sent minimally decides again at the next router of the source group, on
// its own queues and a second draw.
//
// Counting the credits alone, UGAL-G under the worst case reached 0.11
// flits/node/cycle on the 1,056-node dragonfly against Valiant's 0.33: the
// minimal global link is saturated, but its far end drains at once, so its
// credits show only the flits on the wire; with the flits waiting for it,
// UGAL-G reaches 0.33.
type dragonflyRouting struct {
	t       *Dragonfly
	mode    routing.NonMinMode
	classes int
	class   [4]uint64
	all     uint64
	// threshold is UGAL's T in flits.
	threshold int
	// lp0, gp0 are the first local and global ports, copies the parallel
	// global links between two groups.
	lp0, gp0, copies int
	// board is the group board UGAL-G reads (nil for the others); set when
	// the network is wired.
	board *routing.GroupBoard
}

// dragonflyClasses is the number of VC classes mode needs on a dragonfly.
func dragonflyClasses(m routing.NonMinMode) int {
	switch m {
	case routing.ModeMin:
		return 2
	case routing.ModePAR:
		return 4
	case routing.ModeUGALLBookSim:
		return bookSimClasses
	}
	return 3
}

func newDragonflyRouting(t *Dragonfly, vcs int, m routing.NonMinMode) *dragonflyRouting {
	d := &dragonflyRouting{t: t, mode: m, classes: dragonflyClasses(m), all: routing.AllVCs(vcs), threshold: routing.UGALThresholdFlits,
		lp0: t.LocalPort0(), gp0: t.GlobalPort0(), copies: t.Copies()}
	for c := 0; c < d.classes; c++ {
		d.class[c] = routing.ClassMask(vcs, d.classes, c)
	}
	return d
}

// Configure sets UGAL's threshold T (routing.Configurable).
func (d *dragonflyRouting) Configure(p routing.Params) error {
	d.threshold = p.Int("ugal_threshold_flits")
	return nil
}

// arrivalClass is the class of a packet at input port in, holding VC v:
// 0 when it comes from a node.
func (d *dragonflyRouting) arrivalClass(in int, v uint8) int {
	if in < d.lp0 {
		return 0
	}
	return routing.VCClass(v, d.classes)
}

// toward fills c with the hop of a packet of class cls at router r towards
// group target (its destination group when target == dst's group, which
// then takes it to dst), crossing copy cp of the global links.
func (d *dragonflyRouting) toward(r, cls, target, cp, dst int, f *link.Flit, c *routing.Candidates) {
	switch p := d.firstHop(r, target, cp, dst); {
	case p < 0:
		c.Add(routing.Bit(dst%d.t.P), d.all)
	case p >= d.gp0: // a global hop moves the packet up a class
		next := 1
		if cls >= 1 && cls <= 2 {
			next = cls + 1
		}
		c.Add(routing.Bit(p), d.class[next])
	default:
		c.Add(routing.Bit(p), d.class[cls])
	}
}

// intermediate is the intermediate group of packet f by draw salt, and
// whether the path through it is Valiant's (false: I is S or D).
func (d *dragonflyRouting) intermediate(f *link.Flit, salt uint64) (int, bool) {
	t := d.t
	I := routing.Pick(routing.Draw(f, salt), t.G)
	S, D := int(f.Src)/(t.P*t.A), int(f.Dst)/(t.P*t.A)
	return I, I != S && I != D
}

// minimalHop fills c with the hop of a packet whose path is minimal from
// here (under minimal routing, or from class 1 on) and reports it done;
// otherwise it returns the packet's class and fills nothing.
func (d *dragonflyRouting) minimalHop(r, in int, f *link.Flit, c *routing.Candidates) (cls int, done bool) {
	cls = d.arrivalClass(in, f.VC)
	if d.mode != routing.ModeMin && cls != 1 && cls != 2 {
		return cls, false
	}
	dst := int(f.Dst)
	d.toward(r, cls, dst/(d.t.P*d.t.A), dst%d.copies, dst, f, c)
	return cls, true
}

// Route gives, for the deadlock check, every candidate Choose may give.
// Minimal routing is deterministic; for the others a packet of class 0 at
// its source router may go to any router of its group or out of any global
// port, and one of class 0 after a local hop (or of class 3) out of any
// global port, or under PAR also to any other router of the group (class
// 3); from class 1 on the path to the destination is minimal.
func (d *dragonflyRouting) Route(r, in int, f *link.Flit, c *routing.Candidates) {
	if d.mode == routing.ModeUGALLBookSim {
		d.bookSimRoute(r, in, f, c)
		return
	}
	t := d.t
	dst := int(f.Dst)
	cls, done := d.minimalHop(r, in, f, c)
	if done {
		return
	}
	var ports uint64
	if dst/t.P == r {
		ports = routing.Bit(dst % t.P)
	}
	global := (uint64(1)<<t.H - 1) << d.gp0
	local := (uint64(1)<<(t.A-1) - 1) << d.lp0
	if ports != 0 {
		c.Add(ports, d.all)
	}
	c.Add(global, d.class[1])
	switch {
	case in < d.lp0:
		c.Add(local, d.class[0])
	case cls == 0 && d.mode == routing.ModePAR:
		c.Add(local, d.class[3])
	}
}

// Choose is the decision itself.
func (d *dragonflyRouting) Choose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues, now clock.Cycle) {
	if d.mode == routing.ModeUGALLBookSim {
		d.bookSimChoose(r, in, f, c, q)
		return
	}
	t := d.t
	dst := int(f.Dst)
	D := dst / (t.P * t.A)
	cls, done := d.minimalHop(r, in, f, c)
	if done {
		return
	}
	if in < d.lp0 {
		// The source router decides.
		f.Route = 0
		if I, val := d.intermediate(f, routing.SaltFirst); val && (d.mode == routing.ModeVAL || !d.minimalByQueues(r, f, I, routing.SaltFirst, dst, q, now)) {
			f.Route = routing.RouteNonMin
		}
	} else if cls == 0 && d.mode == routing.ModePAR && f.Route == 0 && D != r/t.A {
		// PAR: the next router of the source group decides again.
		if I, val := d.intermediate(f, routing.SaltSecond); val && !d.minimalByQueues(r, f, I, routing.SaltSecond, dst, q, now) {
			f.Route = routing.RouteNonMin | routing.RouteSecond
			d.towardReRouted(r, I, f, c)
			return
		}
	}
	if f.Route&routing.RouteNonMin == 0 {
		d.toward(r, 0, D, dst%d.copies, dst, f, c)
		return
	}
	salt := uint64(routing.SaltFirst)
	if f.Route&routing.RouteSecond != 0 {
		salt = routing.SaltSecond
	}
	I, _ := d.intermediate(f, salt)
	d.toward(r, 0, I, routing.Pick(routing.Draw(f, salt+8), d.copies), dst, f, c)
}

// towardReRouted is the first hop of a packet PAR re-routed at router r
// to intermediate group I: out of r's global link to I, or a local hop of
// class 3 to the router that owns it.
func (d *dragonflyRouting) towardReRouted(r, I int, f *link.Flit, c *routing.Candidates) {
	t := d.t
	or, op := t.GlobalLink(r/t.A, I, routing.Pick(routing.Draw(f, routing.SaltSecond+8), d.copies))
	if or == r {
		c.Add(routing.Bit(op), d.class[1])
		return
	}
	c.Add(routing.Bit(t.LocalPort(r%t.A, or%t.A)), d.class[3])
}

// firstHop is the output port of the first hop from router r towards group
// target (copy cp), dst's router when target is dst's group; -1 when dst
// is at r.
func (d *dragonflyRouting) firstHop(r, target, cp, dst int) int {
	t := d.t
	G := r / t.A
	if G == target {
		dr := dst / t.P
		if dr == r {
			return -1
		}
		return t.LocalPort(r%t.A, dr%t.A)
	}
	or, op := t.GlobalLink(G, target, cp)
	if or == r {
		return op
	}
	return t.LocalPort(r%t.A, or%t.A)
}

// hopsVia is the number of router-to-router hops from router r through
// group I (I may be r's group or dst's: the minimal path) to node dst,
// with the copies of the global links the packet would take.
func (d *dragonflyRouting) hopsVia(r, I, cpI, dst int) int {
	t := d.t
	G, D := r/t.A, dst/(t.P*t.A)
	h := 0
	at := r // the router the packet is at
	hop := func(target, cp int) {
		or, _ := t.GlobalLink(at/t.A, target, cp)
		if or != at {
			h++ // the local hop to the link's router
		}
		h++
		at = d.entry(at/t.A, target, cp)
	}
	if I != G && I != D {
		hop(I, cpI)
	}
	if at/t.A != D {
		hop(D, dst%d.copies)
	}
	if dst/t.P != at {
		h++
	}
	return h
}

// hopVCs is the VC class a packet deciding at router r in its source
// group takes out of port p: class 1 out of a global port, class 0 out of
// a local one at the source router, PAR's class 3 at the next router.
func (d *dragonflyRouting) hopVCs(r, p, src int) uint64 {
	switch {
	case d.t.IsGlobal(p):
		return d.class[1]
	case d.mode == routing.ModePAR && r != src/d.t.P:
		return d.class[3]
	}
	return d.class[0]
}

// entry is the router of group to at which the global link copy cp from
// group from arrives.
func (d *dragonflyRouting) entry(from, to, cp int) int {
	or, op := d.t.GlobalLink(from, to, cp)
	return d.t.Peer(or, op).Router
}

// minimalByQueues is UGAL's rule at router r for packet f between the
// minimal path and Valiant's through group I.
func (d *dragonflyRouting) minimalByQueues(r int, f *link.Flit, I int, salt uint64, dst int, q routing.Queues, now clock.Cycle) bool {
	t := d.t
	D := dst / (t.P * t.A)
	cpI := routing.Pick(routing.Draw(f, salt+8), d.copies)
	hMin, hNon := d.hopsVia(r, D, 0, dst), d.hopsVia(r, I, cpI, dst)
	var qMin, qNon int
	if d.mode == routing.ModeUGALG && d.board != nil {
		qMin, qNon = d.globalQueue(r, D, dst%d.copies, dst, q, now, int(f.Src)), d.globalQueue(r, I, cpI, dst, q, now, int(f.Src))
	} else {
		pMin, pNon := d.firstHop(r, D, dst%d.copies, dst), d.firstHop(r, I, cpI, dst)
		if pMin < 0 {
			return true
		}
		qMin, qNon = q.QueueFlitsOn(pMin, d.hopVCs(r, pMin, int(f.Src))), q.QueueFlitsOn(pNon, d.hopVCs(r, pNon, int(f.Src)))
	}
	return routing.UGALMinimal(qMin, hMin, qNon, hNon, d.threshold)
}

// globalQueue is UGAL-G's estimate for the path out of r's group towards
// group target: the occupancy of that global link, from r's own credits
// when r owns it, else from the group board (a cycle old); for a target
// in r's own group, the first hop's local queue.
func (d *dragonflyRouting) globalQueue(r, target, cp, dst int, q routing.Queues, now clock.Cycle, src int) int {
	t := d.t
	G := r / t.A
	if G == target {
		if p := d.firstHop(r, target, cp, dst); p >= 0 {
			return q.QueueFlitsOn(p, d.hopVCs(r, p, src))
		}
		return 0
	}
	or, op := t.GlobalLink(G, target, cp)
	if or == r {
		return q.QueueFlitsOn(op, d.class[1])
	}
	return d.board.Read(or, op-d.gp0, now)
}

func (d *dragonflyRouting) InjectVCs(int, int) uint64 { return d.all }

// Hops is the minimal path's router-to-router hops.
func (d *dragonflyRouting) Hops(src, dst int) int {
	t := d.t
	return d.hopsVia(src/t.P, dst/(t.P*t.A), 0, dst)
}

// UseBoard makes UGAL-G's group board (BoardUser).
func (d *dragonflyRouting) UseBoard() (*routing.GroupBoard, int, uint64) {
	if d.mode != routing.ModeUGALG {
		return nil, 0, 0
	}
	d.board = routing.NewGroupBoard(d.t.Routers(), d.t.H)
	return d.board, d.gp0, d.class[1] // a packet leaves its source group in class 1
}

// VCClasses: Route reads a packet's VC only through its class (routing.VCClassed).
func (d *dragonflyRouting) VCClasses() int { return d.classes }

// ListStates of a dragonfly. With the classes of dragonfly.go, a packet
// arriving from a router is, by class and input port:
//
//   - class 0 (or PAR's 3) by a local port, in its source group: minimal
//     routing takes it out of this router's global link to its destination
//     group (the destinations whose link copy this router owns); the others'
//     Route offers every global port (and PAR's local ports), whatever the
//     destination;
//   - class 1 by a global port: minimal routing has reached the destination
//     group (any destination in it); Valiant's path may also be at its
//     intermediate, bound for any other group;
//   - class 1 by a local port: at the router owning the link to the
//     destination group (Valiant's path), or at the destination's router
//     (to the sink: no dependency);
//   - class 2 by a global port: in the destination group, any destination
//     in it; by a local port, at the destination's router.
func (d *dragonflyRouting) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	if d.mode == routing.ModeUGALLBookSim {
		d.bookSimListStates(visit)
		return
	}
	t := d.t
	PA := t.P * t.A
	for r := 0; r < t.Routers(); r++ {
		G := r / t.A
		l := d.lister(r, visit)
		owned, each, arriving := l.owned(), l.each, l.arriving
		lp, gp := d.lp0, d.gp0
		if d.mode == routing.ModeMin {
			if !each(lp, t.A-1, d.class[0], owned) || !arriving(d.class[1]) {
				return
			}
			continue
		}
		anyGroup := l.otherGroups()
		other := []int{(G + 1) % t.G * PA}
		ok := each(lp, t.A-1, d.class[0], other) &&
			arriving(d.class[1]) && each(gp, t.H, d.class[1], anyGroup) &&
			each(lp, t.A-1, d.class[1], owned) &&
			arriving(d.class[2])
		if ok && d.mode == routing.ModePAR {
			ok = each(lp, t.A-1, d.class[3], other)
		}
		if !ok {
			return
		}
	}
}

// stateLister visits the states of router r that every mode's list
// shares (ListStates, bookSimListStates).
type stateLister struct {
	d     *dragonflyRouting
	r     int
	visit func(r, in int, vcMask uint64, route uint8, dst int) bool
}

func (d *dragonflyRouting) lister(r int, visit func(r, in int, vcMask uint64, route uint8, dst int) bool) stateLister {
	return stateLister{d: d, r: r, visit: visit}
}

// owned lists the destinations whose minimal path leaves r's group by one
// of r's global links (one per link copy used).
func (l stateLister) owned() []int {
	d, t, r := l.d, l.d.t, l.r
	PA := t.P * t.A
	var owned []int
	for m := 0; m < t.H; m++ {
		T := t.GlobalTarget(r, d.gp0+m)
		for j := range min(d.copies, PA) {
			dst := T*PA + j
			if or, op := t.GlobalLink(r/t.A, T, dst%d.copies); or == r && op == d.gp0+m {
				owned = append(owned, dst)
			}
		}
	}
	return owned
}

// otherGroups lists a destination in every group but r's, one per link
// copy used.
func (l stateLister) otherGroups() []int {
	t := l.d.t
	PA := t.P * t.A
	var dsts []int
	for D := 0; D < t.G; D++ {
		for j := 0; j < min(l.d.copies, PA) && D != l.r/t.A; j++ {
			dsts = append(dsts, D*PA+j)
		}
	}
	return dsts
}

// each visits the n input ports from first holding a VC of mask, for
// every destination of dsts; false: the visit stopped.
func (l stateLister) each(first, n int, mask uint64, dsts []int) bool {
	for in := first; in < first+n; in++ {
		for _, dst := range dsts {
			if !l.visit(l.r, in, mask, 0, dst) {
				return false
			}
		}
	}
	return true
}

// arriving visits, for each global port of r, a destination at each
// router of r's group among those whose minimal path from the port's far
// group arrives by it (its link copy).
func (l stateLister) arriving(mask uint64) bool {
	d, t, r := l.d, l.d.t, l.r
	G := r / t.A
	for in := d.gp0; in < d.gp0+t.H; in++ {
		far := t.Peer(r, in)
		from := far.Router / t.A
		for j := 0; j < t.A; j++ {
			for k := 0; k < min(t.P, d.copies); k++ {
				dst := (G*t.A+j)*t.P + k
				if or, op := t.GlobalLink(from, G, dst%d.copies); or != far.Router || op != far.Port {
					continue
				}
				if !l.visit(r, in, mask, 0, dst) {
					return false
				}
			}
		}
	}
	return true
}

// NonMinimal is the dragonfly's routing function of mode m
// (routing.NonMinimalTopology).
func (t *Dragonfly) NonMinimal(m routing.NonMinMode, vcs int) routing.Func {
	return newDragonflyRouting(t, vcs, m)
}

// NonMinimalClasses is the VC classes mode m needs on a dragonfly.
func (t *Dragonfly) NonMinimalClasses(m routing.NonMinMode) int { return dragonflyClasses(m) }

// NonMinimalSecondsPerPortPair is the build time of mode m per port pair:
// Valiant's classes give the check three times the minimal's states.
func (t *Dragonfly) NonMinimalSecondsPerPortPair(m routing.NonMinMode) float64 {
	if m == routing.ModeMin {
		return 16e-9
	}
	return 47e-9
}

// NonMinimalFamily is what the dragonfly offers of the shared non-minimal
// routings: every mode (the catalog's registry).
func NonMinimalFamily() routing.NonMinimalFamily {
	return routing.NonMinimalFamily{Kind: (&Dragonfly{}).Kind(), Modes: []routing.NonMinMode{
		routing.ModeMin, routing.ModeVAL, routing.ModeUGALL, routing.ModeUGALG, routing.ModePAR, routing.ModeUGALLBookSim}}
}
