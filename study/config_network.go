package study

import (
	"fmt"
	"strings"

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
	// Dragonfly (link.Dragonfly): RoutersPerGroup is a, GlobalPerRouter h
	// (0: a/2), Groups g (0: a*h + 1), NodesPerRouter p (0: a/2, the
	// balanced dragonfly's a = 2p = 2h), GlobalArrangement palmtree or
	// consecutive, GlobalLatencyCycles the global links' latency (0: the
	// router.link_latency_cycles of every other link).
	RoutersPerGroup     int    `toml:"routers_per_group"`
	GlobalPerRouter     int    `toml:"global_per_router"`
	Groups              int    `toml:"groups"`
	NodesPerRouter      int    `toml:"nodes_per_router"`
	GlobalArrangement   string `toml:"global_arrangement"`
	GlobalLatencyCycles int    `toml:"global_latency_cycles"`
	// HyperX (link.HyperX): k routers in each of Dimensions dimensions,
	// Trunking parallel links between two routers of a line (0: 1),
	// NodesPerRouter p (0: k, the flattened butterfly's k-ary n-flat).
	Dimensions int `toml:"dimensions"`
	Trunking   int `toml:"trunking"`
	// File is the topology file of network.topology = "file"
	// (link.Graph's format), relative to the working directory.
	File string `toml:"file"`
}

// topologies are the values of network.topology.
var topologies = []string{"torus", "mesh", "fattree", "dragonfly", "hyperx", "file"}

// dragonflyParams are the dragonfly's p, a, h, g with the defaults filled in.
func (n *Network) dragonflyParams() (p, a, h, g int) {
	a = n.RoutersPerGroup
	p, h, g = n.NodesPerRouter, n.GlobalPerRouter, n.Groups
	if p == 0 {
		p = max(a/2, 1)
	}
	if h == 0 {
		h = max(a/2, 1)
	}
	if g == 0 {
		g = a*h + 1
	}
	return p, a, h, g
}

// hyperxParams are the HyperX's S, L, T, p with the defaults filled in.
func (n *Network) hyperxParams() (s, l, t, p int) {
	s, l, t, p = n.K, n.Dimensions, n.Trunking, n.NodesPerRouter
	if t == 0 {
		t = 1
	}
	if p == 0 {
		p = s
	}
	return s, l, t, p
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
	case "dragonfly":
		c.validateDragonfly(add)
	case "hyperx":
		c.validateHyperX(add)
	case "file":
		if n.File == "" {
			add("network.file", n.File, "a topology file is needed with network.topology = \"file\" (lines: routers N, node ROUTER, link A B [LATENCY_CYCLES])")
		} else if _, err := link.LoadGraph(n.File); err != nil {
			add("network.file", n.File, err.Error())
		}
	default:
		add("network.topology", n.Topology, "allowed: "+strings.Join(topologies, ", ")+didYouMean(n.Topology, topologies))
	}
	c.validateNewTopologyKeys(add)
	if n.Concentration < 1 || n.Concentration > 60 {
		add("network.concentration", n.Concentration, "allowed: 1..60 nodes per router")
	} else if n.Topology != "mesh" && n.Concentration != 1 {
		add("network.concentration", n.Concentration, fmt.Sprintf("allowed on a %s: 1 (concentration is for meshes; a dragonfly's or HyperX's is network.nodes_per_router)", n.Topology))
	}
	switch {
	case n.NodeChannels < 0 || n.NodeChannels > 2:
		add("network.node_channels", n.NodeChannels, "allowed: 1 (or 0: one channel per node), 2 (an injection and a sink channel per message class: short and long)")
	case n.NodeChannels == 2 && n.Topology != "mesh" && n.Topology != "torus":
		add("network.node_channels", n.NodeChannels, fmt.Sprintf("a channel per message class exists on meshes and tori only; use 1 on a %s", n.Topology))
	case n.NodeChannels == 2 && (c.Policy.Injection != "none" && c.Policy.Injection != "noth" || c.Policy.MeasureCircuit):
		add("network.node_channels", n.NodeChannels, "injection policies and the entropy circuit see one channel per node; use 1 with policy.injection or measure_circuit")
	}
}

