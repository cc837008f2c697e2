package study

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/policies/sat"
	"github.com/icnsim/icnsim/router/vc"
)

// fatTree64 is the fairness paper's network: a 4-ary 3-tree, no VCs,
// 16-flit packets, 4-packet input queues, at full load, measured by the
// paper's packet-batches method (with smaller batches, for tests).
func fatTree64(mod func(*Config)) Config {
	c := Default()
	c.Network = netOf("fattree", "k", 4, "levels", 3, "concentration", 1)
	c.Router = Router{Routing: "fattree-static", RoutingDelayCycles: 1, LinkLatencyCycles: 1, CreditLatencyCycles: 1,
		kinds: kinds{VC: vc.Table{VCs: 1, BufferFlits: 64, Switching: "vct", InternalSpeedup: 1, SwitchAllocationCycles: 1, ISLIPIterations: 1}}}
	c.Traffic.Process, c.Traffic.PacketFlits, c.Traffic.Pattern = "saturation", 16, "uniform"
	c.Measure.Method, c.Measure.WarmupCycles, c.Measure.DrainCycles = "packet-batches", 3000, 0
	c.Measure.BatchPackets, c.Measure.PacketBatches = 2048, 2
	mod(&c)
	return c
}

// satCases run SAT on a fat-tree, a torus and a mesh, over the ring and
// the tree, each with nodes actually starving.
func satCases() []Config {
	return []Config{
		fatTree64(func(c *Config) {
			c.Name, c.Traffic.Pattern, c.Policy.Injection = "fattree-hotregion-ring", "hot-region", "sat(12,16,ring)"
		}),
		fatTree64(func(c *Config) {
			c.Name, c.Router.Routing, c.Traffic.Pattern, c.Policy.Injection = "fattree-shuffle-tree", "fattree-adaptive", "shuffle", "sat(2,3,tree)"
		}),
		small(func(c *Config) {
			c.Name = "torus-tornado-ring"
			setLeaf(&c.Network, "k", 6)
			c.Traffic.Pattern, c.Traffic.Process = "tornado", "saturation"
			c.Policy.Injection = "sat(8,8,ring)"
			c.Measure.SampleCycles = 50
		}),
		small(func(c *Config) {
			c.Name = "torus-hotspot-tree-bernoulli"
			setLeaf(&c.Network, "k", 5)
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.HotspotFraction = "hotspot", "bernoulli", 0.6, 0.2
			c.Policy.Injection, c.Policy.SATHopLatencyCycles, c.Policy.SATNodeLatencyCycles = "sat(3,4,tree)", 2, 2
		}),
		small(func(c *Config) {
			c.Name = "mesh-c2-transpose-ring"
			c.Network = netOf("mesh", "k", 4, "concentration", 2)
			c.Router.Routing, c.Router.VC.VCs = "dor", 2
			c.Traffic.Pattern, c.Traffic.Process = "transpose", "saturation"
			c.Policy.Injection = "sat"
			c.Policy.SATL, c.Policy.SATK = 4, 6
		}),
	}
}

// TestSATDeterminism: with SAT on, every executor and worker count gives
// the same digest, on a fat-tree and on grids, over the ring and the tree,
// and nodes really starved (held the signal) and waited at their quota.
func TestSATDeterminism(t *testing.T) {
	for _, c := range satCases() {
		t.Run(c.Name, func(t *testing.T) {
			r := sameDigestEverywhere(t, c)
			if r.SAT == nil || r.SAT.StarvedNodeCycleShare == 0 || r.SAT.WaitingNodeCycleShare == 0 || r.SAT.Intervals == 0 {
				t.Fatalf("SAT %+v: no starvation or waiting to compare", r.SAT)
			}
		})
	}
}

