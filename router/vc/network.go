package vc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/internal/prefetch"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router/alloc"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/routing/deadlock"
	"github.com/icnsim/icnsim/topology"
)

// Switching is the switching technique.
type Switching uint8

const (
	// VirtualCutThrough lets a head take an output VC only when the VC has
	// room for the whole packet.
	VirtualCutThrough Switching = iota
	// Wormhole lets flits advance one at a time into any free slot.
	Wormhole
)

func (s Switching) String() string {
	if s == Wormhole {
		return "wormhole"
	}
	return "vct"
}

// ParseSwitching reads "vct" or "wormhole".
func ParseSwitching(s string) (Switching, error) {
	switch s {
	case "vct":
		return VirtualCutThrough, nil
	case "wormhole":
		return Wormhole, nil
	}
	return 0, fmt.Errorf("unknown switching %q (allowed: vct, wormhole)", s)
}

// Config is the router and link configuration of a network.
type Config struct {
	// Routing is the routing function's registry entry (the topology
	// family's, found by name by the caller).
	Routing             routing.Spec
	VCs                 int
	BufferFlits         int // per VC, at every input port (and at the NI sink)
	Switching           Switching
	RoutingDelayCycles  int // >= 0
	LinkLatencyCycles   int // >= 1, router-to-router and NI links
	CreditLatencyCycles int // >= 1
	MaxPacketFlits      int // largest packet the traffic will send
	MinPacketFlits      int // smallest packet the traffic will send (0 = 1)
	// AllowDeadlock skips the channel-dependency check, to study deadlock.
	AllowDeadlock bool
	// Selection is the selection function (the default, or FSIN's).
	Selection Selection
	// SelectionTies is how SelectLeastOccupied breaks ties (rotation by
	// default); SelectionSeed seeds the routers' streams when it draws.
	SelectionTies SelectionTies
	SelectionSeed uint64
	// RoutingParams are the values of the routing's parameters
	// (routing.Spec.Params: UGAL's threshold, Hybrid-HAR's free rule).
	RoutingParams routing.Params
	// InternalSpeedup is the number of switch allocation rounds per cycle
	// (0 or 1: the plain input-queued router; 2..4: output and credit
	// queues, see speedup.go).
	InternalSpeedup int
	// VirtualNetworks > 1 splits the VCs into that many virtual networks
	// of VCs/VirtualNetworks VCs each, one per message class (class c on
	// network c, the classes above the last on the last): the routing
	// function is built, configured and checked with each network's VCs
	// and runs in each network apart (routing.Networks). 0 or 1: one
	// network of every VC.
	VirtualNetworks int
	// ClassVCs, when not empty, partitions the VCs between the traffic
	// classes of a mix: class k's packets travel on ClassVCs[k] VCs of
	// their own, the blocks in class order from VC 0, each routed by the
	// routing function built and checked with its block's VCs
	// (routing.NewNetworksOf). It sums to VCs. Empty: the classes share
	// every VC.
	ClassVCs []int
	// Classes is the number of traffic classes (0 or 1: one);
	// ClassShare is how every arbiter and network interface divides
	// itself between them, ClassWeights their weights under
	// alloc.ShareWeighted (one per class, 1..alloc.MaxShareWeight).
	Classes      int
	ClassShare   alloc.Share
	ClassWeights []int
	// Arbitration orders the requests of every arbiter: VC allocation's
	// output-VC arbiters and the switch allocator's (alloc.Arbitration;
	// the zero value, round robin, is the router as it always was).
	Arbitration alloc.Arbitration
	// SwitchAllocator matches input ports to output ports
	// (alloc.Allocator; the zero value, separable input-first, is the
	// router as it always was). ISLIPIterations is iSLIP's rounds (0 is 1).
	SwitchAllocator alloc.Allocator
	ISLIPIterations int
	// The pipeline's stages after the routing delay (see the package doc's
	// Timing): a head granted an output VC may enter switch allocation
	// VCAllocationCycles later (0: in the same cycle); a flit granted the
	// switch goes on its link SwitchAllocationCycles-1 + CrossbarCycles
	// cycles later (SwitchAllocationCycles 0 is 1). The zero values are
	// the router as it always was: allocation and traversal in one cycle.
	VCAllocationCycles     int
	SwitchAllocationCycles int
	CrossbarCycles         int
	// forceMatch has every switch allocation go through the Matcher
	// (matchPorts), under the default options too, so that a test can show
	// it equals allocateSwitch's own.
	forceMatch bool
}

// MaxStageCycles is the most cycles Config gives a pipeline stage.
const MaxStageCycles = 64

// sendAheadCycles is the cycles a flit that won the switch takes before
// it goes on its link (Config's pipeline).
func (c Config) sendAheadCycles() int { return max(c.SwitchAllocationCycles, 1) - 1 + c.CrossbarCycles }

// RouterCycles is the cycles a lone head spends in a router beyond its
// link: the routing delay and the pipeline's stages.
func (c Config) RouterCycles() int {
	return c.RoutingDelayCycles + c.VCAllocationCycles + c.sendAheadCycles()
}

// generalSwitch reports whether the router keeps a Matcher for the
// allocations allocateSwitch cannot settle alone: an allocator other
// than separable input-first.
func (c Config) generalSwitch() bool {
	return c.SwitchAllocator != alloc.SeparableInputFirst || c.forceMatch
}

// needsExtras reports whether a router keeps routerExtras for the options.
func (c Config) needsExtras() bool {
	return c.generalSwitch() || c.keyed() || c.VCAllocationCycles != 0
}

// keyed reports whether the arbiters read the front packets' keys: under
// a keyed arbitration or a class share (Router.keyOf).
func (c Config) keyed() bool {
	return c.Arbitration != alloc.RoundRobin || c.ClassShare != alloc.ShareNone
}

// vaKeyed reports whether VC allocation's arbiters read keys: as keyed,
// but the weighted share leaves VC allocation round robin (its keys are
// classes, not an order).
func (c Config) vaKeyed() bool { return c.keyed() && c.ClassShare != alloc.ShareWeighted }

// MaxInternalSpeedup is the largest Config.InternalSpeedup.
const MaxInternalSpeedup = 4

