package fabric

import (
	"fmt"

	"github.com/icnsim/icnsim/link"
)

// Reassembly is a sink's check of one channel (or VC) on which the flits of
// one packet at a time arrive: every packet whole, its flits in order, none
// from another packet in between. The NI keeps one per ejection VC; the
// input/output-buffered switch's adapters one per link.
type Reassembly struct {
	src  int32
	seq  uint32
	next uint16 // index of the next expected flit; 0 when idle
}

// Accept takes the next flit f to arrive and reports whether it is the one
// expected; when it is not, r is left as it was (for the error message).
func (r *Reassembly) Accept(f *link.Flit) bool {
	if f.Index != r.next || (f.Index > 0 && (f.Src != r.src || f.Seq != r.seq)) {
		return false
	}
	r.src, r.seq = f.Src, f.Seq
	r.next++
	if f.Index+1 == f.Size {
		r.next = 0
	}
	return true
}

// Expected describes the flit r waits for, for an error message.
func (r *Reassembly) Expected() string {
	if r.next == 0 {
		return "the head of a new packet"
	}
	return fmt.Sprintf("flit %d of packet %d/%d", r.next, r.src, r.seq)
}

// FlowOrder is a sink's check that the packets of every source arrive in
// the order their source sent them: sequence numbers, which a source
// gives its packets in the order it sends them, increase per source.
type FlowOrder struct {
	last []uint32 // 1 + the sequence number of the last packet from each source; 0: none yet
}

// NewFlowOrder returns the check for a network of the given number of nodes.
func NewFlowOrder(nodes int) FlowOrder { return FlowOrder{last: make([]uint32, nodes)} }

// Accept records packet seq of src and reports whether it came after every
// earlier one of src.
func (o *FlowOrder) Accept(src int32, seq uint32) bool {
	l := &o.last[src]
	if seq+1 <= *l {
		return false
	}
	*l = seq + 1
	return true
}

// PacketCounts counts the packets one NI has started, per destination: a
// row of the injection matrix.
type PacketCounts struct {
	counts []uint32
}

// NewPacketCounts returns a row of zero counts for a network of the given
// number of nodes.
func NewPacketCounts(nodes int) *PacketCounts { return &PacketCounts{counts: make([]uint32, nodes)} }

// Add counts one packet to dst.
func (c *PacketCounts) Add(dst int32) { c.counts[dst]++ }

// Snapshot copies the counts into dst (grown as needed) and returns it.
// Read it only while the NI is paused.
func (c *PacketCounts) Snapshot(dst []uint32) []uint32 {
	return append(dst[:0], c.counts...)
}

// PacketHash mixes a packet's identity for the exactly-once check: a sink
// sums it over the packets it receives, a source over those it sends, and
// on a drained network the two sums are equal.
func PacketHash(src int32, seq uint32, dst int32) uint64 {
	h := uint64(uint32(src))<<32 | uint64(seq)
	h ^= uint64(uint32(dst)) * 0x9E3779B97F4A7C15
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return h
}
