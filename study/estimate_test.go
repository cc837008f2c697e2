package study

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/routing"
	"github.com/icnsim/icnsim/topology/fattree"

	"github.com/icnsim/icnsim/topology/grid"
)

// TestEstimateMatchesHeap: the memory estimated without building (network,
// collectors, sources, entropy circuit) is within 25% of the heap a built
// network holds after 2,000 cycles below saturation, for tori of several
// sizes, a mesh with concentration, a fat-tree, a torus with entropy
// throttling, and a dragonfly with long global links.
func TestEstimateMatchesHeap(t *testing.T) {
	if raceEnabled {
		// The race detector's shadow memory changes what this measures
		// (heap and allocations), and makes it take minutes; the plain
		// pass runs it.
		t.Skip("measures memory; run without -race")
	}
	torus := func(k int, load float64) Config {
		c := BenchScenarios()["torus32-uniform"]
		setLeaf(&c.Network, "k", k)
		c.Traffic.Load = load
		return c
	}
	mesh := BenchScenarios()["mesh8-uniform"]
	mesh.Network.Mesh.K, mesh.Network.Mesh.Concentration, mesh.Traffic.Load = grid.Side(24), 4, 0.05
	tree := BenchScenarios()["fattree1024-uniform"]
	tree.Traffic.Load = 0.2
	ent := torus(24, 0.1)
	ent.Router.VC.Switching, ent.Router.VC.VCs = "vct", 3
	ent.Policy.Injection = "gt.a(8,70,90,30)"
	// A dragonfly whose global links are ten times its local ones: each
	// wire's ring its own length.
	df := BenchScenarios()["dragonfly1k-uniform"]
	df.Network.Dragonfly.GlobalLatencyCycles, df.Router.LinkLatencyCycles, df.Router.CreditLatencyCycles, df.Traffic.Load = 100, 10, 10, 0.1
	for _, c := range []Config{torus(16, 0.2), torus(32, 0.1), torus(64, 0.05), mesh, tree, ent, df} {
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
	setLeaf(&c.Network, "k", 256)
	e, _ := EstimateRun(c)
	limit := MemoryLimit{Bytes: uint64(e.PeakBytes), Why: "a test"}
	if err := CheckMemory(c, 1, limit); err != nil {
		t.Errorf("one run at the limit refused: %v", err)
	}
	err := CheckMemory(c, 2, limit)
	if err == nil {
		t.Fatal("two runs at once over the limit accepted")
	}
	for _, want := range []string{"estimated", "limit of", "a test", "network.torus.k = 256", "router.vc.vcs = 4", "2 runs at once", "--max-memory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if err := CheckMemory(c, 64, MemoryLimit{}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

// TestBuildSecondsEstimate: the build time validate estimates follows the
// time Build takes (the deadlock check included), for every registered
// routing function on every topology it supports (dor on a torus and
// ugal-l-booksim can deadlock: refused), at three sizes: each case's ratio of estimate to
// build time is within a factor of 2 of the median ratio (the estimate's
// shape: linear where the build is, each routing's and topology's cost
// in proportion), and the median within a factor of 3 of 1 (its
// calibration, made on this 2-core machine type on another day: these
// machines drift 10-50% between days and more while the other packages'
// tests share the cores; on 2026-11-29 under the whole suite the ratios
// lay in 0.47..1.08, median 0.67, where a bound of 0.5 on each ratio
// failed). Each build starts after the heap is handed back to the
// operating system (a run builds in a fresh process, whose memory is new)
// and is timed in CPU time of the process (user and system, page faults
// included), the least of three: a loaded machine stretches the elapsed
// time but hardly the CPU time, and on an idle one the two agree within
// 10% (both are logged).
func TestBuildSecondsEstimate(t *testing.T) {
	if raceEnabled {
		t.Skip("times builds; run without -race")
	}
	routings := Routings()
	names := make([]string, 0, len(routings))
	for n := range routings {
		names = append(names, n)
	}
	slices.Sort(names)
	var cases []buildSeconds
	for _, name := range names {
		spec := routings[name]
		for _, topo := range spec.Topologies {
			if name == "dor" && topo == "torus" || name == "ugal-l-booksim" {
				continue // it deadlocks there (BookSim2's phases everywhere): refused
			}
			cases = append(cases, buildSecondsCase(t, name, spec, topo)...)
		}
	}
	ratios := make([]float64, len(cases))
	for i, c := range cases {
		ratios[i] = c.ratio
	}
	slices.Sort(ratios)
	median := ratios[len(ratios)/2]
	t.Logf("%d builds: ratios of estimate to CPU time %.2f..%.2f, median %.2f", len(ratios), ratios[0], ratios[len(ratios)-1], median)
	if median < 1.0/3 || median > 3 {
		t.Errorf("median ratio of estimated to measured build time %.2f: the estimate's calibration is off by more than 3x (allowed 0.33..3)", median)
	}
	for _, c := range cases {
		if rel := c.ratio / median; rel < 0.5 || rel > 2 {
			t.Errorf("%s: estimate / build time %.2f, %.2f of the median %.2f (allowed 0.5..2): its cost is out of proportion", c.name, c.ratio, rel, median)
		}
	}
}

// buildSeconds is one timed build: its case and the ratio of the estimate
// to the CPU time it took.
type buildSeconds struct {
	name  string
	ratio float64
}

// buildSecondsCase is TestBuildSecondsEstimate for one routing function on
// one topology: three sizes of each of its shapes (a HyperX of 2, 3 and 4
// dimensions).
func buildSecondsCase(t *testing.T, name string, spec routing.Spec, topo string) []buildSeconds {
	var out []buildSeconds
	c := BenchScenarios()["torus32-uniform"]
	c.Traffic.Load = 0.01
	c.Router.Routing, c.Router.VC.VCs = name, max(spec.MinVCs, 1)
	c.Network.Topology = topo
	// Sizes whose builds take 20 ms or more: CPU time is counted in
	// scheduler ticks (4 ms where HZ = 250), too coarse for less.
	type shape struct {
		sizes []int
		set   func(c *Config, size int) // sets the network's size
	}
	shapes := []shape{{[]int{96, 144, 192}, func(c *Config, k int) { setLeaf(&c.Network, "k", k) }}}
	switch {
	case topo == "fattree":
		setLeaf(&c.Network, "k", 4)
		shapes = []shape{{[]int{6, 7, 8}, func(c *Config, n int) { setLeaf(&c.Network, "levels", n) }},
			// Tapered 2:1 at the leaves and 4:1 at level 2: fewer switches
			// above, larger trees for the same build time.
			{[]int{7, 8, 9}, func(c *Config, n int) {
				setLeaf(&c.Network, "levels", n)
				r := make([]float64, n-1)
				for l := range r {
					r[l] = 1
				}
				r[0], r[2] = 2, 4
				c.Network.FatTree.Oversubscription = fattree.RatiosOf(r...)
			}}}
	case topo == "dragonfly":
		c.Network = netOf(topo, "concentration", 1, "levels", 3)
		c.Router.VC.VCs = 4
		shapes = []shape{{[]int{12, 16, 20}, func(c *Config, a int) { setLeaf(&c.Network, "routers_per_group", a) }}}
	case topo == "dragonflyplus": // balanced: g = leaves^2 + 1 groups
		c.Network = netOf(topo, "concentration", 1, "levels", 3)
		c.Router.VC.VCs = 3
		shapes = []shape{{[]int{10, 12, 14}, func(c *Config, l int) { setLeaf(&c.Network, "leaves", l) }}}
	case topo == "slimfly": // one node a router: radix k' + 1 <= 64
		c.Network = netOf(topo, "concentration", 1, "levels", 3, "nodes_per_router", 1)
		c.Router.VC.VCs = 4
		shapes = []shape{{[]int{19, 23, 29}, func(c *Config, q int) { setLeaf(&c.Network, "q", q) }}}
	case topo == "hyperx":
		c.Network = netOf(topo, "concentration", 1, "levels", 3)
		c.Router.VC.VCs = 2
		shapes = nil
		setLeaf(&c.Network, "nodes_per_router", 4)
		for _, d := range []struct {
			dims  int
			sizes []int
		}{{2, []int{16, 24, 31}}, {3, []int{10, 13, 16}}, {4, []int{6, 7, 9}}} {
			shapes = append(shapes, shape{d.sizes, func(c *Config, k int) { c.Network.HyperX.Dimensions, c.Network.HyperX.K = d.dims, k }})
		}
	case topo == "file": // binary trees, a node on each router
		c.Network = netOf(topo, "concentration", 1, "levels", 3)
		c.Router.VC.VCs = 18
		sizes := []int{128, 256, 384} // shortest: the search per destination
		if name == "shortest-hops" {
			// More VCs than the diameter: no search, the route tables.
			c.Router.VC.VCs, sizes = 24, []int{1536, 2560, 3584}
		}
		shapes = []shape{{sizes, func(c *Config, n int) { setLeaf(&c.Network, "path", binaryTreeFile(t, n)) }}}
	case spec.Loops != nil: // Hybrid-HAR: the paper's 4 VCs, a channel per class
		c.Router.VC.VCs = 4
		setLeaf(&c.Network, "node_channels", 2)
	case spec.EscapeLevel:
		c.Router.VC.Switching = "vct" // duato under wormhole is refused
	}
	if (topo == "torus" || topo == "mesh") && spec.Loops == nil {
		// The n-D family: three sizes of a 3-D grid, with the VCs of its
		// classes on three dimensions (from k = 16: at k = 12..20 dimension
		// order built in 5-30 ms, where a loaded machine's noise put
		// dor-dateline at k = 20 at 0.48 of the median ratio).
		shapes = append(shapes, shape{[]int{16, 20, 24}, func(c *Config, k int) {
			setLeaf(&c.Network, "k", k)
			setLeaf(&c.Network, "dimensions", 3)
			c.Router.VC.VCs = map[string]int{"dor": 1, "dor-dateline": 4, "dor-2class": 2, "duato": 5, "min-adaptive": 16}[name]
		}})
	}
	for _, sh := range shapes {
		for _, size := range sh.sizes {
			sh.set(&c, size)
			e, err := EstimateRun(c)
			if err != nil {
				t.Fatal(err)
			}
			best, bestCPU := 0.0, 0.0
			for i := 0; i < 3; i++ {
				debug.FreeOSMemory()
				cpu0 := cpuSeconds()
				start := time.Now()
				b, err := Build(context.Background(), c)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if s := time.Since(start).Seconds(); i == 0 || s < best {
					best = s
				}
				if s := cpuSeconds() - cpu0; i == 0 || s < bestCPU {
					bestCPU = s
				}
				runtime.KeepAlive(b)
			}
			ratio := e.BuildSeconds / bestCPU
			what := fmt.Sprintf("%s on a %s of size %d", name, topo, size)
			if topo == "hyperx" {
				what = fmt.Sprintf("%s on a %d-D hyperx of k = %d", name, c.Network.HyperX.Dimensions, size)
			}
			if (topo == "torus" || topo == "mesh") && c.Network.Torus.Dimensions+c.Network.Mesh.Dimensions == 3 {
				what = fmt.Sprintf("%s on a 3-D %s of k = %d", name, topo, size)
			}
			t.Logf("%-40s %6d ports: estimated %.3f s, built in %.3f s of CPU time (%.3f s elapsed): %.2f",
				what, e.Ports, e.BuildSeconds, bestCPU, best, ratio)
			out = append(out, buildSeconds{what, ratio})
		}
	}
	return out
}

// cpuSeconds is the CPU time this process has used, user and system.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// binaryTreeFile writes a topology file of a binary tree of n routers, a
// node on each, and returns its path.
func binaryTreeFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "routers %d\n", n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "node %d\n", i)
	}
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "link %d %d\n", (i-1)/2, i)
	}
	path := filepath.Join(t.TempDir(), fmt.Sprintf("tree%d.txt", n))
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