// Network is a built network: routers and NIs wired to a topology.
type Network struct {
	Topo    topology.Topology
	Cfg     Config
	Routing routing.Func
	Routers []*Router
	NIs     []*NI

	wires  *link.Wires // wire base[r]+p: read by router r at port p; wire nports+i: read by NI i
	base   []int       // base[r] is the wire index of router r's port 0
	actors []actor.Actor
	units  []int

	// The arenas of router state, and what actor i is: router actorRef[i]
	// if >= 0, NI -actorRef[i]-1 otherwise (for prefetching).
	routerArena []Router
	ivcArena    []inVC
	portArena   []portState
	actorRef    []int32
}

// StateBytes is the memory the network's routers, NIs and wires hold now,
// their pools included (not the traffic sources, sinks or policies).
func (n *Network) StateBytes() int {
	b := len(n.routerArena)*int(unsafe.Sizeof(Router{})) + len(n.ivcArena)*int(unsafe.Sizeof(inVC{})) +
		len(n.portArena)*int(unsafe.Sizeof(portState{})) + n.wires.Bytes() + len(n.NIs)*int(unsafe.Sizeof(NI{}))
	for _, r := range n.Routers {
		b += len(r.outs)*int(unsafe.Sizeof(outVC{})) + cap(r.pkts)*int(unsafe.Sizeof(pktDesc{})) +
			cap(r.cands)*int(unsafe.Sizeof(candSlot{})) + cap(r.reqs)*int(unsafe.Sizeof(vaReq{})) + 8*len(r.PortFlits)
		if r.sq != nil {
			b += r.sq.bytes()
		}
		b += r.ext.bytes()
	}
	if cls := n.niShared().cls; cls != nil {
		b += len(cls) * int(unsafe.Sizeof(niClasses{}))
		for i := range cls {
			for k := range cls[i].q {
				b += int(unsafe.Sizeof(fabric.SourceQueue{})) + cls[i].q[k].Bytes()
			}
		}
	}
	for _, ni := range n.NIs {
		b += len(ni.ch.vc)*int(unsafe.Sizeof(niVC{})) + ni.ch.q.Bytes()
		if c := ni.ch.next; c != nil {
			b += int(unsafe.Sizeof(niChannel{})) + len(c.vc)*int(unsafe.Sizeof(niVC{})) + c.q.Bytes()
		}
	}
	return b
}

// niShared is what every NI of the network shares (an empty one without
// NIs).
func (n *Network) niShared() *niShared {
	if len(n.NIs) == 0 {
		return &niShared{}
	}
	return n.NIs[0].sh
}

// HotStateBytes is StateBytes less the queues of internal speedup: they
// are sized for every downstream slot but are mostly empty, and an empty
// one restarts at its first slot (ring.pop), so their memory is held, not
// touched every cycle.
func (n *Network) HotStateBytes() int {
	state := n.StateBytes()
	for _, r := range n.Routers {
		if r.sq != nil {
			state -= r.sq.queueBytes()
		}
	}
	return state
}

// Prefetcher returns the function an executor calls to prefetch the state
// of the actor it will tick a few actors later (actor.Spec.Prefetch), or
// nil where asking costs more than it gains. Beyond 16 MiB of state (less
// the queues of internal speedup) it asks for a router's ports, input VCs
// and input wires; from 2 MiB, where the wires are long (rings of more
// than 4 slots on average), for the wires alone; else for nothing.
//
// Once the state outgrows the last-level cache, every cycle brings it from
// memory, and a router's ports, input VCs and input wires are three
// streams the hardware prefetcher does not follow far enough ahead: asking
// for them two routers in advance gave 1.31M -> 1.57M router-cycles/s on
// a 128x128 torus at 0.04 flits/node/cycle (2 vCPUs, serial), and left a
// 32x32 torus unchanged. Long wires do the same in a smaller state: the
// slot a wire shows moves to a new line about every cycle, last touched a
// ring's length of cycles before, so every poll misses the first two
// levels of cache. On 2026-12-04 (2 vCPUs, 1 MiB of L2 each, 32 MiB of L3,
// serial, 5 interleaved pairs) asking gave 508k -> 754k router-cycles/s,
// and in a second sitting 842k -> 1.06M, on the dragonfly matched to
// BookSim2's (bench/dragonfly-booksim.toml as it was then, with 10-cycle
// node links: 11 MiB, rings of 16 and 128 slots), 1.83M -> 1.98M (4 pairs) on a 32x32
// torus with 10-cycle links (10 MiB, 16 slots), but 3.25M -> 2.96M on
// torus32-uniform and 3.70M -> 3.40M on fattree1024-uniform (5 MiB and 6
// MiB, 2 slots), where it stays off; on hyperx1k-uniform (25 MiB, 19 MiB
// of them its speedup queues; 2-slot rings) 907k without against 873k
// with, hence the queues are not counted, while dragonfly1k-uniform (rings
// of 2 and 16 slots, 4.9 on average over router and node wires, just
// above the rule's 4; 5 MiB less its queues) gains,
// 760k -> 878k, and more from the wires alone: 967k against 859k with the
// ports and VCs too (the matched dragonfly 1.20M against 1.19M). Of a
// wire only the slot it shows in the cycle is asked for
// (link.Wires.Prefetch): asking for whole rings
// made a router of a dragonfly with 100-cycle global links ask for about
// 1,440 lines to read 15. An idle router (nothing buffered) is skipped.
func (n *Network) Prefetcher() func(actor int, now clock.Cycle) {
	state := n.HotStateBytes()
	longWires := n.wires.Slots() > 4*n.wires.Len()
	switch {
	case state >= 16<<20:
		return n.prefetch
	case state >= 2<<20 && longWires:
		return n.prefetchWires
	}
	return nil
}

