package router

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// Non-minimal routing: Valiant, UGAL and PAR on dragonflies and HyperX
// (dragonfly.go, hyperx.go).
//
// These functions decide with more than the deadlock check's state (router,
// input port, VC, Flit.Route, destination): with the packet's own random
// draw of an intermediate (Valiant) and with the deciding router's output
// queues (UGAL, PAR). They implement Chooser: the router calls Choose, and
// Route gives the union of every candidate Choose can give in that state,
// which is what the channel dependency check enumerates. So the check
// proves the VC classes deadlock free for every draw and every queue state
// at once.
//
// The draw is a hash of the packet's source, sequence number and a salt
// (one draw per decision that needs one): a pure function of the packet,
// the same at every hop and under every executor, so a run stays a
// function of its configuration and seed, and no routing state beyond a
// decision bit or two rides in Flit.Route.

var _ routing.Queues = (*Router)(nil)

// QueueFlits is QueueFlitsOn over every VC: the flits sent out of port p
// whose credits have not come back (downstream, on the wire, or in the
// output queue of internal speedup) and the flits waiting in this router's
// input buffers for p.
func (r *Router) QueueFlits(p int) int { return r.QueueFlitsOn(p, ^uint64(0)) }

// QueueFlitsOn is the queue a packet of the VC class vcs joins at output
// port p: the flits of that class sent out of p whose credits have not come
// back (downstream and on the wire), and the flits waiting in this router's
// input buffers for p (their packet holds an output VC of p, or was routed
// to p alone and waits for one). In an input-queued router the output
// queue UGAL reads is made of both: with only the credits, a saturated
// link whose far end drains at once looks nearly empty.
func (r *Router) QueueFlitsOn(p int, vcs uint64) int {
	return r.creditsOutOn(p, vcs) + r.waitingFor(p)
}

// creditsOutOn is the flits of VCs vcs sent out of port p whose credits
// have not come back.
func (r *Router) creditsOutOn(p int, vcs uint64) int {
	V := int(r.vcs)
	q := 0
	for v, o := range r.outs[p*V : (p+1)*V] {
		q += int(vcs>>(v&63)&1) * (int(r.sh.depth) - int(o.credits))
	}
	return q
}

// waitingFor is the number of flits in this router's input buffers whose
// front packet holds an output VC of port p, or was routed to p alone.
func (r *Router) waitingFor(p int) int {
	if r.buffered == 0 {
		return 0
	}
	n := 0
	for i := range r.ivc {
		if q, ok := r.waitsFor(i); ok && q == p {
			n += int(r.ivc[i].flits)
		}
	}
	return n
}

// waitingPerPort adds to w[p], for every port p, waitingFor(p), in one
// pass over the input buffers.
func (r *Router) waitingPerPort(w *[64]int32) {
	if r.buffered == 0 {
		return
	}
	for i := range r.ivc {
		if q, ok := r.waitsFor(i); ok {
			w[q&63] += int32(r.ivc[i].flits)
		}
	}
}

// waitsFor is the output port the flits of input VC i wait for: the port
// of the output VC its front packet holds, or the one port it was routed
// to; ok is false for an empty VC and a head offered several ports.
func (r *Router) waitsFor(i int) (p int, ok bool) {
	s := &r.ivc[i]
	switch {
	case s.flits == 0:
	case s.state == vcActive:
		return int(s.outPort), true
	case s.state == vcRouted:
		if m := r.cands[s.cand].Ports(); m&(m-1) == 0 && m != 0 {
			return bits.TrailingZeros64(m), true
		}
	}
	return 0, false
}

// nonMinSpecs registers the dragonfly and HyperX routings.
func nonMinSpecs() []routing.Spec {
	docs := [...]string{
		"minimal: on a dragonfly local, global, local hops (VC class = global hops taken, 2 classes); on a HyperX dimension order, any trunk (1 class)",
		"Valiant: to an intermediate drawn per packet (a group of a dragonfly, a router of a HyperX), minimally, then minimally to the destination; dragonfly 3 VC classes (global hops taken), HyperX 2 (before and after the intermediate)",
		"UGAL-L: at the source router, minimal when q_min*H_min <= q_val*H_val + threshold, else Valiant; q is the occupancy of the first hop's output port (credits), H the path's hops; Valiant's VC classes",
		"UGAL-G (dragonfly): UGAL with global queue estimates, the occupancy of the global link each path takes out of the source group (as its router published it one cycle earlier); Valiant's VC classes",
		"PAR (progressive adaptive routing, dragonfly): UGAL-L at the source router, and a packet sent minimally decides again, by the same rule, at the next router of its source group; 4 VC classes (the second local hop of a re-routed packet has its own)",
	}
	var specs []routing.Spec
	for m := routing.ModeMin; m <= routing.ModePAR; m++ {
		spec := routing.Spec{Name: m.String(), Doc: docs[m], Topologies: []string{"dragonfly", "hyperx"}, MinVCs: dragonflyClasses(m)}
		if m >= routing.ModeUGALG {
			spec.Topologies = []string{"dragonfly"}
		}
		mode := m
		spec.MinVCsOn = func(t topology.Topology) int { return nonMinMinVCs(mode, t.Kind()) }
		if m > routing.ModeMin {
			spec.ClassVCs = func(t topology.Topology, vcs int) error {
				// A packet reads its class from its VC: with fewer VCs two
				// classes share one, and a packet past its intermediate
				// reads as one before it and is sent back to it, a livelock
				// (Valiant on a 72-node dragonfly with 2 VCs delivered 13 of
				// 72 packets in 3,000 cycles, its flits hopping all the
				// while).
				if need := nonMinMinVCs(mode, t.Kind()); vcs < need {
					return fmt.Errorf("routing %q needs at least %d VCs on a %s, one per VC class, even with allow_deadlock: a packet's class is its VC's, and with fewer a packet that passed its intermediate is sent to it again (got %d)", mode, need, t.Kind(), vcs)
				}
				return nil
			}
		}
		if m >= routing.ModeUGALL {
			spec.Params = []routing.Param{{Key: "ugal_threshold_flits", MinInt: 0, MaxInt: 1 << 20,
				Doc: "UGAL's threshold T in flits: minimal when q_min*H_min <= q_nonmin*H_nonmin + T"}}
		}
		spec.BuildSeconds = func(t topology.Topology, vcs int) float64 {
			// The check's states: Valiant's classes are three times the
			// minimal's on a dragonfly; on a HyperX Valiant's class-0
			// states take one visit (routing.ClassLister).
			perPair := 47e-9
			switch {
			case t.Kind() == "hyperx":
				perPair = 12e-9
			case mode == routing.ModeMin:
				perPair = 16e-9
			}
			return routing.SecondsPerPortPair(perPair)(t, vcs)
		}
		spec.New = func(t topology.Topology, vcs int) routing.Func {
			switch t := t.(type) {
			case *dragonfly.Dragonfly:
				return newDragonflyRouting(t, vcs, mode)
			case *hyperx.HyperX:
				return newHyperXRouting(t, vcs, mode)
			}
			panic(fmt.Sprintf("routing %s on a %s", mode, t.Kind()))
		}
		specs = append(specs, spec)
	}
	return specs
}

// nonMinMinVCs is the VC count a non-minimal routing needs on topology
// kind (its VC classes).
func nonMinMinVCs(m routing.NonMinMode, kind string) int {
	if kind == "dragonfly" {
		return dragonflyClasses(m)
	}
	return hyperxClasses(m)
}
