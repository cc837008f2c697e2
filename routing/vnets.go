package routing

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Networks is a routing function split into virtual networks: the VCs
// are divided into count contiguous blocks of per VCs (NewNetworks), block n
// the VCs n*per .. (n+1)*per-1, and each block runs its own copy of the
// same function (built with per VCs). A packet of message class c is
// injected on network c (a class above the last network shares the last
// one) and never leaves it: every decision is the inner function's on the
// packet's VC within its block, its VCs moved into that block.
//
// What deadlock freedom needs: the channel dependency graph of a network
// is a copy of the inner function's graph with per VCs (the check runs on
// the inner function), and the networks share no channel, so the whole
// graph is acyclic when the inner one is. Message-dependent deadlock (a
// class whose consumption waits for another class to be sent) is a
// question of the classes and their networks (deadlock.CheckMessageClasses).
//
// Networks always offers Chooser, RouteUpdater and Injector (passing them
// on to the inner function where it has them and doing nothing otherwise);
// it does not pass on capabilities that would need per-network state in a
// router (AtomicAllocator, BoardUser) or message classes of their own
// (ClassRouter): NewNetworks refuses such functions.
type Networks struct {
	inner Func
	count int
	per   int
	upd   RouteUpdater
	inj   Injector
	ch    Chooser
	// views are the queue views a Chooser reads, one per router: router r
	// writes and reads views[r] alone, in its own Tick.
	views []netQueues
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
// networks on a topology of routers routers.
func NewNetworks(inner Func, count, per, routers int) *Networks {
	n := &Networks{inner: inner, count: count, per: per, views: make([]netQueues, routers)}
	n.upd, _ = inner.(RouteUpdater)
	n.inj, _ = inner.(Injector)
	n.ch, _ = inner.(Chooser)
	return n
}

// Inner is the function each network runs (Wrapper).
func (n *Networks) Inner() Func { return n.inner }

// Wrapper is implemented by routing functions that run another one
// (Networks): capabilities of the routes themselves (RouteLatencies) are
// the inner function's.
type Wrapper interface{ Inner() Func }

// ClassVCs is the VCs of the network that carries message class c.
func (n *Networks) ClassVCs(c uint8) uint64 {
	return blockMask(min(int(c), n.count-1)*n.per, n.per)
}

// base is the first VC of the network f's VC is in.
func (n *Networks) base(f *link.Flit) int { return int(f.VC) / n.per * n.per }

// shift moves every group of c into the block at base.
func shift(c *Candidates, base int) {
	for g := 0; g < int(c.N); g++ {
		c.G[g].VCs <<= base
	}
}

// Route implements Func.
func (n *Networks) Route(r, in int, f *link.Flit, c *Candidates) {
	b := n.base(f)
	f.VC -= uint8(b)
	n.inner.Route(r, in, f, c)
	f.VC += uint8(b)
	shift(c, b)
}

// Choose implements Chooser: the inner function's choice (or route) in the
// packet's network, reading the router's queues of that network.
func (n *Networks) Choose(r, in int, f *link.Flit, c *Candidates, q Queues, now clock.Cycle) {
	b := n.base(f)
	f.VC -= uint8(b)
	if n.ch != nil {
		v := &n.views[r]
		v.q, v.base, v.per = q, b, n.per
		n.ch.Choose(r, in, f, c, v, now)
	} else {
		n.inner.Route(r, in, f, c)
	}
	f.VC += uint8(b)
	shift(c, b)
}

// Update implements RouteUpdater (f.VC is the output VC granted).
func (n *Networks) Update(r, out int, f *link.Flit) {
	if n.upd == nil {
		return
	}
	b := n.base(f)
	f.VC -= uint8(b)
	n.upd.Update(r, out, f)
	f.VC += uint8(b)
}

// InjectRoute implements Injector.
func (n *Networks) InjectRoute(src, dst int) uint8 {
	if n.inj == nil {
		return 0
	}
	return n.inj.InjectRoute(src, dst)
}

// InjectVCs is the inner function's injection VCs in every network: the
// network interface keeps a packet to its class's network (ClassVCs).
func (n *Networks) InjectVCs(src, dst int) uint64 {
	m := n.inner.InjectVCs(src, dst) & AllVCs(n.per)
	var all uint64
	for k := 0; k < n.count; k++ {
		all |= m << (k * n.per)
	}
	return all
}

// Hops implements Func.
func (n *Networks) Hops(src, dst int) int { return n.inner.Hops(src, dst) }
