package router

import (
	"fmt"

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
type SourceQueue struct {
	ring       []Packet
	head, size int
}

// Len is the number of queued packets.
func (q *SourceQueue) Len() int { return q.size }

// Push appends a packet generated at cycle now.
func (q *SourceQueue) Push(now clock.Cycle, dst int, sizeFlits int, class uint8) {
	if q.size == len(q.ring) {
		n := max(16, 2*len(q.ring))
		ring := make([]Packet, n)
		for i := 0; i < q.size; i++ {
			ring[i] = q.ring[(q.head+i)%len(q.ring)]
		}
		q.ring, q.head = ring, 0
	}
	q.ring[(q.head+q.size)%len(q.ring)] = Packet{Gen: int64(now), Dst: int32(dst), Size: uint16(sizeFlits), Class: class}
	q.size++
}

func (q *SourceQueue) pop() Packet {
	p := q.ring[q.head]
	q.head++
	if q.head == len(q.ring) {
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
// by one NI alone. Every cycle the NI first calls Observe (where the gate
// reads its control lanes and updates its mode), then, if a packet is
// waiting and none is being injected, Allow; a packet already started is
// never interrupted. Injected is called in the cycle a packet's tail flit
// leaves the NI.
type Gate interface {
	Observe(now clock.Cycle)
	Allow(now clock.Cycle) bool
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

type reassembly struct {
	src  int32
	seq  uint32
	next uint16 // index of the next expected flit; 0 when idle
}

// NI is a network interface actor: source queue and injection on one side,
// checking sink on the other.
type NI struct {
	id    int
	name  string
	vcs   int
	depth int
	vct   bool
	rf    RoutingFunc
	inj   Injector // rf, when its packets start with a routing state; else nil
	src   Source
	sink  Sink
	gate  Gate // nil: always allow

	q       SourceQueue
	nextGen clock.Cycle

	out     *link.Wire // injection flits, ejection credits (read by the router)
	in      *link.Wire // ejection flits, injection credits (written by the router)
	credits []int32
	sending bool
	cur     link.Flit // next flit of the packet being injected
	seq     uint32

	reasm []reassembly

	// Counters (read only while the NI is paused).
	PacketsGenerated, PacketsInjected, PacketsDelivered uint64
	FlitsInjected, FlitsDelivered                       uint64
	LastDelivery                                        clock.Cycle
	sentHash, recvHash                                  uint64
}

// Name is the NI's human name.
func (n *NI) Name() string { return n.name }

// SetGate installs an injection gate (before the run starts).
func (n *NI) SetGate(g Gate) { n.gate = g }

// Queued is the number of packets in the source queue (not yet injecting).
func (n *NI) Queued() int { return n.q.Len() }

// Credits is the NI's view of free slots in VC v of its router's input port.
func (n *NI) Credits(v int) int { return int(n.credits[v]) }

// packetHash mixes a packet's identity for the exactly-once check.
func packetHash(src int32, seq uint32, dst int32) uint64 {
	h := uint64(uint32(src))<<32 | uint64(seq)
	h ^= uint64(uint32(dst)) * 0x9E3779B97F4A7C15
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	return h
}

// Tick advances the NI by one cycle.
func (n *NI) Tick(now clock.Cycle) {
	f, c, hasCredit := n.in.Recv(now)
	if hasCredit {
		n.credits[c.VC]++
		if n.credits[c.VC] > int32(n.depth) {
			panic(fmt.Sprintf("%s at cycle %d: credit overflow on injection VC %d", n.name, now, c.VC))
		}
	}
	if f != nil {
		n.receive(now, f)
	}
	if n.gate != nil {
		n.gate.Observe(now)
	}
	if now >= n.nextGen {
		before := n.q.Len()
		n.nextGen = n.src.Generate(now, &n.q)
		n.PacketsGenerated += uint64(n.q.Len() - before)
	}
	n.inject(now)
}

func (n *NI) inject(now clock.Cycle) {
	if !n.sending {
		if n.q.Len() == 0 || (n.gate != nil && !n.gate.Allow(now)) {
			return
		}
		p := &n.q.ring[n.q.head]
		vc := n.pickVC(p)
		if vc < 0 {
			return
		}
		n.q.pop()
		n.cur = link.Flit{Src: int32(n.id), Dst: p.Dst, Seq: n.seq, Size: p.Size, VC: uint8(vc), Class: p.Class, Gen: p.Gen, InjDelay: uint32(min(int64(now)-p.Gen, 1<<32-1))}
		if n.inj != nil {
			n.cur.Route = n.inj.InjectRoute(n.id, int(p.Dst))
		}
		n.seq++
		n.sending = true
		n.PacketsInjected++
		n.sentHash += packetHash(n.cur.Src, n.cur.Seq, n.cur.Dst)
	}
	vc := n.cur.VC
	if n.credits[vc] <= 0 {
		return
	}
	slot, ok := n.out.FlitSlot(now)
	if !ok {
		panic(fmt.Sprintf("%s at cycle %d: second flit sent in one cycle", n.name, now))
	}
	*slot = n.cur
	n.credits[vc]--
	n.FlitsInjected++
	n.cur.Index++
	if n.cur.Index == n.cur.Size {
		n.sending = false
		if n.gate != nil {
			n.gate.Injected(now)
		}
	}
}

// pickVC chooses the injection VC of a new packet: among the VCs the routing
// function allows, one with room (for the whole packet under virtual
// cut-through), most credits first, lowest VC on a tie.
func (n *NI) pickVC(p *Packet) int {
	need := int32(1)
	if n.vct {
		need = int32(p.Size)
	}
	best, bestCred := -1, int32(0)
	for m := n.rf.InjectVCs(n.id, int(p.Dst)); m != 0; m &= m - 1 {
		v := trailingZeros(m)
		if v >= n.vcs {
			break
		}
		if c := n.credits[v]; c >= need && c > bestCred {
			best, bestCred = v, c
		}
	}
	return best
}

func (n *NI) receive(now clock.Cycle, f *link.Flit) {
	if int(f.Dst) != n.id {
		panic(fmt.Sprintf("%s at cycle %d: received packet %d/%d for node %d", n.name, now, f.Src, f.Seq, f.Dst))
	}
	if int(f.VC) >= n.vcs {
		panic(fmt.Sprintf("%s at cycle %d: flit on VC %d", n.name, now, f.VC))
	}
	r := &n.reasm[f.VC]
	if f.Index != r.next || (f.Index > 0 && (f.Src != r.src || f.Seq != r.seq)) {
		panic(fmt.Sprintf("%s at cycle %d: flit %d of packet %d/%d on VC %d, expected flit %d of packet %d/%d",
			n.name, now, f.Index, f.Src, f.Seq, f.VC, r.next, r.src, r.seq))
	}
	r.src, r.seq = f.Src, f.Seq
	r.next++
	n.FlitsDelivered++
	if !n.out.PutCredit(now, link.Credit{VC: uint16(f.VC)}) {
		panic(fmt.Sprintf("%s at cycle %d: second credit sent in one cycle", n.name, now))
	}
	if f.Index+1 == f.Size {
		r.next = 0
		n.PacketsDelivered++
		n.LastDelivery = now
		n.recvHash += packetHash(f.Src, f.Seq, f.Dst)
		if n.sink != nil {
			n.sink.Delivered(now, f)
		}
	}
}
