package study

import (
	"fmt"

	"github.com/icnsim/icnsim/link"
	"github.com/icnsim/icnsim/router"
)

// Network is the topology.
type Network struct {
	Topology      string `toml:"topology"`
	K             int    `toml:"k"`
	Levels        int    `toml:"levels"`
	Concentration int    `toml:"concentration"`
	// NodeChannels is the number of channels between a node and its
	// router: 1 (0 means 1), or 2 for a source queue, injection channel and sink
	// channel per message class (short and long), as Hybrid-HAR's nodes.
	NodeChannels int `toml:"node_channels"`
}

// networkValid reports whether the [network] table is valid, so that its
// topology may be built (cheaply: its size is bounded) to check other keys.
func (c *Config) networkValid() bool {
	ok := true
	c.validateNetwork(func(string, any, string) { ok = false })
	return ok
}

// validateNetwork checks the [network] table: a known topology of a
// supported size, concentration on meshes only, and node channels.
func (c *Config) validateNetwork(add addFunc) {
	n := &c.Network
	switch n.Topology {
	case "torus", "mesh":
		if n.K < 2 || n.K > 1024 {
			add("network.k", n.K, "allowed: 2..1024 routers per dimension")
		}
	case "fattree":
		if n.K < 2 || n.K > 32 {
			add("network.k", n.K, "allowed on a fattree: arity 2..32 (switch radix 2k)")
		}
		if n.Levels < 1 || n.Levels > 10 {
			add("network.levels", n.Levels, "allowed: 1..10 levels of a k-ary n-tree")
		} else if nodes := c.Nodes(); nodes > 1<<20 {
			add("network.levels", n.Levels, fmt.Sprintf("a %d-ary %d-tree has %d nodes; at most 2^20 supported", n.K, n.Levels, nodes))
		}
	default:
		add("network.topology", n.Topology, "allowed: torus, mesh, fattree"+didYouMean(n.Topology, []string{"torus", "mesh", "fattree"}))
	}
	if n.Concentration < 1 || n.Concentration > 60 {
		add("network.concentration", n.Concentration, "allowed: 1..60 nodes per router")
	} else if n.Topology != "mesh" && n.Concentration != 1 {
		add("network.concentration", n.Concentration, "allowed on a torus: 1 (concentration is for meshes)")
	}
	switch {
	case n.NodeChannels < 0 || n.NodeChannels > 2:
		add("network.node_channels", n.NodeChannels, "allowed: 1 (or 0: one channel per node), 2 (an injection and a sink channel per message class: short and long)")
	case n.NodeChannels == 2 && n.Topology == "fattree":
		add("network.node_channels", n.NodeChannels, "a channel per message class exists on meshes and tori only; use 1 on a fat-tree")
	case n.NodeChannels == 2 && (c.Policy.Injection != "none" && c.Policy.Injection != "noth" || c.Policy.MeasureCircuit):
		add("network.node_channels", n.NodeChannels, "injection policies and the entropy circuit see one channel per node; use 1 with policy.injection or measure_circuit")
	}
}

// Nodes is the number of nodes of the configured network.
func (c *Config) Nodes() int {
	n := c.Network
	if n.Topology == "fattree" {
		nodes := 1
		for range min(max(n.Levels, 0), 10) {
			nodes *= max(n.K, 0)
		}
		return nodes
	}
	return n.K * n.K * max(n.Concentration, 1)
}

// Topology builds the configuration's topology, with the node channels
// and the loopback ports its routing function needs.
func (c *Config) Topology() (link.Topology, error) {
	var t link.Topology
	var err error
	switch c.Network.Topology {
	case "torus":
		t, err = link.NewTorus(c.Network.K)
	case "fattree":
		t, err = link.NewFatTree(c.Network.K, c.Network.Levels)
	default:
		t, err = link.NewMesh(c.Network.K, c.Network.Concentration)
	}
	if err != nil {
		return nil, err
	}
	return router.WithPorts(t, c.Router.Routing, max(c.Network.NodeChannels, 1))
}
