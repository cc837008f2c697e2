package vc

import (
	"fmt"
	"math/bits"

	"github.com/icnsim/icnsim/clock"
)

// Stuck finds the non-empty input VCs (and ejection buffers of nodes that
// answer requests) from which no flit has left for at least cycles cycles
// before next. It describes up to limit of them and what
// each waits for, and returns how many there are and the earliest cycle at
// which one of them last moved. Call it only while paused.
func (n *Network) Stuck(next clock.Cycle, cycles int64, limit int) (lines []string, total int, since int64) {
	V := n.Cfg.VCs
	since = int64(next)
	// The ejection buffers of nodes that hold requests they cannot take
	// come first: where they are stuck, they are the cause.
	for _, ni := range n.NIs {
		if ni.srv == nil {
			continue
		}
		ni.srv.stuck(ni, next, cycles, func(idle int64, what string) {
			total++
			since = min(since, int64(next)-idle)
			if len(lines) < limit {
				lines = append(lines, what)
			}
		})
	}
	for _, r := range n.Routers {
		rid := int(r.id)
		for p := range r.port {
			for m := r.port[p].nonEmpty; m != 0; m &= m - 1 {
				v := bits.TrailingZeros64(m)
				i := p*V + v
				s := &r.ivc[i]
				idle := int64(int32(uint32(next) - s.moved))
				if idle < cycles {
					continue
				}
				total++
				since = min(since, int64(next)-idle)
				if len(lines) >= limit {
					continue
				}
				h := &r.pkts[s.pkFront].hdr
				what := fmt.Sprintf("%s vc%d holds %d flits, none left for %d cycles; front packet %d->%d (seq %d)", n.Topo.PortName(rid, p), v, s.flits, idle, h.Src, h.Dst, h.Seq)
				switch {
				case s.state == vcActive:
					op := int(s.outPort)
					o := op*V + int(s.outV)
					peer := n.Topo.Peer(rid, op)
					down := n.Topo.PortName(rid, op)
					if peer.Router >= 0 {
						down = n.Topo.PortName(peer.Router, peer.Port)
					}
					if r.outs[o].credits <= 0 {
						what += fmt.Sprintf(" waits for a credit of %s vc%d (buffer full)", down, o%V)
					} else {
						what += fmt.Sprintf(" holds %s vc%d with %d credits and waits for the switch", n.Topo.PortName(rid, op), o%V, r.outs[o].credits)
					}
				case s.front == 0:
					what += " waits for its next flit to arrive"
				case s.state != vcRouted:
					what += " waits to be routed"
				default:
					c := &r.cands[s.cand]
					what += " waits for an output VC among"
					for g := 0; g < int(c.N); g++ {
						for pm := c.G[g].Ports; pm != 0; pm &= pm - 1 {
							q := bits.TrailingZeros64(pm)
							for vm := c.G[g].VCs; vm != 0; vm &= vm - 1 {
								w := bits.TrailingZeros64(vm)
								o := q*V + w
								if w >= V {
									break
								}
								state := fmt.Sprintf("%d credits", r.outs[o].credits)
								if own := r.outs[o].owner; own >= 0 {
									state = fmt.Sprintf("held by %s vc%d", n.Topo.PortName(rid, int(own)/V), int(own)%V)
								}
								what += fmt.Sprintf(" [%s vc%d: %s]", n.Topo.PortName(rid, q), w, state)
							}
						}
					}
				}
				lines = append(lines, what)
			}
		}
	}
	return lines, total, since
}
