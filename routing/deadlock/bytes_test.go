package deadlock

import (
	"context"
	"runtime"
	"testing"

	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
)

// TestCheckBytes: the deadlock check's memory Bytes gives (what the
// footprint estimate counts) covers what the check allocates, everything it allocates counted
// (runtime.MemStats.TotalAlloc, at least its peak): Duato's extended check
// of hybrid-har and har-dor on meshes and tori by at most 10% and 32 KiB
// more,
// and the channel dependency graph of the other routings within 25%
// (their state lists also allocate a little they drop as they go).
func TestCheckBytes(t *testing.T) {
	if raceEnabled {
		t.Skip("measures allocations; run without -race")
	}
	type tc struct {
		topo     topology.Topology
		routing  string
		vcs      int
		min, max float64 // allowed estimate / allocated
	}
	var cs []tc
	for _, k := range []int{32, 64, 128} {
		mesh, _ := grid.NewMesh(k, 1)
		har, _ := withPorts(mesh, "hybrid-har", 2)
		cs = append(cs, tc{har, "hybrid-har", 4, 1, 1.1}, tc{har, "hybrid-har", 3, 1, 1.1}, tc{har, "har-dor", 4, 1, 1.1}, tc{har, "har-dor", 6, 1, 1.1})
	}
	for _, k := range []int{32, 64, 128} {
		torus, _ := grid.NewTorus(k)
		har, _ := withPorts(torus, "hybrid-har", 2)
		cs = append(cs, tc{har, "hybrid-har", 4, 1, 1.1}, tc{har, "hybrid-har", 6, 1, 1.1})
	}
	mesh4, _ := grid.NewMesh(16, 4)
	har4, _ := withPorts(mesh4, "hybrid-har", 2)
	cs = append(cs, tc{har4, "hybrid-har", 4, 1, 1.1})
	for _, k := range []int{64, 128} {
		torus, _ := grid.NewTorus(k)
		mesh, _ := grid.NewMesh(k, 1)
		cs = append(cs, tc{torus, "dor-dateline", 3, 0.8, 1.25}, tc{torus, "duato", 4, 0.8, 1.25}, tc{torus, "min-adaptive", 6, 0.8, 1.25},
			tc{torus, "dor-2class", 4, 0.8, 1.25}, tc{mesh, "dor", 2, 0.8, 1.25})
	}
	for _, n := range []int{5, 6} {
		tree, _ := fattree.NewFatTree(4, n)
		cs = append(cs, tc{tree, "fattree-static", 1, 0.8, 1.25}, tc{tree, "fattree-adaptive", 2, 0.8, 1.25})
	}
	for _, c := range cs {
		rf, err := routing.New(routingNamed(c.routing), c.topo, c.vcs)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := Check(context.Background(), c.topo, rf, c.vcs, true); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		got := float64(after.TotalAlloc - before.TotalAlloc)
		est := Bytes(c.topo, routingNamed(c.routing), c.vcs)
		ratio := float64(est) / got
		t.Logf("%s, %s, %d VCs: estimated %d bytes, allocated %.0f: %.2f", c.topo, c.routing, c.vcs, est, got, ratio)
		if ratio < c.min || float64(est) > c.max*got+32<<10 {
			t.Errorf("%s, %s, %d VCs: the check's memory estimated at %d bytes, %.2f times the %.0f it allocates (allowed %.2f..%.2f, and 32 KiB)",
				c.topo, c.routing, c.vcs, est, ratio, got, c.min, c.max)
		}
	}
}
