package router

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Input VC states.
const (
	vcIdle   uint8 = iota // front flit not yet routed (or buffer empty)
	vcRouted              // head routed, waiting for an output VC
	vcActive              // packet holds output VC outVC
)

// inVC is the compact per-input-VC state touched every cycle (32 bytes,
// two to a cache line). The front packet's readiness and the back (newest)
// packet's progress are kept here, so that allocation and the arrival of
// body flits never touch packet headers. A body flit is checked to continue
// the back packet by index here; the sink checks source, sequence number and
// order of every flit end to end.
type inVC struct {
	flits int32 // occupancy in flits
	outVC int32 // output VC index (port*V + vc) while active
	// ready is the low 32 bits of the cycle from which the front packet's
	// head may leave (body flits are tracked by portState.fr and fresh).
	ready uint32
	// waitPorts, when not zero, are the candidate ports of a head that found
	// no free output VC among them: it cannot find one before a VC of one
	// of them is freed or a free one receives a credit (Router.bumped).
	waitPorts uint64
	pkHead    uint16 // ring index of the first packet behind the front one
	pkLen     uint16 // packets (whole or partial) in the VC, the front one included
	front     uint16 // flits of the front packet present
	departed  uint16 // flits of the front packet sent on
	backLeft  uint16 // flits of the back packet still to arrive
	frontSize uint16 // length of the front packet
	state     uint8
	outPort   uint8 // outVC / V, kept to avoid a division per flit
	outV      uint8 // outVC % V
	// moved is the low 32 bits of the cycle of the last departure from this
	// VC, or of its becoming non-empty (for the watchdog).
	moved uint32
}

// pktDesc is a packet queued behind the front packet of a VC buffer.
// A VC buffer holds flits of one packet at a time from its upstream, so a
// packet's flits are contiguous and a header replaces per-flit storage: the
// flit with index d is rebuilt from the header when it leaves.
type pktDesc struct {
	hdr       link.Flit // head flit
	headReady uint32    // low 32 bits of the cycle from which the head may leave
}

// Router is an input-queued virtual-channel router actor. Index i = p*V + v
// names input VC v of port p; index o = p*V + v names output VC v of port p.
type Router struct {
	id    int
	name  string
	ports int
	vcs   int
	depth int // buffer depth per VC, flits
	pkCap int // packet descriptors per VC
	vct   bool
	delay uint32 // routing delay, cycles
	// bodyWait is all ones when a body flit is buffered for one cycle (a
	// flit that arrives at a dry front joins portState.fr a cycle later),
	// zero when it may leave in its arrival cycle (routing delay 0).
	bodyWait uint64
	rf       RoutingFunc
	upd      RouteUpdater // rf, when it carries state in Flit.Route; else nil

	pk       []pktDesc // per input VC, pkCap descriptors of the packets behind the front one
	ivc      []inVC
	hdr      []link.Flit  // per input VC: the head flit of its front packet
	cand     []Candidates // per input VC: the routing decision of its front packet
	buffered int          // flits in all input buffers
	port     []portState  // per port

	outs []outVC // per output VC

	vaPtr []int32 // per output VC: round-robin pointer over input VCs
	selRR uint32  // tie-break rotation of the selection function
	reqs  []vaReq // VC allocation requests of this cycle (scratch)
	// vaPorts has bit p set when input port p has a VC with flits but no
	// output VC (a head to route or allocate), saPorts when it has a VC
	// with flits and an output VC; valid and validInj count the non-empty
	// input VCs, of all ports and of injection ports. All four are kept up
	// to date as flits arrive and leave, so no cycle scans idle ports.
	vaPorts, saPorts uint64
	// bumped has bit p set when, since the last VC allocation, output port
	// p saw an event that can give a head that found no free VC there one:
	// a VC of the port freed, or a credit for a free VC (a credit for a VC
	// that a packet holds cannot; that VC is freed, and counted, before
	// anyone else gets it).
	bumped          uint64
	valid, validInj int
	netPorts        uint64 // ports wired to another router

	// Valid and Active are this cycle's number of non-empty input VC buffers
	// and of input VCs whose front flit moved (the entropy papers' N_v, N_a),
	// over all input ports; ValidInj and ActiveInj count the injection
	// ports' share of them.
	Valid, Active       int
	ValidInj, ActiveInj int
	// plane is the control-plane logic stepped at the end of every cycle
	// (nil: none).
	plane ControlPlane
	// SumValid, SumActive and FlitsMoved accumulate over all cycles.
	SumValid, SumActive, FlitsMoved uint64
	// PortFlits counts the flits sent out of each port.
	PortFlits []uint64
}

