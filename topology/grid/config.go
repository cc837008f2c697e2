package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// TorusConfig is the configuration table of a k x k torus
// ([network.torus]).
type TorusConfig struct {
	// K is the number of routers per dimension.
	K int `toml:"k"`
	// NodeChannels is the number of channels between a node and its
	// router: 1 (0 means 1), or 2 for a source queue, injection channel
	// and sink channel per message class (short and long), as
	// Hybrid-HAR's nodes.
	NodeChannels int `toml:"node_channels"`
}

// MeshConfig is the configuration table of a k x k mesh
// ([network.mesh]).
type MeshConfig struct {
	// K is the number of routers per dimension.
	K int `toml:"k"`
	// Concentration is the number of nodes per router.
	Concentration int `toml:"concentration"`
	// NodeChannels is as TorusConfig's.
	NodeChannels int `toml:"node_channels"`
}

// MaxK is the most routers per dimension of a grid.
const MaxK = 1024

// MaxConcentration is the most nodes per router of a mesh.
const MaxConcentration = 60

// Check reports each key of the table out of its range (keys relative
// to the table).
func (c TorusConfig) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	checkK(c.K, add)
	checkNodeChannels(c.NodeChannels, add)
}

// Check reports each key of the table out of its range.
func (c MeshConfig) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	checkK(c.K, add)
	if c.Concentration < 1 || c.Concentration > MaxConcentration {
		add("concentration", c.Concentration, fmt.Sprintf("allowed: 1..%d nodes per router", MaxConcentration))
	}
	checkNodeChannels(c.NodeChannels, add)
}

func checkK(k int, add func(key string, v any, allowed string)) {
	if k < 2 || k > MaxK {
		add("k", k, fmt.Sprintf("allowed: 2..%d routers per dimension", MaxK))
	}
}

func checkNodeChannels(n int, add func(key string, v any, allowed string)) {
	if n < 0 || n > 2 {
		add("node_channels", n, "allowed: 1 (or 0: one channel per node), 2 (an injection and a sink channel per message class: short and long)")
	}
}

// Nodes is the number of nodes; 0 when a size is out of range.
func (c TorusConfig) Nodes() int { return MeshConfig{K: c.K, Concentration: 1}.Nodes() }

// Nodes is the number of nodes; 0 when a size is out of range.
func (c MeshConfig) Nodes() int {
	if c.K < 2 || c.K > MaxK || c.Concentration < 1 || c.Concentration > MaxConcentration {
		return 0
	}
	return c.K * c.K * c.Concentration
}

// Build wires the torus.
func (c TorusConfig) Build() (topology.Topology, error) { return NewTorus(c.K) }

// Build wires the mesh.
func (c MeshConfig) Build() (topology.Topology, error) { return NewMesh(c.K, c.Concentration) }

// NodeChannelCount is the channels per node (NodeChannels, 0 read as 1).
func (c TorusConfig) NodeChannelCount() int { return max(c.NodeChannels, 1) }

// NodeChannelCount is the channels per node (NodeChannels, 0 read as 1).
func (c MeshConfig) NodeChannelCount() int { return max(c.NodeChannels, 1) }

// Name is the network's part of an implied study name: "torus32", or
// "torus" when k is swept.
func (c TorusConfig) Name(swept func(key string) bool) string {
	if swept("k") {
		return "torus"
	}
	return fmt.Sprintf("torus%d", c.K)
}

// Name is the network's part of an implied study name: "mesh8", "mesh8c4"
// with 4 nodes per router, leaving out what is swept.
func (c MeshConfig) Name(swept func(key string) bool) string {
	s := "mesh"
	if !swept("k") {
		s += fmt.Sprint(c.K)
	}
	if c.Concentration > 1 && !swept("concentration") {
		s += fmt.Sprintf("c%d", c.Concentration)
	}
	return s
}

// Words describes the network for a figure's subtitle: "32x32 torus".
func (c TorusConfig) Words() string { return fmt.Sprintf("%dx%d torus", c.K, c.K) }

// Words describes the network: "8x8 mesh (4 nodes per switch)".
func (c MeshConfig) Words() string {
	s := fmt.Sprintf("%dx%d mesh", c.K, c.K)
	if c.Concentration > 1 {
		s += fmt.Sprintf(" (%d nodes per switch)", c.Concentration)
	}
	return s
}

// SizeWords names the keys the network's memory grows with (table is the
// table's key path): "network.torus.k = 32 (1024 routers)".
func (c TorusConfig) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %d (%d routers)", table, c.K, routers)
}

// SizeWords names the keys the network's memory grows with.
func (c MeshConfig) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %d (%d routers) and %s.concentration = %d", table, c.K, routers, table, c.Concentration)
}

// SetSize sets k to size (icnsim bench --sizes); the channel load of
// uniform traffic grows with k, so it returns the factor that keeps it.
func (c *TorusConfig) SetSize(size int) (channelLoadScale float64) {
	scale := float64(c.K) / float64(size)
	c.K = size
	return scale
}

// SetSize sets k to size, as TorusConfig's.
func (c *MeshConfig) SetSize(size int) (channelLoadScale float64) {
	scale := float64(c.K) / float64(size)
	c.K = size
	return scale
}

// KeyDocs documents the table's keys for the default configuration.
func (c TorusConfig) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: fmt.Sprint(c.K), Doc: fmt.Sprintf("routers per dimension (k x k, wrap-around), 2..%d", MaxK)},
		{Key: "node_channels", Value: fmt.Sprint(c.NodeChannels), Doc: nodeChannelsDoc},
	}
}

// KeyDocs documents the table's keys for the default configuration.
func (c MeshConfig) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: fmt.Sprint(c.K), Doc: fmt.Sprintf("routers per dimension (k x k), 2..%d", MaxK)},
		{Key: "concentration", Value: fmt.Sprint(c.Concentration), Doc: fmt.Sprintf("nodes per router, 1..%d", MaxConcentration)},
		{Key: "node_channels", Value: fmt.Sprint(c.NodeChannels), Doc: nodeChannelsDoc},
	}
}

const nodeChannelsDoc = "channels between a node and its router: 1, or 2 for a source queue, injection and sink channel per message class (Hybrid-HAR)"

// Routings are the routing functions of the torus (the grid's).
func (TorusConfig) Routings() []routing.Spec { return Routings() }

// Routings are the routing functions of the mesh (the grid's).
func (MeshConfig) Routings() []routing.Spec { return Routings() }

// GridShape is the grid's routers per dimension, nodes per router, and
// whether it wraps around (a torus), for what is built on grids only.
func (c TorusConfig) GridShape() (k, concentration int, wraps bool) { return c.K, 1, true }

// GridShape is as TorusConfig's.
func (c MeshConfig) GridShape() (k, concentration int, wraps bool) {
	return c.K, c.Concentration, false
}
