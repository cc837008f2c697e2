package router

import (
	"context"
	"fmt"
	"math/bits"
	"strings"

	"github.com/icnsim/icnsim/link"
)

// checkDuato checks Duato's condition for an adaptive routing function
// with an escape sub-function (Escaper) that does not list its states:
//
//   - from every state a packet can reach (router, input port, VC,
//     Flit.Route, and class for a ClassRouter), for every destination, the
//     escape sub-function offers a router-to-router escape channel or the
//     sink, and only candidates the routing function offers itself;
//   - the extended channel dependency graph of the escape channels (a
//     router-to-router channel whose VC is in EscapeVCs) has no cycle: an
//     edge from escape channel a to escape channel b when a packet holding
//     a may request b next (direct dependency) or after a walk through
//     non-escape channels that the routing function allows (indirect
//     dependency);
//   - under wormhole, every non-escape VC that such a walk can take is
//     allocated atomically (atomicAllocator): Duato's theory assumes that a
//     packet waiting on an adaptive channel is at the head of its buffer,
//     which a router that reallocates a VC when the previous tail has left
//     breaks (Ma, Enright Jerger and Wang, "Whole packet forwarding", 2012).
//
// The search runs per destination and class, so its cost grows as nodes
// squared (a 16x16 mesh under hybrid-har: about a second).
func checkDuato(ctx context.Context, t link.Topology, rf RoutingFunc, vcs int, wormhole bool) error {
	esc := rf.(Escaper)
	E := esc.EscapeVCs()
	upd, _ := rf.(RouteUpdater)
	classes := 1
	if c, ok := rf.(ClassRouter); ok {
		classes = c.Classes()
	}
	var atomic uint64
	if a, ok := rf.(atomicAllocator); ok {
		atomic = a.AtomicVCs()
	}
	nr := t.Routers()
	base := make([]int, nr+1)
	for r := 0; r < nr; r++ {
		base[r+1] = base[r] + t.Ports(r)
	}
	peer := make([]peerPort, base[nr])
	for r := 0; r < nr; r++ {
		for p := 0; p < t.Ports(r); p++ {
			q := t.Peer(r, p)
			peer[base[r]+p] = peerPort{int32(q.Router), int32(q.Port)}
		}
	}
	// Escape channels get dense indices.
	escIdx := make([]int32, base[nr]*vcs)
	var escCh []int
	for l := range peer {
		for v := 0; v < vcs; v++ {
			escIdx[l*vcs+v] = -1
			if peer[l].router >= 0 && E>>v&1 != 0 {
				escIdx[l*vcs+v] = int32(len(escCh))
				escCh = append(escCh, l*vcs+v)
			}
		}
	}
	nE := len(escCh)
	W := (nE + 63) / 64
	if int64(nE)*int64(W)*8 > 1<<30 {
		return fmt.Errorf("the %s has %d escape channels: Duato's check would need %d MB (at most 1024)", t, nE, int64(nE)*int64(W)*8>>20)
	}
	adj := make([]uint64, nE*W)

	type state struct {
		r, p, v int
		route   uint8
	}
	const maxRoute = 8
	idx := func(s state) int { return ((base[s.r]+s.p)*vcs+s.v)*maxRoute + int(s.route) }
	nStates := base[nr] * vcs * maxRoute
	visited := make([]int32, nStates)
	memo := make([]int32, nStates)   // stamp of the closure's computation
	memoAt := make([]int32, nStates) // its offset in arena, in W-word blocks
	onStack := make([]bool, nStates)
	var arena []uint64
	var adaptiveAfterEscape uint64
	var cand, ecand Candidates
	f := new(link.Flit)
	stamp := int32(0)
	var fail error

	// next lists the states reached from s by the candidates of c, with
	// whether each holds an escape channel, and calls do for each.
	next := func(s state, cls, dst int, c *Candidates, do func(ns state, escape bool)) {
		for k := 0; k < int(c.N); k++ {
			for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
				q := bits.TrailingZeros64(pm)
				nx := peer[base[s.r]+q]
				if nx.router < 0 {
					continue // ejection
				}
				for vm := c.G[k].VCs; vm != 0; vm &= vm - 1 {
					w := bits.TrailingZeros64(vm)
					if w >= vcs {
						break
					}
					g2 := link.Flit{Dst: int32(dst), VC: uint8(w), Route: s.route, Class: uint8(cls)}
					if upd != nil {
						upd.Update(s.r, q, &g2)
					}
					do(state{int(nx.router), int(nx.port), w, g2.Route}, E>>w&1 != 0)
				}
			}
		}
	}
	// escChannel is the dense index of the escape channel out of port q of
	// router r on VC w.
	escChannel := func(r, q, w int) int32 { return escIdx[(base[r]+q)*vcs+w] }
	// markEscapes sets in into the bit of every escape channel out of
	// router r that c offers.
	markEscapes := func(r int, c *Candidates, into []uint64) {
		for k := 0; k < int(c.N); k++ {
			for pm := c.G[k].Ports; pm != 0; pm &= pm - 1 {
				q := bits.TrailingZeros64(pm)
				for vm := c.G[k].VCs & E; vm != 0; vm &= vm - 1 {
					if w := bits.TrailingZeros64(vm); w < vcs {
						if e := escChannel(r, q, w); e >= 0 {
							into[int(e)/64] |= 1 << (e % 64)
						}
					}
				}
			}
		}
	}
	route := func(s state, cls, dst int, c *Candidates, escape bool) {
		*f = link.Flit{Dst: int32(dst), VC: uint8(s.v), Route: s.route, Class: uint8(cls)}
		c.N = 0
		if escape {
			esc.Escape(s.r, s.p, f, c)
		} else {
			rf.Route(s.r, s.p, f, c)
		}
	}
	// closure returns the escape channels a packet holding the non-escape
	// channel of state s may request after non-escape channels only (a
	// block of W words in arena), and false when it met a cycle of
	// non-escape states (the caller then falls back to a plain search).
	var closure func(s state, cls, dst int) (int, bool)
	closure = func(s state, cls, dst int) (int, bool) {
		i := idx(s)
		if memo[i] == stamp {
			return int(memoAt[i]), true
		}
		if onStack[i] {
			return 0, false
		}
		onStack[i] = true
		defer func() { onStack[i] = false }()
		adaptiveAfterEscape |= 1 << s.v
		at := len(arena) / max(W, 1)
		arena = append(arena, make([]uint64, W)...)
		var c Candidates
		route(s, cls, dst, &c, true)
		markEscapes(s.r, &c, arena[at*W:(at+1)*W])
		route(s, cls, dst, &c, false)
		ok := true
		var succ []state
		next(s, cls, dst, &c, func(ns state, escape bool) {
			if !escape {
				succ = append(succ, ns)
			}
		})
		for _, ns := range succ {
			j, fine := closure(ns, cls, dst)
			if !fine {
				ok = false
				break
			}
			for w := 0; w < W; w++ {
				arena[at*W+w] |= arena[j*W+w]
			}
		}
		if ok {
			memo[i], memoAt[i] = stamp, int32(at)
		}
		return at, ok
	}
	// plain is closure without memory, for a destination whose non-escape
	// states form a cycle.
	plainSeen := make([]int32, nStates)
	plainStamp := int32(0)
	plain := func(s0 state, cls, dst int, into []uint64) {
		plainStamp++
		stack := []state{s0}
		plainSeen[idx(s0)] = plainStamp
		var c Candidates
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			adaptiveAfterEscape |= 1 << s.v
			route(s, cls, dst, &c, true)
			markEscapes(s.r, &c, into)
			route(s, cls, dst, &c, false)
			next(s, cls, dst, &c, func(ns state, escape bool) {
				if !escape && plainSeen[idx(ns)] != plainStamp {
					plainSeen[idx(ns)] = plainStamp
					stack = append(stack, ns)
				}
			})
		}
	}

	var queue, reached []state
	for dst := 0; dst < t.Nodes() && fail == nil; dst++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for cls := 0; cls < classes && fail == nil; cls++ {
			stamp++
			arena = arena[:0]
			queue, reached = queue[:0], reached[:0]
			for src := 0; src < t.Nodes(); src++ {
				r, p := t.NodePort(src)
				p += min(cls, link.NodeChannels(t)-1)
				var route0 uint8
				if in, ok := rf.(Injector); ok {
					route0 = in.InjectRoute(src, dst)
				}
				for m := rf.InjectVCs(src, dst); m != 0; m &= m - 1 {
					s := state{r, p, bits.TrailingZeros64(m), route0}
					if s.v < vcs && visited[idx(s)] != stamp {
						visited[idx(s)] = stamp
						queue = append(queue, s)
					}
				}
			}
			for len(queue) > 0 {
				s := queue[len(queue)-1]
				queue = queue[:len(queue)-1]
				reached = append(reached, s)
				route(s, cls, dst, &cand, false)
				next(s, cls, dst, &cand, func(ns state, _ bool) {
					if int(ns.route) >= maxRoute {
						panic(fmt.Sprintf("deadlock check: routing state %d >= %d", ns.route, maxRoute))
					}
					if visited[idx(ns)] != stamp {
						visited[idx(ns)] = stamp
						queue = append(queue, ns)
					}
				})
			}
			for _, s := range reached {
				route(s, cls, dst, &cand, false)
				route(s, cls, dst, &ecand, true)
				where := func() string {
					return fmt.Sprintf("a class-%d packet for node %d at %s on VC %d (routing state %d)", cls, dst, t.PortName(s.r, s.p), s.v, s.route)
				}
				if ecand.N == 0 {
					fail = fmt.Errorf("the escape sub-function offers nothing to %s", where())
					break
				}
				if q, w, ok := subsetOf(&ecand, &cand, vcs); !ok {
					fail = fmt.Errorf("the escape sub-function offers %s vc%d to %s, which the routing function does not", t.PortName(s.r, q), w, where())
					break
				}
				held := peer[base[s.r]+s.p]
				if held.router < 0 || E>>s.v&1 == 0 {
					continue
				}
				hi := int(escChannel(int(held.router), int(held.port), s.v))
				row := adj[hi*W : (hi+1)*W]
				markEscapes(s.r, &ecand, row)
				next(s, cls, dst, &cand, func(ns state, escape bool) {
					if escape {
						return
					}
					if j, ok := closure(ns, cls, dst); ok {
						for w := range row {
							row[w] |= arena[j*W+w]
						}
						return
					}
					plain(ns, cls, dst, row)
				})
			}
		}
	}
	if fail != nil {
		return fail
	}
	if wormhole {
		if bad := adaptiveAfterEscape &^ E &^ atomic; bad != 0 {
			return fmt.Errorf("under wormhole, packets holding escape channels may wait on VCs %s, which are not allocated atomically (only when their buffer is empty); Duato's condition needs that", vcList(bad))
		}
	}
	return findDenseCycle(ctx, adj, W, nE, func(e int) string {
		return channelName(t, base, vcs, escCh[e])
	})
}

