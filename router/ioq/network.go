package ioq

import (
	"context"
	"fmt"
	"math"
	"unsafe"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/ioq/recn"
	"github.com/icnsim/icnsim/topology"
)

// Network is a built network of switches and adapters.
type Network struct {
	Topo     topology.Plane
	Cfg      Config
	Switches []*Switch
	Adapters []*Adapter

	sh     *shared
	wires  *link.Wires // wire base[s]+p: read by switch s at port p; wire nports+i: read by adapter i
	base   []int
	actors []actor.Actor
	units  []int
}

var _ fabric.Fabric = (*Network)(nil)

// MaxRECNMeshK is the widest mesh RECN runs on: a CAM line and a
// notification count the route to a congested point in switches in one
// byte (recn.Line.Hops), and a route on a k x k mesh, plus the egress
// port's one more, spans up to 2k switches.
const MaxRECNMeshK = 127

// Check reports what building a network of cfg on t would refuse.
func Check(t topology.Topology, cfg Config) error {
	g, ok := t.(topology.Plane)
	if !ok {
		return fmt.Errorf("the input/output-buffered switch is built on meshes and tori (dimension-order routing), not on a %s", t.Kind())
	}
	if topology.NodeChannels(g) != 1 || g.Loopbacks() > 0 {
		return fmt.Errorf("the input/output-buffered switch attaches every endnode by one channel")
	}
	if g.Wraps() && cfg.Org == RECN {
		return fmt.Errorf("RECN matches congested points on the routes of dimension-order routing on a mesh; a torus without virtual channels is not supported (use a mesh)")
	}
	if cfg.Org == RECN && g.Side() > MaxRECNMeshK {
		return fmt.Errorf("RECN on a %dx%d mesh: a CAM line counts its route in switches in one byte, so meshes up to %dx%d are supported", g.Side(), g.Side(), MaxRECNMeshK, MaxRECNMeshK)
	}
	if g.Wraps() && !cfg.AllowDeadlock {
		return &fabric.DeadlockError{Msg: "dimension-order routing on a torus without datelines can deadlock (the switch has no virtual channels); allowed only with allow_deadlock, to study deadlock"}
	}
	if _, err := cfg.Validate(4+g.Concentration(), g.Nodes()); err != nil {
		return err
	}
	return nil
}

