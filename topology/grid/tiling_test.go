package grid

import (
	"testing"

	"github.com/icnsim/icnsim/fabric"
)

// TestTileGridPlansHold: every plan Tiles makes passes
// actor.NewSchedule's check against the lane graph, on tori and meshes
// of many sizes, with concentration, for one worker and several, and
// blocks are shortened only where the tiles cannot lean further.
func TestTileGridPlansHold(t *testing.T) {
	mesh := func(k, c int) *Grid2D { g, _ := NewMesh(k, c); return g }
	torus := func(k int) *Grid2D { g, _ := NewTorus(k); return g }
	for _, c := range []struct {
		topo              *Grid2D
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
		for _, parts := range []int{1, 2, 3, 16} {
			plan, err := c.topo.Tiles(fabric.First(c.topo), c.steps, c.side, parts)
			if err != nil {
				t.Fatalf("%s, %d steps, side %d, %d parts: %v", c.topo, c.steps, c.side, parts, err)
			}
			sc, err := fabric.Schedule(c.topo, plan)
			if err != nil {
				t.Fatalf("%s, %d steps, side %d, %d parts: %v", c.topo, c.steps, c.side, parts, err)
			}
			if parts > 1 {
				// Checked by NewSchedule; the split into bands is
				// another plan.
				if sc.Parts() != min(parts, c.topo.K) {
					t.Errorf("%s: %d parts, want %d", c.topo, sc.Parts(), parts)
				}
				continue
			}
			if sc.Steps() != c.wantSteps || sc.Pieces() != c.pieces {
				t.Errorf("%s, %d steps, side %d: %d steps over %d pieces, want %d over %d", c.topo, c.steps, c.side, sc.Steps(), sc.Pieces(), c.wantSteps, c.pieces)
			}
		}
	}
}

// TestTileGridNDPlansHold: the plans of n-D tori and meshes (tiles over
// dimensions 0 and 1, whole along the others) pass actor.NewSchedule's
// check, for one worker and several; a ring has none.
func TestTileGridNDPlansHold(t *testing.T) {
	for _, c := range []struct {
		radix       []int
		conc        int
		wrap        bool
		steps, side int
	}{
		{[]int{8, 8, 8}, 1, true, 4, 3},
		{[]int{16, 16, 16}, 1, true, 20, 40},
		{[]int{6, 9, 4}, 2, false, 5, 3},
		{[]int{4, 4, 4, 4, 4}, 1, true, 8, 2},
		{[]int{12, 5, 3}, 1, true, 6, 4},
		{[]int{8, 8}, 1, true, 4, 3}, // two dimensions through the n-D family
	} {
		g, err := NewGridND(c.radix, c.conc, c.wrap)
		if err != nil {
			t.Fatal(err)
		}
		for _, parts := range []int{1, 2, 3} {
			plan, err := g.Tiles(fabric.First(g), c.steps, c.side, parts)
			if err != nil {
				t.Fatalf("%s, %d steps, side %d, %d parts: %v", g, c.steps, c.side, parts, err)
			}
			if _, err := fabric.Schedule(g, plan); err != nil {
				t.Fatalf("%s, %d steps, side %d, %d parts: %v", g, c.steps, c.side, parts, err)
			}
		}
	}
	ring, _ := NewGridND([]int{8}, 1, true)
	if _, err := ring.Tiles(fabric.First(ring), 4, 3, 1); err == nil {
		t.Errorf("%s tiled", ring)
	}
}
