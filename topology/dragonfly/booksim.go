package dragonfly

import (
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
)

// UGAL-L in BookSim2's reading (routing.ModeUGALLBookSim, "ugal-l-booksim":
// ugal_dragonflynew in BookSim2's src/networks/dragonfly.cpp, commit
// 28f43299), for cross-checks of a dragonfly study with the most used
// simulator. It differs from icnsim's UGAL-L (routing.go) in four ways:
//
//   - the intermediate is a node drawn uniformly among all nodes, and
//     Valiant's path goes to that node's router, not only to its group
//     (up to 4 local and 2 global hops); an intermediate in the source
//     group makes the path minimal, with no comparison;
//   - the rule is q_min <= 2*q_nonmin + 30 (ties minimal), whatever the
//     paths' lengths, with BookSim2's hard-coded threshold of 30 flits;
//   - q is the used credits of each path's first output port summed over
//     every VC (routing.Queues.CreditFlitsOn): the flits sent out of it
//     whose credits are not back, not those waiting for it here;
//   - the VCs go by BookSim2's phases, which are the VC classes here (VC
//     v is in class v mod 3). Phase 0 runs to the intermediate router:
//     the non-minimal path's local and global hops into the intermediate
//     group and its local hop there. Phase 1 runs from the intermediate
//     router, or from the source router on a minimal path, and covers the
//     local hops before a global one. A global hop in phase 1 raises the
//     packet to phase 2, which it keeps to its destination. A packet for
//     its own group travels in phase 2.
//
// The decision is taken once, at the source router, when the head arrives
// from its node (BookSim2 takes it when the node injects the head, with
// its lookahead routing). After that a packet's phase is its VC class and
// its intermediate router is its draw's, so it carries no routing state.
//
// Phase 0 carries a packet into the intermediate group and, for a packet
// of that group's own, out of it: a phase-0 local channel leads on to a
// phase-0 global one and a phase-0 global channel to a phase-0 local one,
// a cycle of the channel dependency graph. BookSim2 does not check for
// one. icnsim refuses the routing unless router.allow_deadlock is set, and
// the check prints the cycle.

// bookSimClasses is the number of BookSim2's phases, one VC class each.
const bookSimClasses = 3

// bookSimIntermediate is the router of packet f's intermediate node.
func (d *dragonflyRouting) bookSimIntermediate(f *link.Flit) int {
	t := d.t
	return routing.Pick(routing.Draw(f, routing.SaltFirst), t.P*t.A*t.G) / t.P
}

// bookSimCopy is the copy of the global links packet f takes towards its
// intermediate group.
func (d *dragonflyRouting) bookSimCopy(f *link.Flit) int {
	return routing.Pick(routing.Draw(f, routing.SaltFirst+8), d.copies)
}

// bookSimMinimal fills c with the minimal hop from router r to node dst
// of a packet in phase ph (1 or 2): a global hop in phase 2, a local one
// in ph, the sink on any VC.
func (d *dragonflyRouting) bookSimMinimal(r, ph, dst int, c *routing.Candidates) {
	t := d.t
	p := d.firstHop(r, dst/(t.P*t.A), dst%d.copies, dst)
	switch {
	case p < 0:
		c.Add(routing.Bit(dst%t.P), d.all)
	case t.IsGlobal(p):
		c.Add(routing.Bit(p), d.class[2])
	default:
		c.Add(routing.Bit(p), d.class[ph])
	}
}

// bookSimToward is the first hop, in phase 0, from router r towards
// intermediate router ri over copy cp of the global links: a local hop in
// ri's group, else towards its group. r is not ri.
func (d *dragonflyRouting) bookSimToward(r, ri, cp int) int {
	t := d.t
	if r/t.A == ri/t.A {
		return t.LocalPort(r%t.A, ri%t.A)
	}
	or, op := t.GlobalLink(r/t.A, ri/t.A, cp)
	if or == r {
		return op
	}
	return t.LocalPort(r%t.A, or%t.A)
}