// outVC is the state of one output VC: the upstream view of its free
// downstream slots, and the input VC that holds it (owner, -1 when free)
// with that VC's port and index, so that a returning credit can mark the
// holder eligible without a division.
type outVC struct {
	credits int32
	owner   int32
	ownPort uint8
	ownV    uint8
}

// portState is what a router keeps per port, input and output side
// together (88 bytes, so two cache lines at most): a switch allocation
// touches a port's masks, pointers and wires at once, and one bounds check
// covers them all.
type portState struct {
	nonEmpty uint64 // input side: bit v set when VC v holds a flit
	active   uint64 // input side: bit v set when VC v holds an output VC
	// Switch eligibility of the input VCs, kept up to date as flits and
	// credits come and go so that switch allocation reads three masks
	// instead of every VC: an active VC v may send in cycle now when bit v
	// is set in fr (its front flit is present and has waited its cycles)
	// and in credOK (its output VC has a credit; meaningful only while
	// active). fresh holds the VCs whose front flit arrived this cycle
	// after the front had run dry; with a body delay of one cycle they join
	// fr after this cycle's switch allocation.
	fr, fresh, credOK uint64
	outReq            uint64 // output side: input ports requesting it (scratch)
	// Round-robin pointers of switch allocation, as the mask of the
	// positions at or after the pointer (zero means position 0): inNext
	// over the input side's VCs, outNext over the input ports requesting
	// the output side.
	inNext, outNext uint64
	inWant          int32 // input side: VC chosen in switch allocation (scratch)
	// in is what this router reads at the port: flits into the input and
	// credits for the output; out is what the peer reads: flits out of the
	// output and credits for the input. nil when the port is unconnected.
	in, out *link.Wire
}

// vaReq is a VC allocation request: input VC in (port inPort, VC inV)
// asks for output VC out (port outPort, VC outV).
type vaReq struct {
	in, out       int32
	inPort, inV   uint8
	outPort, outV uint8
}

// Name is the router's human name.
func (r *Router) Name() string { return r.name }

// Ports is the number of ports.
func (r *Router) Ports() int { return r.ports }

// VCs is the number of VCs per port.
func (r *Router) VCs() int { return r.vcs }

// Occupancy is the number of flits in input VC v of port p.
func (r *Router) Occupancy(p, v int) int { return int(r.ivc[p*r.vcs+v].flits) }

// Credits is the upstream view of free slots in downstream VC v of port p.
func (r *Router) Credits(p, v int) int { return int(r.outs[p*r.vcs+v].credits) }

// SetControlPlane installs the router's control-plane logic (before the run).
func (r *Router) SetControlPlane(cp ControlPlane) { r.plane = cp }

// OutWire is the wire this router writes at port p (flits out of p), or nil;
// a control lane that steals idle cycles of that link checks it.
func (r *Router) OutWire(p int) *link.Wire { return r.port[p].out }

// Buffered is the number of flits in all input buffers.
func (r *Router) Buffered() int { return r.buffered }

func (r *Router) fail(now clock.Cycle, format string, args ...any) {
	panic(fmt.Sprintf("%s at cycle %d: %s", r.name, now, fmt.Sprintf(format, args...)))
}

