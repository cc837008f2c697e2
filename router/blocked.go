package router

import (
	"fmt"
	"math/bits"
)

// Blocked describes up to limit non-empty input VCs and what each waits
// for, and returns how many there are in all. Call it only while paused.
func (n *Network) Blocked(limit int) (lines []string, total int) {
	V := n.Cfg.VCs
	for _, r := range n.Routers {
		for p, ne := range r.nonEmpty {
			for m := ne; m != 0; m &= m - 1 {
				v := bits.TrailingZeros64(m)
				total++
				if len(lines) >= limit {
					continue
				}
				i := p*V + v
				s := &r.ivc[i]
				h := &r.hdr[i]
				what := fmt.Sprintf("%s vc%d holds %d flits; front packet %d->%d (seq %d)", n.Topo.PortName(r.id, p), v, s.flits, h.Src, h.Dst, h.Seq)
				switch {
				case s.state == vcActive:
					o := int(s.outVC)
					op := o / V
					peer := n.Topo.Peer(r.id, op)
					down := n.Topo.PortName(r.id, op)
					if peer.Router >= 0 {
						down = n.Topo.PortName(peer.Router, peer.Port)
					}
					if r.credits[o] <= 0 {
						what += fmt.Sprintf(" waits for a credit of %s vc%d (buffer full)", down, o%V)
					} else {
						what += fmt.Sprintf(" holds %s vc%d with %d credits and waits for the switch", n.Topo.PortName(r.id, op), o%V, r.credits[o])
					}
				case s.front == 0:
					what += " waits for its next flit to arrive"
				default:
					c := &r.cand[i]
					what += " waits for an output VC among"
					for g := 0; g < c.N; g++ {
						for pm := c.G[g].Ports; pm != 0; pm &= pm - 1 {
							q := bits.TrailingZeros64(pm)
							for vm := c.G[g].VCs; vm != 0; vm &= vm - 1 {
								w := bits.TrailingZeros64(vm)
								o := q*V + w
								if w >= V {
									break
								}
								state := fmt.Sprintf("%d credits", r.credits[o])
								if own := r.owner[o]; own >= 0 {
									state = fmt.Sprintf("held by %s vc%d", n.Topo.PortName(r.id, int(own)/V), int(own)%V)
								}
								what += fmt.Sprintf(" [%s vc%d: %s]", n.Topo.PortName(r.id, q), w, state)
							}
						}
					}
				}
				lines = append(lines, what)
			}
		}
	}
	return lines, total
}
