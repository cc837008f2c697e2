// Package study owns configurations: the TOML schema and its defaults,
// strict loading and validation (errors name the file, line, key path, bad
// value and what is allowed), building a network from a configuration, and
// running it (Run).
//
// It is the composition root: it may import every layer, and names every
// family, router kind and policy in one catalog file (catalog.go); only
// runner and the command import it.
package study

import (
	"github.com/icnsim/icnsim/router/ioq"
	"github.com/icnsim/icnsim/router/vc"
)

// The configuration's tables each have a file of their own, with their
// struct and validation: config_network.go, config_router.go (the VC
// router), ioq.go (the ioq switch and [router.ioq.recn]), har.go
// ([router.har]), config_traffic.go, config_policy.go (entropy throttling
// and its circuit), config_sat.go, config_measure.go. Validate composes
// them; load.go reads files and words the errors.

// Config is one simulation: network, router, traffic and measurement.
type Config struct {
	Name    string  `toml:"name"`
	Seed    uint64  `toml:"seed"`
	Network Network `toml:"network"`
	Router  Router  `toml:"router"`
	Traffic Traffic `toml:"traffic"`
	// Workload is the job traffic.process = "job" runs.
	Workload Workload `toml:"workload"`
	Policy   Policy   `toml:"policy"`
	Measure  Measure  `toml:"measure"`
}

// addFunc records one problem: the key path, its value and what is allowed.
type addFunc func(key string, v any, allowed string)

// Default is what a file gets for every key it leaves out: a 32x32 torus
// with dimension-order routing and datelines, 3 VCs x 16 flits (BookSim2's
// defaults are powers of two too), under neutral traffic: uniform
// destinations with Bernoulli arrivals at load_flits_per_node_cycle (0.1),
// measured in a window. A file that states a load and nothing else about
// its traffic gets that load, never a burst (BuiltIn is the burst).
// config --default prints it, key by key (DefaultTOML).
func Default() Config {
	return Config{
		Name:    "torus32-uniform-bernoulli",
		Seed:    1,
		Network: defaultNetwork(),
		Router: Router{Kind: "vc", HAR: HAR{Free: "tail-sent"}, Routing: "dor-dateline",
			RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
			kinds: kinds{VC: vc.DefaultTable(), IOQ: ioq.DefaultTable()}},
		Traffic: Traffic{Pattern: "uniform", Process: "bernoulli", Load: 0.1, PacketsPerNode: 10, PacketFlits: 8, Self: "loopback",
			HotspotFraction: 0.02, HotspotSourceFraction: 0.25, HotspotNode: -1, HotRegionFraction: 0.25, RampCycles: 1_000_000, OnCycles: 100, OffCycles: 100,
			RequestFlits: 1, ReplyFlits: 4, MaxOutstanding: 4, ServerQueuePackets: 8, VirtualNetworks: 2},
		Workload: defaultWorkload(),
		Policy: Policy{Injection: "none", RthPercent: 70, ROnPercent: 70, ROffPercent: 90, RnPercent: 25, GuardCycles: 8,
			Circuit: "auto", CircuitLanes: "dedicated", CircuitLatencyCycles: 1, SATHopLatencyCycles: 1, SATNodeLatencyCycles: 1,
			SATL: 16, SATK: 16, SATStructure: "ring"},
		Measure: Measure{WarmupCycles: -1, MeasureCycles: 10000, Method: "window", BatchCycles: 2000,
			MinBatches: 5, MaxBatches: 50, Tolerance: 0.02, DrainCycles: 100000, MaxCycles: 10000000, SampleCycles: 100, WatchdogCycles: 100000,
			StallCycles: 20000, SmoothSamples: 400, PacketBatches: 5, WarmupDetect: "none"},
	}
}

// BuiltIn is the built-in scenario, what icnsim run runs without a file:
// Default's network under a collective burst of 10 eight-flit packets per
// node with tornado destinations, as in the extended entropy paper (whose
// routers have 15-flit buffers; 16 here). The command runs it under
// tornado and, with Traffic.Pattern set, uniform destinations side by side.
func BuiltIn() Config {
	c := Default()
	c.Traffic.Pattern, c.Traffic.Process = "tornado", "collective"
	c.Name = ImpliedName(c, nil)
	return c
}

// Validate checks every value and returns all problems, table by table.
func (c *Config) Validate() []error {
	var errs []error
	add := func(key string, v any, allowed string) { errs = append(errs, rangeErr(key, v, allowed)) }
	c.validateNetwork(add)
	c.validateRouter(add)
	c.validateHAR(add)
	c.validateTraffic(add)
	c.validateWorkload(add)
	c.validateLoadUnits(add)
	c.validatePolicy(add)
	c.validateSAT(add)
	c.validateMeasure(add)
	c.validateCycleBounds(add)
	return errs
}