// Nodes is the number of nodes of the configured network.
func (c *Config) Nodes() int {
	n := c.Network
	switch n.Topology {
	case "dragonfly":
		p, a, _, g := n.dragonflyParams()
		return max(p, 0) * max(a, 0) * max(g, 0)
	case "hyperx":
		s, l, _, p := n.hyperxParams()
		nodes := max(p, 0)
		for range min(max(l, 0), 8) {
			nodes *= max(s, 0)
		}
		return nodes
	case "file":
		if g, err := link.LoadGraph(n.File); err == nil {
			return g.Nodes()
		}
		return 0
	}
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
	case "dragonfly":
		n := &c.Network
		p, a, h, g := n.dragonflyParams()
		arr, aerr := link.ParseArrangement(n.GlobalArrangement)
		if aerr != nil {
			return nil, aerr
		}
		t, err = link.NewDragonfly(p, a, h, g, arr, n.GlobalLatencyCycles)
	case "hyperx":
		s, l, tr, p := c.Network.hyperxParams()
		t, err = link.NewHyperX(s, l, tr, p)
	case "file":
		t, err = link.LoadGraph(c.Network.File)
	default:
		t, err = link.NewMesh(c.Network.K, c.Network.Concentration)
	}
	if err != nil {
		return nil, err
	}
	return router.WithPorts(t, c.Router.Routing, max(c.Network.NodeChannels, 1))
}

// validateDragonfly checks a dragonfly's keys: each parameter in range,
// and the groups reachable by the global links.
func (c *Config) validateDragonfly(add addFunc) {
	n := &c.Network
	p, a, h, g := n.dragonflyParams()
	ok := true
	bad := func(key string, v any, allowed string) { add(key, v, allowed); ok = false }
	if a < 1 || a > 64 {
		bad("network.routers_per_group", n.RoutersPerGroup, "allowed: 1..64 routers per group (a dragonfly needs it: a = 2p = 2h is the balanced one)")
	}
	if n.NodesPerRouter < 0 || p < 1 || p > 32 {
		bad("network.nodes_per_router", n.NodesPerRouter, "allowed: 1..32 nodes per router (left out: routers_per_group/2, balanced)")
	}
	if n.GlobalPerRouter < 0 || h < 1 || h > 32 {
		bad("network.global_per_router", n.GlobalPerRouter, "allowed: 1..32 global links per router (left out: routers_per_group/2, balanced)")
	}
	if _, err := link.ParseArrangement(n.GlobalArrangement); err != nil {
		bad("network.global_arrangement", n.GlobalArrangement, "allowed: palmtree (the default), consecutive"+didYouMean(n.GlobalArrangement, link.ArrangementNames()))
	}
	if n.GlobalLatencyCycles < 0 || n.GlobalLatencyCycles > 1000 {
		bad("network.global_latency_cycles", n.GlobalLatencyCycles, "allowed: 0 (router.link_latency_cycles) or 1..1000 cycles")
	} else if n.GlobalLatencyCycles > 0 && n.GlobalLatencyCycles < c.Router.LinkLatencyCycles {
		bad("network.global_latency_cycles", n.GlobalLatencyCycles, fmt.Sprintf("allowed: 0, or at least router.link_latency_cycles (%d): a global link is no shorter than a local one", c.Router.LinkLatencyCycles))
	}
	if !ok {
		return
	}
	switch {
	case n.Groups < 0 || g < 2:
		add("network.groups", n.Groups, fmt.Sprintf("allowed: 2..a*h+1 = %d groups (left out: a*h+1)", a*h+1))
	case g > a*h+1:
		add("network.groups", n.Groups, fmt.Sprintf("a group has a*h = %d*%d = %d global links, too few to reach %d other groups: allowed 2..%d (left out: a*h+1)", a, h, a*h, g-1, a*h+1))
	case (a*h)%(g-1) != 0:
		add("network.groups", n.Groups, fmt.Sprintf("the a*h = %d global links of a group must split evenly over the g-1 = %d other groups: allowed g-1 dividing %d", a*h, g-1, a*h))
	case g > 255:
		add("network.groups", n.Groups, "allowed: at most 255 groups")
	case p+a-1+h > 64:
		add("network.routers_per_group", n.RoutersPerGroup, fmt.Sprintf("a router has p + a-1 + h = %d ports: at most 64", p+a-1+h))
	case p*a*g > 1<<20:
		add("network.groups", n.Groups, fmt.Sprintf("the dragonfly has %d nodes: at most 2^20", p*a*g))
	}
}

