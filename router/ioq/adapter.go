package ioq

import (
	"fmt"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq/recn"
)

// Adapter is an endnode's input adapter and sink (an actor). Generated
// packets wait in admission queues, one per destination (VOQnet style,
// unbounded, their waiting counted in latency); a round-robin arbiter
// moves one packet at a time, a flit per cycle, into the injection
// memory, organised as an egress port of a switch; a second round-robin
// arbiter sends packets from the injection queues onto the link. The sink
// checks every arriving packet (whole, in order per source, for this
// node, exactly once) and returns a credit per flit.
type Adapter struct {
	id      int32
	first   int32 // the switch the adapter is attached to
	in, out int32 // wires read (ejection flits, injection credits) and written
	nextGen clock.Cycle
	sh      *shared
	wires   *link.Wires
	src     fabric.Source
	sink    fabric.Sink
	staging fabric.SourceQueue
	// closed: src is a fabric.ClosedLoop, which numbers its packets and
	// is woken by deliveries.
	closed bool

	// adm holds the admission queues, one per destination, of packets
	// whose descriptors (head flits, nothing arrived) are in admPool,
	// which has no bound: like any source queue they wait unbounded.
	adm     memory
	admPool pool
	xfer    int32 // descriptor being filled in the injection memory, -1 none
	xferQ   int32
	// admBlocked: the last startTransfer found no admission queue whose
	// head could start, and nothing it depends on (the admission queues,
	// the injection memory's space, RECN's lines and full SAQs) has
	// changed since: the next one would find none either.
	admBlocked bool
	inj        memory
	link       outLink
	pl         pool
	seq        uint32
	reasm      fabric.Reassembly
	order      fabric.FlowOrder
	// RECN (nil under the other organisations): the injection side's SAQs,
	// the control lanes of the network and the messages for the link.
	rp   *recnPort
	ctrl []link.Lane[recn.Msg]
	pend ctrlFIFO

	// Counters (read only while the adapter is paused).
	PacketsGenerated, PacketsInjected, PacketsDelivered uint64
	FlitsInjected, FlitsDelivered                       uint64
	LastDelivery                                        clock.Cycle
	sentHash, recvHash                                  uint64
	perDst                                              *fabric.PacketCounts
}

// Name is the adapter's human name.
func (a *Adapter) Name() string { return a.sh.topo.NodeName(int(a.id)) }

// Queued is the number of packets generated and not yet moved into the
// injection memory.
func (a *Adapter) Queued() int { return a.staging.Len() + int(a.adm.packets) }

// Waiting is the number of packets in the injection memory that have not
// started on the link (moved there from their admission queue, so not
// Queued, and not yet injected, so not in flight).
func (a *Adapter) Waiting() int {
	if a.link.cur >= 0 {
		return int(a.inj.packets) - 1
	}
	return int(a.inj.packets)
}

// QueuedPacketBytes is the memory a packet counted by Queued takes while
// it waits: its descriptor in the admission pool, which, like a source
// queue's ring, grows by doubling and never shrinks (a soak test's bound
// on heap growth under overload).
const QueuedPacketBytes = int(unsafe.Sizeof(pkt{}))

// Tick advances the adapter by one cycle.
func (a *Adapter) Tick(now clock.Cycle) {
	f, cq, hasF, hasC := a.wires.Take(int(a.in), now)
	if hasC && !a.link.creditBack(int(cq), a.sh) {
		panic(fmt.Sprintf("%s at cycle %d: credit overflow on injection queue %d", a.Name(), now, cq))
	}
	if hasF {
		a.receive(now, f)
	}
	if a.rp != nil {
		a.recnStep(now)
	}
	if now >= a.nextGen {
		a.nextGen = a.src.Generate(now, &a.staging)
		for a.staging.Len() > 0 {
			a.admit(a.staging.Pop())
			a.PacketsGenerated++
		}
	}
	if a.xfer < 0 && a.adm.packets > 0 && !a.admBlocked {
		a.startTransfer(now)
	}
	if a.xfer >= 0 {
		p := &a.pl.p[a.xfer]
		p.have++
		a.inj.arrive(now, int(a.xferQ))
		if a.rp != nil && a.xferQ >= a.rp.q.base {
			a.rp.saw(int(a.xferQ))
		}
		if p.have == p.hdr.Size {
			a.xfer = -1
			if a.rp != nil && a.sh.recn.Scope == recn.Feeders && a.xferQ >= a.rp.q.base {
				a.rp.Filled(int(a.xferQ - a.rp.q.base))
				a.recnAfter()
			}
		}
	}
	if a.rp != nil && sendControl(now, &a.pend, &a.ctrl[a.out], &a.link, &a.pl, a.sh.dedicated) && !a.sh.dedicated {
		return
	}
	p, sent := a.link.send(now, a.wires, &a.pl, &a.inj, a.sh, int(a.first), a)
	if sent {
		a.admBlocked = false // the injection memory has a flit more room
		a.FlitsInjected++
		if a.rp != nil && (a.link.lastQ > 0 || a.link.poppedMarker >= 0) {
			a.recnDeparted(int(a.link.lastQ), a.link.poppedMarker)
		}
	}
	if p != nil {
		// The head of a new packet leaves this cycle.
		d := min(int64(now)-p.hdr.Gen, 1<<32-1)
		p.hdr.InjDelay = uint32(d)
		a.PacketsInjected++
		a.sentHash += fabric.PacketHash(p.hdr.Src, p.hdr.Seq, p.hdr.Dst)
		if a.perDst != nil {
			a.perDst.Add(p.hdr.Dst)
		}
	}
}

