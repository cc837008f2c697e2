package vc

import (
	"math/bits"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Internal speedup (Config.InternalSpeedup = S > 1) makes the VC router
// input-output buffered, as BookSim2's internal_speedup does and as the
// dragonfly papers' router was simulated (BookSim2's dragonfly example
// runs internal_speedup = 2):
//
//   - switch allocation runs S rounds a cycle, each the separable
//     input-first allocation of the plain router (one flit per input and
//     per output a round), over the VCs still eligible after the rounds
//     before; the next flit of a VC that moved may move in the next round,
//     and a flit that arrived this cycle at a dry front still waits its
//     cycle. VC allocation runs once a cycle;
//   - a flit that crosses the switch joins its output port's queue, which
//     sends one flit a cycle on the link, in the order the flits crossed:
//     a flit that finds its queue empty leaves in the cycle it crossed, so
//     the zero-load latency is the plain router's (it goes on the wire
//     from the switch, skipping the queue, when nothing was sent on the
//     link yet that cycle). The queue holds flits
//     whose downstream slots are already taken from the output VC's
//     credits, so it never holds more than VCs x buffer_flits flits and
//     needs no flow control of its own. It is allocated at that size (32
//     bytes a flit): a queue that grew on demand met new peaks for tens of
//     thousands of cycles, allocating in the steady state;
//   - a link carries one credit a cycle, so an input port that sent more
//     than one flit in a cycle queues the other credits and returns one a
//     cycle, in order: no more than one flit a cycle arrives on the link,
//     so the queue stays short.
//
// Without a speedup of 1/(1 - 1/e) or so, a separable allocator in a
// high-radix input-queued router matches about 60% of its inputs under
// uniform traffic (0.60 flits/node/cycle for minimal routing on the
// balanced 1,056-node dragonfly, whose channels allow 1.0; 0.93 with S = 2).
//
// The rounds have a function of their own (allocateSwitchRounds), chosen
// once a cycle in Tick, so the plain router's switch loop stays as it was.

// speedup is what a router with internal speedup keeps beyond the plain
// router's state.
type speedup struct {
	rounds int32
	// out[p] holds the flits that crossed to output port p and wait for
	// its link; cred[p] the VCs of the credits input port p owes its
	// upstream neighbour. outBusy and credBusy have a bit per non-empty one.
	out               []ring[link.Flit]
	cred              []ring[uint16]
	outBusy, credBusy uint64
	// sentFlit and sentCredit have a bit per port that sent a flit, or a
	// credit, straight from the switch this cycle (scratch).
	sentFlit, sentCredit uint64
	// moved[p] has a bit per VC of input port p that sent a flit this
	// cycle (scratch; N_a counts each VC once), movedPorts a bit per port
	// whose moved is not zero.
	moved      []uint64
	movedPorts uint64
	// traversals counts every flit that crossed the switch (N_a counts
	// each VC once a cycle).
	traversals uint64
}

// newSpeedup allocates the queues of a router of ports ports, each for
// every downstream slot (vcs x depth flits): by the credit protocol an
// output queue holds no more, nor an input port more credits.
func newSpeedup(rounds, ports, vcs, depth int) *speedup {
	s := &speedup{rounds: int32(rounds), out: make([]ring[link.Flit], ports), cred: make([]ring[uint16], ports),
		moved: make([]uint64, ports)}
	for p := range s.out {
		s.out[p] = newRing[link.Flit](vcs * depth)
		s.cred[p] = newRing[uint16](vcs * depth)
	}
	return s
}

// bytes is the memory the speedup state holds now.
func (s *speedup) bytes() int {
	b := int(unsafe.Sizeof(*s)) + 8*len(s.moved)
	for p := range s.out {
		b += len(s.out[p].buf)*int(unsafe.Sizeof(link.Flit{})) + 2*len(s.cred[p].buf) + 2*int(unsafe.Sizeof(ring[uint16]{}))
	}
	return b
}

// queueBytes is the memory of the queues' rings.
func (s *speedup) queueBytes() int {
	b := 0
	for p := range s.out {
		b += len(s.out[p].buf)*int(unsafe.Sizeof(link.Flit{})) + 2*len(s.cred[p].buf)
	}
	return b
}

// speedupBytes is what newSpeedup allocates for a router of P ports.
func speedupBytes(P, vcs, depth int) int64 {
	n := int64(ringSize(vcs * depth))
	return int64(unsafe.Sizeof(speedup{})) + 8*int64(P) + int64(P)*(n*int64(unsafe.Sizeof(link.Flit{}))+2*n+2*int64(unsafe.Sizeof(ring[uint16]{})))
}

// ring is a FIFO over a power-of-two ring; the writer keeps it from
// overflowing.
type ring[T any] struct {
	buf     []T
	head, n uint32
}

func ringSize(atLeast int) int {
	n := 1
	for n < atLeast {
		n <<= 1
	}
	return n
}

func newRing[T any](atLeast int) ring[T] { return ring[T]{buf: make([]T, ringSize(atLeast))} }

// full reports whether the ring holds all it can.
func (q *ring[T]) full() bool { return int(q.n) == len(q.buf) }

// push returns the place of a new element at the back (the ring is not
// full).
func (q *ring[T]) push() *T {
	i := (q.head + q.n) & uint32(len(q.buf)-1)
	q.n++
	return &q.buf[i]
}

// pop removes and returns the front element (the ring is not empty). A
// ring it empties starts again at its first slot: a queue that is mostly
// empty or short (an output queue, a credit queue) then keeps to the
// ring's first lines instead of walking all of it through the cache.
func (q *ring[T]) pop() T {
	v := q.buf[q.head]
	q.n--
	q.head = (q.head + 1) & uint32(len(q.buf)-1)
	if q.n == 0 {
		q.head = 0
	}
	return v
}

// each calls f for every element, front first.
func (q *ring[T]) each(f func(*T)) {
	for i := range q.n {
		f(&q.buf[(q.head+i)&uint32(len(q.buf)-1)])
	}
}

// allocateSwitchRounds is allocateSwitch with internal speedup: rounds of
// separable input-first allocation whose winners join the output queues.
// arrived has a bit per port a flit came in by this cycle.
func (r *Router) allocateSwitchRounds(now clock.Cycle, saPorts, arrived uint64) {
	V := int(r.vcs)
	ivc, sq := r.ivc, r.sq
	// The first round asks the ports with a VC holding an output VC; each
	// later one only those that had an eligible VC in the round before: a
	// VC becomes eligible during the rounds only behind a flit of its own
	// that moved (no credit arrives and no VC is allocated between rounds).
	ports := r.saPorts
	for round := int32(0); round < sq.rounds; round++ {
		var outMask, asked uint64
		for pm := ports; pm != 0; pm &= pm - 1 {
			p := bits.TrailingZeros64(pm)
			pt := &r.port[p]
			elig := pt.fr & pt.active & pt.credOK
			if elig == 0 {
				continue
			}
			asked |= 1 << (p & 63)
			v := roundRobin(elig, pt.inNext)
			pt.inWant = uint8(v)
			op := ivc[p*V+v].outPort
			r.port[op].outReq |= 1 << (p & 63)
			outMask |= 1 << (op & 63)
		}
		if outMask == 0 {
			break
		}
		ports = asked
		for om := outMask; om != 0; om &= om - 1 {
			op := bits.TrailingZeros64(om)
			opt := &r.port[op]
			p := roundRobin(opt.outReq, opt.outNext)
			opt.outReq = 0
			v := int(r.port[p].inWant)
			opt.outNext = after(p)
			r.port[p].inNext = after(v)
			r.crossToQueue(now, p, v, op, arrived)
		}
	}
	// Flits that arrived this cycle at a dry front, or behind a flit that
	// left in a round (crossToQueue), may leave from the next cycle, as in
	// the plain router. Only ports of saPorts can hold such VCs.
	for pm := saPorts; pm != 0; pm &= pm - 1 {
		pt := &r.port[bits.TrailingZeros64(pm)]
		pt.fr |= pt.fresh
		pt.fresh = 0
	}
	var active, activeInj int
	for pm := sq.movedPorts; pm != 0; pm &= pm - 1 {
		p := bits.TrailingZeros64(pm)
		n := bits.OnesCount64(sq.moved[p])
		active += n
		activeInj += n &^ -int(r.netPorts>>(p&63)&1)
		sq.moved[p] = 0
	}
	sq.movedPorts = 0
	r.active, r.activeInj = int32(active), int32(activeInj)
	r.SumActive += uint64(active)
}

// crossToQueue moves the front flit of input VC v of port p across the
// switch into output port op's queue, and queues its credit; either goes
// on its wire at once instead when its queue is empty and nothing was
// sent on that wire this cycle (what drainQueues would send now). Its
// bookkeeping is allocateSwitch's traversal, written out there for speed:
// a change to one is a change to both.
func (r *Router) crossToQueue(now clock.Cycle, p, v, op int, arrived uint64) {
	V := int(r.vcs)
	sq := r.sq
	ipt := &r.port[p]
	i := p*V + v
	s := &r.ivc[i]
	o := int32(op*V + int(s.outV))
	// A flit that finds its output queue empty, on a link nothing was sent
	// on this cycle, is the one drainQueues would send now: it goes on the
	// wire at once (and the queue, empty, stays so); otherwise it queues.
	var f *link.Flit
	if q := &sq.out[op]; q.n == 0 && sq.sentFlit>>(op&63)&1 == 0 {
		slot, ok := r.wires.FlitSlot(int(r.port[op].out), now+r.sh.sendAhead)
		if !ok {
			r.fail(now, "second flit sent out of port %d in one cycle", op)
		}
		f = slot
		sq.sentFlit |= 1 << (op & 63)
	} else {
		if q.full() {
			r.fail(now, "output queue of port %d over its %d entries: credit protocol broken", op, len(q.buf))
		}
		f = q.push()
		sq.outBusy |= 1 << (op & 63)
	}
	*f = r.pkts[s.pkFront].hdr
	f.Index = s.departed
	f.VC = s.outV
	f.Hops += uint8(b2u(f.Hops < 255) & (r.netPorts >> (op & 63)))
	sq.moved[p] |= 1 << (v & 63)
	sq.movedPorts |= 1 << (p & 63)
	sq.traversals++
	s.departed++
	s.front--
	ipt.fr &^= b2u(s.front == 0) << (v & 63)
	s.moved = uint32(now)
	ov := &r.outs[o]
	ov.credits--
	ipt.credOK &^= b2u(ov.credits == 0) << (v & 63)
	r.PortFlits[op]++
	if r.ext != nil && r.ext.links != nil {
		r.ext.links.vcFlits[o]++
	}
	s.flits--
	r.buffered--
	emptied := b2u(s.flits == 0)
	ipt.nonEmpty &^= emptied << (v & 63)
	r.valid -= int32(emptied)
	r.validInj -= int32(emptied &^ (r.netPorts >> (p & 63)))
	r.portChanged(p)
	// The credit likewise.
	if cq := &sq.cred[p]; cq.n == 0 && sq.sentCredit>>(p&63)&1 == 0 {
		if !r.wires.PutCredit(int(ipt.out), now, link.Credit{VC: uint16(v)}) {
			r.fail(now, "second credit sent back from port %d in one cycle", p)
		}
		sq.sentCredit |= 1 << (p & 63)
	} else {
		if cq.full() {
			r.fail(now, "credit queue of port %d over its %d entries: credit protocol broken", p, len(cq.buf))
		}
		*cq.push() = uint16(v)
		sq.credBusy |= 1 << (p & 63)
	}
	if s.departed == f.Size {
		r.nextPacket(i, p, v, op, o)
		return
	}
	// The VC's next flit may be the one that arrived on this port this
	// cycle: with a body delay it waits for the next cycle, as in the
	// plain router (there the older flit's crossing took the cycle), so it
	// leaves the rounds' eligible set and joins it after them.
	if arrived>>(p&63)&1 != 0 && r.sh.bodyWait != 0 {
		if in := r.wires.Seen(int(r.in0)+p, now); int(in.VC) == v && in.Index == s.departed && in.Src == f.Src && in.Seq == f.Seq {
			ipt.fr &^= 1 << (v & 63)
			ipt.fresh |= 1 << (v & 63)
		}
	}
}

// drainQueues sends the front flit of every output queue and the front
// credit of every credit queue, but for the ports that sent one straight
// from the switch this cycle.
func (r *Router) drainQueues(now clock.Cycle) {
	sq, ws := r.sq, r.wires
	// Ports that sent a flit or a credit straight from the switch this
	// cycle (crossToQueue) send their queue's front from the next.
	for m := sq.outBusy &^ sq.sentFlit; m != 0; m &= m - 1 {
		op := bits.TrailingZeros64(m)
		q := &sq.out[op]
		slot, ok := ws.FlitSlot(int(r.port[op].out), now+r.sh.sendAhead)
		if !ok {
			r.fail(now, "second flit sent out of port %d in one cycle", op)
		}
		*slot = q.pop()
		sq.outBusy &^= b2u(q.n == 0) << (op & 63)
	}
	for m := sq.credBusy &^ sq.sentCredit; m != 0; m &= m - 1 {
		p := bits.TrailingZeros64(m)
		q := &sq.cred[p]
		if !ws.PutCredit(int(r.port[p].out), now, link.Credit{VC: q.pop()}) {
			r.fail(now, "second credit sent back from port %d in one cycle", p)
		}
		sq.credBusy &^= b2u(q.n == 0) << (p & 63)
	}
	sq.sentFlit, sq.sentCredit = 0, 0
}

// queuedFlits is the number of flits in the router's output queues.
func (r *Router) queuedFlits() int {
	if r.sq == nil {
		return 0
	}
	n := 0
	for p := range r.sq.out {
		n += int(r.sq.out[p].n)
	}
	return n
}

// countQueued adds, per VC, the flits output port p has queued for its
// link (to flits) and the credits input port p owes its upstream neighbour
// (to credits); either may be nil.
func (r *Router) countQueued(p int, flits, credits []int32) {
	if r.sq == nil {
		return
	}
	if flits != nil {
		r.sq.out[p].each(func(f *link.Flit) { flits[f.VC]++ })
	}
	if credits != nil {
		r.sq.cred[p].each(func(v *uint16) { credits[*v]++ })
	}
}
