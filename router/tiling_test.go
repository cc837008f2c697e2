package router

import (
	"testing"

	"github.com/icnsim/icnsim/link"
)

// refOf lays out actors as the networks do: each router, then its nodes.
func refOf(t link.Topology) []int32 {
	var ref []int32
	per := t.Nodes() / t.Routers()
	for r := 0; r < t.Routers(); r++ {
		ref = append(ref, int32(r))
		for c := 0; c < per; c++ {
			ref = append(ref, int32(-(r*per+c)-1))
		}
	}
	return ref
}

// TestTileGridPlansHold: every plan TileGrid makes passes
// actor.NewSchedule's check against the lane graph, on tori and meshes
// of many sizes, with concentration, for one worker and several, and
// blocks are shortened only where the tiles cannot lean further.
func TestTileGridPlansHold(t *testing.T) {
	mesh := func(k, c int) link.Topology { g, _ := link.NewMesh(k, c); return g }
	torus := func(k int) link.Topology { g, _ := link.NewTorus(k); return g }
	for _, c := range []struct {
		topo              link.Topology
		steps, side       int
		wantSteps, pieces int
	}{
		{torus(2), 8, 40, 2, 4},
		{torus(8), 4, 3, 3, 9},
		{torus(8), 8, 4, 3, 9},
		{torus(9), 5, 4, 3, 9},
		{torus(32), 20, 40, 17, 4},
		{torus(64), 20, 40, 20, 4},
		{torus(100), 20, 40, 20, 9},
		{torus(256), 20, 40, 20, 49},
		{mesh(2, 1), 8, 40, 3, 1},
		{mesh(6, 2), 8, 3, 4, 4},
		{mesh(16, 1), 20, 5, 6, 9},
		{mesh(33, 4), 7, 8, 7, 16},
	} {
		for _, parts := range []int{1, 2} {
			sc, err := TileGrid(c.topo, refOf(c.topo), c.steps, c.side, parts)
			if err != nil {
				t.Fatalf("%s, %d steps, side %d, %d parts: %v", c.topo, c.steps, c.side, parts, err)
			}
			if sc.Steps() != c.wantSteps || sc.Pieces() != c.pieces {
				t.Errorf("%s, %d steps, side %d: %d steps over %d pieces, want %d over %d", c.topo, c.steps, c.side, sc.Steps(), sc.Pieces(), c.wantSteps, c.pieces)
			}
		}
	}
	ft, _ := link.NewFatTree(4, 3)
	if _, err := TileGrid(ft, refOf(ft), 4, 4, 1); err == nil || Tileable(ft) {
		t.Error("a fat-tree was tiled")
	}
}
