package router

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/icnsim/icnsim/link"
)

// Escaper is implemented by adaptive routing functions whose deadlock
// freedom rests on an escape sub-function (Duato): the channel dependency
// graph is then that of the escape sub-function.
type Escaper interface {
	// Escape gives the escape candidates of a packet in the given state.
	Escape(r, in int, f *link.Flit, c *Candidates)
	// EscapeVCs is the set of VCs that form the escape channels.
	EscapeVCs() uint64
}

// CheckDeadlockFree builds the channel dependency graph of the routing
// function with its VC assignment, over every state (router, input port,
// VC, Flit.Route) a packet can reach from any source under the full routing
// function, and returns an error naming one cycle of channels if the graph
// has one. A channel is one VC of one router-to-router link.
//
// For a function with an escape sub-function (Escaper) the graph is that of
// the escape sub-function: from every reachable state in which the packet
// holds an escape channel, an edge to each escape channel it may request.
// Duato's condition also counts indirect dependencies, through adaptive
// channels, between escape channels; those are not enumerated here (the
// shipped duato function was checked for them separately, k = 3..8), so for
// an Escaper this check is necessary, not sufficient.
//
// The cost grows as nodes squared: about 0.06 s for a 32x32 torus, 1.1 s for
// 64x64.
func CheckDeadlockFree(t link.Topology, rf RoutingFunc, vcs int) error {
	g := dependencies(t, rf, vcs)
	return g.findCycle()
}

// cdg is a channel dependency graph: succ[ch*W:(ch+1)*W] has bit q*vcs+w set
// when a packet holding channel ch may request VC w of port q of the router
// ch leads to; channel ch = (base[r]+p)*vcs + v for output port p of router r.
type cdg struct {
	t      link.Topology
	vcs, W int
	base   []int
	peer   []link.Peer
	succ   []uint64
}

func (g *cdg) channel(r, p, v int) int { return (g.base[r]+p)*g.vcs + v }

// hasEdge reports whether channel a may be followed by channel b.
func (g *cdg) hasEdge(a, b int) bool {
	q := g.peer[a/g.vcs]
	if q.Router < 0 || b/g.vcs < g.base[q.Router] || b/g.vcs >= g.base[q.Router+1] {
		return false
	}
	bit := (b/g.vcs-g.base[q.Router])*g.vcs + b%g.vcs
	return g.succ[a*g.W+bit/64]&(1<<(bit%64)) != 0
}

