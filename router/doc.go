// Package router owns the router and network-interface (NI) actors, their
// queue organisation, the routing functions and the allocators, and the
// network builder that wires them to a topology with lanes.
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
// An output VC is free again as soon as the tail of its packet has been sent,
// so a downstream VC buffer can hold flits of several packets (as BookSim2).
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
// # Network interface
//
// The NI owns an unbounded source queue (its waiting time is part of packet
// latency), injects one packet at a time at one flit per cycle on a VC the
// routing function allows, and its sink checks every arriving flit: right
// destination, flits of a packet contiguous on their VC and in order, then
// counts the packet once at its tail. Exactly-once delivery is checked by
// counting and by a sum of per-packet hashes (CheckDelivery).
package router
