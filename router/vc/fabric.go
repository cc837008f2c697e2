package vc

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/topology"
)

var _ fabric.Fabric = (*Network)(nil)

// Topology is the network's topology.
func (n *Network) Topology() topology.Topology { return n.Topo }

// NodeFlitsInjected is the number of flits NI i has injected.
func (n *Network) NodeFlitsInjected(i int) uint64 { return n.NIs[i].FlitsInjected }

// LastDelivery is the last cycle at which an NI received a packet's tail.
func (n *Network) LastDelivery() clock.Cycle {
	var last clock.Cycle
	for _, ni := range n.NIs {
		last = max(last, ni.LastDelivery)
	}
	return last
}

// CountPerDestination is NI i's CountPerDestination.
func (n *Network) CountPerDestination(i int) *fabric.PacketCounts {
	return n.NIs[i].CountPerDestination()
}

// OutWire is the data wire out of port p of router r, if it has one (the
// policies' Host).
func (n *Network) OutWire(r, p int) (link.Wire, bool) { return n.Routers[r].OutWire(p) }

// ControlPlane is router r's control plane (nil for none).
func (n *Network) ControlPlane(r int) fabric.ControlPlane { return n.Routers[r].ControlPlane() }

// SetControlPlane installs cp as router r's control plane.
func (n *Network) SetControlPlane(r int, cp fabric.ControlPlane) { n.Routers[r].SetControlPlane(cp) }

// SetGate installs g as node i's injection gate.
func (n *Network) SetGate(i int, g fabric.Gate) { n.NIs[i].SetGate(g) }

var _ fabric.LinkLeads = (*Network)(nil)

// LinkLeads returns, for the network as it is now, how many cycles
// either end of router r's link at port p may tick ahead of the other
// (fabric.LinkLeads): the least, over the link's two wires and over their
// flit and credit lanes, of the latency L and of the ring's slots beyond
// it, S - L. A link of the network's latency 1 gives 1; a dragonfly's
// 10-cycle global link (rings of 16 slots) 6. A network with a control
// plane or an injection gate installed has lanes of its policies beside
// the links, so every link gives 1 there, as does a node's link and a
// loopback port.
func (n *Network) LinkLeads() func(r, p int) int {
	if n.hasPolicyLanes() {
		return func(int, int) int { return 1 }
	}
	return func(r, p int) int {
		peer := n.Topo.Peer(r, p)
		if peer.Router < 0 || peer.Router == r {
			return 1
		}
		return min(n.wireLead(n.base[r]+p), n.wireLead(n.base[peer.Router]+peer.Port))
	}
}

// wireLead is the lead one wire allows (LinkLeads).
func (n *Network) wireLead(w int) int {
	// A router's flits are written sendAheadCycles further on (the
	// pipeline's stages after switch allocation), which the ring has room
	// for; a reader may run ahead by the latency of the nearest flit, and
	// a writer by the slots left behind its farthest one.
	e := n.wires.ExtraCycles(w)
	flit, credit := n.Cfg.LinkLatencyCycles+e, n.Cfg.CreditLatencyCycles+e
	farthest := flit + n.Cfg.sendAheadCycles()
	S := link.RingSlots(n.Cfg.LinkLatencyCycles+n.Cfg.sendAheadCycles(), n.Cfg.CreditLatencyCycles, e)
	return max(1, min(flit, credit, S-farthest, S-credit))
}

// hasPolicyLanes reports whether a router has a control plane (a policy's,
// or UGAL-G's group board) or a node an injection gate.
func (n *Network) hasPolicyLanes() bool {
	for _, r := range n.Routers {
		if r.plane != nil {
			return true
		}
	}
	for _, ni := range n.NIs {
		if ni.gate != nil {
			return true
		}
	}
	return false
}
