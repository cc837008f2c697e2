package ioq

import (
	"fmt"

	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// checkMemory verifies one memory's accounting: its used and reserved
// flits are the sums over its queues, which are the sums over their
// packets, and no queue or memory holds more than its capacity.
func (sh *shared) checkMemory(pl *pool, m *memory, name string) error {
	var used, reserved, packets int32
	for i := range m.q {
		q := &m.q[i]
		var f, r int32
		last := int32(-1)
		for d := q.head; d >= 0; d = pl.p[d].next {
			p := &pl.p[d]
			if p.sent > p.have || p.have > p.hdr.Size {
				return fmt.Errorf("%s queue %d: packet %d/%d has %d flits arrived and %d departed of %d", name, i, p.hdr.Src, p.hdr.Seq, p.have, p.sent, p.hdr.Size)
			}
			f += int32(p.have - p.sent)
			r += int32(p.hdr.Size - p.sent)
			packets++
			last = d
		}
		if last != q.tail {
			return fmt.Errorf("%s queue %d: tail %d is not the last packet %d", name, i, q.tail, last)
		}
		if f != q.flits || r != q.reserved {
			return fmt.Errorf("%s queue %d: counts %d flits present and %d reserved, its packets %d and %d", name, i, q.flits, q.reserved, f, r)
		}
		if r > sh.queueCap {
			return fmt.Errorf("%s queue %d: %d flits reserved, capacity %d", name, i, r, sh.queueCap)
		}
		if (m.nonEmpty[i>>6]>>(i&63))&1 != uint64(min(1, q.head+1)) {
			return fmt.Errorf("%s queue %d: non-empty bit disagrees with its head %d", name, i, q.head)
		}
		used += f
		reserved += r
	}
	if used != m.used || reserved != m.reserved || packets != m.packets {
		return fmt.Errorf("%s: memory used %d, reserved %d, packets %d; the sums of its queues %d, %d, %d", name, m.used, m.reserved, m.packets, used, reserved, packets)
	}
	if reserved > sh.memFlits {
		return fmt.Errorf("%s: %d flits reserved in a memory of %d", name, reserved, sh.memFlits)
	}
	return nil
}

// checkLink verifies, for every credit counter of link l (written on wire
// w, read back on wire back), that credits + flits reserved but not sent +
// flits and credits in transit + the far memory's occupancy = capacity.
// next is the switch at the far end (-1: an endnode) and far its ingress
// memory (nil for an endnode).
func (n *Network) checkLink(at clock.Cycle, l *outLink, pl *pool, back int, next int, far *memory, name string) error {
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
			return fmt.Errorf("cycle %d: %s queue %d: credits, flits reserved, in transit (%d) + occupancy %d != capacity %d", at, name, q, sum[q], occ, capacity)
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
			if err := n.sh.checkMemory(&s.pl, &s.ing[p], t.PortName(r, p)+" ingress"); err != nil {
				return fmt.Errorf("cycle %d: %w", next, err)
			}
			if err := n.sh.checkMemory(&s.pl, &s.egr[p], t.PortName(r, p)+" egress"); err != nil {
				return fmt.Errorf("cycle %d: %w", next, err)
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
				err := n.checkLink(next, l, &s.pl, n.base[r]+p, peer.Router, &n.Switches[peer.Router].ing[peer.Port], t.PortName(r, p)+"->"+t.PortName(peer.Router, peer.Port))
				if err != nil {
					return err
				}
			} else if err := n.checkLink(next, l, &s.pl, n.base[r]+p, -1, nil, t.PortName(r, p)+"->"+t.NodeName(peer.Node)); err != nil {
				return err
			}
		}
		if busy != s.outBusy {
			return fmt.Errorf("cycle %d: %s: crossbar outputs busy %b, transfers to %b", next, s.Name(), s.outBusy, busy)
		}
	}
	for i, a := range n.Adapters {
		if err := n.sh.checkMemory(&a.pl, &a.inj, a.Name()+" injection"); err != nil {
			return fmt.Errorf("cycle %d: %w", next, err)
		}
		r, p := t.NodePort(i)
		if err := n.checkLink(next, &a.link, &a.pl, int(a.in), r, &n.Switches[r].ing[p], a.Name()+"->"+t.PortName(r, p)); err != nil {
			return err
		}
	}
	return nil
}

// Stuck finds the memories holding flits of which none has left for at
// least cycles cycles before next, describes up to limit of them and what
// their front packets wait for, and returns how many there are and the
// earliest cycle at which one of them last moved.
func (n *Network) Stuck(next clock.Cycle, cycles int64, limit int) (lines []string, total int, since int64) {
	since = int64(next)
	t := n.Topo
	look := func(m *memory, pl *pool, name string, why func(p *pkt) string) {
		if m.packets == 0 {
			return
		}
		idle := int64(next) - int64(m.moved)
		if idle < cycles {
			return
		}
		total++
		since = min(since, int64(m.moved))
		if len(lines) >= limit {
			return
		}
		i := nextSet(m.nonEmpty, 0)
		p := &pl.p[m.q[i].head]
		lines = append(lines, fmt.Sprintf("%s holds %d flits in %d packets, none left for %d cycles; front packet %d->%d (seq %d) of queue %d %s",
			name, m.used, m.packets, idle, p.hdr.Src, p.hdr.Dst, p.hdr.Seq, i, why(p)))
	}
	for r, s := range n.Switches {
		for p := range s.ing {
			look(&s.ing[p], &s.pl, t.PortName(r, p)+" ingress", func(pk *pkt) string {
				o := int(pk.out)
				return fmt.Sprintf("waits for the crossbar to %s (egress %d of %d flits reserved)", t.PortName(r, o), s.egr[o].reserved, n.sh.memFlits)
			})
			look(&s.egr[p], &s.pl, t.PortName(r, p)+" egress", func(pk *pkt) string {
				return fmt.Sprintf("waits for credits (%v) for its %d flits", s.links[p].credits[:min(len(s.links[p].credits), 8)], pk.hdr.Size)
			})
		}
	}
	for _, a := range n.Adapters {
		look(&a.inj, &a.pl, a.Name()+" injection", func(pk *pkt) string {
			return fmt.Sprintf("waits for credits (%v) for its %d flits", a.link.credits[:min(len(a.link.credits), 8)], pk.hdr.Size)
		})
	}
	return lines, total, since
}
