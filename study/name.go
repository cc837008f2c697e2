package study

import (
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
	var parts []string
	net := c.Network.Topology
	if swept("network.topology") {
		net = "network"
	} else if t, path := c.Network.table(); t != nil {
		net = t.Name(func(key string) bool { return swept(path + "." + key) })
	}
	parts = append(parts, net)
	switch {
	case c.Traffic.Process == "job":
		// A job's ranks name their peers: its motif stands for the pattern.
		switch {
		case c.Workload.TraceFile != "":
			parts = append(parts, "trace")
		case !swept("workload.motif"):
			parts = append(parts, c.Workload.Motif)
		}
	case !swept("traffic.pattern"):
		parts = append(parts, c.Traffic.Pattern)
	}
	if !swept("traffic.process") {
		parts = append(parts, c.Traffic.Process)
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), "-")
}
