package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/icnsim/icnsim/internal/graphfile"
)

// TestUpDownDeadlockFree: up*/down* routes random connected graphs from
// files with one VC: the channel-dependency check proves each (the build
// runs it), and 100,000 cycles of uniform traffic at load 1.0 (the network
// far past saturation, every source queue kept full) deliver every
// measured packet without a stall,
// under both the deterministic and the adaptive variant. On the same
// graphs "shortest" with one VC is refused wherever the graph has a
// cycle of links, so the property is up*/down*'s.
func TestUpDownDeadlockFree(t *testing.T) {
	t.Parallel()
	cycles := int64(100_000)
	if raceEnabled {
		cycles = 10_000
	}
	rng := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	refused := 0
	for trial := range 8 {
		path := filepath.Join(dir, fmt.Sprintf("g%d.txt", trial))
		if err := os.WriteFile(path, []byte(graphfile.RandomConnected(rng, 6+rng.IntN(18), 4+rng.IntN(12))), 0o644); err != nil {
			t.Fatal(err)
		}
		routingName := []string{"up-down", "up-down-adaptive"}[trial%2]
		c := small(func(c *Config) {
			c.Name = fmt.Sprintf("graph-%d-%s", trial, routingName)
			c.Network = netOf("file", "path", path)
			c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits = routingName, 1, 8
			c.Traffic.Process, c.Traffic.Pattern, c.Traffic.Load, c.Traffic.PacketFlits = "bernoulli", "uniform", 1.0, 4
			c.Traffic.SourceQueuePackets = 4 // the backlog a node keeps; the network runs full
			c.Measure.WarmupCycles, c.Measure.MeasureCycles, c.Measure.DrainCycles = 1000, cycles-1000, 200_000
		})
		r := mustRun(t, c, Options{})
		if !r.Completed || r.MeasuredUndelivered != 0 || r.CyclesSimulated < cycles {
			t.Fatalf("%s: completed %v after %d cycles, %d measured packets undelivered", c.Name, r.Completed, r.CyclesSimulated, r.MeasuredUndelivered)
		}
		shortest := c
		shortest.Router.Routing = "shortest"
		if err := checkNetwork(context.Background(), shortest); err != nil {
			refused++
		}
		t.Logf("%s: %.3f flits/node/cycle accepted, latency mean %.0f cycles", c.Name, r.AcceptedFlitsPerNodeCycle, r.Latency.Mean)
	}
	if refused == 0 {
		t.Errorf("shortest with one VC was refused on none of the graphs: they test nothing")
	}
	t.Logf("shortest with one VC refused on %d of 8 graphs", refused)
}

// TestUpDownDeterminism: up*/down* on a random graph gives one digest
// under every executor and worker count, deterministic and adaptive.
func TestUpDownDeterminism(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "g.txt")
	if err := os.WriteFile(path, []byte(graphfile.RandomConnected(rand.New(rand.NewPCG(3, 9)), 20, 12)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"up-down", "up-down-adaptive"} {
		c := small(func(c *Config) {
			c.Name = "graph-" + name
			c.Network = netOf("file", "path", path)
			c.Router.Routing, c.Router.VC.VCs, c.Router.VC.BufferFlits = name, 2, 8
			c.Traffic.Process, c.Traffic.Pattern, c.Traffic.Load, c.Traffic.PacketFlits = "bernoulli", "uniform", 0.3, 4
		})
		if r := sameDigestEverywhere(t, c); !r.Completed {
			t.Fatalf("%s: not completed", name)
		}
	}
}
