package vc

import (
	"unsafe"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/routing/deadlock"
	"github.com/icnsim/icnsim/topology"
)

// Footprint is the memory a network of a configuration takes, computed
// from the sizes Build allocates, without building it.
type Footprint struct {
	// StateBytes is what Network.StateBytes reports right after Build:
	// routers, NIs and wires with their pools at their initial sizes.
	StateBytes int64
	// TableBytes is the rest the network keeps: the actor and pointer
	// lists and the routing function's tables.
	TableBytes int64
	// CheckBytes is the deadlock check's memory at its largest
	// (deadlock.Bytes); it is garbage before the network is allocated (0 with
	// AllowDeadlock).
	CheckBytes int64
}

// EstimateFootprint computes the footprint of the network Build would make
// of t and cfg. It is linear in the routers and allocates nothing.
func EstimateFootprint(t topology.Topology, cfg Config) Footprint {
	nr, nn := int64(t.Routers()), int64(t.Nodes())
	V := int64(cfg.VCs)
	var nports int64
	var f Footprint
	for r := 0; r < t.Routers(); r++ {
		P := int64(t.Ports(r))
		nports += P
		// Pools at their initial sizes, and the port flit counters.
		f.StateBytes += int64(initialPkts(int(P)))*int64(unsafe.Sizeof(pktDesc{})) + int64(initialCands(int(P)))*int64(unsafe.Sizeof(candSlot{})) +
			P*int64(unsafe.Sizeof(vaReq{})) + 8*P
		if cfg.InternalSpeedup > 1 {
			f.StateBytes += speedupBytes(int(P), cfg.VCs, cfg.BufferFlits)
		}
		f.StateBytes += extrasBytes(cfg, int(P))
	}
	// Each wire's ring has the slots of its own latency, and a topology
	// with longer links keeps a table of every wire's ring
	// (link.NewWiresExtra); a node's channels have the network's.
	H := int64(topology.NodeChannels(t))
	// A ring has room for the flits the pipeline sends ahead
	// (link.NewWiresAhead).
	flitRoom := cfg.LinkLatencyCycles + cfg.sendAheadCycles()
	wireBytes := (nports + nn*H) * int64(link.RingSlots(flitRoom, cfg.CreditLatencyCycles, 0)) * link.WireSlotBytes
	if pl, ok := t.(topology.PortLatencies); ok && longerLinks(t, pl, cfg.LinkLatencyCycles) {
		wireBytes = nn * H * link.RingBytes(flitRoom, cfg.CreditLatencyCycles, 0)
		for r := 0; r < t.Routers(); r++ {
			for p := 0; p < t.Ports(r); p++ {
				extra := 0
				if lat := pl.LatencyCycles(r, p); lat != 0 {
					extra = max(0, lat-cfg.LinkLatencyCycles)
				}
				wireBytes += link.RingBytes(flitRoom, cfg.CreditLatencyCycles, extra)
			}
		}
	}
	f.StateBytes += wireBytes
	f.StateBytes += nr*int64(unsafe.Sizeof(Router{})) + nports*V*int64(unsafe.Sizeof(inVC{})) +
		nports*int64(unsafe.Sizeof(portState{})) + nports*V*int64(unsafe.Sizeof(outVC{})) +
		nn*int64(unsafe.Sizeof(NI{})) + nn*V*int64(unsafe.Sizeof(niVC{}))
	// Router and NI pointer lists, actors (an interface each), actor
	// kinds, port bases; the routing's tables (topology.RouteTables).
	f.TableBytes = 8*nr + 8*nn + 16*(nr+nn) + 4*(nr+nn) + 8*(nr+1)
	if rt, ok := t.(topology.RouteTables); ok {
		f.TableBytes += rt.RouteTableBytes()
	}
	if tb := cfg.Routing.TableBytes; tb != nil {
		f.TableBytes += tb(t)
	}
	if !cfg.AllowDeadlock {
		f.CheckBytes = deadlock.Bytes(t, cfg.Routing, cfg.VCs)
	}
	return f
}

// longerLinks reports whether any link of t is longer than the network's
// latency (Build then gives the wires extra cycles).
func longerLinks(t topology.Topology, pl topology.PortLatencies, linkLatencyCycles int) bool {
	for r := 0; r < t.Routers(); r++ {
		for p := 0; p < t.Ports(r); p++ {
			if pl.LatencyCycles(r, p) > linkLatencyCycles {
				return true
			}
		}
	}
	return false
}
