package traffic

import (
	"testing"

	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

var (
	_ Grouped = (*dragonfly.Dragonfly)(nil)
	_ Lined   = (*hyperx.HyperX)(nil)
)

// TestGeometryOf: each family's capabilities give the geometry its
// patterns read, and only its own.
func TestGeometryOf(t *testing.T) {
	mesh, _ := grid.NewMesh(6, 3)
	torus, _ := grid.NewTorus(4)
	df, _ := dragonfly.NewDragonfly(2, 4, 2, 9, dragonfly.Palmtree, 0)
	hx, _ := hyperx.NewHyperX(3, 2, 1, 2)
	tree, _ := fattree.NewFatTree(2, 3)
	for _, c := range []struct {
		topo topology.Topology
		want Geometry
	}{
		{mesh, Geometry{Nodes: 108, K: 6, C: 3}},
		{torus, Geometry{Nodes: 16, K: 4, C: 1}},
		{df, Geometry{Nodes: 72, Groups: 9, GroupNodes: 8}},
		{hx, Geometry{Nodes: 18, Line: 3, RouterNodes: 2}},
		{tree, Geometry{Nodes: 8, Groups: 2, GroupNodes: 4}}, // its pods
	} {
		if got := GeometryOf(c.topo); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.topo, got, c.want)
		}
	}
}
