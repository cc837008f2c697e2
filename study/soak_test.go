package study

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/icnsim/icnsim/actor"
	"github.com/icnsim/icnsim/fabric"
	"github.com/icnsim/icnsim/router/ioq"
)

var soak = flag.Bool("soak", false, "run the soak test: every routing, queue organisation and policy at load 1.0 for 1,000,000 cycles")

// The soak's run: a million cycles, of which the first tenth is the
// warm-up, invariants checked every thousand cycles, and the heap allowed
// to grow from the warm-up to the end by what the source queues explain
// plus a fixed slack.
const (
	soakCycles     = 1_000_000
	soakWarmup     = 100_000
	soakCheckEvery = 1000
	soakWatchdog   = 10_000
	soakSlackBytes = 8 << 20
)

// soakCase is one configuration of the soak, with the labels of its table
// row.
type soakCase struct {
	mechanism, routing, queues string
	cfg                        Config
}

// soakBase is a 4x4 torus under uniform Bernoulli traffic at 1.0
// flits/node/cycle, measured by a window of soakCycles in all with the
// watchdog on: a deadlock ends the run with a WatchdogError.
func soakBase() Config {
	c := Default()
	c.Seed = 1
	c.Network = netOf("torus", "k", 4, "levels", 3, "concentration", 1, "node_channels", 1)
	c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits, c.Router.VC.Switching = "dor-dateline", 3, 16, "vct"
	c.Traffic.Pattern, c.Traffic.Process, c.Traffic.Load, c.Traffic.PacketFlits = "uniform", "bernoulli", 1.0, 8
	c.Measure.Method = "window"
	c.Measure.WarmupCycles, c.Measure.MeasureCycles = soakWarmup, soakCycles-soakWarmup
	c.Measure.MaxCycles, c.Measure.DrainCycles = soakCycles, 0
	c.Measure.SampleCycles, c.Measure.WatchdogCycles = 10_000, soakWatchdog
	return c
}

