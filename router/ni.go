package router

import (
	"fmt"
	"math"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Packet is a packet waiting in a source queue.
type Packet struct {
	Gen   int64 // generation cycle
	Dst   int32
	Size  uint16 // flits
	Class uint8
}

// SourceQueue is a NI's unbounded FIFO of generated packets. It grows by
// doubling and never shrinks, so in the steady state it does not allocate.
// On a node with a channel per message class, packets of class 1 and up
// go on to the other channel's queue (split).
type SourceQueue struct {
	head, size int32
	ring       []Packet
	split      *SourceQueue
}

// Len is the number of queued packets.
func (q *SourceQueue) Len() int { return int(q.size) }

// Push appends a packet generated at cycle now.
func (q *SourceQueue) Push(now clock.Cycle, dst int, sizeFlits int, class uint8) {
	if class > 0 && q.split != nil {
		q = q.split
	}
	if int(q.size) == len(q.ring) {
		if q.size == math.MaxInt32 {
			panic("router: more than 2^31 packets in a source queue")
		}
		n := min(max(4, 2*len(q.ring)), math.MaxInt32)
		ring := make([]Packet, n)
		for i := 0; i < int(q.size); i++ {
			ring[i] = q.ring[(int(q.head)+i)%len(q.ring)]
		}
		q.ring, q.head = ring, 0
	}
	q.ring[(int(q.head)+int(q.size))%len(q.ring)] = Packet{Gen: int64(now), Dst: int32(dst), Size: uint16(sizeFlits), Class: class}
	q.size++
}

// Peek returns the i-th oldest packet (0: the next to leave) without
// removing it; i must be below Len.
func (q *SourceQueue) Peek(i int) Packet { return q.ring[(int(q.head)+i)%len(q.ring)] }

// Pop removes and returns the oldest packet; the queue must not be empty.
func (q *SourceQueue) Pop() Packet { return q.pop() }

func (q *SourceQueue) pop() Packet {
	p := q.ring[q.head]
	q.head++
	if int(q.head) == len(q.ring) {
		q.head = 0
	}
	q.size--
	return p
}

// Source generates the packets of one NI (package traffic implements it).
// It is owned by that NI alone.
type Source interface {
	// Generate is called at cycle 0 and then at every cycle at or after the
	// cycle it last returned; it pushes the packets generated at cycle now
	// and returns the next cycle it wants to be called (clock.Never for none).
	Generate(now clock.Cycle, q *SourceQueue) (next clock.Cycle)
}

// Sink observes delivered packets at one NI (package report implements it).
// It is owned by that NI alone.
type Sink interface {
	// Delivered is called when the tail flit f of a packet arrives at cycle now.
	Delivered(now clock.Cycle, f *link.Flit)
}

// Gate is an injection gate (package policies implements them). It is owned
// by one NI alone. Every cycle the NI first generates the cycle's packets,
// then calls Observe with the number of packets in its source queue (where
// the gate reads its control lanes, updates its mode and may send on its
// own lanes), then, if a packet is waiting and none is being injected,
// Allow; a packet already started is never interrupted. Started is called
// in the cycle a packet's head flit leaves the NI (Allow returned true and
// the router had room), Injected in the cycle its tail flit leaves.
type Gate interface {
	Observe(now clock.Cycle, queuedPackets int)
	Allow(now clock.Cycle) bool
	Started(now clock.Cycle)
	Injected(now clock.Cycle)
}

// Observation is what a router observes of its own buffers in one cycle:
// the non-empty input VC buffers (valid, the entropy papers' N_v) and those
// whose front flit moved on (active, N_a), over all input ports, with the
// injection ports' share of each.
type Observation struct {
	Valid, Active, ValidInj, ActiveInj int
}

// ControlPlane is a router's control-plane logic (package policies
// implements it, e.g. the entropy measurement circuit). It is owned by one
// router alone and stepped once per cycle at the end of the router's tick,
// after the data path has sent this cycle's flits, so that a control lane
// stealing idle link cycles sees whether the link carried a flit.
type ControlPlane interface {
	Step(now clock.Cycle, obs Observation)
}

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

// NI is a network interface actor: source queue and injection on one side,
// checking sink on the other. It is 320 bytes; what an idle cycle reads
// (its input wire, the next generation cycle, its gate, whether it has a
// second channel, channel 0's source queue length and whether it is sending)
// is its first cache line (TestNILayout).
//
// A node attached by one channel (the default) sends every packet through
// it from one source queue. A node with a channel per message class (the
// topology's NodeChannels is 2, as Hybrid-HAR's separate injection and
// sink channels for short and long messages) keeps a source queue, an
// injection channel and a sink channel per class: ch for class 0 and
// ch.next for class 1 and up, each injecting one packet at a time on its own
// link, so a long packet being injected or received never holds up a short
// one. An injection gate sees channel 0 only.
type NI struct {
	// wires is the network's wire arena; channel c reads wire c.in
	// (ejection flits, injection credits) and writes wire c.out (injection
	// flits, ejection credits).
	wires   *link.Wires
	nextGen clock.Cycle
	gate    Gate // nil: always allow
	ch      niChannel

	seq  uint32
	id   int32
	sh   *niShared
	src  Source
	sink Sink

	// Counters (read only while the NI is paused).
	PacketsGenerated, PacketsInjected, PacketsDelivered uint64
	FlitsInjected, FlitsDelivered                       uint64
	LastDelivery                                        clock.Cycle
	sentHash, recvHash                                  uint64
	perDst                                              *PacketCounts // nil unless counted
	_                                                   [48]byte      // to 320 bytes
}

// niChannel is one channel between a node and its router: a source queue,
// the packet being injected and, per VC, the injection credits and the
// sink's reassembly.
type niChannel struct {
	in, out int32
	sending bool
	next    *niChannel // class 1 and up's channel after channel 0 (NI.ch); nil after the last
	q       SourceQueue
	cur     link.Flit // next flit of the packet being injected
	vc      []niVC
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

// CountPerDestination makes the NI count the packets it starts per
// destination from now on (before the run, or while it is paused) and
// returns the row it counts into.
func (n *NI) CountPerDestination() *PacketCounts {
	if n.perDst == nil {
		n.perDst = &PacketCounts{counts: make([]uint32, n.sh.topo.Nodes())}
	}
	return n.perDst
}

// Snapshot copies the counts into dst (grown as needed) and returns it.
// Read it only while the NI is paused.
func (c *PacketCounts) Snapshot(dst []uint32) []uint32 {
	return append(dst[:0], c.counts...)
}

// niVC is what an NI keeps per VC: its credits for the router's injection
// VC, and the packet arriving on the ejection VC.
type niVC struct {
	credits int32
	reasm   Reassembly
}

// niShared is what every NI of a network has alike, kept once.
type niShared struct {
	topo  link.Topology // names NIs in errors
	rf    RoutingFunc
	inj   Injector // rf, when its packets start with a routing state; else nil
	vcs   int32
	depth int32
	vct   bool
}

// Name is the NI's human name.
func (n *NI) Name() string { return n.sh.topo.NodeName(int(n.id)) }

// SetGate installs an injection gate (before the run starts).
func (n *NI) SetGate(g Gate) { n.gate = g }

// Queued is the number of packets in the source queues (not yet injecting).
func (n *NI) Queued() int {
	if n.ch.next != nil {
		return n.ch.q.Len() + n.ch.next.q.Len()
	}
	return n.ch.q.Len()
}

// Credits is the NI's view of free slots in VC v of its router's input port
// (of channel 0).
func (n *NI) Credits(v int) int { return int(n.ch.vc[v].credits) }

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

// Tick advances the NI by one cycle.
func (n *NI) Tick(now clock.Cycle) {
	// The credit and the flit that arrived on each channel (written out
	// here rather than called: this is every NI's every cycle).
	for c := &n.ch; c != nil; c = c.next {
		f, cr, hasCredit := n.wires.Recv(int(c.in), now)
		if hasCredit {
			v := &c.vc[cr.VC].credits
			*v++
			if *v > n.sh.depth {
				panic(fmt.Sprintf("%s at cycle %d: credit overflow on injection VC %d", n.Name(), now, cr.VC))
			}
		}
		if f != nil {
			n.receive(now, f, c)
		}
	}
	if now >= n.nextGen {
		before := n.Queued()
		n.nextGen = n.src.Generate(now, &n.ch.q)
		n.PacketsGenerated += uint64(n.Queued() - before)
	}
	if n.gate != nil {
		n.gate.Observe(now, n.ch.q.Len())
	}
	n.inject(now, &n.ch, n.gate)
	if n.ch.next != nil {
		n.inject(now, n.ch.next, nil)
	}
}

// inject sends the next flit of channel c, starting its next packet when
// none is being sent and gate (nil: none) allows.
func (n *NI) inject(now clock.Cycle, c *niChannel, gate Gate) {
	if !c.sending {
		if c.q.Len() == 0 || (gate != nil && !gate.Allow(now)) {
			return
		}
		p := &c.q.ring[c.q.head]
		vc := n.pickVC(p, c)
		if vc < 0 {
			return
		}
		c.q.pop()
		c.cur = link.Flit{Src: n.id, Dst: p.Dst, Seq: n.seq, Size: p.Size, VC: uint8(vc), Class: p.Class, Gen: p.Gen, InjDelay: uint32(min(int64(now)-p.Gen, 1<<32-1))}
		if inj := n.sh.inj; inj != nil {
			c.cur.Route = inj.InjectRoute(int(n.id), int(p.Dst))
		}
		n.seq++
		c.sending = true
		n.PacketsInjected++
		if n.perDst != nil {
			n.perDst.counts[p.Dst]++
		}
		if gate != nil {
			gate.Started(now)
		}
		n.sentHash += PacketHash(c.cur.Src, c.cur.Seq, c.cur.Dst)
	}
	vc := c.cur.VC
	if c.vc[vc].credits <= 0 {
		return
	}
	slot, ok := n.wires.FlitSlot(int(c.out), now)
	if !ok {
		panic(fmt.Sprintf("%s at cycle %d: second flit sent in one cycle", n.Name(), now))
	}
	*slot = c.cur
	c.vc[vc].credits--
	n.FlitsInjected++
	c.cur.Index++
	if c.cur.Index == c.cur.Size {
		c.sending = false
		if gate != nil {
			gate.Injected(now)
		}
	}
}

// pickVC chooses the injection VC of a new packet: among the VCs the routing
// function allows, one with room (for the whole packet under virtual
// cut-through), most credits first, lowest VC on a tie.
func (n *NI) pickVC(p *Packet, c *niChannel) int {
	need := int32(1)
	if n.sh.vct {
		need = int32(p.Size)
	}
	best, bestCred := -1, int32(0)
	for m := n.sh.rf.InjectVCs(int(n.id), int(p.Dst)); m != 0; m &= m - 1 {
		v := trailingZeros(m)
		if v >= int(n.sh.vcs) {
			break
		}
		if cr := c.vc[v].credits; cr >= need && cr > bestCred {
			best, bestCred = v, cr
		}
	}
	return best
}

func (n *NI) receive(now clock.Cycle, f *link.Flit, c *niChannel) {
	if f.Dst != n.id {
		panic(fmt.Sprintf("%s at cycle %d: received packet %d/%d for node %d", n.Name(), now, f.Src, f.Seq, f.Dst))
	}
	if int32(f.VC) >= n.sh.vcs {
		panic(fmt.Sprintf("%s at cycle %d: flit on VC %d", n.Name(), now, f.VC))
	}
	if r := &c.vc[f.VC].reasm; !r.Accept(f) {
		panic(fmt.Sprintf("%s at cycle %d: flit %d of packet %d/%d on VC %d, expected %s",
			n.Name(), now, f.Index, f.Src, f.Seq, f.VC, r.Expected()))
	}
	n.FlitsDelivered++
	if !n.wires.PutCredit(int(c.out), now, link.Credit{VC: uint16(f.VC)}) {
		panic(fmt.Sprintf("%s at cycle %d: second credit sent in one cycle", n.Name(), now))
	}
	if f.Index+1 == f.Size {
		n.PacketsDelivered++
		n.LastDelivery = now
		n.recvHash += PacketHash(f.Src, f.Seq, f.Dst)
		if n.sink != nil {
			n.sink.Delivered(now, f)
		}
	}
}
