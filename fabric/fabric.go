package fabric

import (
	"fmt"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/topology"
)

// Fabric is what a run needs of a built network, whatever its router kind:
// package router/vc's Network (the VC router), the input/output-buffered switch's
// network in package ioq. Every method is called only while the network
// is paused (before, between or after cycles).
type Fabric interface {
	Topology() topology.Topology
	// Actors are the network's actors in their fixed order and the unit
	// boundaries for sharding.
	Actors() ([]actor.Actor, []int)
	// Prefetcher is actor.Spec.Prefetch (nil for none).
	Prefetcher() func(actor int, now clock.Cycle)
	Totals() Totals
	// NodeFlitsInjected is the number of flits node i has sent into the
	// network, and LastDelivery the last cycle at which any node received
	// a packet's tail.
	NodeFlitsInjected(i int) uint64
	LastDelivery() clock.Cycle
	// CountPerDestination makes node i count the packets it starts per
	// destination from now on and returns the row it counts into.
	CountPerDestination(i int) *PacketCounts
	// Buffers is the number of input buffers whose occupancy Totals'
	// SumValid counts (0 where the router kind does not count them).
	Buffers() int
	// Check verifies the network's invariants before cycle next.
	Check(next clock.Cycle) error
	// CheckDelivery verifies on a drained network that every packet sent
	// was delivered exactly once.
	CheckDelivery() error
	// Stuck describes up to limit queues holding flits of which none has
	// left for at least cycles cycles before next, and returns how many
	// there are and the earliest cycle at which one of them last moved.
	Stuck(next clock.Cycle, cycles int64, limit int) (lines []string, total int, since int64)
	// MaxZeroLoadLatency is the zero-load latency of a packet of sizeFlits
	// flits over the network's longest minimal route.
	MaxZeroLoadLatency(sizeFlits int) int
}

// DeliveryCheck is CheckDelivery's verdict from a network's totals: the
// packets its sources injected and its sinks received, and the sums of
// their PacketHash on each side.
func DeliveryCheck(injected, delivered, sentHash, recvHash uint64) error {
	if injected != delivered || sentHash != recvHash {
		return fmt.Errorf("delivery check failed: %d packets injected, %d delivered, hash sums %x and %x", injected, delivered, sentHash, recvHash)
	}
	return nil
}

// DeadlockError is a configuration whose channel dependency graph has a
// cycle, or whose VCs cannot carry its routing's VC classes.
type DeadlockError struct{ Msg string }

func (e *DeadlockError) Error() string { return e.Msg }

// Totals are network-wide counters, read while the network is paused.
type Totals struct {
	PacketsGenerated, PacketsInjected, PacketsDelivered uint64
	FlitsInjected, FlitsDelivered                       uint64
	FlitsBuffered                                       uint64 // in router input buffers and output queues (internal speedup)
	SourceQueued                                        uint64 // packets waiting in source queues
	// InjectionMemory is the ioq switch's packets in adapters' injection
	// memories that have not started on the link (0 for the VC router).
	InjectionMemory     uint64
	FlitHops            uint64 // flits moved through router switches
	SumValid, SumActive uint64
}
