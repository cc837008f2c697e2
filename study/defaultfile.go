package study

import (
	"fmt"
	"strings"

	"github.com/icnsim/icnsim/router"
	"github.com/icnsim/icnsim/traffic"
)

// DefaultTOML is the full default configuration as commented TOML; parsing it
// gives Default() (a test checks this).
func DefaultTOML() string {
	d := Default()
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	var routings, patterns []string
	for _, n := range routingNames() {
		routings = append(routings, fmt.Sprintf("#   %-14s %s", n, router.Routings()[n].Doc))
	}
	for _, n := range traffic.PatternNames() {
		patterns = append(patterns, fmt.Sprintf("#   %-18s %s", n, traffic.Patterns()[n].Doc))
	}
	p("# icnsim configuration: one simulation. Every key is optional; these are the defaults.")
	p("name = %q", d.Name)
	p("seed = %d  # every random choice derives from this seed", d.Seed)
	p("")
	p("[network]")
	p("topology = %q      # torus (k x k, wrap-around), mesh (k x k) or fattree (k-ary n-tree)", d.Network.Topology)
	p("k = %d                  # torus/mesh: routers per dimension, 2..1024; fattree: arity, 2..32", d.Network.K)
	p("levels = %d              # fattree only: n, the number of switch levels (k^n nodes)", d.Network.Levels)
	p("concentration = %d       # nodes per router (mesh only), 1..60", d.Network.Concentration)
	p("")
	p("[router]")
	p("# routing function:")
	p("%s", strings.Join(routings, "\n"))
	p("routing = %q", d.Router.Routing)
	p("vcs = %d                    # virtual channels per port, at least the routing function's minimum, at most 64", d.Router.VCs)
	p("buffer_flits = %d          # buffer depth per VC, flits", d.Router.BufferFlits)
	p("switching = %q           # vct (virtual cut-through: a head advances only if the whole packet fits) or wormhole", d.Router.Switching)
	p("routing_delay_cycles = %d   # cycles from a head's arrival to its earliest departure (0 = one-cycle router)", d.Router.RoutingDelayCycles)
	p("link_latency_cycles = %d    # router-to-router and NI links, >= 1", d.Router.LinkLatencyCycles)
	p("credit_latency_cycles = %d  # credit return, >= 1", d.Router.CreditLatencyCycles)
	p("allow_deadlock = %v      # run even if the channel dependency graph has a cycle (to study deadlock)", d.Router.AllowDeadlock)
	p("")
	p("[traffic]")
	p("# destination pattern:")
	p("%s", strings.Join(patterns, "\n"))
	p("pattern = %q", d.Traffic.Pattern)
	p("# arrival process: bernoulli, poisson (at load_flits_per_node_cycle), saturation (always backlogged),")
	p("# collective (packets_per_node packets queued at cycle 0; the run ends when all are delivered)")
	p("process = %q", d.Traffic.Process)
	p("load_flits_per_node_cycle = %v  # offered load, (0, 1]", d.Traffic.Load)
	p("packets_per_node = %d           # collective burst size", d.Traffic.PacketsPerNode)
	p("packet_flits = %d                # packet length", d.Traffic.PacketFlits)
	p("hotspot_fraction = %v         # hotspot pattern: share of packets to the hot-spot node", d.Traffic.HotspotFraction)
	p("hotspot_node = %d               # -1: the centre node", d.Traffic.HotspotNode)
	p("hot_region_fraction = %v       # hot-region pattern: share of packets to nodes 0..N/8-1", d.Traffic.HotRegionFraction)
	p("phase_cycle = %d                 # > 0: packets generated from this cycle on use phase_pattern", d.Traffic.PhaseCycle)
	p("phase_pattern = %q", d.Traffic.PhasePattern)
	p("")
	p("[policy]")
	p("injection = %q   # injection gate asked before each new packet: none (more with the entropy and SAT issues)", d.Policy.Injection)
	p("")
	p("[measure]")
	p("# steady processes: warm up, then measure packets generated in a window (method = \"window\"),")
	p("# or in batches of batch_cycles until the batch means of throughput and latency are stable")
	p("# (95%% half-width within tolerance of the mean; method = \"batches\"); then drain the measured packets.")
	p("warmup_cycles = %d", d.Measure.WarmupCycles)
	p("measure_cycles = %d", d.Measure.MeasureCycles)
	p("method = %q", d.Measure.Method)
	p("batch_cycles = %d", d.Measure.BatchCycles)
	p("min_batches = %d", d.Measure.MinBatches)
	p("max_batches = %d", d.Measure.MaxBatches)
	p("tolerance = %v", d.Measure.Tolerance)
	p("drain_cycles = %d   # at most this many cycles after the window to deliver measured packets", d.Measure.DrainCycles)
	p("max_cycles = %d   # hard limit on simulated cycles", d.Measure.MaxCycles)
	p("sample_cycles = %d     # time-series period; 0 = no time series", d.Measure.SampleCycles)
	p("# stop, naming the blocked queues, when an input queue holds flits none of which left for this long:")
	p("# a deadlock of all or part of the network, or starvation (raise it for heavily oversubscribed hot spots); 0 = off")
	p("watchdog_cycles = %d", d.Measure.WatchdogCycles)
	return b.String()
}
