package study

import (
	"context"
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
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
	// Dragonfly (dragonfly.Dragonfly): RoutersPerGroup is a, GlobalPerRouter h
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
	// HyperX (hyperx.HyperX): k routers in each of Dimensions dimensions,
	// Trunking parallel links between two routers of a line (0: 1),
	// NodesPerRouter p (0: k, the flattened butterfly's k-ary n-flat).
	Dimensions int `toml:"dimensions"`
	Trunking   int `toml:"trunking"`
	// File is the topology file of network.topology = "file"
	// (graph.Graph's format), relative to the working directory.
	File string `toml:"file"`
	// graph is File read when the study file was loaded (graphLoader),
	// shared by every point that names it; nil: read when needed.
	graph *loadedGraph
}

// Same reports whether n and o are the same network: the same keys (the
// graph read with a study, which == compares by its pointer, left out:
// two studies naming one file read it twice). Within one study the
// points that name a file share its graph, so == is Same there.
func (n Network) Same(o Network) bool {
	n.graph, o.graph = nil, nil
	return n == o
}

// loadedGraph is a topology file read once: its graph, or why not.
type loadedGraph struct {
	path string
	g    *graph.Graph
	err  error
}

// fileGraph is the graph of network.file: the one read with the study
// file, or read now.
func (n *Network) fileGraph() (*graph.Graph, error) {
	if n.graph != nil && n.graph.path == n.File {
		return n.graph.g, n.graph.err
	}
	return graph.LoadGraph(context.Background(), n.File)
}

// graphLoader reads each topology file a study names once, under ctx, for
// every point that names it: a study of many points on one large graph
// reads it once, and a signal stops the reading.
type graphLoader struct {
	ctx    context.Context
	graphs map[string]*loadedGraph
}

// attach gives n its graph (file topologies only); an error other than
// ctx's is kept for Validate to report with its key.
func (gl *graphLoader) attach(n *Network) error {
	if n.Topology != "file" || n.File == "" {
		return nil
	}
	lg, ok := gl.graphs[n.File]
	if !ok {
		g, err := graph.LoadGraph(gl.ctx, n.File)
		if err != nil && gl.ctx.Err() != nil {
			return gl.ctx.Err()
		}
		lg = &loadedGraph{path: n.File, g: g, err: err}
		gl.graphs[n.File] = lg
	}
	n.graph = lg
	return nil
}

// topologies are the values of network.topology.
func topologies() []string {
	return []string{"torus", "mesh", "fattree", "dragonfly", "hyperx", "file"}
}

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
		} else if g, err := n.fileGraph(); err != nil {
			add("network.file", n.File, err.Error())
		} else if l := c.Router.LinkLatencyCycles; g.ShortestLink > 0 && g.ShortestLink < l && c.latenciesValid() {
			add("router.link_latency_cycles", l, fmt.Sprintf("%s:%d: a link of %d cycles, shorter than router.link_latency_cycles (allowed: a link latency of 0, the network's, or at least it: set router.link_latency_cycles to at most %d)", g.Path, g.ShortestLinkLine, g.ShortestLink, g.ShortestLink))
		}
	default:
		add("network.topology", n.Topology, "allowed: "+strings.Join(topologies(), ", ")+didYouMean(n.Topology, topologies()))
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

// Nodes is the number of nodes of the configured network; 0 when its
// sizes are out of range (validateNetwork reports them), so that no
// product of out-of-range sizes overflows into another key's check.
func (c *Config) Nodes() int {
	n := c.Network
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	switch n.Topology {
	case "dragonfly":
		p, a, h, g := n.dragonflyParams()
		if !in(a, 1, 64) || !in(p, 1, 32) || !in(h, 1, 32) || !in(g, 2, 64*32+1) {
			return 0
		}
		return p * a * g
	case "hyperx":
		s, l, t, p := n.hyperxParams()
		if !in(s, 2, 64) || !in(l, 1, 8) || !in(t, 1, 8) || !in(p, 1, 64) {
			return 0
		}
		nodes := p
		for range l {
			nodes *= s
		}
		return nodes
	case "file":
		if g, err := n.fileGraph(); err == nil {
			return g.Nodes()
		}
		return 0
	case "fattree":
		if !in(n.K, 2, 32) || !in(n.Levels, 1, 10) {
			return 0
		}
		nodes := 1
		for range n.Levels {
			nodes *= n.K
		}
		return nodes
	case "torus", "mesh":
		if !in(n.K, 2, 1024) || !in(n.Concentration, 1, 60) {
			return 0
		}
		return n.K * n.K * n.Concentration
	}
	return 0
}

