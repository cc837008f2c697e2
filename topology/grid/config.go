package grid

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// TorusConfig is the configuration table of a torus ([network.torus]):
// k x k, or of any number of dimensions.
type TorusConfig struct {
	// K is the number of routers per dimension, or a list of them, one per
	// dimension.
	K Sides `toml:"k"`
	// Dimensions is the number of dimensions of a k given as one number
	// (0: 2). A 2-D grid of equal sides is the Grid2D, with everything
	// built on it (Hybrid-HAR, RECN, the grid circuit, tiling); any other
	// is a GridND.
	Dimensions int `toml:"dimensions"`
	// NodeChannels is the number of channels between a node and its
	// router: 1 (0 means 1), or 2 for a source queue, injection channel
	// and sink channel per message class (short and long), as
	// Hybrid-HAR's nodes.
	NodeChannels int `toml:"node_channels"`
}

// MeshConfig is the configuration table of a mesh ([network.mesh]): k x
// k, or of any number of dimensions.
type MeshConfig struct {
	// K and Dimensions are as TorusConfig's.
	K          Sides `toml:"k"`
	Dimensions int   `toml:"dimensions"`
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
	checkSides(c.K, c.Dimensions, add)
	checkNodeChannels(c.NodeChannels, add)
	if c.NodeChannels > 1 && !isPlane(c.K, c.Dimensions) {
		add("node_channels", c.NodeChannels, "a channel per message class exists on two-dimensional grids of equal sides only")
	}
}

// Check reports each key of the table out of its range.
func (c MeshConfig) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	checkSides(c.K, c.Dimensions, add)
	if c.Concentration < 1 || c.Concentration > MaxConcentration {
		add("concentration", c.Concentration, fmt.Sprintf("allowed: 1..%d nodes per router", MaxConcentration))
	}
	checkNodeChannels(c.NodeChannels, add)
	if c.NodeChannels > 1 && !isPlane(c.K, c.Dimensions) {
		add("node_channels", c.NodeChannels, "a channel per message class exists on two-dimensional grids of equal sides only")
	}
}

// MaxRouters is the most routers of a grid.
const MaxRouters = 1 << 22

// checkSides reports a side out of range, a list and a dimension count
// that disagree, and a grid of too many routers.
func checkSides(k Sides, dims int, add func(key string, v any, allowed string)) {
	if dims < 0 || dims > MaxDimensions || k.IsList() && dims != 0 && dims != len(k.List()) {
		allowed := fmt.Sprintf("allowed: 1..%d (0 or left out: 2)", MaxDimensions)
		if k.IsList() {
			allowed = fmt.Sprintf("k lists %d dimensions: leave dimensions out, or give %d", len(k.List()), len(k.List()))
		}
		add("dimensions", dims, allowed)
		return
	}
	for _, side := range radixOf(k, dims) {
		if side < 2 || side > MaxK {
			add("k", k, fmt.Sprintf("allowed: 2..%d routers per dimension", MaxK))
			return
		}
	}
	if r := routersOf(radixOf(k, dims)); r > MaxRouters {
		add("k", k, fmt.Sprintf("gives %s = %d routers (dimensions = %d); at most 2^22 = %d", sidesWords(radixOf(k, dims)), r, len(radixOf(k, dims)), MaxRouters))
	}
}

// radixOf is the routers of each dimension: the list, or k repeated dims
// times (2 when dims is 0).
func radixOf(k Sides, dims int) []int {
	if k.IsList() {
		return k.List()
	}
	if dims == 0 {
		dims = 2
	}
	r := make([]int, max(0, min(dims, MaxDimensions)))
	for d := range r {
		r[d] = k.K()
	}
	return r
}

// routersOf is the product of sides each in 2..MaxK, stopping past
// MaxRouters (no overflow); 0 when a side is out of range.
func routersOf(radix []int) int {
	n := 1
	for _, k := range radix {
		if k < 2 || k > MaxK {
			return 0
		}
		if n *= k; n > MaxRouters {
			return n
		}
	}
	return n
}