func dependencies(t link.Topology, rf RoutingFunc, vcs int) *cdg {
	route := rf.Route
	var escape func(r, in int, f *link.Flit, c *Candidates)
	escVCs := ^uint64(0)
	if e, ok := rf.(Escaper); ok {
		escape, escVCs = e.Escape, e.EscapeVCs()
	}
	upd, _ := rf.(RouteUpdater)
	nr := t.Routers()
	base := make([]int, nr+1)
	for r := 0; r < nr; r++ {
		base[r+1] = base[r] + t.Ports(r)
	}
	// Channel id: (base[r]+p)*vcs + v for output port p of router r.
	nch := base[nr] * vcs
	maxPV := 0
	for r := 0; r < nr; r++ {
		maxPV = max(maxPV, t.Ports(r)*vcs)
	}
	// succ[ch*W:(ch+1)*W] bit q*vcs+w: a packet holding channel ch may
	// request VC w of port q of the router ch leads to.
	W := (maxPV + 63) / 64
	succ := make([]uint64, nch*W)
	peer := make([]link.Peer, base[nr])
	for r := 0; r < nr; r++ {
		for p := 0; p < t.Ports(r); p++ {
			peer[base[r]+p] = t.Peer(r, p)
		}
	}
	// A state is a packet at input port p of router r on VC v with routing
	// state s; the input channel is the upstream output channel.
	type state struct {
		r, p, v int
		route   uint8
	}
	// visited[idx(s)] == dst+1 when state s was reached for destination dst;
	// routing states are dense small integers (at most maxRoute of them).
	const maxRoute = 8
	visited := make([]int32, base[nr]*vcs*maxRoute)
	idx := func(s state) int { return ((base[s.r]+s.p)*vcs+s.v)*maxRoute + int(s.route) }
	visit := func(s state, dst int) bool {
		if int(s.route) >= maxRoute {
			panic(fmt.Sprintf("deadlock check: routing state %d >= %d", s.route, maxRoute))
		}
		i := idx(s)
		if visited[i] == int32(dst+1) {
			return false
		}
		visited[i] = int32(dst + 1)
		return true
	}
	var queue []state
	// f and g2 are passed by pointer through interfaces and escape; declared
	// once here, they are allocated once instead of once per state.
	var cand, esc Candidates
	f, g2 := new(link.Flit), new(link.Flit)
	for dst := 0; dst < t.Nodes(); dst++ {
		queue = queue[:0]
		for src := 0; src < t.Nodes(); src++ {
			r, p := t.NodePort(src)
			var route0 uint8
			if in, ok := rf.(Injector); ok {
				route0 = in.InjectRoute(src, dst)
			}
			for m := rf.InjectVCs(src, dst); m != 0; m &= m - 1 {
				s := state{r, p, bits.TrailingZeros64(m), route0}
				if s.v < vcs && visit(s, dst) {
					queue = append(queue, s)
				}
			}
		}
		for len(queue) > 0 {
			s := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			*f = link.Flit{Dst: int32(dst), VC: uint8(s.v), Route: s.route}
			cand.N = 0
			route(s.r, s.p, f, &cand)
			// The channel this packet holds, if it came over a network link
			// (and, for an Escaper, on an escape VC).
			in := -1
			if up := peer[base[s.r]+s.p]; up.Router >= 0 && escVCs&(1<<s.v) != 0 {
				in = (base[up.Router]+up.Port)*vcs + s.v
			}
			deps := &cand
			if escape != nil && in >= 0 {
				esc.N = 0
				escape(s.r, s.p, f, &esc)
				deps = &esc
			}
			if in >= 0 {
				for g := 0; g < deps.N; g++ {
					for pm := deps.G[g].Ports; pm != 0; pm &= pm - 1 {
						q := bits.TrailingZeros64(pm)
						if peer[base[s.r]+q].Router < 0 {
							continue // ejection
						}
						for vm := deps.G[g].VCs & escVCs; vm != 0; vm &= vm - 1 {
							if w := bits.TrailingZeros64(vm); w < vcs {
								b := q*vcs + w
								succ[in*W+b/64] |= 1 << (b % 64)
							}
						}
					}
				}
			}
			// Reachability follows the full routing function.
			for g := 0; g < cand.N; g++ {
				for pm := cand.G[g].Ports; pm != 0; pm &= pm - 1 {
					q := bits.TrailingZeros64(pm)
					nx := peer[base[s.r]+q]
					if nx.Router < 0 {
						continue // ejection
					}
					for vm := cand.G[g].VCs; vm != 0; vm &= vm - 1 {
						w := bits.TrailingZeros64(vm)
						if w >= vcs {
							break
						}
						*g2 = *f
						g2.VC = uint8(w)
						if upd != nil {
							upd.Update(s.r, q, g2)
						}
						if ns := (state{nx.Router, nx.Port, w, g2.Route}); visit(ns, dst) {
							queue = append(queue, ns)
						}
					}
				}
			}
		}
	}
	return &cdg{t: t, vcs: vcs, W: W, base: base, peer: peer, succ: succ}
}

// findCycle runs an iterative DFS; a grey successor closes a cycle.
func (g *cdg) findCycle() error {
	t, vcs, W, base, peer, succ := g.t, g.vcs, g.W, g.base, g.peer, g.succ
	nch := len(succ) / W
	const white, grey, black = 0, 1, 2
	color := make([]uint8, nch)
	type frame struct {
		ch, to, word int
		rest         uint64
	}
	push := func(stack []frame, ch int) []frame {
		color[ch] = grey
		return append(stack, frame{ch: ch, to: peer[ch/vcs].Router, rest: succ[ch*W]})
	}
	for start := 0; start < nch; start++ {
		if color[start] != white {
			continue
		}
		stack := push(nil, start)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			for top.rest == 0 && top.word+1 < W {
				top.word++
				top.rest = succ[top.ch*W+top.word]
			}
			if top.rest == 0 {
				color[top.ch] = black
				stack = stack[:len(stack)-1]
				continue
			}
			b := top.word*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			q, w := b/vcs, b%vcs
			ch := (base[top.to]+q)*vcs + w
			switch color[ch] {
			case grey:
				var names []string
				i := 0
				for stack[i].ch != ch {
					i++
				}
				for ; i < len(stack); i++ {
					names = append(names, channelName(t, base, vcs, stack[i].ch))
				}
				names = append(names, channelName(t, base, vcs, ch))
				return fmt.Errorf("channel dependency cycle: %s", strings.Join(names, " -> "))
			case white:
				stack = push(stack, ch)
			}
		}
	}
	return nil
}

func channelName(t link.Topology, base []int, vcs, ch int) string {
	l, v := ch/vcs, ch%vcs
	r := 0
	for base[r+1] <= l {
		r++
	}
	return fmt.Sprintf("%s vc%d", t.PortName(r, l-base[r]), v)
}

// RouteUpdater is implemented by routing functions that carry state in
// Flit.Route: Update is called once per packet per hop, when the head is
// granted VC f.VC of output port out of router r, and may change f.Route.
type RouteUpdater interface {
	Update(r, out int, f *link.Flit)
}
