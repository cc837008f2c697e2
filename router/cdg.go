package router

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/icnsim/icnsim/link"
)

// Escaper is implemented by adaptive routing functions whose deadlock
// freedom rests on an escape sub-function (Duato): the channel dependency
// graph is then built from the escape candidates only.
type Escaper interface {
	Escape(r, in int, f *link.Flit, c *Candidates)
}

// CheckDeadlockFree builds the channel dependency graph of the routing
// function (or of its escape sub-function) with its VC assignment, over every
// state a packet can reach from any source, and returns an error naming one
// cycle of channels if the graph has one. A channel is one VC of one
// router-to-router link.
func CheckDeadlockFree(t link.Topology, rf RoutingFunc, vcs int) error {
	route := rf.Route
	if e, ok := rf.(Escaper); ok {
		route = e.Escape
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
	if maxPV > 64 {
		return fmt.Errorf("deadlock check: routers with more than 64 port-VC pairs (%d) are not supported; set allow_deadlock to skip it", maxPV)
	}
	// succ[ch] bit q*vcs+w: a packet holding channel ch may request VC w of
	// port q of the router ch leads to.
	succ := make([]uint64, nch)
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
	var cand Candidates
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
			// The channel this packet holds, if it came over a network link.
			in := -1
			if up := peer[base[s.r]+s.p]; up.Router >= 0 {
				in = (base[up.Router]+up.Port)*vcs + s.v
			}
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
						if in >= 0 {
							succ[in] |= 1 << (q*vcs + w)
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
	// Iterative DFS; a grey successor closes a cycle.
	const white, grey, black = 0, 1, 2
	color := make([]uint8, nch)
	next := func(ch int) (int, uint64) { // router the channel leads to, successor set
		return peer[ch/vcs].Router, succ[ch]
	}
	type frame struct {
		ch   int
		rest uint64
		to   int
	}
	for start := 0; start < nch; start++ {
		if color[start] != white || succ[start] == 0 {
			continue
		}
		to, rest := next(start)
		stack := []frame{{start, rest, to}}
		color[start] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.rest == 0 {
				color[top.ch] = black
				stack = stack[:len(stack)-1]
				continue
			}
			b := bits.TrailingZeros64(top.rest)
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
				color[ch] = grey
				to, rest := next(ch)
				stack = append(stack, frame{ch, rest, to})
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