// isPlane reports a grid built as a Grid2D: two dimensions of equal sides.
func isPlane(k Sides, dims int) bool {
	r := radixOf(k, dims)
	return len(r) == 2 && r[0] == r[1] && !k.IsList()
}

func checkNodeChannels(n int, add func(key string, v any, allowed string)) {
	if n < 0 || n > 2 {
		add("node_channels", n, "allowed: 1 (or 0: one channel per node), 2 (an injection and a sink channel per message class: short and long)")
	}
}

// Nodes is the number of nodes; 0 when a size is out of range.
func (c TorusConfig) Nodes() int {
	return MeshConfig{K: c.K, Dimensions: c.Dimensions, Concentration: 1}.Nodes()
}

// Nodes is the number of nodes; 0 when a size is out of range.
func (c MeshConfig) Nodes() int {
	if c.Dimensions < 0 || c.Dimensions > MaxDimensions || c.Concentration < 1 || c.Concentration > MaxConcentration {
		return 0
	}
	r := routersOf(radixOf(c.K, c.Dimensions))
	if r > MaxRouters {
		return 0
	}
	return r * c.Concentration
}

// Build wires the torus: a Grid2D of two equal sides given as one number,
// a GridND otherwise.
func (c TorusConfig) Build() (topology.Topology, error) {
	if isPlane(c.K, c.Dimensions) {
		return NewTorus(c.K.K())
	}
	return NewGridND(radixOf(c.K, c.Dimensions), 1, true)
}

// Build wires the mesh, as TorusConfig's.
func (c MeshConfig) Build() (topology.Topology, error) {
	if isPlane(c.K, c.Dimensions) {
		return NewMesh(c.K.K(), c.Concentration)
	}
	return NewGridND(radixOf(c.K, c.Dimensions), c.Concentration, false)
}

// NodeChannelCount is the channels per node (NodeChannels, 0 read as 1).
func (c TorusConfig) NodeChannelCount() int { return max(c.NodeChannels, 1) }

// NodeChannelCount is the channels per node (NodeChannels, 0 read as 1).
func (c MeshConfig) NodeChannelCount() int { return max(c.NodeChannels, 1) }

// Name is the network's part of an implied study name: "torus32",
// "torus16x16x16", or "torus" when k is swept.
func (c TorusConfig) Name(swept func(key string) bool) string {
	if swept("k") || swept("dimensions") {
		return "torus"
	}
	return "torus" + sideName(c.K, c.Dimensions)
}

// sideName is "32" for a k x k grid, "16x16x16" otherwise.
func sideName(k Sides, dims int) string {
	if isPlane(k, dims) {
		return fmt.Sprint(k.K())
	}
	return sidesWords(radixOf(k, dims))
}

// Name is the network's part of an implied study name: "mesh8", "mesh8c4"
// with 4 nodes per router, leaving out what is swept.
func (c MeshConfig) Name(swept func(key string) bool) string {
	s := "mesh"
	if !swept("k") && !swept("dimensions") {
		s += sideName(c.K, c.Dimensions)
	}
	if c.Concentration > 1 && !swept("concentration") {
		s += fmt.Sprintf("c%d", c.Concentration)
	}
	return s
}

// Words describes the network for a figure's subtitle: "32x32 torus".
func (c TorusConfig) Words() string { return sidesWords(radixOf(c.K, c.Dimensions)) + " torus" }

// Words describes the network: "8x8 mesh (4 nodes per switch)".
func (c MeshConfig) Words() string {
	s := sidesWords(radixOf(c.K, c.Dimensions)) + " mesh"
	if c.Concentration > 1 {
		s += fmt.Sprintf(" (%d nodes per switch)", c.Concentration)
	}
	return s
}