// prefetch asks for the ports, input VCs and input wires of actor i if it
// is a router with flits buffered. It reads only that router's count of
// buffered flits, and only from the goroutine that ticks it.
func (n *Network) prefetch(i int, now clock.Cycle) {
	a := int(n.actorRef[i])
	if a < 0 || n.routerArena[a].buffered == 0 {
		return
	}
	b := n.base[a]
	P := n.base[a+1] - b
	prefetch.Lines(unsafe.Pointer(&n.portArena[b]), P)
	prefetch.Lines(unsafe.Pointer(&n.ivcArena[b*n.Cfg.VCs]), (P*n.Cfg.VCs*int(unsafe.Sizeof(inVC{}))+63)/64)
	n.wires.Prefetch(b, P, now)
}

// prefetchWires is prefetch of the input wires alone, for a state that
// fits in the last-level cache but has long wires.
func (n *Network) prefetchWires(i int, now clock.Cycle) {
	a := int(n.actorRef[i])
	if a < 0 || n.routerArena[a].buffered == 0 {
		return
	}
	b := n.base[a]
	n.wires.Prefetch(b, n.base[a+1]-b, now)
}

// portOfNode is the port of node n's channel 0.
func portOfNode(t topology.Topology, n int) int {
	_, p := t.NodePort(n)
	return p
}

// channels lists the NI's channels, channel 0 first.
func (n *NI) channels() []*niChannel {
	if n.ch.next != nil {
		return []*niChannel{&n.ch, n.ch.next}
	}
	return []*niChannel{&n.ch}
}

// Build wires a network. sources[i] and sinks[i] belong to node i; a nil
// sink is allowed. ctx stops the channel-dependency check and the wiring.
func Build(ctx context.Context, t topology.Topology, cfg Config, sources []fabric.Source, sinks []fabric.Sink) (*Network, error) {
	if len(sources) != t.Nodes() || (sinks != nil && len(sinks) != t.Nodes()) {
		return nil, fmt.Errorf("need one source and one sink per node (%d), got %d and %d", t.Nodes(), len(sources), len(sinks))
	}
	rf, err := Check(ctx, t, cfg)
	if err != nil {
		return nil, err
	}
	return wire(ctx, t, cfg, rf, sources, sinks)
}

// routePreparer is a topology that computes the tables its routings read
// (a graph's shortest paths: graph.Graph.PrepareRoutes), which Check asks
// for first, under its context.
type routePreparer interface {
	PrepareRoutes(ctx context.Context) error
}

