package hyperx

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a HyperX ([network.hyperx]): K
// routers in each of Dimensions dimensions. A size written as 0 is left
// out.
type Config struct {
	// K is S, the routers per dimension.
	K int `toml:"k"`
	// Dimensions is L.
	Dimensions int `toml:"dimensions"`
	// Trunking is T, the parallel links between two routers of a line
	// (0: 1).
	Trunking int `toml:"trunking"`
	// NodesPerRouter is p (0: k, the flattened butterfly's k-ary n-flat).
	NodesPerRouter int `toml:"nodes_per_router"`
}

// MaxNodes is the most nodes of a HyperX.
const MaxNodes = 1 << 20

// Params are S, L, T, p with the values left out filled in.
func (c Config) Params() (s, l, t, p int) {
	s, l, t, p = c.K, c.Dimensions, c.Trunking, c.NodesPerRouter
	if t == 0 {
		t = 1
	}
	if p == 0 {
		p = s
	}
	return s, l, t, p
}

// Check reports each key written out of its range, then what they derive
// (keys relative to the table).
func (c Config) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	if !keys.CheckRanges(add,
		keys.IntRange{Key: "k", Value: c.K, Lo: 2, Hi: 64, Allowed: "allowed on a hyperx: 2..64 routers per dimension"},
		keys.IntRange{Key: "dimensions", Value: c.Dimensions, Lo: 1, Hi: 8, Allowed: "allowed: 1..8 dimensions of a hyperx"},
		keys.IntRange{Key: "trunking", Value: c.Trunking, Hi: 8, Allowed: "allowed: 1..8 links between two routers of a line (left out: 1)"},
		keys.IntRange{Key: "nodes_per_router", Value: c.NodesPerRouter, Hi: 32, Allowed: "allowed: 1..32 nodes per router (left out: k, the flattened butterfly's)"}) {
		return
	}
	s, l, t, p := c.Params()
	words := fmt.Sprintf("k = %d, dimensions = %d, trunking = %d%s, nodes_per_router = %d%s", s, l, t, leftOutWord(c.Trunking, "1"), p, leftOutWord(c.NodesPerRouter, "k"))
	switch {
	case p > 32:
		add("k", c.K, fmt.Sprintf("k = %d gives nodes_per_router = k = %d (left out: the flattened butterfly's p = k); allowed: 1..32 nodes per router: set nodes_per_router", s, p))
	case p+l*(s-1)*t > topology.MaxPorts:
		add("k", c.K, fmt.Sprintf("%s: a router has p + dimensions*(k-1)*trunking = %d + %d*%d*%d = %d ports; at most %d", words, p, l, s-1, t, p+l*(s-1)*t, topology.MaxPorts))
	case c.Nodes() > MaxNodes:
		add("dimensions", c.Dimensions, fmt.Sprintf("%s: the hyperx has k^dimensions*p = %d^%d*%d = %d nodes; at most 2^20 = %d", words, s, l, p, c.Nodes(), MaxNodes))
	}
}

// leftOutWord is " (left out: rule)" for a key written as 0, else "".
func leftOutWord(written int, rule string) string {
	if written != 0 {
		return ""
	}
	return " (left out: " + rule + ")"
}

// Nodes is S^L*p; 0 when a size is out of range.
func (c Config) Nodes() int {
	s, l, t, p := c.Params()
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	if !in(s, 2, 64) || !in(l, 1, 8) || !in(t, 1, 8) || !in(p, 1, 64) {
		return 0
	}
	nodes := p
	for range l {
		nodes *= s
	}
	return nodes
}

// Build wires the HyperX.
func (c Config) Build() (topology.Topology, error) {
	s, l, t, p := c.Params()
	return NewHyperX(s, l, t, p)
}

// Name is the network's part of an implied study name: "hyperx1024", or
// "hyperx" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	if swept("k") || swept("dimensions") || swept("nodes_per_router") {
		return "hyperx"
	}
	return fmt.Sprintf("hyperx%d", c.Nodes())
}

// Words describes the network as the topology does.
func (c Config) Words() string { return topology.Describe(c.Build()) }

// SizeWords names the keys the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %d and %s.dimensions = %d (%d routers)", table, c.K, table, c.Dimensions, routers)
}

// LeftOut are the keys whose 0 stands for "left out", with what is
// allowed: written as 0 they are a mistake, not a request for the
// default.
func (Config) LeftOut() map[string]string {
	return map[string]string{
		"nodes_per_router": "allowed: 1..32 nodes per router; leave the key out for the flattened butterfly's p = k",
		"trunking":         "allowed: 1..8 links between two routers of a line; leave the key out for 1",
	}
}

// NonMinimalFamily is what the HyperX offers the shared min, Valiant,
// UGAL and PAR routings (routing.NonMinimalSpecs).
func (Config) NonMinimalFamily() routing.NonMinimalFamily { return NonMinimalFamily() }

// KeyDocs documents the table's keys for the default configuration.
func (c Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: fmt.Sprint(c.K), Doc: "S, routers per dimension, 2..64"},
		{Key: "dimensions", Value: "2", Doc: "L, 1..8 dimensions of k routers"},
		{Key: "trunking", Value: "1", Doc: "T, parallel links between two routers of a line (left out: 1)"},
		{Key: "nodes_per_router", Value: "32", Doc: "p (left out: k, the flattened butterfly's)"},
	}
}
