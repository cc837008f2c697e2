package topology

// PortLatencies is implemented by topologies whose links do not all have
// the network's link latency: LatencyCycles is the latency of the link out
// of port p of router r, 0 for the network's own (vc.Config's
// LinkLatencyCycles).
type PortLatencies interface {
	LatencyCycles(r, p int) int
}

// MaxPorts is the most ports a router may have: the routers keep sets of
// ports as bits of a uint64.
const MaxPorts = 64

// Peer is what is at the far end of a router port.
type Peer struct {
	// Router and Port of the neighbouring router, when Router >= 0.
	Router, Port int
	// Node is the network interface attached to the port, when >= 0.
	Node int
}

// Unconnected is the peer of a port with nothing attached (a mesh edge).
func Unconnected() Peer { return Peer{Router: -1, Port: -1, Node: -1} }

// Connected reports whether anything is attached.
func (p Peer) Connected() bool { return p.Router >= 0 || p.Node >= 0 }

// Topology is the wiring of routers, ports and network interfaces (nodes).
// Routers and nodes are numbered densely from 0. Every link is symmetric: if
// Peer(r, p) is (r2, p2) then Peer(r2, p2) is (r, p).
type Topology interface {
	// Kind is the topology family ("torus", "mesh", ...).
	Kind() string
	// String describes the instance, e.g. "32x32 torus".
	String() string
	Routers() int
	Nodes() int
	// Ports is the number of ports of router r (network and node ports).
	Ports(r int) int
	Peer(r, p int) Peer
	// NodePort is the router and port node n is attached to.
	NodePort(n int) (r, p int)
	RouterName(r int) string
	PortName(r, p int) string
	NodeName(n int) string
	// Diameter is the number of router-to-router hops of the longest
	// minimal route between two nodes.
	Diameter() int
	// Units groups routers for sharding: Units()[i] is the first router of
	// group i, groups are contiguous, and most links stay inside a group
	// (rows of a torus, subtrees of a fat-tree).
	Units() []int
}

// NodeChannels is the number of channels between each node of t and its
// router: 1 unless t says otherwise (Grid2D.H).
func NodeChannels(t Topology) int {
	if c, ok := t.(interface{ NodeChannels() int }); ok {
		return c.NodeChannels()
	}
	return 1
}

// MinimalLatencies is implemented by topologies some of whose links are
// longer than the network's (PortLatencies) and that know what that adds
// to a minimal route: the zero-load latency reads it.
type MinimalLatencies interface {
	// MinimalExtraCycles is the latency beyond linkLatencyCycles per hop
	// of the least-latency minimal route from node src to node dst.
	MinimalExtraCycles(src, dst, linkLatencyCycles int) int
	// MaxMinimalExtraCycles bounds it over every pair of nodes.
	MaxMinimalExtraCycles(linkLatencyCycles int) int
}

// CyclesBeyond is what a link of latencyCycles (0: the network's) takes
// beyond the network's linkLatencyCycles: what a family's longer links add
// to a route (MinimalLatencies).
func CyclesBeyond(latencyCycles, linkLatencyCycles int) int {
	if latencyCycles > 0 {
		return latencyCycles - linkLatencyCycles
	}
	return 0
}

// RouteTables is implemented by topologies whose routings keep tables
// per router or node (a grid's coordinates, a graph's shortest paths):
// RouteTableBytes is their memory, which the footprint estimate counts.
type RouteTables interface {
	RouteTableBytes() int64
}

// Env is what a family's configuration table is checked against from
// outside it: the values of other tables it depends on.
type Env struct {
	// LinkLatencyCycles is router.link_latency_cycles, the latency of
	// every link to which the family gives no latency of its own.
	LinkLatencyCycles int
}

// Describe is t's description, or "" where t could not be built (err):
// the words a family's table gives of a network it builds to describe.
func Describe(t Topology, err error) string {
	if err != nil {
		return ""
	}
	return t.String()
}

// PortClasses is implemented by topologies whose router-to-router links
// fall into classes that a study summarises apart (link statistics): the
// class of the link out of port p of router r, e.g. "x+" on a grid, "up 1"
// on a fat-tree (from level 1 to 2), "global" on a dragonfly, "dim 0" on a
// HyperX. Ports to nodes are "ejection" whatever the topology.
type PortClasses interface {
	PortClass(r, p int) string
}

// PortClass is the class of the link out of port p of router r: PortClasses'
// where t has it, "ejection" for a port to a node, "network" otherwise.
func PortClass(t Topology, r, p int) string {
	peer := t.Peer(r, p)
	if peer.Node >= 0 {
		return "ejection"
	}
	if c, ok := t.(PortClasses); ok {
		return c.PortClass(r, p)
	}
	return "network"
}
