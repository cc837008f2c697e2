package workload

import (
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/icnsim/icnsim/topology"
)

// Placement is how a job's ranks are placed on nodes.
type Placement struct {
	// Kind is one of PlacementNames.
	Kind string
	// First is contiguous's first node.
	First int
	// Seed draws random's nodes.
	Seed uint64
	// Nodes is list's nodes, rank by rank.
	Nodes []int
}

// PlacementDocs describes the placements.
func PlacementDocs() map[string]string {
	return map[string]string{
		"contiguous": "rank r on node first_node + r",
		"random":     "ranks on distinct nodes drawn at random with the seed",
		"spread":     "round robin over the topology's units (a dragonfly's groups, a fat-tree's subtrees, a torus's rows): rank r in unit r mod U, on that unit's next free node",
		"list":       "rank r on nodes[r]",
	}
}

// PlacementNames lists the placements in order.
func PlacementNames() []string { return []string{"contiguous", "random", "spread", "list"} }

// Place is the node of each of ranks ranks on t.
func Place(t topology.Topology, ranks int, pl Placement) ([]int, error) {
	n := t.Nodes()
	if ranks < 1 || ranks > n {
		return nil, fmt.Errorf("ranks = %d: allowed 1..%d (the nodes of the %s)", ranks, n, t)
	}
	nodes := make([]int, ranks)
	switch pl.Kind {
	case "contiguous":
		if pl.First < 0 || pl.First+ranks > n {
			return nil, fmt.Errorf("first_node = %d: %d ranks from it run past the last node %d of the %s (allowed 0..%d)", pl.First, ranks, n-1, t, n-ranks)
		}
		for r := range nodes {
			nodes[r] = pl.First + r
		}
	case "random":
		perm := rand.New(rand.NewPCG(pl.Seed, 0x706c6163)).Perm(n) // "plac"
		copy(nodes, perm[:ranks])
	case "spread":
		units := unitNodes(t)
		next := make([]int, len(units))
		u := 0
		for r := range nodes {
			for next[u] == len(units[u]) {
				u = (u + 1) % len(units)
			}
			nodes[r] = units[u][next[u]]
			next[u]++
			u = (u + 1) % len(units)
		}
	case "list":
		if len(pl.Nodes) != ranks {
			return nil, fmt.Errorf("nodes lists %d nodes for %d ranks", len(pl.Nodes), ranks)
		}
		seen := make(map[int]int, ranks)
		for r, v := range pl.Nodes {
			if v < 0 || v >= n {
				return nil, fmt.Errorf("nodes[%d] = %d: allowed 0..%d (the nodes of the %s)", r, v, n-1, t)
			}
			if s, ok := seen[v]; ok {
				return nil, fmt.Errorf("nodes[%d] = %d: node %d already holds rank %d (one rank per node)", r, v, v, s)
			}
			seen[v] = r
			nodes[r] = v
		}
	default:
		return nil, fmt.Errorf("placement %q: allowed %v", pl.Kind, PlacementNames())
	}
	return nodes, nil
}

// unitNodes is the nodes of each of t's units (Topology.Units: contiguous
// runs of routers), in node order.
func unitNodes(t topology.Topology) [][]int {
	starts := t.Units()
	out := make([][]int, len(starts))
	for node := range t.Nodes() {
		r, _ := t.NodePort(node)
		u := sort.SearchInts(starts, r+1) - 1
		out[u] = append(out[u], node)
	}
	// A unit without nodes (routers of a fat-tree's upper levels) takes no
	// rank.
	kept := out[:0]
	for _, ns := range out {
		if len(ns) > 0 {
			kept = append(kept, ns)
		}
	}
	return kept
}
