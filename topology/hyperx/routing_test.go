package hyperx

import (
	"testing"

	"github.com/icnsim/icnsim/routing"
)

// TestNonMinimalCapability: the HyperX offers min, val and ugal-l (no
// groups: no UGAL-G, no PAR) with 1, 2 and 2 VC classes, and the shared
// registry entries build its own function.
func TestNonMinimalCapability(t *testing.T) {
	h, err := NewHyperX(4, 2, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"min": 1, "val": 2, "ugal-l": 2}
	specs := routing.NonMinimalSpecs(NonMinimalFamily())
	if len(specs) != len(want) {
		t.Fatalf("%d registry entries, want %d (min, val, ugal-l)", len(specs), len(want))
	}
	for _, s := range specs {
		n, ok := want[s.Name]
		if !ok {
			t.Fatalf("registry entry %s: the HyperX does not offer it", s.Name)
		}
		if got := s.MinVCsFor(h); got != n {
			t.Errorf("%s: %d VC classes, want %d", s.Name, got, n)
		}
		if c, ok := s.New(h, n).(routing.VCClassed); !ok || c.VCClasses() != n {
			t.Errorf("%s: the function built is not the HyperX's of %d classes", s.Name, n)
		}
	}
}
