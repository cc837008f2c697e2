package study

import (
	"math"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/router/vc"
)

// entropyCases are throttled runs that exercise every model, both lane
// modes, both circuit shapes, the ramp process and a phase change.
func entropyCases() []Config {
	return []Config{
		small(func(c *Config) {
			c.Name = "torus-tornado-base-collective"
			c.Policy.Injection = "base(90,30)"
		}),
		small(func(c *Config) {
			c.Name = "torus-bitcomp-hyst-steal-collective"
			c.Traffic.Pattern = "bit-complement"
			c.Policy.Injection, c.Policy.CircuitLanes = "hyst(70,90,30)", "steal"
		}),
		small(func(c *Config) {
			c.Name = "torus-uniform-gta-collective"
			c.Traffic.Pattern = "uniform"
			c.Policy.Injection = "gt.a(8,60,80,10)"
			c.Measure.SampleCycles = 16
		}),
		small(func(c *Config) {
			c.Name = "mesh-c2-hotspot-gtx-steady"
			c.Network = netOf("mesh", "k", 6, "concentration", 2)
			c.Router.Routing, c.Router.VC.VCs = "dor", 2
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.HotspotFraction = "hotspot", "bernoulli", 0.3, 0.1
			c.Policy.Injection, c.Policy.CountInjectionBuffers, c.Policy.CircuitLatencyCycles = "gt.x(4,80,60,5)", true, 2
		}),
		small(func(c *Config) {
			c.Name = "fattree-tree-circuit-hyst-saturation"
			c.Network = netOf("fattree", "k", 4, "levels", 3, "concentration", 1)
			c.Router = Router{Routing: "fattree-adaptive", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
				kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.PacketFlits = "uniform", "saturation", 16
			c.Policy.Injection, c.Policy.CircuitLanes = "hyst(80,90,5)", "steal"
		}),
		small(func(c *Config) {
			c.Name = "torus-ramp-base-phase"
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.RampCycles = "uniform", "ramp", 0.4, 2000
			c.Traffic.PhaseCycle, c.Traffic.PhasePattern = 1000, "hotspot"
			c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles, c.Measure.SampleCycles, c.Measure.SmoothSamples = 0, 2000, 0, 10, 20
			c.Policy.Injection = "base(70,25)"
		}),
	}
}

// TestEntropyDeterminism: with throttling on, every executor and worker
// count gives the same digest, and the gates really throttled.
func TestEntropyDeterminism(t *testing.T) {
	for _, c := range entropyCases() {
		t.Run(c.Name, func(t *testing.T) {
			if r := sameDigestEverywhere(t, c); r.PacketsDelivered == 0 || r.ThrottledNodeCycleShare == 0 {
				t.Fatalf("delivered %d, throttled share %v: nothing to compare", r.PacketsDelivered, r.ThrottledNodeCycleShare)
			}
		})
	}
}

// TestEntropyInvariants runs throttled configurations with the network
// invariants checked after every cycle and delivery checked at the end.
func TestEntropyInvariants(t *testing.T) {
	for _, c := range entropyCases()[:3] {
		r := mustRun(t, c, Options{Exec: actor.Shards, Workers: 2, Checks: true})
		if !r.Completed {
			t.Errorf("%s: not completed", c.Name)
		}
	}
}

// TestCircuitLeavesDataAlone: a circuit that never throttles (noth with the
// circuit measuring, in either lane mode, and hyst with R_ON = 0, which
// never turns on) gives exactly noth's traffic.
func TestCircuitLeavesDataAlone(t *testing.T) {
	base := small(func(c *Config) { c.Traffic.Pattern = "shuffle" })
	want := mustRun(t, base, Options{})
	for _, mod := range []func(*Config){
		func(c *Config) { c.Policy.MeasureCircuit = true },
		func(c *Config) { c.Policy.MeasureCircuit, c.Policy.CircuitLanes = true, "steal" },
		func(c *Config) { c.Policy.Injection = "hyst(0,90,0)" },
	} {
		c := base
		mod(&c)
		got := mustRun(t, c, Options{})
		if got.CollectiveDurationCycles != want.CollectiveDurationCycles || got.Latency != want.Latency || got.ThrottledNodeCycleShare != 0 {
			t.Errorf("%+v: duration %d, latency %+v, throttled %v; noth: %d, %+v", c.Policy, got.CollectiveDurationCycles, got.Latency,
				got.ThrottledNodeCycleShare, want.CollectiveDurationCycles, want.Latency)
		}
	}
}

// TestStallStopsHopelessCollective: hyst with R_OFF = 100 and R_n = 0 can
// never release a node once the network is empty; the run stops as not
// completed, and its duration metric is NaN, which no speed-up can use.
func TestStallStopsHopelessCollective(t *testing.T) {
	c := small(func(c *Config) {
		c.Traffic.Pattern = "bit-complement"
		c.Policy.Injection = "hyst(70,100,0)"
		c.Measure.StallCycles = 3000
	})
	r := mustRun(t, c, Options{})
	if r.Completed || r.CyclesSimulated > 20000 {
		t.Fatalf("completed %v after %d cycles", r.Completed, r.CyclesSimulated)
	}
	for _, m := range metricsOf(r) {
		if m.name == "collective_duration_cycles" && !math.IsNaN(m.v) {
			t.Fatalf("duration of an unfinished collective: %v", m.v)
		}
	}
}

// TestRampCriticalLoad: the ramp process finds a critical load between
// 0.1 and the channel-load bound on a small torus.
func TestRampCriticalLoad(t *testing.T) {
	crit := func(vcs int) float64 {
		c := small(func(c *Config) {
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.RampCycles = "tornado", "ramp", 0.6, 30000
			c.Router.VC.VCs = vcs
			c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles, c.Measure.SampleCycles, c.Measure.SmoothSamples = 0, 30000, 0, 100, 20
		})
		return mustRun(t, c, Options{}).CriticalLoadFlitsPerNodeCycle
	}
	c3 := crit(3)
	// Tornado on an 8x8 torus under DOR: each node's packets cross 4 channels of
	// one ring direction, so the channel-load bound is 1/4 flit/node/cycle.
	if !(c3 > 0.1 && c3 <= 0.25*1.05) {
		t.Fatalf("critical load %v flits/node/cycle, expected (0.1, 0.2625]", c3)
	}
	t.Logf("critical load, tornado 8x8 torus, 3 VCs: %v", c3)
}

func TestPolicyBadInput(t *testing.T) {
	for _, tc := range []struct{ toml, want string }{
		{"[policy]\ninjection = \"hyst(70,90)\"", "policy.injection"},
		{"[policy]\ninjection = \"entropy\"", "unknown injection model"},
		{"[policy]\ninjection = \"base(90,30)\"\nr_th_percent = 50", "not both"},
		{"[policy]\nr_on_percent = 150", "policy.r_on_percent = 150"},
		{"[policy]\ncircuit_lanes = \"shared\"", "policy.circuit_lanes"},
		{"[network]\ntopology = \"fattree\"\n\n[network.fattree]\nk = 4\nlevels = 2\n[router]\nrouting = \"fattree-static\"\nvc.vcs = 1\n[policy]\ncircuit = \"grid\"", "grid circuit needs a torus or mesh"},
		{"[traffic]\nprocess = \"ramp\"\nramp_cycles = 0", "traffic.ramp_cycles"},
	} {
		_, err := Parse("bad.toml", []byte(tc.toml))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "bad.toml:") {
			t.Errorf("%q: error %v, want one naming the file and containing %q", tc.toml, err, tc.want)
		}
	}
}

type namedValue struct {
	name string
	v    float64
}

func metricsOf(r *Result) []namedValue {
	var out []namedValue
	for _, m := range reportMetrics() {
		out = append(out, namedValue{m.Name, m.Value(r)})
	}
	return out
}
