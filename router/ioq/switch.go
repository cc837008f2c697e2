package ioq

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq/recn"
	"github.com/icnsim/icnsim/topology"
)

// shared is what every switch and adapter of a network has alike.
type shared struct {
	topo      topology.Plane
	k, c      int
	org       Org
	queueCap  int32 // flits per queue (the memory under 1q)
	memFlits  int32
	delay     uint32
	wrap      bool
	perQueueC bool // credits per queue (VOQ) rather than per port
	recn      recn.Config
	mesh      recn.Mesh
	dedicated bool // RECN's control messages on lanes of their own
}

// route is the output port at switch s of a packet to node dst: dimension
// order, x first (on a torus the shorter way, ties towards +).
func (sh *shared) route(s int, dst int32) int {
	r := int(dst) / sh.c
	if r == s {
		return topology.PlaneLocal + int(dst)%sh.c
	}
	x, y, tx, ty := s%sh.k, s/sh.k, r%sh.k, r/sh.k
	if x != tx {
		return sh.towards(x, tx, topology.PlaneXPlus, topology.PlaneXMinus)
	}
	return sh.towards(y, ty, topology.PlaneYPlus, topology.PlaneYMinus)
}

// towards is the port, plus or minus, from coordinate from to to in one
// dimension.
func (sh *shared) towards(from, to, plus, minus int) int {
	if sh.wrap {
		if (to-from+sh.k)%sh.k <= sh.k/2 {
			return plus
		}
		return minus
	}
	if to > from {
		return plus
	}
	return minus
}

// queueAt is the queue, in a memory of switch s (ingress) or of the
// adapters and egress ports feeding switch s, of a packet to dst: the one
// queue (1q), the output port it will take at s (VOQsw) or its
// destination (VOQnet). s < 0 is an endnode (an egress port towards it),
// where VOQsw has nothing left to route: queue 0.
func (sh *shared) queueAt(s int, dst int32) int {
	switch sh.org {
	case VOQSw:
		if s < 0 {
			return 0
		}
		return sh.route(s, dst)
	case VOQNet:
		return int(dst)
	}
	return 0
}

// outLink is the sending side of a link: credits for the memory at its
// far end and the packet being sent.
type outLink struct {
	wire     int32   // the wire written (flits forward, credits of the paired ingress back); -1: unconnected
	credits  []int32 // per queue of the far memory (VOQ towards a switch), else one for the whole memory
	cur      int32   // descriptor being sent, -1 for none
	curQ     int32   // its queue
	toSwitch bool
	// held is the RECN state of the memory the link sends from when its
	// SAQs' Xoff stops every feeder (Feeders scope): the points full at the
	// far end, whose packets do not start. nil otherwise.
	held *recn.Port
	// After a send: the queue the flit left and, when that flit ended an
	// in-order marker packet (RECN), its descriptor, else -1.
	lastQ, poppedMarker int32
}

// credit is the credit counter of far-end queue q.
func (l *outLink) credit(q int) *int32 {
	if len(l.credits) == 1 {
		return &l.credits[0]
	}
	return &l.credits[q]
}

// creditBack counts a credit returned for far-end queue q and reports
// whether its counter stays within the far memory's (or queue's) capacity.
func (l *outLink) creditBack(q int, sh *shared) bool {
	c := l.credit(q)
	*c++
	if len(l.credits) > 1 {
		return *c <= sh.queueCap
	}
	return *c <= sh.memFlits
}

// send moves the next flit of memory m onto link l, starting the next
// packet (round robin over m's queues) whose first flit is present and
// whose whole size the far memory has credits for (virtual cut-through).
// next is the switch at the far end (-1: an endnode), for the far queue.
func (l *outLink) send(now clock.Cycle, ws *link.Wires, pl *pool, m *memory, sh *shared, next int, who actorName) (started *pkt, sent bool) {
	if l.cur < 0 {
		if m.used == 0 {
			return nil, false
		}
		for pass := 0; pass < 2 && l.cur < 0; pass++ {
			lo, hi := int(m.rr), len(m.q)
			if pass == 1 {
				lo, hi = 0, int(m.rr)
			}
			for i := nextSet(m.nonEmpty, lo); i >= 0 && i < hi; i = nextSet(m.nonEmpty, i+1) {
				p := &pl.p[m.q[i].head]
				if p.have == 0 || m.mute>>(i&63)&1 != 0 {
					continue
				}
				if l.held != nil && len(l.held.Held) > 0 && l.held.Holds(sh.mesh, next, p.hdr.Dst) {
					continue // its route passes a full SAQ at the far end (RECN, Feeders scope)
				}
				c := l.credit(sh.queueAt(next, p.hdr.Dst))
				if *c < int32(p.hdr.Size) {
					continue
				}
				*c -= int32(p.hdr.Size)
				l.cur, l.curQ = m.q[i].head, int32(i)
				m.rr = int32(i + 1)
				started = p
				break
			}
		}
		if l.cur < 0 {
			return nil, false
		}
	}
	p := &pl.p[l.cur]
	if p.have <= p.sent {
		return started, false
	}
	slot, ok := ws.FlitSlot(int(l.wire), now)
	if !ok {
		panic(fmt.Sprintf("%s at cycle %d: second flit sent in one cycle", who.Name(), now))
	}
	*slot = p.hdr
	slot.Index = p.sent
	if l.toSwitch && slot.Hops < 255 {
		slot.Hops++
	}
	p.sent++
	m.depart(now, int(l.curQ))
	l.lastQ, l.poppedMarker = l.curQ, -1
	if p.sent == p.hdr.Size {
		if p.marker {
			l.poppedMarker = l.cur
		}
		m.pop(pl, int(l.curQ))
		l.cur = -1
	}
	return started, true
}