// Build wires switches and adapters to t, with sources and sinks per node.
func Build(ctx context.Context, t topology.Topology, cfg Config, sources []fabric.Source, sinks []fabric.Sink) (*Network, error) {
	if err := Check(t, cfg); err != nil {
		return nil, err
	}
	g := t.(topology.Plane)
	if len(sources) != g.Nodes() {
		return nil, fmt.Errorf("%d sources for %d nodes", len(sources), g.Nodes())
	}
	P, N := 4+g.Concentration(), g.Nodes()
	Q := cfg.memQueues(P, N)
	sh := &shared{topo: g, k: g.Side(), c: g.Concentration(), org: cfg.Org,
		queueCap: int32(cfg.QueueFlits(P, N)), memFlits: int32(cfg.PortMemoryFlits), delay: uint32(cfg.RoutingDelayCycles),
		wrap: g.Wraps(), perQueueC: cfg.Org == VOQSw || cfg.Org == VOQNet,
		recn: cfg.RECN, mesh: recn.Mesh{K: g.Side(), C: g.Concentration()}, dedicated: cfg.DedicatedControl}
	n := &Network{Topo: g, Cfg: cfg, sh: sh}
	nr := g.Routers()
	n.base = make([]int, nr+1)
	for r := range nr {
		n.base[r+1] = n.base[r] + P
	}
	nports := n.base[nr]
	n.wires = link.NewWires(nports+N, cfg.LinkLatencyCycles, cfg.CreditLatencyCycles)
	var ctrl []link.Lane[recn.Msg]
	if cfg.Org == RECN {
		ctrl = make([]link.Lane[recn.Msg], nports+N)
		for w := range ctrl {
			ctrl[w].Init("recn control", cfg.LinkLatencyCycles)
		}
	}
	words := (Q + 63) / 64
	// A memory holds at most this many packets (all of the smallest size).
	mostPackets := cfg.PortMemoryFlits / max(cfg.MinPacketFlits, 1)
	// Queue heads of every memory in one arena: 2 per port and one per
	// adapter.
	qArena := make([]queue, (2*nports+N)*Q)
	wArena := make([]uint64, (2*nports+N)*words)
	mem := func() memory {
		qs := qArena[:Q:Q]
		ws := wArena[:words:words]
		qArena, wArena = qArena[Q:], wArena[words:]
		return newMemory(qs, ws)
	}
	// The admission queues: one per destination at every adapter.
	admWords := (N + 63) / 64
	admQs, admWs := make([]queue, N*N), make([]uint64, N*admWords)
	credits := func(toSwitch bool) []int32 {
		if toSwitch && sh.perQueueC {
			c := make([]int32, Q)
			for i := range c {
				c[i] = sh.queueCap
			}
			return c
		}
		return []int32{sh.memFlits}
	}
	switches := make([]Switch, nr)
	n.Switches = make([]*Switch, nr)
	for r := range switches {
		if r&1023 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s := &switches[r]
		*s = Switch{id: int32(r), sh: sh, wires: n.wires, in0: int32(n.base[r]),
			ing: make([]memory, P), egr: make([]memory, P), links: make([]outLink, P),
			lastIn: make([]int32, P), next: make([]int32, P), req: make([]uint64, P), recv: make([]int32, P), recvQ: make([]int32, P), xf: make([]xfer, P), pl: newPool(2 * P * mostPackets)}
		for p := range P {
			s.ing[p], s.egr[p] = mem(), mem()
			s.recv[p], s.xf[p].src = -1, -1
			peer := g.Peer(r, p)
			s.links[p] = outLink{wire: -1, cur: -1}
			s.next[p] = int32(peer.Router)
			switch {
			case peer.Router >= 0:
				s.conn |= 1 << p
				s.links[p] = outLink{wire: int32(n.base[peer.Router] + peer.Port), cur: -1, toSwitch: true, credits: credits(true)}
			case peer.Node >= 0:
				s.conn |= 1 << p
				s.links[p] = outLink{wire: int32(nports + peer.Node), cur: -1, credits: credits(false)}
			}
		}
		if ctrl != nil {
			s.ctrl = ctrl
			s.rc = &recnSwitch{ing: newRECNPorts(sh, r, P, s.ing, recn.Ingress, s.next), egr: newRECNPorts(sh, r, P, s.egr, recn.Egress, s.next), pend: make([]ctrlFIFO, P),
				work: make([]routed, 0, 16)}
			for p := range s.rc.pend {
				s.rc.pend[p].msgs = make([]recn.Msg, 0, 8)
				if cfg.RECN.Scope == recn.Feeders && s.links[p].toSwitch {
					s.links[p].held = &s.rc.egr[p].Port
				}
			}
		}
		n.Switches[r] = s
	}
	adapters := make([]Adapter, N)
	n.Adapters = make([]*Adapter, N)
	for i := range adapters {
		r, p := g.NodePort(i)
		a := &adapters[i]
		*a = Adapter{id: int32(i), first: int32(r), in: int32(nports + i), out: int32(n.base[r] + p), sh: sh, wires: n.wires,
			src: sources[i], adm: newMemory(admQs[i*N:(i+1)*N:(i+1)*N], admWs[i*admWords:(i+1)*admWords:(i+1)*admWords]),
			admPool: newPool(math.MaxInt32), xfer: -1, inj: mem(), pl: newPool(mostPackets), order: fabric.NewFlowOrder(N)}
		if sinks != nil {
			a.sink = sinks[i]
		}
		_, a.closed = sources[i].(fabric.ClosedLoop)
		a.link = outLink{wire: int32(n.base[r] + p), cur: -1, toSwitch: false, credits: credits(true)}
		if ctrl != nil {
			a.ctrl = ctrl
			a.pend.msgs = make([]recn.Msg, 0, 8)
			rp := newRECNPort(sh, &a.inj, P, r)
			a.rp = &rp
			a.rp.Init(&sh.recn, recn.Egress, -1, 0, make([]recn.Line, cfg.RECN.SAQs), &a.rp.q)
			if cfg.RECN.Scope == recn.Feeders {
				a.link.held = &a.rp.Port
			}
		}
		n.Adapters[i] = a
	}
	// Actors: each switch followed by its adapters; units follow the grid's rows.
	first := make([]int, nr)
	for r := range nr {
		first[r] = len(n.actors)
		n.actors = append(n.actors, n.Switches[r])
		for c := range g.Concentration() {
			n.actors = append(n.actors, n.Adapters[r*g.Concentration()+c])
		}
	}
	for _, u := range g.Units() {
		n.units = append(n.units, first[u])
	}
	return n, nil
}

