package fabric

import (
	"math"
	"unsafe"

	"github.com/icnsim/icnsim/clock"
)

// Packet is a packet waiting in a source queue.
type Packet struct {
	Gen   int64 // generation cycle
	Dst   int32
	Size  uint16 // flits
	Class uint8
	// Seq is the packet's sequence number where its source numbers its
	// packets itself (a ClosedLoop source); other sources leave it 0 and
	// the NI numbers their packets.
	Seq uint32
}

// SourceQueue is a NI's unbounded FIFO of generated packets. It grows by
// doubling and never shrinks, so in the steady state it does not allocate.
// On a node with a channel per message class, packets of class 1 and up
// go on to the other channel's queue (split); on a node with a queue per
// traffic class, each class to its own (a chain of splits).
type SourceQueue struct {
	head, size int32
	ring       []Packet
	split      *SourceQueue
}

// Len is the number of queued packets.
func (q *SourceQueue) Len() int { return int(q.size) }

// Push appends a packet generated at cycle now.
func (q *SourceQueue) Push(now clock.Cycle, dst int, sizeFlits int, class uint8) {
	q.PushSeq(now, dst, sizeFlits, class, 0)
}

// PushSeq appends a packet generated at cycle now with sequence number seq
// (a ClosedLoop source's).
func (q *SourceQueue) PushSeq(now clock.Cycle, dst int, sizeFlits int, class uint8, seq uint32) {
	q.PushPacket(Packet{Gen: int64(now), Dst: int32(dst), Size: uint16(sizeFlits), Class: class, Seq: seq})
}

// PushPacket appends p as it is (a reply keeps its request's generation
// cycle: package traffic's request-reply process).
func (q *SourceQueue) PushPacket(p Packet) {
	for c := p.Class; c > 0 && q.split != nil; c-- {
		q = q.split
	}
	if int(q.size) == len(q.ring) {
		if q.size == math.MaxInt32 {
			panic("fabric: more than 2^31 packets in a source queue")
		}
		n := min(max(4, 2*len(q.ring)), math.MaxInt32)
		ring := make([]Packet, n)
		for i := 0; i < int(q.size); i++ {
			ring[i] = q.ring[(int(q.head)+i)%len(q.ring)]
		}
		q.ring, q.head = ring, 0
	}
	q.ring[(int(q.head)+int(q.size))%len(q.ring)] = p
	q.size++
}

// SplitClasses sends the packets of class 1 and up pushed on q to other
// from now on (a node with a channel per message class); those of class 2
// and up go on from other to its own split, if it has one (a queue per
// traffic class).
func (q *SourceQueue) SplitClasses(other *SourceQueue) { q.split = other }

// Front is the oldest packet, in place (the next to leave); the queue must
// not be empty.
func (q *SourceQueue) Front() *Packet { return &q.ring[q.head] }

// Bytes is the memory the queue's ring holds.
func (q *SourceQueue) Bytes() int { return cap(q.ring) * int(unsafe.Sizeof(Packet{})) }

// Peek returns the i-th oldest packet (0: the next to leave) without
// removing it; i must be below Len.
func (q *SourceQueue) Peek(i int) Packet { return q.ring[(int(q.head)+i)%len(q.ring)] }

// Pop removes and returns the oldest packet; the queue must not be empty.
func (q *SourceQueue) Pop() Packet {
	p := q.ring[q.head]
	q.head++
	if int(q.head) == len(q.ring) {
		q.head = 0
	}
	q.size--
	return p
}
