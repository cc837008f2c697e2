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
	flits      int32  // occupancy in flits
	outVC      int32  // output VC index (port*V + vc) while active
	ready      uint32 // low 32 bits of the cycle from which the front flit may leave
	lastArrive uint32 // low 32 bits of the cycle of the latest arrival
	// vaFailed is the sum of the epochs of its candidate ports when this VC's
	// head last found no free output VC; it cannot find one before that
	// (monotone) sum changes.
	vaFailed  uint64
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
	body  uint32 // minimum buffering of a body flit, cycles
	rf    RoutingFunc
	upd   RouteUpdater // rf, when it carries state in Flit.Route; else nil

	pk       []pktDesc // per input VC, pkCap descriptors of the packets behind the front one
	ivc      []inVC
	hdr      []link.Flit  // per input VC: the head flit of its front packet
	cand     []Candidates // per input VC: the routing decision of its front packet
	buffered int          // flits in all input buffers
	nonEmpty []uint64     // per input port: bit v set when VC v holds a flit
	active   []uint64     // per input port: bit v set when VC v holds an output VC

	credits []int32 // per output VC
	owner   []int32 // per output VC: owning input VC, -1 when free

	saIn  []int32 // per input port: round-robin pointer over its VCs
	saOut []int32 // per output port: round-robin pointer over input ports
	vaPtr []int32 // per output VC: round-robin pointer over input VCs
	selRR uint32  // tie-break rotation of the selection function
	// portEpoch[p] counts the events that can make an output VC of port p
	// available to a head that found none: a credit arriving, a VC being freed.
	portEpoch []uint64
	reqs      []vaReq  // VC allocation requests of this cycle (scratch)
	outReq    []uint64 // per output port: input ports requesting it (scratch)
	inWant    []int32  // per input port: VC chosen in switch allocation (scratch)
	outMask   uint64   // output ports with requests (scratch)
	netPorts  uint64   // ports wired to another router

	// in[p] is what this router reads at port p: flits into input p and
	// credits for output p; out[p] is what the peer reads: flits out of port p
	// and credits for input p. nil when the port is unconnected.
	in  []*link.Wire
	out []*link.Wire

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
func (r *Router) Credits(p, v int) int { return int(r.credits[p*r.vcs+v]) }

// SetControlPlane installs the router's control-plane logic (before the run).
func (r *Router) SetControlPlane(cp ControlPlane) { r.plane = cp }

// OutWire is the wire this router writes at port p (flits out of p), or nil;
// a control lane that steals idle cycles of that link checks it.
func (r *Router) OutWire(p int) *link.Wire { return r.out[p] }

// Buffered is the number of flits in all input buffers.
func (r *Router) Buffered() int { return r.buffered }

func (r *Router) fail(now clock.Cycle, format string, args ...any) {
	panic(fmt.Sprintf("%s at cycle %d: %s", r.name, now, fmt.Sprintf(format, args...)))
}

// readyBy reports whether a flit stamped with ready may leave at now
// (wrap-safe comparison of the low 32 bits of the cycle).
func readyBy(ready uint32, now clock.Cycle) bool {
	return int32(uint32(now)-ready) >= 0
}

// Tick advances the router by one cycle.
func (r *Router) Tick(now clock.Cycle) {
	V := r.vcs
	for p, w := range r.in {
		if w == nil {
			continue
		}
		f, c := w.Recv(now)
		if c != nil {
			o := p*V + int(c.VC)
			r.credits[o]++
			r.portEpoch[p]++
			if r.credits[o] > int32(r.depth) {
				r.fail(now, "credit overflow on output VC %d of port %d", c.VC, p)
			}
		}
		if f == nil {
			continue
		}
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
			if s.pkLen == 1 {
				if s.front == 0 {
					s.ready = uint32(now) + r.body
				}
				s.front++
			}
		}
		s.lastArrive = uint32(now)
		if s.flits == 0 {
			s.moved = uint32(now)
		}
		s.flits++
		r.buffered++
		r.nonEmpty[p] |= 1 << (v & 63)
	}
	if r.buffered == 0 {
		r.Valid, r.Active, r.ValidInj, r.ActiveInj = 0, 0, 0, 0
	} else {
		r.allocateVCs(now)
		r.allocateSwitch(now)
	}
	if r.plane != nil {
		r.plane.Step(now, Observation{Valid: r.Valid, Active: r.Active, ValidInj: r.ValidInj, ActiveInj: r.ActiveInj})
	}
}

// allocateVCs routes new heads and runs separable input-first VC allocation.
func (r *Router) allocateVCs(now clock.Cycle) {
	V := r.vcs
	r.reqs = r.reqs[:0]
	valid, validInj := 0, 0
	for p, ne := range r.nonEmpty {
		n := bits.OnesCount64(ne)
		valid += n
		if r.netPorts&(1<<(p&63)) == 0 {
			validInj += n
		}
		for m := ne &^ r.active[p]; m != 0; m &= m - 1 {
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
				s.vaFailed = r.candEpoch(c) - 1
			}
			if !readyBy(s.ready, now) {
				continue
			}
			e := r.candEpoch(c)
			if s.vaFailed == e {
				continue
			}
			if o, op, ov := r.selectVC(c, int32(s.frontSize)); o >= 0 {
				r.reqs = append(r.reqs, vaReq{in: int32(i), out: o, inPort: uint8(p), inV: uint8(v), outPort: op, outV: ov})
			} else {
				s.vaFailed = e
			}
		}
	}
	r.Valid, r.ValidInj = valid, validInj
	r.SumValid += uint64(valid)
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
		r.owner[o] = w
		iv := &r.ivc[w]
		iv.state = vcActive
		iv.outVC = o
		iv.outPort, iv.outV = q.outPort, q.outV
		if r.upd != nil {
			h := &r.hdr[w]
			h.VC = iv.outV
			r.upd.Update(r.id, int(iv.outPort), h)
		}
		r.active[q.inPort&63] |= 1 << (q.inV & 63)
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

