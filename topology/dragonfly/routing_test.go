package dragonfly

import (
	"testing"

	"github.com/icnsim/icnsim/routing"
)

// TestNonMinimalCapability: the dragonfly offers every non-minimal mode
// with its VC classes (global hops taken; PAR's extra local class;
// BookSim2's three phases), and
// the shared registry entries build its own function.
func TestNonMinimalCapability(t *testing.T) {
	d, err := NewDragonfly(2, 4, 2, 9, Palmtree, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[routing.NonMinMode]int{routing.ModeMin: 2, routing.ModeVAL: 3, routing.ModeUGALL: 3, routing.ModeUGALG: 3, routing.ModePAR: 4, routing.ModeUGALLBookSim: 3}
	specs := routing.NonMinimalSpecs(NonMinimalFamily())
	if len(specs) != len(want) {
		t.Fatalf("%d registry entries, want %d", len(specs), len(want))
	}
	for _, s := range specs {
		m := routing.ModeMin
		for m.String() != s.Name {
			m++
		}
		if got := s.MinVCsFor(d); got != want[m] {
			t.Errorf("%s: %d VC classes, want %d", s.Name, got, want[m])
		}
		f := s.New(d, want[m])
		if c, ok := f.(routing.VCClassed); !ok || c.VCClasses() != want[m] {
			t.Errorf("%s: the function built is not the dragonfly's of %d classes", s.Name, want[m])
		}
		if s.ClassVCs != nil && s.ClassVCs(d, want[m]-1) == nil {
			t.Errorf("%s: %d VCs accepted, one fewer than its classes", s.Name, want[m]-1)
		}
	}
}

// TestMinimalExtraCycles: a minimal route crosses a global link only
// between groups, and adds its latency beyond the local links'.
func TestMinimalExtraCycles(t *testing.T) {
	d, _ := NewDragonfly(2, 4, 2, 9, Palmtree, 10)
	perGroup := d.P * d.A
	for _, c := range []struct {
		src, dst, want int
	}{{0, 1, 0}, {0, perGroup - 1, 0}, {0, perGroup, 9}, {perGroup*3 + 1, 2, 9}} {
		if got := d.MinimalExtraCycles(c.src, c.dst, 1); got != c.want {
			t.Errorf("node %d to %d: %d extra cycles, want %d", c.src, c.dst, got, c.want)
		}
	}
	if got := d.MaxMinimalExtraCycles(1); got != 9 {
		t.Errorf("MaxMinimalExtraCycles = %d, want 9", got)
	}
	same, _ := NewDragonfly(2, 4, 2, 9, Palmtree, 0)
	if same.MinimalExtraCycles(0, perGroup, 1) != 0 || same.MaxMinimalExtraCycles(1) != 0 {
		t.Error("global links of the network's latency add something")
	}
}