// subsetOf reports whether every (port, VC) of a is offered by b, and the
// first that is not.
func subsetOf(a, b *Candidates, vcs int) (port, vc int, ok bool) {
	for k := 0; k < int(a.N); k++ {
		for pm := a.G[k].Ports; pm != 0; pm &= pm - 1 {
			q := bits.TrailingZeros64(pm)
			for vm := a.G[k].VCs & allVCs(vcs); vm != 0; vm &= vm - 1 {
				w := bits.TrailingZeros64(vm)
				found := false
				for j := 0; j < int(b.N) && !found; j++ {
					found = b.G[j].Ports>>q&1 != 0 && b.G[j].VCs>>w&1 != 0
				}
				if !found {
					return q, w, false
				}
			}
		}
	}
	return 0, 0, true
}

func vcList(m uint64) string {
	var s []string
	for ; m != 0; m &= m - 1 {
		s = append(s, fmt.Sprint(bits.TrailingZeros64(m)))
	}
	return strings.Join(s, ", ")
}

// findDenseCycle looks for a cycle in a graph of n nodes whose node a has
// an edge to b when bit b of adj[a*W:(a+1)*W] is set, and names one.
func findDenseCycle(ctx context.Context, adj []uint64, W, n int, name func(int) string) error {
	const white, grey, black = 0, 1, 2
	color := make([]uint8, n)
	type frame struct {
		node, word int
		rest       uint64
	}
	var stack []frame
	for start := 0; start < n; start++ {
		if color[start] != white {
			continue
		}
		if start&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		color[start] = grey
		stack = append(stack[:0], frame{node: start, rest: adj[start*W]})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			for top.rest == 0 && top.word+1 < W {
				top.word++
				top.rest = adj[top.node*W+top.word]
			}
			if top.rest == 0 {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			b := top.word*64 + bits.TrailingZeros64(top.rest)
			top.rest &= top.rest - 1
			switch color[b] {
			case grey:
				i := 0
				for stack[i].node != b {
					i++
				}
				var names []string
				for ; i < len(stack); i++ {
					names = append(names, name(stack[i].node))
				}
				names = append(names, name(b))
				return fmt.Errorf("channel dependency cycle among the escape channels (direct and indirect dependencies): %s", strings.Join(names, " -> "))
			case white:
				color[b] = grey
				stack = append(stack, frame{node: b, rest: adj[b*W]})
			}
		}
	}
	return nil
}
