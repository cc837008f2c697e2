package workload

import (
	"fmt"
	"math/rand/v2"
	"slices"
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

// PlaceFree is the node of each of ranks ranks on the nodes of t that
// taken (nil: none) does not mark: contiguous takes the first free nodes
// from First on, random draws among the free ones, spread goes round the
// units' free nodes, and a list may name no taken node.
func PlaceFree(t topology.Topology, ranks int, pl Placement, taken []bool) ([]int, error) {
	n := t.Nodes()
	busy := func(v int) bool { return taken != nil && taken[v] }
	free := 0
	for v := range n {
		if !busy(v) {
			free++
		}
	}
	if ranks < 1 || ranks > free {
		if free < n {
			return nil, fmt.Errorf("ranks = %d: allowed 1..%d (the nodes of the %s that the other jobs leave free)", ranks, free, t)
		}
		return nil, fmt.Errorf("ranks = %d: allowed 1..%d (the nodes of the %s)", ranks, n, t)
	}
	nodes := make([]int, 0, ranks)
	switch pl.Kind {
	case "contiguous":
		if pl.First < 0 || pl.First >= n {
			return nil, fmt.Errorf("first_node = %d: allowed 0..%d", pl.First, n-ranks)
		}
		for v := pl.First; v < n && len(nodes) < ranks; v++ {
			if !busy(v) {
				nodes = append(nodes, v)
			}
		}
		if len(nodes) < ranks {
			return nil, fmt.Errorf("first_node = %d: %d ranks from it run past the last node %d of the %s (allowed 0..%d)", pl.First, ranks, n-1, t, n-ranks)
		}
	case "random":
		perm := rand.New(rand.NewPCG(pl.Seed, 0x706c6163)).Perm(n) // "plac"
		for _, v := range perm {
			if len(nodes) < ranks && !busy(v) {
				nodes = append(nodes, v)
			}
		}
	case "spread":
		units := unitNodes(t)
		for u := range units {
			units[u] = slices.DeleteFunc(units[u], busy)
		}
		units = slices.DeleteFunc(units, func(ns []int) bool { return len(ns) == 0 })
		nodes = nodes[:ranks]
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
			if busy(v) {
				return nil, fmt.Errorf("nodes[%d] = %d: another job's rank is on node %d (one rank per node)", r, v, v)
			}
			seen[v] = r
			nodes = append(nodes, v)
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