// validateHyperX checks a HyperX's keys.
func (c *Config) validateHyperX(add addFunc) {
	n := &c.Network
	s, l, t, p := n.hyperxParams()
	switch {
	case s < 2 || s > 64:
		add("network.k", n.K, "allowed on a hyperx: 2..64 routers per dimension")
	case l < 1 || l > 8:
		add("network.dimensions", n.Dimensions, "allowed: 1..8 dimensions of a hyperx")
	case n.Trunking < 0 || t > 8:
		add("network.trunking", n.Trunking, "allowed: 1..8 links between two routers of a line (0: 1)")
	case n.NodesPerRouter < 0 || p < 1 || p > 32:
		add("network.nodes_per_router", n.NodesPerRouter, "allowed: 1..32 nodes per router (left out: k, the flattened butterfly's)")
	case p+l*(s-1)*t > 64:
		add("network.k", n.K, fmt.Sprintf("a router has p + dimensions*(k-1)*trunking = %d ports: at most 64", p+l*(s-1)*t))
	case c.Nodes() > 1<<20 || c.Nodes() <= 0:
		add("network.dimensions", n.Dimensions, "the hyperx has more than 2^20 nodes")
	}
}

// validateNewTopologyKeys refuses the dragonfly's and HyperX's keys on
// topologies they do not apply to.
func (c *Config) validateNewTopologyKeys(add addFunc) {
	n := &c.Network
	df, hx := n.Topology == "dragonfly", n.Topology == "hyperx"
	for _, k := range []struct {
		key  string
		v    any
		set  bool
		ok   bool
		what string
	}{
		{"network.routers_per_group", n.RoutersPerGroup, n.RoutersPerGroup != 0, df, "dragonfly"},
		{"network.global_per_router", n.GlobalPerRouter, n.GlobalPerRouter != 0, df, "dragonfly"},
		{"network.groups", n.Groups, n.Groups != 0, df, "dragonfly"},
		{"network.global_arrangement", n.GlobalArrangement, n.GlobalArrangement != "", df, "dragonfly"},
		{"network.global_latency_cycles", n.GlobalLatencyCycles, n.GlobalLatencyCycles != 0, df, "dragonfly"},
		{"network.nodes_per_router", n.NodesPerRouter, n.NodesPerRouter != 0, df || hx, "dragonfly or hyperx"},
		{"network.dimensions", n.Dimensions, n.Dimensions != 0, hx, "hyperx"},
		{"network.trunking", n.Trunking, n.Trunking != 0, hx, "hyperx"},
		{"network.file", n.File, n.File != "", n.Topology == "file", "file"},
	} {
		if k.set && !k.ok {
			add(k.key, k.v, fmt.Sprintf(`applies to network.topology = %q only`, k.what))
		}
	}
	fileTopo := n.Topology == "file"
	if fileTopo && n.K != Default().Network.K && n.K != 0 {
		add("network.k", n.K, "a topology file gives the routers, nodes and links: leave k out")
	}
	newKind := df || hx || fileTopo
	if newKind && n.Levels != Default().Network.Levels && n.Levels != 0 {
		add("network.levels", n.Levels, "applies to network.topology = \"fattree\" only")
	}
	if df && n.K != Default().Network.K && n.K != 0 {
		add("network.k", n.K, "a dragonfly is sized by routers_per_group, global_per_router, groups and nodes_per_router, not k")
	}
}
