package fabric_test

import (
	"testing"

	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// TestTileable: tori, meshes and fat-trees have a temporal-blocking plan
// (fabric.Tiler), dragonflies and HyperX none; First lays out each
// router's actor before its nodes'.
func TestTileable(t *testing.T) {
	torus, _ := grid.NewTorus(4)
	mesh, _ := grid.NewMesh(4, 2)
	tree, _ := fattree.NewFatTree(2, 3)
	df, _ := dragonfly.NewDragonfly(1, 2, 1, 0, dragonfly.Arrangement(0), 0)
	hx, _ := hyperx.NewHyperX(2, 1, 1, 1)
	for _, c := range []struct {
		topo topology.Topology
		want bool
	}{{torus, true}, {mesh, true}, {tree, true}, {df, false}, {hx, false}} {
		if got := fabric.Tileable(c.topo); got != c.want {
			t.Errorf("%s: Tileable %v, want %v", c.topo, got, c.want)
		}
	}
	first := fabric.First(mesh)
	if len(first) != mesh.Routers()+1 || first[0] != 0 || first[1] != 3 || first[mesh.Routers()] != mesh.Routers()+mesh.Nodes() {
		t.Errorf("%s: first actors %v; want each router followed by its 2 nodes", mesh, first)
	}
}
