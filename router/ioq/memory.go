package ioq

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// pkt is a packet in one memory: a copy of its head flit, the flits of it
// that have arrived there and those that have left. A packet crossing
// from one memory to another (the crossbar, a link) has a descriptor in
// each until its tail has left the first. 48 bytes.
type pkt struct {
	hdr   link.Flit
	next  int32  // next packet of the queue; -1 at the tail
	have  uint16 // flits arrived in this memory
	sent  uint16 // flits departed from it
	ready uint32 // low 32 bits of the cycle its head may first request the crossbar
	out   uint8  // output port at this switch (ingress memories)
	// marker: a RECN in-order pointer waits for this packet to leave.
	marker bool
	_      [2]byte
}

// pool holds the packet descriptors of one actor, with a free list. It
// grows with what is buffered (never shrinks), so the simulator's memory
// follows the flits held, not the ports' nominal capacity, and a steady
// state allocates nothing.
type pool struct {
	p    []pkt
	free int32 // first free descriptor, -1 for none
	// most is the most descriptors the actor can hold at once (its
	// memories full of the smallest packets): the pool never grows past it.
	most int32
}

func newPool(most int) pool { return pool{free: -1, most: int32(most)} }

func (pl *pool) alloc() int32 {
	if pl.free < 0 {
		n := len(pl.p)
		if n >= int(pl.most) {
			panic(fmt.Sprintf("ioq: more than %d packet descriptors in one actor: its memories hold more packets than fit", pl.most))
		}
		grown := make([]pkt, min(max(8, 2*n), int(pl.most)))
		copy(grown, pl.p)
		for i := n; i < len(grown); i++ {
			grown[i].next = int32(i + 1)
		}
		grown[len(grown)-1].next = -1
		pl.p, pl.free = grown, int32(n)
	}
	d := pl.free
	pl.free = pl.p[d].next
	pl.p[d].next, pl.p[d].marker = -1, false
	return d
}

func (pl *pool) release(d int32) {
	pl.p[d].next = pl.free
	pl.free = d
}

// queue is a FIFO of descriptors in one memory.
type queue struct {
	head, tail int32
	flits      int32 // flits present
	reserved   int32 // flits of its packets not yet departed (arrived or not)
}

// memory is a port's ingress or egress memory (or an adapter's injection
// side): its queues, which of them are non-empty, and its totals.
type memory struct {
	q        []queue
	nonEmpty []uint64 // bit i: queue i holds a packet
	mute     uint64   // bit i: queue i may not send (RECN's blocked and stopped SAQs)
	rr       int32    // the queue after the last one served
	used     int32    // flits present
	reserved int32    // flits of the packets it holds, arrived or not
	packets  int32
	moved    clock.Cycle // the last cycle a flit left (or arrived into an empty memory)
}

func newMemory(qs []queue, words []uint64) memory {
	for i := range qs {
		qs[i] = queue{head: -1, tail: -1}
	}
	return memory{q: qs, nonEmpty: words}
}

// push appends descriptor d of a packet of size flits to queue i, all of
// its flits reserved and none yet arrived.
func (m *memory) push(pl *pool, i int, d int32, size int32) {
	q := &m.q[i]
	if q.tail < 0 {
		q.head = d
		m.nonEmpty[i>>6] |= 1 << (i & 63)
	} else {
		pl.p[q.tail].next = d
	}
	q.tail = d
	q.reserved += size
	m.reserved += size
	m.packets++
}

// pop removes the front packet of queue i (all of whose flits have left).
func (m *memory) pop(pl *pool, i int) {
	q := &m.q[i]
	d := q.head
	q.head = pl.p[d].next
	if q.head < 0 {
		q.tail = -1
		m.nonEmpty[i>>6] &^= 1 << (i & 63)
	}
	m.packets--
	pl.release(d)
}

// arrive counts a flit arriving in queue i.
func (m *memory) arrive(now clock.Cycle, i int) {
	if m.used == 0 {
		m.moved = now
	}
	m.q[i].flits++
	m.used++
}

// depart counts a flit leaving queue i.
func (m *memory) depart(now clock.Cycle, i int) {
	q := &m.q[i]
	q.flits--
	q.reserved--
	m.used--
	m.reserved--
	m.moved = now
}

// nextSet is the first set bit of the bitset w at or after from, or -1.
func nextSet(w []uint64, from int) int {
	i := from >> 6
	if i >= len(w) {
		return -1
	}
	if x := w[i] >> (from & 63); x != 0 {
		return from + bits.TrailingZeros64(x)
	}
	for i++; i < len(w); i++ {
		if x := w[i]; x != 0 {
			return i<<6 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

func trailing(m uint64) int { return bits.TrailingZeros64(m) }