// TestSATProtocolInvariants runs SAT with every invariant checked after
// every cycle: the network's, no node over its quota k in an interval, and
// the signal conserved (one on the ring; one consistent wave in the tree).
func TestSATProtocolInvariants(t *testing.T) {
	for _, c := range satCases() {
		c.Measure.BatchPackets, c.Measure.PacketBatches = 512, 1
		c.Measure.WarmupCycles = min(c.Measure.WarmupCycles, 1000)
		b, err := Build(context.Background(), c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Run(context.Background(), Options{Exec: actor.Shards, Workers: 2, Checks: true}); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		s, ok := Installed[*sat.Protocol](b)
		if !ok {
			t.Fatalf("%s: SAT is not installed", c.Name)
		}
		var maxCounts, starved uint64
		for _, g := range s.Gates {
			if int(g.MaxCount) > s.Params.K {
				t.Errorf("%s: a node started %d packets in one interval, k = %d", c.Name, g.MaxCount, s.Params.K)
			}
			maxCounts += uint64(g.MaxCount)
			starved += g.HeldCycles
			if g.Receptions < 1 {
				t.Errorf("%s: a node received the signal %d times", c.Name, g.Receptions)
			}
		}
		if maxCounts == 0 || starved == 0 {
			t.Errorf("%s: nothing injected (%d) or no starvation (%d): the checks saw no protocol at work", c.Name, maxCounts, starved)
		}
	}
}

// TestSATFairnessLEqualsK: with l = k the minimum and maximum node
// throughput agree within 1% at saturation on every pattern of the
// paper's Fig. 3, static and adaptive, on the 64-node tree (a shorter run
// than the paper's: 120,000 packets, about 1,900 per node, l = k = 8; a
// node's count differs from another's by at most k at each end of the
// window, 2 x 8 / 1,900 < 1%).
func TestSATFairnessLEqualsK(t *testing.T) {
	if raceEnabled {
		t.Skip("twelve long saturation runs: without -race")
	}
	for _, routing := range []string{"fattree-static", "fattree-adaptive"} {
		for _, pat := range []string{"uniform", "transpose", "butterfly", "bit-reverse", "shuffle", "hot-region"} {
			c := fatTree64(func(c *Config) {
				c.Name = routing + "-" + pat
				c.Router.Routing, c.Traffic.Pattern, c.Policy.Injection = routing, pat, "sat(8,8,ring)"
				c.Measure.BatchPackets, c.Measure.PacketBatches = 120_000, 1
			})
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				r := mustRun(t, c, Options{Exec: actor.Serial})
				s := r.PerNodeInjected
				if s.Min <= 0 || (s.Max-s.Min)/s.Max > 0.01 {
					t.Errorf("node throughput min %.4f max %.4f avg %.4f: differ by %.2f%% (want < 1%%); SAT %+v",
						s.Min, s.Max, s.Mean, 100*(s.Max-s.Min)/s.Max, *r.SAT)
				}
			})
		}
	}
}

// TestSATLeavesDataLanesAlone: the signal travels on its own lanes and
// takes nothing from the data lanes: a SAT that never binds (l = k = 10^6:
// no node reaches its quota, and the one starved node holding the signal
// may inject freely) leaves every packet exactly as without SAT: the
// result without its SAT fields has the digest of the run without SAT.
func TestSATLeavesDataLanesAlone(t *testing.T) {
	for _, c := range []Config{
		fatTree64(func(c *Config) { c.Traffic.Pattern = "hot-region"; c.Router.Routing = "fattree-adaptive" }),
		small(func(c *Config) {
			c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load = "uniform", "bernoulli", 0.4
		}),
	} {
		base := mustRun(t, c, Options{Exec: actor.Serial})
		for _, sat := range []string{"sat(1000000,1000000,ring)", "sat(1000000,1000000,tree)"} {
			c.Policy.Injection = sat
			r := mustRun(t, c, Options{Exec: actor.Serial})
			if r.SAT == nil || r.SAT.WaitingNodeCycleShare != 0 {
				t.Fatalf("%s: SAT %+v", sat, r.SAT)
			}
			r.SAT, r.Injection = nil, ""
			for i := range r.Series {
				r.Series[i].SAT = nil
			}
			if r.Digest() != base.Digest() {
				t.Errorf("%s on %s: digest %s, without SAT %s", sat, c.Network.Topology, r.Digest(), base.Digest())
			}
		}
	}
}

