package vc

import (
	"math/bits"

	"github.com/icnsim/icnsim/routing"
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

// CreditFlitsOn is the flits of VCs vcs sent out of port p whose
// credits have not come back (routing.Queues: BookSim2's used credits).
func (r *Router) CreditFlitsOn(p int, vcs uint64) int { return r.creditsOutOn(p, vcs) }

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
// front packet holds an output VC of port p, or was routed to p alone. It
// visits only the VCs holding flits (the ports of vaPorts | saPorts, which
// together are the ports with a non-empty VC, and their nonEmpty VCs), not
// every VC of a high-radix router, twice per UGAL decision.
func (r *Router) waitingFor(p int) int {
	if r.buffered == 0 {
		return 0
	}
	V := int(r.vcs)
	n := 0
	for pm := r.vaPorts | r.saPorts; pm != 0; pm &= pm - 1 {
		ip := bits.TrailingZeros64(pm)
		for m := r.port[ip].nonEmpty; m != 0; m &= m - 1 {
			i := ip*V + bits.TrailingZeros64(m)
			if q, ok := r.waitsFor(i); ok && q == p {
				n += int(r.ivc[i].flits)
			}
		}
	}
	return n
}

// waitingPerPort adds to w[p], for every port p, waitingFor(p), in one
// pass over the VCs holding flits.
func (r *Router) waitingPerPort(w *[64]int32) {
	if r.buffered == 0 {
		return
	}
	V := int(r.vcs)
	for pm := r.vaPorts | r.saPorts; pm != 0; pm &= pm - 1 {
		ip := bits.TrailingZeros64(pm)
		for m := r.port[ip].nonEmpty; m != 0; m &= m - 1 {
			i := ip*V + bits.TrailingZeros64(m)
			if q, ok := r.waitsFor(i); ok {
				w[q&63] += int32(r.ivc[i].flits)
			}
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