// admit queues a generated packet in the admission queue of its
// destination.
func (a *Adapter) admit(p fabric.Packet) {
	a.admBlocked = false
	d := a.admPool.alloc()
	a.admPool.p[d].hdr = link.Flit{Src: a.id, Dst: p.Dst, Size: p.Size, Class: p.Class, Gen: p.Gen, Seq: p.Seq}
	a.adm.push(&a.admPool, int(p.Dst), d, 0) // admission counts packets, not flits
}

// startTransfer moves the head packet of the next admission queue (round
// robin over destinations) whose injection queue has room for it.
func (a *Adapter) startTransfer(now clock.Cycle) {
	a.admBlocked = true // unless a packet starts below
	m := &a.adm
	for pass := 0; pass < 2; pass++ {
		lo, hi := int(m.rr), len(m.q)
		if pass == 1 {
			lo, hi = 0, int(m.rr)
		}
		for dst := nextSet(m.nonEmpty, lo); dst >= 0 && dst < hi; dst = nextSet(m.nonEmpty, dst+1) {
			hdr := a.admPool.p[m.q[dst].head].hdr
			iq, line := a.sh.queueAt(int(a.first), hdr.Dst), -1
			if a.rp != nil {
				iq, line = a.sh.recnQueue(a.rp, int(a.first), hdr.Dst, 0)
			}
			size := int32(hdr.Size)
			if a.inj.reserved+size > a.sh.memFlits || a.inj.q[iq].reserved+size > a.sh.queueCap {
				continue
			}
			if line >= 0 && a.rp.full>>iq&1 != 0 { // a full SAQ (Feeders scope) takes nothing more
				continue
			}
			m.pop(&a.admPool, dst)
			id := a.pl.alloc()
			p := &a.pl.p[id]
			if !a.closed {
				hdr.Seq = a.seq
			}
			p.hdr, p.have, p.sent = hdr, 0, 0
			a.seq++
			a.inj.push(&a.pl, iq, id, size)
			a.xfer, a.xferQ = id, int32(iq)
			m.rr = int32(dst + 1)
			if line >= 0 {
				a.rp.Enqueued(int64(now), line)
			}
			a.admBlocked = false
			return
		}
	}
}

func (a *Adapter) receive(now clock.Cycle, f *link.Flit) {
	if f.Dst != a.id {
		panic(fmt.Sprintf("%s at cycle %d: received packet %d/%d for node %d", a.Name(), now, f.Src, f.Seq, f.Dst))
	}
	if !a.reasm.Accept(f) {
		panic(fmt.Sprintf("%s at cycle %d: flit %d of packet %d/%d, expected %s", a.Name(), now, f.Index, f.Src, f.Seq, a.reasm.Expected()))
	}
	a.FlitsDelivered++
	if !a.wires.PutCredit(int(a.out), now, link.Credit{}) {
		panic(fmt.Sprintf("%s at cycle %d: second credit sent in one cycle", a.Name(), now))
	}
	if f.Index+1 == f.Size {
		if !a.order.Accept(f.Src, f.Seq) {
			panic(fmt.Sprintf("%s at cycle %d: packet %d/%d arrived after a later packet of the same source", a.Name(), now, f.Src, f.Seq))
		}
		a.PacketsDelivered++
		a.LastDelivery = now
		a.recvHash += fabric.PacketHash(f.Src, f.Seq, f.Dst)
		if a.sink != nil {
			a.sink.Delivered(now, f)
		}
		if a.closed {
			a.nextGen = min(a.nextGen, now)
		}
	}
}