// soakCases are the configurations of the soak: every routing function
// (on both switchings where it applies), every queue organisation of the
// ioq switch, every entropy injection model, SAT on its ring and its
// tree, RECN under a hot spot and the Hybrid-HAR routings with their long
// and short messages. All are deadlock free (Build's channel-dependency
// check refuses any that is not).
func soakCases() []soakCase {
	var cases []soakCase
	add := func(mechanism, queues string, mod func(c *Config)) {
		c := soakBase()
		mod(&c)
		if queues == "" {
			queues = c.Router.VC.Switching
		}
		n := c.Network
		t, _ := n.table()
		network := t.Words()
		routing := fmt.Sprintf("%s (%s)", c.Router.Routing, network)
		c.Name = fmt.Sprintf("%s/%s-%s/%s", mechanism, c.Router.Routing, n.Topology, queues)
		cases = append(cases, soakCase{mechanism: mechanism, routing: routing, queues: queues, cfg: c})
	}
	// switching sets VCT with whole-packet buffers, or wormhole with
	// buffers of half a packet.
	switching := func(c *Config, sw string) {
		c.Router.VC.Switching = sw
		if sw == "wormhole" {
			c.Router.VC.BufferFlits = c.Traffic.PacketFlits / 2
		}
	}
	for _, sw := range []string{"vct", "wormhole"} {
		add("routing", "", func(c *Config) {
			c.Network.Topology, c.Router.Routing, c.Router.VC.VCs = "mesh", "dor", 2
			switching(c, sw)
		})
		for _, r := range []struct {
			name string
			vcs  int
		}{{"dor-dateline", 3}, {"min-adaptive", 6}, {"duato", 4}, {"dor-2class", 4}} {
			if r.name == "duato" && sw == "wormhole" {
				continue // refused: an adaptive VC could hold two packets (Build)
			}
			add("routing", "", func(c *Config) {
				c.Router.Routing, c.Router.VC.VCs = r.name, r.vcs
				switching(c, sw)
			})
		}
		for _, r := range []string{"fattree-static", "fattree-adaptive"} {
			add("routing", "", func(c *Config) {
				c.Network = netOf("fattree", "k", 4, "levels", 2) // 16 nodes
				c.Router.Routing, c.Router.VC.VCs = r, 2
				switching(c, sw)
			})
		}
	}
	// Hybrid-HAR and its DOR baseline: wormhole, 4 VCs (5 on a torus: two
	// upper), routing delay 2, a source queue and channels per class,
	// 32-flit short and 256-flit long messages, half the volume long.
	for _, r := range []struct{ topo, routing string }{{"mesh", "hybrid-har"}, {"mesh", "har-dor"}, {"torus", "hybrid-har"}} {
		add("HAR", "", func(c *Config) {
			c.Network = netOf(r.topo, "k", c.Network.Torus.K.K(), "node_channels", 2)
			c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits, c.Router.VC.Switching, c.Router.RoutingDelayCycles = r.routing, 4, 8, "wormhole", 2
			if r.topo == "torus" {
				c.Router.VC.VCs = 5
			}
			c.Traffic.PacketFlits, c.Traffic.LongPacketFlits, c.Traffic.LongVolumePercent = 32, 256, 50
		})
	}
	// The ioq switch's queue organisations on a mesh (its deadlock-free
	// topology), and RECN where it matters: a hot spot that a quarter of
	// the sources send everything to.
	for _, q := range ioq.Orgs() {
		add("queues", q, func(c *Config) {
			c.Network.Topology = "mesh"
			c.Router = Default().Router
			c.Router.Kind, c.Router.Routing, c.Router.IOQ.Queues = "ioq", "dor", q
		})
	}
	add("RECN", "recn hot spot", func(c *Config) {
		c.Network.Topology = "mesh"
		c.Router = Default().Router
		c.Router.Kind, c.Router.Routing, c.Router.IOQ.Queues = "ioq", "dor", "recn"
		c.Traffic.Pattern, c.Traffic.HotspotSourceFraction = "hotspot-sources", 0.25
	})
	// Entropy throttling: every injection model with the extended paper's
	// parameters on its torus (dor-dateline, 3 VCs, routing delay 0), in
	// both switchings; the circuit measured under noth; the circuit's lanes
	// stealing idle link cycles; and every model on the fat-tree, whose
	// circuit is a tree.
	models := []string{"base(80,80)", "hyst(90,80,80)", "gt.a(8,90,80,80)", "gt.x(8,90,80,80)"}
	for _, sw := range []string{"vct", "wormhole"} {
		for _, inj := range append([]string{"noth"}, models...) {
			label := "entropy " + inj
			if inj == "noth" {
				label += ", circuit measured"
			}
			add(label, "", func(c *Config) {
				c.Router.RoutingDelayCycles = 0
				c.Policy.Injection, c.Policy.MeasureCircuit = inj, inj == "noth"
				switching(c, sw)
			})
		}
	}
	add("entropy hyst(90,80,80), stolen lanes", "", func(c *Config) {
		c.Router.RoutingDelayCycles = 0
		c.Policy.Injection, c.Policy.CircuitLanes = "hyst(90,80,80)", "steal"
	})
	for _, inj := range models {
		add("entropy "+inj, "", func(c *Config) {
			c.Network = netOf("fattree", "k", 4, "levels", 2)
			c.Router.Routing, c.Router.VC.VCs = "fattree-adaptive", 2
			c.Policy.Injection = inj
		})
	}
	// SAT on the 16-node fat-tree (the fairness paper's network, smaller)
	// over its ring and its tree, both routings, and on the torus's ring.
	for _, r := range []string{"fattree-static", "fattree-adaptive"} {
		for _, inj := range []string{"sat(16,16,ring)", "sat(16,16,tree)"} {
			add("SAT "+inj, "", func(c *Config) {
				c.Network = netOf("fattree", "k", 4, "levels", 2)
				c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits, c.Traffic.PacketFlits = r, 1, 64, 16
				c.Policy.Injection = inj
			})
		}
	}
	for _, inj := range []string{"sat(16,16,ring)", "sat(16,16,tree)"} {
		add("SAT "+inj, "", func(c *Config) { c.Policy.Injection = inj })
	}
	return cases
}

