package fattree

import (
	"testing"

	"github.com/icnsim/icnsim/fabric"
)

// TestTileFatTreePlansHold: split tilings of fat-trees of several arities
// and depths, full and tapered, at every split, pass actor.NewSchedule's
// check.
func TestTileFatTreePlansHold(t *testing.T) {
	for _, c := range []struct {
		k, n int
		up   []int
	}{{2, 2, nil}, {2, 6, nil}, {4, 3, nil}, {4, 5, nil}, {3, 4, nil}, {4, 3, []int{2, 4}}, {4, 4, []int{1, 2, 4}}, {6, 4, []int{3, 6, 2}}, {4, 5, []int{4, 2, 4, 1}}} {
		f, err := NewTapered(c.k, c.n, c.up)
		if err != nil {
			t.Fatal(err)
		}
		for split := 1; split < c.n; split++ {
			for _, steps := range []int{1, 2, 3, 6} {
				for _, parts := range []int{1, 2} {
					plan, err := f.TileSplit(fabric.First(f), steps, split, 40, parts)
					if err != nil {
						t.Fatalf("%s split %d, %d steps, %d parts: %v", f, split, steps, parts, err)
					}
					sc, err := fabric.Schedule(f, plan)
					if err != nil {
						t.Fatalf("%s split %d, %d steps, %d parts: %v", f, split, steps, parts, err)
					}
					if sc.Steps() != steps {
						t.Errorf("%s: %d steps, want %d", f, sc.Steps(), steps)
					}
				}
			}
		}
	}
}

// TestTilesSplitsInTheMiddle: the fat-tree's own plan splits at the middle
// level, with blocks no longer than the pods are deep, and refuses a
// one-level tree.
func TestTilesSplitsInTheMiddle(t *testing.T) {
	f, _ := NewFatTree(4, 5)
	plan, err := f.Tiles(fabric.First(f), 8, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Steps != 3 {
		t.Errorf("%s: blocks of %d steps, want 3 (split at level 3)", f, plan.Steps)
	}
	if _, err := fabric.Schedule(f, plan); err != nil {
		t.Error(err)
	}
	one, _ := NewFatTree(4, 1)
	if _, err := one.Tiles(fabric.First(one), 4, 0, 1); err == nil {
		t.Errorf("%s tiled", one)
	}
}
