package fattree

import (
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Routings are the fat-tree's routing functions, in the order
// documentation lists them (the catalog's registry).
func Routings() []routing.Spec {
	return []routing.Spec{
		{
			Name: "fattree-static", MinVCs: 1, Topologies: []string{"fattree"}, Label: "static routing", BuildSeconds: routing.SecondsPerPort(0.3e-6),
			Doc: "up to the nearest common ancestor, then down by destination digits; going up from level l takes up port = destination digit l (D-mod-K; on a tapered tree (dst / (Up(0)...Up(l-1))) mod Up(l)), so each destination has one root and a root's down ports are all used",
			New: func(t topology.Topology, vcs int) routing.Func {
				return newFatTree(t.(*FatTree), vcs, false)
			},
		},
		{
			Name: "fattree-adaptive", MinVCs: 1, Topologies: []string{"fattree"}, Label: "adaptive routing", BuildSeconds: routing.SecondsPerPort(0.6e-6),
			Doc: "up to the nearest common ancestor on an adaptively chosen up port (router.vc.selection: by default a free one with most credits, ties round robin; least-occupied is FSIN's), then down by destination digits",
			New: func(t topology.Topology, vcs int) routing.Func {
				return newFatTree(t.(*FatTree), vcs, true)
			},
		},
	}
}

// ListStates of a fat-tree: a packet climbing into switch (l, s) on down
// port p (l >= 1) came from a subtree without its destination, so it goes
// down any other port q (its destination under the switch, digit l = q) or,
// below the roots, up (its destination elsewhere; by its D-mod-K port under
// static routing, to any up port under adaptive); every such switch and
// port is reached, with any VC. A packet descending into switch (l, s) on
// up port u goes down the port of its destination's digit l. Under
// adaptive routing that may be any. Under static routing the climb chose
// u and the switch's digits below l from the destination (its low digits
// in the mixed radix Up(0), Up(1), ...: dst mod M = c, M = Up(0)...Up(l)),
// so digit l = q is possible exactly where some destination under the
// switch with that digit has dst mod M = c: where (c - q k^l) mod M < k^l.
// Untapered (M = k^(l+1)) that is q = u alone.
func (f *fatTree) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	t := f.t
	k, n := t.K, t.N
	pow := make([]int, n+1)
	pow[0] = 1
	for i := 1; i <= n; i++ {
		pow[i] = pow[i-1] * k
	}
	for l := 1; l < n; l++ {
		for s := 0; s < t.LevelSwitches(l); s++ {
			r := t.Router(l, s)
			sub := int(f.sub[r])
			// under is a node under switch (l, s) with digit l = q (lower
			// digits 0).
			under := func(q int) int { return sub*pow[l+1] + q*pow[l] }
			var outside func(u int) int // a node outside the subtree whose climb takes up port u
			if l < n-1 {
				base := (sub + 1) % (pow[n] / pow[l+1]) * pow[l+1]
				m, w := f.upWeight[l], t.Up(l)
				outside = func(u int) int { return base + ((u-base/m)%w+w)%w*m }
			}
			for p := 0; p < k; p++ {
				for q := 0; q < k; q++ {
					if q != p && !visit(r, p, f.all, 0, under(q)) {
						return
					}
				}
				for u := 0; l < n-1 && u < t.Up(l); u++ {
					if !visit(r, p, f.all, 0, outside(u)) {
						return
					}
				}
			}
			if l == n-1 {
				continue
			}
			// c: the low digits the climb to the parent fixed.
			c, M := 0, f.upWeight[l]*t.Up(l)
			for j := range l {
				c += t.SwitchDigit(l, s, j) * f.upWeight[j]
			}
			for u := 0; u < t.Up(l); u++ {
				cu := c + u*f.upWeight[l]
				for q := 0; q < k; q++ {
					if (f.adaptive || ((cu-q*pow[l])%M+M)%M < pow[l]) && !visit(r, k+u, f.all, 0, under(q)) {
						return
					}
				}
			}
		}
	}
}

// fatTree routes up*/down* on a k-ary n-tree: a packet climbs until the
// switch's subtree holds its destination, then descends by destination
// digits. Climbing only ever follows descending, so there is no cycle of
// channel dependencies and any VC may be used. Static routing climbs by
// D-mod-K (Zahavi, "D-Mod-K routing providing non-blocking traffic for
// shift permutations on real life fat trees", 2010): from level l up port
// (dst / (Up(0)...Up(l-1))) mod Up(l), destination digit l untapered.
type fatTree struct {
	t        *FatTree
	all      uint64
	adaptive bool
	// Per router: its level and the value of its digits from its level up
	// (sub): the switch's subtree holds the nodes dst with
	// dst / k^(level+1) = sub.
	level []uint8
	sub   []int32
	// pow[l] = k^l; upWeight[l] = Up(0)...Up(l-1); upMask[l] the up ports
	// of level l.
	pow, upWeight []int
	upMask        []uint64
}

func newFatTree(t *FatTree, vcs int, adaptive bool) *fatTree {
	f := &fatTree{t: t, all: routing.AllVCs(vcs), adaptive: adaptive,
		level: make([]uint8, t.Routers()), sub: make([]int32, t.Routers()),
		pow: make([]int, t.N+1), upWeight: make([]int, t.N), upMask: make([]uint64, t.N)}
	f.pow[0], f.upWeight[0] = 1, 1
	for l := 1; l <= t.N; l++ {
		f.pow[l] = f.pow[l-1] * t.K
	}
	for l := range t.N - 1 {
		f.upWeight[l+1] = f.upWeight[l] * t.Up(l)
		f.upMask[l] = (uint64(1)<<t.Up(l) - 1) << t.K
	}
	for r := range f.level {
		l, s := t.Switch(r)
		sub := 0
		for j := t.N - 2; j >= l; j-- {
			sub = sub*t.K + t.SwitchDigit(l, s, j)
		}
		f.level[r], f.sub[r] = uint8(l), int32(sub)
	}
	return f
}

func (f *fatTree) Route(r, _ int, fl *link.Flit, c *routing.Candidates) {
	dst := int(fl.Dst)
	l := int(f.level[r])
	k := f.t.K
	switch {
	case dst/f.pow[l+1] == int(f.sub[r]): // down
		c.Add(routing.Bit(dst/f.pow[l]%k), f.all)
	case f.adaptive:
		c.Add(f.upMask[l], f.all)
	default:
		c.Add(routing.Bit(k+dst/f.upWeight[l]%f.t.Up(l)), f.all)
	}
}

func (f *fatTree) InjectVCs(int, int) uint64 { return f.all }

func (f *fatTree) Hops(src, dst int) int { return 2 * f.t.NCALevel(src, dst) }
