package fabric

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Source generates the packets of one NI (package traffic implements it).
// It is owned by that NI alone.
type Source interface {
	// Generate is called at cycle 0 and then at every cycle at or after the
	// cycle it last returned; it pushes the packets generated at cycle now
	// and returns the next cycle it wants to be called (clock.Never for none).
	Generate(now clock.Cycle, q *SourceQueue) (next clock.Cycle)
}

// Idle is the source of a node that sends nothing.
type Idle struct{}

// Generate generates nothing, ever.
func (Idle) Generate(clock.Cycle, *SourceQueue) clock.Cycle { return clock.Never }

// ClosedLoop is implemented by a source whose packets answer what its node
// receives (a rank of a job, package workload): it is also its node's
// Sink. Its NI gives each packet the sequence number the source chose
// (Packet.Seq: the source numbers its packets per destination, so that
// the destination can tell which message a packet belongs to, in whatever
// order the packets arrive), and calls Generate again in every cycle in
// which a packet is delivered to the node, after the sink has seen it,
// whatever cycle Generate last asked for. Sequence numbers must be unique
// per source and destination and increase per destination in the order
// the packets are pushed.
type ClosedLoop interface {
	Source
	Sink
	// ClosedLoop marks the capability; it does nothing.
	ClosedLoop()
}

// Responder is implemented by a ClosedLoop source that answers requests
// (packets of message class 0) with replies (class 1 and up), and can hold
// only so many requests at a time (package traffic's request-reply
// process). Its NI keeps the replies in a source queue of their own,
// injected before the requests, and consumes what arrives one flit per
// cycle from an ejection buffer per VC (the router's credits for it): a
// request's head is consumed only once Accept has taken it, and until then
// it and every flit behind it in its VC wait in the buffer, holding their
// credits, so that a server that is full backs its requests up into the
// network. Replies are always consumed (their requester counted them
// outstanding). Every flit consumed returns its credit; a packet is
// delivered when its tail is consumed.
type Responder interface {
	ClosedLoop
	// Accept reports whether the node takes the request whose head flit
	// is at the front of its ejection buffer at cycle now, with
	// queuedReplies replies waiting in its reply queue; true commits it to
	// the request (the NI consumes it), false leaves it waiting (Accept is
	// asked again in a later cycle).
	Accept(now clock.Cycle, head *link.Flit, queuedReplies int) bool
}

// Sink observes delivered packets at one NI (package report implements it).
// It is owned by that NI alone.
type Sink interface {
	// Delivered is called when the tail flit f of a packet arrives at cycle now.
	Delivered(now clock.Cycle, f *link.Flit)
}

// Gate is an injection gate (the policies implement them). It is owned
// by one NI alone. Every cycle the NI first generates the cycle's packets,
// then calls Observe with the number of packets in its source queue (where
// the gate reads its control lanes, updates its mode and may send on its
// own lanes), then, if a packet is waiting and none is being injected,
// Allow; a packet already started is never interrupted. Started is called
// in the cycle a packet's head flit leaves the NI (Allow returned true and
// the router had room), Injected in the cycle its tail flit leaves.
type Gate interface {
	Observe(now clock.Cycle, queuedPackets int)
	Allow(now clock.Cycle) bool
	Started(now clock.Cycle)
	Injected(now clock.Cycle)
}

// Observation is what a router observes of its own buffers in one cycle:
// the non-empty input VC buffers (valid, the entropy papers' N_v) and those
// whose front flit moved on (active, N_a), over all input ports, with the
// injection ports' share of each.
type Observation struct {
	Valid, Active, ValidInj, ActiveInj int
}

// ControlPlane is a router's control-plane logic (the policies implement
// it, e.g. the entropy measurement circuit). It is owned by one
// router alone and stepped once per cycle at the end of the router's tick,
// after the data path has sent this cycle's flits, so that a control lane
// stealing idle link cycles sees whether the link carried a flit.
type ControlPlane interface {
	Step(now clock.Cycle, obs Observation)
}
