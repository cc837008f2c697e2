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
)

// BenchScenarios are the named scenarios of `icnsim bench`.
func BenchScenarios() map[string]Config {
	torus := Default()
	torus.Name = "torus32-uniform"
	torus.Router = Router{Routing: "dor-dateline", VCs: 4, BufferFlits: 16, Switching: "wormhole",
		RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1}
	torus.Traffic.Pattern, torus.Traffic.Process, torus.Traffic.Load = "uniform", "bernoulli", 0.16

	mesh := Default()
	mesh.Name = "mesh8-uniform"
	mesh.Network = Network{Topology: "mesh", K: 8, Concentration: 1}
	mesh.Router = Router{Routing: "dor", VCs: 2, BufferFlits: 8, Switching: "wormhole",
		RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1}
	mesh.Traffic.Pattern, mesh.Traffic.Process, mesh.Traffic.Load = "uniform", "bernoulli", 0.30
	ft := Default()
	ft.Name = "fattree1024-uniform"
	ft.Network = Network{Topology: "fattree", K: 4, Levels: 5, Concentration: 1}
	ft.Router = Router{Routing: "fattree-static", VCs: 1, BufferFlits: 64, Switching: "vct",
		RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1}
	ft.Traffic.Pattern, ft.Traffic.Process, ft.Traffic.Load, ft.Traffic.PacketFlits = "uniform", "bernoulli", 0.4, 16
	return map[string]Config{torus.Name: torus, mesh.Name: mesh, ft.Name: ft}
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
}

// Bench builds cfg, runs warmupCycles untimed and then cycles timed cycles
// with the given executor, and reports the speed.
func Bench(ctx context.Context, cfg Config, exec actor.Kind, workers int, warmupCycles, cycles int64) (BenchResult, error) {
	b, err := Build(ctx, cfg)
	if err != nil {
		return BenchResult{}, err
	}
	acts, units := b.Net.Actors()
	if warmupCycles > 0 {
		if _, err := actor.Run(ctx, exec, workers, actor.Spec{Actors: acts, Units: units, To: clock.Cycle(warmupCycles), Chunk: 1024, Prefetch: b.Net.Prefetcher()}); err != nil {
			return BenchResult{}, err
		}
	}
	before := b.Net.Totals()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	if _, err := actor.Run(ctx, exec, workers, actor.Spec{Actors: acts, Units: units, From: clock.Cycle(warmupCycles),
		To: clock.Cycle(warmupCycles + cycles), Chunk: 1024, Prefetch: b.Net.Prefetcher()}); err != nil {
		return BenchResult{}, err
	}
	sec := time.Since(start).Seconds()
	runtime.ReadMemStats(&ms1)
	after := b.Net.Totals()
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
	routers := b.Net.Topo.Routers()
	return BenchResult{
		Scenario: cfg.Name, Executor: string(exec), Workers: w, Cycles: cycles, Routers: routers, Seconds: sec,
		RouterCyclesPerSec:   float64(routers) * float64(cycles) / sec,
		FlitHopsPerSec:       float64(after.FlitHops-before.FlitHops) / sec,
		PeakRSSBytes:         PeakRSS(),
		AllocsPerCycle:       float64(ms1.Mallocs-ms0.Mallocs) / float64(cycles),
		AcceptedFlitsPerNode: float64(after.FlitsDelivered-before.FlitsDelivered) / float64(cycles) / float64(b.Net.Topo.Nodes()),
		GOMAXPROCS:           runtime.GOMAXPROCS(0),
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

// FormatBytes prints a byte count in MiB.
func FormatBytes(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
