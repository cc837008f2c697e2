package study

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
)

// Network is the topology: network.topology names the family, whose own
// table ([network.torus], [network.mesh], ..., the catalog's families)
// holds its keys.
type Network struct {
	Topology string `toml:"topology"`
	families
}

// familyTable is a topology family's configuration table, as the study
// layer checks, sizes, names and builds it.
type familyTable interface {
	// Check reports each key out of its range (keys relative to the table).
	Check(env topology.Env, add func(key string, v any, allowed string))
	// Nodes is the network's number of nodes; 0 when a size is out of range.
	Nodes() int
	Build() (topology.Topology, error)
	// Name is the network's part of an implied study name, leaving out
	// what swept (keys relative to the table) says an axis sweeps.
	Name(swept func(key string) bool) string
	// Words describes the network for a figure's subtitle ("" for none).
	Words() string
	// SizeWords names the keys the network's memory grows with (table
	// is the table's key path).
	SizeWords(table string, routers int) string
	// KeyDocs documents the table's keys for the default configuration.
	KeyDocs() []keys.Doc
}

// Optional capabilities of a family's table.
type (
	// nodeChanneled tables set the channels between a node and its router.
	nodeChanneled interface{ NodeChannelCount() int }
	// sized tables have one size that icnsim bench --sizes sets.
	sized interface {
		SetSize(size int) (channelLoadScale float64)
	}
	// leftOuter tables have keys whose 0 stands for "left out" (LeftOut:
	// what is allowed, by key), refused when written as 0.
	leftOuter interface{ LeftOut() map[string]string }
	// shortestLinker tables give links latencies of their own, the
	// shortest of which bounds router.link_latency_cycles.
	shortestLinker interface {
		ShortestLink() (cycles int, where string)
	}
	// gridShaped tables are grids: routers per dimension, nodes per
	// router, and whether they wrap around (what the ioq switch is
	// built on); ok is false where the grid is not a k x k one.
	gridShaped interface {
		GridShape() (k, concentration int, wraps, ok bool)
	}
	// preloader tables read a file, once per study (graphLoader).
	preloader interface {
		Preload(ctx context.Context, cache map[string]*graph.Loaded) error
	}
)

// topologies are the values of network.topology: the tables of the
// catalog's families, in its order.
func topologies() []string { return selectors()[0].names() }

// table is the family table network.topology selects, and its key path
// ("network.torus"); nil for an unknown topology.
func (n *Network) table() (familyTable, string) {
	v := reflect.ValueOf(&n.families).Elem()
	for i := range v.NumField() {
		if tomlName(v.Type().Field(i)) == n.Topology {
			return v.Field(i).Addr().Interface().(familyTable), "network." + n.Topology
		}
	}
	return nil, ""
}

// selectedOnly is n with every family table but the selected one zero,
// as a record stores it.
func (n Network) selectedOnly() Network {
	keepSelected(&n.families, n.Topology)
	return n
}

// Same reports whether n and o are the same network: the same keys (a
// graph read with a study, which == compares by its pointer, left out:
// two studies naming one file read it twice). Within one study the
// points that name a file share its graph, so == is Same there.
func (n Network) Same(o Network) bool {
	n.families, o.families = n.withoutCaches(), o.withoutCaches()
	return n == o
}

// graphLoader reads each topology file a study names once, under ctx, for
// every point that names it.
type graphLoader struct {
	ctx    context.Context
	graphs map[string]*graph.Loaded
}

// attach reads n's file, if its table reads one; an error other than
// ctx's is kept for Validate to report with its key.
func (gl *graphLoader) attach(n *Network) error {
	if t, _ := n.table(); t != nil {
		if p, ok := t.(preloader); ok {
			return p.Preload(gl.ctx, gl.graphs)
		}
	}
	return nil
}

