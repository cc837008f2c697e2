package dragonfly

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/internal/keys"

	"github.com/icnsim/icnsim/internal/suggest"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a dragonfly ([network.dragonfly]).
// A size written as 0 is left out and takes its balanced value.
type Config struct {
	// RoutersPerGroup is a.
	RoutersPerGroup int `toml:"routers_per_group"`
	// GlobalPerRouter is h (0: a/2).
	GlobalPerRouter int `toml:"global_per_router"`
	// Groups is g (0: a*h + 1).
	Groups int `toml:"groups"`
	// NodesPerRouter is p (0: a/2, the balanced dragonfly's a = 2p = 2h).
	NodesPerRouter int `toml:"nodes_per_router"`
	// GlobalArrangement is palmtree or consecutive (ParseArrangement).
	GlobalArrangement string `toml:"global_arrangement"`
	// GlobalLatencyCycles is the global links' latency (0: the network's,
	// topology.Env's LinkLatencyCycles).
	GlobalLatencyCycles int `toml:"global_latency_cycles"`
	// LocalLatencyCycles is the local links' latency (0: the network's);
	// node links keep the network's (router.link_latency_cycles).
	LocalLatencyCycles int `toml:"local_latency_cycles"`
}

// MaxGroups is the most groups of a dragonfly.
const MaxGroups = 255

// Params are p, a, h, g with the values left out filled in.
func (c Config) Params() (p, a, h, g int) {
	a = c.RoutersPerGroup
	p, h, g = c.NodesPerRouter, c.GlobalPerRouter, c.Groups
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

// Check reports each key of the table out of its range first, then what
// the values left out derive from them, each refusal naming a key the
// user wrote and the values derived from it ("a = 32, h = 16 (left out:
// a/2) give g = a*h+1 = 513 groups"). Keys are relative to the table.
func (c Config) Check(env topology.Env, add func(key string, v any, allowed string)) {
	groupsAllowed := fmt.Sprintf("allowed: 2..%d groups, at most a*h+1 (left out: a*h+1)", MaxGroups)
	ok := keys.CheckRanges(add,
		keys.IntRange{Key: "routers_per_group", Value: c.RoutersPerGroup, Lo: 1, Hi: 64, Allowed: "allowed: 1..64 routers per group (a dragonfly needs it: a = 2p = 2h is the balanced one)"},
		keys.IntRange{Key: "nodes_per_router", Value: c.NodesPerRouter, Hi: 32, Allowed: "allowed: 1..32 nodes per router (left out: routers_per_group/2, balanced)"},
		keys.IntRange{Key: "global_per_router", Value: c.GlobalPerRouter, Hi: 32, Allowed: "allowed: 1..32 global links per router (left out: routers_per_group/2, balanced)"},
		keys.IntRange{Key: "groups", Value: c.Groups, Hi: MaxGroups, Allowed: groupsAllowed})
	bad := func(key string, v any, allowed string) { add(key, v, allowed); ok = false }
	if c.Groups == 1 { // 0 is left out; 1 is no dragonfly
		bad("groups", c.Groups, groupsAllowed)
	}
	if _, err := ParseArrangement(c.GlobalArrangement); err != nil {
		bad("global_arrangement", c.GlobalArrangement, "allowed: palmtree (the default), consecutive"+suggest.DidYouMean(c.GlobalArrangement, ArrangementNames()))
	}
	if c.GlobalLatencyCycles < 0 || c.GlobalLatencyCycles > 1000 {
		bad("global_latency_cycles", c.GlobalLatencyCycles, "allowed: 0 (router.link_latency_cycles) or 1..1000 cycles")
	} else if c.GlobalLatencyCycles > 0 && c.GlobalLatencyCycles < env.LinkLatencyCycles {
		bad("global_latency_cycles", c.GlobalLatencyCycles, fmt.Sprintf("allowed: 0, or at least router.link_latency_cycles (%d), the node links' latency", env.LinkLatencyCycles))
	}
	if c.LocalLatencyCycles < 0 || c.LocalLatencyCycles > 1000 {
		bad("local_latency_cycles", c.LocalLatencyCycles, "allowed: 0 (router.link_latency_cycles) or 1..1000 cycles")
	} else if c.LocalLatencyCycles > 0 && c.LocalLatencyCycles < env.LinkLatencyCycles {
		bad("local_latency_cycles", c.LocalLatencyCycles, fmt.Sprintf("allowed: 0, or at least router.link_latency_cycles (%d), the node links' latency", env.LinkLatencyCycles))
	}
	if !ok {
		return
	}
	// Every value is now small: the products below cannot overflow.
	p, a, h, g := c.Params()
	words := c.words()
	switch {
	case g > a*h+1:
		add("groups", c.Groups, fmt.Sprintf("%s: a group has a*h = %d*%d = %d global links, too few to reach %d other groups: allowed 2..%d (left out: a*h+1)", words, a, h, a*h, g-1, a*h+1))
	case (a*h)%(g-1) != 0:
		add("groups", c.Groups, fmt.Sprintf("%s: the a*h = %d global links of a group must split evenly over the g-1 = %d other groups: allowed g-1 dividing %d", words, a*h, g-1, a*h))
	case g > MaxGroups:
		words, _, _ = strings.Cut(words, ", g =")
		// groups written is at most 255: g was derived, from a and h.
		add("routers_per_group", c.RoutersPerGroup, fmt.Sprintf("%s give g = a*h+1 = %d*%d+1 = %d groups (groups left out); at most %d: set groups (g-1 dividing a*h = %d), or a smaller routers_per_group or global_per_router", words, a, h, g, MaxGroups, a*h))
	case p+a-1+h > topology.MaxPorts:
		add("routers_per_group", c.RoutersPerGroup, fmt.Sprintf("%s: a router has p + a-1 + h = %d + %d + %d = %d ports; at most %d", words, p, a-1, h, p+a-1+h, topology.MaxPorts))
	}
	// p <= 32, a <= 64 and g <= 255 keep the nodes under 2^19.
}

// words says how p, a, h and g came about: "a = 32, p = 16 (left out:
// a/2), h = 16 (left out: a/2), g = 513 (left out: a*h+1)".
func (c Config) words() string {
	p, a, h, g := c.Params()
	left := func(name string, v, written int, rule string) string {
		if written != 0 {
			return fmt.Sprintf("%s = %d", name, v)
		}
		return fmt.Sprintf("%s = %d (left out: %s)", name, v, rule)
	}
	return fmt.Sprintf("a = %d, %s, %s, %s", a, left("p", p, c.NodesPerRouter, "a/2"), left("h", h, c.GlobalPerRouter, "a/2"), left("g", g, c.Groups, "a*h+1"))
}

// Nodes is p*a*g; 0 when a size is out of range.
func (c Config) Nodes() int {
	p, a, h, g := c.Params()
	in := func(v, lo, hi int) bool { return v >= lo && v <= hi }
	if !in(a, 1, 64) || !in(p, 1, 32) || !in(h, 1, 32) || !in(g, 2, 64*32+1) {
		return 0
	}
	return p * a * g
}

// Build wires the dragonfly.
func (c Config) Build() (topology.Topology, error) {
	p, a, h, g := c.Params()
	arr, err := ParseArrangement(c.GlobalArrangement)
	if err != nil {
		return nil, err
	}
	d, err := NewDragonfly(p, a, h, g, arr, c.GlobalLatencyCycles)
	if err != nil {
		return nil, err
	}
	d.LocalLatencyCycles = c.LocalLatencyCycles
	return d, nil
}

// Name is the network's part of an implied study name: "dragonfly1056",
// or "dragonfly" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	if swept("routers_per_group") || swept("nodes_per_router") || swept("global_per_router") || swept("groups") {
		return "dragonfly"
	}
	return fmt.Sprintf("dragonfly%d", c.Nodes())
}