// roundRobin returns the first set bit of req at or after the round-robin
// pointer, given as the mask next of the positions at or after it, going
// round to the lowest set bit; req must not be zero. The compiler makes
// the if a short jump; a branch-free form (an OR of req masked by the
// zero test) measured no faster: fewer mispredictions, more instructions.
func roundRobin(req, next uint64) int {
	sel := req & next
	if sel == 0 {
		sel = req
	}
	return bits.TrailingZeros64(sel)
}

// after is the round-robin mask that puts the pointer just past position x.
func after(x int) uint64 { return ^uint64(0) << uint((x+1)&127) }

// portChanged recomputes input port p's bits of vaPorts and saPorts after
// its nonEmpty or active mask changed.
func (r *Router) portChanged(p int) {
	pt := &r.port[p]
	ne, act := pt.nonEmpty, pt.active
	sh := uint(p & 63)
	r.vaPorts = r.vaPorts&^(1<<sh) | b2u(ne&^act != 0)<<sh
	r.saPorts = r.saPorts&^(1<<sh) | b2u(ne&act != 0)<<sh
}

// readyBy reports whether a flit stamped with ready may leave at now
// (wrap-safe comparison of the low 32 bits of the cycle).
func readyBy(ready uint32, now clock.Cycle) bool {
	return int32(uint32(now)-ready) >= 0
}

// b2u is 1 for true and 0 for false; it compiles to a SETcc, not a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Tick advances the router by one cycle.
//
// The hot path avoids data-dependent branches where a flit's arrival or a
// credit's is a coin toss: a mispredicted branch costs about as much as
// the twenty instructions it guards, and a router cycle on a loaded
// network has dozens of them. The ports holding a credit and those holding
// a flit are gathered in two masks first, without a branch, and only their
// set bits are visited: an idle port costs the load of its wire slot's two
// stamps.
func (r *Router) Tick(now clock.Cycle) {
	V := r.vcs
	var arrived, credited uint64
	for p := range r.port {
		w := r.port[p].in
		if w == nil {
			continue
		}
		_, _, hasFlit, hasCredit := w.Poll(now)
		credited |= b2u(hasCredit) << (p & 63)
		arrived |= b2u(hasFlit) << (p & 63)
	}
	outs := r.outs
	for ; credited != 0; credited &= credited - 1 {
		p := bits.TrailingZeros64(credited)
		_, creditVC, _, _ := r.port[p].in.Poll(now)
		ov := &outs[p*V+int(creditVC)]
		ov.credits++
		// Only a credit for a free output VC can give a waiting head a VC
		// it did not find (see bumped); a credit for a held one makes its
		// holder eligible for the switch (a stale ownPort of a free VC
		// receives a zero).
		free := b2u(ov.owner < 0)
		r.bumped |= free << (p & 63)
		r.port[ov.ownPort].credOK |= (free ^ 1) << (ov.ownV & 63)
		if ov.credits > int32(r.depth) {
			r.fail(now, "credit overflow on output VC %d of port %d", creditVC, p)
		}
	}
	for ; arrived != 0; arrived &= arrived - 1 {
		p := bits.TrailingZeros64(arrived)
		// Buffer the flit f that arrived at port p.
		f, _, _, _ := r.port[p].in.Poll(now)
		v := int(f.VC)
		if v >= V {
			r.fail(now, "flit on VC %d of port %d, router has %d VCs", v, p, V)
		}
		i := p*V + v
		s := &r.ivc[i]
		if int(s.flits) == r.depth {
			r.fail(now, "buffer overflow on input VC %d of port %d (%d flits): credit protocol broken", v, p, r.depth)
		}
		if f.Index == 0 {
			if s.backLeft != 0 {
				r.fail(now, "head of packet %d/%d on input VC %d of port %d before the tail of the previous packet", f.Src, f.Seq, v, p)
			}
			if s.pkLen == 0 {
				r.hdr[i] = *f
				s.front, s.departed, s.ready, s.frontSize = 1, 0, uint32(now)+r.delay, f.Size
			} else {
				if int(s.pkLen) > r.pkCap {
					r.fail(now, "more than %d packets in input VC %d of port %d", r.pkCap+1, v, p)
				}
				pos := int(s.pkHead) + int(s.pkLen) - 1
				if pos >= r.pkCap {
					pos -= r.pkCap
				}
				d := &r.pk[i*r.pkCap+pos]
				d.hdr = *f
				d.headReady = uint32(now) + r.delay
			}
			s.pkLen++
			s.backLeft = f.Size - 1
		} else {
			if s.backLeft == 0 || f.Index != f.Size-s.backLeft {
				r.fail(now, "flit %d of packet %d/%d on input VC %d of port %d does not continue the packet in that VC", f.Index, f.Src, f.Seq, v, p)
			}
			s.backLeft--
			// A body flit of the front packet (pkLen == 1) adds to the front;
			// if the front had run dry, it is the next to leave, after its
			// buffering cycle (body cycles, 0 or 1). That VC holds an output
			// VC: the packet's head has left.
			front := s.front
			s.front = front + uint16(b2u(s.pkLen == 1))
			dry := (b2u(front == 0) & b2u(s.pkLen == 1)) << (v & 63)
			pt := &r.port[p]
			pt.fresh |= dry & r.bodyWait
			pt.fr |= dry &^ r.bodyWait
		}
		moved := s.moved
		if s.flits == 0 {
			moved = uint32(now)
		}
		s.moved = moved
		became := b2u(s.flits == 0)
		r.valid += int(became)
		r.validInj += int(became &^ (r.netPorts >> (p & 63)))
		s.flits++
		r.buffered++
		r.port[p].nonEmpty |= 1 << (v & 63)
		r.portChanged(p)
	}
	if r.buffered == 0 {
		r.Valid, r.Active, r.ValidInj, r.ActiveInj = 0, 0, 0, 0
	} else {
		r.Valid, r.ValidInj = r.valid, r.validInj
		r.SumValid += uint64(r.valid)
		if r.vaPorts != 0 {
			r.allocateVCs(now, r.vaPorts)
		}
		r.allocateSwitch(now, r.saPorts)
	}
	if r.plane != nil {
		r.plane.Step(now, Observation{Valid: r.Valid, Active: r.Active, ValidInj: r.ValidInj, ActiveInj: r.ActiveInj})
	}
}

