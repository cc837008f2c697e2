package routing

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/link"
)

// Chooser is implemented by routing functions whose decision at a router
// reads the packet's random draw or the router's queues (see above). The
// router calls Choose for every head instead of Route; Choose may set
// f.Route (the packet's header, carried on from this hop) to record a
// decision, and must offer only candidates Route offers in the same state.
type Chooser interface {
	Choose(r, in int, f *link.Flit, c *Candidates, q Queues, now clock.Cycle)
}

// Queues is the view of a router's output queues that adaptive and
// non-minimal choices read (UGAL, PAR, the HyperX's least-occupied trunk):
// a router kind supplies it, so the choices do not depend on its type.
type Queues interface {
	// QueueFlits is the queue of output port p over every VC.
	QueueFlits(p int) int
	// QueueFlitsOn is the queue a packet of the VC class vcs joins at
	// output port p.
	QueueFlitsOn(p int, vcs uint64) int
	// CreditFlitsOn is the flits of the VCs vcs sent out of port p whose
	// credits have not come back (downstream and on the wire), without
	// those waiting in this router for p: BookSim2's used credits
	// (GetUsedCredit).
	CreditFlitsOn(p int, vcs uint64) int
}