// Topology builds the configuration's topology, with the node channels
// and the loopback ports its routing function needs.
func (c *Config) Topology() (topology.Topology, error) {
	var t topology.Topology
	var err error
	switch c.Network.Topology {
	case "torus":
		t, err = grid.NewTorus(c.Network.K)
	case "fattree":
		t, err = fattree.NewFatTree(c.Network.K, c.Network.Levels)
	case "dragonfly":
		n := &c.Network
		p, a, h, g := n.dragonflyParams()
		arr, aerr := dragonfly.ParseArrangement(n.GlobalArrangement)
		if aerr != nil {
			return nil, aerr
		}
		t, err = dragonfly.NewDragonfly(p, a, h, g, arr, n.GlobalLatencyCycles)
	case "hyperx":
		s, l, tr, p := c.Network.hyperxParams()
		t, err = hyperx.NewHyperX(s, l, tr, p)
	case "file":
		t, err = c.Network.fileGraph()
	default:
		t, err = grid.NewMesh(c.Network.K, c.Network.Concentration)
	}
	if err != nil {
		return nil, err
	}
	return grid.WithPorts(t, c.routingSpec().Loops, max(c.Network.NodeChannels, 1))
}

// validateDragonfly checks a dragonfly's keys: each key written in its
// range first, then what the values left out derive from them, each
// refusal naming a key the user wrote and the values derived from it
// ("a = 32, h = 16 (left out: a/2) give g = a*h+1 = 513 groups").
func (c *Config) validateDragonfly(add addFunc) {
	n := &c.Network
	groupsAllowed := fmt.Sprintf("allowed: 2..%d groups, at most a*h+1 (left out: a*h+1)", maxDragonflyGroups)
	ok := inRanges(add,
		intRange{"network.routers_per_group", n.RoutersPerGroup, 1, 64, "allowed: 1..64 routers per group (a dragonfly needs it: a = 2p = 2h is the balanced one)"},
		intRange{"network.nodes_per_router", n.NodesPerRouter, 0, 32, "allowed: 1..32 nodes per router (left out: routers_per_group/2, balanced)"},
		intRange{"network.global_per_router", n.GlobalPerRouter, 0, 32, "allowed: 1..32 global links per router (left out: routers_per_group/2, balanced)"},
		intRange{"network.groups", n.Groups, 0, maxDragonflyGroups, groupsAllowed})
	if n.Groups == 1 { // 0 is left out; 1 is no dragonfly
		add("network.groups", n.Groups, groupsAllowed)
		ok = false
	}
	bad := func(key string, v any, allowed string) { add(key, v, allowed); ok = false }
	if _, err := dragonfly.ParseArrangement(n.GlobalArrangement); err != nil {
		bad("network.global_arrangement", n.GlobalArrangement, "allowed: palmtree (the default), consecutive"+didYouMean(n.GlobalArrangement, dragonfly.ArrangementNames()))
	}
	if n.GlobalLatencyCycles < 0 || n.GlobalLatencyCycles > 1000 {
		bad("network.global_latency_cycles", n.GlobalLatencyCycles, "allowed: 0 (router.link_latency_cycles) or 1..1000 cycles")
	} else if n.GlobalLatencyCycles > 0 && n.GlobalLatencyCycles < c.Router.LinkLatencyCycles {
		bad("network.global_latency_cycles", n.GlobalLatencyCycles, fmt.Sprintf("allowed: 0, or at least router.link_latency_cycles (%d): a global link is no shorter than a local one", c.Router.LinkLatencyCycles))
	}
	if !ok {
		return
	}
	// Every value is now small: the products below cannot overflow.
	p, a, h, g := n.dragonflyParams()
	words := n.dragonflyWords()
	switch {
	case g > a*h+1:
		add("network.groups", n.Groups, fmt.Sprintf("%s: a group has a*h = %d*%d = %d global links, too few to reach %d other groups: allowed 2..%d (left out: a*h+1)", words, a, h, a*h, g-1, a*h+1))
	case (a*h)%(g-1) != 0:
		add("network.groups", n.Groups, fmt.Sprintf("%s: the a*h = %d global links of a group must split evenly over the g-1 = %d other groups: allowed g-1 dividing %d", words, a*h, g-1, a*h))
	case g > maxDragonflyGroups:
		words, _, _ = strings.Cut(words, ", g =")
		// groups written is at most 255: g was derived, from a and h.
		add("network.routers_per_group", n.RoutersPerGroup, fmt.Sprintf("%s give g = a*h+1 = %d*%d+1 = %d groups (network.groups left out); at most %d: set network.groups (g-1 dividing a*h = %d), or a smaller routers_per_group or global_per_router", words, a, h, g, maxDragonflyGroups, a*h))
	case p+a-1+h > topology.MaxPorts:
		add("network.routers_per_group", n.RoutersPerGroup, fmt.Sprintf("%s: a router has p + a-1 + h = %d + %d + %d = %d ports; at most %d", words, p, a-1, h, p+a-1+h, topology.MaxPorts))
	}
	// p <= 32, a <= 64 and g <= 255 keep the nodes under 2^19.
}

