package fattree

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
	// Oversubscription tapers the tree: element l is the ratio of down to
	// up ports of the switches of level l (0: the leaves), for each of the
	// n-1 levels below the roots; k divided by it, the level's up ports,
	// must be a whole number. Left out: 1 at every level (a full k-ary
	// n-tree).
	Oversubscription Ratios `toml:"oversubscription,omitempty"`
}

// MaxNodes is the most nodes of a fat-tree.
const MaxNodes = 1 << 20

// Check reports each key of the table out of its range (keys relative
// to the table).
func (c Config) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	if c.K < 2 || c.K > 32 {
		add("k", c.K, "allowed on a fattree: arity 2..32 (switch radix 2k)")
	}
	if c.Levels < 1 || c.Levels > MaxLevels {
		add("levels", c.Levels, fmt.Sprintf("allowed: 1..%d levels of a k-ary n-tree", MaxLevels))
	} else if nodes := c.Nodes(); nodes > MaxNodes {
		add("levels", c.Levels, fmt.Sprintf("a %d-ary %d-tree has %d nodes; at most 2^20 supported", c.K, c.Levels, nodes))
	}
	c.checkOversubscription(add)
}

// checkOversubscription reports a ratio list of the wrong length, or a
// ratio that leaves a level no whole number of up ports.
func (c Config) checkOversubscription(add func(key string, v any, allowed string)) {
	o := c.Oversubscription.List()
	if len(o) == 0 || c.Nodes() == 0 {
		return
	}
	if len(o) != c.Levels-1 {
		add("oversubscription", c.Oversubscription, fmt.Sprintf("one ratio for each of the levels-1 = %d levels below the roots (levels = %d), from the leaves up", c.Levels-1, c.Levels))
		return
	}
	for l, r := range o {
		if u := float64(c.K) / r; !(r >= 1) || u < 1 || u != math.Trunc(u) || c.K%int(u) != 0 {
			add("oversubscription", c.Oversubscription, fmt.Sprintf("level %d's ratio %g gives k/ratio = %d/%g = %.4g up ports; allowed: ratios that leave a whole number of up ports dividing k (with k = %d: %s)", l, r, c.K, r, u, c.K, ratiosOf(c.K)))
			return
		}
	}
}

// ratiosOf lists the oversubscription ratios k allows, k/u for every
// divisor u of k.
func ratiosOf(k int) string {
	var s []string
	for u := k; u >= 1; u-- {
		if k%u == 0 {
			s = append(s, strconv.FormatFloat(float64(k)/float64(u), 'g', 4, 64))
		}
	}
	return strings.Join(s, ", ")
}

// UpPorts is the up ports of each level below the roots, k divided by its
// ratio; nil when the tree is not tapered (the list left out).
func (c Config) UpPorts() []int {
	o := c.Oversubscription.List()
	if len(o) == 0 {
		return nil
	}
	up := make([]int, len(o))
	for l, r := range o {
		up[l] = int(math.Round(float64(c.K) / r))
	}
	return up
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
func (c Config) Build() (topology.Topology, error) { return NewTapered(c.K, c.Levels, c.UpPorts()) }

// tapering names the ratios for names and words ("2:1, 1:1"); empty when
// the tree is not tapered.
func (c Config) tapering(sep string) string {
	tapered := false
	var s []string
	for _, r := range c.Oversubscription.List() {
		tapered = tapered || r != 1
		s = append(s, strconv.FormatFloat(r, 'g', 4, 64))
	}
	if !tapered {
		return ""
	}
	return strings.Join(s, sep)
}

// Name is the network's part of an implied study name: "fattree1024", or
// "fattree" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	if swept("k") || swept("levels") || c.Nodes() == 0 {
		return "fattree"
	}
	name := fmt.Sprintf("fattree%d", c.Nodes())
	if t := c.tapering("-"); t != "" && !swept("oversubscription") {
		name += "-tapered" + t
	}
	return name
}

// Words describes the network: "4-ary 5-tree (1024 nodes)".
func (c Config) Words() string {
	s := fmt.Sprintf("%d-ary %d-tree (%d nodes)", c.K, c.Levels, c.Nodes())
	if t := c.tapering(":1, "); t != "" {
		s = fmt.Sprintf("%d-ary %d-tree tapered %s:1 (%d nodes)", c.K, c.Levels, t, c.Nodes())
	}
	return s
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
		{Key: "oversubscription", Value: "[]", Doc: "tapering: per level below the roots, from the leaves up, the ratio of down to up ports (k/ratio up ports, a whole number); left out: 1 (a full tree)"},
	}
}

// Routings are the tree's routing functions.
func (Config) Routings() []routing.Spec { return Routings() }

// NodesPerLeaf is the nodes under one leaf switch (k), how per-node
// figures group a tree's nodes.
func (c Config) NodesPerLeaf() int { return c.K }
