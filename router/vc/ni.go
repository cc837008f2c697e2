package vc

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// NI is a network interface actor: source queue and injection on one side,
// checking sink on the other. It is 256 bytes; what an idle cycle reads
// (the network's shared settings with the wires, the next generation
// cycle, its gate, whether it has a second channel, channel 0's source
// queue length and whether it is sending) is its first cache line
// (TestNILayout).
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
	// sh holds the network's wire arena: channel c reads wire c.in
	// (ejection flits, injection credits) and writes wire c.out (injection
	// flits, ejection credits).
	sh      *niShared
	nextGen clock.Cycle
	gate    fabric.Gate // nil: always allow
	ch      niChannel

	seq  uint32
	id   int32
	src  fabric.Source
	sink fabric.Sink

	// Counters (read only while the NI is paused). The packets generated
	// are those injected and those queued (PacketsGenerated).
	PacketsInjected, PacketsDelivered uint64
	FlitsInjected, FlitsDelivered     uint64
	LastDelivery                      clock.Cycle
	sentHash, recvHash                uint64
	// srv is the state of a node whose source answers requests
	// (fabric.Responder); nil for every other node.
	srv *niServer
}

// niClasses is what a node keeps under a class share: a source queue per
// traffic class above 0 (class 0's is channel 0's; a chain of
// SourceQueue splits sends each class to its own), and the weighted
// share's state between them.
type niClasses struct {
	q     []fabric.SourceQueue
	share alloc.WeightedShare
}

// queue is traffic class k's source queue (channel c is channel 0).
func (n *NI) queue(c *niChannel, k int) *fabric.SourceQueue {
	if k == 0 {
		return &c.q
	}
	return &n.sh.cls[n.id].q[k-1]
}

// nextClass is the traffic class whose front packet channel c starts
// next, with its injection VC, under the class share: among the classes
// with a packet that has a VC with room, the lowest (priority) or the one
// the NI's weighted share serves next; -1 when none can start.
func (n *NI) nextClass(c *niChannel) (k, vc int) {
	var ready uint8
	var vcOf [alloc.MaxShareClasses]int
	cls := &n.sh.cls[n.id]
	for j := 0; j <= len(cls.q); j++ {
		q := n.queue(c, j)
		if q.Len() == 0 {
			continue
		}
		if v := n.pickVC(q.Front(), c, 0); v >= 0 {
			if n.sh.share == alloc.SharePriority {
				return j, v
			}
			ready |= 1 << j
			vcOf[j] = v
		}
	}
	if ready == 0 {
		return -1, -1
	}
	k = cls.share.Next(ready)
	return k, vcOf[k]
}

// PacketsGenerated is the number of packets the node's source generated:
// every one is injected or still queued (read only while the NI is paused).
func (n *NI) PacketsGenerated() uint64 { return n.PacketsInjected + uint64(n.Queued()) }

// niChannel is one channel between a node and its router: a source queue,
// the packet being injected and, per VC, the injection credits and the
// sink's reassembly.
type niChannel struct {
	in, out int32
	sending bool
	// closed: the node's source is a fabric.ClosedLoop, which numbers its
	// packets and is woken by deliveries.
	closed bool
	next   *niChannel // class 1 and up's channel after channel 0 (NI.ch); nil after the last
	q      fabric.SourceQueue
	cur    link.Flit // next flit of the packet being injected
	vc     []niVC
}

// CountPerDestination makes the NI count the packets it starts per
// destination from now on (before the run, or while it is paused) and
// returns the row it counts into.
func (n *NI) CountPerDestination() *fabric.PacketCounts {
	if n.sh.perDst == nil {
		n.sh.perDst = make([]*fabric.PacketCounts, n.sh.topo.Nodes())
	}
	if n.sh.perDst[n.id] == nil {
		n.sh.perDst[n.id] = fabric.NewPacketCounts(n.sh.topo.Nodes())
	}
	return n.sh.perDst[n.id]
}

