package dragonflyplus

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a Dragonfly+
// ([network.dragonflyplus]). A size written as 0 is left out and takes
// its balanced value: a router of radix 2*leaves has as many ports down
// as up, leaves = spines = nodes_per_leaf = global_per_spine, and g =
// spines*h + 1 groups.
type Config struct {
	// Leaves is L, the leaf routers per group.
	Leaves int `toml:"leaves"`
	// Spines is S (0: L).
	Spines int `toml:"spines"`
	// NodesPerLeaf is p (0: S, a leaf's ports half down, half up).
	NodesPerLeaf int `toml:"nodes_per_leaf"`
	// GlobalPerSpine is h (0: L, a spine's ports half down, half global).
	GlobalPerSpine int `toml:"global_per_spine"`
	// Groups is g (0: S*h + 1).
	Groups int `toml:"groups"`
	// GlobalLatencyCycles is the global links' latency (0: the network's).
	GlobalLatencyCycles int `toml:"global_latency_cycles"`
	// LocalLatencyCycles is the latency of the links between leaves and
	// spines (0: the network's); node links keep the network's.
	LocalLatencyCycles int `toml:"local_latency_cycles"`
}

// Params are p, L, S, h, g with the values left out filled in.
func (c Config) Params() (p, l, s, h, g int) {
	l, s, p, h, g = c.Leaves, c.Spines, c.NodesPerLeaf, c.GlobalPerSpine, c.Groups
	if s == 0 {
		s = l
	}
	if p == 0 {
		p = s
	}
	if h == 0 {
		h = l
	}
	if g == 0 {
		g = s*h + 1
	}
	return p, l, s, h, g
}

// Check reports each key out of its range, then what the values left out
// derive from them (keys relative to the table).
func (c Config) Check(env topology.Env, add func(key string, v any, allowed string)) {
	groupsAllowed := fmt.Sprintf("allowed: 2..%d groups, at most spines*global_per_spine+1, with g-1 dividing spines*global_per_spine (left out: spines*global_per_spine+1)", MaxGroups)
	ok := keys.CheckRanges(add,
		keys.IntRange{Key: "leaves", Value: c.Leaves, Lo: 1, Hi: 32, Allowed: "allowed: 1..32 leaf routers per group (a Dragonfly+ needs it)"},
		keys.IntRange{Key: "spines", Value: c.Spines, Hi: 32, Allowed: "allowed: 1..32 spine routers per group (left out: leaves)"},
		keys.IntRange{Key: "nodes_per_leaf", Value: c.NodesPerLeaf, Hi: 32, Allowed: "allowed: 1..32 nodes per leaf (left out: spines)"},
		keys.IntRange{Key: "global_per_spine", Value: c.GlobalPerSpine, Hi: 32, Allowed: "allowed: 1..32 global links per spine (left out: leaves)"},
		keys.IntRange{Key: "groups", Value: c.Groups, Hi: MaxGroups, Allowed: groupsAllowed})
	bad := func(key string, v any, allowed string) { add(key, v, allowed); ok = false }
	if c.Groups == 1 {
		bad("groups", c.Groups, groupsAllowed)
	}
	for _, l := range []struct {
		key    string
		cycles int
	}{{"global_latency_cycles", c.GlobalLatencyCycles}, {"local_latency_cycles", c.LocalLatencyCycles}} {
		if l.cycles < 0 || l.cycles > 1000 {
			bad(l.key, l.cycles, "allowed: 0 (router.link_latency_cycles) or 1..1000 cycles")
		} else if l.cycles > 0 && l.cycles < env.LinkLatencyCycles {
			bad(l.key, l.cycles, fmt.Sprintf("allowed: 0, or at least router.link_latency_cycles (%d), the node links' latency", env.LinkLatencyCycles))
		}
	}
	if !ok {
		return
	}
	_, _, s, h, g := c.Params()
	words := c.words()
	switch {
	case g > s*h+1:
		add("groups", c.Groups, fmt.Sprintf("%s: a group has S*h = %d*%d = %d global links, too few to reach %d other groups: allowed 2..%d (left out: S*h+1)", words, s, h, s*h, g-1, s*h+1))
	case (s*h)%(g-1) != 0:
		add("groups", c.Groups, fmt.Sprintf("%s: the S*h = %d global links of a group must split evenly over the g-1 = %d other groups: allowed g-1 dividing %d", words, s*h, g-1, s*h))
	case g > MaxGroups:
		words, _, _ = strings.Cut(words, ", g =")
		add("leaves", c.Leaves, fmt.Sprintf("%s give g = S*h+1 = %d*%d+1 = %d groups (groups left out); at most %d: set groups (g-1 dividing S*h = %d), or fewer spines or global_per_spine", words, s, h, g, MaxGroups, s*h))
	}
	// The ranges keep a router's ports within topology.MaxPorts (p + S
	// and L + h at most 64) and the nodes under 32*32*255.
}

