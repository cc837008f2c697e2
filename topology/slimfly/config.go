package slimfly

import (
	"fmt"

	"github.com/icnsim/icnsim/internal/keys"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
)

// Config is the configuration table of a Slim Fly ([network.slimfly]).
type Config struct {
	// Q is the field's order, a prime power q = 4w + d, d in -1, 0, 1.
	Q int `toml:"q"`
	// NodesPerRouter is p (0: ceil(k'/2), Besta and Hoefler's choice for
	// full global bandwidth, k' = (3q - d)/2 the network radix).
	NodesPerRouter int `toml:"nodes_per_router"`
}

// radix is k' = (3q - d)/2 of q (q mod 4 = 2 has none).
func radix(q int) int {
	d := map[int]int{0: 0, 1: 1, 3: -1}[q%4]
	return (3*q - d) / 2
}

// Params are q and p with p left out filled in.
func (c Config) Params() (q, p int) {
	q, p = c.Q, c.NodesPerRouter
	if p == 0 {
		p = (radix(q) + 1) / 2
	}
	return q, p
}

// Check reports each key out of its range, then what it derives (keys
// relative to the table).
func (c Config) Check(_ topology.Env, add func(key string, v any, allowed string)) {
	qAllowed := "allowed: a prime power 3..41 (3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32, 37, 41): the MMS graph is built over the field of q elements, and q = 43 has routers of 65 network ports"
	ok := keys.CheckRanges(add,
		keys.IntRange{Key: "q", Value: c.Q, Lo: 3, Hi: 41, Allowed: qAllowed},
		keys.IntRange{Key: "nodes_per_router", Value: c.NodesPerRouter, Hi: 32, Allowed: "allowed: 1..32 nodes per router (left out: ceil(k'/2), k' = (3q - d)/2)"})
	if c.Q >= 3 && c.Q <= 41 && !validOrder(c.Q) {
		add("q", c.Q, qAllowed)
		ok = false
	}
	if !ok {
		return
	}
	q, p := c.Params()
	if k := radix(q); p+k > topology.MaxPorts {
		key, v := "q", any(c.Q)
		if c.NodesPerRouter != 0 {
			key, v = "nodes_per_router", c.NodesPerRouter
		}
		add(key, v, fmt.Sprintf("q = %d, p = %d%s: a router has p + k' = %d + %d = %d ports, k' = (3q - d)/2; at most %d", q, p, leftOut(c.NodesPerRouter), p, k, p+k, topology.MaxPorts))
	}
}

// validOrder reports whether q is the order of a field over which the
// MMS graph is built: a prime power, q mod 4 != 2.
func validOrder(q int) bool {
	_, _, ok := primePower(q)
	return ok && q%4 != 2
}

// leftOut is " (left out: ceil(k'/2))" for p written as 0, else "".
func leftOut(written int) string {
	if written != 0 {
		return ""
	}
	return " (left out: ceil(k'/2))"
}

// Nodes is 2q^2 p; 0 when a size is out of range.
func (c Config) Nodes() int {
	q, p := c.Params()
	if q < 3 || q > 41 || !validOrder(q) || p < 1 || p > 32 {
		return 0
	}
	return 2 * q * q * p
}

// Build wires the Slim Fly.
func (c Config) Build() (topology.Topology, error) { return New(c.Params()) }

// Name is the network's part of an implied study name: "slimfly2178",
// or "slimfly" when a size is swept.
func (c Config) Name(swept func(key string) bool) string {
	if swept("q") || swept("nodes_per_router") {
		return "slimfly"
	}
	return fmt.Sprintf("slimfly%d", c.Nodes())
}

// Words describes the network as the topology does.
func (c Config) Words() string { return topology.Describe(c.Build()) }

// SizeWords names the keys the network's memory grows with.
func (c Config) SizeWords(table string, routers int) string {
	return fmt.Sprintf("%s.q = %d (%d routers)", table, c.Q, routers)
}

// LeftOut are the keys whose 0 stands for "left out".
func (Config) LeftOut() map[string]string {
	return map[string]string{
		"nodes_per_router": "allowed: 1..32 nodes per router; leave the key out for ceil(k'/2), k' = (3q - d)/2 the network radix",
	}
}

// NonMinimalFamily is what the Slim Fly offers the shared min, Valiant
// and UGAL routings (routing.NonMinimalSpecs).
func (Config) NonMinimalFamily() routing.NonMinimalFamily { return NonMinimalFamily() }

// KeyDocs documents the table's keys for the default configuration.
func (Config) KeyDocs() []keys.Doc {
	return []keys.Doc{
		{Key: "q", Value: "5", Doc: "the field's order: a prime power 3..41, q = 4w + d (2q^2 routers of network radix (3q - d)/2)"},
		{Key: "nodes_per_router", Value: "4", Doc: "p (left out: ceil(k'/2))"},
	}
}
