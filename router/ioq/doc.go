// Package ioq owns the input/output-buffered switch of the RECN paper
// (García et al., "On the Correct Sizing on Meshes through an Effective
// Congestion Management Strategy"), the second router kind beside package
// router's VC router: its switches and its endnodes' input adapters, as
// actors on the same lanes, topologies, traffic sources and sinks.
//
// # Model
//
// Time: a cycle is the time a link takes to carry one flit; with flits of
// flit_bytes bytes on links of link_gbps Gbit/s it is flit_bytes*8/link_gbps
// ns (8 ns for the paper's 8 Gbps links and 8-byte flits; its 64-byte
// packets are 8 flits). Links and credits are delay lines of the
// configured latencies (link.Wires), one flit and one credit per cycle.
//
// Switch: every port has a memory at ingress and at egress of
// PortMemoryFlits flits (the paper's 128 KB), holding queues according to
// the organisation (Org): 1q one queue; voq-sw a queue per output port of
// the switch the packets will leave next (at ingress: this switch's output
// port; at egress and in adapters: the next switch's); voq-net a queue per
// destination endnode. A VOQ memory is split equally among its queues, as
// the paper does, so a queue holds PortMemoryFlits/queues flits; 1q's one
// queue may use the whole memory. Switching is virtual cut-through: a
// packet starts across the crossbar or a link only when the memory (or
// queue) ahead has room for all of it, and then moves a flit per cycle,
// its head possibly leaving before its tail has arrived.
//
// Flow control is by credits, counted in flits: per port (1q: the far
// memory's free space) or per queue (VOQ: the far queue's). A credit goes
// back when a flit leaves an ingress memory across the crossbar, or arrives
// at an endnode. Inside the switch the crossbar checks the egress memory's
// free space directly (the paper's internal credits, with no delay).
//
// Crossbar: a packet crosses only when its crossbar input and output are
// both free (one packet at a time per input and per output, a flit per
// cycle, no speedup). Each free output, in rotating order, takes the first
// input after the one it served last (round robin per output) that offers
// a packet for it at the head of one of its queues (round robin over the
// queues of a VOQ input), routed (RoutingDelayCycles after its head
// arrived) and fitting in its egress queue. Each link's sender serves its
// egress queues round robin among those whose head has arrived and whose
// far queue has credits for the whole packet.
//
// RECN (Org RECN): an ingress memory holds a detection queue per output
// port (the queue of a packet that matches no CAM line is that of its
// output) and an egress or injection memory a standard queue, beside up
// to RECN.SAQs set-aside queues, all sharing the memory under per-port
// credits. Package router/ioq/recn decides, per memory, which SAQ a packet
// takes (matched when its head arrives, at ingress, or when it is granted
// the crossbar, at egress), when to allocate and free SAQs, and what to
// tell the neighbours; this package moves the packets and the messages.
// A detection swaps the detection queue's packets into the new SAQ. A
// SAQ blocked by its in-order pointer (the packet last in the standard or
// detection queue at allocation, flagged in its descriptor) or stopped by
// Xoff does not send. Under Xoff scope Feeders (recn.Feeders) a full SAQ
// takes nothing more: the crossbar does not grant a packet whose egress
// queue is one, an adapter does not move a packet into one, and a link's
// sender does not start a packet, from any queue, whose route passes a
// point whose SAQ is full at the far end (XoffBounds is what a SAQ can
// then hold). The crossbar serves detection queues before SAQs.
// Messages between an ingress and an egress memory of one switch are
// delivered at once; those for the next switch or adapter wait in a FIFO
// per link and travel on a control lane of the link's latency, by default
// only in a cycle in which the link carries no data flit and before the
// next data packet starts (DedicatedControl: in any cycle). Idle SAQs are
// swept every 64 cycles (unless RECN.IdleCycles is 0).
//
// Routing is dimension order, X then Y, computed at each switch from the
// destination (the paper's deterministic source routes carry the same
// information). On a mesh it cannot deadlock; on a torus it can (no
// virtual channels, no datelines) and is built only with AllowDeadlock,
// to exercise the watchdog (Stuck).
//
// Input adapter (Adapter): generated packets wait in admission queues, one
// per destination, unbounded (their waiting counts in latency); a
// round-robin arbiter moves one packet at a time, a flit per cycle, into
// the injection memory, which is organised as a switch's egress port (the
// same Org and memory size), whose queues a round-robin arbiter sends onto
// the link. The adapter's sink checks every packet with package router's
// checks (fabric.Reassembly: whole and uninterrupted; fabric.FlowOrder: in
// order per source; fabric.PacketHash: exactly once on a drained network)
// and consumes a flit per cycle.
//
// Zero-load latency is that of the VC router (ZeroLoadLatency): the
// injection link, a routing delay at each of the h+1 switches, h links and
// the ejection link, then the body's serialisation.
//
// # Memory
//
// A packet in a memory is a 48-byte descriptor (a copy of its head flit
// and counts of the flits arrived and departed) in its actor's pool, which
// grows with what is buffered and is reused through a free list, so the
// simulator's memory follows the flits held, not the nominal 128 KB per
// port, and the steady state allocates nothing. Queues are linked lists of
// descriptors with a bitset of the non-empty ones per memory.
//
// It may import fabric, routing, topology, link, actor, clock and its own
// recn; it imports topology/grid until its routing reads a grid capability
// instead (a pending move, layout_test.go).
package ioq