// intRange is an integer key's value and its range lo..hi (0 standing for
// a value left out where lo is 0), with what is allowed.
type intRange struct {
	key     string
	v       int
	lo, hi  int
	allowed string
}

// inRanges adds each value out of its range; it reports whether all are in.
func inRanges(add addFunc, rs ...intRange) bool {
	ok := true
	for _, r := range rs {
		if r.v < r.lo || r.v > r.hi {
			add(r.key, r.v, r.allowed)
			ok = false
		}
	}
	return ok
}

// maxDragonflyGroups is the most groups of a dragonfly.
const maxDragonflyGroups = 255

// dragonflyWords says how a dragonfly's p, a, h and g came about: "a =
// 32, p = 16 (left out: a/2), h = 16 (left out: a/2), g = 513 (left out:
// a*h+1)".
func (n *Network) dragonflyWords() string {
	p, a, h, g := n.dragonflyParams()
	left := func(name string, v, written int, rule string) string {
		if written != 0 {
			return fmt.Sprintf("%s = %d", name, v)
		}
		return fmt.Sprintf("%s = %d (left out: %s)", name, v, rule)
	}
	return fmt.Sprintf("a = %d, %s, %s, %s", a, left("p", p, n.NodesPerRouter, "a/2"), left("h", h, n.GlobalPerRouter, "a/2"), left("g", g, n.Groups, "a*h+1"))
}

// validateHyperX checks a HyperX's keys, as validateDragonfly: each key
// written in its range, then what they derive.
func (c *Config) validateHyperX(add addFunc) {
	n := &c.Network
	if !inRanges(add,
		intRange{"network.k", n.K, 2, 64, "allowed on a hyperx: 2..64 routers per dimension"},
		intRange{"network.dimensions", n.Dimensions, 1, 8, "allowed: 1..8 dimensions of a hyperx"},
		intRange{"network.trunking", n.Trunking, 0, 8, "allowed: 1..8 links between two routers of a line (left out: 1)"},
		intRange{"network.nodes_per_router", n.NodesPerRouter, 0, 32, "allowed: 1..32 nodes per router (left out: k, the flattened butterfly's)"}) {
		return
	}
	s, l, t, p := n.hyperxParams()
	words := fmt.Sprintf("k = %d, dimensions = %d, trunking = %d%s, nodes_per_router = %d%s", s, l, t, leftOutWord(n.Trunking, "1"), p, leftOutWord(n.NodesPerRouter, "k"))
	switch {
	case p > 32:
		add("network.k", n.K, fmt.Sprintf("k = %d gives nodes_per_router = k = %d (left out: the flattened butterfly's p = k); allowed: 1..32 nodes per router: set network.nodes_per_router", s, p))
	case p+l*(s-1)*t > topology.MaxPorts:
		add("network.k", n.K, fmt.Sprintf("%s: a router has p + dimensions*(k-1)*trunking = %d + %d*%d*%d = %d ports; at most %d", words, p, l, s-1, t, p+l*(s-1)*t, topology.MaxPorts))
	case c.Nodes() > 1<<20:
		add("network.dimensions", n.Dimensions, fmt.Sprintf("%s: the hyperx has k^dimensions*p = %d^%d*%d = %d nodes; at most 2^20 = %d", words, s, l, p, c.Nodes(), 1<<20))
	}
}

// leftOutWord is " (left out: rule)" for a key written as 0, else "".
func leftOutWord(written int, rule string) string {
	if written != 0 {
		return ""
	}
	return " (left out: " + rule + ")"
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
	if n.Topology != "fattree" && n.Levels != Default().Network.Levels && n.Levels != 0 {
		add("network.levels", n.Levels, "applies to network.topology = \"fattree\" only")
	}
	if df && n.K != Default().Network.K && n.K != 0 {
		add("network.k", n.K, "a dragonfly is sized by routers_per_group, global_per_router, groups and nodes_per_router, not k")
	}
}
