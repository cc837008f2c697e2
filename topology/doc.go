// Package topology owns what every topology family shares: the Topology
// interface (routers, nodes, ports, the peer at the far end of each port,
// names, diameter, sharding units), the Peer of a port, the optional
// capabilities a family may offer and its users query instead of its type
// (NodeChannels, PortLatencies), and MaxPorts. The families live in its
// subpackages (grid, fattree, dragonfly, hyperx, graph). It imports the
// standard library only (DESIGN.md section 10).
package topology