// allocateVCs routes new heads and runs separable input-first VC allocation.
func (r *Router) allocateVCs(now clock.Cycle, vaPorts uint64) {
	V := r.vcs
	r.reqs = r.reqs[:0]
	// Events from here on count for the heads that fail in this call.
	bumped := r.bumped
	r.bumped = 0
	for pm := vaPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		pt := &r.port[p]
		for m := pt.nonEmpty &^ pt.active; m != 0; m &= m - 1 {
			v := bits.TrailingZeros64(m)
			i := p*V + v
			s := &r.ivc[i]
			c := &r.cand[i]
			if s.state == vcIdle {
				c.N = 0
				h := &r.hdr[i]
				r.rf.Route(r.id, p, h, c)
				if c.N == 0 {
					r.fail(now, "routing gave no candidate for packet %d->%d", h.Src, h.Dst)
				}
				s.state = vcRouted
				s.waitPorts = 0
			}
			if !readyBy(s.ready, now) {
				continue
			}
			if wp := s.waitPorts; wp != 0 {
				if wp&bumped == 0 {
					continue
				}
				s.waitPorts = 0
			}
			if o, op, ov := r.selectVC(c, int32(s.frontSize)); o >= 0 {
				r.reqs = append(r.reqs, vaReq{in: int32(i), out: o, inPort: uint8(p), inV: uint8(v), outPort: op, outV: ov})
			} else {
				s.waitPorts = c.ports()
			}
		}
	}
	if len(r.reqs) == 0 {
		return
	}
	n := int32(r.ports * V)
	for a := range r.reqs {
		o := r.reqs[a].out
		if o < 0 {
			continue
		}
		// Among the requests for output VC o, the first input VC at or after
		// its round-robin pointer wins; the others retry next cycle.
		ptr := r.vaPtr[o]
		win := a
		best := ringDistance(r.reqs[a].in, ptr, n)
		for b := a + 1; b < len(r.reqs); b++ {
			if r.reqs[b].out != o {
				continue
			}
			if d := ringDistance(r.reqs[b].in, ptr, n); d < best {
				win, best = b, d
			}
			r.reqs[b].out = -1
		}
		q := &r.reqs[win]
		w := q.in
		ov := &r.outs[o]
		ov.owner, ov.ownPort, ov.ownV = w, q.inPort, q.inV
		iv := &r.ivc[w]
		iv.state = vcActive
		iv.outVC = o
		iv.outPort, iv.outV = q.outPort, q.outV
		if r.upd != nil {
			h := &r.hdr[w]
			h.VC = iv.outV
			r.upd.Update(r.id, int(iv.outPort), h)
		}
		// The head has waited its cycles (it asked only then), so it may
		// cross the switch now if o has a credit.
		pt := &r.port[q.inPort]
		bit := uint64(1) << (q.inV & 63)
		pt.active |= bit
		pt.fr |= bit
		pt.credOK = pt.credOK&^bit | b2u(ov.credits > 0)<<(q.inV&63)
		r.portChanged(int(q.inPort))
		if w++; w == n {
			w = 0
		}
		r.vaPtr[o] = w
	}
}

