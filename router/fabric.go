package router

import (
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/fabric"
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