// actorName is the actor that owns a link, for its panics.
type actorName interface{ Name() string }

// xfer is a packet crossing the crossbar from an ingress port.
type xfer struct {
	src, dst   int32 // its descriptors in the ingress and the egress memory; src -1: none
	srcQ, dstQ int32
	out        int32 // egress port
}

// Switch is the input/output-buffered switch of the RECN paper: per port a
// memory at ingress and at egress, a crossbar with one packet at a time
// per input and per output, and links with credits per port or per queue.
type Switch struct {
	id      int32
	sh      *shared
	wires   *link.Wires
	in0     int32  // the wire read at port 0 (port p: in0+p)
	conn    uint64 // ports with something attached
	outBusy uint64 // egress ports receiving a packet through the crossbar
	rrOut   int32
	lastIn  []int32  // per output, the input it granted last
	next    []int32  // per port, the switch at the far end (-1: an endnode or nothing)
	req     []uint64 // allocate's scratch: per output, the inputs requesting it
	ing     []memory
	egr     []memory
	links   []outLink
	recv    []int32 // per ingress port, the descriptor arriving and its queue
	recvQ   []int32
	xf      []xfer
	pl      pool
	rc      *recnSwitch           // RECN's state (nil under the other organisations)
	ctrl    []link.Lane[recn.Msg] // RECN's control lanes of the network, indexed as its wires

	// FlitHops counts flits through the crossbar (read while paused).
	FlitHops uint64
}

// Name is the switch's human name.
func (s *Switch) Name() string { return s.sh.topo.RouterName(int(s.id)) }

// Tick advances the switch by one cycle: arrivals and credits, crossbar
// allocation, one flit across the crossbar per transfer, one flit onto
// every link.
func (s *Switch) Tick(now clock.Cycle) {
	if s.rc != nil {
		s.tickRECN(now)
		return
	}
	for m := s.conn; m != 0; m &= m - 1 {
		p := trailing(m)
		f, cq, hasF, hasC := s.wires.Take(int(s.in0)+p, now)
		if hasC && !s.links[p].creditBack(int(cq), s.sh) {
			panic(fmt.Sprintf("%s at cycle %d: credit overflow on %s queue %d", s.Name(), now, s.sh.topo.PortName(int(s.id), p), cq))
		}
		if hasF {
			s.arrive(now, p, f)
		}
	}
	s.allocate(now)
	for p := range s.xf {
		if s.xf[p].src >= 0 {
			s.cross(now, p)
		}
	}
	for m := s.conn; m != 0; m &= m - 1 {
		o := trailing(m)
		if l := &s.links[o]; l.cur >= 0 || s.egr[o].used > 0 {
			l.send(now, s.wires, &s.pl, &s.egr[o], s.sh, int(s.next[o]), s)
		}
	}
}