// niVC is what an NI keeps per VC: its credits for the router's injection
// VC, and the packet arriving on the ejection VC.
type niVC struct {
	credits int32
	reasm   fabric.Reassembly
}

// niShared is what every NI of a network has alike, kept once.
type niShared struct {
	wires *link.Wires
	topo  topology.Topology // names NIs in errors
	rf    routing.Func
	inj   routing.Injector // rf, when its packets start with a routing state; else nil
	vcs   int32
	depth int32
	vct   bool
	// nets: the routing's virtual networks, whose VCs a packet of each
	// message class is kept to (nil: one network).
	nets *routing.Networks
	// share is the class share between the source queues of a node's
	// traffic classes (NI.cls), shareCost its cost per flit of each class.
	share     alloc.Share
	shareCost [alloc.MaxShareClasses]uint64
	// cls[i] is node i's source queues of traffic classes 1 and up and its
	// class share between them, under a class share (Config.ClassShare);
	// nil otherwise (one queue, packets sent in the order generated).
	cls []niClasses
	// perDst[i] is node i's count of the packets it starts per
	// destination (CountPerDestination); nil, and nil entries, where
	// none counts.
	perDst []*fabric.PacketCounts
}

// Name is the NI's human name.
func (n *NI) Name() string { return n.sh.topo.NodeName(int(n.id)) }

// SetGate installs an injection gate (before the run starts).
func (n *NI) SetGate(g fabric.Gate) { n.gate = g }

// Queued is the number of packets in the source queues (not yet injecting).
func (n *NI) Queued() int {
	q := n.ch.q.Len()
	if n.ch.next != nil {
		q += n.ch.next.q.Len()
	}
	if n.sh.cls != nil {
		for i := range n.sh.cls[n.id].q {
			q += n.sh.cls[n.id].q[i].Len()
		}
	}
	if n.srv != nil {
		q += n.srv.replies.Len()
	}
	return q
}

// Credits is the NI's view of free slots in VC v of its router's input port
// (of channel 0).
func (n *NI) Credits(v int) int { return int(n.ch.vc[v].credits) }

// Tick advances the NI by one cycle.
func (n *NI) Tick(now clock.Cycle) {
	// The credit and the flit that arrived on each channel (written out
	// here rather than called: this is every NI's every cycle).
	for c := &n.ch; c != nil; c = c.next {
		f, cr, hasCredit := n.sh.wires.Recv(int(c.in), now)
		if hasCredit {
			v := &c.vc[cr.VC].credits
			*v++
			if *v > n.sh.depth {
				panic(fmt.Sprintf("%s at cycle %d: credit overflow on injection VC %d", n.Name(), now, cr.VC))
			}
		}
		if f != nil {
			if c.closed && n.srv != nil {
				n.srv.hold(now, n, f, c)
			} else {
				n.receive(now, f, c)
			}
		}
	}
	if n.ch.closed && n.srv != nil {
		n.srv.consume(now, n, &n.ch)
	}
	if now >= n.nextGen {
		n.nextGen = n.src.Generate(now, &n.ch.q)
	}
	if n.gate != nil {
		queued := n.ch.q.Len()
		if n.sh.cls != nil {
			queued = n.Queued()
		}
		n.gate.Observe(now, queued)
	}
	n.inject(now, &n.ch, n.gate)
	if n.ch.next != nil {
		n.inject(now, n.ch.next, nil)
	}
}

