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
