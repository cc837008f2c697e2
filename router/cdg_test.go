package router

import (
	"fmt"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/link"
)

// TestDeadlockCheck: every shipped routing function passes with its minimum
// VC count; configurations that can deadlock are refused with a cycle.
func TestDeadlockCheck(t *testing.T) {
	torus, _ := link.NewTorus(8)
	torus5, _ := link.NewTorus(5)
	mesh, _ := link.NewMesh(6, 2)
	tree, _ := link.NewFatTree(4, 3)
	topoFor := map[string][]link.Topology{"torus": {torus, torus5}, "mesh": {mesh}, "fattree": {tree}}
	for name, spec := range Routings() {
		for _, kind := range spec.Topologies {
			for _, topo := range topoFor[kind] {
				if name == "dor" && kind == "torus" {
					continue // shipped for meshes; on a torus it is the textbook deadlock
				}
				rf, err := NewRouting(name, topo, spec.MinVCs)
				if err != nil {
					t.Fatal(err)
				}
				if err := CheckDeadlockFree(topo, rf, spec.MinVCs); err != nil {
					t.Errorf("%s on %s with %d VCs: %v", name, topo, spec.MinVCs, err)
				}
			}
		}
	}
	for _, c := range []struct {
		routing string
		topo    link.Topology
		vcs     int
	}{
		{"dor", torus, 1}, {"dor", torus, 4}, {"dor-dateline", torus, 1}, {"dor-dateline", torus, 2},
		{"min-adaptive", torus, 5}, {"min-adaptive", torus, 4}, {"min-adaptive", torus, 3}, {"min-adaptive", torus, 1},
	} {
		rf, _ := NewRouting(c.routing, c.topo, c.vcs)
		err := CheckDeadlockFree(c.topo, rf, c.vcs)
		if err == nil || !strings.Contains(err.Error(), "channel dependency cycle") || strings.Count(err.Error(), " -> ") < 2 {
			t.Errorf("%s on %s with %d VCs: got %v, want a printed cycle", c.routing, c.topo, c.vcs, err)
			continue
		}
		// The cycle closes on its first channel.
		names := strings.Split(strings.TrimPrefix(err.Error(), "channel dependency cycle: "), " -> ")
		if names[0] != names[len(names)-1] {
			t.Errorf("%s: cycle does not close: %v", c.routing, names)
		}
		t.Log(fmt.Sprintf("%s %d VCs: %d channels, e.g. %s", c.routing, c.vcs, len(names)-1, names[0]))
	}
}
