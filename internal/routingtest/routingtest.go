// Package routingtest owns what tests of routings and router kinds share:
// the registry of every family's routings (what study's catalog composes,
// which packages below study cannot import) and the mesh or torus with the
// ports of a Hybrid-HAR routing. It may import routing and the topology
// families.
package routingtest

import (
	"testing"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/graph"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// All is every family's routings by name.
func All() map[string]routing.Spec {
	return routing.ByName(grid.Routings(), routing.NonMinimalSpecs(dragonfly.NonMinimalFamily(), hyperx.NonMinimalFamily()), fattree.Routings(), graph.Routings())
}

// Named is routing name's registry entry (the zero Spec with that name
// for none).
func Named(name string) routing.Spec {
	if s, ok := All()[name]; ok {
		return s
	}
	return routing.Spec{Name: name}
}

// HARTopology is a k x k torus (wrap) or mesh with the loopback ports of
// Hybrid-HAR routing name and a channel per message class.
func HARTopology(t testing.TB, k int, wrap bool, name string) *grid.Grid2D {
	t.Helper()
	var g *grid.Grid2D
	if wrap {
		g, _ = grid.NewTorus(k)
	} else {
		g, _ = grid.NewMesh(k, 1)
	}
	w, err := grid.WithPorts(g, Named(name).Loops, 2)
	if err != nil {
		t.Fatal(err)
	}
	return w.(*grid.Grid2D)
}