// networkValid reports whether the [network] table is valid, so that its
// topology may be built (cheaply: its size is bounded) to check other keys.
func (c *Config) networkValid() bool {
	ok := true
	c.validateNetwork(func(string, any, string) { ok = false })
	return ok
}

// validateNetwork checks the [network] table: a known topology, its
// family's table, and the node channels against the other tables.
func (c *Config) validateNetwork(add addFunc) {
	n := &c.Network
	t, path := n.table()
	if t == nil {
		add("network.topology", n.Topology, "allowed: "+strings.Join(topologies(), ", ")+didYouMean(n.Topology, topologies()))
		return
	}
	t.Check(topology.Env{LinkLatencyCycles: c.Router.LinkLatencyCycles}, func(key string, v any, allowed string) {
		add(path+"."+key, v, allowed)
	})
	if sl, ok := t.(shortestLinker); ok {
		if cycles, where := sl.ShortestLink(); cycles > 0 && cycles < c.Router.LinkLatencyCycles && c.latenciesValid() {
			l := c.Router.LinkLatencyCycles
			add("router.link_latency_cycles", l, fmt.Sprintf("%s: a link of %d cycles, shorter than router.link_latency_cycles (allowed: a link latency of 0, the network's, or at least it: set router.link_latency_cycles to at most %d)", where, cycles, cycles))
		}
	}
	if c.nodeChannels() == 2 && (c.Policy.Injection != "none" && c.Policy.Injection != "noth" || c.Policy.MeasureCircuit) {
		add(path+".node_channels", 2, "injection policies and the entropy circuit see one channel per node; use 1 with policy.injection or measure_circuit")
	}
}

// nodeChannels is the channels between a node and its router (1 unless
// the family's table sets them).
func (c *Config) nodeChannels() int {
	if t, _ := c.Network.table(); t != nil {
		if nc, ok := t.(nodeChanneled); ok {
			return nc.NodeChannelCount()
		}
	}
	return 1
}

// Nodes is the number of nodes of the configured network; 0 when its
// sizes are out of range (validateNetwork reports them), so that no
// product of out-of-range sizes overflows into another key's check.
func (c *Config) Nodes() int {
	if t, _ := c.Network.table(); t != nil {
		return t.Nodes()
	}
	return 0
}

// Topology builds the configuration's topology, with the node channels
// and the loopback ports its routing function needs.
func (c *Config) Topology() (topology.Topology, error) {
	tab, _ := c.Network.table()
	if tab == nil {
		return nil, fmt.Errorf("network.topology = %q: allowed: %s", c.Network.Topology, strings.Join(topologies(), ", "))
	}
	t, err := tab.Build()
	if err != nil {
		return nil, err
	}
	return grid.WithPorts(t, c.routingSpec().Loops, c.nodeChannels())
}

// Grid is the routers per dimension and nodes per router of a grid (a
// mesh or torus), for figures laid out over it; ok is false on other
// families.
func (n Network) Grid() (k, concentration int, ok bool) {
	t, _ := n.table()
	if g, isGrid := t.(gridShaped); isGrid {
		k, concentration, _, ok = g.GridShape()
		return k, concentration, ok
	}
	return 0, 0, false
}

// NodesPerLeaf is the nodes under one leaf switch of a tree, for figures
// that group its nodes by leaf; 0 on other families.
func (n Network) NodesPerLeaf() int {
	t, _ := n.table()
	if l, ok := t.(interface{ NodesPerLeaf() int }); ok {
		return l.NodesPerLeaf()
	}
	return 0
}

// familyKeys are the keys of each family's table, by topology name.
func familyKeys() map[string][]string { return selectors()[0].keys() }

// isGrid reports whether n is a grid (a mesh or torus: Grid).
func isGrid(n *Network) bool {
	_, _, ok := n.Grid()
	return ok
}

// movedFileKey is the error of network.file written as a path, as
// earlier versions had it.
const movedFileKey = `moved: the topology file is network.file.path now ([network.file] with path = "...")`