// inject sends the next flit of channel c, starting its next packet when
// none is being sent and gate (nil: none) allows.
func (n *NI) inject(now clock.Cycle, c *niChannel, gate fabric.Gate) {
	if c.closed && n.srv != nil {
		n.srv.inject(now, n, c, gate)
		return
	}
	if !c.sending && n.sh.cls != nil && c == &n.ch {
		n.startClass(now, c, gate)
	} else if !c.sending {
		if c.q.Len() == 0 || (gate != nil && !gate.Allow(now)) {
			return
		}
		p := c.q.Front()
		vc := n.pickVC(p, c, 0)
		if vc < 0 {
			return
		}
		c.cur = n.begin(now, c, p, vc)
		c.q.Pop()
		c.sending = true
		if gate != nil {
			gate.Started(now)
		}
	}
	if !c.sending {
		return
	}
	if n.send(now, c, &c.cur) {
		c.sending = false
		if gate != nil {
			gate.Injected(now)
		}
	}
}

// startClass starts channel c's next packet under the class share, from
// the class nextClass picks, when gate (nil: none) allows.
func (n *NI) startClass(now clock.Cycle, c *niChannel, gate fabric.Gate) {
	k, vc := n.nextClass(c)
	if k < 0 || (gate != nil && !gate.Allow(now)) {
		return
	}
	q := n.queue(c, k)
	p := q.Front()
	if n.sh.share == alloc.ShareWeighted {
		n.sh.cls[n.id].share.Served(k, uint64(p.Size), n.sh.shareCost[k])
	}
	c.cur = n.begin(now, c, p, vc)
	q.Pop()
	c.sending = true
	if gate != nil {
		gate.Started(now)
	}
}

// begin is the head flit of packet p, leaving on channel c's VC vc at
// cycle now, with the packet counted as injected.
func (n *NI) begin(now clock.Cycle, c *niChannel, p *fabric.Packet, vc int) link.Flit {
	seq := n.seq
	if c.closed {
		seq = p.Seq
	}
	f := link.Flit{Src: n.id, Dst: p.Dst, Seq: seq, Size: p.Size, VC: uint8(vc), Class: p.Class, Gen: p.Gen, InjDelay: uint32(min(int64(now)-p.Gen, 1<<32-1))}
	if nets := n.sh.nets; nets != nil {
		f.Route = nets.InjectRouteOf(p.Class, int(n.id), int(p.Dst))
	} else if inj := n.sh.inj; inj != nil {
		f.Route = inj.InjectRoute(int(n.id), int(p.Dst))
	}
	n.seq++
	n.PacketsInjected++
	if pd := n.sh.perDst; pd != nil && pd[n.id] != nil {
		pd[n.id].Add(p.Dst)
	}
	n.sentHash += fabric.PacketHash(f.Src, f.Seq, f.Dst)
	return f
}

// send sends flit cur on channel c when its VC has a credit, and reports
// whether that was its packet's tail.
func (n *NI) send(now clock.Cycle, c *niChannel, cur *link.Flit) bool {
	vc := cur.VC
	if c.vc[vc].credits <= 0 {
		return false
	}
	slot, ok := n.sh.wires.FlitSlot(int(c.out), now)
	if !ok {
		panic(fmt.Sprintf("%s at cycle %d: second flit sent in one cycle", n.Name(), now))
	}
	*slot = *cur
	c.vc[vc].credits--
	n.FlitsInjected++
	cur.Index++
	return cur.Index == cur.Size
}

// pickVC chooses the injection VC of a new packet: among the VCs the routing
// function allows but those in busy (a packet of the NI's being sent on
// them), one with room (for the whole packet under virtual cut-through),
// most credits first, lowest VC on a tie.
func (n *NI) pickVC(p *fabric.Packet, c *niChannel, busy uint64) int {
	need := int32(1)
	if n.sh.vct {
		need = int32(p.Size)
	}
	best, bestCred := -1, int32(0)
	m := n.sh.rf.InjectVCs(int(n.id), int(p.Dst)) &^ busy
	if nets := n.sh.nets; nets != nil {
		m &= nets.ClassVCs(p.Class)
	}
	for ; m != 0; m &= m - 1 {
		v := routing.TrailingZeros(m)
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
	n.check(now, f, c)
	n.consumed(now, f, c)
}