// candEpoch sums the epochs of the candidate ports.
func (r *Router) candEpoch(c *Candidates) uint64 {
	var e uint64
	for g := 0; g < c.N; g++ {
		for pm := c.G[g].Ports; pm != 0; pm &= pm - 1 {
			e += r.portEpoch[bits.TrailingZeros64(pm)]
		}
	}
	return e
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
				if r.owner[o] >= 0 {
					continue
				}
				c := r.credits[o]
				if c < need {
					continue
				}
				// Rotation: the first VC index at or after selRR wins a tie.
				rank := uint32(o) - r.selRR
				if uint32(o) < r.selRR {
					rank += uint32(len(r.owner))
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
		if r.selRR == uint32(len(r.owner)) {
			r.selRR = 0
		}
	}
	return best, bestPort, bestV
}

// allocateSwitch runs separable input-first switch allocation and moves the
// winning flits.
func (r *Router) allocateSwitch(now clock.Cycle) {
	V := r.vcs
	r.outMask = 0
	for p, ne := range r.nonEmpty {
		m := ne & r.active[p]
		if m == 0 {
			continue
		}
		// Search from the round-robin pointer: rotate the V-bit mask so that
		// VC ptr is bit 0, and the set bits come in round-robin order (the
		// final mask drops the copies the left shift pushes past bit V-1).
		ptr := uint(r.saIn[p])
		for mm := (m>>(ptr&63) | m<<((uint(V)-ptr)&63)) & (uint64(1)<<uint(V&63) - 1); mm != 0; mm &= mm - 1 {
			v := bits.TrailingZeros64(mm) + int(ptr)
			if v >= V {
				v -= V
			}
			s := &r.ivc[p*V+v]
			if r.credits[s.outVC] <= 0 || s.front == 0 || !readyBy(s.ready, now) {
				continue
			}
			r.inWant[p] = int32(v)
			op := s.outPort
			r.outReq[op] |= 1 << (p & 63)
			r.outMask |= 1 << (op & 63)
			break
		}
	}
	active, activeInj := 0, 0
	P := r.ports
	for om := r.outMask; om != 0; om &= om - 1 {
		op := bits.TrailingZeros64(om)
		req := r.outReq[op]
		r.outReq[op] = 0
		// First requesting input at or after the round-robin pointer.
		ptr := uint(r.saOut[op])
		var p int
		if hi := req >> (ptr & 63); hi != 0 {
			p = int(ptr) + bits.TrailingZeros64(hi)
		} else {
			p = bits.TrailingZeros64(req)
		}
		v := int(r.inWant[p])
		r.saOut[op] = int32(p + 1)
		if p+1 == P {
			r.saOut[op] = 0
		}
		r.saIn[p] = int32(v + 1)
		if v+1 == V {
			r.saIn[p] = 0
		}
		r.traverse(now, p, v)
		active++
		if r.netPorts&(1<<(p&63)) == 0 {
			activeInj++
		}
	}
	r.Active, r.ActiveInj = active, activeInj
	r.SumActive += uint64(active)
	r.FlitsMoved += uint64(active)
}

// traverse moves the front flit of input VC v of port p to its output.
func (r *Router) traverse(now clock.Cycle, p, v int) {
	V := r.vcs
	i := p*V + v
	s := &r.ivc[i]
	o := s.outVC
	op, ov := int(s.outPort), s.outV
	slot := r.out[op].FlitSlot(now)
	*slot = r.hdr[i]
	slot.Index = s.departed
	slot.VC = ov
	if slot.Hops < 255 && r.netPorts&(1<<(op&63)) != 0 {
		slot.Hops++
	}
	s.departed++
	s.front--
	s.moved = uint32(now)
	r.credits[o]--
	r.PortFlits[op]++
	s.flits--
	r.buffered--
	if s.flits == 0 {
		r.nonEmpty[p] &^= 1 << (v & 63)
	}
	r.out[p].SendCredit(now, link.Credit{VC: uint16(v)})
	if s.departed != s.frontSize {
		// The next flit arrived at or before the latest arrival; only the
		// latest one can still be waiting out its buffering cycle.
		if s.front > 0 && s.pkLen == 1 && s.front == 1 {
			s.ready = s.lastArrive + r.body
		} else {
			s.ready = uint32(now)
		}
		return
	}
	// The tail left: free the output VC and bring the next packet forward.
	s.pkLen--
	s.departed = 0
	r.owner[o] = -1
	r.portEpoch[op]++
	s.state = vcIdle
	r.active[p] &^= 1 << (v & 63)
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