func (s *Switch) arrive(now clock.Cycle, p int, f *link.Flit) {
	m := &s.ing[p]
	if f.Index == 0 {
		d := s.pl.alloc()
		out := s.sh.route(int(s.id), f.Dst)
		q := s.sh.queueAt(int(s.id), f.Dst)
		if s.rc != nil {
			q, _ = s.sh.recnQueue(&s.rc.ing[p], int(s.id), f.Dst, out)
		}
		pk := &s.pl.p[d]
		pk.hdr, pk.have, pk.sent, pk.out, pk.ready = *f, 0, 0, uint8(out), uint32(now)+s.sh.delay
		m.push(&s.pl, q, d, int32(f.Size))
		s.recv[p], s.recvQ[p] = d, int32(q)
	}
	d := s.recv[p]
	if d < 0 || s.pl.p[d].hdr.Src != f.Src || s.pl.p[d].hdr.Seq != f.Seq || s.pl.p[d].have != f.Index {
		panic(fmt.Sprintf("%s at cycle %d: flit %d of packet %d/%d arrived out of turn on %s", s.Name(), now, f.Index, f.Src, f.Seq, s.sh.topo.PortName(int(s.id), p)))
	}
	pk := &s.pl.p[d]
	pk.have++
	q := int(s.recvQ[p])
	m.arrive(now, q)
	if m.q[q].flits > s.sh.queueCap || m.used > s.sh.memFlits {
		panic(fmt.Sprintf("%s at cycle %d: %s ingress overflows (queue %d holds %d flits, memory %d)", s.Name(), now, s.sh.topo.PortName(int(s.id), p), q, m.q[q].flits, m.used))
	}
	if pk.have == pk.hdr.Size {
		s.recv[p] = -1
		if s.rc != nil {
			s.recnArrived(now, p, q)
		}
	}
}

// allocate grants the crossbar, one packet per free input and per free
// output: the outputs in rotating order, each taking the first input after
// the one it served last (round robin per output, so that no input starves
// on a periodic pattern of free space) that offers a packet for it at the
// head of one of its queues (round robin over the queues of a VOQ input),
// routed, with room for all of it in the egress queue. Under RECN the
// detection queues are served before the SAQs (blocked or stopped SAQs
// skipped), as in the paper.
func (s *Switch) allocate(now clock.Cycle) {
	P := int32(len(s.ing))
	s.rrOut++
	if s.rrOut >= P {
		s.rrOut = 0
	}
	free := s.conn &^ s.outBusy
	var inputs uint64 // free inputs holding packets
	for p := range s.ing {
		if s.xf[p].src < 0 && s.ing[p].packets > 0 {
			inputs |= 1 << p
		}
	}
	if inputs == 0 || free == 0 {
		return
	}
	switch s.sh.org {
	case VOQNet:
		s.allocateScan(now, free, inputs, scanVOQ)
		return
	case RECN:
		// Detection queues first, then SAQs on what is left free.
		free, inputs = s.allocateScan(now, free, inputs, scanDetection)
		s.allocateScan(now, free, inputs, scanSAQ)
		return
	}
	// One queue per input (1q) or per output (voq-sw): the requests are
	// the routed heads, at most one per input and output pair.
	req := s.req
	clear(req)
	for m := inputs; m != 0; m &= m - 1 {
		p := trailing(m)
		ing := &s.ing[p]
		for i := nextSet(ing.nonEmpty, 0); i >= 0; i = nextSet(ing.nonEmpty, i+1) {
			pk := &s.pl.p[ing.q[i].head]
			if int32(uint32(now)-pk.ready) >= 0 {
				req[pk.out] |= 1 << p
			}
		}
	}
	for k := int32(0); k < P && free != 0 && inputs != 0; k++ {
		o := s.rrOut + k
		if o >= P {
			o -= P
		}
		r := req[o] & inputs
		if free&(1<<o) == 0 || r == 0 {
			continue
		}
		// Inputs after the one o served last, then the others.
		after := r &^ (uint64(2)<<s.lastIn[o] - 1)
		for _, m := range [2]uint64{after, r &^ after} {
			for ; m != 0; m &= m - 1 {
				p := trailing(m)
				i := 0
				if s.sh.org == VOQSw {
					i = int(o)
				}
				if s.tryGrant(now, p, i, int(o)) {
					s.lastIn[o] = int32(p)
					free &^= 1 << o
					inputs &^= 1 << p
					break
				}
			}
			if free&(1<<o) == 0 {
				break
			}
		}
	}
}

// scan says which queue heads allocateScan offers: any of a VOQnet
// input's, a RECN input's detection queue for the output, or its SAQs.
type scan uint8

const (
	scanVOQ scan = iota
	scanDetection
	scanSAQ
)

