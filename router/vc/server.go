package vc

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
)

// niServer is what the NI of a node whose source answers requests
// (fabric.Responder) keeps beside a plain NI: its replies' source queue,
// and an ejection buffer per VC from which it consumes one flit per
// cycle, a request only once the source has accepted it (see
// fabric.Responder). The buffers are what the router's credits for the
// ejection channel count: a flit's credit goes back when it is consumed.
type niServer struct {
	resp    fabric.Responder
	replies fabric.SourceQueue
	cur     link.Flit // next flit of the reply being sent
	sending bool
	buf     []link.Flit // VC v's ring: buf[v*depth : (v+1)*depth]
	head    []int32     // per VC: the front flit's slot
	held    []int32     // per VC: flits in the buffer
	since   []clock.Cycle
	depth   int32
	total   int32 // flits in all buffers
	next    int32 // the VC the next consumption looks at first (round robin)
}

func newServer(r fabric.Responder, vcs, depth int) *niServer {
	return &niServer{resp: r, buf: make([]link.Flit, vcs*depth), head: make([]int32, vcs), held: make([]int32, vcs),
		since: make([]clock.Cycle, vcs), depth: int32(depth)}
}

// inject sends one flit on channel c: of the reply being sent if it has a
// credit, else of the request being sent, starting a packet of either
// class whose previous one has gone (the gate sees the requests only:
// replies answer requests let in elsewhere). The two classes' packets
// travel on different VCs, so their flits may interleave on the link, and
// a request held up by its network never holds up a reply.
func (s *niServer) inject(now clock.Cycle, n *NI, c *niChannel, gate fabric.Gate) {
	if !s.sending && s.replies.Len() > 0 {
		s.sending = n.startFrom(now, c, &s.replies, &s.cur, vcOf(c.sending, &c.cur))
	}
	if !c.sending && c.q.Len() > 0 && (gate == nil || gate.Allow(now)) {
		if c.sending = n.startFrom(now, c, &c.q, &c.cur, vcOf(s.sending, &s.cur)); c.sending && gate != nil {
			gate.Started(now)
		}
	}
	if s.sending && c.vc[s.cur.VC].credits > 0 {
		if n.send(now, c, &s.cur) {
			s.sending = false
		}
		return
	}
	if c.sending && n.send(now, c, &c.cur) {
		c.sending = false
		if gate != nil {
			gate.Injected(now)
		}
	}
}

// startFrom starts the front packet of q on channel c, on a VC not in
// busy, as cur's next flit, and reports whether it did (no VC had room).
func (n *NI) startFrom(now clock.Cycle, c *niChannel, q *fabric.SourceQueue, cur *link.Flit, busy uint64) bool {
	vc := n.pickVC(q.Front(), c, busy)
	if vc < 0 {
		return false
	}
	*cur = n.begin(now, c, q.Front(), vc)
	q.Pop()
	return true
}

// vcOf is the VC of the packet being sent (f's), when one is.
func vcOf(sending bool, f *link.Flit) uint64 {
	if !sending {
		return 0
	}
	return 1 << f.VC
}

// hold takes flit f, arrived on channel c, into its VC's buffer.
func (s *niServer) hold(now clock.Cycle, n *NI, f *link.Flit, c *niChannel) {
	n.check(now, f, c)
	v := int32(f.VC)
	if s.held[v] == s.depth {
		panic(fmt.Sprintf("%s at cycle %d: ejection buffer of VC %d overflows (%d flits)", n.Name(), now, v, s.depth))
	}
	if s.held[v] == 0 {
		s.since[v] = now
	}
	s.buf[v*s.depth+(s.head[v]+s.held[v])%s.depth] = *f
	s.held[v]++
	s.total++
}

// consume consumes the front flit of the first VC, in round-robin order,
// whose front can go: a body flit, a reply's head, or a request's head
// the source accepts.
func (s *niServer) consume(now clock.Cycle, n *NI, c *niChannel) {
	if s.total == 0 {
		return
	}
	V := int32(len(s.held))
	for k := int32(0); k < V; k++ {
		v := (s.next + k) % V
		if s.held[v] == 0 {
			continue
		}
		f := &s.buf[v*s.depth+s.head[v]]
		if f.Index == 0 && f.Class == 0 && !s.resp.Accept(now, f, s.replies.Len()) {
			continue
		}
		// f stays in its slot through the call (a copy would escape).
		n.consumed(now, f, c)
		s.head[v] = (s.head[v] + 1) % s.depth
		s.held[v]--
		s.total--
		s.since[v] = now
		s.next = (v + 1) % V
		return
	}
}

// check verifies a flit arriving on channel c.
func (n *NI) check(now clock.Cycle, f *link.Flit, c *niChannel) {
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
}

// consumed is flit f leaving the NI's ejection side at cycle now: its
// credit goes back and, for a tail, its packet is delivered.
func (n *NI) consumed(now clock.Cycle, f *link.Flit, c *niChannel) {
	n.FlitsDelivered++
	if !n.sh.wires.PutCredit(int(c.out), now, link.Credit{VC: uint16(f.VC)}) {
		panic(fmt.Sprintf("%s at cycle %d: second credit sent in one cycle", n.Name(), now))
	}
	if f.Index+1 == f.Size {
		n.PacketsDelivered++
		n.LastDelivery = now
		n.recvHash += fabric.PacketHash(f.Src, f.Seq, f.Dst)
		if n.sink != nil {
			n.sink.Delivered(now, f)
		}
		if c.closed {
			n.nextGen = min(n.nextGen, now)
		}
	}
}

// stuck describes the NI's ejection buffers from which nothing has been
// consumed for at least cycles cycles before next.
func (s *niServer) stuck(n *NI, next clock.Cycle, cycles int64, visit func(idle int64, what string)) {
	for v, h := range s.held {
		if h == 0 {
			continue
		}
		idle := int64(next) - int64(s.since[v])
		if idle < cycles {
			continue
		}
		f := &s.buf[int32(v)*s.depth+s.head[v]]
		what := fmt.Sprintf("%s's ejection buffer vc%d holds %d flits, none consumed for %d cycles; front packet %d->%d (seq %d, class %d)",
			n.Name(), v, h, idle, f.Src, f.Dst, f.Seq, f.Class)
		if f.Index == 0 && f.Class == 0 {
			what += fmt.Sprintf(", a request its node cannot take (%d replies queued)", s.replies.Len())
		}
		visit(idle, what)
	}
}
