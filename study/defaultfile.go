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
	p("# collective (packets_per_node packets queued at cycle 0; the run ends when all are delivered),")
	p("# ramp (the ramp-load method: bernoulli at a load rising linearly from 0 to load_flits_per_node_cycle over ramp_cycles)")
	p("process = %q", d.Traffic.Process)
	p("load_flits_per_node_cycle = %v  # offered load, (0, 1]", d.Traffic.Load)
	p("packets_per_node = %d           # collective burst size", d.Traffic.PacketsPerNode)
	p("packet_flits = %d                # packet length", d.Traffic.PacketFlits)
	p("hotspot_fraction = %v         # hotspot pattern: share of packets to the hot-spot node", d.Traffic.HotspotFraction)
	p("hotspot_node = %d               # -1: the centre node", d.Traffic.HotspotNode)
	p("hot_region_fraction = %v       # hot-region pattern: share of packets to nodes 0..N/8-1", d.Traffic.HotRegionFraction)
	p("phase_cycle = %d                 # > 0: packets generated from this cycle on use phase_pattern", d.Traffic.PhaseCycle)
	p("phase_pattern = %q", d.Traffic.PhasePattern)
	p("ramp_cycles = %d          # ramp process: the offered load rises linearly to load_flits_per_node_cycle over this many cycles", d.Traffic.RampCycles)
	p("")
	p("[policy]")
	p("# entropy throttling (Yokota et al.): the injection model of every node, noth (= none), base, hyst, gt.a or gt.x,")
	p("# bare (parameters from the keys below) or with the papers' arguments, e.g. \"base(90,30)\", \"hyst(70,90,30)\",")
	p("# \"gt.x(16,70,90,30)\" (t_G in cycles, thresholds in percent)")
	p("injection = %q", d.Policy.Injection)
	p("r_th_percent = %v     # base: throttle while the mobility ratio R_a = N_a/N_v is below R_th", d.Policy.RthPercent)
	p("r_on_percent = %v     # hyst, gt.a, gt.x: throttling starts when R_a < R_ON ...", d.Policy.ROnPercent)
	p("r_off_percent = %v    # ... and ends when R_a > R_OFF", d.Policy.ROffPercent)
	p("r_n_percent = %v      # forced release while N_v < R_n x (number of routers)", d.Policy.RnPercent)
	p("guard_cycles = %d      # t_G: after each packet, wait t_G cycles (gt.x) or uniform 0..2 t_G (gt.a)", d.Policy.GuardCycles)
	p("circuit = %q      # measurement circuit: auto (grid on a torus or mesh, tree on a fat-tree), grid, tree", d.Policy.Circuit)
	p("circuit_lanes = %q  # dedicated wires, or steal: a register value crosses a link only in cycles it carries no flit", d.Policy.CircuitLanes)
	p("circuit_latency_cycles = %d  # per register hop", d.Policy.CircuitLatencyCycles)
	p("count_injection_buffers = %v  # count the injection ports' buffers in N_v and N_a", d.Policy.CountInjectionBuffers)
	p("measure_circuit = %v  # run the circuit under noth too, for its time series", d.Policy.MeasureCircuit)
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
	p("# collective: stop, not completed, when no flit was injected or delivered for this long with packets left; 0 = off")
	p("stall_cycles = %d", d.Measure.StallCycles)
	p("# ramp process: the critical load is the offered load at the first sample where the accepted throughput,")
	p("# both as moving averages of smooth_samples samples, falls 10%% below the offered load")
	p("smooth_samples = %d", d.Measure.SmoothSamples)
	return b.String()
}