// TestSoak runs every configuration of soakCases for a million cycles at
// full load with the invariants checked every thousand cycles, and fails
// on a deadlock (the watchdog), an invariant violation, or heap growth
// after the warm-up that the source queues do not explain. It prints a
// markdown table row per configuration. Run it with -soak (README.md,
// "Soak test").
func TestSoak(t *testing.T) {
	if !*soak {
		t.Skip("the soak test runs only with -soak: go test ./study -run TestSoak -soak -v -timeout 60m")
	}
	t.Logf("| mechanism | routing | queues/switching | cycles | invariant checks | heap at warm-up (MiB) | heap at end (MiB) | queued packets at end | unexplained growth (MiB) | wall seconds |")
	t.Logf("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, sc := range soakCases() {
		t.Run(sc.cfg.Name, func(t *testing.T) { soakOne(t, sc) })
	}
}

const mib = 1 << 20

func soakOne(t *testing.T, sc soakCase) {
	start := time.Now()
	b, err := Build(context.Background(), sc.cfg)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	// A packet waiting at its source costs a Packet in the NI's source
	// queue ring, or a descriptor in the ioq adapter's admission pool; both
	// double when full and never shrink, so they hold at most twice what
	// is queued at their peak.
	perPacket := uint64(unsafe.Sizeof(fabric.Packet{}))
	if b.Cfg.Router.Kind == "ioq" {
		perPacket = uint64(ioq.QueuedPacketBytes)
	}
	var (
		checks         int
		warm, end      uint64
		peak           uint64
		queued         uint64
		warmSeen, endS bool
		ms             runtime.MemStats
	)
	opt := Options{Exec: actor.Serial, CheckEveryCycles: soakCheckEvery, OnCheck: func(cycle int64) {
		checks++
		if cycle == soakWarmup || cycle == soakCycles {
			runtime.GC()
		}
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
		switch cycle {
		case soakWarmup:
			warm, warmSeen = ms.HeapAlloc, true
		case soakCycles:
			end, endS = ms.HeapAlloc, true
			queued = b.Fabric.Totals().SourceQueued
		}
	}}
	res, err := b.Run(context.Background(), opt)
	wall := time.Since(start).Seconds()
	if err != nil {
		var we *WatchdogError
		if errors.As(err, &we) {
			t.Fatalf("deadlock after %d checks: %v", checks, err)
		}
		t.Fatalf("after %d checks: %v", checks, err)
	}
	if res.CyclesSimulated != soakCycles {
		t.Errorf("ran %d cycles, want %d", res.CyclesSimulated, soakCycles)
	}
	if checks != soakCycles/soakCheckEvery {
		t.Errorf("%d invariant checks, want %d", checks, soakCycles/soakCheckEvery)
	}
	if !warmSeen || !endS {
		t.Fatalf("no heap sample at the warm-up (%v) or at the end (%v)", warmSeen, endS)
	}
	explained := 2 * queued * perPacket
	unexplained := float64(int64(end)-int64(warm)) - float64(explained)
	t.Logf("| %s | %s | %s | %d | %d | %.2f | %.2f | %d | %.2f | %.1f |", sc.mechanism, sc.routing, sc.queues, res.CyclesSimulated, checks,
		float64(warm)/mib, float64(end)/mib, queued, unexplained/mib, wall)
	if unexplained > soakSlackBytes {
		t.Errorf("the heap grew from %.2f MiB at the warm-up to %.2f MiB at the end (peak %.2f MiB): %.2f MiB more than the %d queued packets explain (2 x %d bytes each) and the %d MiB slack",
			float64(warm)/mib, float64(end)/mib, float64(peak)/mib, unexplained/mib, queued, perPacket, soakSlackBytes/mib)
	}
}