// Words describes the network as the topology does.
func (c Config) Words() string { return topology.Describe(c.Build()) }

// SizeWords names the keys the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.routers_per_group = %d (%s: %d routers)", table, c.RoutersPerGroup, c.words(), routers)
}

// LeftOut are the keys whose 0 stands for "left out", with what is
// allowed: written as 0 they are a mistake (no router has 0 nodes), not
// a request for the balanced value.
func (Config) LeftOut() map[string]string {
	return map[string]string{
		"nodes_per_router":  "allowed: 1..32 nodes per router; leave the key out for the balanced p = routers_per_group/2",
		"global_per_router": "allowed: 1..32 global links per router; leave the key out for the balanced h = routers_per_group/2",
		"groups":            "allowed: 2..a*h+1 groups; leave the key out for g = a*h+1, one global link between every two groups",
	}
}

// NonMinimalFamily is what the dragonfly offers the shared min, Valiant,
// UGAL and PAR routings (routing.NonMinimalSpecs).
func (Config) NonMinimalFamily() routing.NonMinimalFamily { return NonMinimalFamily() }

// KeyDocs documents the table's keys for the default configuration.
func (Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "routers_per_group", Value: "8", Doc: "a, 1..64 routers per group"},
		{Key: "nodes_per_router", Value: "4", Doc: "p (left out: a/2, balanced)"},
		{Key: "global_per_router", Value: "4", Doc: "h, global links per router (left out: a/2, balanced)"},
		{Key: "groups", Value: "33", Doc: "g, 2..a*h+1 with g-1 dividing a*h (left out: a*h+1)"},
		{Key: "global_arrangement", Value: `"palmtree"`, Doc: "palmtree (link k of group G to group G+k+1) or consecutive (BookSim2's)"},
		{Key: "global_latency_cycles", Value: "0", Doc: "latency of the global links (0: router.link_latency_cycles)"},
		{Key: "local_latency_cycles", Value: "0", Doc: "latency of the local links (0: router.link_latency_cycles; node links keep that)"},
	}
}