// MostStateBytes bounds the memory a network of cfg on t can take: its
// wires, queue heads and bitsets, the switches' per-port state, and every
// descriptor pool grown to hold its memories full of the smallest packets
// (not the admission queues, unbounded like any source queue). It builds
// nothing.
func MostStateBytes(t topology.Topology, cfg Config) int64 {
	g, ok := t.(topology.Plane)
	if !ok {
		return 0
	}
	P, N, S := int64(4+g.Concentration()), int64(g.Nodes()), int64(g.Routers())
	Q := int64(cfg.memQueues(int(P), int(N)))
	most := int64(cfg.PortMemoryFlits / max(cfg.MinPacketFlits, 1))
	pk, q := int64(unsafe.Sizeof(pkt{})), int64(unsafe.Sizeof(queue{}))
	slots := int64(link.RingSlots(cfg.LinkLatencyCycles, cfg.CreditLatencyCycles, 0))
	b := (S*P + N) * slots * link.WireSlotBytes
	b += (2*S*P + N) * Q * (q + 1) // queue heads and a bit each (rounded up)
	b += S * (int64(unsafe.Sizeof(Switch{})) + P*(2*int64(unsafe.Sizeof(memory{}))+int64(unsafe.Sizeof(outLink{}))+int64(unsafe.Sizeof(xfer{}))+5*8+Q*4))
	b += S * 2 * P * most * pk
	b += N * (int64(unsafe.Sizeof(Adapter{})) + most*pk + N*(q+4+1))
	if cfg.Org == RECN {
		// CAM lines and in-order pointers per memory, a control lane per
		// wire, a switch's RECN state.
		line := int64(unsafe.Sizeof(recn.Line{})) + 4 + int64(unsafe.Sizeof(recnPort{}))/int64(max(cfg.RECN.SAQs, 1))
		b += (2*S*P + N) * int64(cfg.RECN.SAQs) * line
		b += (S*P + N) * (int64(unsafe.Sizeof(link.Lane[recn.Msg]{})) + slots*16)
		b += S * int64(unsafe.Sizeof(recnSwitch{}))
	}
	return b
}

// Topology is the network's topology.
func (n *Network) Topology() topology.Topology { return n.Topo }

// Actors returns the switches and adapters in their fixed order and the
// unit boundaries for sharding.
func (n *Network) Actors() ([]actor.Actor, []int) { return n.actors, n.units }

// Prefetcher is nil: the switch's state is not laid out for prefetching.
func (n *Network) Prefetcher() func(int, clock.Cycle) { return nil }

// Buffers is 0: the switch does not report buffer occupancy per cycle.
func (n *Network) Buffers() int { return 0 }

// NodeFlitsInjected is the number of flits adapter i has sent.
func (n *Network) NodeFlitsInjected(i int) uint64 { return n.Adapters[i].FlitsInjected }

// LastDelivery is the last cycle at which an adapter received a tail.
func (n *Network) LastDelivery() clock.Cycle {
	var last clock.Cycle
	for _, a := range n.Adapters {
		last = max(last, a.LastDelivery)
	}
	return last
}

// CountPerDestination makes adapter i count the packets it starts per
// destination.
func (n *Network) CountPerDestination(i int) *fabric.PacketCounts {
	a := n.Adapters[i]
	if a.perDst == nil {
		a.perDst = fabric.NewPacketCounts(len(n.Adapters))
	}
	return a.perDst
}

// ZeroLoadLatency is the latency of a lone packet of sizeFlits flits over
// h switch-to-switch hops, from its generation to its tail's arrival: the
// injection link, a routing delay at each of the h+1 switches, h links
// between them, the ejection link, and the serialisation of the body (the
// same as the VC router's, see the package doc).
func ZeroLoadLatency(c Config, h, sizeFlits int) int {
	return c.LinkLatencyCycles + (h+1)*c.RoutingDelayCycles + h*c.LinkLatencyCycles + c.LinkLatencyCycles + sizeFlits - 1
}

// Hops is the number of switch-to-switch hops from node src to node dst.
func (n *Network) Hops(src, dst int) int {
	h := 0
	for s := src / n.sh.c; s != dst/n.sh.c; h++ {
		s = n.Topo.Peer(s, n.sh.route(s, int32(dst))).Router
	}
	return h
}

// MaxZeroLoadLatency is the zero-load latency over the longest route.
func (n *Network) MaxZeroLoadLatency(sizeFlits int) int {
	return ZeroLoadLatency(n.Cfg, n.Topo.Diameter(), sizeFlits)
}

// Totals sums the counters of all actors.
func (n *Network) Totals() fabric.Totals {
	var t fabric.Totals
	for _, a := range n.Adapters {
		t.PacketsGenerated += a.PacketsGenerated
		t.PacketsInjected += a.PacketsInjected
		t.PacketsDelivered += a.PacketsDelivered
		t.FlitsInjected += a.FlitsInjected
		t.FlitsDelivered += a.FlitsDelivered
		t.SourceQueued += uint64(a.Queued())
		t.InjectionMemory += uint64(a.Waiting())
	}
	for _, s := range n.Switches {
		for p := range s.ing {
			t.FlitsBuffered += uint64(s.ing[p].used + s.egr[p].used)
		}
		t.FlitHops += s.FlitHops
	}
	return t
}

// CheckDelivery verifies, on a drained network, that every packet sent
// was delivered exactly once (by count and by a sum of packet hashes).
func (n *Network) CheckDelivery() error {
	var inj, del, sent, recv uint64
	for _, a := range n.Adapters {
		inj += a.PacketsInjected
		del += a.PacketsDelivered
		sent += a.sentHash
		recv += a.recvHash
	}
	return fabric.DeliveryCheck(inj, del, sent, recv)
}