// allocateScan is allocate for the organisations whose inputs offer the
// heads of many queues (VOQnet, RECN): each free output, in rotating
// order, scans the inputs after the one it served last for a head of the
// kind which routed to it. It returns the outputs and inputs left free.
func (s *Switch) allocateScan(now clock.Cycle, free, inputs uint64, which scan) (uint64, uint64) {
	P := int32(len(s.ing))
	for k := int32(0); k < P && free != 0 && inputs != 0; k++ {
		o := s.rrOut + k
		if o >= P {
			o -= P
		}
		if free&(1<<o) == 0 {
			continue
		}
		for j := int32(1); j <= P; j++ {
			p := s.lastIn[o] + j
			if p >= P {
				p -= P
			}
			if inputs&(1<<p) == 0 {
				continue
			}
			var granted bool
			switch which {
			case scanVOQ:
				granted = s.request(now, int(p), int(o))
			case scanDetection:
				granted = s.ing[p].q[o].head >= 0 && s.tryGrant(now, int(p), int(o), int(o))
			default:
				granted = s.grantSAQ(now, int(p), int(o))
			}
			if granted {
				s.lastIn[o] = p
				free &^= 1 << o
				inputs &^= 1 << p
				break
			}
		}
	}
	return free, inputs
}

// request grants input p a transfer to output o if one of its queue heads
// is routed to o, ready and fits in its egress queue.
func (s *Switch) request(now clock.Cycle, p, o int) bool {
	m := &s.ing[p]
	switch s.sh.org {
	case OneQ:
		return m.q[0].head >= 0 && s.tryGrant(now, p, 0, o)
	case VOQSw:
		return m.q[o].head >= 0 && s.tryGrant(now, p, o, o)
	}
	for pass := 0; pass < 2; pass++ {
		lo, hi := int(m.rr), len(m.q)
		if pass == 1 {
			lo, hi = 0, int(m.rr)
		}
		for i := nextSet(m.nonEmpty, lo); i >= 0 && i < hi; i = nextSet(m.nonEmpty, i+1) {
			if s.tryGrant(now, p, i, o) {
				m.rr = int32(i + 1)
				return true
			}
		}
	}
	return false
}

// tryGrant starts the transfer of the head of queue i of input p if it is
// routed to output o, ready, and fits in its egress queue.
func (s *Switch) tryGrant(now clock.Cycle, p, i, o int) bool {
	src := s.ing[p].q[i].head
	pk := &s.pl.p[src]
	if int(pk.out) != o || int32(uint32(now)-pk.ready) < 0 {
		return false
	}
	e := &s.egr[o]
	q := s.sh.queueAt(int(s.next[o]), pk.hdr.Dst)
	if s.rc != nil {
		var line int
		q, line = s.sh.recnQueue(&s.rc.egr[o], int(s.next[o]), pk.hdr.Dst, 0)
		if s.rc.egr[o].full>>q&1 != 0 {
			// A full SAQ (Feeders scope) takes nothing more; the input is
			// told to set the point's packets aside if it does not yet.
			if s.rc.egr[o].Holding(line, p) {
				s.after(now, true, o)
			}
			return false
		}
	}
	size := int32(pk.hdr.Size)
	if e.reserved+size > s.sh.memFlits || e.q[q].reserved+size > s.sh.queueCap {
		return false
	}
	hdr := pk.hdr
	d := s.pl.alloc()
	np := &s.pl.p[d]
	np.hdr, np.have, np.sent = hdr, 0, 0
	e.push(&s.pl, q, d, size)
	s.xf[p] = xfer{src: src, dst: d, srcQ: int32(i), dstQ: int32(q), out: int32(o)}
	s.outBusy |= 1 << o
	return true
}

// cross moves the next flit of ingress port p's transfer into its egress
// memory and returns the credit for it upstream.
func (s *Switch) cross(now clock.Cycle, p int) {
	x := &s.xf[p]
	src := &s.pl.p[x.src]
	if src.have <= src.sent {
		return
	}
	src.sent++
	s.ing[p].depart(now, int(x.srcQ))
	cq := uint16(0)
	if s.sh.perQueueC {
		cq = uint16(x.srcQ)
	}
	if !s.wires.PutCredit(int(s.links[p].wire), now, link.Credit{VC: cq}) {
		panic(fmt.Sprintf("%s at cycle %d: second credit sent in one cycle on %s", s.Name(), now, s.sh.topo.PortName(int(s.id), p)))
	}
	dst := &s.pl.p[x.dst]
	dst.have++
	s.egr[x.out].arrive(now, int(x.dstQ))
	s.FlitHops++
	if src.sent == src.hdr.Size {
		marker := int32(-1)
		if src.marker {
			marker = x.src
		}
		s.ing[p].pop(&s.pl, int(x.srcQ))
		s.outBusy &^= 1 << x.out
		x.src = -1
		if s.rc != nil {
			s.recnEgressArrived(now, int(x.out), int(x.dstQ), p)
			s.recnDeparted(now, false, p, int(x.srcQ), marker)
		}
	} else if s.rc != nil && x.srcQ >= int32(len(s.ing)) {
		s.recnDeparted(now, false, p, int(x.srcQ), -1)
	}
}