// Check does everything Build checks, without allocating the network: the
// configuration's ranges, the routing function on the topology and, unless
// AllowDeadlock, its channel dependency graph. It returns the routing
// function.
func Check(ctx context.Context, t topology.Topology, cfg Config) (routing.Func, error) {
	var errs []error
	if cfg.VCs < 1 || cfg.VCs > 64 {
		errs = append(errs, fmt.Errorf("vcs = %d out of range (allowed: 1..64)", cfg.VCs))
	}
	if cfg.BufferFlits < 1 || cfg.BufferFlits > 1<<15 {
		errs = append(errs, fmt.Errorf("buffer_flits = %d out of range (allowed: 1..32768)", cfg.BufferFlits))
	}
	if cfg.Switching == VirtualCutThrough && cfg.BufferFlits < cfg.MaxPacketFlits {
		errs = append(errs, fmt.Errorf("virtual cut-through needs buffer_flits (%d) >= the largest packet (%d flits); use wormhole or larger buffers", cfg.BufferFlits, cfg.MaxPacketFlits))
	}
	if cfg.RoutingDelayCycles < 0 || cfg.RoutingDelayCycles > 1000 {
		errs = append(errs, fmt.Errorf("routing_delay_cycles = %d out of range (allowed: 0..1000)", cfg.RoutingDelayCycles))
	}
	if cfg.LinkLatencyCycles < 1 || cfg.LinkLatencyCycles > 1000 {
		errs = append(errs, fmt.Errorf("link_latency_cycles = %d out of range (allowed: 1..1000)", cfg.LinkLatencyCycles))
	}
	if cfg.CreditLatencyCycles < 1 || cfg.CreditLatencyCycles > 1000 {
		errs = append(errs, fmt.Errorf("credit_latency_cycles = %d out of range (allowed: 1..1000)", cfg.CreditLatencyCycles))
	}
	if cfg.InternalSpeedup < 0 || cfg.InternalSpeedup > MaxInternalSpeedup {
		errs = append(errs, fmt.Errorf("internal_speedup = %d out of range (allowed: 1..%d; 0, the zero value, is 1)", cfg.InternalSpeedup, MaxInternalSpeedup))
	}
	if cfg.Arbitration > alloc.ClassPriority {
		errs = append(errs, fmt.Errorf("unknown arbitration %d (allowed: %s)", cfg.Arbitration, strings.Join(alloc.ArbitrationNames(), ", ")))
	}
	if cfg.SwitchAllocator > alloc.Wavefront {
		errs = append(errs, fmt.Errorf("unknown switch allocator %d (allowed: %s)", cfg.SwitchAllocator, strings.Join(alloc.AllocatorNames(), ", ")))
	}
	if cfg.ISLIPIterations < 0 || cfg.ISLIPIterations > alloc.MaxISLIPIterations {
		errs = append(errs, fmt.Errorf("islip_iterations = %d out of range (allowed: 1..%d)", cfg.ISLIPIterations, alloc.MaxISLIPIterations))
	}
	for _, st := range []struct {
		key    string
		v, min int
	}{{"vc_allocation_cycles", cfg.VCAllocationCycles, 0}, {"switch_allocation_cycles", cfg.SwitchAllocationCycles, 0}, {"crossbar_cycles", cfg.CrossbarCycles, 0}} {
		if st.v < st.min || st.v > MaxStageCycles {
			errs = append(errs, fmt.Errorf("%s = %d out of range (allowed: 0..%d)", st.key, st.v, MaxStageCycles))
		}
	}
	if cfg.InternalSpeedup > 1 && (cfg.Arbitration != alloc.RoundRobin || cfg.SwitchAllocator != alloc.SeparableInputFirst) {
		errs = append(errs, fmt.Errorf("internal_speedup = %d runs rounds of separable input-first round-robin allocation: arbitration %q and switch allocator %q need internal_speedup = 1", cfg.InternalSpeedup, cfg.Arbitration, cfg.SwitchAllocator))
	}
	errs = append(errs, cfg.checkClasses(t)...)
	for r := 0; r < t.Routers(); r++ {
		if t.Ports(r) > 64 {
			errs = append(errs, fmt.Errorf("%s has %d ports (at most 64 supported)", t.RouterName(r), t.Ports(r)))
			break
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if p, ok := t.(routePreparer); ok {
		if err := p.PrepareRoutes(ctx); err != nil {
			return nil, err
		}
	}
	blocks, err := cfg.vcBlocks()
	if err != nil {
		return nil, err
	}
	nets := len(blocks)
	// Each block's routing function, built and checked once per size.
	built := map[int]routing.Func{}
	inners := make([]routing.Func, nets)
	for k, vcs := range blocks {
		if built[vcs] == nil {
			rf, err := checkRouting(ctx, t, cfg, vcs, nets, k)
			if err != nil {
				return nil, err
			}
			built[vcs] = rf
		}
		inners[k] = built[vcs]
	}
	if nets == 1 {
		return inners[0], nil
	}
	if why := routing.NetworksRefusal(inners[0]); why != "" {
		return nil, fmt.Errorf("routing %q cannot be split into %d virtual networks: %s", cfg.Routing.Name, nets, why)
	}
	if topology.NodeChannels(t) > 1 {
		return nil, fmt.Errorf("topology %s attaches each node by a channel per message class; virtual networks split one channel's VCs", t)
	}
	return routing.NewNetworksOf(inners, blocks, t.Routers()), nil
}

// checkClasses checks the traffic-class options: a class share or a VC
// partition needs classes, one weight or one block per class, and a
// router whose arbiters the share can order.
func (cfg Config) checkClasses(t topology.Topology) []error {
	var errs []error
	if cfg.ClassShare > alloc.ShareWeighted {
		errs = append(errs, fmt.Errorf("unknown class share %d (allowed: %s)", cfg.ClassShare, strings.Join(alloc.ShareNames(), ", ")))
	}
	if cfg.Classes > alloc.MaxShareClasses {
		errs = append(errs, fmt.Errorf("%d traffic classes (allowed: at most %d)", cfg.Classes, alloc.MaxShareClasses))
	}
	if (cfg.ClassShare != alloc.ShareNone || len(cfg.ClassVCs) > 0) && cfg.Classes < 2 {
		errs = append(errs, fmt.Errorf("class_share %q and class_vcs %v divide the router between traffic classes; the traffic has %d", cfg.ClassShare, cfg.ClassVCs, max(cfg.Classes, 1)))
	}
	if n := len(cfg.ClassVCs); n > 0 && n != cfg.Classes {
		errs = append(errs, fmt.Errorf("class_vcs = %v gives %d classes VCs; the traffic has %d classes", cfg.ClassVCs, n, cfg.Classes))
	}
	if cfg.ClassShare == alloc.ShareWeighted {
		if len(cfg.ClassWeights) != cfg.Classes {
			errs = append(errs, fmt.Errorf("class_weights = %v: the weighted share needs one weight per traffic class (%d)", cfg.ClassWeights, cfg.Classes))
		}
		for _, w := range cfg.ClassWeights {
			if w < 1 || w > alloc.MaxShareWeight {
				errs = append(errs, fmt.Errorf("class_weights = %v: weight %d out of range (allowed: 1..%d)", cfg.ClassWeights, w, alloc.MaxShareWeight))
				break
			}
		}
		if cfg.SwitchAllocator != alloc.SeparableInputFirst || cfg.Arbitration != alloc.RoundRobin {
			errs = append(errs, fmt.Errorf("the weighted class share runs on separable input-first round-robin arbiters; switch allocator %q and arbitration %q need class_share \"none\" or \"priority\"", cfg.SwitchAllocator, cfg.Arbitration))
		}
	}
	if cfg.ClassShare == alloc.SharePriority {
		if !cfg.SwitchAllocator.Keyed() {
			errs = append(errs, fmt.Errorf("the priority class share orders the arbiters of the separable allocators; switch allocator %q matches by its own rule", cfg.SwitchAllocator))
		}
		if cfg.Arbitration == alloc.ClassPriority {
			errs = append(errs, fmt.Errorf("the priority class share and arbitration \"class-priority\" both order by class: use one"))
		}
	}
	if cfg.ClassShare != alloc.ShareNone && topology.NodeChannels(t) > 1 {
		errs = append(errs, fmt.Errorf("class share %q keeps a source queue per traffic class on a node's one channel; topology %s attaches each node by a channel per message class", cfg.ClassShare, t))
	}
	if cfg.ClassShare != alloc.ShareNone && cfg.InternalSpeedup > 1 {
		errs = append(errs, fmt.Errorf("internal_speedup = %d arbitrates round robin: class share %q needs internal_speedup = 1", cfg.InternalSpeedup, cfg.ClassShare))
	}
	return errs
}

// vcBlocks is the VCs of each virtual network: the traffic classes'
// partition (ClassVCs), VirtualNetworks equal blocks, or one block of
// every VC.
func (cfg Config) vcBlocks() ([]int, error) {
	if len(cfg.ClassVCs) > 0 {
		sum := 0
		for _, v := range cfg.ClassVCs {
			if v < 1 {
				return nil, fmt.Errorf("class_vcs = %v: every class needs at least 1 VC", cfg.ClassVCs)
			}
			sum += v
		}
		if sum != cfg.VCs {
			return nil, fmt.Errorf("class_vcs = %v sums to %d VCs, not vcs = %d", cfg.ClassVCs, sum, cfg.VCs)
		}
		if cfg.VirtualNetworks > 1 {
			return nil, fmt.Errorf("class_vcs partitions the VCs between traffic classes; %d virtual networks split them already", cfg.VirtualNetworks)
		}
		return cfg.ClassVCs, nil
	}
	nets := max(cfg.VirtualNetworks, 1)
	if cfg.VCs%nets != 0 {
		return nil, fmt.Errorf("vcs = %d does not divide into %d virtual networks (allowed: a multiple of %d)", cfg.VCs, nets, nets)
	}
	blocks := make([]int, nets)
	for k := range blocks {
		blocks[k] = cfg.VCs / nets
	}
	return blocks, nil
}

// checkRouting builds the routing function of a virtual network of vcs
// VCs (network k of nets) and checks it: its selection, parameters,
// switching and, unless AllowDeadlock, its channel dependency graph.
func checkRouting(ctx context.Context, t topology.Topology, cfg Config, vcs, nets, k int) (routing.Func, error) {
	rf, err := routing.New(cfg.Routing, t, vcs)
	if err != nil {
		return nil, err
	}
	if err := checkSelection(cfg.Selection, cfg.SelectionTies, cfg.Routing); err != nil {
		return nil, err
	}
	spec := cfg.Routing
	if err := spec.CheckParams(cfg.RoutingParams); err != nil {
		return nil, err
	}
	if c, ok := rf.(routing.Configurable); ok {
		if err := c.Configure(cfg.RoutingParams); err != nil {
			return nil, err
		}
	}
	_, atomic := rf.(routing.AtomicAllocator)
	if _, ok := rf.(routing.Escaper); ok && cfg.Switching == Wormhole && !atomic {
		// A VC is reallocated when the previous packet's tail has left, so
		// under wormhole a new packet can queue behind an old one in an
		// adaptive buffer; Duato's condition assumes it cannot.
		return nil, fmt.Errorf("routing %q needs virtual cut-through (switching = \"vct\"): under wormhole an adaptive VC could hold two packets, which Duato's deadlock-freedom condition rules out", spec.Name)
	}
	if !cfg.AllowDeadlock {
		if err := deadlock.Check(ctx, t, rf, vcs, cfg.Switching == Wormhole); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			hint, each := "", ""
			if min := spec.MinVCsFor(t); vcs < min {
				hint = fmt.Sprintf(" (%s needs at least %d VCs", spec.Name, min)
				if len(cfg.ClassVCs) > 0 {
					hint += fmt.Sprintf(" per traffic class: class %d has %d of class_vcs = %v", k, vcs, cfg.ClassVCs)
				} else if nets > 1 {
					hint += fmt.Sprintf(" per virtual network: vcs >= %d", min*nets)
				}
				hint += ")"
			}
			if len(cfg.ClassVCs) > 0 {
				each = fmt.Sprintf(" (traffic class %d's)", k)
			} else if nets > 1 {
				each = fmt.Sprintf(" per virtual network (vcs = %d in %d networks)", cfg.VCs, nets)
			}
			return nil, &fabric.DeadlockError{Msg: fmt.Sprintf("routing %q with %d VCs%s on the %s can deadlock%s: %v; set allow_deadlock = true to run it anyway",
				spec.Name, vcs, each, t, hint, err)}
		}
	}
	if spec.ClassVCs != nil {
		if err := spec.ClassVCs(t, vcs); err != nil {
			return nil, &fabric.DeadlockError{Msg: err.Error()}
		}
	}
	return rf, nil
}

// pkCapOf is the most packets behind the front one that a VC buffer can
// hold: at most a partial front packet, a partial back packet and whole
// packets between them.
func pkCapOf(cfg Config) int {
	B := cfg.BufferFlits
	pkCap := max(1, min(B-1, 1<<15))
	if minP := max(cfg.MinPacketFlits, 1); B >= 2 {
		pkCap = min(B, 2+(B-2)/minP) - 1
	}
	return pkCap
}

// wire allocates and wires a checked network.
func wire(ctx context.Context, t topology.Topology, cfg Config, rf routing.Func, sources []fabric.Source, sinks []fabric.Sink) (*Network, error) {
	n := &Network{Topo: t, Cfg: cfg, Routing: rf}
	upd, _ := rf.(routing.RouteUpdater)
	inj, _ := rf.(routing.Injector)
	nr, nn := t.Routers(), t.Nodes()
	n.base = make([]int, nr+1)
	for r := 0; r < nr; r++ {
		n.base[r+1] = n.base[r] + t.Ports(r)
	}
	nports := n.base[nr]
	H := topology.NodeChannels(t)
	if H > 2 {
		return nil, fmt.Errorf("topology %s: %d channels per node (at most 2: one per message class)", t, H)
	}
	extra, err := wireExtraCycles(t, cfg, n.base, nports+nn*H)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n.wires = link.NewWiresAhead(nports+nn*H, cfg.LinkLatencyCycles, cfg.CreditLatencyCycles, cfg.sendAheadCycles(), extra)
	if err := ctx.Err(); err != nil { // 0.1 s for the wires of 2^20 routers
		return nil, err
	}
	V, B := cfg.VCs, cfg.BufferFlits
	// Body flits wait one cycle (none with a zero routing delay). Switch
	// eligibility (portState.fr) relies on body <= 1: when a flit leaves,
	// the next one of its packet is ready by the next cycle.
	body := min(cfg.RoutingDelayCycles, 1)

	// Per-router state is carved from network-wide arenas in router order,
	// and lanes are indexed by their reader, so that a cycle walks memory
	// sequentially: data[base[r]+p] and credit[base[r]+p] are what router r
	// reads at port p (flits into its input buffers, credits for its output
	// VCs); data[nports+i] and credit[nports+i] are what NI i reads.
	routers := make([]Router, nr)
	pvs := make([]inVC, nports*V)
	pkCap := pkCapOf(cfg)
	outVCs := make([]outVC, nports*V)
	portStates := make([]portState, nports)
	words := make([]uint64, nports)
	take64 := func(k int) []uint64 { x := words[:k:k]; words = words[k:]; return x }
	// The pools start with three packets and one routing decision per port
	// (what a torus router uses at loads up to about half of saturation)
	// and grow from there when a run needs more. Each is an allocation of
	// its own, so that a grown pool's old array is freed.
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	chooser, _ := rf.(routing.Chooser)
	sh := &routerShared{topo: t, rf: rf, upd: upd, chooser: chooser, depth: int32(B), pkCap: int32(pkCap), delay: uint32(cfg.RoutingDelayCycles),
		vct: cfg.Switching == VirtualCutThrough, leastOccupied: cfg.Selection == SelectLeastOccupied, ties: cfg.SelectionTies}
	if sh.leastOccupied && sh.ties != TiesRotation {
		sh.tieRand = newTieStreams(nr, cfg.SelectionSeed)
	}
	if a, ok := rf.(routing.AtomicAllocator); ok {
		P := 0
		for r := 0; r < nr; r++ {
			P = max(P, t.Ports(r))
		}
		sh.atomicAt = make([]uint64, P)
		for p := range sh.atomicAt {
			sh.atomicAt[p] = a.AtomicVCsAt(p)
		}
		sh.secondRound = cfg.Switching == Wormhole
	}
	if body == 1 {
		sh.bodyWait = ^uint64(0)
	}
	sh.sendAhead = clock.Cycle(cfg.sendAheadCycles())
	sh.arb, sh.swAlloc, sh.general = cfg.Arbitration, cfg.SwitchAllocator, cfg.generalSwitch()
	sh.keyed, sh.vaKeyed, sh.share = cfg.keyed(), cfg.vaKeyed(), cfg.ClassShare
	if cfg.ClassShare == alloc.ShareWeighted {
		sh.shareCost = alloc.ShareCosts(cfg.ClassWeights)
	}
	sh.vaCycles = uint32(cfg.VCAllocationCycles)
	if sh.vaCycles == 0 {
		sh.frOnGrant = ^uint64(0)
	}
	portsOf := make([]int, nr)
	for r := range portsOf {
		portsOf[r] = t.Ports(r)
	}
	extras := newRouterExtras(cfg, portsOf)
	n.Routers = make([]*Router, nr)
	for r := range n.Routers {
		if r&4095 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		P := t.Ports(r)
		o := n.base[r] * V
		b := n.base[r]
		rt := &routers[r]
		*rt = Router{
			id: int32(r), sh: sh, ports: int32(P), vcs: int32(V),
			ivc:       pvs[o : o+P*V : o+P*V],
			pkts:      make([]pktDesc, initialPkts(P)),
			cands:     make([]candSlot, initialCands(P)),
			outs:      outVCs[o : o+P*V : o+P*V],
			wires:     n.wires,
			in0:       int32(b),
			port:      portStates[b : b+P : b+P],
			PortFlits: take64(P),
			reqs:      make([]vaReq, 0, P),
		}
		rt.freePktsFrom(0)
		rt.freeCandsFrom(0)
		for o := range rt.outs {
			rt.outs[o].owner = -1
		}
		for p := range rt.port {
			rt.port[p].out = -1
		}
		if cfg.InternalSpeedup > 1 {
			rt.sq = newSpeedup(cfg.InternalSpeedup, P, V, B)
		}
		if extras != nil {
			rt.ext = &extras[r]
		}
		n.Routers[r] = rt
	}
	n.NIs = make([]*NI, nn)
	nis := make([]NI, nn)
	niVCs := make([]niVC, nn*V*H)
	nsh := &niShared{wires: n.wires, topo: t, rf: rf, inj: inj, vcs: int32(V), depth: int32(B), vct: cfg.Switching == VirtualCutThrough}
	nsh.nets, _ = rf.(*routing.Networks)
	if cfg.ClassShare != alloc.ShareNone {
		nsh.share, nsh.shareCost = cfg.ClassShare, sh.shareCost
		nsh.cls = make([]niClasses, nn)
	}
	for i := range n.NIs {
		var sink fabric.Sink
		if sinks != nil {
			sink = sinks[i]
		}
		vcs := niVCs[i*V*H : (i+1)*V*H : (i+1)*V*H]
		nis[i] = NI{id: int32(i), sh: nsh, src: sources[i], sink: sink,
			ch: niChannel{vc: vcs[:V:V], in: int32(nports + i*H), out: -1}}
		if H > 1 {
			nis[i].ch.next = &niChannel{vc: vcs[V:], in: int32(nports + i*H + 1), out: -1}
			nis[i].ch.q.SplitClasses(&nis[i].ch.next.q)
		}
		if nsh.cls != nil {
			// A queue per traffic class: class k's packets pass down a
			// chain of k splits from channel 0's queue.
			qs := make([]fabric.SourceQueue, cfg.Classes-1)
			nsh.cls[i].q = qs
			prev := &nis[i].ch.q
			for k := range qs {
				prev.SplitClasses(&qs[k])
				prev = &qs[k]
			}
		}
		for v := range vcs {
			vcs[v].credits = int32(B)
		}
		if _, ok := sources[i].(fabric.ClosedLoop); ok {
			for c := &nis[i].ch; c != nil; c = c.next {
				c.closed = true
			}
		}
		if r, ok := sources[i].(fabric.Responder); ok {
			if H > 1 {
				return nil, fmt.Errorf("topology %s: %s answers requests, but the node has a channel per message class", t, t.NodeName(i))
			}
			nis[i].srv = newServer(r, V, B)
			nis[i].ch.q.SplitClasses(&nis[i].srv.replies)
		}
		n.NIs[i] = &nis[i]
	}
	// Wires are indexed by their reader, so that a cycle walks memory in
	// order: router r reads wires[base[r]+p] at port p, NI i reads wires[nports+i].
	for r, rt := range n.Routers {
		if r&4095 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for p := 0; p < int(rt.ports); p++ {
			peer := t.Peer(r, p)
			if !peer.Connected() {
				continue
			}
			rt.conn |= 1 << p
			if peer.Node >= 0 {
				// Channel h of a node is its h-th port (grid.Grid2D).
				ni := n.NIs[peer.Node]
				c := &ni.ch
				if h := p - portOfNode(t, peer.Node); h > 0 {
					c = ni.ch.next
				}
				c.out = int32(n.base[r] + p)
				rt.port[p].out = c.in
				continue
			}
			if back := t.Peer(peer.Router, peer.Port); back.Router != r || back.Port != p {
				return nil, fmt.Errorf("topology %s: link %s -> %s is not symmetric", t, t.PortName(r, p), t.PortName(peer.Router, peer.Port))
			}
			if peer.Router != r {
				// A loopback port (Hybrid-HAR's connection channels) is
				// no hop between routers.
				rt.netPorts |= 1 << p
			}
		}
	}
	for r, rt := range n.Routers {
		if r&4095 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for p := 0; p < int(rt.ports); p++ {
			if peer := t.Peer(r, p); peer.Router >= 0 {
				rt.port[p].out = int32(n.base[peer.Router] + peer.Port)
			}
		}
		for o := range rt.outs {
			if rt.port[o/V].out >= 0 {
				rt.outs[o].credits = uint16(B)
			}
		}
	}
	if bu, ok := rf.(routing.BoardUser); ok {
		if b, port0, vcs := bu.UseBoard(); b != nil {
			for _, rt := range n.Routers {
				rt.plane = &boardPlane{r: rt, b: b, port0: port0, vcs: vcs}
			}
		}
	}
	for _, ni := range n.NIs {
		if ni.ch.out < 0 || (ni.ch.next != nil && ni.ch.next.out < 0) {
			return nil, fmt.Errorf("topology %s: %s is attached to no router port", t, ni.Name())
		}
	}
	// Actors: each router followed by its NIs; units follow the topology's.
	attached := make([][]int, nr)
	for i := 0; i < nn; i++ {
		r, _ := t.NodePort(i)
		attached[r] = append(attached[r], i)
	}
	first := make([]int, nr)
	n.actors = make([]actor.Actor, 0, nr+nn)
	n.actorRef = make([]int32, 0, nr+nn)
	for r, rt := range n.Routers {
		if r&4095 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		first[r] = len(n.actors)
		n.actors = append(n.actors, rt)
		n.actorRef = append(n.actorRef, int32(r))
		for _, i := range attached[r] {
			n.actors = append(n.actors, n.NIs[i])
			n.actorRef = append(n.actorRef, int32(-i-1))
		}
	}
	n.routerArena, n.ivcArena, n.portArena = routers, pvs, portStates
	for _, u := range t.Units() {
		n.units = append(n.units, first[u])
	}
	return n, nil
}

// wireExtraCycles is each wire's latency beyond the network's link latency
// on a topology with links of their own latency (topology.PortLatencies), nil
// on others: wire base[r]+p, read by router r at port p, is the link from
// the peer of port p, as long as the link out of p.
func wireExtraCycles(t topology.Topology, cfg Config, base []int, wires int) ([]int32, error) {
	pl, ok := t.(topology.PortLatencies)
	if !ok {
		return nil, nil
	}
	var extra []int32
	for r := 0; r+1 < len(base); r++ {
		for p := 0; p < t.Ports(r); p++ {
			lat := pl.LatencyCycles(r, p)
			if lat == 0 {
				continue
			}
			if lat < cfg.LinkLatencyCycles {
				return nil, fmt.Errorf("topology %s: link %s has latency %d, below the network's link latency %d (allowed: 0 for the network's, or at least %d)", t, t.PortName(r, p), lat, cfg.LinkLatencyCycles, cfg.LinkLatencyCycles)
			}
			if extra == nil {
				extra = make([]int32, wires)
			}
			extra[base[r]+p] = int32(lat - cfg.LinkLatencyCycles)
		}
	}
	return extra, nil
}

// Actors returns all routers and NIs in their fixed order, and the unit
// boundaries for sharding.
func (n *Network) Actors() ([]actor.Actor, []int) { return n.actors, n.units }

// Buffers is the number of router input VC buffers (N_r in the entropy papers).
func (n *Network) Buffers() int {
	b := 0
	for _, r := range n.Routers {
		b += int(r.ports * r.vcs)
	}
	return b
}

// ZeroLoadLatency is the latency of a lone packet of sizeFlits flits from src
// to dst over a minimal route, from its generation to the arrival of its
// tail. On a topology from a file whose shortest-hop routes differ in
// latency it is the least of them: the router rotates among equal-hop
// ports, so a lone packet may take a longer one (MaxZeroLoadLatency bounds
// every route).
func (n *Network) ZeroLoadLatency(src, dst, sizeFlits int) int {
	return n.zeroLoad(n.Routing.Hops(src, dst), sizeFlits) + n.linkExtra(src, dst)
}

// linkExtra is the latency beyond the network's link latency of the
// minimal route from src to dst, on a topology with longer links
// (topology.MinimalLatencies: a dragonfly's global links, a graph's
// links of their own latency), or of the routing's own route where it
// gives it (routing.RouteLatencies).
func (n *Network) linkExtra(src, dst int) int {
	rf := n.Routing
	if w, ok := rf.(routing.Wrapper); ok {
		rf = w.Inner()
	}
	if rl, ok := rf.(routing.RouteLatencies); ok {
		return rl.ExtraCycles(src, dst, n.Cfg.LinkLatencyCycles)
	}
	if m, ok := n.Topo.(topology.MinimalLatencies); ok {
		return m.MinimalExtraCycles(src, dst, n.Cfg.LinkLatencyCycles)
	}
	return 0
}

func (n *Network) zeroLoad(h, sizeFlits int) int { return ZeroLoadLatency(n.Cfg, h, sizeFlits) }

// ZeroLoadLatency is the zero-load latency under configuration c of a
// packet of sizeFlits flits over h router-to-router hops (see the package
// doc).
func ZeroLoadLatency(c Config, h, sizeFlits int) int {
	return c.LinkLatencyCycles + (h+1)*c.RouterCycles() + h*c.LinkLatencyCycles + c.LinkLatencyCycles + sizeFlits - 1
}

// MaxZeroLoadLatency is the zero-load latency of a packet of sizeFlits
// flits over the network's longest minimal route.
func (n *Network) MaxZeroLoadLatency(sizeFlits int) int {
	extra := 0
	if m, ok := n.Topo.(topology.MinimalLatencies); ok {
		extra = m.MaxMinimalExtraCycles(n.Cfg.LinkLatencyCycles)
	}
	return n.zeroLoad(n.Topo.Diameter(), sizeFlits) + extra
}

// Totals sums the counters of all actors (in actor order).
func (n *Network) Totals() fabric.Totals {
	var t fabric.Totals
	for _, ni := range n.NIs {
		t.PacketsGenerated += ni.PacketsGenerated()
		t.PacketsInjected += ni.PacketsInjected
		t.PacketsDelivered += ni.PacketsDelivered
		t.FlitsInjected += ni.FlitsInjected
		t.FlitsDelivered += ni.FlitsDelivered
		t.SourceQueued += uint64(ni.Queued())
		if ni.srv != nil {
			t.FlitsBuffered += uint64(ni.srv.total)
		}
	}
	for _, r := range n.Routers {
		t.FlitsBuffered += uint64(r.buffered) + uint64(r.queuedFlits())
		if r.sq != nil {
			t.FlitHops += r.sq.traversals
		} else {
			t.FlitHops += r.SumActive
		}
		t.SumValid += r.SumValid
		t.SumActive += r.SumActive
	}
	return t
}

// Check verifies the network's invariants between cycles (next is the next
// cycle to run): flits injected = delivered + in flight, and on every VC of
// every link, credits + credits in transit + flits in transit + occupancy =
// buffer capacity (output and credit queues of internal speedup counted
// with what is in transit).
func (n *Network) Check(next clock.Cycle) error {
	tot := n.Totals()
	V, B := n.Cfg.VCs, int32(n.Cfg.BufferFlits)
	count := make([]int32, V)
	var onWires uint64
	for i := range n.wires.Len() {
		clear(count)
		n.wires.CountInTransit(i, next, count, nil)
		for _, c := range count {
			onWires += uint64(c)
		}
	}
	if tot.FlitsInjected != tot.FlitsDelivered+tot.FlitsBuffered+onWires {
		return fmt.Errorf("cycle %d: flit conservation broken: injected %d != delivered %d + buffered %d + on links %d",
			next, tot.FlitsInjected, tot.FlitsDelivered, tot.FlitsBuffered, onWires)
	}
	// For every link direction and VC: the sender's credits, the credits
	// coming back, the flits going forward and the receiver's occupancy add
	// up to the buffer capacity.
	credits := make([]int32, V)
	occ := make([]int32, V)
	// verify names the link (a string built only when the check fails:
	// the checks run after every cycle).
	verify := func(link func() string) error {
		for v := 0; v < V; v++ {
			if got := credits[v] + count[v] + occ[v]; got != B {
				return fmt.Errorf("cycle %d: %s VC %d: credits %d + in transit %d + occupancy %d != capacity %d",
					next, link(), v, credits[v], count[v], occ[v], B)
			}
		}
		return nil
	}
	for r, rt := range n.Routers {
		for p := 0; p < int(rt.ports); p++ {
			if rt.port[p].out < 0 {
				continue
			}
			clear(count)
			clear(occ)
			n.wires.CountInTransit(int(rt.port[p].out), next, count, nil)
			n.wires.CountInTransit(int(rt.in0)+p, next, nil, count)
			rt.countQueued(p, count, nil)
			for v := range credits {
				credits[v] = int32(rt.outs[p*V+v].credits)
			}
			peer := n.Topo.Peer(r, p)
			if peer.Router >= 0 {
				down := n.Routers[peer.Router]
				for v := range occ {
					occ[v] = int32(down.ivc[peer.Port*V+v].flits)
				}
				down.countQueued(peer.Port, nil, count)
			} else if srv := n.NIs[peer.Node].srv; srv != nil {
				copy(occ, srv.held)
			}
			if err := verify(func() string {
				if peer.Router >= 0 {
					return n.Topo.PortName(r, p) + "->" + n.Topo.PortName(peer.Router, peer.Port)
				}
				return n.Topo.PortName(r, p) + "->" + n.Topo.NodeName(peer.Node)
			}); err != nil {
				return err
			}
		}
	}
	for _, ni := range n.NIs {
		r, p := n.Topo.NodePort(int(ni.id))
		down := n.Routers[r]
		for h, c := range ni.channels() {
			clear(count)
			n.wires.CountInTransit(int(c.out), next, count, nil)
			n.wires.CountInTransit(int(c.in), next, nil, count)
			down.countQueued(p+h, nil, count)
			for v := range credits {
				credits[v] = c.vc[v].credits
			}
			for v := range occ {
				occ[v] = int32(down.ivc[(p+h)*V+v].flits)
			}
			if err := verify(func() string { return ni.Name() + "->" + n.Topo.PortName(r, p+h) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// CheckDelivery verifies, on a drained network, that every injected packet
// was delivered exactly once (by count and by a sum of packet hashes).
func (n *Network) CheckDelivery() error {
	var inj, del, sent, recv uint64
	for _, ni := range n.NIs {
		inj += ni.PacketsInjected
		del += ni.PacketsDelivered
		sent += ni.sentHash
		recv += ni.recvHash
	}
	return fabric.DeliveryCheck(inj, del, sent, recv)
}

// CountLinkStats makes every router count, from now on, the flits of each
// output VC and the cycles in which a ready flit waited for a credit at
// each output port (LinkCounts); called before the run, it allocates
// once, so that the cycles allocate nothing.
func (n *Network) CountLinkStats() {
	V := 0
	if len(n.Routers) > 0 {
		V = int(n.Routers[0].vcs)
	}
	ports := 0
	for _, r := range n.Routers {
		ports += int(r.ports)
	}
	vcs, stalls := make([]uint64, ports*V), make([]uint64, ports)
	counts := make([]linkCounts, len(n.Routers))
	for i, r := range n.Routers {
		P := int(r.ports)
		counts[i] = linkCounts{vcFlits: vcs[: P*V : P*V], stallCycles: stalls[:P:P]}
		vcs, stalls = vcs[P*V:], stalls[P:]
		if r.ext == nil {
			r.ext = &routerExtras{}
		}
		r.ext.links = &counts[i]
	}
}

// LinkCounts are router r's counters so far: flits sent out of each port,
// of each output VC (port*V + vc; nil unless CountLinkStats was called)
// and the cycles each port's ready flits waited for a credit (likewise).
// The slices are the router's own: read them while the network is paused.
func (n *Network) LinkCounts(r int) (portFlits, vcFlits, stallCycles []uint64) {
	rt := n.Routers[r]
	if rt.ext == nil || rt.ext.links == nil {
		return rt.PortFlits, nil, nil
	}
	return rt.PortFlits, rt.ext.links.vcFlits, rt.ext.links.stallCycles
}
