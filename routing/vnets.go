package routing

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Networks is a routing function split into virtual networks: the VCs
// are divided into contiguous blocks, block n the VCs base(n) ..
// base(n)+per(n)-1, and each block runs its own copy of the same routing
// function, built with that block's VCs (NewNetworks: equal blocks of one
// function; NewNetworksOf: blocks of their own sizes). A packet of
// message class c is injected on network c (a class above the last
// network shares the last one) and never leaves it: every decision is its
// network's function's on the packet's VC within its block, its VCs moved
// into that block.
//
// What deadlock freedom needs: the channel dependency graph of a network
// is a copy of its function's graph with its VCs (the check runs on each
// block's function), and the networks share no channel, so the whole
// graph is acyclic when each block's is. Message-dependent deadlock (a
// class whose consumption waits for another class to be sent) is a
// question of the classes and their networks (deadlock.CheckMessageClasses).
//
// Networks always offers Chooser, RouteUpdater and Injector (passing them
// on to the inner functions where they have them and doing nothing
// otherwise); it does not pass on capabilities that would need per-network
// state in a router (AtomicAllocator, BoardUser) or message classes of
// their own (ClassRouter): NetworksRefusal names such functions.
type Networks struct {
	nets []vnet
	// netOf[v] is the network VC v is in.
	netOf [64]uint8
	// views are the queue views a Chooser reads, one per router: router r
	// writes and reads views[r] alone, in its own Tick.
	views []netQueues
}

// vnet is one virtual network: its VCs (per from base) and its routing
// function's capabilities.
type vnet struct {
	inner     Func
	base, per int
	upd       RouteUpdater
	inj       Injector
	ch        Chooser
}

// netQueues is router r's queues seen from one network: VC masks in the
// network's block.
type netQueues struct {
	q         Queues
	base, per int
}

func (v *netQueues) QueueFlits(p int) int { return v.q.QueueFlitsOn(p, blockMask(v.base, v.per)) }
func (v *netQueues) QueueFlitsOn(p int, vcs uint64) int {
	return v.q.QueueFlitsOn(p, vcs<<v.base)
}
func (v *netQueues) CreditFlitsOn(p int, vcs uint64) int {
	return v.q.CreditFlitsOn(p, vcs<<v.base)
}

// blockMask is the VCs base .. base+n-1.
func blockMask(base, n int) uint64 { return AllVCs(n) << base }

// NetworksRefusal says why inner cannot be split into virtual networks,
// "" when it can.
func NetworksRefusal(inner Func) string {
	switch {
	case isA[AtomicAllocator](inner):
		return "it allocates some VCs atomically, per router"
	case isA[ClassRouter](inner):
		return "it routes by message class itself"
	case isA[BoardUser](inner):
		if b, _, _ := inner.(BoardUser).UseBoard(); b != nil {
			return "it reads a network-wide board of queues"
		}
	}
	return ""
}

func isA[T any](f Func) bool { _, ok := f.(T); return ok }

// NewNetworks splits inner, built with per VCs, into count virtual
// networks of per VCs each on a topology of routers routers.
func NewNetworks(inner Func, count, per, routers int) *Networks {
	inners, pers := make([]Func, count), make([]int, count)
	for k := range inners {
		inners[k], pers[k] = inner, per
	}
	return NewNetworksOf(inners, pers, routers)
}

// NewNetworksOf makes virtual network k of pers[k] VCs routed by
// inners[k] (built with pers[k] VCs), the networks in order from VC 0, on
// a topology of routers routers. The VCs must number at most 64.
func NewNetworksOf(inners []Func, pers []int, routers int) *Networks {
	n := &Networks{nets: make([]vnet, len(inners)), views: make([]netQueues, routers)}
	base := 0
	for k, f := range inners {
		w := &n.nets[k]
		w.inner, w.base, w.per = f, base, pers[k]
		w.upd, _ = f.(RouteUpdater)
		w.inj, _ = f.(Injector)
		w.ch, _ = f.(Chooser)
		for v := base; v < base+pers[k] && v < 64; v++ {
			n.netOf[v] = uint8(k)
		}
		base += pers[k]
	}
	return n
}

// Inner is the function the first network runs (Wrapper): every network
// runs the same routing, built with its own VCs.
func (n *Networks) Inner() Func { return n.nets[0].inner }

// Wrapper is implemented by routing functions that run another one
// (Networks): capabilities of the routes themselves (RouteLatencies) are
// the inner function's.
type Wrapper interface{ Inner() Func }

// netFor is the network of message class c.
func (n *Networks) netFor(c uint8) *vnet { return &n.nets[min(int(c), len(n.nets)-1)] }

// ClassVCs is the VCs of the network that carries message class c.
func (n *Networks) ClassVCs(c uint8) uint64 {
	w := n.netFor(c)
	return blockMask(w.base, w.per)
}

// of is the network f's VC is in.
func (n *Networks) of(f *link.Flit) *vnet { return &n.nets[n.netOf[f.VC&63]] }

// shift moves every group of c into the block at base.
func shift(c *Candidates, base int) {
	for g := 0; g < int(c.N); g++ {
		c.G[g].VCs <<= base
	}
}

// Route implements Func.
func (n *Networks) Route(r, in int, f *link.Flit, c *Candidates) {
	w := n.of(f)
	f.VC -= uint8(w.base)
	w.inner.Route(r, in, f, c)
	f.VC += uint8(w.base)
	shift(c, w.base)
}

// Choose implements Chooser: the network's choice (or route), reading the
// router's queues of that network.
func (n *Networks) Choose(r, in int, f *link.Flit, c *Candidates, q Queues, now clock.Cycle) {
	w := n.of(f)
	f.VC -= uint8(w.base)
	if w.ch != nil {
		v := &n.views[r]
		v.q, v.base, v.per = q, w.base, w.per
		w.ch.Choose(r, in, f, c, v, now)
	} else {
		w.inner.Route(r, in, f, c)
	}
	f.VC += uint8(w.base)
	shift(c, w.base)
}

// Update implements RouteUpdater (f.VC is the output VC granted).
func (n *Networks) Update(r, out int, f *link.Flit) {
	w := n.of(f)
	if w.upd == nil {
		return
	}
	f.VC -= uint8(w.base)
	w.upd.Update(r, out, f)
	f.VC += uint8(w.base)
}

// InjectRoute implements Injector: the first network's state (a caller
// that knows the packet's class asks InjectRouteOf).
func (n *Networks) InjectRoute(src, dst int) uint8 { return n.InjectRouteOf(0, src, dst) }

// InjectRouteOf is the routing state a packet of message class c starts
// with, from src to dst.
func (n *Networks) InjectRouteOf(c uint8, src, dst int) uint8 {
	w := n.netFor(c)
	if w.inj == nil {
		return 0
	}
	return w.inj.InjectRoute(src, dst)
}

// InjectVCs is each network's function's injection VCs, in its block: the
// network interface keeps a packet to its class's network (ClassVCs).
func (n *Networks) InjectVCs(src, dst int) uint64 {
	var all uint64
	for k := range n.nets {
		w := &n.nets[k]
		all |= w.inner.InjectVCs(src, dst) & AllVCs(w.per) << w.base
	}
	return all
}

// Hops implements Func.
func (n *Networks) Hops(src, dst int) int { return n.nets[0].inner.Hops(src, dst) }