// ringDistance is (i - ptr) mod n for i and ptr in 0..n-1.
func ringDistance(i, ptr, n int32) int32 {
	if d := i - ptr; d >= 0 {
		return d
	}
	return i - ptr + n
}

// ports is the set of ports of all candidate groups.
func (c *Candidates) ports() uint64 {
	var m uint64
	for g := 0; g < c.N; g++ {
		m |= c.G[g].Ports
	}
	return m
}

// selectVC picks the output VC a routed head asks for: the first candidate
// group with a free VC (with room for the whole packet under virtual
// cut-through), in it the VC with most credits, ties round robin. It
// returns the output VC index (-1 for none) with its port and VC.
func (r *Router) selectVC(s *Candidates, size int32) (best int32, bestPort, bestV uint8) {
	V := r.vcs
	need := int32(1)
	if r.vct {
		need = size
	}
	best, bestCred := int32(-1), int32(-1)
	bestRank := uint32(0)
	for g := 0; g < s.N; g++ {
		if best >= 0 && s.G[g].Level != s.G[g-1].Level {
			break // a free VC at a more preferred level
		}
		for pm := s.G[g].Ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			for vm := s.G[g].VCs; vm != 0; vm &= vm - 1 {
				v := bits.TrailingZeros64(vm)
				o := int32(p*V + v)
				ov := &r.outs[o]
				if ov.owner >= 0 {
					continue
				}
				c := ov.credits
				if c < need {
					continue
				}
				// Rotation: the first VC index at or after selRR wins a tie.
				rank := uint32(o) - r.selRR
				if uint32(o) < r.selRR {
					rank += uint32(len(r.outs))
				}
				if c > bestCred || (c == bestCred && rank < bestRank) {
					best, bestCred, bestRank = o, c, rank
					bestPort, bestV = uint8(p), uint8(v)
				}
			}
		}
	}
	if best >= 0 {
		r.selRR++
		if r.selRR == uint32(len(r.outs)) {
			r.selRR = 0
		}
	}
	return best, bestPort, bestV
}