// TestSATBadInput: invalid SAT settings give one clear error naming the key.
func TestSATBadInput(t *testing.T) {
	for _, c := range []struct{ toml, want string }{
		{"[policy]\ninjection = \"sat(16,12,ring)\"", "policy.injection = \"sat(16,12,ring)\": sat: l = 16 > k = 12"},
		{"[policy]\ninjection = \"sat(0,4)\"", "allowed 1 <= l <= k"},
		{"[policy]\ninjection = \"sat\"\nsat_l = 5\nsat_k = 4", "l = 5 > k = 4"},
		{"[policy]\ninjection = \"sat(2,2)\"\nsat_l = 4", "either as arguments here or in the sat_l"},
		{"[policy]\nsat_structure = \"star\"", "policy.sat_structure = \"star\": allowed: ring"},
		{"[policy]\nsat_hop_latency_cycles = 0", "policy.sat_hop_latency_cycles = 0"},
		{"[network]\ntopology = \"mesh\"\n\n[network.mesh]\nk = 5\n[router]\nrouting = \"dor\"\n[policy]\ninjection = \"sat(2,2,ring)\"", "a 5x5 mesh has none"},
		{"[measure]\nmethod = \"packet-batches\"\n[traffic]\nprocess = \"collective\"", "not a collective"},
		{"[measure]\nmethod = \"packet-batches\"\npacket_batches = 0\n[traffic]\nprocess = \"saturation\"", "measure.packet_batches = 0"},
		{"[measure]\nbatch_packets = -1", "measure.batch_packets = -1"},
	} {
		_, err := Parse("bad.toml", []byte(c.toml))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one containing %q", c.toml, err, c.want)
			continue
		}
		if n := strings.Count(err.Error(), "\n") + 1; n != 1 {
			t.Errorf("%q: %d errors, want one:\n%v", c.toml, n, err)
		}
	}
}

// ExampleRun_sat runs SAT on the fairness paper's 64-node fat-tree.
func ExampleRun_sat() {
	c := fatTree64(func(c *Config) {
		c.Traffic.Pattern, c.Policy.Injection = "hot-region", "sat(16,16,ring)"
	})
	r, err := Run(context.Background(), c, Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d batches, idle interval %d cycles\n", r.Injection, len(r.Batches), r.SAT.IdleIntervalCycles)
	// Output: sat(16,16,ring): 2 batches, idle interval 232 cycles
}

// TestSATBesideMeasuredCircuit: the entropy circuit measured beside SAT
// (policy.measure_circuit) gates nothing, so SAT's run is the same with it
// as without, on the ring and the tree: the circuit's router planes are
// installed beside SAT's, not in their place (they once replaced them, the
// signal stopped at the first switch and no interval closed).
func TestSATBesideMeasuredCircuit(t *testing.T) {
	for _, c := range satCases()[:2] {
		t.Run(c.Name, func(t *testing.T) {
			plain, err := Run(context.Background(), c, Options{Exec: actor.Serial})
			if err != nil {
				t.Fatal(err)
			}
			c.Policy.MeasureCircuit = true
			measured, err := Run(context.Background(), c, Options{Exec: actor.Serial})
			if err != nil {
				t.Fatal(err)
			}
			if measured.SAT == nil || measured.SAT.Intervals == 0 || *measured.SAT != *plain.SAT {
				t.Errorf("SAT with the circuit measured %+v, without %+v", measured.SAT, plain.SAT)
			}
			if measured.Latency != plain.Latency || measured.AcceptedFlitsPerNodeCycle != plain.AcceptedFlitsPerNodeCycle || measured.Injection != plain.Injection {
				t.Errorf("with the circuit measured: latency %+v, accepted %v, %s; without: %+v, %v, %s", measured.Latency,
					measured.AcceptedFlitsPerNodeCycle, measured.Injection, plain.Latency, plain.AcceptedFlitsPerNodeCycle, plain.Injection)
			}
		})
	}
}
