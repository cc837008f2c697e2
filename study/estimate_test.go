package study

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
)

// TestEstimateMatchesHeap: the memory estimated without building (network,
// collectors, sources, entropy circuit) is within 25% of the heap a built
// network holds after 2,000 cycles below saturation, for tori of several
// sizes, a mesh with concentration, a fat-tree, and a torus with entropy
// throttling.
func TestEstimateMatchesHeap(t *testing.T) {
	if raceEnabled {
		// The race detector's shadow memory changes what this measures
		// (heap and allocations), and makes it take minutes; the plain
		// pass runs it.
		t.Skip("measures memory; run without -race")
	}
	torus := func(k int, load float64) Config {
		c := BenchScenarios()["torus32-uniform"]
		c.Network.K, c.Traffic.Load = k, load
		return c
	}
	mesh := BenchScenarios()["mesh8-uniform"]
	mesh.Network.K, mesh.Network.Concentration, mesh.Traffic.Load = 24, 4, 0.05
	tree := BenchScenarios()["fattree1024-uniform"]
	tree.Traffic.Load = 0.2
	ent := torus(24, 0.1)
	ent.Router.Switching, ent.Router.VCs = "vct", 3
	ent.Policy.Injection = "gt.a(8,70,90,30)"
	for _, c := range []Config{torus(16, 0.2), torus(32, 0.1), torus(64, 0.05), mesh, tree, ent} {
		e, err := EstimateRun(c)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		b, err := Build(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		acts, units := b.Net.Actors()
		if _, err := actor.Run(context.Background(), actor.Serial, 1, actor.Spec{Actors: acts, Units: units, To: clock.Cycle(2000), Chunk: 1000}); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(b)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		est := e.NetworkBytes + e.MeasureBytes + e.PolicyBytes
		ratio := float64(est) / float64(heap)
		t.Logf("%s (%d routers): estimated %d bytes (%.0f per router), heap %d (%.0f per router): %.2f",
			b.Net.Topo, e.Routers, est, float64(est)/float64(e.Routers), heap, float64(heap)/float64(e.Routers), ratio)
		if ratio < 0.8 || ratio > 1.25 {
			t.Errorf("%s: estimate %d bytes is %.2f times the heap %d (allowed 0.8..1.25)", b.Net.Topo, est, ratio, heap)
		}
	}
}

// TestCheckMemory: a run over the limit is refused with the estimate, the
// limit and the keys that drive them; several jobs at once count as many.
func TestCheckMemory(t *testing.T) {
	c := BenchScenarios()["torus32-uniform"]
	c.Network.K = 256
	e, _ := EstimateRun(c)
	limit := MemoryLimit{Bytes: uint64(e.PeakBytes), Why: "a test"}
	if err := CheckMemory(c, 1, limit); err != nil {
		t.Errorf("one run at the limit refused: %v", err)
	}
	err := CheckMemory(c, 2, limit)
	if err == nil {
		t.Fatal("two runs at once over the limit accepted")
	}
	for _, want := range []string{"estimated", "limit of", "a test", "network.k = 256", "router.vcs = 4", "2 runs at once", "--max-memory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if err := CheckMemory(c, 64, MemoryLimit{}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}