// allocateSwitch runs separable input-first switch allocation and moves the
// winning flits. Traversal is written out in the output loop rather than
// called: a call makes Go spill every live register, and this loop runs for
// every flit-hop of the simulation.
func (r *Router) allocateSwitch(now clock.Cycle, saPorts uint64) {
	V := r.vcs
	ivc, outs := r.ivc, r.outs
	var outMask uint64
	for pm := saPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		// The VCs whose front flit could leave now: holding an output VC
		// with a credit, with a flit present that has waited its cycles.
		// Flits that arrived this cycle at a dry front may leave from the
		// next one.
		pt := &r.port[p]
		elig := pt.fr & pt.active & pt.credOK
		pt.fr |= pt.fresh
		pt.fresh = 0
		if elig == 0 {
			continue
		}
		v := roundRobin(elig, pt.inNext)
		pt.inWant = int32(v)
		op := ivc[p*V+v].outPort
		r.port[op].outReq |= 1 << (p & 63)
		outMask |= 1 << (op & 63)
	}
	var won uint64 // input ports that send a flit
	for om := outMask; om != 0; om &= om - 1 {
		op := bits.TrailingZeros64(om)
		opt := &r.port[op]
		req := opt.outReq
		opt.outReq = 0
		p := roundRobin(req, opt.outNext)
		ipt := &r.port[p]
		v := int(ipt.inWant)
		opt.outNext = after(p)
		ipt.inNext = after(v)
		won |= 1 << (p & 63)

		// Traversal: the front flit of input VC v of port p leaves by op.
		i := p*V + v
		s := &ivc[i]
		o := s.outVC
		slot, ok := opt.out.FlitSlot(now)
		if !ok {
			r.fail(now, "second flit sent out of port %d in one cycle", op)
		}
		*slot = r.hdr[i]
		slot.Index = s.departed
		slot.VC = s.outV
		slot.Hops += uint8(b2u(slot.Hops < 255) & (r.netPorts >> (op & 63)))
		s.departed++
		s.front--
		ipt.fr &^= b2u(s.front == 0) << (v & 63)
		s.moved = uint32(now)
		ov := &outs[o]
		ov.credits--
		ipt.credOK &^= b2u(ov.credits == 0) << (v & 63)
		r.PortFlits[op]++
		s.flits--
		r.buffered--
		emptied := b2u(s.flits == 0)
		ipt.nonEmpty &^= emptied << (v & 63)
		r.valid -= int(emptied)
		r.validInj -= int(emptied &^ (r.netPorts >> (p & 63)))
		r.portChanged(p)
		if !ipt.out.PutCredit(now, link.Credit{VC: uint16(v)}) {
			r.fail(now, "second credit sent back from port %d in one cycle", p)
		}
		// The next flit of the front, if any, is ready from the next cycle:
		// it arrived by now, and a body flit waits at most one cycle.
		if s.departed != s.frontSize {
			continue
		}
		r.nextPacket(i, p, v, op, o)
	}
	active := bits.OnesCount64(won)
	r.Active, r.ActiveInj = active, bits.OnesCount64(won&^r.netPorts)
	r.SumActive += uint64(active)
	r.FlitsMoved += uint64(active)
}

// nextPacket runs when the tail of the front packet of input VC i (VC v of
// port p) has left by output VC o of port op: it frees o and brings the
// next packet forward.
func (r *Router) nextPacket(i, p, v, op int, o int32) {
	s := &r.ivc[i]
	s.pkLen--
	s.departed = 0
	r.outs[o].owner = -1
	r.bumped |= 1 << (op & 63)
	s.state = vcIdle
	r.port[p].active &^= 1 << (v & 63)
	r.portChanged(p)
	if s.pkLen == 0 {
		s.front = 0
		return
	}
	nd := &r.pk[i*r.pkCap+int(s.pkHead)]
	s.pkHead++
	if int(s.pkHead) == r.pkCap {
		s.pkHead = 0
	}
	r.hdr[i] = nd.hdr
	s.ready = nd.headReady
	s.frontSize = nd.hdr.Size
	s.front = nd.hdr.Size
	if s.pkLen == 1 {
		s.front -= s.backLeft
	}
}
