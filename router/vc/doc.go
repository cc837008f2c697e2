// Package vc owns the router and network-interface (NI) actors, their
// queue organisation and the allocators, and the network builder that
// wires them to a topology with lanes, a routing function (package routing,
// from its family) and its deadlock proof (routing/deadlock).
//
// # Router microarchitecture
//
// An input-queued virtual-channel router. Each input port has V virtual
// channels, each a FIFO of BufferFlits flits that may hold several packets
// in turn. Flow control is credit based per VC. One cycle of a router:
//
//  1. read credits and flits from its lanes (values sent at least one cycle earlier);
//  2. route every head flit that reached the front of its VC (once per packet per hop);
//  3. VC allocation, separable input-first: each waiting head picks one free
//     output VC from its candidates (the first candidate group with a free VC;
//     in it the VC with most credits, ties broken round robin), then each output
//     VC grants one request, round robin over input VCs;
//  4. switch allocation, separable input-first: each input port picks one of its
//     VCs that holds an allocated packet, a flit that is ready and a downstream
//     credit (round robin), then each output port grants one input (round robin);
//  5. switch and link traversal: each winner's flit is written to the output
//     lane, a credit goes upstream, and a tail frees its output VC.
//
// Steps 3 and 4 are the defaults of two options (package router/alloc):
// Config.Arbitration orders the requests of every arbiter (round robin;
// oldest-first, by the head's injection cycle, ties round robin; or
// class-priority, the higher message class first, ties round robin), and
// Config.SwitchAllocator replaces step 4's matching of input ports to
// output ports (separable input-first; separable output-first, where each
// output grants one requesting input and each input accepts one grant;
// iSLIP with ISLIPIterations rounds; or wavefront). Under any of them an
// input port asks for the output ports of its eligible VCs (input-first:
// of the one VC its arbiter picks) and a matched input sends the VC its
// arbiter picks among those bound for its output. VC allocation stays
// input-first (the selection function picks each head's VC) under every
// switch allocator; its output-VC arbiters follow Config.Arbitration.
//
// An output VC is free again as soon as the tail of its packet has been sent,
// so a downstream VC buffer can hold flits of several packets (as BookSim2),
// except the VCs a routing function allocates atomically (routing.AtomicAllocator):
// those are free only when the downstream buffer is empty, all credits back.
// Under virtual cut-through a head may only take an output VC with credits
// for its whole packet; under wormhole one credit per flit suffices.
//
// # Timing
//
// A head flit that arrives at cycle a may leave at a+RoutingDelayCycles at the
// earliest; a body flit at a+1 (a+0 when the routing delay is 0, the entropy
// papers' one-cycle "one-phase" router). With link latency L the head of a
// packet therefore takes RoutingDelayCycles+L cycles per hop, and the
// zero-load latency of a packet of S flits over H router-to-router hops is
//
//	Linj + (H+1)*R + H*L + Lej + (S-1)
//
// from its generation (injection happens in the generation cycle when the
// source queue is empty). ZeroLoadLatency computes it.
//
// The pipeline's later stages have cycles of their own (Config): a head
// granted an output VC in cycle t enters switch allocation from
// t+VCAllocationCycles (default 0, the same cycle), and a flit granted the
// switch in cycle t goes on its link at t+SwitchAllocationCycles-1+
// CrossbarCycles (defaults 1 and 0: at t). The switch allocation is
// pipelined: it decides on the state of its first cycle and a new one
// starts every cycle, so the stages add latency, not occupancy; the input
// buffer's slot is freed, and its credit sent, in the grant cycle. R in
// the formula above becomes R + VCAllocationCycles +
// SwitchAllocationCycles-1 + CrossbarCycles (Config.RouterCycles): a
// BookSim2-like four-stage router (routing, VC allocation, switch
// allocation, traversal, a cycle each) is routing_delay_cycles = 1,
// vc_allocation_cycles = 1, switch_allocation_cycles = 1,
// crossbar_cycles = 1, three cycles per router beyond its link.
//
// # Speed
//
// A router cycle on torus32-uniform (32x32 torus at 0.16 flits/node/cycle,
// about 2.7 switch traversals per router per cycle) costs about 2,000
// instructions and 1,200 CPU cycles on the 2-vCPU development machine (its
// core runs at about 3.7 GHz; 3.0 M router-cycles/s serial; the target is
// 4 M). The hot path is written to avoid calls, mispredicted branches and
// per-VC scans:
//
//   - no call per flit: traversal is written into the switch-allocation
//     loop, arrivals into Tick, and the wire's send functions inline (a call
//     makes Go spill every live register);
//   - the ports with a credit and with a flit are gathered into two masks
//     without a branch and only those are visited, so an idle port costs
//     two compares; round-robin picks are an AND, a select and a
//     trailing-zero count over a mask of the positions after the pointer;
//   - switch eligibility is three per-port masks kept up to date as flits
//     and credits come and go (front flit present and ready, output VC has
//     a credit, VC active), so switch allocation never visits a VC that
//     cannot send; a returning credit marks the VC that holds its output VC
//     through the holder's port and VC stored with the output VC;
//   - the ports with heads to allocate (vaPorts) and with packets to move
//     (saPorts) are kept in masks as flits come and go, so no cycle scans
//     idle ports;
//   - a head that found no free output VC is not retried until a VC of one
//     of its candidate ports is freed or a free one receives a credit (a
//     mask of the ports with such an event since the last VC allocation):
//     only those events can change the answer;
//   - all wires live in one arena (link.Wires), 72 bytes each at latency
//     1, their control words side by side: polling all of a router's input
//     wires reads one or two cache lines, and a flit's line is read only
//     when one came.
//
// What limits it is the core's work per switch traversal, not memory. At
// the same per-channel load (0.64), tori from 4x4 (whose whole state, 60 KB,
// stays in the core's caches) to 40x40 all run at 8 to 9 M switch traversals
// per second: 9.1 M at 12x12 and 16x16, 8.2 M at 32x32, 7.8 M at 40x40, so
// memory costs the 32x32 torus about 10%. (An earlier version of this note
// blamed memory, from router-cycles/s alone, but the 16x16 torus at 0.32 is
// past saturation and moves fewer flits per router.) 4 M router-cycles/s
// on torus32-uniform needs 10.8 M traversals per second, about 340 CPU
// cycles each, against about 450 now. Cutting instructions from about 2,380
// to 2,030 per router-cycle and simulated mispredictions from 20 to 17 left
// the loaded speed unchanged within the machine's noise, so what bounds the
// core is latency (dependent loads, mispredictions) rather than issue
// width; this virtual machine exposes no performance counters (perf stat
// says "not supported"), so which one could not be measured here.
//
// Each change left the results byte-identical (run digests of eight
// configurations across topologies, routings and switching modes, and the
// entropy-collective study). Tried without a measurable gain: profile-guided
// optimisation (default.pgo), GOAMD64=v3, tables instead of divisions in
// routing, madvise(MADV_HUGEPAGE) on the state arenas (none is 2 MB large),
// ticking the actors in reverse order every other cycle (it halves the
// 32x32 torus's misses in cachegrind's 2 MB cache, and changes nothing on
// the machine). Transparent huge pages for the whole process (the system
// setting "always" instead of "madvise") gave about 7% on the 32x32 torus.
//
// # Large networks
//
// A router's state is laid out for the cycle loop and sized by use: the
// Router struct (320 bytes, of which an idle cycle reads the first line),
// per port a 64-byte portState, per input VC a 32-byte inVC, per output VC
// an 8-byte outVC, and packet headers (40 bytes) and routing decisions (80
// bytes) in two per-router pools that start at 3 headers and 1 decision
// per port and double when a run needs more, instead of a slot for every
// VC's worst case. Settings every router shares are kept once per network.
// A torus router with 4 VCs and its NI (256 bytes) and wires (72 bytes
// each at latency 1) take about 3.3 KB (EstimateFootprint computes it
// exactly, without building), 4.5 KB of heap with the node's collector and
// source.
//
// The cycle loop still touches most of that every cycle: in cachegrind
// (48 KiB L1, 32 MiB last level, the 32x32, 64x64 and 128x128 tori at the
// same per-channel load, 0.16 x 32/k flits/node/cycle, 200 cycles after a
// 300-cycle warm-up) a router-cycle with its NI misses L1 34-37 times
// (about 2.3 KB of lines) at every size, and misses the last level 0.01
// times up to 64x64 (14 MiB of state) but 17.3 times at 128x128 (55 MiB):
// 1.1 KB from memory per router-cycle, while its instructions fall from
// 2,210 to 1,680 (fewer injections per node). On the 2-vCPU development
// machine the 128x128 torus therefore runs at 44% of the 32x32 torus's
// speed per router (1.56 M against 3.51 M router-cycles/s serial, medians
// of 5 interleaved): about 430 ns of its 640 ns per router-cycle wait for
// memory, about 25 ns per miss, so roughly four misses in flight. The
// cliff lies where the state leaves the last-level cache (between 64x64
// and 96x96); Network.Prefetcher asks for the next routers' lines ahead
// (1.31 M -> 1.57 M on the 128x128 torus), and for their input wires'
// slots alone where long links make every poll a miss however small the
// state (a dragonfly's global links); more would need a cycle that
// touches fewer lines per router, not fewer instructions.
//
// # Temporal blocking
//
// The answer to that cliff is not a smaller cycle but reuse: the grid's
// and the fat-tree's tiling plans (fabric/tiling.go, whose comment has the
// design and the measurements) plan actor.Schedules that tick a tile of routers for many
// cycles while it is in cache. On the 128x128 torus this takes a
// router-cycle from 30 to 4.4 last-level misses (cachegrind, 8 MiB last
// level), and the 256x256 torus from 1.64 M to 3.50 M router-cycles/s
// serial (the 32x32's 4.65 M; medians of 5 interleaved). Fat-trees gain
// little: a block can lean only about half the tree's depth.
//
// # Hybrid-HAR
//
// hybrid-har and har-dor (topology/grid/har.go, whose comment has the
// details) split
// the VCs into an upper and a lower virtual network. A connection channel
// (CCS for short messages, CCL for long ones) is a loopback port of the
// router: its output is wired to its own input, so moving down is taking
// that port's VC, free when the previous message's tail has left, like any
// output VC; the message is then routed again at the loopback input by the
// lower network's rules and holds the channel until its tail has passed.
// This is the paper's structure (a channel from the upper crossbar to the
// lower one) with no branch added to the router's loop: a per-class budget
// would have put Hybrid-HAR's state into VC allocation. What the routing
// needs of the router is declared, not special-cased: the loopback ports
// (routing.Spec.Loops, grid.Grid2D.Loops), VCs allocated only when their
// downstream buffer is empty (C2, for Duato's condition under wormhole:
// routerShared.atomicAt), and a second round of VC allocation in which a
// head that lost the arbitration for its VC asks again among those still
// free (so that "a free upper VC is taken" holds). The routing parameter
// har.free (router.har.free, grid.HARFree) makes more channels atomic:
// the upper network's VCs (upper-empty), so that no short message ever queues behind a long one
// there, as the paper's routing guarantees, or every VC and both
// connection channels (all-empty), the paper's "free" read alike in every
// step of its algorithm; topology/grid/har.go quotes the paper and gives
// the reasons.
// A node with a channel per message class (grid.Grid2D.H = 2) has two
// injection and two sink links, each with its own source queue (NI).
//
// # Network interface
//
// The NI owns an unbounded source queue (its waiting time is part of packet
// latency), injects one packet at a time at one flit per cycle on a VC the
// routing function allows, and its sink checks every arriving flit: right
// destination, flits of a packet contiguous on their VC and in order, then
// counts the packet once at its tail. Exactly-once delivery is checked by
// counting and by a sum of per-packet hashes (CheckDelivery).
//
// A node whose source answers requests (fabric.Responder: request-reply
// traffic) has more (server.go): its replies' own source queue, a reply
// and a request in flight at once on different VCs (a request its network
// holds up never holds up a reply), and an ejection buffer per VC from
// which it consumes one flit per cycle, a request's head only once its
// source takes it, so that a full server backs its requests up into the
// network; the buffers count in the credit and conservation checks and
// in Stuck. With Config.VirtualNetworks > 1 the routing function is split
// into virtual networks (routing.Networks), one per message class.
//
// Traffic classes (Config.Classes): Config.ClassVCs gives each class a
// block of VCs of its own, a virtual network whose routing function is
// built and checked with the block's VCs (routing.NewNetworksOf).
// Config.ClassShare divides every arbiter between the classes: the
// priority share through the arbitration keys (keyOf: the class above the
// arbitration's key), the weighted share through an alloc.WeightedShare
// per switch arbiter (routerExtras.inShare, outShare: an input's is
// charged when its flit wins the output) and per node (its source queue
// per class, niClasses), VC allocation round robin.
//
// It may import fabric, routing, routing/deadlock, topology, link, actor,
// clock, router/alloc and internal/keys.
package vc
