package router

import (
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
		t.Logf("%s %d VCs: %d channels, e.g. %s", c.routing, c.vcs, len(names)-1, names[0])
	}
}

// TestEscapeDependenciesAfterAdaptiveHops: states reached only through
// adaptive hops count. A packet from (3,7) to (5,1) on an 8x8 torus under
// duato can cross the y dateline adaptively and then escape east across
// x = 4 on VC 2 and continue on VC 2 (found by review).
func TestEscapeDependenciesAfterAdaptiveHops(t *testing.T) {
	torus, _ := link.NewTorus(8)
	rf, _ := NewRouting("duato", torus, 4)
	g := dependencies(torus, rf, 4)
	a := g.channel(torus.Router(3, 1), link.PortXPlus, 2)
	b := g.channel(torus.Router(4, 1), link.PortXPlus, 2)
	if !g.hasEdge(a, b) {
		t.Fatal("R(3,1).E vc2 -> R(4,1).E vc2 missing from the escape dependency graph")
	}
	if err := g.findCycle(); err != nil {
		t.Fatal(err)
	}
}

// TestManyVCs: more than 64 port-VC pairs per router are checked, not refused.
func TestManyVCs(t *testing.T) {
	torus, _ := link.NewTorus(4)
	tree, _ := link.NewFatTree(4, 2)
	for _, c := range []struct {
		topo    link.Topology
		routing string
		vcs     int
	}{{torus, "dor-dateline", 13}, {tree, "fattree-adaptive", 9}, {torus, "min-adaptive", 18}} {
		rf, _ := NewRouting(c.routing, c.topo, c.vcs)
		if err := CheckDeadlockFree(c.topo, rf, c.vcs); err != nil {
			t.Errorf("%s %d VCs: %v", c.routing, c.vcs, err)
		}
	}
	rf, _ := NewRouting("dor", torus, 13)
	if err := CheckDeadlockFree(torus, rf, 13); err == nil {
		t.Error("dor on a torus with 13 VCs accepted")
	}
}