// SizeWords names the keys the network's memory grows with (table is the
// table's key path): "network.torus.k = 32 (1024 routers)".
func (c TorusConfig) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %s%s (%d routers)", table, c.K, dimsWords(table, c.K, c.Dimensions), routers)
}

// dimsWords is ", network.torus.dimensions = 3" where k is one number of
// more or fewer than two dimensions.
func dimsWords(table string, k Sides, dims int) string {
	if k.IsList() || dims == 0 || dims == 2 {
		return ""
	}
	return fmt.Sprintf(" and %s.dimensions = %d", table, dims)
}

// SizeWords names the keys the network's memory grows with.
func (c MeshConfig) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %s%s (%d routers) and %s.concentration = %d", table, c.K, dimsWords(table, c.K, c.Dimensions), routers, table, c.Concentration)
}

// SetSize sets k to size in every dimension (icnsim bench --sizes); the
// channel load of uniform traffic grows with k, so it returns the factor
// that keeps it.
func (c *TorusConfig) SetSize(size int) (channelLoadScale float64) {
	return setSize(&c.K, &c.Dimensions, size)
}

// SetSize sets k to size, as TorusConfig's.
func (c *MeshConfig) SetSize(size int) (channelLoadScale float64) {
	return setSize(&c.K, &c.Dimensions, size)
}

// setSize makes k one number, size, of as many dimensions as before.
func setSize(k *Sides, dims *int, size int) float64 {
	scale := float64(k.K()) / float64(size)
	if k.IsList() {
		*dims = len(k.List())
	}
	k.SetUniform(size)
	return scale
}

// KeyDocs documents the table's keys for the default configuration.
func (c TorusConfig) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: c.K.String(), Doc: fmt.Sprintf("routers per dimension (k x k, wrap-around), 2..%d; a list for one per dimension ([4, 4, 4, 4, 2])", MaxK)},
		{Key: "dimensions", Value: fmt.Sprint(c.Dimensions), Doc: dimensionsDoc},
		{Key: "node_channels", Value: fmt.Sprint(c.NodeChannels), Doc: nodeChannelsDoc},
	}
}

// KeyDocs documents the table's keys for the default configuration.
func (c MeshConfig) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: c.K.String(), Doc: fmt.Sprintf("routers per dimension (k x k), 2..%d; a list for one per dimension ([8, 8, 4])", MaxK)},
		{Key: "dimensions", Value: fmt.Sprint(c.Dimensions), Doc: dimensionsDoc},
		{Key: "concentration", Value: fmt.Sprint(c.Concentration), Doc: fmt.Sprintf("nodes per router, 1..%d", MaxConcentration)},
		{Key: "node_channels", Value: fmt.Sprint(c.NodeChannels), Doc: nodeChannelsDoc},
	}
}

const dimensionsDoc = "dimensions of a k given as one number, 1..8 (0: 2); two equal sides are the 2-D grid that Hybrid-HAR, RECN, the grid circuit and tiling are built on"

const nodeChannelsDoc = "channels between a node and its router: 1, or 2 for a source queue, injection and sink channel per message class (Hybrid-HAR)"

// Routings are the routing functions of the torus (the grid's).
func (TorusConfig) Routings() []routing.Spec { return Routings() }

// Routings are the routing functions of the mesh (the grid's).
func (MeshConfig) Routings() []routing.Spec { return Routings() }

// GridShape is the grid's routers per dimension, nodes per router, and
// whether it wraps around (a torus), for what is built on 2-D grids only;
// ok is false on any other grid.
func (c TorusConfig) GridShape() (k, concentration int, wraps, ok bool) {
	return c.K.K(), 1, true, isPlane(c.K, c.Dimensions)
}

// GridShape is as TorusConfig's.
func (c MeshConfig) GridShape() (k, concentration int, wraps, ok bool) {
	return c.K.K(), c.Concentration, false, isPlane(c.K, c.Dimensions)
}
