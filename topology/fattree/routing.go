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
			Doc: "up to the nearest common ancestor, then down by destination digits; going up from level l takes up port = destination digit l (d-mod-k), so each destination has one root and a root's down ports are all used",
			New: func(t topology.Topology, vcs int) routing.Func {
				return &fatTree{t: t.(*FatTree), all: routing.AllVCs(vcs)}
			},
		},
		{
			Name: "fattree-adaptive", MinVCs: 1, Topologies: []string{"fattree"}, Label: "adaptive routing", BuildSeconds: routing.SecondsPerPort(0.6e-6),
			Doc: "up to the nearest common ancestor on an adaptively chosen up port (router.vc.selection: by default a free one with most credits, ties round robin; least-occupied is FSIN's), then down by destination digits",
			New: func(t topology.Topology, vcs int) routing.Func {
				return &fatTree{t: t.(*FatTree), all: routing.AllVCs(vcs), adaptive: true}
			},
		},
	}
}

// ListStates of a fat-tree: a packet climbing into switch (l, s) on down
// port p (l >= 1) came from a subtree without its destination, so it goes
// down any other port q (its destination under the switch, digit l = q) or,
// below the roots, up (its destination elsewhere; by digit l under static
// routing, to any up port under adaptive); every such switch and port is
// reached, with any VC. A packet descending into switch (l, s) on up port
// u goes down the port of its destination's digit l: under static routing
// that digit chose the up port u on the way up (the parent's digit l, the
// port it arrives on, is the destination's), so it is u; under adaptive
// routing any.
func (f *fatTree) ListStates(visit func(r, in int, vcMask uint64, route uint8, dst int) bool) {
	t := f.t
	k, n := t.K, t.N
	pow := make([]int, n+1)
	pow[0] = 1
	for i := 1; i <= n; i++ {
		pow[i] = pow[i-1] * k
	}
	// under is a node under switch (l, s) with digit l = q (lower digits 0);
	// outside one with digit l = u whose top digit differs (l < n-1).
	under := func(l, s, q int) int { return s/pow[l]*pow[l+1] + q*pow[l] }
	outside := func(l, s, u int) int {
		d := under(l, s, u)
		top := d / pow[n-1]
		return d + ((top+1)%k-top)*pow[n-1]
	}
	for l := 1; l < n; l++ {
		for s := 0; s < t.PerLevel(); s++ {
			r := t.Router(l, s)
			for p := 0; p < k; p++ {
				for q := 0; q < k; q++ {
					if q != p && !visit(r, p, f.all, 0, under(l, s, q)) {
						return
					}
				}
				for u := 0; l < n-1 && u < k; u++ {
					if !visit(r, p, f.all, 0, outside(l, s, u)) {
						return
					}
				}
			}
			for u := 0; l < n-1 && u < k; u++ {
				for q := 0; q < k; q++ {
					if (f.adaptive || q == u) && !visit(r, k+u, f.all, 0, under(l, s, q)) {
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
// channel dependencies and any VC may be used.
type fatTree struct {
	t        *FatTree
	all      uint64
	adaptive bool
}

func (f *fatTree) Route(r, _ int, fl *link.Flit, c *routing.Candidates) {
	t := f.t
	dst := int(fl.Dst)
	l, s := t.Switch(r)
	// The subtree of switch (l, s) holds the nodes whose digits above l
	// equal the switch's digits from l on.
	down := true
	for j := l; j < t.N-1; j++ {
		if t.Digit(s, j) != t.Digit(dst, j+1) {
			down = false
			break
		}
	}
	k := t.K
	switch {
	case down:
		c.Add(routing.Bit(t.Digit(dst, l)), f.all)
	case f.adaptive:
		c.Add(((uint64(1)<<k)-1)<<k, f.all)
	default:
		c.Add(routing.Bit(k+t.Digit(dst, l)), f.all)
	}
}

func (f *fatTree) InjectVCs(int, int) uint64 { return f.all }

func (f *fatTree) Hops(src, dst int) int { return 2 * f.t.NCALevel(src, dst) }