// bookSimChoose is the decision at router r: at the source router,
// BookSim2's rule; after it, the hop of the packet's phase.
func (d *dragonflyRouting) bookSimChoose(r, in int, f *link.Flit, c *routing.Candidates, q routing.Queues) {
	t := d.t
	dst := int(f.Dst)
	if in >= d.lp0 {
		d.bookSimHop(r, routing.VCClass(f.VC, bookSimClasses), f, c)
		return
	}
	G, D := r/t.A, dst/(t.P*t.A)
	if D == G {
		d.bookSimMinimal(r, 2, dst, c)
		return
	}
	ri := d.bookSimIntermediate(f)
	if ri/t.A == G {
		d.bookSimMinimal(r, 1, dst, c)
		return
	}
	pMin, pNon := d.firstHop(r, D, dst%d.copies, dst), d.bookSimToward(r, ri, d.bookSimCopy(f))
	if routing.BookSimUGALMinimal(q.CreditFlitsOn(pMin, d.all), q.CreditFlitsOn(pNon, d.all)) {
		d.bookSimMinimal(r, 1, dst, c)
		return
	}
	c.Add(routing.Bit(pNon), d.class[0])
}

// bookSimHop is the hop at router r of a packet in phase ph that came from
// another router: in phase 0 towards its intermediate router, and from
// there minimal in phase 1; in phases 1 and 2 minimal.
func (d *dragonflyRouting) bookSimHop(r, ph int, f *link.Flit, c *routing.Candidates) {
	dst := int(f.Dst)
	if ph == 0 {
		ri := d.bookSimIntermediate(f)
		if r != ri {
			c.Add(routing.Bit(d.bookSimToward(r, ri, d.bookSimCopy(f))), d.class[0])
			return
		}
		ph = 1
	}
	d.bookSimMinimal(r, ph, dst, c)
}

// bookSimRoute gives, for the deadlock check, every candidate
// bookSimChoose may give, whatever the packet's draw: at the source
// router the minimal hop (phase 1, or 2 within the group) and phase 0 out
// of every other port; a phase-0 packet from a local port may be at the
// gateway of its source group (on out of any global port) or at its
// intermediate router (phase 1 from here); one from a global port may go
// on to any router of the group or be at its intermediate router.
func (d *dragonflyRouting) bookSimRoute(r, in int, f *link.Flit, c *routing.Candidates) {
	t := d.t
	dst := int(f.Dst)
	G, D := r/t.A, dst/(t.P*t.A)
	global := (uint64(1)<<t.H - 1) << d.gp0
	local := (uint64(1)<<(t.A-1) - 1) << d.lp0
	switch ph := routing.VCClass(f.VC, bookSimClasses); {
	case in < d.lp0 && D == G:
		d.bookSimMinimal(r, 2, dst, c)
	case in < d.lp0:
		d.bookSimMinimal(r, 1, dst, c)
		c.Add(global|local, d.class[0])
	case ph != 0:
		d.bookSimMinimal(r, ph, dst, c)
	case t.IsGlobal(in):
		d.bookSimMinimal(r, 1, dst, c)
		c.Add(local, d.class[0])
	default:
		d.bookSimMinimal(r, 1, dst, c)
		c.Add(global, d.class[0])
	}
}

// bookSimListStates lists, per router r, the states a packet can hold on
// arrival from another router under BookSim2's phases (ListStates), as
// bookSimRoute offers them: phase 0 by a local or a global port with a
// destination in every group and at every router of r's group (Route
// cannot tell a packet at its source group's gateway from one at its
// intermediate router, and offers both their hops); phase 1 by a local port, bound out of r's
// global links (owned: a phase-1 local hop ends at the destination's
// router or at the gateway of the minimal path); phase 2 by a global port
// into r's group (arriving; by a local port it is at the destination's
// router, bound for the sink).
func (d *dragonflyRouting) bookSimListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	t := d.t
	for r := 0; r < t.Routers(); r++ {
		l := d.lister(r, visit)
		// A destination in every other group (one per link copy) and at
		// each router of r's group.
		anywhere := l.otherGroups()
		for j := 0; j < t.A; j++ {
			anywhere = append(anywhere, (r/t.A*t.A+j)*t.P)
		}
		if !(l.each(d.lp0, t.A-1, d.class[0], anywhere) && l.each(d.gp0, t.H, d.class[0], anywhere) &&
			l.each(d.lp0, t.A-1, d.class[1], l.owned()) && l.arriving(d.class[2])) {
			return
		}
	}
}
