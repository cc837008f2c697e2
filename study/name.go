package study

import (
	"fmt"
	"slices"
	"strings"
)

// ImpliedName is the name of a study or configuration file that sets no
// name: its network, traffic pattern and arrival process, as the built-in
// scenario's "torus32-tornado-collective" (torusK, meshK or meshKcC with C
// nodes per router, fattreeN with N nodes), leaving out what an axis
// sweeps ("mesh8-bernoulli" for a mesh whose pattern is swept). It depends
// on the file's contents alone, not on its path, so that the copy of a
// study in its directory (study.toml), its shards and their merge name the
// study alike, and a study's records stay its own.
func ImpliedName(c Config, axes []Axis) string {
	swept := func(key string) bool {
		return slices.ContainsFunc(axes, func(a Axis) bool { return a.Key == key })
	}
	n := c.Network
	var parts []string
	net := n.Topology
	switch {
	case swept("network.topology"):
		net = "network"
	case n.Topology == "torus" && !swept("network.k"):
		net = fmt.Sprintf("torus%d", n.K)
	case n.Topology == "mesh":
		if !swept("network.k") {
			net = fmt.Sprintf("mesh%d", n.K)
		}
		if n.Concentration > 1 && !swept("network.concentration") {
			net += fmt.Sprintf("c%d", n.Concentration)
		}
	case n.Topology == "dragonfly" && !swept("network.routers_per_group") && !swept("network.nodes_per_router") && !swept("network.global_per_router") && !swept("network.groups"):
		net = fmt.Sprintf("dragonfly%d", c.Nodes())
	case n.Topology == "hyperx" && !swept("network.k") && !swept("network.dimensions") && !swept("network.nodes_per_router"):
		net = fmt.Sprintf("hyperx%d", c.Nodes())
	case n.Topology == "fattree" && !swept("network.k") && !swept("network.levels"):
		if nodes, ok := power(n.K, n.Levels); ok {
			net = fmt.Sprintf("fattree%d", nodes)
		}
	}
	parts = append(parts, net)
	if !swept("traffic.pattern") {
		parts = append(parts, c.Traffic.Pattern)
	}
	if !swept("traffic.process") {
		parts = append(parts, c.Traffic.Process)
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "-")
}

// power is k^n when k >= 2, n >= 1 and it stays below a billion (a
// fat-tree's node count; larger, or invalid, values are refused by
// validation, and the name leaves the count out).
func power(k, n int) (int, bool) {
	if k < 2 || n < 1 {
		return 0, false
	}
	p := 1
	for range n {
		p *= k
		if p > 1_000_000_000 {
			return 0, false
		}
	}
	return p, true
}