// words says how p, L, S, h and g came about: "L = 4, S = 4 (left out:
// leaves), p = 4 (left out: spines), h = 4 (left out: leaves), g = 17
// (left out: S*h+1)".
func (c Config) words() string {
	p, l, s, h, g := c.Params()
	left := func(name string, v, written int, rule string) string {
		if written != 0 {
			return fmt.Sprintf("%s = %d", name, v)
		}
		return fmt.Sprintf("%s = %d (left out: %s)", name, v, rule)
	}
	return fmt.Sprintf("L = %d, %s, %s, %s, %s", l, left("S", s, c.Spines, "leaves"), left("p", p, c.NodesPerLeaf, "spines"),
		left("h", h, c.GlobalPerSpine, "leaves"), left("g", g, c.Groups, "S*h+1"))
}

// Nodes is p*L*g; 0 when a size is out of range.
func (c Config) Nodes() int {
	p, l, s, h, g := c.Params()
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	if !in(l, 1, 32) || !in(s, 1, 32) || !in(p, 1, 32) || !in(h, 1, 32) || !in(g, 2, 32*32+1) {
		return 0
	}
	return p * l * g
}

// Build wires the Dragonfly+.
func (c Config) Build() (topology.Topology, error) {
	d, err := New(c.Params())
	if err != nil {
		return nil, err
	}
	d.GlobalLatencyCycles, d.LocalLatencyCycles = c.GlobalLatencyCycles, c.LocalLatencyCycles
	return d, nil
}

// Name is the network's part of an implied study name:
// "dragonflyplus1332", or "dragonflyplus" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	for _, k := range []string{"leaves", "spines", "nodes_per_leaf", "global_per_spine", "groups"} {
		if swept(k) {
			return "dragonflyplus"
		}
	}
	return fmt.Sprintf("dragonflyplus%d", c.Nodes())
}

// Words describes the network as the topology does.
func (c Config) Words() string { return topology.Describe(c.Build()) }

// SizeWords names the keys the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.leaves = %d (%s: %d routers)", table, c.Leaves, c.words(), routers)
}

// LeftOut are the keys whose 0 stands for "left out", with what is
// allowed.
func (Config) LeftOut() map[string]string {
	return map[string]string{
		"spines":           "allowed: 1..32 spines per group; leave the key out for as many as leaves",
		"nodes_per_leaf":   "allowed: 1..32 nodes per leaf; leave the key out for as many as spines",
		"global_per_spine": "allowed: 1..32 global links per spine; leave the key out for as many as leaves",
		"groups":           "allowed: 2..spines*global_per_spine+1 groups; leave the key out for one global link between every two groups",
	}
}

// NonMinimalFamily is what the Dragonfly+ offers the shared min, Valiant
// and UGAL routings (routing.NonMinimalSpecs).
func (Config) NonMinimalFamily() routing.NonMinimalFamily { return NonMinimalFamily() }

// KeyDocs documents the table's keys for the default configuration.
func (Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "leaves", Value: "4", Doc: "L, 1..32 leaf routers per group"},
		{Key: "spines", Value: "4", Doc: "S, spine routers per group, each joined to every leaf (left out: leaves)"},
		{Key: "nodes_per_leaf", Value: "4", Doc: "p (left out: spines, balanced)"},
		{Key: "global_per_spine", Value: "4", Doc: "h, global links per spine (left out: leaves, balanced)"},
		{Key: "groups", Value: "17", Doc: "g, 2..S*h+1 with g-1 dividing S*h (left out: S*h+1)"},
		{Key: "global_latency_cycles", Value: "0", Doc: "latency of the global links (0: router.link_latency_cycles)"},
		{Key: "local_latency_cycles", Value: "0", Doc: "latency of the leaf-spine links (0: router.link_latency_cycles; node links keep that)"},
	}
}
