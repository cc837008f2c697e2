package router

import "github.com/icnsim/icnsim/routing"

// State lists of the dragonfly and HyperX routings for the channel
// dependency check (routing.StateLister, cdgstates.go): per router, the states a
// packet can hold on arrival from another router, with one destination per
// decision Route can take there, in time linear in the network (a 16,512-
// node dragonfly in about a second). TestStateListsMatchReference compares
// the graphs they build with the reference search's, edge for edge.

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
	t := d.t
	PA := t.P * t.A
	reps := min(d.copies, PA) // destinations per group, one per link copy used
	for r := 0; r < t.Routers(); r++ {
		G := r / t.A
		// owned lists the destinations whose minimal path leaves G by one
		// of r's global links, and atRouters a destination at each router
		// of G.
		var owned []int
		for m := 0; m < t.H; m++ {
			T := t.GlobalTarget(r, d.gp0+m)
			for j := range reps {
				dst := T*PA + j
				if or, op := t.GlobalLink(G, T, dst%d.copies); or == r && op == d.gp0+m {
					owned = append(owned, dst)
				}
			}
		}
		each := func(first, n int, mask uint64, dsts []int) bool {
			for in := first; in < first+n; in++ {
				for _, dst := range dsts {
					if !visit(r, in, mask, 0, dst) {
						return false
					}
				}
			}
			return true
		}
		// arriving visits, for each global port, a destination at each
		// router of G among those whose minimal path from the port's far
		// group arrives by it (its link copy).
		arriving := func(mask uint64) bool {
			for in := d.gp0; in < d.gp0+t.H; in++ {
				far := t.Peer(r, in)
				from := far.Router / t.A
				for j := 0; j < t.A; j++ {
					for k := 0; k < min(t.P, d.copies); k++ {
						dst := (G*t.A+j)*t.P + k
						if or, op := t.GlobalLink(from, G, dst%d.copies); or != far.Router || op != far.Port {
							continue
						}
						if !visit(r, in, mask, 0, dst) {
							return false
						}
					}
				}
			}
			return true
		}
		lp, gp := d.lp0, d.gp0
		if d.mode == routing.ModeMin {
			if !each(lp, t.A-1, d.class[0], owned) || !arriving(d.class[1]) {
				return
			}
			continue
		}
		var anyGroup []int // a destination in every group but G, one per link copy
		for D := 0; D < t.G; D++ {
			for j := 0; j < reps && D != G; j++ {
				anyGroup = append(anyGroup, D*PA+j)
			}
		}
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
