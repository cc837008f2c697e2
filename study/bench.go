package study

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/clock"
	"github.com/icnsim/icnsim/router/vc"
	"github.com/icnsim/icnsim/topology/dragonfly"
	"github.com/icnsim/icnsim/topology/fattree"
	"github.com/icnsim/icnsim/topology/grid"
	"github.com/icnsim/icnsim/topology/hyperx"
)

// BenchScenarios are the named scenarios of `icnsim bench`.
func BenchScenarios() map[string]Config {
	torus := Default()
	torus.Name = "torus32-uniform"
	torus.Router = Router{Routing: "dor-dateline", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 4, BufferFlits: 16, Switching: "wormhole", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	torus.Traffic.Pattern, torus.Traffic.Process, torus.Traffic.Load = "uniform", "bernoulli", 0.16

	mesh := Default()
	mesh.Name = "mesh8-uniform"
	mesh.Network.Topology, mesh.Network.Mesh = "mesh", grid.MeshConfig{K: grid.Side(8), Concentration: 1}
	mesh.Router = Router{Routing: "dor", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 2, BufferFlits: 8, Switching: "wormhole", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	mesh.Traffic.Pattern, mesh.Traffic.Process, mesh.Traffic.Load = "uniform", "bernoulli", 0.30
	ft := Default()
	ft.Name = "fattree1024-uniform"
	ft.Network.Topology, ft.Network.FatTree = "fattree", fattree.Config{K: 4, Levels: 5}
	ft.Router = Router{Routing: "fattree-static", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	ft.Traffic.Pattern, ft.Traffic.Process, ft.Traffic.Load, ft.Traffic.PacketFlits = "uniform", "bernoulli", 0.4, 16
	// The RECN paper's configuration #1 (16x16 mesh, 64-byte packets of 8
	// flits) at half of twice the bisection bandwidth under uniform
	// traffic, on the VC router (one VC, virtual cut-through, so that each
	// input has one queue) and on the ioq switch with one queue per port:
	// the same mesh and load on the two router kinds; and traffic case #3
	// (a quarter of the sources to node 32) at full load on the switch.
	vc16 := Default()
	vc16.Name = "mesh16-vc-uniform"
	vc16.Network.Topology, vc16.Network.Mesh = "mesh", grid.MeshConfig{K: grid.Side(16), Concentration: 1}
	vc16.Router = Router{Kind: "vc", Routing: "dor", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	vc16.Traffic.Pattern, vc16.Traffic.Process, vc16.Traffic.Load, vc16.Traffic.PacketFlits = "uniform", "bernoulli", 0.125, 8
	ioq16 := vc16
	ioq16.Name = "mesh16-ioq-uniform"
	ioq16.Router = Default().Router
	ioq16.Router.Kind, ioq16.Router.Routing = "ioq", "dor"
	hot16 := ioq16
	hot16.Name = "mesh16-ioq-hotspot"
	hot16.Traffic.Pattern, hot16.Traffic.HotspotNode, hot16.Traffic.Load = "hotspot-sources", 32, 0.25
	// RECN on the same network, traffic case #3 at full load.
	recn16 := hot16
	recn16.Name = "mesh16-recn-hotspot"
	recn16.Router.IOQ.Queues = "recn"
	// The balanced 1,056-node dragonfly (p = 4, a = 8, h = 4, g = 33),
	// global links ten times as long as local ones, 3 VCs of 32 flits
	// (Valiant's classes; a VC covers a global link's credit round trip),
	// uniform traffic at 0.3 flits/node/cycle: minimal routing and UGAL-L.
	df := Default()
	df.Name = "dragonfly1k-uniform"
	df.Network.Topology, df.Network.Dragonfly = "dragonfly", dragonfly.Config{RoutersPerGroup: 8, NodesPerRouter: 4, GlobalPerRouter: 4, GlobalLatencyCycles: 10}
	// Internal speedup 2, as the shipped dragonfly studies.
	df.Router = Router{Routing: "min", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 3, BufferFlits: 32, Switching: "vct", InternalSpeedup: 2, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	df.Traffic.Pattern, df.Traffic.Process, df.Traffic.Load, df.Traffic.PacketFlits = "uniform", "bernoulli", 0.3, 4
	dfUGAL := df
	dfUGAL.Name = "dragonfly1k-ugal-uniform"
	dfUGAL.Router.Routing = "ugal-l"
	// The 1,024-node two-dimensional HyperX of the shipped HyperX studies
	// (16 x 16 routers of radix 34, 4 nodes each, 2 VCs of 32 flits,
	// internal speedup 2), minimal routing, uniform at the dragonflies'
	// 0.3 flits/node/cycle.
	hx := df
	hx.Name = "hyperx1k-uniform"
	hx.Network.Topology, hx.Network.HyperX = "hyperx", hyperx.Config{K: 16, Dimensions: 2, Trunking: 1, NodesPerRouter: 4}
	hx.Network.Dragonfly = dragonfly.Config{}
	hx.Router.VC.VCs = 2
	return map[string]Config{torus.Name: torus, mesh.Name: mesh, ft.Name: ft, vc16.Name: vc16, ioq16.Name: ioq16, hot16.Name: hot16, recn16.Name: recn16,
		df.Name: df, dfUGAL.Name: dfUGAL, hx.Name: hx}
}

// BenchScenarioNames lists the bench scenarios, sorted.
func BenchScenarioNames() []string {
	var names []string
	for n := range BenchScenarios() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// WithSize returns cfg with its network's size set to size: k of a torus
// or mesh, levels of a fat-tree. With sameChannelLoad, the offered load of
// a torus or mesh is scaled by k/size so that every channel carries the
// same load as in cfg under uniform traffic (whose channel load grows
// with k); a fat-tree's is kept (its channel load under uniform traffic
// does not grow with the levels).
func WithSize(cfg Config, size int, sameChannelLoad bool) (Config, error) {
	c := cfg
	t, _ := c.Network.table()
	sz, ok := t.(sized)
	if !ok {
		return c, fmt.Errorf("--sizes: topology %q has no size", c.Network.Topology)
	}
	if scale := sz.SetSize(size); sameChannelLoad {
		c.Traffic.Load = cfg.Traffic.Load * scale
	}
	c.Name = fmt.Sprintf("%s/size-%d", cfg.Name, size)
	if errs := c.Validate(); len(errs) > 0 {
		return c, fmt.Errorf("--sizes %d: %w", size, errs[0])
	}
	return c, nil
}

// BenchResult is one measurement of the simulator's speed.
type BenchResult struct {
	Scenario             string  `json:"scenario"`
	Executor             string  `json:"executor"`
	Workers              int     `json:"workers"`
	Cycles               int64   `json:"cycles"`
	Routers              int     `json:"routers"`
	Seconds              float64 `json:"seconds"`
	RouterCyclesPerSec   float64 `json:"router_cycles_per_second"`
	FlitHopsPerSec       float64 `json:"flit_hops_per_second"`
	PeakRSSBytes         uint64  `json:"peak_rss_bytes"`
	AllocsPerCycle       float64 `json:"allocs_per_cycle"`
	AcceptedFlitsPerNode float64 `json:"accepted_flits_per_node_cycle"`
	GOMAXPROCS           int     `json:"gomaxprocs"`
	// BlockSteps is the cycles of a temporal block, 0 when the run went
	// cycle by cycle.
	BlockSteps int `json:"block_steps"`
	// BuildSeconds is the time to check and build the network;
	// HeapBytesPerRouter the live heap the built network, its collectors
	// and sources hold after the warm-up, per router with its nodes.
	BuildSeconds       float64 `json:"build_seconds"`
	HeapBytesPerRouter float64 `json:"heap_bytes_per_router"`
}

// benchChunk is the cycles between the bench's hook calls (it has none):
// the longest chunk a run has.
const benchChunk = 1024

// Bench builds cfg, runs warmupCycles untimed and then cycles timed cycles
// with opt's executor, workers and blocking (as a run would: BlockingAuto
// blocks a large network), and reports the speed. Other options are
// ignored.
func Bench(ctx context.Context, cfg Config, opt Options, warmupCycles, cycles int64) (BenchResult, error) {
	exec, workers := opt.Exec, opt.Workers
	if exec == "" {
		exec = actor.Shards
	}
	var heap0, heap1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heap0)
	built := time.Now()
	b, err := Build(ctx, cfg)
	if err != nil {
		return BenchResult{}, err
	}
	buildSec := time.Since(built).Seconds()
	acts, units := b.Fabric.Actors()
	sched, err := Schedule(b.Fabric, exec, opt, benchChunk)
	if err != nil {
		return BenchResult{}, err
	}
	if warmupCycles > 0 {
		if _, err := actor.Run(ctx, exec, workers, actor.Spec{Actors: acts, Units: units, To: clock.Cycle(warmupCycles), Chunk: benchChunk, Prefetch: b.Fabric.Prefetcher(), Schedule: sched}); err != nil {
			return BenchResult{}, err
		}
	}
	before := b.Fabric.Totals()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&heap1)
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	if _, err := actor.Run(ctx, exec, workers, actor.Spec{Actors: acts, Units: units, From: clock.Cycle(warmupCycles),
		To: clock.Cycle(warmupCycles + cycles), Chunk: benchChunk, Prefetch: b.Fabric.Prefetcher(), Schedule: sched}); err != nil {
		return BenchResult{}, err
	}
	sec := time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	after := b.Fabric.Totals()
	w := workers
	switch exec {
	case actor.Serial:
		w = 1
	case actor.Actors:
		w = len(acts)
	default:
		if w <= 0 {
			w = runtime.GOMAXPROCS(0)
		}
	}
	routers := b.Fabric.Topology().Routers()
	blockSteps := 0
	if sched != nil {
		blockSteps = sched.Steps()
	}
	return BenchResult{
		Scenario: cfg.Name, Executor: string(exec), Workers: w, BlockSteps: blockSteps, Cycles: cycles, Routers: routers, Seconds: sec,
		RouterCyclesPerSec:   float64(routers) * float64(cycles) / sec,
		FlitHopsPerSec:       float64(after.FlitHops-before.FlitHops) / sec,
		PeakRSSBytes:         PeakRSS(),
		AllocsPerCycle:       float64(ms1.Mallocs-ms0.Mallocs) / float64(cycles),
		AcceptedFlitsPerNode: float64(after.FlitsDelivered-before.FlitsDelivered) / float64(cycles) / float64(b.Fabric.Topology().Nodes()),
		GOMAXPROCS:           runtime.GOMAXPROCS(0),
		BuildSeconds:         buildSec,
		HeapBytesPerRouter:   float64(int64(heap1.HeapAlloc)-int64(heap0.HeapAlloc)) / float64(routers),
	}, nil
}

// PeakRSS is the process's peak resident set size (VmHWM on Linux), or the
// Go runtime's total obtained memory where /proc is not available.
func PeakRSS() uint64 {
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				f := strings.Fields(rest)
				if len(f) == 2 && f[1] == "kB" {
					if kb, err := strconv.ParseUint(f[0], 10, 64); err == nil {
						return kb * 1024
					}
				}
			}
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Sys
}

// FormatBytes prints a byte count in MiB, or GiB from 1 GiB on.
func FormatBytes(b uint64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20 || b == 0:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
}
