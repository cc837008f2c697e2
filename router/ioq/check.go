package ioq

import (
	"fmt"
	"slices"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// checkMemory verifies one memory's accounting: its used and reserved
// flits are the sums over its queues, which are the sums over their
// packets, and no queue or memory holds more than its capacity.
func (sh *shared) checkMemory(pl *pool, m *memory, name func() string) error {
	var used, reserved, packets int32
	for i := range m.q {
		q := &m.q[i]
		var f, r int32
		last := int32(-1)
		for d := q.head; d >= 0; d = pl.p[d].next {
			p := &pl.p[d]
			if p.sent > p.have || p.have > p.hdr.Size {
				return fmt.Errorf("%s queue %d: packet %d/%d has %d flits arrived and %d departed of %d", name(), i, p.hdr.Src, p.hdr.Seq, p.have, p.sent, p.hdr.Size)
			}
			f += int32(p.have - p.sent)
			r += int32(p.hdr.Size - p.sent)
			packets++
			last = d
		}
		if last != q.tail {
			return fmt.Errorf("%s queue %d: tail %d is not the last packet %d", name(), i, q.tail, last)
		}
		if f != q.flits || r != q.reserved {
			return fmt.Errorf("%s queue %d: counts %d flits present and %d reserved, its packets %d and %d", name(), i, q.flits, q.reserved, f, r)
		}
		if r > sh.queueCap {
			return fmt.Errorf("%s queue %d: %d flits reserved, capacity %d", name(), i, r, sh.queueCap)
		}
		if (m.nonEmpty[i>>6]>>(i&63))&1 != uint64(min(1, q.head+1)) {
			return fmt.Errorf("%s queue %d: non-empty bit disagrees with its head %d", name(), i, q.head)
		}
		used += f
		reserved += r
	}
	if used != m.used || reserved != m.reserved || packets != m.packets {
		return fmt.Errorf("%s: memory used %d, reserved %d, packets %d; the sums of its queues %d, %d, %d", name(), m.used, m.reserved, m.packets, used, reserved, packets)
	}
	if reserved > sh.memFlits {
		return fmt.Errorf("%s: %d flits reserved in a memory of %d", name(), reserved, sh.memFlits)
	}
	return nil
}

// checkLink verifies, for every credit counter of link l (written on wire
// w, read back on wire back), that credits + flits reserved but not sent +
// flits and credits in transit + the far memory's occupancy = capacity.
// next is the switch at the far end (-1: an endnode) and far its ingress
// memory (nil for an endnode).
func (n *Network) checkLink(at clock.Cycle, l *outLink, pl *pool, back int, next int, far *memory, name func() string) error {
	sh := n.sh
	k := len(l.credits)
	sum := make([]int32, k)
	copy(sum, l.credits)
	farQ := func(dst int32) int {
		if k == 1 {
			return 0
		}
		return sh.queueAt(next, dst)
	}
	if l.cur >= 0 {
		p := &pl.p[l.cur]
		sum[farQ(p.hdr.Dst)] += int32(p.hdr.Size - p.sent)
	}
	n.wires.InTransit(int(l.wire), at, func(f *link.Flit) { sum[farQ(f.Dst)]++ }, nil)
	n.wires.InTransit(back, at, nil, func(c link.Credit) { sum[c.VC]++ })
	capacity := sh.memFlits
	if k > 1 {
		capacity = sh.queueCap
	}
	for q := range sum {
		occ := int32(0)
		if far != nil {
			if k > 1 {
				occ = far.q[q].flits
			} else {
				occ = far.used
			}
		}
		if sum[q]+occ != capacity {
			return fmt.Errorf("cycle %d: %s queue %d: credits, flits reserved, in transit (%d) + occupancy %d != capacity %d", at, name(), q, sum[q], occ, capacity)
		}
	}
	return nil
}

// Check verifies the network's invariants before cycle next: flits
// injected = delivered + buffered + on links; every memory's accounting;
// credits per link; the crossbar's busy outputs.
func (n *Network) Check(next clock.Cycle) error {
	tot := n.Totals()
	var onWires uint64
	for i := range n.wires.Len() {
		n.wires.InTransit(i, next, func(*link.Flit) { onWires++ }, nil)
	}
	if tot.FlitsInjected != tot.FlitsDelivered+tot.FlitsBuffered+onWires {
		return fmt.Errorf("cycle %d: flit conservation broken: injected %d != delivered %d + buffered %d + on links %d",
			next, tot.FlitsInjected, tot.FlitsDelivered, tot.FlitsBuffered, onWires)
	}
	t := n.Topo
	for r, s := range n.Switches {
		var busy uint64
		for p := range s.ing {
			if err := n.sh.checkMemory(&s.pl, &s.ing[p], func() string { return t.PortName(r, p) + " ingress" }); err != nil {
				return fmt.Errorf("cycle %d: %w", next, err)
			}
			if err := n.sh.checkMemory(&s.pl, &s.egr[p], func() string { return t.PortName(r, p) + " egress" }); err != nil {
				return fmt.Errorf("cycle %d: %w", next, err)
			}
			if s.rc != nil {
				if err := s.rc.ing[p].check(func() string { return t.PortName(r, p) + " ingress" }); err != nil {
					return fmt.Errorf("cycle %d: %w", next, err)
				}
				if err := s.rc.egr[p].check(func() string { return t.PortName(r, p) + " egress" }); err != nil {
					return fmt.Errorf("cycle %d: %w", next, err)
				}
			}
			if x := s.xf[p]; x.src >= 0 {
				busy |= 1 << x.out
			}
			l := &s.links[p]
			if l.wire < 0 {
				continue
			}
			peer := t.Peer(r, p)
			if peer.Router >= 0 {
				err := n.checkLink(next, l, &s.pl, n.base[r]+p, peer.Router, &n.Switches[peer.Router].ing[peer.Port], func() string { return t.PortName(r, p) + "->" + t.PortName(peer.Router, peer.Port) })
				if err != nil {
					return err
				}
			} else if err := n.checkLink(next, l, &s.pl, n.base[r]+p, -1, nil, func() string { return t.PortName(r, p) + "->" + t.NodeName(peer.Node) }); err != nil {
				return err
			}
		}
		if busy != s.outBusy {
			return fmt.Errorf("cycle %d: %s: crossbar outputs busy %b, transfers to %b", next, s.Name(), s.outBusy, busy)
		}
	}
	for i, a := range n.Adapters {
		if err := n.sh.checkMemory(&a.pl, &a.inj, func() string { return a.Name() + " injection" }); err != nil {
			return fmt.Errorf("cycle %d: %w", next, err)
		}
		if a.rp != nil {
			if err := a.rp.check(func() string { return a.Name() + " injection" }); err != nil {
				return fmt.Errorf("cycle %d: %w", next, err)
			}
		}
		r, p := t.NodePort(i)
		if err := n.checkLink(next, &a.link, &a.pl, int(a.in), r, &n.Switches[r].ing[p], func() string { return a.Name() + "->" + t.PortName(r, p) }); err != nil {
			return err
		}
	}
	return nil
}

// memRef names one memory of the network for Stuck: switch s's ingress
// (egress false) or egress memory at port p, or adapter -s-1's injection
// memory (s < 0).
type memRef struct {
	s, p   int32
	egress bool
}

func (n *Network) mem(r memRef) (*memory, *pool) {
	if r.s < 0 {
		a := n.Adapters[-r.s-1]
		return &a.inj, &a.pl
	}
	sw := n.Switches[r.s]
	if r.egress {
		return &sw.egr[r.p], &sw.pl
	}
	return &sw.ing[r.p], &sw.pl
}

// waitsFor is the memory the packet p at the head of a queue of memory r
// needs room in: the egress memory of its output (an ingress memory), the
// ingress memory at the far end of the link (an egress or injection
// memory); ok is false when that is an endnode, which always drains.
func (n *Network) waitsFor(r memRef, p *pkt) (memRef, bool) {
	switch {
	case r.s < 0:
		s, port := n.Topo.NodePort(int(-r.s - 1))
		return memRef{s: int32(s), p: int32(port)}, true
	case !r.egress:
		return memRef{s: r.s, p: int32(p.out), egress: true}, true
	}
	peer := n.Topo.Peer(int(r.s), int(r.p))
	if peer.Router < 0 {
		return memRef{}, false
	}
	return memRef{s: int32(peer.Router), p: int32(peer.Port)}, true
}

// Stuck finds deadlocked memories: those holding packets of which none
// has left for at least cycles cycles before next, every queue head of
// which waits for room in another such memory (the largest closed set of
// idle memories). A memory whose wait leads, through idle memories, to one
// that moves or to an endnode is congested, not deadlocked: the far
// branches of a hot spot's tree may wait a very long time under
// round-robin arbitration (parking-lot unfairness), and that is a result,
// not a failure. Memory-level idleness makes the test coarse for VOQ
// organisations, whose other queues can keep a memory moving; dimension
// order on a mesh cannot deadlock, so there only a torus built with
// allow_deadlock can show one. Stuck describes up to limit of them and
// their front packets, and returns how many there are and the earliest
// cycle at which one of them last moved.
func (n *Network) Stuck(next clock.Cycle, cycles int64, limit int) (lines []string, total int, since int64) {
	since = int64(next)
	idle := map[memRef]bool{}
	consider := func(r memRef) {
		if m, _ := n.mem(r); m.packets > 0 && int64(next)-int64(m.moved) >= cycles {
			idle[r] = true
		}
	}
	for s, sw := range n.Switches {
		for p := range sw.ing {
			consider(memRef{s: int32(s), p: int32(p)})
			consider(memRef{s: int32(s), p: int32(p), egress: true})
		}
	}
	for i := range n.Adapters {
		consider(memRef{s: int32(-i - 1)})
	}
	// Remove, until none is left to remove, every idle memory with a queue
	// head that waits for a memory outside the set.
	for changed := true; changed; {
		changed = false
		for r := range idle {
			m, pl := n.mem(r)
			for i := nextSet(m.nonEmpty, 0); i >= 0; i = nextSet(m.nonEmpty, i+1) {
				if w, ok := n.waitsFor(r, &pl.p[m.q[i].head]); !ok || !idle[w] {
					delete(idle, r)
					changed = true
					break
				}
			}
		}
	}
	refs := make([]memRef, 0, len(idle))
	for r := range idle {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, func(a, b memRef) int {
		if a.s != b.s {
			return int(a.s - b.s)
		}
		if a.p != b.p {
			return int(a.p - b.p)
		}
		if a.egress == b.egress {
			return 0
		}
		if a.egress {
			return 1
		}
		return -1
	})
	t := n.Topo
	for _, r := range refs {
		m, pl := n.mem(r)
		total++
		since = min(since, int64(m.moved))
		if len(lines) >= limit {
			continue
		}
		name := ""
		switch {
		case r.s < 0:
			name = t.NodeName(int(-r.s-1)) + " injection"
		case r.egress:
			name = t.PortName(int(r.s), int(r.p)) + " egress"
		default:
			name = t.PortName(int(r.s), int(r.p)) + " ingress"
		}
		i := nextSet(m.nonEmpty, 0)
		p := &pl.p[m.q[i].head]
		w, _ := n.waitsFor(r, p)
		wname := t.PortName(int(w.s), int(w.p)) + " ingress"
		if w.egress {
			wname = t.PortName(int(w.s), int(w.p)) + " egress"
		}
		lines = append(lines, fmt.Sprintf("%s holds %d flits in %d packets, none left for %d cycles; front packet %d->%d (seq %d) of queue %d waits for room in %s, itself stuck",
			name, m.used, m.packets, int64(next)-int64(m.moved), p.hdr.Src, p.hdr.Dst, p.hdr.Seq, i, wname))
	}
	return lines, total, since
}
