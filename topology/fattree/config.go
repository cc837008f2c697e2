package fattree

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a k-ary n-tree
// ([network.fattree]).
type Config struct {
	// K is the arity: a switch has k ports down and k up (radix 2k).
	K int `toml:"k"`
	// Levels is n, the number of switch levels (k^n nodes).
	Levels int `toml:"levels"`
}

// MaxNodes is the most nodes of a fat-tree.
const MaxNodes = 1 << 20

// Check reports each key of the table out of its range (keys relative
// to the table).
func (c Config) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	if c.K < 2 || c.K > 32 {
		add("k", c.K, "allowed on a fattree: arity 2..32 (switch radix 2k)")
	}
	if c.Levels < 1 || c.Levels > 10 {
		add("levels", c.Levels, "allowed: 1..10 levels of a k-ary n-tree")
	} else if nodes := c.Nodes(); nodes > MaxNodes {
		add("levels", c.Levels, fmt.Sprintf("a %d-ary %d-tree has %d nodes; at most 2^20 supported", c.K, c.Levels, nodes))
	}
}

// Nodes is k^n; 0 when a size is out of range.
func (c Config) Nodes() int {
	if c.K < 2 || c.K > 32 || c.Levels < 1 || c.Levels > 10 {
		return 0
	}
	nodes := 1
	for range c.Levels {
		nodes *= c.K
	}
	return nodes
}

// Build wires the tree.
func (c Config) Build() (topology.Topology, error) { return NewFatTree(c.K, c.Levels) }

// Name is the network's part of an implied study name: "fattree1024", or
// "fattree" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	if swept("k") || swept("levels") || c.Nodes() == 0 {
		return "fattree"
	}
	return fmt.Sprintf("fattree%d", c.Nodes())
}

// Words describes the network: "4-ary 5-tree (1024 nodes)".
func (c Config) Words() string {
	return fmt.Sprintf("%d-ary %d-tree (%d nodes)", c.K, c.Levels, c.Nodes())
}

// SizeWords names the keys the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.k = %d and %s.levels = %d (%d switches)", table, c.K, table, c.Levels, routers)
}

// SetSize sets the levels to size (icnsim bench --sizes); the channel
// load of uniform traffic does not grow with them.
func (c *Config) SetSize(size int) (channelLoadScale float64) {
	c.Levels = size
	return 1
}

// KeyDocs documents the table's keys for the default configuration.
func (c Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "k", Value: fmt.Sprint(c.K), Doc: "arity, 2..32 (switch radix 2k)"},
		{Key: "levels", Value: fmt.Sprint(c.Levels), Doc: "n, the number of switch levels (k^n nodes)"},
	}
}

// Routings are the tree's routing functions.
func (Config) Routings() []routing.Spec { return Routings() }

// NodesPerLeaf is the nodes under one leaf switch (k), how per-node
// figures group a tree's nodes.
func (c Config) NodesPerLeaf() int { return c.K }
